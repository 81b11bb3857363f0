import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  ACCESS_LEVELS,
  API_ROUTES,
  PERMISSIONS,
  ROLES,
  SESSION_ROUTES,
  SYSTEM_ADMINISTRATOR_PERMISSIONS,
  STEP_UP_MAX_AGE_MINUTES,
  can,
  deviceApi,
  messages,
  rolesWith,
  type Access,
  type Permission,
  type RouteDeclaration,
} from '@pathway/contract';
import type { AppContext } from '../context.js';
import { deviceTokens, participants } from '../db/schema.js';
import { column, rowsReader } from '../db/rows.js';
import type { TablePermission } from '../lib/endpoint-route.js';
import { HttpError } from '../lib/http-error.js';
import { SESSION_COOKIE, type StaffSession } from '../lib/staff-session.js';
import { instanceScope, withScope, type Scope } from '../db/scope.js';

/**
 * Who may call a route (the contract's `Access`). A route of the contract's table takes its access
 * and permission from its entry (`routeOf`); a route outside it (uploads, media, health) declares
 * `config: { access }`. Inside the API scope a route without one is refused at start-up.
 */
export type { Access };

export interface DeviceCaller {
  participantId: number;
  deviceId: number;
  /** The participant's site and organisation: the scope of the tablet's statements. */
  siteId: number;
  organisationId: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * With access 'staff' only: the permission a caller's role must have. Set by `routeOf()` from
     * the route's entry in the contract's table, never by hand (see TablePermission).
     */
    permission?: TablePermission;
    /**
     * A dangerous action: the session must have signed in or stepped up within the last
     * STEP_UP_MAX_AGE_MINUTES, else 401 with `step_up_required: true`.
     */
    stepUp?: boolean;
  }
  interface FastifyRequest {
    staff: StaffSession | null;
    device: DeviceCaller | null;
    /** Whose rows the route's statements see (db/scope.ts): the admin's or the tablet's; none on public routes. */
    scope: Scope | undefined;
  }
}

export function hashDeviceToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Contact times are kept to the minute: a tablet's burst of calls at start costs one write. */
export const CONTACT_GRANULARITY_MS = 60_000;

const readDeviceCaller = rowsReader({
  participant_id: column.integer,
  authorized_device_id: column.integer,
  site_id: column.integer,
  organisation_id: column.integer,
});

/**
 * The device behind a bearer token, in one round trip: the token is looked up and, when it is
 * valid, its last use and the participant's "tablet last in contact" and address are brought up
 * to date (only when they changed, or at most once a minute).
 */
async function resolveDevice(ctx: AppContext, request: FastifyRequest): Promise<DeviceCaller | null> {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+([A-Za-z0-9_-]{20,200})$/);
  if (!match) return null;
  const now = ctx.clock.now();
  const nowText = now.toISOString();
  const stale = new Date(now.getTime() - CONTACT_GRANULARITY_MS).toISOString();
  const idleSince = new Date(now.getTime() - ctx.config.deviceTokenIdleDays * 86_400_000).toISOString();
  // The join is the revocation: once the device is detached from (or deleted with) the
  // participant, no token issued for that pairing matches any more. An unused token expires.
  const rows = readDeviceCaller(
    // The token says which organisation: it is looked for among every organisation's.
    await withScope(instanceScope('tablet token'), () =>
      ctx.db.execute(sql`
      with token as (
        select t.token_hash, t.participant_id, t.authorized_device_id, p.site_id, p.organisation_id
        from ${deviceTokens} t
        join ${participants} p
          on p.participant_id = t.participant_id and p.authorized_device_id = t.authorized_device_id
        where t.token_hash = ${hashDeviceToken(match[1]!)} and t.revoked_at is null
          and coalesce(t.last_used_at, t.created_at) > ${idleSince}::timestamptz
      ), used as (
        update ${deviceTokens} t set last_used_at = ${nowText}::timestamptz
        from token
        where t.token_hash = token.token_hash
          and (t.last_used_at is null or t.last_used_at < ${stale}::timestamptz)
      ), contact as (
        update ${participants} p
        set tablet_last_contact_at = ${nowText}::timestamptz, last_ip_address = ${request.ip}
        from token
        where p.participant_id = token.participant_id
          and (p.tablet_last_contact_at is null or p.tablet_last_contact_at < ${stale}::timestamptz
               or p.last_ip_address is distinct from ${request.ip})
      ), called as (
        -- Follow-up's "tablet silent" counts from the last call with the tablet's token.
        update participant_followup f set tablet_called_at = ${nowText}::timestamptz
        from token
        where f.participant_id = token.participant_id
          and (f.tablet_called_at is null or f.tablet_called_at < ${stale}::timestamptz)
      )
      select participant_id, authorized_device_id, site_id, organisation_id from token
    `),
    ),
  );
  const row = rows[0];
  return row
    ? {
        participantId: row.participant_id,
        deviceId: row.authorized_device_id,
        siteId: row.site_id,
        organisationId: row.organisation_id,
      }
    : null;
}

export const accessPlugin = fp(async (app: FastifyInstance, opts: { ctx: AppContext }) => {
  const { ctx } = opts;
  app.decorateRequest('staff', null);
  app.decorateRequest('device', null);
  app.decorateRequest('scope', undefined);

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access ?? 'public';
    if (access === 'public') return;
    if (access === 'device' || (access === 'staff-or-device' && request.headers.authorization)) {
      request.device = await resolveDevice(ctx, request);
      if (!request.device) throw new HttpError(401, 'This device is not registered');
      request.scope = deviceScope(request.device);
      return;
    }
    request.staff = await ctx.sessions.resolve(request.cookies[SESSION_COOKIE]);
    if (!request.staff) throw new HttpError(401, messages.session.required);
    request.scope = staffScope(request.staff);
    const permission = request.routeOptions.config.permission;
    if (permission !== undefined && !can(request.staff, permission)) {
      throw new HttpError(403, messages.session.forbidden);
    }
    if (request.routeOptions.config.stepUp) assertFreshStepUp(ctx, request);
  });
});

/** What a signed-in admin's statements see: their organisation, their sites, the instance's if they run it. */
export function staffScope(staff: StaffSession): Scope {
  return {
    kind: 'staff',
    organisationId: staff.organisationId,
    siteIds: staff.visibleSiteIds,
    everySite: staff.siteIds.length === 0,
    systemAdministrator: staff.systemAdministrator,
  };
}

/** What a tablet's statements see: its participant's site. */
function deviceScope(device: DeviceCaller): Scope {
  return { kind: 'device', organisationId: device.organisationId, siteIds: [device.siteId] };
}

/**
 * Inside the API scope every handler runs in its request's scope (set by the access check above):
 * each statement it makes, however deep, is the admin's or the tablet's. A public route has none,
 * and names one itself for what it must read (sign-in: the instance's).
 */
export function runHandlersInScope(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    const work = BEFORE_SIGN_IN.get(route.url);
    route.handler = function (this: FastifyInstance, request, reply) {
      const scope = request.scope ?? (work ? instanceScope(work) : undefined);
      return scope
        ? withScope(scope, () => handler.call(this, request, reply))
        : handler.call(this, request, reply);
    };
  });
}

/**
 * Public routes of single sign-on, which read the instance's providers, flows and admins before
 * anyone is known (the provider's answer says who), named as the instance's work.
 */
const BEFORE_SIGN_IN = new Map<string, string>(
  [
    API_ROUTES.sso.start,
    API_ROUTES.sso.callback,
    API_ROUTES.sso.backchannelLogout,
    API_ROUTES.sso.jwks,
    SESSION_ROUTES.ssoLookup,
  ].map((route) => [route.path, 'single sign-on']),
);

/** The table's routes by `METHOD path`: a route registered at one of these must declare what its entry says. */
const TABLE_ROUTES = new Map<string, RouteDeclaration>(
  [
    ...Object.values(API_ROUTES as Record<string, Record<string, RouteDeclaration>>).flatMap((group) =>
      Object.values(group),
    ),
    ...Object.values<RouteDeclaration>(deviceApi),
  ].map((entry) => [`${entry.method} ${entry.path}`, entry]),
);
const STEP_UP_MAX_AGE_MS = STEP_UP_MAX_AGE_MINUTES * 60_000;

/** The refusal of a dangerous action by a session that has not proved itself lately. */
export function stepUpRequired(): HttpError {
  return new HttpError(401, messages.stepUp.required, {}, { step_up_required: true });
}

/**
 * Refuses (401, `step_up_required: true`) unless the session signed in or stepped up within the
 * last 5 minutes. Routes whose every call is dangerous say `stepUp: true` in their config; a route
 * where only some calls are (a role changed to full access, a full-access export) calls this.
 */
export function assertFreshStepUp(ctx: Pick<AppContext, 'clock'>, request: FastifyRequest): void {
  const staff = staffOf(request);
  if (ctx.clock.now().getTime() - staff.authenticatedAt.getTime() > STEP_UP_MAX_AGE_MS)
    throw stepUpRequired();
}

const ACCESS_DESCRIPTIONS: Record<Access, string> = {
  public: 'Access: anyone.',
  staff: `Access: any signed-in admin (${ROLES.join(', ')}).`,
  device: 'Access: the tablet app, with the bearer token of an assigned device.',
  'staff-or-device':
    'Access: any signed-in admin, or the tablet app with the bearer token of an assigned device.',
};

/**
 * Inside the API scope a route without a declared access level is a programming error; the
 * declared level is also written into the OpenAPI document.
 */
export function requireDeclaredAccess(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    const permission = route.config?.permission;
    const name = `Route ${String(route.method)} ${route.url}`;
    if (!access) throw new Error(`${name} declares no access level`);
    // Checked here as well as by the type: a route that still says 'full' (the level that became
    // permissions) would otherwise be served to any signed-in admin.
    if (!(ACCESS_LEVELS as readonly string[]).includes(access)) {
      throw new Error(`${name} declares an unknown access level '${String(access)}'`);
    }
    if (permission !== undefined && (access !== 'staff' || !PERMISSIONS.includes(permission))) {
      throw new Error(`${name} declares permission '${String(permission)}' (only with access 'staff')`);
    }
    // Who may call a route of the table is said by its entry alone: a route file that declares its
    // own access over routeOf's (a branch written before the table carried access) stops the start.
    // Fastify reports a GET's HEAD twin as HEAD.
    const entry = TABLE_ROUTES.get(`${route.method === 'HEAD' ? 'GET' : String(route.method)} ${route.url}`);
    if (entry && (entry.access !== access || entry.permission !== permission)) {
      const says = `${entry.access}${entry.permission ? ` ${entry.permission}` : ''}`;
      throw new Error(
        `${name} declares other access than its entry in the contract's route table (${says}): register it with routeOf(), without config.access or config.permission`,
      );
    }
    if (!entry && permission !== undefined) {
      throw new Error(`${name} declares a permission but is not in the contract's route table`);
    }
    if (route.config?.stepUp && access !== 'staff') {
      throw new Error(`${name} asks for a step-up (only with access 'staff')`);
    }
    const security: Record<string, string[]>[] =
      access === 'public'
        ? []
        : access === 'device'
          ? [{ device: [] }]
          : access === 'staff-or-device'
            ? [{ session: [] }, { device: [] }]
            : [{ session: [] }];
    const described = `${
      permission
        ? `Access: admins whose role has the permission ${permission}${accessHolders(permission)}.`
        : ACCESS_DESCRIPTIONS[access]
    }${route.config?.stepUp ? ` Needs a step-up within the last ${STEP_UP_MAX_AGE_MINUTES} minutes (POST /api/session/step-up); otherwise 401 with step_up_required.` : ''}`;
    // A new schema object, never the route's own one changed in place: Fastify gives the HEAD route
    // it adds for each GET a shallow copy of the GET's options, so both share one schema object and
    // this hook runs for both; appending in place wrote the sentence into every GET's text twice.
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const description = [schema.description, described].filter(Boolean).join('\n\n');
    route.schema = { ...schema, security, description };
  });
}

/** Who holds a permission, for the OpenAPI text: the roles, and system administrators. */
function accessHolders(permission: Permission): string {
  const holders: string[] = [...rolesWith(permission)];
  if (SYSTEM_ADMINISTRATOR_PERMISSIONS.has(permission)) holders.push('system administrators');
  return ` (${holders.join(', ')})`;
}

/** The signed-in admin of a staff route (the access hook guarantees one). */
export function staffOf(request: FastifyRequest): StaffSession {
  if (!request.staff) throw new HttpError(401, messages.session.required);
  return request.staff;
}
