/**
 * The console as staff feel it: Debian's headless Chromium (never downloaded) driven by Playwright
 * against the server `npm start` runs, with 1,000 participants and a year of views, signed in.
 * Each main screen is reached by a click on its sidebar entry from the screen before (Dashboard,
 * Participants, Follow-up, Reports, round and round), ten times each, at 1366 px and at a phone's
 * width; a figure is the time from the click event to the screen's content drawn (numbers, rows,
 * chart), read in the page itself. Where the time went comes from the browser's own performance
 * entries: Resource Timing (the route's chunks, each API request) and Long Animation Frames (the
 * main thread's script and style/layout work). Then the console opened at /dashboard in a new tab,
 * from the navigation's start to the same content, ten times in a browser that has loaded it before
 * and ten first visits. Then the thumbnail: a video uploaded and saved through the Add Video
 * dialog, from the Save click to its picture shown.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { buildServerIfStale, newestMtime } from '../scripts/build-server.mjs';
import { prepareFollowup } from './api-followup.js';
import { addParticipants, addSeenVideos, prepareProgramme } from './lib/data.js';
import { BenchDatabase } from './lib/database.js';
import { createBenchAdmin, signIn } from './lib/http.js';
import type { Benchmark, BenchRow } from './lib/row.js';
import { benchSecretsKey } from './lib/secrets.js';
import { repoRoot } from './lib/paths.js';
import { median, percentile } from './lib/stats.js';
import { machine, startServer } from './sys-lib/server.js';
import { sixtySecondVideo } from './sys-thumbnail.js';

const CLICK_GOAL_MS = 300;
const THUMBNAIL_GOAL_MS = 1_000;
/**
 * The console opened in a new tab, signed in: the first screen of a working day. A browser that has
 * loaded the console before keeps its files (immutable, cached for a year) and waits only on the
 * page's own requests and work; the first visit of a browser also downloads every file it needs.
 */
const FRESH_TAB_CACHED_GOAL_MS = 500;
const FRESH_TAB_FIRST_GOAL_MS = 1_000;
/** A person reads a screen before the next click; the console may use that time. */
const THINK_MS = 1_000;

const CHROMIUM = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file));

interface Screen {
  name: string;
  path: string;
}
/** In the order they are visited; each is reached from the one before it (the last from the first). */
const SCREENS: Screen[] = [
  { name: 'Participants', path: '/participants' },
  { name: 'Follow-up', path: '/followup' },
  { name: 'Reports', path: '/reports' },
  { name: 'Dashboard', path: '/dashboard' },
];

interface Viewport {
  name: string;
  phone: boolean;
  options: Parameters<Browser['newContext']>[0];
}
const VIEWPORTS: Viewport[] = [
  { name: '1366 px', phone: false, options: { viewport: { width: 1366, height: 768 } } },
  {
    name: 'phone, 390 px',
    phone: true,
    options: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
  },
];

/**
 * Runs in every page before the console's own scripts: notes each click's time (the event's own
 * timestamp, on the page's clock) and keeps every long animation frame and every resource entry.
 */
const INIT_SCRIPT = `
  window.__bench = { clicks: [], frames: [] };
  performance.setResourceTimingBufferSize(100000);
  document.addEventListener('click', (event) => window.__bench.clicks.push(event.timeStamp), true);
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__bench.frames.push(entry.toJSON());
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {}
`;

/**
 * In the page: waits (on animation frames) until the screen's content is drawn, then one frame more
 * and a task (so the content has been painted), and answers the click's time, the content's and
 * what happened between them. A plain string: the page runs it as it is, nothing added by the
 * bench's own compiler.
 */
const MEASURE = `async ({ index, path, timeoutMs }) => {
  const shown = () => {
    if (location.pathname !== path) return false;
    const main = document.getElementById('main-content');
    if (!main) return false;
    // A page or one of its sections still loading shows a spinner.
    if (main.querySelector('[role="status"] .MuiCircularProgress-root')) return false;
    switch (path) {
      case '/dashboard':
        return /Total participants/.test(main.textContent) && main.querySelector('.MuiLineElement-root') !== null;
      case '/participants':
        return main.querySelector('.MuiDataGrid-row') !== null;
      case '/followup':
        return main.querySelector('table tbody tr td') !== null;
      case '/reports': {
        // Each section's chart or table, or the sentence it has instead (no outcome measure in use),
        // and every chart on screen drawn: a placeholder stands in only for those further down.
        const sections = [...main.querySelectorAll('section.reports-section')];
        const onScreen = (e) => {
          const box = e.getBoundingClientRect();
          return box.bottom > 0 && box.top < innerHeight;
        };
        return (
          sections.length > 0 &&
          sections.every((s) => s.querySelector('svg, table, p') !== null) &&
          !sections.some((s) => onScreen(s) && s.querySelector('.reports-chart-pending') !== null)
        );
      }
      default:
        return false;
    }
  };
  const started = performance.now();
  await new Promise((resolve, reject) => {
    const tick = () => {
      if (shown()) return requestAnimationFrame(() => setTimeout(resolve, 0));
      if (performance.now() - started > timeoutMs) return reject(new Error('no content in ' + path + ' after ' + timeoutMs + ' ms'));
      requestAnimationFrame(tick);
    };
    tick();
  });
  const contentAt = performance.now();
  const clickAt = index === null ? 0 : window.__bench.clicks[index];
  if (clickAt === undefined) throw new Error('the click was not seen');
  const resources = performance
    .getEntriesByType('resource')
    .filter((e) => e.startTime >= clickAt - 1 && e.startTime < contentAt)
    .map((e) => ({
      url: new URL(e.name).pathname,
      start: e.startTime - clickAt,
      end: e.responseEnd - clickAt,
      bytes: e.transferSize,
    }));
  const frames = window.__bench.frames
    .filter((f) => f.startTime + f.duration > clickAt && f.startTime < contentAt)
    .map((f) => ({
      start: f.startTime - clickAt,
      duration: f.duration,
      styleAndLayout: f.styleAndLayoutStart > 0 ? f.startTime + f.duration - f.styleAndLayoutStart : 0,
      scripts: (f.scripts || []).map((s) => ({
        source: s.sourceURL ? new URL(s.sourceURL).pathname : s.invoker,
        duration: s.duration,
      })),
    }));
  return { ms: contentAt - clickAt, resources, frames };
}`;

interface Sample {
  ms: number;
  resources: { url: string; start: number; end: number; bytes: number }[];
  frames: {
    start: number;
    duration: number;
    styleAndLayout: number;
    scripts: { source: string; duration: number }[];
  }[];
}

async function measure(page: Page, path: string, index: number | null): Promise<Sample> {
  return page.evaluate<Sample>(`(${MEASURE})(${JSON.stringify({ index, path, timeoutMs: 60_000 })})`);
}

const round = (value: number) => Math.round(value).toLocaleString('en-GB');
const fileName = (url: string) =>
  url
    .split('/')
    .pop()!
    .replace(/-[\w-]{8}\.js$/, '.js');

/** Where one click's time went, in words: the requests between click and content, then the main thread. */
function whereTimeWent(sample: Sample): string {
  const api = sample.resources.filter((r) => r.url.startsWith('/api/'));
  const chunks = sample.resources.filter((r) => /\.(js|css)$/.test(r.url));
  const parts: string[] = [];
  parts.push(
    api.length
      ? `API ${api.map((r) => `${r.url} +${round(r.start)}..${round(r.end)}`).join(', ')}`
      : 'no API request',
  );
  if (chunks.length) {
    const downloaded = chunks.filter((r) => r.bytes > 0);
    parts.push(
      `${chunks.length} chunks (${downloaded.length} downloaded, ${round(downloaded.reduce((s, r) => s + r.bytes, 0) / 1024)} KB${chunks.length <= 5 ? `: ${chunks.map((r) => fileName(r.url)).join(', ')}` : ''}) +${round(Math.min(...chunks.map((r) => r.start)))}..${round(Math.max(...chunks.map((r) => r.end)))}`,
    );
  } else parts.push('no chunk loaded');
  const busy = sample.frames.reduce((s, f) => s + f.duration, 0);
  if (sample.frames.length) {
    const scripts = new Map<string, number>();
    for (const frame of sample.frames)
      for (const script of frame.scripts)
        scripts.set(fileName(script.source), (scripts.get(fileName(script.source)) ?? 0) + script.duration);
    const top = [...scripts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([source, ms]) => `${source} ${round(ms)}`)
      .join(', ');
    parts.push(
      `${sample.frames.length} long frames ${round(busy)} ms (scripts ${round([...scripts.values()].reduce((s, v) => s + v, 0))}: ${top}; style/layout ${round(sample.frames.reduce((s, f) => s + f.styleAndLayout, 0))})`,
    );
  } else parts.push('no long frame');
  return parts.join('; ');
}

/** The visit whose time is the median's (the lower middle of an even count). */
function medianSample(samples: Sample[]): Sample {
  return [...samples].sort((a, b) => a.ms - b.ms)[Math.floor((samples.length - 1) / 2)]!;
}

async function seed(db: BenchDatabase, quick: boolean): Promise<{ participants: number; views: number }> {
  const participants = quick ? 300 : 1_000;
  // A year of a programme's views: a hundred each, spread over the last 365 days.
  const views = participants * (quick ? 20 : 100);
  await prepareProgramme(db);
  await addParticipants(db, 0, participants);
  await addSeenVideos(db, participants, 0, views);
  await prepareFollowup(db);
  return { participants, views };
}

interface ClickFigures {
  viewport: Viewport;
  screen: Screen;
  samples: Sample[];
}

/** A browser context of `viewport`, signed in with `cookie`, every page of it watched by INIT_SCRIPT. */
async function signedInContext(browser: Browser, url: string, cookie: string, viewport: Viewport) {
  const context = await browser.newContext({
    ...viewport.options,
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    reducedMotion: 'reduce',
  });
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const [name, ...value] = pair.split('=');
      return { name: name!, value: value.join('='), url };
    }),
  );
  await context.addInitScript(INIT_SCRIPT);
  return context;
}

interface FreshTabFigures {
  /** Each in a browser that has never loaded the console (a new context: nothing in its cache). */
  firstVisit: Sample[];
  /** Each a new tab of a browser that has loaded the console before (its files in the HTTP cache). */
  cached: Sample[];
}

/**
 * The console opened at /dashboard in a new tab, signed in, `rounds` times each way: from the
 * navigation's start to the dashboard's content, as a person opening it in the morning waits.
 */
async function freshTabRounds(
  browser: Browser,
  url: string,
  cookie: string,
  viewport: Viewport,
  rounds: number,
): Promise<FreshTabFigures> {
  const figures: FreshTabFigures = { firstVisit: [], cached: [] };
  const openDashboard = async (context: Awaited<ReturnType<typeof signedInContext>>) => {
    const page = await context.newPage();
    await page.goto(`${url}/dashboard`);
    const sample = await measure(page, '/dashboard', null);
    await page.close();
    return sample;
  };
  for (let r = 0; r < rounds; r += 1) {
    const context = await signedInContext(browser, url, cookie, viewport);
    try {
      figures.firstVisit.push(await openDashboard(context));
    } finally {
      await context.close();
    }
  }
  const context = await signedInContext(browser, url, cookie, viewport);
  try {
    // Once to fill the cache (the console's files are immutable: cached for a year), then counted.
    await openDashboard(context);
    for (let r = 0; r < rounds; r += 1) figures.cached.push(await openDashboard(context));
  } finally {
    await context.close();
  }
  return figures;
}

/** Signs in (the session cookie of POST /login), opens the dashboard, then clicks round the screens. */
async function clickRound(
  browser: Browser,
  url: string,
  cookie: string,
  viewport: Viewport,
  rounds: number,
): Promise<ClickFigures[]> {
  const context = await signedInContext(browser, url, cookie, viewport);
  try {
    const page = await context.newPage();
    await page.goto(`${url}/dashboard`);
    await measure(page, '/dashboard', null);
    const clicks = SCREENS.map((screen) => ({ viewport, screen, samples: [] as Sample[] }));
    for (let r = 0; r < rounds; r += 1) {
      for (const figures of clicks) {
        await page.waitForTimeout(THINK_MS);
        if (viewport.phone) {
          await page.getByRole('button', { name: 'Open menu' }).click();
        }
        const link = page
          .locator(`.MuiDrawer-root a[href="${figures.screen.path}"]`)
          .filter({ visible: true });
        const index = await page.evaluate<number>('window.__bench.clicks.length');
        await link.click();
        figures.samples.push(await measure(page, figures.screen.path, index));
      }
    }
    return clicks;
  } finally {
    await context.close();
  }
}

/** Uploads and saves a video through the Add Video dialog; the time from Save to its picture shown. */
async function thumbnailRounds(
  browser: Browser,
  url: string,
  cookie: string,
  rounds: number,
): Promise<number[]> {
  const created = await fetch(`${url}/api/videoset`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ set_name: 'Thumbnail bench', number_of_weeks: 1, videos_in_week: rounds }),
  });
  if (created.status !== 201 && created.status !== 200)
    throw new Error(`POST /api/videoset: ${created.status} ${await created.text()}`);
  const { fitness_video_set_id: setId } = (await created.json()) as { fitness_video_set_id: number };
  const video = sixtySecondVideo();
  const context = await signedInContext(browser, url, cookie, VIEWPORTS[0]!);
  const times: number[] = [];
  try {
    const page = await context.newPage();
    await page.goto(`${url}/video/${setId}`);
    for (let day = 1; day <= rounds; day += 1) {
      const title = `Thumbnail bench ${day}`;
      await page.getByRole('button', { name: `Add a video for week 1, day ${day}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Video' });
      await dialog.getByLabel(/^Title/).fill(title);
      await dialog.getByLabel(/^Description/).fill('A 60 s 720p test pattern');
      const chooser = page.waitForEvent('filechooser');
      await dialog.getByRole('button', { name: 'Choose video file' }).click();
      await (await chooser).setFiles(video);
      await dialog
        .getByRole('status')
        .filter({ hasText: /uploaded/ })
        .waitFor({ timeout: 120_000 });
      const index = await page.evaluate<number>('window.__bench.clicks.length');
      await dialog.getByRole('button', { name: 'Save' }).click();
      const shown = await page.evaluate<number>(`(async ({ index, title }) => {
        const started = performance.now();
        await new Promise((resolve, reject) => {
          const tick = () => {
            const img = [...document.querySelectorAll('button[aria-label="Play ' + title + '"] img')]
              .find((i) => i.complete && i.naturalWidth > 0);
            if (img) return requestAnimationFrame(() => setTimeout(resolve, 0));
            if (performance.now() - started > 120000) return reject(new Error('no thumbnail after 120 s'));
            requestAnimationFrame(tick);
          };
          tick();
        });
        return performance.now() - window.__bench.clicks[index];
      })(${JSON.stringify({ index, title })})`);
      times.push(shown);
    }
  } finally {
    await context.close();
  }
  return times;
}

/**
 * The console and the server built as `npm start` would build them, beforehand: a build is not
 * part of a start, and on a busy machine it takes longer than the start's own time limit.
 */
async function buildIfStale(): Promise<void> {
  const index = path.join(repoRoot, 'apps/web/dist/index.html');
  const sources = ['apps/web/src', 'apps/web/index.html', 'packages/contract/src'].map((p) =>
    newestMtime(path.join(repoRoot, p)),
  );
  if (!existsSync(index) || statSync(index).mtimeMs < Math.max(...sources)) {
    const build = spawnSync('npm', ['run', 'build', '-w', '@pathway/web'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`the console build failed:\n${build.stdout}\n${build.stderr}`);
  }
  await buildServerIfStale();
}

const uiConsole: Benchmark = async ({ storage, postgresUrl }) => {
  if (!CHROMIUM)
    throw new Error('no Chromium: apt-get install chromium-headless-shell (or chromium); none is downloaded');
  const quick = process.env.BENCH_QUICK === '1';
  const rounds = quick ? 3 : 10;
  await buildIfStale();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `pathway-bench-ui-${storage}-`));
  const db = await BenchDatabase.create(storage, dataDir, postgresUrl);
  try {
    const size = await seed(db, quick);
    const admin = await createBenchAdmin(db);
    await db.suspend();
    const server = await startServer({
      DATA_DIR: dataDir,
      SECRETS_KEY: benchSecretsKey(),
      LOGIN_LIMIT_PER_ADDRESS: '100000',
      ...(db.databaseUrl && { DATABASE_URL: db.databaseUrl }),
    });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    });
    const rows: BenchRow[] = [];
    const conditions = `${size.participants.toLocaleString('en-GB')} participants, ${size.views.toLocaleString('en-GB')} views over 365 days, full access; ${path.basename(CHROMIUM)} ${browser.version()} headless via Playwright, server from \`npm start\` on loopback; ${THINK_MS / 1000} s between clicks; ${machine()}`;
    try {
      const cookie = await signIn(server.url, admin);
      for (const viewport of VIEWPORTS) {
        const clicks = await clickRound(browser, server.url, cookie, viewport, rounds);
        for (const { screen, samples } of clicks) {
          const times = samples.map((s) => s.ms);
          const p90 = percentile(times, 90);
          rows.push({
            figure: `click to content, ${screen.name} (Chromium, ${viewport.name}): p50 / p90 of ${rounds}`,
            value: `${round(median(times))} / ${round(p90)} ms`,
            goal: `< ${CLICK_GOAL_MS} ms p90`,
            met: p90 < CLICK_GOAL_MS,
            conditions: `${conditions}; each: ${times.map(round).join(', ')} ms; first visit: ${whereTimeWent(samples[0]!)}; median visit: ${whereTimeWent(medianSample(samples))}`,
          });
        }
        const freshTabs = await freshTabRounds(browser, server.url, cookie, viewport, rounds);
        for (const [kind, samples, goalMs] of [
          ['console already in the browser cache', freshTabs.cached, FRESH_TAB_CACHED_GOAL_MS],
          ['first visit, nothing cached', freshTabs.firstVisit, FRESH_TAB_FIRST_GOAL_MS],
        ] as const) {
          const times = samples.map((s) => s.ms);
          const p90 = percentile(times, 90);
          rows.push({
            figure: `fresh tab at /dashboard to its content, signed in, ${kind} (Chromium, ${viewport.name}): p50 / p90 of ${rounds}`,
            value: `${round(median(times))} / ${round(p90)} ms`,
            goal: `< ${goalMs} ms p90`,
            met: p90 < goalMs,
            conditions: `${conditions}; from the navigation's start; each: ${times.map(round).join(', ')} ms; median: ${whereTimeWent(medianSample(samples))}`,
          });
        }
      }
      const thumbnails = await thumbnailRounds(browser, server.url, cookie, quick ? 1 : 3);
      const value = median(thumbnails);
      rows.push({
        figure: 'thumbnail visible in the console after Save (Add Video dialog, 60 s 720p video)',
        value: `${(value / 1000).toFixed(2)} s`,
        goal: `< ${THUMBNAIL_GOAL_MS / 1000} s`,
        met: value < THUMBNAIL_GOAL_MS,
        conditions: `${conditions}; from the Save click to the picture loaded in the week's table, median of ${thumbnails.length}; each: ${thumbnails.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`,
      });
    } finally {
      await browser.close();
      await server.stop();
    }
    return rows;
  } finally {
    await db.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

export default uiConsole;
