import { sql, type SQL } from 'drizzle-orm';

/**
 * A list of ids as one parameter (`= any(...)`): one value however long the list, where `in` with
 * a parameter per id made Drizzle build a chunk of SQL per id (a batch of the export: 2,000).
 */
export function idArray(ids: readonly number[]): SQL {
  return sql`${`{${ids.join(',')}}`}::int[]`;
}

/**
 * A table's columns of the given names, as a select list: for a selection made from a list of
 * names declared elsewhere (the contract's participant field table). A name that is no column of
 * the table does not compile.
 */
export function columnsNamed<T extends object, const N extends keyof T & string>(
  table: T,
  names: readonly N[],
): { [K in N]: T[K] } {
  return Object.fromEntries(names.map((name) => [name, table[name]])) as { [K in N]: T[K] };
}

/**
 * The keys of a select list in its order: the order a statement built from it selects its values
 * in, so the key list `rowReader` needs for the statement's array rows (rows.ts).
 */
export function selectedKeys<S extends object>(selection: S): (keyof S & string)[] {
  return Object.keys(selection) as (keyof S & string)[];
}
