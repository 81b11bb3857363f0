/** Rows of a raw `db.execute(sql...)`, whose result differs in type between PGlite and node-postgres. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
