import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from './database-project.js';
import { createPostgresTestDatabase } from './test-databases.js';

// Hazard HAZ-11 (docs/clinical-safety/hazard-log.md): migration 0031 drops the follow-up row's count
// of missed days and derives "slightly behind" and "behind" from the days the count reached 1 and 3
// (first_missed_on, third_missed_on) alone. Every writer since 0021 set the count and the days
// together, so no shipped release left a row where they disagree, and the 0.1.0 upgrade test's
// data has none. This test forces such rows into a database migrated to 0030 (the last migration
// before 0031), as a hand edit or a bug of some past release could have left them, then applies
// 0031 and the rest: no participant's reason, nor the day it started, may move with the upgrade,
// and the trigger that now derives them from the days must agree with what the upgrade left.
const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../drizzle');
const LAST_BEFORE = '0030_sso_row_level_security';

/** A copy of the migrations folder holding every migration up to `lastTag` and its journal. */
function migrationsUpTo(lastTag: string): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'pathway-migrations-'));
  mkdirSync(path.join(folder, 'meta'));
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: { idx: number; tag: string }[];
  };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 0) throw new Error(`No migration ${lastTag} in the journal`);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify(journal));
  for (const { tag } of journal.entries)
    copyFileSync(path.join(migrationsFolder, `${tag}.sql`), path.join(folder, `${tag}.sql`));
  return folder;
}

type Query = (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

interface Database {
  query: Query;
  /** Applies the migrations of `folder` not yet applied. */
  migrate: (folder: string) => Promise<void>;
  close: () => Promise<void>;
}

/** An empty database of this project's kind, on one connection (session settings hold). */
async function emptyDatabase(): Promise<Database> {
  if (testDatabase === 'postgres') {
    const created = await createPostgresTestDatabase(
      process.env.TEST_DATABASE_URL!,
      'pathway_m0031',
      'empty',
    );
    const pool = new pg.Pool({ connectionString: created.url, max: 1 });
    return {
      query: (text, params) => pool.query(text, params),
      migrate: (folder) => migratePg(drizzlePg(pool), { migrationsFolder: folder }),
      close: async () => {
        await pool.end();
        await created.drop();
      },
    };
  }
  const pglite = await PGlite.create();
  return {
    query: (text, params) => pglite.query<Record<string, unknown>>(text, params),
    migrate: (folder) => migratePglite(drizzlePglite(pglite), { migrationsFolder: folder }),
    close: () => pglite.close(),
  };
}

/**
 * Each case: the follow-up row as forced at 0030 (the count, the two days and the reasons stored),
 * and what the row must hold after the upgrade.
 */
interface Case {
  name: string;
  forced: {
    days_missed: number;
    first_missed_on: string | null;
    third_missed_on: string | null;
    slightly_since: string | null;
    behind_since: string | null;
  };
  upgraded: { first_missed_on: string | null; third_missed_on: string | null };
}

const midnight = (day: string) => `${day}T00:00:00.000Z`;

const CASES: Case[] = [
  {
    name: 'behind (4 missed) with neither day: both days from the day behind began',
    forced: {
      days_missed: 4,
      first_missed_on: null,
      third_missed_on: null,
      slightly_since: null,
      behind_since: midnight('2026-11-20'),
    },
    upgraded: { first_missed_on: '2026-11-20', third_missed_on: '2026-11-20' },
  },
  {
    name: 'behind (3 missed) with the first day only: the third from the day behind began',
    forced: {
      days_missed: 3,
      first_missed_on: '2026-11-18',
      third_missed_on: null,
      slightly_since: null,
      behind_since: midnight('2026-11-21'),
    },
    upgraded: { first_missed_on: '2026-11-18', third_missed_on: '2026-11-21' },
  },
  {
    name: 'slightly behind (2 missed) with no first day: it is the day slightly behind began',
    forced: {
      days_missed: 2,
      first_missed_on: null,
      third_missed_on: null,
      slightly_since: midnight('2026-11-25'),
      behind_since: null,
    },
    upgraded: { first_missed_on: '2026-11-25', third_missed_on: null },
  },
  {
    name: 'slightly behind (1 missed) with a third day left over: the third day goes',
    forced: {
      days_missed: 1,
      first_missed_on: '2026-11-26',
      third_missed_on: '2026-11-10',
      slightly_since: midnight('2026-11-26'),
      behind_since: null,
    },
    upgraded: { first_missed_on: '2026-11-26', third_missed_on: null },
  },
  {
    name: 'on track (0 missed) with both days left over: both go',
    forced: {
      days_missed: 0,
      first_missed_on: '2026-11-01',
      third_missed_on: '2026-11-03',
      slightly_since: null,
      behind_since: null,
    },
    upgraded: { first_missed_on: null, third_missed_on: null },
  },
  {
    name: 'behind, count and days agreeing: left as it was',
    forced: {
      days_missed: 5,
      first_missed_on: '2026-11-12',
      third_missed_on: '2026-11-14',
      slightly_since: null,
      behind_since: midnight('2026-11-14'),
    },
    upgraded: { first_missed_on: '2026-11-12', third_missed_on: '2026-11-14' },
  },
];

const REASONS = `select participant_id, to_char(first_missed_on, 'YYYY-MM-DD') as first_missed_on,
    to_char(third_missed_on, 'YYYY-MM-DD') as third_missed_on,
    to_char(slightly_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as slightly_since,
    to_char(behind_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as behind_since
  from participant_followup order by participant_id`;

describe('upgrade through 0031 (follow-up reasons from the missed days alone)', () => {
  let db: Database;
  let before: string | undefined;
  const ids: number[] = [];

  beforeAll(async () => {
    db = await emptyDatabase();
    before = migrationsUpTo(LAST_BEFORE);
    // 0028 names the organisation it makes from this setting (runMigrations sets it; empty is the default).
    await db.query("select set_config('pathway.organisation_name', '', false)");
    await db.migrate(before);
    const site = (await db.query('select site_id, organisation_id from sites order by site_id limit 1'))
      .rows[0]!;
    for (const [index] of CASES.entries()) {
      const inserted = await db.query(
        `insert into participants (first_name, last_name, date_of_birth, phone_number, address, site_id, organisation_id)
         values ($1, 'Upgrade', '1950-01-01', '07700900000', '1 Test Street', $2, $3) returning participant_id`,
        [`Case${index}`, site.site_id, site.organisation_id],
      );
      ids.push(Number(inserted.rows[0]!.participant_id));
    }
    // The rows as a hand edit or a faulty release could have left them: written with the
    // triggers off (replica role), so the stored reasons are exactly the case's.
    await db.query('set session_replication_role = replica');
    for (const [index, { forced }] of CASES.entries()) {
      await db.query(
        `update participant_followup set active = true, has_programme = true, days_missed = $2,
           first_missed_on = $3, third_missed_on = $4, slightly_since = $5, behind_since = $6
         where participant_id = $1`,
        [
          ids[index],
          forced.days_missed,
          forced.first_missed_on,
          forced.third_missed_on,
          forced.slightly_since,
          forced.behind_since,
        ],
      );
    }
    await db.query('set session_replication_role = origin');
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    if (before) rmSync(before, { recursive: true, force: true });
  });

  it('keeps every reason and its start, and leaves days that the new trigger derives the same reasons from', async () => {
    const forced = (await db.query(REASONS)).rows;
    expect(forced).toHaveLength(CASES.length);
    for (const [index, { forced: row }] of CASES.entries()) {
      expect(forced[index]).toMatchObject({
        slightly_since: row.slightly_since,
        behind_since: row.behind_since,
      });
    }

    await db.migrate(migrationsFolder);

    const upgraded = (await db.query(REASONS)).rows;
    for (const [index, { name, forced: row, upgraded: days }] of CASES.entries()) {
      expect(upgraded[index], name).toEqual({
        participant_id: forced[index]!.participant_id,
        ...days,
        slightly_since: row.slightly_since,
        behind_since: row.behind_since,
      });
    }
    // The count is gone, and the reasons' trigger, run again on every row (a change of a column it
    // reads, then back), derives from the days what the upgrade kept.
    const columns = await db.query(
      "select column_name from information_schema.columns where table_name = 'participant_followup' and column_name = 'days_missed'",
    );
    expect(columns.rows).toHaveLength(0);
    await db.query('update participant_followup set active = false');
    await db.query('update participant_followup set active = true');
    expect((await db.query(REASONS)).rows).toEqual(upgraded);
  });
});
