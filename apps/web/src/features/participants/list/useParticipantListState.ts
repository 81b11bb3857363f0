/* eslint-disable react-hooks/refs, react-hooks/set-state-in-effect --
 * React Compiler diagnostics: the list keeps render-time caches in refs on purpose (the keyset
 * cursors of the pages reached, the last row count, the rows shown), and the console does not run
 * the compiler. */
import type { GridFilterModel, GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import {
  PARTICIPANT_SORTS,
  PARTICIPANT_STATUS_FILTERS,
  type ParticipantStatusFilter,
  isAdherenceState,
  limits,
  stateFromHash,
  type AdherenceState,
  type ParticipantSort,
  type ParticipantView,
} from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useSiteFilter } from '../../../lib/siteFilter';
import { FIRST_LIST_PAGE, participantListQuery } from '../api';
import { toRow } from './gridRow';

export const PAGE_SIZES = limits.participantsPageSizes;

/** The filter of the address: ?state=..., or the hash reading of spec §2 (#onTrack, ...). */
function stateOfLocation(search: URLSearchParams, hash: string): AdherenceState | undefined {
  const fromQuery = search.get('state');
  if (isAdherenceState(fromQuery)) return fromQuery;
  const fromHash = hash.replace(/^#/, '');
  return fromHash ? stateFromHash(fromHash) : undefined;
}

/** The status filter of the address (?status=completed); active when absent. */
function statusOfLocation(search: URLSearchParams): ParticipantStatusFilter {
  const value = search.get('status');
  return (PARTICIPANT_STATUS_FILTERS as readonly (string | null)[]).includes(value)
    ? (value as ParticipantStatusFilter)
    : FIRST_LIST_PAGE.status;
}

function isSortable(field: string): field is ParticipantSort {
  return (PARTICIPANT_SORTS as readonly string[]).includes(field);
}

/**
 * The participant list as the grid shows it: the adherence filter (kept in the address), the
 * search, the sort and the page, and the page of rows the server answers for them.
 */
export function useParticipantListState() {
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const state = stateOfLocation(searchParams, location.hash);
  const status = statusOfLocation(searchParams);
  const site = useSiteFilter();
  const siteId = site.siteId;

  const [pagination, setPagination] = useState<GridPaginationModel>({
    page: FIRST_LIST_PAGE.page - 1,
    pageSize: FIRST_LIST_PAGE.perPage,
  });
  const [sortModel, setSortModel] = useState<GridSortModel>([]);
  // ?q= opens the list searched (the possible-duplicate links name a participant id).
  const searchInAddress = searchParams.get('q');
  const [search, setSearch] = useState(searchInAddress ?? '');
  useEffect(() => {
    if (searchInAddress !== null) setSearch(searchInAddress);
  }, [searchInAddress]);

  const sortField = sortModel[0]?.field;
  const sort: ParticipantSort = sortField && isSortable(sortField) ? sortField : FIRST_LIST_PAGE.sort;
  const order: 'asc' | 'desc' = sortModel[0]?.sort === 'desc' ? 'desc' : FIRST_LIST_PAGE.order;

  // Cursors of the pages reached so far, for this filter and sort: the next page is then read by
  // keyset, as fast deep in a long list as at its start.
  const listKey = JSON.stringify([state, status, siteId, sort, order, search, pagination.pageSize]);
  const cursors = useRef({ key: listKey, byPage: new Map<number, string>() });
  if (cursors.current.key !== listKey) cursors.current = { key: listKey, byPage: new Map() };

  const list = useQuery(
    participantListQuery({
      page: pagination.page + 1,
      perPage: pagination.pageSize,
      state,
      status,
      sort,
      order,
      q: search || undefined,
      after: cursors.current.byPage.get(pagination.page),
      site_id: siteId,
    }),
  );
  const next = list.data?.pagination.nextCursor;
  if (next && !list.isPlaceholderData) cursors.current.byPage.set(pagination.page + 1, next);

  // A filter from the address starts again at page 1.
  useEffect(() => setPagination((p) => ({ ...p, page: 0 })), [state, status, siteId]);

  // The row count stays while a page loads, so the footer does not jump.
  const rowCount = useRef(0);
  if (list.data) rowCount.current = list.data.pagination.total;

  const rows = useMemo(() => (list.data?.data ?? []).map(toRow), [list.data]);
  // The modals take the participant as the server sent it; the columns (and any widths the admin
  // set) do not change with each page.
  const shown = useRef(new Map<number, ParticipantView>());
  shown.current = new Map((list.data?.data ?? []).map((p) => [p.participant_id, p]));
  const participantOf = useCallback((id: number) => shown.current.get(id), []);

  const filterModel: GridFilterModel = useMemo(
    () => ({
      items: state ? [{ id: 'state', field: 'days_behind', operator: 'is', value: state }] : [],
      quickFilterValues: search ? search.split(' ') : [],
    }),
    [state, search],
  );

  /** Puts the adherence filter in the address (or takes it out); the hash reading gives way to it. */
  function setStateInAddress(wanted: AdherenceState | undefined) {
    const params = new URLSearchParams(searchParams);
    if (wanted) params.set('state', wanted);
    else params.delete('state');
    void navigate(
      { pathname: location.pathname, search: params.toString() ? `?${params}` : '', hash: '' },
      { replace: true },
    );
  }

  /** Puts the status filter in the address; active, the default, is left out. */
  function setStatus(wanted: ParticipantStatusFilter) {
    const params = new URLSearchParams(searchParams);
    if (wanted === 'active') params.delete('status');
    else params.set('status', wanted);
    void navigate(
      { pathname: location.pathname, search: params.toString() ? `?${params}` : '', hash: location.hash },
      { replace: true },
    );
  }

  function onFilterModelChange(model: GridFilterModel) {
    const item = model.items.find((i) => i.field === 'days_behind');
    const nextSearch = (model.quickFilterValues ?? []).join(' ').trim();
    if (nextSearch !== search) {
      setSearch(nextSearch);
      setPagination((p) => ({ ...p, page: 0 }));
    }
    const wanted = isAdherenceState(item?.value) ? item.value : undefined;
    if (wanted !== state) setStateInAddress(wanted);
  }

  function onSortModelChange(model: GridSortModel) {
    setSortModel(model);
    setPagination((p) => ({ ...p, page: 0 }));
  }

  return {
    state,
    status,
    setStatus,
    /** The site chosen (in the address), or every site. */
    site,
    sort,
    order,
    search,
    list,
    rows,
    rowCount: rowCount.current,
    /** The participant of a row shown, as the server sent it. */
    participantOf,
    pagination,
    onPaginationModelChange: setPagination,
    sortModel,
    onSortModelChange,
    filterModel,
    onFilterModelChange,
    clearState: () => setStateInAddress(undefined),
  };
}
