import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { LogViewerPage } from './LogViewerPage';
import { LOG_VIEWER_PATH, logViewerPath } from './paths';

const fileName = 'pathway-2025-06-01.log';

function logOf(count: number): string {
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      level: i === count - 1 ? 50 : 30,
      time: Date.UTC(2025, 5, 1, 9, 0, i % 60),
      msg: `entry ${i + 1}`,
    }),
  ).join('\n');
}

function renderViewer(content: string) {
  const fetchMock = vi.fn(
    async () => new Response(content, { status: 200, headers: { 'content-type': 'text/plain' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  const router = createMemoryRouter([{ path: LOG_VIEWER_PATH, element: <LogViewerPage /> }], {
    initialEntries: [logViewerPath(fileName)],
  });
  renderWithProviders(<RouterProvider router={router} />);
  return fetchMock;
}

describe('LogViewerPage', () => {
  it('shows each entry with its level and message, and the raw line on request', async () => {
    const fetchMock = renderViewer(logOf(3));

    expect(await screen.findByRole('heading', { level: 1, name: fileName })).toBeInTheDocument();
    const entries = await screen.findAllByRole('listitem');
    expect(entries).toHaveLength(3);
    expect(entries[0]).toHaveTextContent(/INFO entry 1$/);
    expect(entries[2]).toHaveTextContent(/ERROR entry 3$/);
    expect(fetchMock).toHaveBeenCalledWith(
      `/api/logs/download/${fileName}?view=true`,
      expect.objectContaining({ credentials: 'include' }),
    );

    await userEvent.setup().click(screen.getByLabelText('Raw lines'));
    expect(screen.getAllByRole('listitem')[0]).toHaveTextContent('{"level":30,');
  });

  it('shows the latest 500 entries of a long log, and all of them on request', async () => {
    renderViewer(logOf(1200));

    const note = await screen.findByText(/Showing the last 500 of 1,200 entries/);
    // Role queries over hundreds of items are slow in jsdom; the list's items are counted directly.
    const entries = () => document.querySelectorAll('ol > li');
    expect(entries()).toHaveLength(500);
    expect(entries()[0]).toHaveTextContent(/entry 701$/);

    await userEvent
      .setup()
      .click(
        within(note.closest('[role="status"]') as HTMLElement).getByRole('button', { name: 'Show all' }),
      );
    expect(entries()).toHaveLength(1200);
    expect(entries()[0]).toHaveTextContent(/entry 1$/);
    expect(screen.queryByText(/Showing the last/)).not.toBeInTheDocument();
  });
});
