import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { column, rowsReader } from '../../db/rows.js';

/**
 * Possible duplicates and NHS numbers already held. A person is "possibly the same" as
 * another when date of birth, last name and first name match, ignoring case and spaces. The
 * comparison is made by PostgreSQL on both sides (its lower() and regexp_replace()), with exactly
 * the expressions of the index participants_identity_idx (schema.ts), so each look-up is an index
 * probe however many participants there are.
 */
const keyOf = (text: SQL) => sql`lower(regexp_replace(${text}, '[[:space:]]', '', 'g'))`;

export interface Identity {
  first_name: string;
  last_name: string;
  date_of_birth: string;
}

const readIds = rowsReader({ participant_id: column.integer });
const readMatches = rowsReader({ n: column.integer, participant_id: column.integer });
const readHolders = rowsReader({ nhs_number: column.text, participant_id: column.integer });

/** Other participants possibly the same person as `who` (ids ascending), `exceptId` left out. */
export async function possibleDuplicatesOf(
  db: Database,
  who: Identity,
  exceptId: number | null = null,
): Promise<number[]> {
  const result = await db.execute(sql`
    select p.participant_id from participants p
    where p.date_of_birth = ${who.date_of_birth}::date
      and ${keyOf(sql`p.last_name`)} = ${keyOf(sql`${who.last_name}::text`)}
      and ${keyOf(sql`p.first_name`)} = ${keyOf(sql`${who.first_name}::text`)}
      and p.participant_id <> ${exceptId ?? 0}
    order by p.participant_id
    limit 20`);
  return readIds(result).map((r) => r.participant_id);
}

/**
 * For many people at once (an import's rows): the registered participants possibly the same as
 * each, by the index of the person in `people`. One statement: the people travel as one JSON value.
 */
export async function possibleDuplicatesOfMany(
  db: Database,
  people: Identity[],
): Promise<Map<number, number[]>> {
  const found = new Map<number, number[]>();
  if (people.length === 0) return found;
  const json = JSON.stringify(
    people.map((p, n) => ({ n, dob: p.date_of_birth, last: p.last_name, first: p.first_name })),
  );
  const result = await db.execute(sql`
    select i.n, p.participant_id
    from json_to_recordset(${json}::json) as i(n int, dob date, last text, first text)
    join participants p on p.date_of_birth = i.dob
      and ${keyOf(sql`p.last_name`)} = ${keyOf(sql`i.last`)}
      and ${keyOf(sql`p.first_name`)} = ${keyOf(sql`i.first`)}
    order by i.n, p.participant_id`);
  for (const row of readMatches(result)) {
    const ids = found.get(row.n) ?? [];
    ids.push(row.participant_id);
    found.set(row.n, ids);
  }
  return found;
}

/** The participant holding each of these NHS numbers, by number (those no one holds are absent). */
export async function holdersOfNhsNumbers(db: Database, numbers: string[]): Promise<Map<string, number>> {
  const holders = new Map<string, number>();
  if (numbers.length === 0) return holders;
  const result = await db.execute(sql`
    select p.nhs_number, p.participant_id from participants p
    where p.nhs_number in (select value from json_array_elements_text(${JSON.stringify(numbers)}::json))`);
  for (const row of readHolders(result)) {
    holders.set(row.nhs_number, row.participant_id);
  }
  return holders;
}
