import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

export function participantGrid(page: Page): Locator {
  return page.getByRole('grid', { name: 'Participants' });
}

/** The grid's row of one participant. */
export function participantRow(page: Page, participantId: number): Locator {
  return participantGrid(page)
    .getByRole('row')
    .filter({ has: page.getByRole('gridcell', { name: String(participantId), exact: true }) });
}

/**
 * Narrows the Participants grid with its search box (server-side), as an admin looking for someone
 * would, and waits until the grid shows the answer. The rows move when the answer comes, so a
 * click aimed at a row before then can land where the row was and be lost (seen under
 * `stress --cpu 2`: "View details" clicked, no dialog). The search must be one this page has not
 * answered yet (the console keeps answers): load the page before searching again.
 */
export async function searchParticipants(page: Page, text: string): Promise<void> {
  const box = page.getByRole('searchbox');
  if (!(await box.isVisible())) await page.getByRole('button', { name: 'Search' }).click();
  await searchedRowsShown(page, text, () => page.getByRole('searchbox').fill(text));
}

/**
 * Does what makes the Participants grid search for the text (the search box typed in, or a link to
 * `/participants?q=`), then waits for the answer's rows to be drawn, and for a participant id
 * scrolls to that participant's row.
 */
export async function searchedRowsShown(
  page: Page,
  text: string,
  search: () => Promise<void>,
): Promise<void> {
  const answered = page.waitForResponse(
    (r) => r.url().includes('/api/participant?') && r.url().includes(`q=${encodeURIComponent(text)}`),
  );
  await search();
  await answered;
  // The loading bar goes once the answer's rows are drawn.
  await expect(participantGrid(page).getByRole('progressbar')).toHaveCount(0);
  // A participant id also matches every phone and NHS number that contains it (the suite's
  // participants share one phone number): their row can be further down than the grid draws.
  if (/^\d+$/.test(text)) await scrollToRow(page, Number(text));
}

/**
 * Scrolls the grid, as a person would, until the participant's row is drawn or the list ends (the
 * grid draws the rows on screen only). A row that is not in the answer is looked for to the end,
 * and the caller's expectation then says so.
 */
async function scrollToRow(page: Page, participantId: number): Promise<void> {
  const row = participantRow(page, participantId);
  const scroller = participantGrid(page).locator('.MuiDataGrid-virtualScroller');
  while ((await row.count()) === 0) {
    // Half a screen at a time, each drawn before the next: every row is on screen at some step.
    const moved = await scroller.evaluate(async (element) => {
      const before = element.scrollTop;
      element.scrollTop = before + element.clientHeight / 2;
      await new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)));
      return element.scrollTop > before;
    });
    if (!moved) return;
  }
}
