import { asc, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { column, rowsReader } from '../db/rows.js';
import { sites } from '../db/schema.js';
import { programmeToday } from '../lib/programme-day.js';
import { THUMBNAIL_JOB } from '../modules/videos/index.js';
import { PUSH_DELIVER_JOB } from '../modules/push/index.js';
import { seedDemoParticipants } from './demo-participants.js';
import { createDemoVideoSets } from './demo-videos.js';

export class DemoRefusedError extends Error {}

export interface DemoReport {
  video_sets: number;
  videos: number;
  participants: number;
  devices: number;
  views: number;
}

/**
 * Fills an empty programme with believable demo data (`npm run cli -- seed-demo`): two video sets
 * of short generated videos, devices, participants with referrals in every adherence state, and
 * weeks of viewing history. A database that already has participants is left alone unless forced
 * (and even then nothing is changed or removed: the demo data is added beside it).
 */
export async function seedDemo(ctx: AppContext, options: { force?: boolean } = {}): Promise<DemoReport> {
  const [{ n }] = rowsReader({ n: column.integer })(
    await ctx.db.execute(sql`select count(*)::int as n from participants`),
  ) as [{ n: number }];
  if (n > 0 && !options.force) {
    throw new DemoRefusedError(
      `The database already has ${n} participant${n === 1 ? '' : 's'}: seed-demo fills only an empty programme. ` +
        'Run it with --force to add the demo data beside them.',
    );
  }
  // The instance's first site (a new instance's only one) runs the demo programme.
  const [site] = await ctx.db
    .select({ site_id: sites.site_id, organisation_id: sites.organisation_id })
    .from(sites)
    .orderBy(asc(sites.site_id))
    .limit(1);
  const { sets, videos } = await createDemoVideoSets(ctx, site!.organisation_id);
  const people = await ctx.db.transaction((tx) =>
    seedDemoParticipants(tx, {
      site: site!,
      sets,
      today: programmeToday(ctx),
      now: ctx.clock.now(),
      timeZone: ctx.config.adherenceCheck.timeZone,
    }),
  );
  await ctx.jobs.send(PUSH_DELIVER_JOB, {});
  ctx.jobs.notify(THUMBNAIL_JOB);
  ctx.jobs.notify(PUSH_DELIVER_JOB);
  return {
    video_sets: sets.length,
    videos,
    participants: people.participants,
    devices: people.devices,
    views: people.views,
  };
}
