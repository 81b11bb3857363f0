import { count, desc, eq, sql } from 'drizzle-orm';
import {
  addDays,
  can,
  messages,
  type ContactEntry,
  type CreateContactInput,
  type FollowupCounts,
  type FollowupListQuery,
  type FollowupPage,
  type ParticipantMessagePage,
  type Role,
} from '@pathway/contract';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { lockRow } from '../../db/locked-row.js';
import { participantContacts, participantFollowup, participants, pushOutbox } from '../../db/schema.js';
import { idArray } from '../../db/select-rows.js';
import { badRequest } from '../../lib/http-error.js';
import { keysetPageOf, pageOf } from '../../lib/paging.js';
import { programmeToday } from '../../lib/programme-day.js';
import { siteDetail } from '../../lib/site-filter.js';
import type { AuditActor, AuditService } from '../audit/index.js';
import { presentContact, presentMessage, presentWorklistRow } from './presenter.js';
import {
  currentReasons,
  worklistCounts,
  worklistCursor,
  worklistPage,
  worklistPositionOf,
  type WorklistClock,
  type WorklistCursor,
} from './worklist.js';

export interface Staff extends AuditActor {
  role: Role;
}

export class FollowupService {
  constructor(
    private readonly ctx: AppContext,
    private readonly audit: AuditService,
  ) {}

  private clock(): WorklistClock {
    return {
      now: this.ctx.clock.now(),
      silentDays: this.ctx.config.followupSilentDays,
      today: programmeToday(this.ctx),
      timeZone: this.ctx.config.adherenceCheck.timeZone,
    };
  }

  /** A page of the worklist, after `cursor` (the route reads it from the request) when given. */
  async list(query: FollowupListQuery, staff: Staff, cursor?: WorklistCursor): Promise<FollowupPage> {
    const identifiable = can(staff.role, 'participants.identifiable');
    const offset = cursor ? 0 : (query.page - 1) * query.perPage;
    const { total, rows } = await worklistPage(this.ctx.db, this.clock(), {
      reason: query.reason,
      limit: query.perPage,
      offset,
      cursor,
      identifiable,
      audit: identifiable
        ? {
            actor: staff,
            detail: `page ${query.page}${query.reason ? `, reason ${query.reason}` : ''}${siteDetail(query.site_id)}`,
          }
        : undefined,
    });
    return {
      data: rows.map((row) => presentWorklistRow(row, identifiable)),
      pagination: keysetPageOf(query, rows, total, offset, (last) =>
        worklistCursor.encode(query, worklistPositionOf(last)),
      ),
    };
  }

  /** The dashboard card's figures, and whether the daily check that feeds them has stopped. */
  async counts(): Promise<FollowupCounts> {
    const clock = this.clock();
    const { total, reasons, lastCheck } = await worklistCounts(this.ctx.db, clock);
    return {
      total,
      daily_check_last_run_on: lastCheck,
      daily_check_overdue: lastCheck === null || lastCheck < addDays(clock.today, -1),
      reasons,
    };
  }

  private async exists(db: Database, participantId: number): Promise<void> {
    await lockRow(
      db,
      participants,
      eq(participants.participant_id, participantId),
      messages.participant.notFound,
    );
  }

  /**
   * Append-only: a new entry with the reasons present now; the participant's snooze follows the
   * newest contact (its next follow-up date, or none). Audited in the same transaction.
   */
  async recordContact(participantId: number, body: CreateContactInput, staff: Staff): Promise<ContactEntry> {
    const clock = this.clock();
    if (body.next_followup_on !== undefined && body.next_followup_on < clock.today) {
      throw badRequest(messages.followup.dateInPast);
    }
    // Read before the transaction (the pool's driver); the participant's lock below orders it
    // against a concurrent contact, and reasons are a fact of now either way.
    const reasons = await currentReasons(this.ctx.db, clock, participantId);
    return this.ctx.db.transaction(async (tx) => {
      await this.exists(tx, participantId);
      const [row] = await tx
        .insert(participantContacts)
        .values({
          participant_id: participantId,
          method: body.method,
          outcome: body.outcome,
          note: body.note ?? null,
          next_followup_on: body.next_followup_on ?? null,
          reasons,
          admin_user_id: staff.adminUserId,
          admin_user_name: staff.userName,
          created_at: clock.now,
        })
        .returning();
      await tx
        .update(participantFollowup)
        .set({ snoozed_until: body.next_followup_on ?? null, snooze_reasons: reasons })
        .where(eq(participantFollowup.participant_id, participantId));
      await this.audit.record(
        staff,
        {
          action: 'contact.create',
          participantId,
          detail: `${body.method}, ${body.outcome}${body.note ? ', note' : ''}${body.next_followup_on ? ', next follow-up date' : ''}`,
        },
        tx,
      );
      return presentContact(row!, staff.role);
    });
  }

  async contacts(participantId: number, staff: Staff): Promise<ContactEntry[]> {
    return this.ctx.db.transaction(async (tx) => {
      await this.exists(tx, participantId);
      const rows = await tx
        .select()
        .from(participantContacts)
        .where(eq(participantContacts.participant_id, participantId))
        .orderBy(desc(participantContacts.created_at), desc(participantContacts.contact_id));
      if (can(staff.role, 'participants.identifiable') && rows.length > 0) {
        await this.audit.record(
          staff,
          { action: 'contact.list', participantId, detail: `${rows.length} entries` },
          tx,
        );
      }
      return rows.map((row) => presentContact(row, staff.role));
    });
  }

  async messages(
    participantId: number,
    query: { page: number; perPage: number },
    staff: Staff,
  ): Promise<ParticipantMessagePage> {
    const identifiable = can(staff.role, 'participants.identifiable');
    return this.ctx.db.transaction(async (tx) => {
      await this.exists(tx, participantId);
      const [counted] = await tx
        .select({ n: count() })
        .from(pushOutbox)
        .where(eq(pushOutbox.participant_id, participantId));
      const rows = await tx
        .select()
        .from(pushOutbox)
        .where(eq(pushOutbox.participant_id, participantId))
        .orderBy(desc(pushOutbox.push_id))
        .limit(query.perPage)
        .offset((query.page - 1) * query.perPage);
      if (identifiable && rows.length > 0) {
        await this.audit.record(
          staff,
          { action: 'message.list', participantId, detail: `page ${query.page}, ${rows.length} messages` },
          tx,
        );
      }
      return {
        data: rows.map((row) => presentMessage(row, identifiable)),
        pagination: pageOf(counted?.n ?? 0, query.page, query.perPage, rows.length, null),
      };
    });
  }
}

/** The participant export's last contact (method, outcome, when), by participant, for a batch. */
export async function lastContactsOf(
  db: Database,
  ids: number[],
): Promise<Map<number, { created_at: Date; method: string; outcome: string }>> {
  const result = new Map<number, { created_at: Date; method: string; outcome: string }>();
  if (ids.length === 0) return result;
  const rows = await db
    .selectDistinctOn([participantContacts.participant_id], {
      participant_id: participantContacts.participant_id,
      created_at: participantContacts.created_at,
      method: participantContacts.method,
      outcome: participantContacts.outcome,
    })
    .from(participantContacts)
    // One array parameter: `in` built 2,000 chunks of SQL per batch of the export (about 1.5 MB of
    // garbage a batch, 70 MB in a 100k export).
    .where(sql`${participantContacts.participant_id} = any(${idArray(ids)})`)
    .orderBy(
      participantContacts.participant_id,
      desc(participantContacts.created_at),
      desc(participantContacts.contact_id),
    );
  for (const r of rows) result.set(r.participant_id, r);
  return result;
}
