import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import {
  FIELD_PERMISSIONS,
  CONTACT_FIELDS,
  can,
  IDENTIFIABLE_FIELDS,
  IDENTIFIABLE_SORTS,
  NO_DEVICE,
  REFERRAL_FIELDS,
  messages,
  participantFieldsWhere,
  type CreateParticipantInput,
  type ParticipantListQuery,
  type ParticipantPage,
  type ParticipantSaved,
  type ParticipantView,
  type Referral,
  type Role,
  type UpdateParticipantInput,
  createParticipantBody,
  updateParticipantBody,
} from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { lockedRow } from '../../db/locked-row.js';
import { authorizedDevices, dailyViews, participants, seenVideos, sites } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { uniqueViolation } from '../../lib/db-errors.js';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../../lib/http-error.js';
import { keysetPageOf } from '../../lib/paging.js';
import { seesSite, siteDetail } from '../../lib/site-filter.js';
import type { AuditActor, AuditService } from '../audit/index.js';
import { closeAssignment, openAssignment, revokeDeviceTokens } from '../devices/index.js';
import { holdersOfNhsNumbers, possibleDuplicatesOf } from './duplicates.js';
import { presentParticipant, presentReferral } from './presenter.js';
import {
  ParticipantRepository,
  lockParticipant,
  participantCursor,
  participantPositionOf,
  type PageRequest,
  type ParticipantCursor,
  type ParticipantRow,
} from './repository.js';

/** Staff acting on participants: who they are (for the audit trail) and what they may see. */
export interface Staff extends AuditActor {
  role: Role;
  organisationId: number;
  /** The sites whose participants they see (every site of their organisation unless limited). */
  visibleSiteIds: number[];
}

/**
 * The site a new participant joins: the one named, among those the admin sees, or the only one
 * they see. With more than one to choose from, the site must be named.
 */
export async function siteForNewParticipant(
  db: Database,
  staff: Pick<Staff, 'organisationId' | 'visibleSiteIds'>,
  siteId: number | undefined,
): Promise<{ site_id: number; organisation_id: number }> {
  if (siteId === undefined) {
    if (staff.visibleSiteIds.length !== 1) throw badRequest(messages.organisation.siteRequired);
    return { site_id: staff.visibleSiteIds[0]!, organisation_id: staff.organisationId };
  }
  if (!seesSite(staff, siteId)) throw badRequest(messages.organisation.siteOfOtherOrganisation);
  const [site] = await db
    .select({ site_id: sites.site_id, organisation_id: sites.organisation_id })
    .from(sites)
    .where(and(eq(sites.site_id, siteId), eq(sites.organisation_id, staff.organisationId)));
  if (!site) throw badRequest(messages.organisation.siteOfOtherOrganisation);
  return site;
}

type ParticipantInsert = typeof participants.$inferInsert;
type ParticipantUpdate = Partial<ParticipantInsert>;

/**
 * A validated body's keys are the columns written, under the same names: the device choice names a
 * device, not a column, and is the only exception (`notAColumn` in the contract's field table).
 * Pick<> refuses to compile a body key that is no column, and the check below refuses to start; so
 * a field added to the contract's field table is written (and recorded) with no list here to forget.
 */
type WrittenOnCreate = Pick<
  ParticipantInsert,
  Exclude<keyof CreateParticipantInput, 'unique_device_id' | 'site_id'>
>;
type WrittenOnUpdate = Pick<ParticipantUpdate, Exclude<keyof UpdateParticipantInput, 'unique_device_id'>>;
const participantColumnNames = new Set(Object.keys(getTableColumns(participants)));
const notColumns = new Set<string>(participantFieldsWhere((field) => field.notAColumn === true));
for (const key of [
  ...Object.keys(createParticipantBody.shape),
  ...Object.keys(updateParticipantBody.shape),
]) {
  if (!notColumns.has(key) && !participantColumnNames.has(key)) {
    throw new Error(`The participant body field ${key} is not a column of participants`);
  }
}

/** The keys of a validated body that were sent (zod leaves an absent optional key out or undefined). */
function sentKeys<T extends object>(body: T): (keyof T & string)[] {
  return (Object.keys(body) as (keyof T & string)[]).filter((k) => body[k] !== undefined);
}

/**
 * The columns a PATCH writes and the fields its audit rows name: both the sent keys of the
 * validated body (less the device choice), so what is recorded as changed is exactly what is written.
 */
export function participantChanges(body: UpdateParticipantInput): {
  columns: WrittenOnUpdate;
  participantFields: string[];
  referralFields: string[];
} {
  const { unique_device_id: _deviceChoice, ...fields } = body;
  const written = sentKeys(fields);
  const columns: WrittenOnUpdate = {};
  for (const field of written) (columns as Record<string, unknown>)[field] = fields[field];
  const isReferral = (k: string) => (REFERRAL_FIELDS as readonly string[]).includes(k);
  return {
    columns,
    participantFields: written.filter((k) => !isReferral(k)),
    referralFields: written.filter(isReferral),
  };
}

/** The columns an add writes: every field of the validated body but the device and site choices. */
function columnsOnCreate(body: CreateParticipantInput): WrittenOnCreate {
  const { unique_device_id: _deviceChoice, site_id: _siteChoice, ...columns } = body;
  return columns;
}

/**
 * The NHS number a unique violation names in its detail:
 * `Key (organisation_id, nhs_number)=(1, 9434765919) already exists.`
 */
function nhsNumberOfViolation(error: unknown): string | null {
  for (let e = error as { detail?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    const match = /nhs_number\)=\((?:\d+, )?(\d{10})\)/.exec(e.detail ?? '');
    if (match) return match[1]!;
  }
  return null;
}

/**
 * Two admins assigning one device, or registering one NHS number, at the same moment: the unique
 * index decides, and the loser gets the same 409 the check before the write would have given.
 */
export async function uniqueConflict(
  db: Database,
  error: unknown,
  /** The NHS numbers the failed statement wrote. */
  written: readonly (string | null | undefined)[] = [],
): Promise<unknown> {
  if (error instanceof HttpError) return error;
  const constraint = uniqueViolation(error);
  if (constraint === null) return error;
  if (constraint === 'participants_nhs_number_key') {
    // On a table under row-level security PostgreSQL leaves the index's values out of the error:
    // the holder is then looked for among the numbers the statement wrote (its own rows are gone).
    const fromError = nhsNumberOfViolation(error);
    const numbers = (fromError ? [fromError] : written).filter((n): n is string => typeof n === 'string');
    const holders = await holdersOfNhsNumbers(db, numbers);
    const holder = numbers.map((n) => holders.get(n)).find((id) => id !== undefined);
    return conflict(
      holder === undefined ? messages.nhsNumber.takenByAnother : messages.nhsNumber.taken(holder),
    );
  }
  return conflict(messages.device.alreadyAssigned);
}

export class ParticipantService {
  private readonly repo: ParticipantRepository;

  constructor(
    private readonly db: Database,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    /** The programme's calendar (ADHERENCE_CHECK_TZ): views are counted per day of it. */
    private readonly timeZone: string,
  ) {
    this.repo = new ParticipantRepository(db);
  }

  /**
   * A page of the grid, after `cursor` (the route reads it from the request) when given; a
   * full-access read is recorded with every participant it returned, by the page's own statement.
   */
  async list(
    query: ParticipantListQuery,
    staff: Staff,
    cursor?: ParticipantCursor,
  ): Promise<ParticipantPage> {
    const full = can(staff.role, FIELD_PERMISSIONS.identifiable);
    if (!full && IDENTIFIABLE_SORTS.includes(query.sort)) throw forbidden(messages.participant.sortForbidden);
    const order = { sort: query.sort, order: query.order };
    const filter = { state: query.state, status: query.status, q: query.q, searchIdentifiable: full };
    const offset = (query.page - 1) * query.perPage;
    const detailAfter = `${query.status === 'active' ? '' : `, status ${query.status}`}${query.state ? `, state ${query.state}` : ''}${siteDetail(query.site_id)}${query.q ? ', search' : ''}, sort ${query.sort} ${query.order}`;
    const request: PageRequest = {
      filter,
      order,
      limit: query.perPage,
      offset,
      cursor,
      audit: full
        ? { actor: staff, detail: { before: `page ${query.page}, `, after: detailAfter } }
        : undefined,
    };
    // The first page and cursor pages read the tally's total in their own statement (without a
    // search) or beside the count; a page jumped to by number needs the count first, to be read
    // from the nearer end of the index.
    let total: number;
    let rows: ParticipantRow[];
    if (!cursor && offset > 0) {
      total = await this.repo.count(filter);
      ({ rows } = await this.repo.page({ ...request, total }));
    } else if (!filter.q?.trim()) {
      const page = await this.repo.page({ ...request, withTotal: true });
      ({ rows } = page);
      total = page.total!; // asked for, and read without a search
    } else {
      [total, { rows }] = await Promise.all([this.repo.count(filter), this.repo.page(request)]);
    }
    return {
      data: rows.map((row) => presentParticipant(row, staff.role)),
      pagination: keysetPageOf(query, rows, total, offset, (last) =>
        participantCursor.encode(order, participantPositionOf(order, last)),
      ),
    };
  }

  async get(id: number, staff: Staff): Promise<ParticipantView> {
    const row = await this.repo.findById(id);
    if (!row) throw notFound(messages.participant.notFound);
    if (can(staff.role, FIELD_PERMISSIONS.identifiable)) {
      await this.audit.record(staff, {
        action: 'participant.read',
        participantId: id,
        detail: CONTACT_FIELDS.join(', '),
      });
    }
    return presentParticipant(row, staff.role);
  }

  /** Referral data is full access only (the route says so) and read on its own, so it is audited on its own. */
  async referral(id: number, staff: Staff): Promise<Referral> {
    const [row] = await this.db.select().from(participants).where(eq(participants.participant_id, id));
    if (!row) throw notFound(messages.participant.notFound);
    await this.audit.record(staff, {
      action: 'referral.read',
      participantId: id,
      detail: REFERRAL_FIELDS.join(', '),
    });
    return presentReferral(row);
  }

  async create(body: CreateParticipantInput, staff: Staff): Promise<ParticipantSaved> {
    try {
      const id = await this.db.transaction(async (tx) => {
        const site = await siteForNewParticipant(tx, staff, body.site_id);
        await this.refuseTakenNhsNumber(tx, body.nhs_number, null);
        const device = await this.lockAvailableDevice(tx, body.unique_device_id, null);
        const [row] = await tx
          .insert(participants)
          .values({
            ...columnsOnCreate(body),
            ...site,
            authorized_device_id: device.authorized_device_id,
            push_notification_id: NO_DEVICE,
            created_at: this.clock.now(),
            updated_at: this.clock.now(),
          })
          .returning({ participant_id: participants.participant_id });
        await openAssignment(tx, row!.participant_id, device, staff.adminUserId, this.clock.now());
        await this.audit.record(
          staff,
          { action: 'participant.create', participantId: row!.participant_id },
          tx,
        );
        return row!.participant_id;
      });
      const saved = (await this.repo.findById(id))!;
      return {
        ...presentParticipant(saved, staff.role),
        possible_duplicates: await possibleDuplicatesOf(this.db, saved, id),
      };
    } catch (error) {
      throw await uniqueConflict(this.db, error, [body.nhs_number]);
    }
  }

  /**
   * Changes only the fields sent. Identifiable and referral fields need full access; a device is
   * attached by its uuid or detached with "empty", and a detached tablet's tokens stop working.
   */
  async update(id: number, body: UpdateParticipantInput, staff: Staff): Promise<ParticipantSaved> {
    const sent = sentKeys(body);
    if (sent.length === 0) throw badRequest(messages.participant.nothingToChange);
    if (
      !can(staff.role, FIELD_PERMISSIONS.identifiable) &&
      sent.some((k) => (IDENTIFIABLE_FIELDS as readonly string[]).includes(k))
    ) {
      throw forbidden(messages.participant.identifiableForbidden);
    }
    // Moving a participant onto a device would let its holder read their name through call 1.
    if (!can(staff.role, FIELD_PERMISSIONS.deviceAssignment) && body.unique_device_id !== undefined) {
      throw forbidden(messages.device.assignFullAccessOnly);
    }
    try {
      await this.db.transaction(async (tx) => {
        const current = await lockParticipant(tx, id);
        if (current.status !== 'active') throw conflict(messages.lifeCycle.readOnly);
        await this.refuseTakenNhsNumber(tx, body.nhs_number, id);
        const { columns, participantFields, referralFields } = participantChanges(body);
        const changes: ParticipantUpdate = { ...columns };
        let deviceDetail: string | null = null;
        if (body.unique_device_id !== undefined) {
          deviceDetail = await this.changeDevice(tx, current, body.unique_device_id, changes, staff);
        }
        await tx
          .update(participants)
          .set({ ...changes, updated_at: this.clock.now() })
          .where(eq(participants.participant_id, id));

        const details = [...participantFields, ...(deviceDetail ? [deviceDetail] : [])];
        if (details.length > 0) {
          await this.audit.record(
            staff,
            { action: 'participant.update', participantId: id, detail: details.join(', ') },
            tx,
          );
        }
        if (referralFields.length > 0) {
          await this.audit.record(
            staff,
            { action: 'referral.update', participantId: id, detail: referralFields.join(', ') },
            tx,
          );
        }
      });
    } catch (error) {
      throw await uniqueConflict(this.db, error, [body.nhs_number]);
    }
    const saved = (await this.repo.findById(id))!;
    // Only a change of name or date of birth can make this participant look like another.
    const identityChanged =
      body.first_name !== undefined || body.last_name !== undefined || body.date_of_birth !== undefined;
    return {
      ...presentParticipant(saved, staff.role),
      possible_duplicates: identityChanged ? await possibleDuplicatesOf(this.db, saved, id) : [],
    };
  }

  /** The tablet's own call: it may only clear (or set) the purge flag of its participant. */
  async updateFromDevice(
    id: number,
    body: UpdateParticipantInput,
    caller: { participantId: number },
  ): Promise<void> {
    const sent = sentKeys(body);
    if (caller.participantId !== id || sent.length !== 1 || body.purge_cache === undefined) {
      throw forbidden(messages.participant.deviceOnlyPurgeCache);
    }
    await this.db
      .update(participants)
      .set({ purge_cache: body.purge_cache, updated_at: this.clock.now() })
      .where(eq(participants.participant_id, id));
  }

  /**
   * Moves a participant to another site of their organisation (full access): their tablet,
   * programme and history stay theirs, so they go with them; audited with both sites.
   */
  async transfer(id: number, siteId: number, staff: Staff): Promise<string> {
    return this.db.transaction(async (tx) => {
      const current = await lockParticipant(tx, id);
      if (current.status !== 'active') throw conflict(messages.lifeCycle.readOnly);
      if (current.site_id === siteId) throw badRequest(messages.organisation.transferSameSite);
      // Only to a site they work at themselves: nobody hands a record to where they cannot follow it.
      if (!seesSite(staff, siteId)) throw badRequest(messages.organisation.siteOfOtherOrganisation);
      const named = await tx
        .select({ site_id: sites.site_id, name: sites.name })
        .from(sites)
        .where(
          and(
            eq(sites.organisation_id, current.organisation_id),
            inArray(sites.site_id, [current.site_id, siteId]),
          ),
        );
      const from = named.find((site) => site.site_id === current.site_id);
      const to = named.find((site) => site.site_id === siteId);
      if (!to) throw badRequest(messages.organisation.siteOfOtherOrganisation);
      await tx
        .update(participants)
        .set({ site_id: siteId, updated_at: this.clock.now() })
        .where(eq(participants.participant_id, id));
      // Their counts, follow-up facts and report rollups follow by triggers (db/functions); the
      // views per programme day are moved here, in the programme's time zone.
      await tx.execute(sql`
        insert into ${dailyViews} as d (day, site_id, views)
        select w.day, v.site_id, w.n * v.sign
        from (select (created_at at time zone ${this.timeZone})::date as day, count(*)::int as n
              from ${seenVideos} where participant_id = ${id} group by 1) w
        cross join (values (${current.site_id}::int, -1), (${siteId}::int, 1)) as v(site_id, sign)
        on conflict (day, site_id) do update set views = d.views + excluded.views`);
      await tx.execute(sql`delete from ${dailyViews} where site_id = ${current.site_id} and views <= 0`);
      await this.audit.record(
        staff,
        {
          action: 'participant.transfer',
          participantId: id,
          detail: `site ${from?.name ?? ''} (id ${current.site_id}) to site ${to.name} (id ${siteId})`,
        },
        tx,
      );
      return to.name;
    });
  }

  async remove(id: number, staff: Staff): Promise<void> {
    await this.db.transaction(async (tx) => {
      await lockParticipant(tx, id);
      // Tokens, progress and seen videos go with the row (on delete cascade); the device is free.
      await tx.delete(participants).where(eq(participants.participant_id, id));
      await this.audit.record(staff, { action: 'participant.delete', participantId: id }, tx);
    });
  }

  /**
   * Detaches the current device ("empty") or moves the participant to another, available device.
   * The old pairing's tokens are revoked and the push token (the old tablet's) is forgotten; the
   * new tablet reports its own on start.
   */
  private async changeDevice(
    tx: Database,
    current: typeof participants.$inferSelect,
    uuid: string,
    changes: ParticipantUpdate,
    staff: Staff,
  ): Promise<string | null> {
    const currentDevice = current.authorized_device_id;
    const now = this.clock.now();
    if (uuid === NO_DEVICE) {
      if (currentDevice === null) return null;
      await revokeDeviceTokens(tx, currentDevice, current.participant_id);
      await closeAssignment(tx, current.participant_id, now);
      changes.authorized_device_id = null;
      changes.push_notification_id = NO_DEVICE;
      return 'device detached';
    }
    const device = await this.lockAvailableDevice(tx, uuid, current.participant_id);
    if (device.authorized_device_id === currentDevice) return null;
    if (currentDevice !== null) await revokeDeviceTokens(tx, currentDevice, current.participant_id);
    await closeAssignment(tx, current.participant_id, now);
    await openAssignment(tx, current.participant_id, device, staff.adminUserId, now);
    changes.authorized_device_id = device.authorized_device_id;
    changes.push_notification_id = NO_DEVICE;
    return 'device assigned';
  }

  /** The device with `uuid`, locked, provided nobody but `participantId` holds it. */
  private async lockAvailableDevice(tx: Database, uuid: string, participantId: number | null) {
    const device = await lockedRow(tx, authorizedDevices, eq(authorizedDevices.uuid, uuid));
    if (!device) throw badRequest(messages.device.notFound);
    const [holder] = await tx
      .select({ participant_id: participants.participant_id })
      .from(participants)
      .where(eq(participants.authorized_device_id, device.authorized_device_id));
    if (holder && holder.participant_id !== participantId) throw conflict(messages.device.alreadyAssigned);
    return device;
  }

  /**
   * An NHS number held by another participant (active or discharged) is refused, naming them. The
   * unique index is the last word when two admins register the same number at the same moment
   * (uniqueConflict); this check gives the same answer without failing the transaction.
   */
  private async refuseTakenNhsNumber(
    tx: Database,
    nhsNumber: string | null | undefined,
    participantId: number | null,
  ): Promise<void> {
    if (!nhsNumber) return;
    const holder = (await holdersOfNhsNumbers(tx, [nhsNumber])).get(nhsNumber);
    if (holder !== undefined && holder !== participantId) throw conflict(messages.nhsNumber.taken(holder));
  }
}
