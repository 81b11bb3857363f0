import type { Page } from '@playwright/test';
import { messages, type DashboardData } from '@pathway/contract';
import { expect, expectAccessible, test } from './fixtures';
import { participantRow, searchParticipants } from './participant-grid';
import { addParticipant, addVideoSetThroughApi, enrol, recordViewToday } from './register-data';

/**
 * The console as a clinician meets it (issue 16): the dashboard and the list agree, a refused
 * date can be typed over, every scrollable region is reachable by keyboard, and pages are exactly
 * as tall and as wide as what they show, on a laptop and on a phone.
 */

const LAPTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The page's scrollable size beside what it shows: the footer's end and the widest element. */
async function pageExtent(page: Page) {
  return page.evaluate(() => {
    const footer = document.querySelector('footer');
    const root = document.documentElement;
    return {
      scrollHeight: root.scrollHeight,
      scrollWidth: root.scrollWidth,
      viewportWidth: root.clientWidth,
      viewportHeight: root.clientHeight,
      contentBottom: footer ? Math.ceil(footer.getBoundingClientRect().bottom + window.scrollY) : 0,
    };
  });
}

test.describe('the console as a clinician meets it', () => {
  test('each adherence card holds as many participants as its filtered list, and no one without a programme', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    // People in every situation: on a programme, without a programme, without a tablet.
    const set = await addVideoSetThroughApi(adminApi);
    const enrolled = (await addParticipant(adminApi)).participant;
    await enrol(adminApi, enrolled.participant_id, set.fitness_video_set_id);
    const newcomer = (await addParticipant(adminApi)).participant;
    const withoutTablet = (await addParticipant(adminApi)).participant;
    const detached = await adminApi.patch(`/api/participant/${withoutTablet.participant_id}`, {
      data: { unique_device_id: 'empty' },
    });
    expect(detached.status()).toBe(200);
    await signInAs('basic access');

    const cards = [
      ['Participants on track', 'onTrack', 'On track'],
      ['Participants slightly behind', 'slightlybehind', 'Slightly behind'],
      ['Participants behind', 'behind', 'Behind'],
    ] as const;
    for (const [card, state, label] of cards) {
      // Other tests on this server add people meanwhile: the card and its list are compared from
      // the same moment (the dashboard read again after the list, unchanged).
      await expect(async () => {
        await page.goto('/dashboard');
        const link = page.getByRole('region', { name: 'Adherence' }).getByRole('link', { name: card });
        const shown = Number((await link.getByRole('paragraph').textContent())!.replace(/,/g, ''));
        const listed = page.waitForResponse(
          (r) => r.url().includes('/api/participant?') && r.url().includes(`state=${state}`),
        );
        await link.click();
        await expect(page).toHaveURL(new RegExp(`/participants\\?state=${state}$`));
        const list = (await (await listed).json()) as {
          data: { participant_id: number; adherence_state: string | null }[];
          pagination: { total: number };
        };
        await expect(page.getByText(/^Showing:/)).toHaveText(`Showing: ${label}`);
        await expect(page.getByRole('grid', { name: 'Participants' })).toContainText(
          list.pagination.total === 0 ? 'No participants' : /\d/,
        );
        const after = (await (await adminApi.get('/api/dashboard')).json()) as DashboardData;
        const key = state === 'slightlybehind' ? 'slightlyBehind' : state;
        expect(after.participantsProgress[key]).toBe(shown);
        expect(list.pagination.total).toBe(shown);
        for (const p of list.data) expect(p.adherence_state).toBe(state);
        const ids = list.data.map((p) => p.participant_id);
        expect(ids).not.toContain(newcomer.participant_id);
        expect(ids).not.toContain(withoutTablet.participant_id);
      }).toPass({ timeout: 90_000 });
    }
    await expectAccessible(page, 'participants filtered from a card');

    // In the grid, people without a programme have no adherence state: they say what they wait for.
    await page.getByRole('button', { name: 'Clear filter' }).click();
    await expect(page).toHaveURL(/\/participants$/);
    for (const [who, text] of [
      // Today's video counts from the first day: a day behind until it is watched.
      [enrolled, 'Slightly behind · 1 day'],
      [newcomer, 'No programme'],
      [withoutTablet, 'No tablet'],
    ] as const) {
      await searchParticipants(page, String(who.participant_id));
      const row = participantRow(page, who.participant_id);
      await expect(row.locator('[data-field="days_behind"]')).toHaveText(text);
      // Shown whole: neither the chip nor its cell cuts the words or the days.
      const cut = await row
        .locator('[data-field="days_behind"] [data-tracking]')
        .evaluate((chip) =>
          [chip, chip.parentElement!, chip.closest('[role="gridcell"]')!].some(
            (el) => el.scrollWidth > el.clientWidth,
          ),
        );
      expect(cut, text).toBe(false);
    }
  });

  test('a refused date of birth can be typed over, on the add form and in the edit dialog', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    await signInAs('full access');
    await page.goto('/addparticipant');
    const form = page.getByRole('form', { name: 'Add participant' });
    const dob = form.getByRole('group', { name: /Date of birth/ });
    await dob.getByRole('spinbutton', { name: 'Day' }).click();
    await page.keyboard.type('01011899');
    await expect(dob).toContainText('01/01/1899');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText(messages.participant.dobRange)).toBeVisible();

    // Typed over, as before the failed Save: every section takes what is typed.
    await dob.getByRole('spinbutton', { name: 'Day' }).click();
    await page.keyboard.type('14031950');
    await expect(dob).toContainText('14/03/1950');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText(messages.participant.firstNameEmpty)).toBeVisible();
    await expect(form.getByText(messages.participant.dobRange)).toHaveCount(0);
    await expect(form.getByText(messages.participant.dobFormat)).toHaveCount(0);
    await expect(dob).toContainText('14/03/1950');
    await expectAccessible(page, 'add participant after retyping a date');

    const { participant } = await addParticipant(adminApi);
    await page.goto('/participants');
    await searchParticipants(page, String(participant.participant_id));
    await page.getByRole('menuitem', { name: `Edit participant ${participant.participant_id}` }).click();
    const edit = page.getByRole('dialog', { name: /^Edit participant — / });
    const editDob = edit.getByRole('group', { name: /Date of birth/ });
    await editDob.getByRole('spinbutton', { name: 'Day' }).click();
    await page.keyboard.type('01011899');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByText(messages.participant.dobRange)).toBeVisible();
    await editDob.getByRole('spinbutton', { name: 'Day' }).click();
    await page.keyboard.type('14031950');
    await expect(editDob).toContainText('14/03/1950');
    const saved = page.waitForResponse((r) => r.request().method() === 'PATCH');
    await edit.getByRole('button', { name: 'Save' }).click();
    expect((await saved).request().postDataJSON()).toEqual({ date_of_birth: '1950-03-14' });
    await expect(edit).toHaveCount(0);
  });

  test('every tab of a participant with long content passes axe, scrollable regions included', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    const set = await addVideoSetThroughApi(adminApi, 4, 5);
    const { participant, device } = await addParticipant(adminApi, {
      notes: 'Walks with a stick. '.repeat(40),
    });
    await enrol(adminApi, participant.participant_id, set.fitness_video_set_id);
    // Many push messages make the Progress tab longer than the dialog.
    for (let i = 1; i <= 14; i++) {
      const sent = await adminApi.post('/api/pushNotifications', {
        data: { title: `Reminder ${i}`, body: 'Time for today’s exercise video', uuid: device.uuid },
      });
      expect(sent.status()).toBe(200);
    }
    await signInAs('full access');
    await page.goto('/participants');
    await searchParticipants(page, String(participant.participant_id));
    await page
      .getByRole('menuitem', { name: `View details of participant ${participant.participant_id}` })
      .click();
    const details = page.getByRole('dialog', { name: `Participant ${participant.participant_id}` });
    await expect(details).toContainText('Walks with a stick.');
    await expectAccessible(page, 'details tab with long notes');
    for (const tab of ['Video Set', 'Progress', 'Advanced settings']) {
      await details.getByRole('tab', { name: tab }).click();
      await expect(details.getByRole('tabpanel')).toBeVisible();
      if (tab === 'Progress') {
        await expect(details.getByRole('table', { name: 'Push messages' })).toContainText('Reminder 14');
        // The long table scrolls by keyboard: its region takes focus.
        const region = details.getByRole('region', { name: 'Push messages, scrollable' });
        await region.focus();
        await expect(region).toBeFocused();
      }
      await expectAccessible(page, `participant ${tab} tab with long content`);
    }
  });

  test('the dashboard is as tall as its content and never scrolls sideways, on a laptop and a phone', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    await recordViewToday(adminApi);
    await signInAs('basic access');
    for (const size of [LAPTOP, PHONE]) {
      await page.setViewportSize(size);
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { name: 'Watched videos in the last 7 days' })).toBeVisible();
      // The chart's data table is there for screen readers (and is what stretched the page).
      await expect(page.getByRole('table')).toHaveCount(1);
      await expect(page.locator('.MuiChartsAxis-directionX')).toBeVisible();
      const extent = await pageExtent(page);
      expect(extent.scrollHeight, `page height at ${size.width}px`).toBeLessThanOrEqual(
        Math.max(extent.viewportHeight, extent.contentBottom),
      );
      expect(extent.scrollWidth, `page width at ${size.width}px`).toBeLessThanOrEqual(extent.viewportWidth);
      // Every date of the chart is written whole (long format, not shortened to "20 Nove…") and lies
      // inside the chart and the screen: one label for each day of the chart's data table.
      const dates = await page.evaluate(() => {
        const axis = document.querySelector('.MuiChartsAxis-directionX')!;
        const chart = axis.closest('svg')!.getBoundingClientRect();
        const right = Math.min(chart.right, document.documentElement.clientWidth);
        const labels = [...axis.querySelectorAll('.MuiChartsAxis-tickLabel')];
        const table = document.querySelector('table caption')!.closest('table')!;
        return {
          days: [...table.querySelectorAll('tbody tr')].map((row) => row.querySelector('td')!.textContent),
          shown: labels.map((label) => label.textContent),
          cut: labels
            .filter((label) => {
              const box = label.getBoundingClientRect();
              return (
                box.left < Math.max(chart.left, 0) - 1 ||
                box.right > right + 1 ||
                box.bottom > chart.bottom + 1
              );
            })
            .map((label) => label.textContent),
        };
      });
      expect(dates.days).toHaveLength(8);
      expect(dates.shown, `dates at ${size.width}px`).toEqual(dates.days);
      expect(dates.cut, `dates cut at ${size.width}px`).toEqual([]);
      await expectAccessible(page, `dashboard at ${size.width}px`);
      if (size === LAPTOP) {
        // Each menu entry on one line: "Authorised devices" as tall as "Dashboard".
        const menu = page.getByRole('navigation', { name: 'Main menu' });
        const one = await menu.getByRole('link', { name: 'Dashboard' }).boundingBox();
        const long = await menu.getByRole('link', { name: 'Authorised devices' }).boundingBox();
        expect(long!.height).toBe(one!.height);
      }
    }
  });

  test('no screen scrolls sideways at phone width, for full access', async ({ page, adminApi, signInAs }) => {
    const set = await addVideoSetThroughApi(adminApi);
    await addParticipant(adminApi);
    await page.setViewportSize(PHONE);
    // Server Logs among the screens: a system administrator's.
    await signInAs('full access', { system_administrator: true });
    for (const [path, heading] of [
      ['/dashboard', 'Dashboard'],
      ['/participants', 'Participants'],
      ['/addparticipant', 'Add participant'],
      ['/videoset', 'Video Sets'],
      [`/video/${set.fitness_video_set_id}`, set.set_name],
      ['/authoriseddevices', 'Authorised mobile devices'],
      ['/adminusers', 'Admin Users'],
      ['/serverlogs', 'Server Logs'],
      ['/audit', 'Audit trail'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(heading);
      const extent = await pageExtent(page);
      expect(extent.scrollWidth, `${path} at 390px`).toBeLessThanOrEqual(extent.viewportWidth);
      expect(extent.scrollHeight, `${path} height at 390px`).toBeLessThanOrEqual(
        Math.max(extent.viewportHeight, extent.contentBottom),
      );
    }
    // Phones have no double-click: the grid's hint does not offer one.
    await page.goto('/participants');
    await expect(page.getByText(/Double-click/)).toHaveCount(0);
    await expectAccessible(page, 'participants at 390px');
  });
});
