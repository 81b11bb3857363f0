import { z } from 'zod';
import { roleSchema } from './roles.js';

export const loginBody = z
  .object({
    user_name: z.string().trim().min(1).max(200),
    password: z.string().min(1).max(1024),
    mfa_token: z.string().trim().min(1).max(12),
  })
  .meta({ id: 'LoginBody' });
export type LoginBody = z.infer<typeof loginBody>;

export const sessionResponse = z
  .object({
    admin_user_id: z.number().int(),
    user_name: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    role: roleSchema,
    expires_at: z.string().describe('When the session ends at the latest (ISO 8601)'),
    organisation: z
      .object({ organisation_id: z.number().int(), name: z.string(), ods_code: z.string().nullable() })
      .describe('The organisation the admin works in'),
    sites: z
      .array(z.object({ site_id: z.number().int(), name: z.string(), ods_code: z.string().nullable() }))
      .describe(
        'The sites whose participants the admin sees: every site of the organisation, or the ones they are limited to. The console shows a site selector only when there is more than one',
      ),
    site_ids: z
      .array(z.number().int())
      .describe('The sites the admin is limited to; empty: every site of the organisation'),
    system_administrator: z
      .boolean()
      .describe('Runs the instance: organisations, sites, their admin users, shared video sets, server logs'),
    organisation_id: z
      .number()
      .int()
      .optional()
      .describe(
        'The organisation the admin works in: its settings (single sign-on) are under /api/organisations/{id}',
      ),
    single_sign_on: z
      .boolean()
      .optional()
      .describe(
        "True when this session signed in through the organisation's identity provider: a step-up then goes through it too (GET /api/sso/step-up)",
      ),
  })
  .meta({ id: 'Session' });
export type SessionInfo = z.infer<typeof sessionResponse>;

/** `POST /logout`: with `end_session_url`, the console goes on to end the session at the identity provider too. */
export const logoutResponse = z
  .object({
    message: z.string(),
    end_session_url: z
      .string()
      .optional()
      .describe(
        "A session signed in through an identity provider that offers RP-initiated logout: the provider's end-session address (client_id and post_logout_redirect_uri, no token)",
      ),
  })
  .meta({ id: 'Logout' });

/** A user name whose sign-ins are locked or slowed down, from one address (full access sees them). */
export const lockout = z
  .object({
    user_name: z.string().describe('As typed at sign-in, lower-cased; it may match no admin'),
    source: z.string().nullable().describe('The address the failures came from (IPv6 as its /64)'),
    failures: z.number().int(),
    last_failure_at: z.string(),
    locked_until: z.string().nullable().describe('Null while only slowed down'),
  })
  .meta({ id: 'Lockout' });
export type Lockout = z.infer<typeof lockout>;
export const lockoutUserNameParam = z.object({ user_name: z.string().min(1).max(200) });
