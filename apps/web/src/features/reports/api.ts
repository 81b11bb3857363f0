import { apiRoutes, type ReportGrouping, type ReportName, type ReportsAnswers } from '@pathway/contract';
import { queryOptions } from '@tanstack/react-query';
import { call, callBlob } from '../../lib/api';
import { outcomeKeys, reportKeys } from '../../lib/queryKeys';

export interface PeriodChoice {
  from: string;
  to: string;
  by: ReportGrouping;
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

export function downloadWorkbook(period: PeriodChoice, suppressSmall: boolean): Promise<Blob> {
  return callBlob(apiRoutes.reports.exportXlsx, {
    query: { ...period, suppress_small: suppressSmall },
  });
}

/** The outcomes report of one measure over the period (not grouped). */
export function outcomesReportQuery(measure: string, period: PeriodChoice) {
  return queryOptions({
    queryKey: outcomeKeys.report(measure, period.from, period.to),
    queryFn: ({ signal }) =>
      call(apiRoutes.reports.outcomes, { query: { from: period.from, to: period.to, measure }, signal }),
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
  });
}

/** The measures the outcomes report may be asked for. */
export const reportMeasuresQuery = queryOptions({
  queryKey: outcomeKeys.measures(),
  queryFn: ({ signal }) => call(apiRoutes.outcomes.measures, { signal }),
});
