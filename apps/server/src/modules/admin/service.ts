import { asc, eq, sql } from 'drizzle-orm';
import {
  FULL_ACCESS,
  createAdminBody,
  messages,
  roleSchema,
  type AdminUser,
  type CreateAdminBody,
  type UpdateAdminBody,
} from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { adminUsers } from '../../db/schema.js';
import { HttpError, conflict, notFound } from '../../lib/http-error.js';
import { assertAcceptablePassword } from '../auth/password-policy.js';
import { hashPassword } from '../auth/passwords.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { otpauthUrl } from '../auth/totp.js';
import { newStoredTotpSecret } from '../auth/totp-secrets.js';

type AdminRow = typeof adminUsers.$inferSelect;

/** Serialises changes that could leave nobody with full access. */
const FULL_ACCESS_LOCK = 7_311_002;

export function presentAdmin(row: AdminRow): AdminUser {
  return {
    admin_user_id: row.admin_user_id,
    user_name: row.user_name,
    first_name: row.first_name,
    last_name: row.last_name,
    role: roleSchema.parse(row.role),
    created_at: row.created_at.toISOString(),
  };
}

export class AdminService {
  constructor(
    private readonly db: Database,
    /** Seals the TOTP secrets this service writes (auth/totp-secrets.ts). */
    private readonly secrets: SecretBox,
  ) {}

  list(): Promise<AdminUser[]> {
    return this.db
      .select()
      .from(adminUsers)
      .orderBy(asc(adminUsers.admin_user_id))
      .then((rows) => rows.map(presentAdmin));
  }

  count(): Promise<number> {
    return this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(adminUsers)
      .then(([row]) => row!.n);
  }

  /** Creates the admin and the TOTP enrolment they scan once; the secret is never shown again. */
  async create(input: CreateAdminBody) {
    const body = createAdminBody.parse(input);
    await assertAcceptablePassword(body.password, body.user_name);
    const totp = newStoredTotpSecret(this.secrets);
    const [row] = await this.db
      .insert(adminUsers)
      .values({
        user_name: body.user_name,
        first_name: body.first_name,
        last_name: body.last_name,
        role: body.role,
        password_hash: await hashPassword(body.password),
        totp_secret: totp.stored,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict(messages.admin.usernameTaken);
    const url = otpauthUrl(row.user_name, totp.secret);
    return {
      admin: presentAdmin(row),
      totpSecret: totp.secret,
      otpauthUrl: url,
      // Loaded when an admin is created, not at every start of the server.
      qrCode: await (
        await import('qrcode')
      ).default.toDataURL(url, { errorCorrectionLevel: 'M', margin: 2, width: 240 }),
    };
  }

  async update(userName: string, body: UpdateAdminBody): Promise<AdminUser> {
    return this.db.transaction(async (tx) => {
      const current = await this.lockAndFind(tx, userName);
      if (body.role && body.role !== FULL_ACCESS && current.role === FULL_ACCESS) {
        await this.assertAnotherFullAccess(tx, current.admin_user_id);
      }
      const changes = {
        ...(body.first_name !== undefined && { first_name: body.first_name }),
        ...(body.last_name !== undefined && { last_name: body.last_name }),
        ...(body.role !== undefined && { role: body.role }),
      };
      // Nothing to change (the console may send only the user name): an empty SET is not SQL.
      if (Object.keys(changes).length === 0) return presentAdmin(current);
      const [row] = await tx
        .update(adminUsers)
        .set(changes)
        .where(eq(adminUsers.admin_user_id, current.admin_user_id))
        .returning();
      return presentAdmin(row!);
    });
  }

  async remove(userName: string, actingAdminId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const current = await this.lockAndFind(tx, userName);
      if (current.admin_user_id === actingAdminId) throw new HttpError(409, messages.admin.cannotDeleteSelf);
      if (current.role === FULL_ACCESS) await this.assertAnotherFullAccess(tx, current.admin_user_id);
      // Sessions go with the row (on delete cascade), so the deleted admin is signed out at once.
      await tx.delete(adminUsers).where(eq(adminUsers.admin_user_id, current.admin_user_id));
    });
  }

  private async lockAndFind(tx: Database, userName: string): Promise<AdminRow> {
    await tx.execute(sql`select pg_advisory_xact_lock(${FULL_ACCESS_LOCK})`);
    const [row] = await tx
      .select()
      .from(adminUsers)
      .where(sql`lower(${adminUsers.user_name}) = ${userName.toLowerCase()}`);
    if (!row) throw notFound(messages.admin.notFound);
    return row;
  }

  private async assertAnotherFullAccess(tx: Database, exceptId: number): Promise<void> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(adminUsers)
      .where(sql`${adminUsers.role} = ${FULL_ACCESS} and ${adminUsers.admin_user_id} <> ${exceptId}`);
    if (row!.n === 0) throw new HttpError(409, messages.admin.lastFullAccess);
  }
}
