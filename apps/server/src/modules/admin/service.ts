import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  can,
  messages,
  roleSchema,
  rolesWith,
  type AdminUser,
  type CreateAdminInput,
  type UpdateAdminInput,
} from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { adminUsers, organisations, sites } from '../../db/schema.js';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../../lib/http-error.js';
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

/**
 * The admin who manages admin accounts, as these rules see them: their organisation, the sites
 * they are limited to, and whether they run the instance. Only a system administrator manages
 * another organisation's admins or makes a system administrator; an admin limited to some sites
 * manages only admins limited to some of those, and gives no more.
 */
export interface AdminManager extends AuditActor {
  organisationId: number;
  siteIds: number[];
  systemAdministrator: boolean;
}

/** The operator at the server's shell (create-admin): trusted with everything, no session. */
export const COMMAND_LINE: AuditActor = {
  adminUserId: null,
  userName: 'command line (create-admin)',
  ip: null,
};

/** A new admin as validated (POST /api/admin, create-admin), or as the harness and benchmarks make one. */
type NewAdmin = Omit<CreateAdminInput, 'site_ids' | 'system_administrator'> &
  Partial<Pick<CreateAdminInput, 'site_ids' | 'system_administrator'>>;

/** An admin's change is their organisation's record, whoever made it (a system administrator too). */
const recordOf = (actor: AuditActor, admin: AdminRow): AuditActor => ({
  ...actor,
  organisationId: admin.organisation_id,
});

/** Whether every one of `ids` is among `of` (an empty `of` being every site). */
function within(ids: number[], of: number[]): boolean {
  return of.length === 0 || (ids.length > 0 && ids.every((id) => of.includes(id)));
}

export class AdminService {
  private readonly audit: AuditService;

  constructor(
    private readonly db: Database,
    /** Seals the TOTP secrets this service writes (auth/totp-secrets.ts). */
    private readonly secrets: SecretBox,
  ) {
    this.audit = new AuditService(db);
  }

  /** A system administrator's: every organisation's admins; anyone else's: their organisation's. */
  list(manager: AdminManager): Promise<AdminUser[]> {
    return this.db
      .select()
      .from(adminUsers)
      .where(manager.systemAdministrator ? undefined : eq(adminUsers.organisation_id, manager.organisationId))
      .orderBy(asc(adminUsers.admin_user_id))
      .then((rows) => rows.map(presentAdmin));
  }

  count(db: Database = this.db): Promise<number> {
    return db
      .select({ n: sql<number>`count(*)::int` })
      .from(adminUsers)
      .then(([row]) => row!.n);
  }

  /** The organisation of an instance that has one (the command line names none). */
  private async onlyOrganisation(db: Database): Promise<number> {
    const rows = await db.select({ id: organisations.organisation_id }).from(organisations).limit(2);
    if (rows.length !== 1) throw badRequest(messages.organisation.notFound);
    return rows[0]!.id;
  }

  /** Refuses sites that are not the organisation's (400, the same whether or not they exist elsewhere). */
  private async assertSitesOf(db: Database, organisationId: number, siteIds: number[]): Promise<void> {
    const [organisation] = await db
      .select({ id: organisations.organisation_id })
      .from(organisations)
      .where(eq(organisations.organisation_id, organisationId));
    if (!organisation) throw badRequest(messages.organisation.notFound);
    if (siteIds.length === 0) return;
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(sites)
      .where(and(eq(sites.organisation_id, organisationId), inArray(sites.site_id, siteIds)));
    if (row!.n !== siteIds.length) throw badRequest(messages.organisation.siteOfOtherOrganisation);
  }

  /**
   * What a manager may give an admin of `organisationId`: their own organisation only (a system
   * administrator: any), the system administrator flag only from one, and sites only among their own.
   */
  private assertMayGive(
    manager: AdminManager,
    organisationId: number,
    body: { site_ids?: number[]; system_administrator?: boolean },
  ): void {
    if (manager.systemAdministrator) return;
    if (organisationId !== manager.organisationId)
      throw forbidden(messages.organisation.otherOrganisationAdmins);
    if (body.system_administrator !== undefined && body.system_administrator)
      throw forbidden(messages.organisation.systemAdministratorOnly);
    if (body.site_ids !== undefined && !within(body.site_ids, manager.siteIds))
      throw forbidden(messages.organisation.siteNotYours);
  }

  /**
   * Creates the admin and the TOTP enrolment they scan once; the secret is never shown again.
   * `actor` (who added them) is recorded in the audit trail in the same transaction; the test
   * harness and benchmarks, which make admins directly, pass none.
   */
  async create(body: NewAdmin, actor?: AuditActor | AdminManager) {
    const manager = actor && 'siteIds' in actor ? actor : undefined;
    if (manager) this.assertMayGive(manager, body.organisation_id ?? manager.organisationId, body);
    await assertAcceptablePassword(body.password, body.user_name);
    const totp = newStoredTotpSecret(this.secrets);
    const passwordHash = await hashPassword(body.password);
    const row = await this.db.transaction(async (tx) => {
      const organisationId =
        body.organisation_id ?? manager?.organisationId ?? (await this.onlyOrganisation(tx));
      await this.assertSitesOf(tx, organisationId, body.site_ids ?? []);
      const [inserted] = await tx
        .insert(adminUsers)
        .values({
          user_name: body.user_name,
          first_name: body.first_name,
          last_name: body.last_name,
          role: body.role,
          password_hash: passwordHash,
          totp_secret: totp.stored,
          organisation_id: organisationId,
          site_ids: body.site_ids ?? [],
          system_administrator: body.system_administrator ?? false,
        })
        .onConflictDoNothing()
        .returning();
      if (!inserted) throw conflict(messages.admin.usernameTaken);
      if (actor) {
        await this.audit.record(
          { ...actor, organisationId: inserted.organisation_id },
          {
            action: 'admin.create',
            detail: `${aboutAdmin(inserted)}, ${inserted.role}${inserted.system_administrator ? ', system administrator' : ''}`,
          },
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
    body: UpdateAdminInput,
    actor: AdminManager,
    /** Called before a role is changed to one that manages admins (full access): may refuse. */
    onPromotion: () => void = () => {},
  ): Promise<AdminUser> {
    return this.db.transaction(async (tx) => {
      const current = await this.lockAndFind(tx, userName, actor);
      if (
        body.system_administrator !== undefined &&
        body.system_administrator !== current.system_administrator
      ) {
        if (!actor.systemAdministrator) throw forbidden(messages.organisation.systemAdministratorOnly);
        if (!body.system_administrator)
          await this.assertAnotherSystemAdministrator(tx, current.admin_user_id);
      }
      if (body.site_ids !== undefined) {
        this.assertMayGive(actor, current.organisation_id, { site_ids: body.site_ids });
        await this.assertSitesOf(tx, current.organisation_id, body.site_ids);
      }
      if (body.role && body.role !== current.role && managesAdmins(body.role)) onPromotion();
      if (body.role && !managesAdmins(body.role) && managesAdmins(current.role)) {
        await this.assertAnotherAdminManager(tx, current);
      }
      const sitesChanged =
        body.site_ids !== undefined &&
        body.site_ids.join(',') !== [...current.site_ids].sort((a, b) => a - b).join(',');
      const changes = {
        ...(body.first_name !== undefined && { first_name: body.first_name }),
        ...(body.last_name !== undefined && { last_name: body.last_name }),
        ...(body.role !== undefined && { role: body.role }),
        ...(sitesChanged && { site_ids: body.site_ids }),
        ...(body.system_administrator !== undefined && { system_administrator: body.system_administrator }),
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
          recordOf(actor, current),
          { action: 'admin.role_change', detail: `${aboutAdmin(current)}: ${current.role} to ${body.role}` },
          tx,
        );
      }
      if (sitesChanged) {
        const named = (ids: number[]) => (ids.length === 0 ? 'every site' : `sites ${ids.join(', ')}`);
        await this.audit.record(
          recordOf(actor, current),
          {
            action: 'admin.sites_change',
            detail: `${aboutAdmin(current)}: ${named(current.site_ids)} to ${named(body.site_ids!)}`,
          },
          tx,
        );
      }
      if (
        body.system_administrator !== undefined &&
        body.system_administrator !== current.system_administrator
      ) {
        await this.audit.record(
          recordOf(actor, current),
          {
            action: 'admin.system_administrator_change',
            detail: `${aboutAdmin(current)}: ${body.system_administrator ? 'made' : 'no longer'} a system administrator`,
          },
          tx,
        );
      }
      return presentAdmin(row!);
    });
  }

  async remove(userName: string, actor: AdminManager): Promise<void> {
    await this.db.transaction(async (tx) => {
      const current = await this.lockAndFind(tx, userName, actor);
      if (current.admin_user_id === actor.adminUserId) {
        throw new HttpError(409, messages.admin.cannotDeleteSelf);
      }
      if (managesAdmins(current.role)) await this.assertAnotherAdminManager(tx, current);
      if (current.system_administrator)
        await this.assertAnotherSystemAdministrator(tx, current.admin_user_id);
      // Sessions go with the row (on delete cascade), so the deleted admin is signed out at once.
      await tx.delete(adminUsers).where(eq(adminUsers.admin_user_id, current.admin_user_id));
      await this.audit.record(
        recordOf(actor, current),
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
  async resetAuthenticator(userName: string, actor: AdminManager) {
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
        recordOf(actor, current),
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
  async resetPassword(userName: string, newPassword: string, actor: AdminManager): Promise<AdminUser> {
    // Found first (outside the transaction) only to check the policy against the right user name;
    // the change itself looks the admin up again under the lock.
    const target = await this.findByUserName(this.db, userName, actor);
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
      await this.audit.record(
        recordOf(actor, current),
        { action: 'admin.password_reset', detail: aboutAdmin(current) },
        tx,
      );
      return presentAdmin(current);
    });
  }

  /** Another admin than the actor, locked against concurrent changes for the transaction. */
  private async findOther(tx: Database, userName: string, actor: AdminManager): Promise<AdminRow> {
    const current = await this.lockAndFind(tx, userName, actor);
    if (current.admin_user_id === actor.adminUserId) throw new HttpError(409, messages.admin.resetOwnAccount);
    return current;
  }

  /**
   * An admin the manager may manage: of their organisation (a system administrator: of any), and
   * for a manager limited to some sites, one limited to some of theirs. Another organisation's
   * admin is not found (404), as if there were none.
   */
  private async findByUserName(db: Database, userName: string, manager: AdminManager): Promise<AdminRow> {
    const [row] = await db
      .select()
      .from(adminUsers)
      .where(
        and(
          sql`lower(${adminUsers.user_name}) = ${userName.toLowerCase()}`,
          manager.systemAdministrator ? undefined : eq(adminUsers.organisation_id, manager.organisationId),
        ),
      );
    if (!row) throw notFound(messages.admin.notFound);
    if (!manager.systemAdministrator && !within(row.site_ids, manager.siteIds))
      throw forbidden(messages.organisation.siteNotYours);
    return row;
  }

  private async lockAndFind(tx: Database, userName: string, manager: AdminManager): Promise<AdminRow> {
    await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_MANAGERS_LOCK})`);
    return this.findByUserName(tx, userName, manager);
  }

  /** Every organisation keeps an admin who manages its admins (full access). */
  private async assertAnotherAdminManager(tx: Database, admin: AdminRow): Promise<void> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(adminUsers)
      .where(
        and(
          inArray(adminUsers.role, rolesWith('admins.manage')),
          eq(adminUsers.organisation_id, admin.organisation_id),
          ne(adminUsers.admin_user_id, admin.admin_user_id),
        ),
      );
    if (row!.n === 0) throw new HttpError(409, messages.admin.lastFullAccess);
  }

  /** The instance keeps a system administrator. */
  private async assertAnotherSystemAdministrator(tx: Database, exceptId: number): Promise<void> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(adminUsers)
      .where(and(eq(adminUsers.system_administrator, true), ne(adminUsers.admin_user_id, exceptId)));
    if (row!.n === 0) throw new HttpError(409, messages.organisation.lastSystemAdministrator);
  }
}
