import { z } from 'zod';
import { limits } from './limits.js';
import { messages } from './messages.js';
import { roleSchema } from './roles.js';
import { requiredText } from './common.js';

const m = messages.admin;

export const adminUserName = requiredText(m.usernameEmpty, limits.usernameMin, m.usernameShort);
export const adminPassword = z
  .string({ error: m.passwordEmpty })
  .min(1, { error: m.passwordEmpty })
  .min(limits.passwordMin, { error: m.passwordShort })
  .max(1024, { error: 'Password must be at most 1024 characters' });

/** Names are optional in the spec's add form; when given they must be real text. */
const adminName = z.string().trim().max(limits.shortTextMax).default('');

/** The sites of their organisation an admin is limited to; none: every site. */
const adminSiteIds = z
  .array(
    z
      .number({ error: 'Each site must be a site id' })
      .int({ error: 'Each site must be a site id' })
      .positive({ error: 'Each site must be a site id' })
      .max(2147483647, { error: 'Each site must be a site id' }),
    { error: 'site_ids must be a list of site ids' },
  )
  .max(500, { error: 'At most 500 sites' })
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b));
const systemAdministrator = z.boolean({ error: 'system_administrator must be true or false' });

export const createAdminBody = z
  .object({
    user_name: adminUserName,
    password: adminPassword,
    first_name: adminName,
    last_name: adminName,
    role: roleSchema.default('basic access'),
    organisation_id: z
      .number({ error: 'organisation_id must be an organisation id' })
      .int({ error: 'organisation_id must be an organisation id' })
      .positive({ error: 'organisation_id must be an organisation id' })
      .max(2147483647, { error: 'organisation_id must be an organisation id' })
      .optional()
      .describe("The admin's organisation; absent: yours. Only a system administrator names another"),
    site_ids: adminSiteIds
      .default([])
      .describe('The sites they are limited to; empty (the default): every site'),
    system_administrator: systemAdministrator
      .default(false)
      .describe('Only a system administrator makes another one'),
  })
  .meta({ id: 'CreateAdminUser' });
export type CreateAdminBody = z.input<typeof createAdminBody>;
/** As validated: what the service writes. */
export type CreateAdminInput = z.output<typeof createAdminBody>;

export const updateAdminBody = z
  .object({
    first_name: adminName.optional(),
    last_name: adminName.optional(),
    role: roleSchema.optional(),
    /** Sent by the console for reference; the user name itself cannot change. */
    user_name: z.string().optional(),
    site_ids: adminSiteIds.optional().describe('The sites they are limited to; empty: every site'),
    system_administrator: systemAdministrator.optional().describe('Only a system administrator changes it'),
  })
  .meta({ id: 'UpdateAdminUser' });
export type UpdateAdminInput = z.output<typeof updateAdminBody>;
export type UpdateAdminBody = z.input<typeof updateAdminBody>;

export const adminUser = z
  .object({
    admin_user_id: z.number().int(),
    user_name: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    role: roleSchema,
    created_at: z.string(),
    organisation_id: z.number().int(),
    site_ids: z.array(z.number().int()).describe('The sites they are limited to; empty: every site'),
    system_administrator: z.boolean(),
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof adminUser>;

export const createdAdminUser = adminUser
  .extend({
    qr_code: z.string().describe('PNG data URL of the otpauth URL, for an authenticator app'),
    otpauth_url: z.string(),
  })
  .meta({ id: 'CreatedAdminUser' });
export type CreatedAdminUser = z.infer<typeof createdAdminUser>;

export const adminUserNameParam = z.object({ user_name: z.string().min(1).max(200) });

/**
 * A full-access admin resets another admin's authenticator: the answer is the new enrolment, shown
 * once, exactly as when the admin was added (the key is inside `otpauth_url`).
 */
export const authenticatorReset = createdAdminUser
  .extend({ message: z.string() })
  .meta({ id: 'AuthenticatorReset' });
export type AuthenticatorReset = z.infer<typeof authenticatorReset>;

/** A full-access admin sets another admin's password (the password policy applies). */
export const resetPasswordBody = z.object({ new_password: adminPassword }).meta({ id: 'ResetPassword' });
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

/**
 * Any admin changes their own password: the current one and a fresh code of their authenticator
 * app prove it is them and not someone holding their session cookie.
 */
export const changePasswordBody = z
  .object({
    current_password: z
      .string({ error: m.currentPasswordEmpty })
      .min(1, { error: m.currentPasswordEmpty })
      .max(1024, { error: 'Password must be at most 1024 characters' }),
    new_password: adminPassword,
    mfa_token: z
      .string({ error: m.mfaEmpty })
      .trim()
      .min(1, { error: m.mfaEmpty })
      .max(12, { error: m.mfaEmpty }),
  })
  .meta({ id: 'ChangePassword' });
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;
