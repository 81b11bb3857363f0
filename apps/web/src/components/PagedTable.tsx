import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow, { type TableRowProps } from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type Key, type ReactNode } from 'react';
import { visuallyHidden } from '../lib/a11y';
import { QueryState } from './QueryState';

export interface TableColumn {
  /** The header's text, and the column's key. */
  label: string;
  /** What the header shows in place of its text (a select-all checkbox, which names itself). */
  header?: ReactNode;
  align?: 'left' | 'right';
  /** Said to screen readers only: a column of buttons that name themselves ("Actions"). */
  labelHidden?: boolean;
  padding?: 'checkbox' | 'normal' | 'none';
  /** The header cell's style; a column's cells take theirs from the row's renderer. */
  sx?: SxProps<Theme>;
}

/** A table's last column: a row's actions, against the right edge. */
export const ACTIONS_COLUMN: TableColumn = { label: 'Actions', align: 'right' };

/** The page of a list shown (0 is the first; the API counts from 1) and how many rows a page holds. */
export interface Paging {
  page: number;
  perPage: number;
  setPage: (page: number) => void;
  /** Another page size starts again at the first page. */
  setPerPage: (perPage: number) => void;
}

export function usePaging(initialPerPage: number): Paging {
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(initialPerPage);
  return {
    page,
    perPage,
    setPage,
    setPerPage: (next) => {
      setPerPage(next);
      setPage(0);
    },
  };
}

/** The answers a list comes in: all its rows, or one page of them with the whole list's count. */
type ListAnswer<Row> =
  | readonly Row[]
  | { data: readonly Row[]; pagination: { total: number } }
  | { data: readonly Row[]; total: number };

const isWholeList = <Row,>(answer: ListAnswer<Row>): answer is readonly Row[] => Array.isArray(answer);

function rowsOf<Row>(answer: ListAnswer<Row>): { rows: readonly Row[]; total: number } {
  if (isWholeList(answer)) return { rows: answer, total: answer.length };
  return { rows: answer.data, total: 'pagination' in answer ? answer.pagination.total : answer.total };
}

type RowProps = Partial<TableRowProps> & { [data: `data-${string}`]: string | number };

type SxItem = Exclude<SxProps<Theme>, ReadonlyArray<unknown>> | boolean;
const isSxList = (sx: SxProps<Theme>): sx is ReadonlyArray<SxItem> => Array.isArray(sx);

/** One sx of several, each of which may be a list or absent (MUI's way to combine them). */
function sxOf(...parts: Array<SxProps<Theme> | undefined>): SxProps<Theme> {
  return parts.flatMap((part) => (part === undefined ? [] : isSxList(part) ? part : [part]));
}

interface TableProps<Row> {
  /** The table's accessible name (or give a caption). */
  label?: string;
  caption?: ReactNode;
  columns: readonly (string | TableColumn)[];
  rowKey: (row: Row) => Key;
  /** The cells of one row, in the columns' order. */
  renderRow: (row: Row) => ReactNode;
  rowProps?: (row: Row) => RowProps;
  /** Said under the header when there are no rows. */
  empty: ReactNode;
  size?: 'small' | 'medium';
  /** Below this width the table scrolls sideways inside its box instead of squeezing its columns. */
  minWidth?: number;
  /** Headers may take two lines (a table that must fit a laptop's width); otherwise one. */
  wrapHeaders?: boolean;
  tableSx?: SxProps<Theme>;
  sx?: SxProps<Theme>;
  /** For a list the server sends a page at a time: the page shown, and the page sizes offered. */
  paging?: { state: Paging; perPageOptions: readonly number[]; firstAndLast?: boolean };
}

type Source<Row> =
  /** Rows the page already holds. */
  | { rows: readonly Row[]; query?: never; loadingLabel?: never }
  /** The query that reads the list: its loading and its failure (with Try again) are shown in its place. */
  | {
      query: Pick<UseQueryResult<ListAnswer<Row>>, 'isPending' | 'isError' | 'error' | 'data' | 'refetch'>;
      /** What the spinner says to a screen reader, e.g. 'Loading devices'. */
      loadingLabel: string;
      rows?: never;
    };

/**
 * A list as a table in an outlined box: its header, a row per item, what to say when there is none,
 * and, for a list the server sends a page at a time, the pages; given the query that reads it, its
 * loading and failure too. Every list page and section of the console draws its table with it, so
 * they look, read and page alike.
 */
export function PagedTable<Row>(props: TableProps<Row> & Source<Row>) {
  if (props.query) {
    return (
      <QueryState query={props.query} loadingLabel={props.loadingLabel}>
        {(answer) => <ListTable {...props} {...rowsOf(answer)} />}
      </QueryState>
    );
  }
  return <ListTable {...props} rows={props.rows} total={props.rows.length} />;
}

function ListTable<Row>({
  label,
  caption,
  columns,
  rows,
  total,
  rowKey,
  renderRow,
  rowProps,
  empty,
  size,
  minWidth,
  wrapHeaders = false,
  tableSx,
  sx,
  paging,
}: TableProps<Row> & { rows: readonly Row[]; total: number }) {
  const heads = columns.map(
    (column): TableColumn => (typeof column === 'string' ? { label: column } : column),
  );
  return (
    <Paper variant="outlined" sx={sx}>
      <TableContainer>
        <Table aria-label={label} size={size} sx={sxOf({ minWidth }, tableSx)}>
          {caption && <caption>{caption}</caption>}
          <TableHead>
            <TableRow>
              {heads.map((head) => (
                <TableCell
                  key={head.label}
                  align={head.align}
                  padding={head.padding}
                  sx={sxOf({ whiteSpace: wrapHeaders ? undefined : 'nowrap' }, head.sx)}
                >
                  {head.header ??
                    (head.labelHidden ? (
                      <Box component="span" sx={visuallyHidden}>
                        {head.label}
                      </Box>
                    ) : (
                      head.label
                    ))}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={rowKey(row)} hover {...rowProps?.(row)}>
                {renderRow(row)}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {rows.length === 0 && (
        <Box sx={{ p: 3 }}>
          <Typography>{empty}</Typography>
        </Box>
      )}
      {paging && (
        <TablePagination
          component="div"
          count={total}
          page={paging.state.page}
          rowsPerPage={paging.state.perPage}
          rowsPerPageOptions={[...paging.perPageOptions]}
          onPageChange={(_event, next) => paging.state.setPage(next)}
          onRowsPerPageChange={(event) => paging.state.setPerPage(Number(event.target.value))}
          showFirstButton={paging.firstAndLast}
          showLastButton={paging.firstAndLast}
          // On a phone the page buttons go under the page size rather than out of sight.
          sx={{
            '& .MuiTablePagination-toolbar': { flexWrap: { xs: 'wrap', sm: 'nowrap' } },
            '& .MuiTablePagination-spacer': { display: { xs: 'none', sm: 'block' } },
          }}
        />
      )}
    </Paper>
  );
}
