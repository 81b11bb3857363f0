import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  FIELD_PERMISSIONS,
  can,
  messages,
  type AuthorisedDevice,
  type AuthorisedDeviceView,
  type CreateDeviceInput,
  type DeviceSignInPage,
  type Role,
  type UpdateDeviceInput,
} from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { lockRow } from '../../db/locked-row.js';
import { authorizedDevices, deviceSignIns, deviceTokens, participants } from '../../db/schema.js';
import { uniqueViolation } from '../../lib/db-errors.js';
import { conflict, forbidden } from '../../lib/http-error.js';
import type { AuditActor, AuditService } from '../audit/index.js';
import { presentDevice, presentDeviceSignIn, type DeviceRow } from './presenter.js';

const deviceColumns = {
  authorized_device_id: authorizedDevices.authorized_device_id,
  name: authorizedDevices.name,
  uuid: authorizedDevices.uuid,
  push_notification_id: authorizedDevices.push_notification_id,
  participant_id: participants.participant_id,
  first_name: participants.first_name,
  last_name: participants.last_name,
  flagged_sign_in_at: sql<Date | string | null>`(
    select max(s.created_at) from ${deviceSignIns} s
    where s.authorized_device_id = ${authorizedDevices.authorized_device_id} and s.flagged
  )`,
};

/** Revokes every live bearer token of a device (optionally only those of one pairing). */
export async function revokeDeviceTokens(
  db: Database,
  deviceId: number,
  participantId?: number,
): Promise<void> {
  await db
    .update(deviceTokens)
    .set({ revoked_at: sql`now()` })
    .where(
      and(
        eq(deviceTokens.authorized_device_id, deviceId),
        isNull(deviceTokens.revoked_at),
        participantId === undefined ? undefined : eq(deviceTokens.participant_id, participantId),
      ),
    );
}

export class DeviceService {
  constructor(
    private readonly db: Database,
    private readonly audit: AuditService,
  ) {}

  private select(db: Database = this.db) {
    return db
      .select(deviceColumns)
      .from(authorizedDevices)
      .leftJoin(participants, eq(participants.authorized_device_id, authorizedDevices.authorized_device_id));
  }

  /** Every device, oldest first. A full-access read of participant names is audited. */
  async list(role: Role, actor: AuditActor): Promise<AuthorisedDeviceView[]> {
    const rows = await this.select().orderBy(asc(authorizedDevices.authorized_device_id));
    await this.auditNames(rows, role, actor, 'device.list');
    return rows.map((row) => presentDevice(row, role));
  }

  /** The spec's lookup by uuid answers an array (empty when unknown). */
  async byUuid(uuid: string, role: Role, actor: AuditActor): Promise<AuthorisedDeviceView[]> {
    const rows = await this.select().where(eq(authorizedDevices.uuid, uuid.trim().toLowerCase()));
    await this.auditNames(rows, role, actor, 'device.read');
    return rows.map((row) => presentDevice(row, role));
  }

  /** Devices no participant holds, for the add form and the change-device dialog. */
  async available(): Promise<AuthorisedDevice[]> {
    const rows = await this.select()
      .where(isNull(participants.participant_id))
      .orderBy(asc(authorizedDevices.name), asc(authorizedDevices.authorized_device_id));
    return rows.map((row) => presentDevice(row, 'basic access'));
  }

  /** A device of the admin's organisation. */
  async create(body: CreateDeviceInput, organisationId: number): Promise<AuthorisedDevice> {
    const [row] = await this.db
      .insert(authorizedDevices)
      .values({ name: body.name, uuid: body.uuid, organisation_id: organisationId })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict(messages.device.uuidTaken);
    return presentDevice(
      { ...row, participant_id: null, first_name: null, last_name: null, flagged_sign_in_at: null },
      'basic access',
    );
  }

  /** Name and uuid; a new uuid is a different tablet, so the old one's tokens stop working. */
  async update(id: number, body: UpdateDeviceInput, role: Role): Promise<AuthorisedDeviceView> {
    try {
      return await this.db.transaction(async (tx) => {
        const current = await this.lock(tx, id);
        if (
          body.uuid !== undefined &&
          body.uuid !== current.uuid &&
          !can(role, FIELD_PERMISSIONS.deviceAssignment)
        ) {
          // A new uuid ends the tablet's sign-in: for an assigned device that is full access only.
          const [holder] = await tx
            .select({ participant_id: participants.participant_id })
            .from(participants)
            .where(eq(participants.authorized_device_id, id));
          if (holder) throw forbidden(messages.device.assignedUuidFullAccessOnly);
        }
        const changes = {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.uuid !== undefined && { uuid: body.uuid }),
        };
        // A body with neither field (the console sends the whole object) changes nothing: an
        // UPDATE with an empty SET is not SQL.
        if (Object.keys(changes).length > 0) {
          await tx
            .update(authorizedDevices)
            .set(changes)
            .where(eq(authorizedDevices.authorized_device_id, id));
        }
        if (body.uuid !== undefined && body.uuid !== current.uuid) await revokeDeviceTokens(tx, id);
        const [row] = await this.select(tx).where(eq(authorizedDevices.authorized_device_id, id));
        return presentDevice(row!, role);
      });
    } catch (error) {
      if (uniqueViolation(error) !== null) throw conflict(messages.device.uuidTaken);
      throw error;
    }
  }

  /** Only an unassigned device can be deleted; its tokens go with it. */
  async remove(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.lock(tx, id);
      const [holder] = await tx
        .select({ participant_id: participants.participant_id })
        .from(participants)
        .where(eq(participants.authorized_device_id, id));
      if (holder) throw conflict(messages.device.assignedCannotBeDeleted);
      await tx.delete(authorizedDevices).where(eq(authorizedDevices.authorized_device_id, id));
    });
  }

  /** Locks the device row: assigning, editing and deleting a device are serialised on it. */
  private async lock(tx: Database, id: number) {
    return lockRow(
      tx,
      authorizedDevices,
      eq(authorizedDevices.authorized_device_id, id),
      messages.device.notFound,
    );
  }

  private async auditNames(
    rows: DeviceRow[],
    role: Role,
    actor: AuditActor,
    action: 'device.list' | 'device.read',
  ) {
    if (!can(role, FIELD_PERMISSIONS.identifiable)) return;
    const ids = rows.flatMap((r) => (r.participant_id === null ? [] : [r.participant_id]));
    if (ids.length === 0) return;
    await this.audit.record(actor, {
      action,
      participantId: ids.length === 1 && action === 'device.read' ? ids[0] : null,
      participantIds: ids,
      detail: 'first_name, last_name',
    });
  }
}

/** Device sign-in records, newest first (full access; the read is audited: they hold addresses). */
export async function listDeviceSignIns(
  db: Database,
  audit: AuditService,
  actor: AuditActor,
  query: { page: number; perPage: number; authorized_device_id?: number; flagged?: 'true' | 'false' },
): Promise<DeviceSignInPage> {
  const where = and(
    query.authorized_device_id === undefined
      ? undefined
      : eq(deviceSignIns.authorized_device_id, query.authorized_device_id),
    query.flagged === undefined ? undefined : eq(deviceSignIns.flagged, query.flagged === 'true'),
  );
  const [rows, [count]] = await Promise.all([
    db
      .select({ record: deviceSignIns, device_name: authorizedDevices.name })
      .from(deviceSignIns)
      .leftJoin(
        authorizedDevices,
        eq(authorizedDevices.authorized_device_id, deviceSignIns.authorized_device_id),
      )
      .where(where)
      .orderBy(desc(deviceSignIns.created_at), desc(deviceSignIns.device_sign_in_id))
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(deviceSignIns)
      .where(where),
  ]);
  const ids = [
    ...new Set(rows.flatMap((r) => (r.record.participant_id === null ? [] : [r.record.participant_id]))),
  ];
  await audit.record(actor, {
    action: 'device.signins',
    participantIds: ids,
    detail: `page ${query.page}, ${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`,
  });
  return {
    data: rows.map(({ record, device_name }) => presentDeviceSignIn(record, device_name)),
    total: count!.n,
    page: query.page,
    perPage: query.perPage,
  };
}
