/**
 * The dashboard's reports (issue 10.5): one GraphQL document per card, so each card's numbers arrive
 * as soon as its own query answers, all under the same filter. Each answers its rows or a typed error
 * (the error catalog's code and message). bench:reports imports these documents and sends them as they are.
 */
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { graphql, type VariablesOf } from './graphql.ts';

/** An agent's or a campaign's row: the period's figures, the previous period's, and the customers' sentiment. */
const BreakdownRows = graphql(`
  fragment BreakdownRows on ReportBreakdown @_unmask {
    rows {
      id name calls averageScore averageCoverage coverageCalls criticalFails previousCalls previousAverageScore
      change averageCustomerSentiment customerSentimentCalls
    }
  }
`);

export const DashboardTrend = graphql(`
  query DashboardTrend($filter: ReportFilter!, $interval: ReportInterval!) {
    reportTrend(filter: $filter, interval: $interval) { __typename ... on ReportTrend { rows { period calls averageScore averageCoverage coverageCalls criticalFails } } ... on Error { code message } }
  }
`);

export const DashboardAgents = graphql(
  `query DashboardAgents($filter: ReportFilter!) { reportAgents(filter: $filter) { __typename ...BreakdownRows ... on Error { code message } } }`,
  [BreakdownRows],
);

export const DashboardCampaigns = graphql(
  `query DashboardCampaigns($filter: ReportFilter!) { reportCampaigns(filter: $filter) { __typename ...BreakdownRows ... on Error { code message } } }`,
  [BreakdownRows],
);

export const DashboardCriteria = graphql(`
  query DashboardCriteria($filter: ReportFilter!) {
    reportCriteria(filter: $filter) { __typename ... on ReportCriteria { rows { key label passed failed na passRate criticalFails } } ... on Error { code message } }
  }
`);

export const DashboardDistribution = graphql(`
  query DashboardDistribution($filter: ReportFilter!) {
    reportScoreDistribution(filter: $filter) { __typename ... on ReportScoreDistribution { rows { from to calls } } ... on Error { code message } }
  }
`);

export const DashboardTopics = graphql(`
  query DashboardTopics($filter: ReportFilter!, $interval: ReportInterval!) {
    reportTopics(filter: $filter, interval: $interval) { __typename ... on ReportTopics { rows { period topic calls } } ... on Error { code message } }
  }
`);

export const DashboardSentiment = graphql(`
  query DashboardSentiment($filter: ReportFilter!, $interval: ReportInterval!) {
    reportSentiment(filter: $filter, interval: $interval) {
      __typename
      ... on ReportSentiment { rows { period sentimentCalls averageCustomerSentiment trendCalls improved worsened improvedShare worsenedShare } }
      ... on Error { code message }
    }
  }
`);

export const DashboardDisputes = graphql(`
  query DashboardDisputes($filter: ReportFilter!, $interval: ReportInterval!) {
    reportDisputes(filter: $filter, interval: $interval) { __typename ... on ReportDisputes { rows { period opened stillOpen accepted rejected medianHoursToResolve } } ... on Error { code message } }
  }
`);

/** The dashboard's documents by operation name, in the order its cards ask (what bench:reports sends). */
export const DASHBOARD_REPORTS = {
  DashboardTrend,
  DashboardAgents,
  DashboardCampaigns,
  DashboardCriteria,
  DashboardDistribution,
  DashboardTopics,
  DashboardSentiment,
  DashboardDisputes,
};

/** The one field a report query asks for: its rows or its typed error. */
type AnswerOf<D> = D extends object ? NonNullable<D[keyof D]> : never;
/** A report's rows: none while it loads or when it answered a typed error. */
type RowsOf<A> = (A extends { rows: infer R } ? R : never) | [];

function answerOf(data: object | undefined): object | undefined {
  return data && (Object.values(data)[0] as object | undefined);
}

/**
 * Every card's report under one filter (`pause` until the page knows the account's time zone): the
 * rows of each, the first failure of any (a transport error, else a typed one), and whether any is
 * still on its way: the cards answer one by one, and the page says it is busy until the last has.
 * `filter` must keep its identity while it is the same (the page memoizes it).
 */
export function useDashboardReports(
  filter: VariablesOf<typeof DashboardAgents>['filter'],
  interval: VariablesOf<typeof DashboardTrend>['interval'],
  pause: boolean,
) {
  const variables = useMemo(() => ({ filter }), [filter]);
  const withInterval = useMemo(() => ({ filter, interval }), [filter, interval]);
  const [trend] = useQuery({ query: DashboardTrend, variables: withInterval, pause });
  const [agents] = useQuery({ query: DashboardAgents, variables, pause });
  const [campaigns] = useQuery({ query: DashboardCampaigns, variables, pause });
  const [criteria] = useQuery({ query: DashboardCriteria, variables, pause });
  const [distribution] = useQuery({ query: DashboardDistribution, variables, pause });
  const [topics] = useQuery({ query: DashboardTopics, variables: withInterval, pause });
  const [sentiment] = useQuery({ query: DashboardSentiment, variables: withInterval, pause });
  const [disputes] = useQuery({ query: DashboardDisputes, variables: withInterval, pause });
  const reports = { trend, agents, campaigns, criteria, distribution, topics, sentiment, disputes };
  type Reports = typeof reports;
  const entries = Object.entries(reports);
  const rows = Object.fromEntries(
    entries.map(([k, r]) => {
      const answer = answerOf(r.data);
      return [k, answer && 'rows' in answer ? answer.rows : []];
    }),
  ) as { [K in keyof Reports]: RowsOf<AnswerOf<Reports[K]['data']>> };
  // The first failure in the cards' order: a transport error, else a typed error.
  const failure =
    entries.find(([, r]) => r.error)?.[1].error ??
    entries
      .map(([, r]) => answerOf(r.data))
      .find((a): a is { code: string; message: string } => !!a && 'code' in a && 'message' in a);
  return {
    rows,
    /** The trend has answered: its total says whether the period has any calls. */
    trendAnswered: !!trend.data,
    failure,
    fetching: entries.some(([, r]) => r.fetching),
  };
}

/** A row of each report as its query reads it (graphql-env.d.ts), not a copy of the server's types. */
export type DashboardRow<K extends keyof ReturnType<typeof useDashboardReports>['rows']> = ReturnType<
  typeof useDashboardReports
>['rows'][K][number];
