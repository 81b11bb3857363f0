import { messages, type Video, type VideoSet, type VideoThumbs } from '@pathway/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { ManageVideosPage } from './ManageVideosPage';
import { deletionWarning } from './VideoSetDialogs';

const set: VideoSet = {
  fitness_video_set_id: 4,
  set_name: 'Chair exercises',
  number_of_weeks: 3,
  videos_in_week: 2,
  created_at: '2025-01-02T10:00:00.000Z',
  organisation_id: 1,
  shared: false,
};

function video(overrides: Partial<Video>): Video {
  return {
    video_id: 1,
    fitness_video_set_id: 4,
    set_name: 'Chair exercises',
    title: 'Arm raises',
    description: 'Raise both arms.',
    file_location_path: 'http://localhost/media/uploads/0123456789abcdef0123456789abcdef',
    file_size: 1000,
    video_thumbnail_url: 'processing....',
    poster_url: null,
    video_length: '0',
    week_number: 1,
    day_number: 1,
    created_at: '2025-01-02T10:00:00.000Z',
    updated_at: '2025-01-02T10:00:00.000Z',
    ...overrides,
  };
}

const urlOf = (input: RequestInfo | URL) =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

/** Answers the page's calls from a small in-memory server; `thumbs` may change between calls. */
function serve(videos: Video[], thumbs: () => VideoThumbs) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = urlOf(input);
    if (url === '/api/videoset/4') return jsonResponse(200, set);
    if (url === '/api/videoset/4/videos') return jsonResponse(200, videos);
    if (url === '/api/video/thumbs/4') return jsonResponse(200, thumbs());
    if (url.startsWith('/thumbs?')) return jsonResponse(200, { message: messages.thumbnail.queued });
    return jsonResponse(404, { message: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  renderWithProviders(
    <MemoryRouter initialEntries={['/video/4']}>
      <Routes>
        <Route path="/video/:fitness_video_set_id" element={<ManageVideosPage />} />
      </Routes>
    </MemoryRouter>,
  );
  return fetchMock;
}

const callsTo = (fetchMock: ReturnType<typeof vi.fn>, prefix: string) =>
  fetchMock.mock.calls.filter(([url]) => String(url).startsWith(prefix)).length;

describe('ManageVideosPage', () => {
  it('shows week buttons and one row per day, week 1 first, with ADD on empty days', async () => {
    serve(
      [video({ day_number: 2, video_thumbnail_url: 'http://localhost/media/thumbs/1-abc.jpg' })],
      () => ({}),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Chair exercises' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Week 1' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Week 3' })).toHaveAttribute('aria-pressed', 'false');
    const table = await screen.findByRole('table', { name: 'Videos of week 1' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(within(table).getByRole('button', { name: 'Add a video for week 1, day 1' })).toBeInTheDocument();
    const thumbnail = within(table).getByRole('button', { name: 'Play Arm raises' }).querySelector('img')!;
    expect(thumbnail).toHaveAttribute('width', '100');
    expect(thumbnail).toHaveAttribute('height', '80');

    await userEvent.click(screen.getByRole('button', { name: 'Week 2' }));
    const week2 = await screen.findByRole('table', { name: 'Videos of week 2' });
    expect(within(week2).getAllByRole('button', { name: /^Add a video for week 2/ })).toHaveLength(2);
  });

  it('shows the status text and a reload button while a thumbnail is made, and the picture once it is there', async () => {
    let thumbnail = 'processing....';
    const fetchMock = serve([video({})], () => ({
      '1': [{ day_number: 1, video_id: 1, video_thumbnail_url: thumbnail }],
    }));
    const table = await screen.findByRole('table', { name: 'Videos of week 1' });
    expect(await within(table).findByText('processing....')).toBeInTheDocument();
    const reload = within(table).getByRole('button', { name: 'Reload the thumbnail of Arm raises' });

    thumbnail = 'http://localhost/media/thumbs/1-abc.jpg';
    const before = callsTo(fetchMock, '/api/video/thumbs/4');
    await userEvent.click(reload);
    await waitFor(() => expect(callsTo(fetchMock, '/api/video/thumbs/4')).toBeGreaterThan(before));
    await waitFor(() =>
      expect(
        within(table).getByRole('button', { name: 'Play Arm raises' }).querySelector('img'),
      ).toHaveAttribute('src', thumbnail),
    );
    expect(within(table).queryByText('processing....')).not.toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /^Reload/ })).not.toBeInTheDocument();
    // Reloading a video still being made only asks for its status: nothing new is queued.
    expect(callsTo(fetchMock, '/thumbs?')).toBe(0);
  });

  it('asks for a new try when the reload button is pressed on a thumbnail that failed', async () => {
    const failed = messages.thumbnail.failed;
    const fetchMock = serve([video({ video_thumbnail_url: failed })], () => ({
      '1': [{ day_number: 1, video_id: 1, video_thumbnail_url: failed }],
    }));
    const table = await screen.findByRole('table', { name: 'Videos of week 1' });
    expect(await within(table).findByText(failed)).toBeInTheDocument();
    await userEvent.click(within(table).getByRole('button', { name: 'Reload the thumbnail of Arm raises' }));
    await waitFor(() => expect(callsTo(fetchMock, '/thumbs?')).toBe(1));
    const asked = new URL(
      urlOf(fetchMock.mock.calls.find(([url]) => urlOf(url).startsWith('/thumbs?'))![0]),
      'http://localhost',
    );
    expect(asked.searchParams.get('videoId')).toBe('1');
    expect(asked.searchParams.get('videoUrl')).toBe(video({}).file_location_path);
  });
});

describe('the delete warning of a set', () => {
  it('says what will really happen', () => {
    expect(deletionWarning({ videos: 5, participants: 2, files_deleted: 4, files_kept: 1 })).toEqual([
      'The set is deleted immediately.',
      '2 participants on this programme lose all their progress and their record of videos watched.',
      '5 videos are deleted. 4 video files used only by this set are removed from storage and become inaccessible. 1 file also used in another set stays.',
      'This cannot be undone.',
    ]);
    expect(deletionWarning({ videos: 0, participants: 0, files_deleted: 0, files_kept: 0 })).toContain(
      'No participant is on this programme.',
    );
  });
});
