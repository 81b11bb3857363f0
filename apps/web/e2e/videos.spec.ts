import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { messages } from '@pathway/contract';
import type { Locator } from '@playwright/test';
import { writeTestVideo } from '../../server/test/test-video-file';
import { expect, expectAccessible, test } from './fixtures';

const files = mkdtempSync(path.join(os.tmpdir(), 'pathway-e2e-videos-'));

/** A real 3 s video made by ffmpeg's test source. */
function makeVideo(name: string): string {
  const file = path.join(files, name);
  return writeTestVideo(file, { seconds: 3 });
}

/** Picks a file the way a person does: the button opens the browser's file chooser. */
async function chooseFile(button: Locator, file: string) {
  const chooser = button.page().waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles(file);
}

let setCounter = 0;
const uniqueSetName = (prefix: string) => `${prefix} ${Date.now().toString(36)}${(setCounter += 1)}`;

test.describe('video sets and videos', () => {
  test('creates a set, uploads a video with the real uploader, sees its thumbnail appear, plays it and deletes it', async ({
    page,
    signInAs,
  }) => {
    // A whole journey with a dozen accessibility checks: longer than one screen's test.
    test.setTimeout(120_000);
    await signInAs('basic access');
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Video Sets' })
      .click();
    const table = page.getByRole('table', { name: 'Video sets' });
    await expect(table).toBeVisible();
    for (const column of ['Set ID', 'Name', 'Number of Weeks', 'Videos per week', 'Added', 'Actions']) {
      await expect(table.getByRole('columnheader', { name: column })).toBeVisible();
    }
    await expectAccessible(page, 'video sets');

    // Add a set: the spec's messages first, then a valid one.
    await page.getByRole('button', { name: 'Add new video set' }).click();
    const add = page.getByRole('dialog', { name: 'Add new video set' });
    await expectAccessible(page, 'add video set modal');
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add.getByText(messages.videoSet.nameEmpty)).toBeVisible();
    await expect(add.getByText(messages.videoSet.weeksEmpty)).toBeVisible();
    await expect(add.getByText(messages.videoSet.videosInWeekEmpty)).toBeVisible();
    await expectAccessible(page, 'add video set modal with errors');
    const setName = uniqueSetName('Chair exercises');
    await add.getByLabel(/^Set Name/).fill(setName);
    await add.getByLabel(/^Number Of Weeks/).fill('2');
    await add.getByLabel(/^Videos Per Week/).fill('8');
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add.getByText(messages.videoSet.videosInWeekInvalid)).toBeVisible();
    await add.getByLabel(/^Videos Per Week/).fill('3');
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add).toHaveCount(0);
    const row = table.getByRole('row').filter({ hasText: setName });
    await expect(row).toContainText(/\d{4}-\d{2}-\d{2}/);

    // Manage its videos: week buttons, one row per day, week 1 chosen.
    await row.getByRole('link', { name: `Manage Videos of ${setName}` }).click();
    await expect(page).toHaveURL(/\/video\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: setName })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Week 1', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(page.getByRole('button', { name: 'Week 2', exact: true })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    const week = page.getByRole('table', { name: 'Videos of week 1' });
    await expect(week.getByRole('row')).toHaveCount(4);
    await expectAccessible(page, 'manage videos');

    await page.getByRole('button', { name: 'Add a video for week 1, day 2' }).click();
    const addVideo = page.getByRole('dialog', { name: 'Add Video' });
    await expect(addVideo.getByLabel('Video set')).toHaveValue(setName);
    await expect(addVideo.getByRole('button', { name: 'Save' })).toBeDisabled();
    await expectAccessible(page, 'add video modal');
    await addVideo.getByLabel(/^Title/).fill('Seated arm raises');
    await addVideo.getByLabel(/^Description/).fill('Sit tall and raise both arms slowly, then lower them.');
    await chooseFile(
      addVideo.getByRole('button', { name: 'Choose video file' }),
      makeVideo('arm-raises.mp4'),
    );
    await expect(addVideo.getByRole('status').filter({ hasText: 'arm-raises.mp4 uploaded' })).toBeVisible({
      timeout: 90_000,
    });
    await expectAccessible(page, 'add video modal with the upload finished');
    await addVideo.getByRole('button', { name: 'Save' }).click();
    await expect(addVideo).toHaveCount(0);

    // The thumbnail appears without reloading by hand.
    const play = week.getByRole('button', { name: 'Play Seated arm raises' });
    const thumbnail = play.locator('img');
    await expect(thumbnail).toBeVisible({ timeout: 90_000 });
    await expect(thumbnail).toHaveAttribute('src', /\/media\/thumbs\/\d+-[0-9a-f]+\.jpg$/);
    expect(
      await thumbnail.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]),
    ).toEqual([100, 80]);
    await expect(page.getByRole('button', { name: 'Add a video for week 1, day 2' })).toHaveCount(0);
    await expectAccessible(page, 'manage videos with a thumbnail');

    // It plays.
    await play.click();
    const player = page.getByRole('dialog', { name: 'Seated arm raises' });
    await expect(player.getByText('Sit tall and raise both arms slowly')).toBeVisible();
    const video = player.getByLabel('Video: Seated arm raises');
    await expectAccessible(page, 'video player modal');
    const playedTo = await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await element.play();
      await new Promise<void>((resolve) => {
        const check = () => (element.currentTime > 0.5 ? resolve() : setTimeout(check, 100));
        check();
      });
      element.pause();
      return element.duration;
    });
    expect(Math.round(playedTo)).toBe(3);
    await expect(player.getByText('0:03')).toBeVisible();

    // Edit shows title, description and 'Replace Video?'.
    await player.getByRole('button', { name: 'Edit' }).click();
    await expect(player.getByLabel(/^Title/)).toHaveValue('Seated arm raises');
    await player.getByRole('switch', { name: 'Replace Video?' }).check();
    await expect(player.getByRole('button', { name: 'Choose video file' })).toBeVisible();
    await expect(player.getByRole('button', { name: 'Save' })).toBeDisabled();
    await expectAccessible(page, 'edit video form');
    await player.getByRole('switch', { name: 'Replace Video?' }).uncheck();
    await player.getByLabel(/^Title/).fill('Seated arm raises (gentle)');
    await player.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('dialog', { name: 'Seated arm raises (gentle)' })).toBeVisible();

    // Remove it.
    await page.getByRole('button', { name: 'Remove' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete video' });
    await expect(confirm).toContainText('watched it');
    await expectAccessible(page, 'delete video modal');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add a video for week 1, day 2' })).toBeVisible();
    await expect(week.getByRole('button', { name: /^Play / })).toHaveCount(0);

    // And the set, after a warning that says what will go.
    await page.getByRole('link', { name: 'Video Sets' }).first().click();
    await table
      .getByRole('row')
      .filter({ hasText: setName })
      .getByRole('button', { name: `Delete ${setName}` })
      .click();
    const deleteSet = page.getByRole('dialog', { name: 'Delete video set' });
    await expect(deleteSet).toContainText('The set is deleted immediately.');
    await expect(deleteSet).toContainText('No participant is on this programme.');
    await expect(deleteSet).toContainText('This cannot be undone.');
    await expectAccessible(page, 'delete video set modal');
    await deleteSet.getByRole('button', { name: 'Delete' }).click();
    await expect(deleteSet).toHaveCount(0);
    await expect(table.getByRole('row').filter({ hasText: setName })).toHaveCount(0);
  });

  test("refuses a file that is not a video with the server's message, and renames a set", async ({
    page,
    signInAs,
    adminApi,
  }) => {
    await signInAs('basic access');
    const setName = uniqueSetName('Balance');
    const created = await adminApi.post('/api/videoset', {
      data: { set_name: setName, number_of_weeks: 1, videos_in_week: 1 },
    });
    const { fitness_video_set_id } = (await created.json()) as { fitness_video_set_id: number };
    await page.goto(`/video/${fitness_video_set_id}`);
    await page.getByRole('button', { name: 'Add a video for week 1, day 1' }).click();
    const addVideo = page.getByRole('dialog', { name: 'Add Video' });
    const fake = path.join(files, 'not-a-video.mp4');
    writeFileSync(fake, 'This is a text file, not a video.\n'.repeat(200));
    await chooseFile(addVideo.getByRole('button', { name: 'Choose video file' }), fake);
    await expect(addVideo.getByRole('alert')).toContainText(messages.upload.notAVideo, { timeout: 90_000 });
    await expect(addVideo.getByRole('button', { name: 'Save' })).toBeDisabled();
    await expectAccessible(page, 'add video modal with a refused file');
    await addVideo.getByRole('button', { name: 'Cancel' }).click();

    await page.goto('/videoset');
    const row = page.getByRole('table', { name: 'Video sets' }).getByRole('row').filter({ hasText: setName });
    await row.getByRole('button', { name: `Edit ${setName}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit video set' });
    await expect(edit.getByLabel(/^Set Name/)).toHaveValue(setName);
    await expectAccessible(page, 'edit video set modal');
    await edit.getByLabel(/^Set Name/).fill('X');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByText(messages.videoSet.nameShort)).toBeVisible();
    await edit.getByLabel(/^Set Name/).fill(`${setName} renamed`);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toHaveCount(0);
    await expect(page.getByRole('row').filter({ hasText: `${setName} renamed` })).toBeVisible();
  });

  test('the uploader resumes by itself after the connection drops mid-upload', async ({
    page,
    signInAs,
    adminApi,
  }) => {
    await signInAs('basic access');
    const created = await adminApi.post('/api/videoset', {
      data: { set_name: uniqueSetName('Resume'), number_of_weeks: 1, videos_in_week: 1 },
    });
    const { fitness_video_set_id } = (await created.json()) as { fitness_video_set_id: number };
    await page.goto(`/video/${fitness_video_set_id}`);

    // The first request carrying bytes is cut off, as a dropped connection would.
    const seen: string[] = [];
    let dropped = false;
    await page.route('**/companion/*', async (route) => {
      const method = route.request().method();
      seen.push(method);
      if (method === 'PATCH' && !dropped) {
        dropped = true;
        await route.abort('connectionreset');
        return;
      }
      await route.continue();
    });

    const file = makeVideo('resumed.mp4');
    await page.getByRole('button', { name: 'Add a video for week 1, day 1' }).click();
    const addVideo = page.getByRole('dialog', { name: 'Add Video' });
    await addVideo.getByLabel(/^Title/).fill('Resumed upload');
    await addVideo.getByLabel(/^Description/).fill('Uploaded across a dropped connection.');
    await chooseFile(addVideo.getByRole('button', { name: 'Choose video file' }), file);
    await expect(addVideo.getByRole('status').filter({ hasText: 'resumed.mp4 uploaded' })).toBeVisible({
      timeout: 90_000,
    });
    expect(dropped).toBe(true);
    // After the drop the client asked where the server had got to, then sent the rest.
    expect(seen.slice(seen.indexOf('PATCH') + 1)).toEqual(expect.arrayContaining(['HEAD', 'PATCH']));

    await addVideo.getByRole('button', { name: 'Save' }).click();
    await expect(addVideo).toHaveCount(0);
    const videos = (await (
      await page.request.get(`/api/videoset/${fitness_video_set_id}/videos`)
    ).json()) as { file_location_path: string; file_size: number }[];
    const stored = await page.request.get(videos[0]!.file_location_path);
    expect(Buffer.compare(await stored.body(), readFileSync(file))).toBe(0);
  });
});
