import { sql } from 'drizzle-orm';
import type { Database } from './client.js';

/**
 * Tells the database the programme's calendar (ADHERENCE_CHECK_TZ), for the triggers that count
 * days as the server does (the follow-up reason assessment_due). Written at every start; a change
 * makes the triggers count every participant's days again, an unchanged value writes nothing.
 */
export async function recordProgrammeTimeZone(db: Database, timeZone: string): Promise<void> {
  await db.execute(sql`
    insert into programme_settings (name, value) values ('time_zone', ${timeZone})
    on conflict (name) do update set value = excluded.value
    where programme_settings.value is distinct from excluded.value`);
}
