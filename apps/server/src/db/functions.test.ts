import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import type { Database } from './client.js';
import { rowsOf } from './rows.js';

/**
 * The database's own logic (trigger functions, triggers, policies, the types they use) is made by
 * migrations, which are frozen once shipped, so its current form is read in
 * apps/server/src/db/functions/*.sql instead. This test holds those files to what a freshly
 * migrated database holds: inside a transaction that is rolled back, it drops every object of
 * those kinds, runs the files, and compares the catalog before and after, object by object, in
 * PostgreSQL's own rendering (pg_get_functiondef, pg_get_triggerdef, pg_policies): a file may
 * spell a statement as it likes, but a function's body must be the migration's, whitespace aside.
 */
const FOLDER = 'apps/server/src/db/functions';
const folderUrl = new URL('./functions/', import.meta.url);
const files = readdirSync(folderUrl)
  .filter((name) => name.endsWith('.sql'))
  .sort();
const textOf = (file: string) => readFileSync(fileURLToPath(new URL(file, folderUrl)), 'utf8');

interface CatalogObject {
  kind: 'function' | 'trigger' | 'policy' | 'type';
  name: string;
  definition: string;
  drop: string;
}

/**
 * Every object of the kinds the files hold, in every schema but the system's, drizzle's journal
 * and pg-boss's (its queue's functions are its own), leaving out members of extensions and the
 * triggers PostgreSQL makes for foreign keys. `drop` is the statement that removes it.
 */
const CATALOG = sql`
  with ours as (
    select oid, nspname from pg_namespace
    where nspname not in ('information_schema', 'pgboss', 'drizzle') and nspname not like 'pg\\_%'
  ), extension_members as (
    select objid from pg_depend where deptype = 'e'
  )
  select 'function' as kind, p.oid::regprocedure::text as name, pg_get_functiondef(p.oid) as definition,
    format('drop function %s cascade', p.oid::regprocedure) as drop
  from pg_proc p join ours n on n.oid = p.pronamespace
  where p.prokind in ('f', 'p') and p.oid not in (select objid from extension_members)
  union all
  select 'trigger', format('%I on %s', t.tgname, t.tgrelid::regclass), pg_get_triggerdef(t.oid),
    format('drop trigger %I on %s', t.tgname, t.tgrelid::regclass)
  from pg_trigger t join pg_class c on c.oid = t.tgrelid join ours n on n.oid = c.relnamespace
  where not t.tgisinternal
  union all
  select 'policy', format('%I on %I.%I', p.policyname, p.schemaname, p.tablename),
    format('create policy %I on %I.%I as %s for %s to %s using (%s) with check (%s)', p.policyname,
      p.schemaname, p.tablename, p.permissive, p.cmd, array_to_string(p.roles, ', '), p.qual, p.with_check),
    format('drop policy %I on %I.%I', p.policyname, p.schemaname, p.tablename)
  from pg_policies p join ours n on n.nspname = p.schemaname
  union all
  select 'type', t.oid::regtype::text,
    format('create type %s as (%s)', t.oid::regtype, (
      select string_agg(format('%I %s', a.attname, format_type(a.atttypid, a.atttypmod)), ', ' order by a.attnum)
      from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped)),
    format('drop type %s cascade', t.oid::regtype)
  from pg_type t join pg_class c on c.oid = t.typrelid join ours n on n.oid = t.typnamespace
  where t.typtype = 'c' and c.relkind = 'c' and t.oid not in (select objid from extension_members)
  order by 1, 2`;

const DROP_ORDER: CatalogObject['kind'][] = ['trigger', 'policy', 'function', 'type'];

async function catalog(db: Pick<Database, 'execute'>): Promise<Map<string, CatalogObject>> {
  const objects = rowsOf<CatalogObject>(await db.execute(CATALOG));
  return new Map(objects.map((object) => [`${object.kind} ${object.name}`, object]));
}

/**
 * The statements of a file: split at each `;` outside quotes, dollar-quoted bodies and comments,
 * as psql would, so a file is plain SQL that can be pasted into a migration.
 */
function statementsOf(text: string): string[] {
  const statements: string[] = [];
  /** The index just past `end`, searched from `from`; the whole text when a comment ends it. */
  const past = (end: string, from: number, what: string) => {
    const at = text.indexOf(end, from);
    if (at === -1 && end === '\n') return text.length;
    if (at === -1) throw new Error(`an unterminated ${what}: ${text.slice(from - 1, from + 60)}`);
    return at + end.length;
  };
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i, i + 64);
    const dollar = /^\$[A-Za-z_]*\$/.exec(rest)?.[0];
    if (rest.startsWith('--')) i = past('\n', i, 'comment');
    else if (rest.startsWith('/*')) i = past('*/', i + 2, 'comment');
    else if (rest[0] === "'" || rest[0] === '"') i = past(rest[0], i + 1, 'quote');
    else if (dollar) i = past(dollar, i + dollar.length, 'dollar-quoted body');
    else if (rest[0] === ';') {
      statements.push(text.slice(start, i + 1));
      start = ++i;
    } else i++;
  }
  const tail = text
    .slice(start)
    .replace(/--[^\n]*/g, '')
    .trim();
  if (tail) throw new Error(`text after the last statement (a missing ';'?): ${tail.slice(0, 60)}`);
  return statements;
}

/** Indentation, runs of spaces and blank lines do not count; line breaks do (they make the diff). */
const normalised = (definition: string) =>
  definition
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => line !== '')
    .join('\n');

interface Loaded {
  /** What the migrations made. */
  migrated: Map<string, CatalogObject>;
  /** What the files make, once the migrations' objects are dropped. */
  fromFiles: Map<string, CatalogObject>;
  /** The file that made each object of fromFiles (and every file that made it, when more than one did). */
  fileOf: Map<string, string[]>;
}

class RolledBack extends Error {}

/** Runs the files in a transaction it rolls back, so the database stays as the migrations left it. */
async function loadFiles(db: Database): Promise<Loaded> {
  const migrated = await catalog(db);
  let loaded: Loaded | undefined;
  await db
    .transaction(async (tx) => {
      for (const kind of DROP_ORDER) {
        // A cascade may already have taken an object (a function's triggers): drop what is left.
        const left = await catalog(tx);
        for (const object of left.values()) if (object.kind === kind) await tx.execute(sql.raw(object.drop));
      }
      // SQL-language bodies are checked when they are first run, not here: a file need not
      // come after the files whose functions it calls.
      await tx.execute(sql`set local check_function_bodies = off`);
      const fileOf = new Map<string, string[]>();
      let before = await catalog(tx);
      for (const file of files) {
        for (const [n, statement] of statementsOf(textOf(file)).entries()) {
          try {
            await tx.execute(sql.raw(statement));
          } catch (error) {
            throw new Error(`${FOLDER}/${file}, statement ${n + 1}: ${(error as Error).message}`, {
              cause: error,
            });
          }
        }
        const after = await catalog(tx);
        for (const [key, object] of after) {
          if (before.get(key)?.definition !== object.definition)
            fileOf.set(key, [...(fileOf.get(key) ?? []), file]);
        }
        before = after;
      }
      loaded = { migrated, fromFiles: before, fileOf };
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  if (!loaded) throw new Error('the files were not loaded');
  return loaded;
}

let t: TestApp;
let loaded: Loaded;
beforeAll(async () => {
  t = await createTestApp();
  loaded = await loadFiles(t.ctx.database.db);
});
afterAll(() => t.close());

describe(`the database's logic in ${FOLDER}`, () => {
  it('holds every function, trigger, policy and type the migrations make, and nothing else', () => {
    const { migrated, fromFiles, fileOf } = loaded;
    const problems: string[] = [];
    for (const key of migrated.keys()) {
      if (!fromFiles.has(key))
        problems.push(
          `${key} is in the migrated database but in no file of ${FOLDER}: copy its definition from the last ` +
            `migration that makes it into the file of its concern`,
        );
    }
    for (const key of fromFiles.keys()) {
      if (!migrated.has(key))
        problems.push(
          `${key} is made by ${FOLDER}/${fileOf.get(key)?.join(', ')} but the migrated database has no such ` +
            `object: a new migration must make it (or drop it from the file, if a migration dropped it)`,
        );
    }
    for (const [key, inFiles] of fileOf) {
      if (inFiles.length > 1) problems.push(`${key} is defined in more than one file: ${inFiles.join(', ')}`);
    }
    expect(problems).toEqual([]);
    // Sanity: the comparison is not vacuous.
    expect(migrated.size).toBeGreaterThan(70);
  });

  it('holds each one as the migrations last defined it', () => {
    const { migrated, fromFiles, fileOf } = loaded;
    for (const [key, object] of migrated) {
      const fromFile = fromFiles.get(key);
      if (!fromFile) continue;
      // Expected: the database; received: the file. The message names the file to update.
      expect
        .soft(
          normalised(fromFile.definition),
          `${key}: ${FOLDER}/${fileOf.get(key)?.join(', ')} must hold the definition of the last migration ` +
            `that changes it (a migration that changes it copies the new definition into the file); ` +
            `- the migrated database, + the file`,
        )
        .toBe(normalised(object.definition));
    }
  });

  it('says in each file what it keeps true, without history', () => {
    for (const file of files) {
      const text = textOf(file);
      expect(text.startsWith('-- '), `${FOLDER}/${file} opens with a comment on what it keeps true`).toBe(
        true,
      );
      expect(text, `${FOLDER}/${file}: comments say why, not when`).not.toMatch(/issue \d|#\d|\(\d{4}\)/i);
    }
  });
});
