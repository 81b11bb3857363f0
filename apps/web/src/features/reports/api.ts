import {
  REPORT_NAMES,
  apiRoutes,
  type ReportGrouping,
  type ReportName,
  type ReportsAnswers,
} from '@pathway/contract';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { call, callBlob } from '../../lib/api';
import { reportKeys } from '../../lib/queryKeys';

export interface PeriodChoice {
  from: string;
  to: string;
  by: ReportGrouping;
}

/** Today and the first day of the month eleven months before: the last 12 months, whole months. */
export function defaultPeriod(): PeriodChoice {
  const now = new Date();
  const day = (d: Date) =>
    `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  return { from: day(new Date(now.getFullYear(), now.getMonth() - 11, 1)), to: day(now), by: 'month' };
}

export function reportQuery<N extends ReportName>(name: N, period: PeriodChoice) {
  return queryOptions({
    queryKey: reportKeys.report(name, period.from, period.to, period.by),
    queryFn: async ({ signal }) =>
      (await call(apiRoutes.reports.get, { params: { name }, query: period, signal })) as ReportsAnswers[N],
    // Each read is audited: no refetch on focus, the figures change slowly.
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
  });
}

/** Every report of the page as it opens (the last 12 months), fetched ahead of a visit (app/prefetch.ts). */
export function prefetchReports(queryClient: QueryClient): Promise<unknown> {
  const period = defaultPeriod();
  return Promise.all(REPORT_NAMES.map((name) => queryClient.prefetchQuery(reportQuery(name, period))));
}

export function downloadWorkbook(period: PeriodChoice, suppressSmall: boolean): Promise<Blob> {
  return callBlob(apiRoutes.reports.exportXlsx, {
    query: { ...period, suppress_small: suppressSmall },
  });
}
