import type { Pagination } from '@pathway/contract';

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
