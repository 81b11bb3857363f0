/** Every table of ours (public) and the migrations applied (drizzle), with its row count. */
export async function countRows(
  query: (text: string) => Promise<{ rows: unknown[] }>,
): Promise<Record<string, number>> {
  const { rows: tables } = (await query(
    `select table_schema as s, table_name as t from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema in ('public', 'drizzle') order by 1, 2`,
  )) as { rows: { s: string; t: string }[] };
  const counts: Record<string, number> = {};
  for (const { s, t } of tables) {
    const { rows } = (await query(`select count(*)::int as n from "${s}"."${t}"`)) as {
      rows: { n: number }[];
    };
    counts[`${s}.${t}`] = Number(rows[0]!.n);
  }
  return counts;
}
