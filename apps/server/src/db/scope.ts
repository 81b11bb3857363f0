import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whose rows a statement may read and write. Every statement the application runs goes through a
 * database that runs it in a transaction of its own (or the transaction it is part of) as the
 * role STAFF_ROLE, which does not own the tables, with the scope set for that transaction; the
 * tables' row-level security policies (db/functions/policies.sql) read it. So a query that forgets its
 * condition still returns nothing of another organisation or site: the database refused it.
 *
 * - `staff`: a signed-in admin: their organisation, the sites whose participants they see (every
 *   site of the organisation unless they are limited to some), and whether they run the instance
 *   (organisations, sites and their admins, shared video sets; never another organisation's
 *   participant records).
 * - `device`: a tablet: its organisation and its participant's site.
 * - `instance`: work that is every organisation's, named: the daily check, push delivery,
 *   retention, sign-in and the session look-up, a tablet's registration by its device id, the
 *   command line. Never implied: a statement with no scope at all is refused before it is sent.
 */
export type Scope =
  | {
      kind: 'staff';
      organisationId: number;
      siteIds: readonly number[];
      /** Not limited to some sites: every site of the organisation (the audit trail is theirs). */
      everySite: boolean;
      systemAdministrator: boolean;
    }
  | { kind: 'device'; organisationId: number; siteIds: readonly number[] }
  | { kind: 'instance'; work: string };

/** The role the application's statements run as; made by the row_level_security migration, owning nothing. */
export const STAFF_ROLE = 'pathway_staff';

const storage = new AsyncLocalStorage<Scope>();

/**
 * Runs `work` with every statement it makes in `scope` (nested scopes replace the outer one).
 * Awaited inside: a query builder is sent when it is awaited, which must happen in the scope.
 */
export function withScope<T>(scope: Scope, work: () => T | PromiseLike<T>): Promise<T> {
  return storage.run(scope, async () => await work());
}

/** Work that is every organisation's, by name: what it is stays in the scope for whoever reads it. */
export function instanceScope(work: string): Scope {
  return { kind: 'instance', work };
}

export function currentScope(): Scope | undefined {
  return storage.getStore();
}

export class NoScopeError extends Error {
  constructor() {
    super(
      'A statement was sent with no scope: a request sets its admin or device scope, background work names its own (withScope)',
    );
    this.name = 'NoScopeError';
  }
}

export function requireScope(): Scope {
  const scope = storage.getStore();
  if (!scope) throw new NoScopeError();
  return scope;
}

function whole(n: number): string {
  if (!Number.isInteger(n) || n <= 0 || n > 2147483647) throw new Error(`not an id: ${n}`);
  return String(n);
}

/** The settings a scope makes, in the order `SET_SCOPE_SQL` takes them as parameters. */
const SCOPE_SETTINGS = [
  'role',
  'pathway.scope',
  'pathway.organisation',
  'pathway.sites',
  'pathway.every_site',
  'pathway.system_administrator',
  'plan_cache_mode',
] as const;

/**
 * How the statement after the scope is planned (plan_cache_mode, for its transaction only): as the
 * database is configured (`configured`, every statement but those that ask), or with the plan made
 * once per connection for any values (`generic`). PostgreSQL's own choice for a named statement
 * compares the generic plan's estimated cost with the custom plans' and keeps planning anew for
 * each request when the generic plan's estimate is the higher, though a statement of many parts
 * may cost more to plan than to run: the follow-up worklist's page took 4 to 7 ms to plan and
 * about 1 ms to run at 100k participants (bench/results.md, issue 41). Only for statements whose
 * generic plan is known sound (their ranges are those of partial indexes whatever the values).
 */
export type PlanChoice = 'configured' | 'generic';

/**
 * The values of a scope's settings, in the order of SCOPE_SETTINGS: ids and fixed words, checked
 * here, so that they may also be written out whole (scopeStatement).
 */
export function scopeSettings(scope: Scope, plan: PlanChoice = 'configured'): string[] {
  const values =
    scope.kind === 'instance'
      ? { organisation: '', sites: '', everySite: 'true', system: 'false' }
      : {
          organisation: whole(scope.organisationId),
          sites: `{${scope.siteIds.map(whole).join(',')}}`,
          everySite: scope.kind === 'staff' && scope.everySite ? 'true' : 'false',
          system: scope.kind === 'staff' && scope.systemAdministrator ? 'true' : 'false',
        };
  const planMode = plan === 'generic' ? 'force_generic_plan' : '';
  return [
    STAFF_ROLE,
    scope.kind,
    values.organisation,
    values.sites,
    values.everySite,
    values.system,
    planMode,
  ];
}

/** A parameter as set_config is given it: plan_cache_mode left as configured when empty. */
const settingValue = (name: (typeof SCOPE_SETTINGS)[number], value: string) =>
  name === 'plan_cache_mode' ? `coalesce(nullif(${value}, ''), current_setting('plan_cache_mode'))` : value;

/**
 * The statement that sets a scope for the transaction it runs in (set_config's third argument):
 * when the transaction ends, so does the scope, and nothing of it is left on the connection (or,
 * embedded, on the one session every request shares). Its parameters are `scopeSettings`.
 */
export const SET_SCOPE_SQL = `select ${SCOPE_SETTINGS.map((name, i) => `set_config('${name}', ${settingValue(name, `$${i + 1}`)}, true)`).join(', ')}`;

/** SET_SCOPE_SQL with the values written out, to go with a BEGIN (or a statement) in one message. */
export function scopeStatement(scope: Scope, plan: PlanChoice = 'configured'): string {
  const values = scopeSettings(scope, plan);
  // As configured, plan_cache_mode is not set at all (no earlier transaction's value outlives it):
  // on PGlite this text is parsed and run ahead of every statement, and the setting cost it about
  // 20 µs each time (2026-12-07).
  const settings = SCOPE_SETTINGS.map((name, i) => ({ name, value: values[i]! })).filter(
    ({ name }) => plan === 'generic' || name !== 'plan_cache_mode',
  );
  return `select ${settings.map(({ name, value }) => `set_config('${name}', '${value}', true)`).join(', ')}`;
}

/**
 * An iterable whose steps run in the scope it was made in: a stream's source (an export read in
 * batches) is pulled by the socket's events, outside the request's scope, after the handler has
 * returned.
 */
export function inScope<T>(iterable: AsyncIterable<T>): AsyncIterable<T> {
  const scope = requireScope();
  return {
    [Symbol.asyncIterator]() {
      const iterator = iterable[Symbol.asyncIterator]();
      return {
        next: () => withScope(scope, () => iterator.next()),
        return: (value?: unknown) =>
          withScope(scope, async () =>
            iterator.return ? iterator.return(value) : { done: true as const, value: undefined as never },
          ),
      };
    },
  };
}
