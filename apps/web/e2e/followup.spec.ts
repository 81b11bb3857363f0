import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { request, type APIRequestContext, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { cliBundle } from '../../../scripts/build-server.mjs';
import { expect, expectAccessible, fillSignIn, test } from './fixtures';
import { repoRoot, serverBundle, waitForPort, waitForReady } from './global-setup';
import {
  addParticipant,
  addVideoSetThroughApi,
  enrol,
  tabletWithoutPushToken,
  uniqueWord,
} from './register-data';
import { STEP_UP_MAX_AGE_MINUTES } from '@pathway/contract';

/**
 * The coordinator's morning (issue 31). It moves the server's clock a day, so it runs its own
 * server (with CLOCK_OFFSET_FILE) rather than the suite's shared one, whose sessions and sign-in
 * codes every other test relies on.
 */
const DAY_MS = 86_400_000;

let server: ChildProcess;
let dataDir: string;
let offsetFile: string;
let baseURL: string;
let admin: { user_name: string; password: string; totp: OTPAuth.TOTP; lastStep: number };
let offsetMs = 0;

/** The next unused sign-in code at the server's time (its clock may run a day ahead). */
async function codeAtServerTime(): Promise<string> {
  const period = admin.totp.period * 1000;
  let step = Math.floor((Date.now() + offsetMs) / period);
  if (step <= admin.lastStep) {
    step = admin.lastStep + 1;
    // One step of drift is accepted; beyond it, wait for the clock (a bound, not a pause).
    const acceptedFrom = (step - 1) * period - offsetMs;
    if (Date.now() < acceptedFrom) await new Promise((r) => setTimeout(r, acceptedFrom - Date.now() + 200));
  }
  admin.lastStep = step;
  return admin.totp.generate({ timestamp: step * period });
}

/** The server's programme date (Europe/London), `days` from its today. */
function serverDate(days = 0): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(
    new Date(Date.now() + offsetMs + days * DAY_MS),
  );
}

async function signIn(page: Page) {
  await page.goto(`${baseURL}/login`);
  await fillSignIn(page, admin, await codeAtServerTime());
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function apiSignedIn(): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL });
  const login = await api.post('/login', {
    data: { user_name: admin.user_name, password: admin.password, mfa_token: await codeAtServerTime() },
  });
  expect(login.status(), await login.text()).toBe(200);
  return api;
}

test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'pathway-e2e-followup-'));
  offsetFile = path.join(dataDir, 'clock-offset-ms');
  writeFileSync(offsetFile, '0');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: path.join(dataDir, 'data'),
    LOGIN_LIMIT_PER_ADDRESS: '100000',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    LOG_TO_STDOUT: 'true',
    CLOCK_OFFSET_FILE: offsetFile,
  };
  delete env.DATABASE_URL;
  const output: string[] = [];
  server = spawn(process.execPath, [serverBundle], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  baseURL = `http://127.0.0.1:${await waitForPort(server, output)}`;
  await waitForReady(baseURL);
  const password = `e2e-${randomBytes(12).toString('hex')}`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      cliBundle,
      'create-admin',
      '--username',
      'coordinator@example.org',
      '--password',
      password,
      '--role',
      'full access',
      '--first-name',
      'Morning',
      '--last-name',
      'Coordinator',
      '--json',
    ],
    { cwd: repoRoot, env },
  );
  const created = JSON.parse(stdout) as { user_name: string; totp_secret: string };
  admin = {
    user_name: created.user_name,
    password,
    totp: new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(created.totp_secret) }),
    lastStep: -1,
  };
});

test.afterAll(async () => {
  if (server.exitCode === null && server.signalCode === null) {
    await new Promise<void>((resolve) => {
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
    });
  }
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${path.join(dataDir, 'data')}.secrets-key`, { force: true });
});

test("the coordinator's morning: call the top participant, no answer, try tomorrow", async ({ page }) => {
  // A participant whose tablet signed in but never registered for push messages: reminders are failing.
  const api = await apiSignedIn();
  const set = await addVideoSetThroughApi(api, 1, 1);
  const { participant, device } = await addParticipant(api, { first_name: 'Florence' });
  await enrol(api, participant.participant_id, set.fitness_video_set_id);
  // Enrolled today, with a tablet not yet switched on: on track, not on the worklist.
  const before = await api.get(`/api/followup?perPage=500`);
  expect(
    ((await before.json()) as { data: { participant_id: number }[] }).data.map((r) => r.participant_id),
  ).not.toContain(participant.participant_id);
  await tabletWithoutPushToken(api, device, participant.participant_id, set.fitness_video_set_id);
  await api.dispose();
  const name = `Florence ${participant.last_name} (${participant.participant_id})`;

  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page);
  await expect(page.getByRole('region', { name: 'Needs follow-up' })).toBeVisible();
  await page.getByRole('link', { name: 'Follow-up', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Follow-up' })).toBeVisible();
  const worklist = page.getByRole('table', { name: 'Follow-up worklist' });
  const top = worklist.getByRole('row').nth(1);
  await expect(top.getByRole('button', { name })).toBeVisible();
  await expect(top.getByText('Reminders failing')).toBeVisible();
  await expectAccessible(page, 'follow-up worklist');

  // Open the top participant: their details, with the contact log and the messages.
  await top.getByRole('button', { name }).click();
  const details = page.getByRole('dialog', { name: /Florence/ });
  await expect(details).toBeVisible();
  await details.getByRole('tab', { name: 'Contacts' }).click();
  await expect(details.getByText('No contact recorded yet.')).toBeVisible();
  await expectAccessible(page, 'participant contacts tab');
  await details.getByRole('tab', { name: 'Messages' }).click();
  await expect(details.getByRole('heading', { name: 'Messages' })).toBeVisible();
  await expectAccessible(page, 'participant messages tab');
  await details.getByRole('button', { name: 'Close' }).click();
  await expect(details).toBeHidden();

  // No answer; try tomorrow.
  await top.getByRole('button', { name: /Record contact with Florence/ }).click();
  const form = page.getByRole('dialog', { name: /Record contact/ });
  await page.getByRole('combobox', { name: 'Outcome' }).click();
  await page.getByRole('option', { name: 'No answer' }).click();
  await form.getByLabel('Next follow-up date (optional)').fill(serverDate(1));
  await expectAccessible(page, 'record contact dialog');
  await form.getByRole('button', { name: 'Record contact' }).click();
  await expect(form).toBeHidden();
  await expect(worklist.getByRole('button', { name })).toHaveCount(0);
  await expect(page.getByText('Nobody needs follow-up today.')).toBeVisible();

  // The next morning: the server's clock moves a day; the session of yesterday has ended.
  offsetMs = DAY_MS;
  writeFileSync(offsetFile, String(offsetMs));
  await signIn(page);
  await page.goto(`${baseURL}/followup`);
  const back = page.getByRole('table', { name: 'Follow-up worklist' }).getByRole('row').nth(1);
  await expect(back.getByRole('button', { name })).toBeVisible();
  await expect(back.getByText(/No answer/)).toBeVisible();
  await expectAccessible(page, 'follow-up worklist the next day, 1366 px');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { level: 1, name: 'Follow-up' })).toBeVisible();
  await expectAccessible(page, 'follow-up worklist at phone width');
});

/** What the worklist's layout leaves of it in the viewport, measured in the browser. */
async function worklistLayout(page: Page, participantId: number) {
  return page.getByRole('table', { name: 'Follow-up worklist' }).evaluate((table, id) => {
    const viewport = document.documentElement.clientWidth;
    const box = (element: Element) => {
      const { left, right } = element.getBoundingClientRect();
      return { left, right };
    };
    // Any box between the table and the page that scrolls sideways hides part of the table.
    const overflowing: string[] = [];
    for (let element: Element | null = table; element; element = element.parentElement) {
      if (element.scrollWidth > element.clientWidth + 1) overflowing.push(element.tagName);
    }
    const row = table.querySelector(`tr[data-participant="${id}"]`)!;
    const name = row.querySelector('th button, td button')!;
    const style = getComputedStyle(name);
    const height =
      name.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    return {
      viewport,
      overflowing,
      headers: [...table.querySelectorAll('thead th')].map((th) => ({ text: th.textContent, ...box(th) })),
      action: box([...row.querySelectorAll('button')].find((b) => b.textContent === 'Record contact')!),
      nameLines: Math.round(height / parseFloat(style.lineHeight)),
    };
  }, participantId);
}

test("the worklist fits a laptop's screen without sideways scrolling, and its action stays reachable on a phone", async ({
  page,
}) => {
  // A row with everything filled in: a long name, two phone numbers, a tablet that reminders
  // cannot reach, a contact whose next follow-up is today (so they stay on the list).
  const api = await apiSignedIn();
  const set = await addVideoSetThroughApi(api, 1, 1);
  const { participant, device } = await addParticipant(api, {
    first_name: 'Florence-Josephine',
    last_name: uniqueWord('Nightingale-Barrington'),
    phone_number_secondary: '+447700900456',
  });
  await enrol(api, participant.participant_id, set.fitness_video_set_id);
  await tabletWithoutPushToken(api, device, participant.participant_id, set.fitness_video_set_id);
  const contact = await api.post(`/api/participant/${participant.participant_id}/contacts`, {
    data: { method: 'phone', outcome: 'left_message', next_followup_on: serverDate(0) },
  });
  expect(contact.status(), await contact.text()).toBe(201);
  await api.dispose();
  const who = `Florence-Josephine ${participant.last_name}`;
  const name = { name: `${who} (${participant.participant_id})`, exact: true };

  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page);
  await page.goto(`${baseURL}/followup`);
  const worklist = page.getByRole('table', { name: 'Follow-up worklist' });
  const row = worklist.locator(`tr[data-participant="${participant.participant_id}"]`);
  await expect(row.getByRole('button', name)).toBeVisible();
  await expect(row.getByText('Left a message')).toBeVisible();
  const laptop = await worklistLayout(page, participant.participant_id);
  expect(laptop.overflowing, 'boxes scrolling sideways at 1366 px').toEqual([]);
  for (const header of laptop.headers) {
    expect(header.left, `${header.text} at 1366 px`).toBeGreaterThanOrEqual(0);
    expect(header.right, `${header.text} at 1366 px`).toBeLessThanOrEqual(laptop.viewport);
  }
  expect(laptop.headers.map((h) => h.text)).toContain('Next follow-up');
  expect(laptop.action.right, 'Record contact at 1366 px').toBeLessThanOrEqual(laptop.viewport);
  expect(laptop.nameLines, 'lines of the name at 1366 px').toBeLessThanOrEqual(2);
  await expectAccessible(page, 'follow-up worklist at 1366 x 768');

  // On a phone the row's action is on screen without scrolling sideways, and works.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row.getByRole('button', name)).toBeVisible();
  // Scrolled down to the row, never sideways (as a person scrolls a phone's page).
  await row.evaluate((tr) => window.scrollTo(0, tr.getBoundingClientRect().top + window.scrollY - 200));
  const phone = await worklistLayout(page, participant.participant_id);
  expect(phone.action.left, 'Record contact at 390 px').toBeGreaterThanOrEqual(0);
  expect(phone.action.right, 'Record contact at 390 px').toBeLessThanOrEqual(phone.viewport);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
    'the page scrolls sideways at 390 px',
  ).toBe(true);
  await expectAccessible(page, 'follow-up worklist at 390 px');
  await row.getByRole('button', { name: `Record contact with ${who}` }).click();
  const form = page.getByRole('dialog', { name: /Record contact/ });
  await expect(form).toBeVisible();
  await expectAccessible(page, 'record contact dialog at 390 px');
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toBeHidden();
});

// Here because this server's clock can move: a step-up is asked only when the session's last
// sign-in is more than STEP_UP_MAX_AGE_MINUTES old.
test('a dangerous action on an older session asks the person to confirm it is them, then goes ahead', async ({
  page,
}) => {
  await signIn(page);
  offsetMs += (STEP_UP_MAX_AGE_MINUTES + 1) * 60_000;
  writeFileSync(offsetFile, String(offsetMs));
  await page.goto(`${baseURL}/participants`);
  await expect(page.getByRole('heading', { level: 1, name: 'Participants' })).toBeVisible();

  // The whole list's export is a dangerous action: the server refuses it until the person steps up.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(confirm).toBeVisible();
  await expectAccessible(page, 'step-up dialog');
  await confirm.getByLabel('Password').fill(admin.password);
  await confirm.getByLabel('Authenticator code').fill(await codeAtServerTime());
  await confirm.getByRole('button', { name: 'Confirm and continue' }).click();
  await expect(confirm).toBeHidden();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^participants-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(page.getByRole('status').filter({ hasText: /^Exported \d+ participants?\.$/ })).toBeVisible();
});
