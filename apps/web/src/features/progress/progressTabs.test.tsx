import { messages, type ParticipationProgress } from '@pathway/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { AdvancedSettingsTab, moveDirection } from './AdvancedSettingsTab';
import { ProgressTab } from './ProgressTab';
import { VideoSetTab } from './VideoSetTab';

const sets = [
  { fitness_video_set_id: 3, set_name: 'Gentle start', number_of_weeks: 4, videos_in_week: 3 },
  { fitness_video_set_id: 5, set_name: 'Strength', number_of_weeks: 6, videos_in_week: 5 },
];
const progressAt = (week: number, day: number): ParticipationProgress => ({
  fitness_participation_progress_id: 11,
  participant_id: 7,
  fitness_video_set_id: 3,
  current_week: week,
  current_day: day,
  started_date: '2025-05-01',
  last_seen_date: '2025-05-03',
  percentage_progress: '25',
  video_stopped_at: '0',
  created_at: '2025-05-01T09:00:00.000Z',
});

/** Answers the tabs' reads; any write answers `write`. */
const urlOf = (input: RequestInfo | URL) =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

function stubApi(
  progress: ParticipationProgress | null,
  write: () => Response = () => jsonResponse(200, progressAt(2, 1)),
) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = urlOf(input);
    if (init?.method && init.method !== 'GET') return write();
    if (url === '/api/participationprogress/participant/7')
      return jsonResponse(200, progress ? [progress] : []);
    if (url === '/api/videoset') return jsonResponse(200, sets);
    if (url === '/api/videoset/3/videos') return jsonResponse(200, []);
    if (url.startsWith('/api/participationprogress/summary/3/participant/7')) {
      return jsonResponse(200, {
        daysPassed: 9,
        todalDaysInProgramme: 28,
        excerciseDaysInProgramme: 12,
        averagePerDay: 0.2,
        shouldSeenByNow: 6,
        actuallySeen: 2,
        seenVideos: [
          { video_id: 1, week_number: 1, day_number: 1, created_at: '2025-05-01T10:00:00.000Z' },
          { video_id: 2, week_number: 1, day_number: 2, created_at: '2025-05-03T10:00:00.000Z' },
        ],
      });
    }
    if (url === '/api/pushNotifications/participant/7') {
      return jsonResponse(200, [
        {
          push_id: 1,
          kind: 'missed-video',
          status: 'not sent: no provider configured',
          attempts: 1,
          last_error: null,
          created_at: '2025-05-04T05:00:00.000Z',
          sent_at: null,
        },
      ]);
    }
    return jsonResponse(404, { message: `unexpected ${url}` });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const writes = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method && init.method !== 'GET')
    .map(([url, init]) => ({
      url: urlOf(url),
      method: init!.method,
      body: JSON.parse(init!.body as string),
    }));

afterEach(() => vi.unstubAllGlobals());

describe('move direction (spec §4)', () => {
  it('goes backward within the week, forward to later places, and nowhere to an earlier week', () => {
    expect(moveDirection({ week: 2, day: 3 }, { week: 2, day: 1 })).toBe('backward');
    expect(moveDirection({ week: 2, day: 3 }, { week: 2, day: 3 })).toBe('forward');
    expect(moveDirection({ week: 2, day: 3 }, { week: 3, day: 1 })).toBe('forward');
    expect(moveDirection({ week: 2, day: 3 }, { week: 1, day: 3 })).toBeNull();
  });
});

describe('Advanced settings: move to week/day', () => {
  it('sends a backward move for an earlier day of the current week', async () => {
    const fetchMock = stubApi(progressAt(2, 3), () => jsonResponse(200, progressAt(2, 1)));
    const user = userEvent.setup();
    renderWithProviders(<AdvancedSettingsTab participantId={7} />);
    const day = await screen.findByLabelText('Day');
    await user.clear(day);
    await user.type(day, '1');
    await user.click(screen.getByRole('button', { name: 'Move' }));
    expect(await screen.findByText('Participant moved to week 2, day 1.')).toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([
      { url: '/api/video/progress/backward/7', method: 'POST', body: { week: 2, day: 1 } },
    ]);
  });

  it("refuses an earlier week with the spec's message and limits week and day, sending nothing", async () => {
    const fetchMock = stubApi(progressAt(2, 3));
    const user = userEvent.setup();
    renderWithProviders(<AdvancedSettingsTab participantId={7} />);
    const week = await screen.findByLabelText('Week');
    const day = screen.getByLabelText('Day');
    await user.clear(week);
    await user.type(week, '1');
    await user.click(screen.getByRole('button', { name: 'Move' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.progress.cannotMoveBack);
    await user.clear(week);
    await user.type(week, '5');
    await user.click(screen.getByRole('button', { name: 'Move' }));
    expect(await screen.findByText(messages.progress.weekRange(2, 4))).toBeInTheDocument();
    await user.clear(week);
    await user.type(week, '3');
    await user.clear(day);
    await user.type(day, '4');
    await user.click(screen.getByRole('button', { name: 'Move' }));
    expect(await screen.findByText(messages.progress.dayRange(3))).toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([]);
  });

  it('shows the server refusal', async () => {
    stubApi(progressAt(2, 3), () => jsonResponse(400, { message: messages.progress.cannotMoveBack }));
    const user = userEvent.setup();
    renderWithProviders(<AdvancedSettingsTab participantId={7} />);
    const week = await screen.findByLabelText('Week');
    await user.clear(week);
    await user.type(week, '4');
    await user.click(screen.getByRole('button', { name: 'Move' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.progress.cannotMoveBack);
  });
});

describe('Video Set tab', () => {
  it('prompts a participant without progress to choose a set, and associates it', async () => {
    const fetchMock = stubApi(null, () => jsonResponse(201, progressAt(1, 1)));
    const user = userEvent.setup();
    renderWithProviders(<VideoSetTab participantId={7} />);
    expect(await screen.findByText(/has no video set yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Video set' }));
    await user.click(await screen.findByRole('option', { name: /Strength/ }));
    await user.click(screen.getByRole('button', { name: 'Associate video set' }));
    expect(await screen.findByText(messages.progress.associated)).toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([
      {
        url: '/api/participationprogress',
        method: 'POST',
        body: { participant_id: 7, fitness_video_set_id: 5 },
      },
    ]);
  });

  it("asks 'Are you sure?' before another set resets existing progress", async () => {
    const fetchMock = stubApi(progressAt(2, 3));
    const user = userEvent.setup();
    renderWithProviders(<VideoSetTab participantId={7} />);
    expect(await screen.findByText(messages.progress.overrideWarning)).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Change video set to' }));
    await user.click(await screen.findByRole('option', { name: /Strength/ }));
    await user.click(screen.getByRole('button', { name: 'Change video set' }));
    const dialog = await screen.findByRole('dialog', { name: messages.progress.confirm });
    expect(writes(fetchMock)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Reset progress' }));
    await waitFor(() =>
      expect(writes(fetchMock)).toEqual([
        {
          url: '/api/participationprogress/11',
          method: 'PATCH',
          body: { fitness_video_set_id: 5, current_week: 1, current_day: 1 },
        },
      ]),
    );
  });
});

describe('Progress tab', () => {
  it('shows 2 or more days behind as a danger badge, the figures and the messages', async () => {
    stubApi(progressAt(2, 3));
    renderWithProviders(<ProgressTab participantId={7} />);
    const badge = await screen.findByText('4 days behind');
    expect(badge.closest('.MuiChip-root')).toHaveClass('MuiChip-colorError');
    expect(screen.getByText('Week 2, day 3')).toBeInTheDocument();
    expect(screen.getByText('Programme completed: 25%')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Watched videos' })).getAllByRole('row')).toHaveLength(3);
    expect(
      within(screen.getByRole('table', { name: 'Push messages' })).getByText(
        'not sent: no provider configured',
      ),
    ).toBeInTheDocument();
  });
});
