import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';

/**
 * The daily job's part of assessment_due: a participant's stretch of due days that ended before
 * `today` gives way to their next one (a later interim, the end), which no write would otherwise
 * bring. Facts that change (results, schedules, programmes, discharges) are kept by triggers
 * (db/functions/assessment-due.sql); this is the passing of time alone.
 */
export async function advanceAssessmentDue(db: Database, today: string): Promise<void> {
  await db.execute(sql`
    select assessment_due_refresh(
      array(select participant_id from participant_followup where assessment_due_until < ${today}::date),
      ${today}::date)`);
}
