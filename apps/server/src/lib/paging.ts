import type { Pagination } from '@pathway/contract';
import type { CursorCodec } from '../db/paged-statement.js';
import { badRequest } from './http-error.js';

/** The pagination block of a page of `count` rows out of `total`. */
export function pageOf(
  total: number,
  page: number,
  perPage: number,
  count: number,
  nextCursor: string | null,
): Pagination {
  const offset = (page - 1) * perPage;
  return {
    total,
    lastPage: Math.max(1, Math.ceil(total / perPage)),
    perPage,
    currentPage: page,
    from: count > 0 ? offset + 1 : 0,
    to: count > 0 ? offset + count : 0,
    nextCursor,
  };
}

/**
 * The pagination block of a keyset-paged list: `before` rows come before this page, and when more
 * follow it (a full page, short of the total) the next page's cursor is the one after its last row.
 */
export function keysetPageOf<Row>(
  query: { page: number; perPage: number },
  rows: Row[],
  total: number,
  before: number,
  cursorAfter: (last: Row) => string,
): Pagination {
  const last = rows.at(-1);
  const more = last !== undefined && before + rows.length < total && rows.length === query.perPage;
  return pageOf(total, query.page, query.perPage, rows.length, more ? cursorAfter(last) : null);
}

/**
 * The row a request's cursor (`after`) places the page after, for the list state the request asks
 * for; a 400 with the list's message when the cursor is not one of that list.
 */
export function cursorOf<Context, Position>(
  codec: CursorCodec<Context, Position>,
  query: Context & { after?: string },
): Position | undefined {
  if (query.after === undefined) return undefined;
  const decoded = codec.decode(query.after, query);
  if (!decoded.ok) throw badRequest(codec.refusal);
  return decoded.position;
}
