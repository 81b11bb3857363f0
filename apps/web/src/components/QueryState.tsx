import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PageLoading } from './PageLoading';

/** The part of a query result these components read: any useQuery answer fits. */
type QueryLike<T> = Pick<UseQueryResult<T>, 'isPending' | 'isError' | 'error' | 'data' | 'refetch'>;

/** A query that failed: its message and a Try again button that asks the server once more. */
export function QueryError({
  query,
  sx = { mb: 2 },
}: {
  query: Pick<UseQueryResult, 'isError' | 'error' | 'refetch'>;
  sx?: SxProps<Theme>;
}) {
  if (!query.isError || !query.error) return null;
  return (
    <Alert
      severity="error"
      sx={sx}
      action={
        <Button color="inherit" onClick={() => void query.refetch()}>
          Try again
        </Button>
      }
    >
      {query.error.message}
    </Alert>
  );
}

/**
 * What a page (or a section) shows while its data loads: a spinner named for what loads, then the
 * error with Try again, then the data.
 */
export function QueryState<T>({
  query,
  loadingLabel,
  errorSx,
  children,
}: {
  query: QueryLike<T>;
  /** What the spinner says to a screen reader, e.g. 'Loading devices'. */
  loadingLabel: string;
  errorSx?: SxProps<Theme>;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <PageLoading label={loadingLabel} />;
  if (query.isError) return <QueryError query={query} sx={errorSx ?? {}} />;
  return children(query.data as T);
}
