import { gridTabIndexCellSelector, useGridApiRef } from '@mui/x-data-grid';
import { useCallback, useEffect } from 'react';

/**
 * The grid's keyboard focus around the page's modals. The grid always keeps one element in the
 * tab order: `returnFocus` puts focus back into the grid when a modal closes, and a row that goes
 * while it holds the tab stop hands it to its column's header.
 */
export function useGridFocusReturn() {
  const apiRef = useGridApiRef();

  // When the row holding the grid's tab stop goes (deleted, or another page or search loaded),
  // the grid would keep pointing at it and leave nothing in the tab order; the header of the same
  // column (rendered, as that cell's column was) takes the tab stop instead.
  useEffect(
    () =>
      apiRef.current?.subscribeEvent('rowsSet', () => {
        const api = apiRef.current;
        const cell = api && gridTabIndexCellSelector(apiRef);
        if (!api || !cell || api.getRow(cell.id)) return;
        api.setState((state) => ({
          ...state,
          tabIndex: {
            cell: null,
            columnHeader: { field: cell.field },
            columnHeaderFilter: null,
            columnGroupHeader: null,
          },
        }));
      }),
    [apiRef],
  );

  /**
   * After a modal closes: focus goes to the row's actions, or to the Actions column header when
   * the row has gone (the modals open from that column, so its header is rendered; a header
   * scrolled out of view is not, and would leave nothing in the tab order).
   */
  const returnFocus = useCallback(
    (participantId: number | undefined, options: { rowRemoved?: boolean } = {}) => {
      requestAnimationFrame(() => {
        const api = apiRef.current;
        if (!api) return;
        if (participantId !== undefined && !options.rowRemoved && api.getRow(participantId))
          api.setCellFocus(participantId, 'actions');
        else api.setColumnHeaderFocus('actions');
      });
    },
    [apiRef],
  );

  return { apiRef, returnFocus };
}
