import {
  REPORT_NAMES,
  apiRoutes,
  type ReportGrouping,
  type ReportName,
  type ReportsAnswers,
} from '@pathway/contract';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { call, callBlob } from '../../lib/api';
import { outcomeKeys, reportKeys } from '../../lib/queryKeys';

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

/** One report over the period, of every site the admin sees or of one. */
export function reportQuery<N extends ReportName>(name: N, period: PeriodChoice, siteId?: number) {
  return queryOptions({
    queryKey: reportKeys.report(name, period.from, period.to, period.by, siteId),
    queryFn: async ({ signal }) =>
      (await call(apiRoutes.reports.get, {
        params: { name },
        query: { from: period.from, to: period.to, by: period.by, site_id: siteId },
        signal,
      })) as ReportsAnswers[N],
    // Each read is audited: no refetch on focus, the figures change slowly.
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
  });
}

/**
 * Every report of the page as it opens (the last 12 months, the first measure in use for the
 * outcomes report), fetched ahead of a visit (app/prefetch.ts).
 */
export function prefetchReports(queryClient: QueryClient): Promise<unknown> {
  const period = defaultPeriod();
  const outcomes = queryClient
    .fetchQuery(reportMeasuresQuery)
    .then((measures) => {
      const first = measuresInUse(measures)[0];
      return first && queryClient.prefetchQuery(outcomesReportQuery(first.code, period));
    })
    // Ahead of a visit only: the page asks again, and says what went wrong.
    .catch(() => undefined);
  return Promise.all([
    ...REPORT_NAMES.map((name) => queryClient.prefetchQuery(reportQuery(name, period))),
    outcomes,
  ]);
}

export function downloadWorkbook(
  period: PeriodChoice,
  suppressSmall: boolean,
  siteId?: number,
): Promise<Blob> {
  return callBlob(apiRoutes.reports.exportXlsx, {
    query: {
      from: period.from,
      to: period.to,
      by: period.by,
      suppress_small: suppressSmall,
      site_id: siteId,
    },
  });
}

/** The outcomes report of one measure over the period (not grouped), of every site or of one. */
export function outcomesReportQuery(measure: string, period: PeriodChoice, siteId?: number) {
  return queryOptions({
    queryKey: outcomeKeys.report(measure, period.from, period.to, siteId),
    queryFn: ({ signal }) =>
      call(apiRoutes.reports.outcomes, {
        query: { from: period.from, to: period.to, measure, site_id: siteId },
        signal,
      }),
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
  });
}

/** The measures the outcomes report offers: those not retired, and retired ones with results. */
export function measuresInUse<M extends { retired: boolean; has_results: boolean }>(measures: M[]): M[] {
  return measures.filter((m) => !m.retired || m.has_results);
}

/** The measures the outcomes report may be asked for. */
export const reportMeasuresQuery = queryOptions({
  queryKey: outcomeKeys.measures(),
  queryFn: ({ signal }) => call(apiRoutes.outcomes.measures, { signal }),
});
