import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  can,
  messages,
  roleSchema,
  rolesWith,
  type AdminUser,
  type CreateAdminInput,
  type UpdateAdminBody,
} from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { adminUsers } from '../../db/schema.js';
import { HttpError, conflict, notFound } from '../../lib/http-error.js';
import { type AuditActor, AuditService } from '../audit/index.js';
import { presentAdmin } from './presenter.js';
import {
  assertAcceptablePassword,
  endSessionsOf,
  hashPassword,
  newStoredTotpSecret,
  otpauthUrl,
} from '../auth/index.js';
import type { SecretBox } from '../../lib/secret-box.js';

type AdminRow = typeof adminUsers.$inferSelect;

/** The QR code an authenticator app scans; loaded when one is made, not at every start of the server. */
async function qrCodeOf(url: string): Promise<string> {
  return (await import('qrcode')).default.toDataURL(url, {
    errorCorrectionLevel: 'M',
    margin: 2,
    width: 240,
  });
}

/** How the audit trail names the admin an action was about (a staff account, never participant data). */
const aboutAdmin = (row: AdminRow) => `admin ${row.user_name} (id ${row.admin_user_id})`;

/** Whether a role (as stored, so any text) can manage admins: somebody always must. */
function managesAdmins(role: string): boolean {
  const known = roleSchema.safeParse(role);
  return known.success && can(known.data, 'admins.manage');
}

/** Serialises changes to admin accounts: none may leave nobody who can manage admins (full access). */
const ADMIN_MANAGERS_LOCK = 7_311_002;

export class AdminService {
  private readonly audit: AuditService;

  constructor(
    private readonly db: Database,
    /** Seals the TOTP secrets this service writes (auth/totp-secrets.ts). */
    private readonly secrets: SecretBox,
  ) {
    this.audit = new AuditService(db);
  }

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

  /**
   * Creates the admin and the TOTP enrolment they scan once; the secret is never shown again.
   * `actor` (who added them) is recorded in the audit trail in the same transaction; the test
   * harness and benchmarks, which make admins directly, pass none.
   */
  async create(body: CreateAdminInput, actor?: AuditActor) {
    await assertAcceptablePassword(body.password, body.user_name);
    const totp = newStoredTotpSecret(this.secrets);
    const passwordHash = await hashPassword(body.password);
    const row = await this.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(adminUsers)
        .values({
          user_name: body.user_name,
          first_name: body.first_name,
          last_name: body.last_name,
          role: body.role,
          password_hash: passwordHash,
          totp_secret: totp.stored,
        })
        .onConflictDoNothing()
        .returning();
      if (!inserted) throw conflict(messages.admin.usernameTaken);
      if (actor) {
        await this.audit.record(
          actor,
          { action: 'admin.create', detail: `${aboutAdmin(inserted)}, ${inserted.role}` },
          tx,
        );
      }
      return inserted;
    });
    const url = otpauthUrl(row.user_name, totp.secret);
    return {
      admin: presentAdmin(row),
      totpSecret: totp.secret,
      otpauthUrl: url,
      qrCode: await qrCodeOf(url),
    };
  }

  async update(
    userName: string,
    body: UpdateAdminBody,
    actor: AuditActor,
    /** Called before a role is changed to one that manages admins (full access): may refuse. */
    onPromotion: () => void = () => {},
  ): Promise<AdminUser> {
    return this.db.transaction(async (tx) => {
      const current = await this.lockAndFind(tx, userName);
      if (body.role && body.role !== current.role && managesAdmins(body.role)) onPromotion();
      if (body.role && !managesAdmins(body.role) && managesAdmins(current.role)) {
        await this.assertAnotherAdminManager(tx, current.admin_user_id);
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
      if (body.role !== undefined && body.role !== current.role) {
        await this.audit.record(
          actor,
          { action: 'admin.role_change', detail: `${aboutAdmin(current)}: ${current.role} to ${body.role}` },
          tx,
        );
      }
      return presentAdmin(row!);
    });
  }

  async remove(userName: string, actor: AuditActor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const current = await this.lockAndFind(tx, userName);
      if (current.admin_user_id === actor.adminUserId) {
        throw new HttpError(409, messages.admin.cannotDeleteSelf);
      }
      if (managesAdmins(current.role)) await this.assertAnotherAdminManager(tx, current.admin_user_id);
      // Sessions go with the row (on delete cascade), so the deleted admin is signed out at once.
      await tx.delete(adminUsers).where(eq(adminUsers.admin_user_id, current.admin_user_id));
      await this.audit.record(
        actor,
        { action: 'admin.delete', detail: `${aboutAdmin(current)}, ${current.role}` },
        tx,
      );
    });
  }

  /**
   * Account recovery by a full-access admin: a new TOTP secret for someone who lost their phone.
   * The old codes stop working and every session of theirs ends in the same transaction, so
   * whoever holds the old phone or a cookie is shut out at once. The new enrolment is answered
   * once, as when the admin was added. One's own authenticator is not reset here: that would let a
   * stolen session cookie take the account over without the password.
   */
  async resetAuthenticator(userName: string, actor: AuditActor) {
    const totp = newStoredTotpSecret(this.secrets);
    const row = await this.db.transaction(async (tx) => {
      const current = await this.findOther(tx, userName, actor);
      const [updated] = await tx
        .update(adminUsers)
        // The replay guard belonged to the old secret; the new one's codes have never been used.
        .set({ totp_secret: totp.stored, totp_last_step: 0 })
        .where(eq(adminUsers.admin_user_id, current.admin_user_id))
        .returning();
      await endSessionsOf(tx, current.admin_user_id);
      await this.audit.record(
        actor,
        { action: 'admin.authenticator_reset', detail: aboutAdmin(current) },
        tx,
      );
      return updated!;
    });
    const url = otpauthUrl(row.user_name, totp.secret);
    return { admin: presentAdmin(row), otpauthUrl: url, qrCode: await qrCodeOf(url) };
  }

  /**
   * Account recovery by a full-access admin: a new password for someone who forgot theirs (the
   * password policy applies, with their user name). Every session of theirs ends with it.
   */
  async resetPassword(userName: string, newPassword: string, actor: AuditActor): Promise<AdminUser> {
    // Found first (outside the transaction) only to check the policy against the right user name;
    // the change itself looks the admin up again under the lock.
    const target = await this.findByUserName(this.db, userName);
    if (target.admin_user_id === actor.adminUserId) throw new HttpError(409, messages.admin.resetOwnAccount);
    await assertAcceptablePassword(newPassword, target.user_name);
    const passwordHash = await hashPassword(newPassword);
    return this.db.transaction(async (tx) => {
      const current = await this.findOther(tx, userName, actor);
      await tx
        .update(adminUsers)
        .set({ password_hash: passwordHash })
        .where(eq(adminUsers.admin_user_id, current.admin_user_id));
      await endSessionsOf(tx, current.admin_user_id);
      await this.audit.record(actor, { action: 'admin.password_reset', detail: aboutAdmin(current) }, tx);
      return presentAdmin(current);
    });
  }

  /** Another admin than the actor, locked against concurrent changes for the transaction. */
  private async findOther(tx: Database, userName: string, actor: AuditActor): Promise<AdminRow> {
    const current = await this.lockAndFind(tx, userName);
    if (current.admin_user_id === actor.adminUserId) throw new HttpError(409, messages.admin.resetOwnAccount);
    return current;
  }

  private async findByUserName(db: Database, userName: string): Promise<AdminRow> {
    const [row] = await db
      .select()
      .from(adminUsers)
      .where(sql`lower(${adminUsers.user_name}) = ${userName.toLowerCase()}`);
    if (!row) throw notFound(messages.admin.notFound);
    return row;
  }

  private async lockAndFind(tx: Database, userName: string): Promise<AdminRow> {
    await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_MANAGERS_LOCK})`);
    return this.findByUserName(tx, userName);
  }

  private async assertAnotherAdminManager(tx: Database, exceptId: number): Promise<void> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(adminUsers)
      .where(
        and(inArray(adminUsers.role, rolesWith('admins.manage')), ne(adminUsers.admin_user_id, exceptId)),
      );
    if (row!.n === 0) throw new HttpError(409, messages.admin.lastFullAccess);
  }
}
