import { builder } from '../builder.ts';
import { checkReadiness, readinessChecks, type CheckResult } from '../../src/ops/readiness.ts';

const ServiceProblem = builder.objectRef<CheckResult>('ServiceProblem').implement({
  description: 'A readiness check that fails: what the operator must fix (the same as GET /readyz says).',
  fields: (t) => ({
    check: t.exposeString('name', { description: 'e.g. `database`, `decoder`, `engine:es`, `transcription_api`.' }),
    message: t.string({ resolve: (c) => c.message ?? '' }),
  }),
});

const ServiceStatus = builder.objectRef<{ ready: boolean; problems: CheckResult[] }>('ServiceStatus').implement({
  description:
    'Whether this service can transcribe and analyze calls now. Calls keep waiting in the queue (never failed) until every problem is fixed.',
  fields: (t) => ({
    ready: t.exposeBoolean('ready'),
    problems: t.field({ type: [ServiceProblem], resolve: (s) => s.problems }),
  }),
});

builder.queryFields((t) => ({
  // Service-wide, not account data: the same for every account; admins see it as a banner.
  serviceStatus: t.field({
    type: ServiceStatus,
    authScopes: { admin: true },
    resolve: async (_r, _a, ctx) => {
      const { ready, checks } = await checkReadiness(readinessChecks(ctx.app));
      return { ready, problems: checks.filter((c) => !c.ok) };
    },
  }),
}));
