import { roleSchema, type AdminUser, type CreatedAdminUser } from '@pathway/contract';
import type { adminUsers } from '../../db/schema.js';

type AdminRow = typeof adminUsers.$inferSelect;

/** An admin as the console sees them: never the password hash or the TOTP secret. */
export function presentAdmin(row: AdminRow): AdminUser {
  return {
    admin_user_id: row.admin_user_id,
    user_name: row.user_name,
    first_name: row.first_name,
    last_name: row.last_name,
    role: roleSchema.parse(row.role),
    created_at: row.created_at.toISOString(),
    organisation_id: row.organisation_id,
    site_ids: row.site_ids,
    system_administrator: row.system_administrator,
  };
}

/** A new authenticator enrolment, answered once: the admin and the QR code to scan. */
export function presentEnrolment(enrolment: {
  admin: AdminUser;
  qrCode: string;
  otpauthUrl: string;
}): CreatedAdminUser {
  return { ...enrolment.admin, qr_code: enrolment.qrCode, otpauth_url: enrolment.otpauthUrl };
}
