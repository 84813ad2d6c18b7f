import type { Scope } from './scopes.ts';
import type { Route } from '../http/server.ts';

/**
 * Who may use each HTTP route of the app, in one table the routes read their scope from
 * (`requireSession(app, req, res, 'callsCsv')`): the route answers the same data as its GraphQL
 * `twins`, so it takes their scope (src/auth/scopes.ts). test/http/route-access.test.ts checks that
 * the scope here is each twin's `authScopes`, that every /api route of the service has an entry,
 * and — route × role, other accounts included — that no route answers data its twin refuses.
 */
export interface RouteAccess {
  scope: Scope;
  /** `Type.field` of the GraphQL fields answering the same data (an agent user: the same calls). */
  twins: readonly string[];
  /** Why a route has no twin (then the scope alone decides). */
  noTwin?: string;
}

export const ROUTE_ACCESS = {
  /** GET /api/calls/export.csv: the calls list as CSV, narrowed to an agent user's own calls. */
  callsCsv: { scope: 'signedIn', twins: ['Query.calls'] },
  /** GET /api/calls/:id/recording: a call's recording, where the call itself can be read. */
  recording: { scope: 'signedIn', twins: ['Query.call'] },
  /** GET /api/reports/<table>.csv: the dashboard's tables. */
  reportCsv: {
    scope: 'member',
    twins: [
      'Query.reportTrend',
      'Query.reportAgents',
      'Query.reportCampaigns',
      'Query.reportCriteria',
      'Query.reportScoreDistribution',
      'Query.reportTopics',
      'Query.reportSentiment',
      'Query.reportDisputes',
    ],
  },
  /** GET /api/audit-log.csv. */
  auditCsv: { scope: 'owner', twins: ['Query.auditLog'] },
  /** POST /api/uploads: creates calls (and answers their ids). */
  upload: {
    scope: 'analyst',
    twins: [],
    noTwin: 'multipart file upload has no GraphQL field; analysts and above add calls, as they re-analyse them',
  },
} as const satisfies Record<string, RouteAccess>;

export type RouteAccessName = keyof typeof ROUTE_ACCESS;

/** A route of the app: its access entry travels with it, so a route without one does not compile. */
export interface AppRoute extends Route {
  access: RouteAccessName;
}
