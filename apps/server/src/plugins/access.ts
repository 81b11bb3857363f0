import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { FULL_ACCESS, messages } from '@pathway/contract';
import type { AppContext } from '../context.js';
import { deviceTokens, participants } from '../db/schema.js';
import { HttpError } from '../lib/http-error.js';
import { SESSION_COOKIE, type StaffSession } from '../lib/staff-session.js';

/**
 * Who may call a route. Every route of the API declares one (the app refuses to start otherwise):
 * - public: anyone; - staff: any signed-in admin; - full: full-access admins only;
 * - device: the tablet app with a bearer token of a device still assigned to its participant;
 * - staff-or-device: a path both share (the tablet's PATCH of its participant): a request with an
 *   Authorization header is judged as a device, any other as staff. The handler checks which.
 */
export type Access = 'public' | 'staff' | 'full' | 'device' | 'staff-or-device';

export interface DeviceCaller {
  participantId: number;
  deviceId: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    staff: StaffSession | null;
    device: DeviceCaller | null;
  }
}

export function hashDeviceToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

async function resolveDevice(ctx: AppContext, request: FastifyRequest): Promise<DeviceCaller | null> {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+([A-Za-z0-9_-]{20,200})$/);
  if (!match) return null;
  // The join is the revocation: once the device is detached from (or deleted with) the
  // participant, no token issued for that pairing matches any more.
  const [row] = await ctx.db
    .select({ participantId: deviceTokens.participant_id, deviceId: deviceTokens.authorized_device_id })
    .from(deviceTokens)
    .innerJoin(
      participants,
      and(
        eq(participants.participant_id, deviceTokens.participant_id),
        eq(participants.authorized_device_id, deviceTokens.authorized_device_id),
      ),
    )
    .where(and(eq(deviceTokens.token_hash, hashDeviceToken(match[1]!)), isNull(deviceTokens.revoked_at)));
  return row ?? null;
}

export const accessPlugin = fp(async (app: FastifyInstance, opts: { ctx: AppContext }) => {
  const { ctx } = opts;
  app.decorateRequest('staff', null);
  app.decorateRequest('device', null);

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access ?? 'public';
    if (access === 'public') return;
    if (access === 'device' || (access === 'staff-or-device' && request.headers.authorization)) {
      request.device = await resolveDevice(ctx, request);
      if (!request.device) throw new HttpError(401, 'This device is not registered');
      return;
    }
    request.staff = await ctx.sessions.resolve(request.cookies[SESSION_COOKIE]);
    if (!request.staff) throw new HttpError(401, messages.session.required);
    if (access === 'full' && request.staff.role !== FULL_ACCESS) {
      throw new HttpError(403, messages.session.forbidden);
    }
  });
});

const ACCESS_DESCRIPTIONS: Record<Access, string> = {
  public: 'Access: anyone.',
  staff: 'Access: any signed-in admin (basic or full access).',
  full: 'Access: full access only.',
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
    if (!access) throw new Error(`Route ${String(route.method)} ${route.url} declares no access level`);
    const schema = (route.schema ??= {}) as Record<string, unknown>;
    schema.security =
      access === 'public'
        ? []
        : access === 'device'
          ? [{ device: [] }]
          : access === 'staff-or-device'
            ? [{ session: [] }, { device: [] }]
            : [{ session: [] }];
    schema.description = [schema.description, ACCESS_DESCRIPTIONS[access]].filter(Boolean).join('\n\n');
  });
}

/** The signed-in admin of a staff or full route (the access hook guarantees one). */
export function staffOf(request: FastifyRequest): StaffSession {
  if (!request.staff) throw new HttpError(401, messages.session.required);
  return request.staff;
}
