import { sql } from 'drizzle-orm';
import type { AppContext } from '../../src/context.js';
import { rowsOf } from '../../src/db/rows.js';
import { totpCode } from '../../src/modules/auth/totp.js';
import { participantBody } from '../factories.js';
import { createAdmin, signedInCookie, type TestAdmin } from '../harness.js';
import { makeVideoSet, makeVideos } from '../programme-factories.js';
import { insertEnrolledParticipants, missingParticipants } from './helpers.js';

/**
 * The mixed load of the resilience tests, one generator for every deployment it is run against
 * (one process on PGlite in `mixed-load.pglite.test.ts`; two web instances and a worker behind
 * nginx in `scale-out.postgres.test.ts`): staff signing in (password + a fresh TOTP code each
 * time), paging the participant grid, opening the dashboard, tablets running their calls (device
 * sign-in, push token, purge flag, today's videos, progress, thumbnails, views reported, summary)
 * and, when given free devices, staff adding participants. Every request is recorded with its times and outcome, and
 * every write the server acknowledged (participants added, views reported) is kept, to be looked
 * for in the database afterwards.
 */
export type LoadKind = 'sign-in' | 'grid' | 'dashboard' | 'tablet' | 'add participant';
export const LOAD_KINDS: readonly LoadKind[] = ['sign-in', 'grid', 'dashboard', 'tablet', 'add participant'];

/** Header carrying each request's number, so the proxy's log can be matched with the load's record. */
export const LOAD_REQUEST_HEADER = 'x-load-request';

/** Every tablet of the load runs from one address, far above a real tablet's rate: limits out of the way. */
export const MIXED_LOAD_ENV = {
  DEVICE_RATE_LIMIT_PER_DEVICE: '1000000',
  DEVICE_RATE_LIMIT_PER_ADDRESS: '1000000',
};

/**
 * The load's data, made with the product's context while no server runs: a 4-week set of videos,
 * `participants` enrolled on it with a tablet each (started 9 days ago, so grid pages, dashboard
 * and summaries have something to show), `admins` staff accounts (full and basic access in turn)
 * and a full-access session.
 */
export async function prepareMixedLoad(
  ctx: AppContext,
  options: { participants: number; admins: number },
): Promise<{ admins: TestAdmin[]; cookie: string; tablets: { uuid: string }[]; setId: number }> {
  const today = new Date().toISOString().slice(0, 10);
  const set = await makeVideoSet(ctx.database.db, { weeks: 4, perWeek: 5 });
  await makeVideos(ctx.database.db, set);
  const ids = await insertEnrolledParticipants(ctx, {
    count: options.participants,
    setId: set.fitness_video_set_id,
    today,
    startedDaysAgo: 9,
    tag: 'load',
  });
  const admins: TestAdmin[] = [];
  for (let i = 0; i < options.admins; i++)
    admins.push(await createAdmin(ctx, i % 2 ? 'basic access' : 'full access'));
  const cookie = (await signedInCookie(ctx, 'full access')).cookie;
  const tablets = rowsOf<{ uuid: string }>(
    await ctx.database.db.execute(sql`
      select d.uuid from authorized_devices d join participants p on p.authorized_device_id = d.authorized_device_id
      where p.participant_id between ${ids[0]!} and ${ids.at(-1)!}`),
  );
  return { admins, cookie, tablets, setId: set.fitness_video_set_id };
}

export interface LoadRequest {
  id: number;
  kind: LoadKind;
  /** Method and route, e.g. `GET /api/participant`. */
  what: string;
  method: string;
  /** performance.now() when the request was sent and when its answer (or its failure) came. */
  startedAt: number;
  endedAt: number;
  /** The answer's status; 0 when there was none (a socket error or a timeout). */
  status: number;
  /** For a failure: the start of the answer's body, or the socket error. */
  detail?: string;
}

export interface MixedLoadOptions {
  /** Where the requests go: the server's URL, or the proxy's origin in front of several. */
  baseUrl: string;
  /** The client: the global fetch, or one that trusts the proxy's certificate. */
  fetch?: typeof fetch;
  durationMs: number;
  /** Staff who sign in through POST /login, each once per 30 s TOTP step (a code works once). */
  admins: TestAdmin[];
  /** A full-access session for the grid, the dashboard and adding participants. */
  cookie: string;
  /** Devices of enrolled participants (with a video set), for the tablet loops. */
  tablets: { uuid: string }[];
  gridLoops?: number;
  tabletLoops?: number;
  /** Registered devices assigned to nobody: a loop adds one participant for each, until used up or the time ends. */
  freeDevices?: string[];
}

/** A 2xx answer, read whole. */
interface Answer {
  headers: Headers;
  json(): Promise<unknown>;
}

export interface AcknowledgedParticipant {
  participant_id: number;
  last_name: string;
}
export interface AcknowledgedView {
  participant_id: number;
  video_id: number;
}

export class MixedLoad {
  readonly requests: LoadRequest[] = [];
  readonly acknowledged: { participants: AcknowledgedParticipant[]; views: AcknowledgedView[] } = {
    participants: [],
    views: [],
  };
  /** The request loops running side by side. */
  readonly loops: number;
  /** Resolves when every loop has ended (the time is up). */
  readonly finished: Promise<void>;
  private readonly fetch: typeof fetch;
  private endAt: number;

  constructor(private readonly options: MixedLoadOptions) {
    this.fetch = options.fetch ?? fetch;
    this.endAt = Date.now() + options.durationMs;
    const gridLoops = options.gridLoops ?? 3;
    const tabletLoops = options.tabletLoops ?? 3;
    const writers = options.freeDevices?.length ? 1 : 0;
    this.loops = 1 + 1 + gridLoops + tabletLoops + writers;
    this.finished = Promise.all([
      this.signIns(),
      this.dashboard(),
      ...Array.from({ length: gridLoops }, (_, n) => this.grid(n)),
      ...Array.from({ length: tabletLoops }, (_, n) => this.tablet(n, tabletLoops)),
      ...(writers ? [this.addParticipants()] : []),
    ]).then(() => {});
  }

  /** Ends the loops early (each finishes the request it is in). */
  stop(): void {
    this.endAt = 0;
  }

  get failures(): LoadRequest[] {
    return this.requests.filter((r) => r.status < 200 || r.status > 299);
  }

  private get running(): boolean {
    return Date.now() < this.endAt;
  }

  /**
   * One request; anything but a 2xx (or no answer at all) is recorded as a failure. The whole
   * answer is read, as a client reads it, and its time runs to its last byte: an answer left
   * unread keeps its connection busy (the server still writing it) until it is garbage-collected,
   * and the server's stop waited for those connections, up to a minute after the load.
   */
  private async call(
    kind: LoadKind,
    what: string,
    path: string,
    init: RequestInit = {},
  ): Promise<Answer | undefined> {
    const request: LoadRequest = {
      id: this.requests.length + 1,
      kind,
      what,
      method: init.method ?? 'GET',
      startedAt: performance.now(),
      endedAt: 0,
      status: 0,
    };
    this.requests.push(request);
    const headers = {
      ...(init.headers as Record<string, string>),
      [LOAD_REQUEST_HEADER]: String(request.id),
    };
    try {
      const res = await this.fetch(`${this.options.baseUrl}${path}`, {
        ...init,
        headers,
        signal: AbortSignal.timeout(30_000),
      });
      request.status = res.status;
      const body = await res.text();
      request.endedAt = performance.now();
      if (res.status < 200 || res.status > 299) {
        request.detail = body.slice(0, 200);
        return undefined;
      }
      return { headers: res.headers, json: async () => JSON.parse(body) as unknown };
    } catch (error) {
      request.endedAt = performance.now();
      // No answer, or one cut off before its end: a failure either way.
      request.status = 0;
      request.detail = (error as Error).message;
      return undefined;
    }
  }

  private async signIns(): Promise<void> {
    const lastStep = new Map<number, number>();
    while (this.running) {
      const step = Math.floor(Date.now() / 30_000);
      const admin = this.options.admins.find((a) => (lastStep.get(a.admin_user_id) ?? -1) < step);
      if (!admin) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      lastStep.set(admin.admin_user_id, step);
      const res = await this.call('sign-in', 'POST /login', '/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          user_name: admin.user_name,
          password: admin.password,
          mfa_token: totpCode(admin.user_name, admin.totpSecret),
        }),
      });
      const session = res?.headers.get('set-cookie')?.split(';')[0];
      if (res && session)
        await this.call('sign-in', 'GET /api/session', '/api/session', { headers: { cookie: session } });
    }
  }

  private async grid(n: number): Promise<void> {
    const sorts = ['participant_id', 'days_behind', 'last_name', 'date_of_birth'];
    const { cookie } = this.options;
    for (let i = n; this.running; i++) {
      const page = (i % 10) + 1;
      const query = `page=${page}&perPage=25&sort=${sorts[i % sorts.length]}&order=${i % 2 ? 'desc' : 'asc'}${i % 3 === 0 ? '&state=behind' : ''}`;
      await this.call('grid', 'GET /api/participant', `/api/participant?${query}`, { headers: { cookie } });
    }
  }

  private async dashboard(): Promise<void> {
    const { cookie } = this.options;
    while (this.running)
      await this.call('dashboard', 'GET /api/dashboard', '/api/dashboard', { headers: { cookie } });
  }

  private async tablet(n: number, loops: number): Promise<void> {
    const { tablets } = this.options;
    for (let i = n; this.running; i += loops) {
      const { uuid } = tablets[i % tablets.length]!;
      const res = await this.call('tablet', 'GET /uuid/:id', `/uuid/${uuid}`);
      if (!res) continue;
      const me = (await res.json()) as {
        auth_token: string;
        participant_id: number;
        fitness_video_sets: { fitness_video_set_id: number };
        fitness_participation_progress: { fitness_participation_progress_id: number };
      };
      const bearer = { authorization: `Bearer ${me.auth_token}` };
      const setId = me.fitness_video_sets.fitness_video_set_id;
      const pid = me.participant_id;
      await this.call('tablet', 'PATCH /uuid/:id', `/uuid/${uuid}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `push_notification_id=load-token-${uuid}`,
      });
      await this.call('tablet', 'PATCH /api/participant/:id', `/api/participant/${pid}`, {
        method: 'PATCH',
        headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'purge_cache=false',
      });
      const today = await this.call(
        'tablet',
        'GET today',
        `/api/videoset/today/${setId}/participant/${pid}`,
        { headers: bearer },
      );
      const available = today
        ? ((await today.json()) as { video_id: number; week_number: number; day_number: number }[])
        : [];
      await this.call(
        'tablet',
        'GET progress',
        `/api/participationprogress/${me.fitness_participation_progress.fitness_participation_progress_id}`,
        { headers: bearer },
      );
      await this.call('tablet', 'GET thumbs', `/api/video/thumbs/${setId}`, { headers: bearer });
      const watched = available[i % Math.max(1, available.length)];
      if (watched) {
        const seen = await this.call(
          'tablet',
          'POST view',
          `/api/videoset/view/${setId}/participant/${pid}`,
          {
            method: 'POST',
            headers: { ...bearer, 'content-type': 'application/json' },
            body: JSON.stringify({
              day: String(watched.day_number),
              week: String(watched.week_number),
              videoIds: [String(watched.video_id)],
            }),
          },
        );
        if (seen) this.acknowledged.views.push({ participant_id: pid, video_id: watched.video_id });
      }
      await this.call('tablet', 'GET summary', `/api/summary/${setId}/participant/${pid}`, {
        headers: bearer,
      });
    }
  }

  private async addParticipants(): Promise<void> {
    const devices = this.options.freeDevices ?? [];
    for (let i = 0; i < devices.length && this.running; i++) {
      const body = participantBody(devices[i]!);
      const res = await this.call('add participant', 'POST /api/participant', '/api/participant', {
        method: 'POST',
        headers: { cookie: this.options.cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res) {
        const created = (await res.json()) as { participant_id: number };
        this.acknowledged.participants.push({
          participant_id: created.participant_id,
          last_name: String(body.last_name),
        });
      }
    }
  }

  /** Acknowledged writes not in the database as acknowledged (must be none after any fault). */
  async missingWrites(ctx: AppContext): Promise<{ participants: number[]; views: AcknowledgedView[] }> {
    const views = this.acknowledged.views;
    let missingViews: AcknowledgedView[] = [];
    if (views.length > 0) {
      // Numbers only, so the list is written into the statement as it is.
      const pairs = views.map((v) => `(${Number(v.participant_id)},${Number(v.video_id)})`).join(',');
      const found = rowsOf<{ participant_id: number; video_id: number }>(
        await ctx.database.db.execute(
          sql`select participant_id, video_id from seen_videos where (participant_id, video_id) in (${sql.raw(pairs)})`,
        ),
      );
      const stored = new Set(found.map((r) => `${Number(r.participant_id)}:${Number(r.video_id)}`));
      missingViews = views.filter((v) => !stored.has(`${v.participant_id}:${v.video_id}`));
    }
    return {
      participants: await missingParticipants(ctx, this.acknowledged.participants),
      views: missingViews,
    };
  }
}

/** Nearest-rank percentile of durations in ms. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Per kind: how many requests, and the p50 and p99 of their durations (answered ones). */
export function latencyByKind(
  requests: LoadRequest[],
): Record<LoadKind, { requests: number; p50: number; p99: number }> {
  const summary = {} as Record<LoadKind, { requests: number; p50: number; p99: number }>;
  for (const kind of LOAD_KINDS) {
    const of = requests.filter((r) => r.kind === kind);
    const durations = of
      .filter((r) => r.status !== 0)
      .map((r) => r.endedAt - r.startedAt)
      .sort((a, b) => a - b);
    summary[kind] = { requests: of.length, p50: percentile(durations, 50), p99: percentile(durations, 99) };
  }
  return summary;
}

/** The figures a test prints: requests per kind with p50/p99, and per endpoint. */
export function describeLoad(requests: LoadRequest[]): string {
  const byKind = latencyByKind(requests);
  const perEndpoint = new Map<string, number>();
  for (const r of requests) perEndpoint.set(r.what, (perEndpoint.get(r.what) ?? 0) + 1);
  const kinds = LOAD_KINDS.filter((k) => byKind[k].requests > 0)
    .map(
      (k) =>
        `${k} ${byKind[k].requests} (p50 ${byKind[k].p50.toFixed(0)} ms, p99 ${byKind[k].p99.toFixed(0)} ms)`,
    )
    .join(', ');
  return `${requests.length} requests: ${kinds}; ${[...perEndpoint].map(([what, n]) => `${what} ${n}`).join(', ')}`;
}
