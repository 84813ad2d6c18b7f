import { builder } from '../builder.ts';
import type { BulkReanalysis as BulkRow } from '../../src/generated/prisma/client.ts';
import {
  type BulkOutcomes,
  bulkOutcomes,
  cancelBulkReanalysis,
  countBulkReanalysis,
  getBulkReanalysis,
  startBulkReanalysis,
} from '../../src/calls/bulk-reanalysis.ts';
import { CallFilter, cleanFilter } from './call.ts';
import { accountIdOf, directErrors, parseUuid, sessionOf, byId, uuidOrNull, byUser } from './common.ts';

const BulkStatusEnum = builder.enumType('BulkReanalysisStatus', {
  values: {
    RUNNING: { value: 'running' },
    FINISHED: { value: 'finished' },
    CANCELLED: { value: 'cancelled' },
  } as const,
});

const BulkOutcomesRef = builder.objectRef<BulkOutcomes>('BulkReanalysisOutcomes').implement({
  fields: (t) => ({
    analyzed: t.exposeInt('analyzed', { description: 'Requested calls analyzed since.' }),
    failed: t.exposeInt('failed', { description: 'Requested calls whose analysis gave no score, or that failed.' }),
    waiting: t.exposeInt('waiting', { description: 'Requested calls still waiting for, or in, analysis.' }),
  }),
});

const BulkReanalysis = builder.objectRef<BulkRow>('BulkReanalysis').implement({
  description:
    'A re-analysis of every call matching a filter, run in batches below new calls’ priority. Reviewed results are kept as a single re-analysis keeps them.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.field({ type: BulkStatusEnum, resolve: (b) => b.status as 'running' | 'finished' | 'cancelled' }),
    total: t.exposeInt('total', { description: 'Calls it covers, counted when it was started (what was confirmed).' }),
    requested: t.exposeInt('requested', { description: 'Calls queued for re-analysis so far.' }),
    skipped: t.exposeInt('skipped', {
      description: 'Calls that could not be re-analyzed when their turn came (being processed, no template).',
    }),
    outcomes: t.field({
      type: BulkOutcomesRef,
      description:
        'Where the requested calls are now: analyzed, failed (no score) or still waiting. `requested` counts calls queued, not analyzed.',
      resolve: (b, _a, ctx) => bulkOutcomes(ctx.app.db, b),
    }),
    templateId: t.exposeID('templateId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

const BulkReanalysisCount = builder.objectRef<{ count: number }>('BulkReanalysisCount').implement({
  fields: (t) => ({ count: t.exposeInt('count', { description: 'Calls a bulk re-analysis would cover now.' }) }),
});

/** A template id that is malformed or of another account matches no call. */
const templateArg = (id: string | number | null | undefined) =>
  id == null ? null : (uuidOrNull(id) ?? '00000000-0000-0000-0000-000000000000');

builder.queryFields((t) => ({
  bulkReanalysisCount: t.field({
    type: BulkReanalysisCount,
    authScopes: { analyst: true },
    errors: directErrors,
    description:
      'How many calls `startBulkReanalysis` would re-analyze with this filter (analyzed and transcribed calls only), to show before confirming. Analysts and above.',
    args: {
      filter: t.arg({ type: CallFilter }),
      templateId: t.arg.id({ description: 'Only calls scored with this template.' }),
    },
    resolve: async (_r, args, ctx) => ({
      count: await countBulkReanalysis(ctx.app.db, accountIdOf(ctx), {
        filter: cleanFilter(args.filter),
        templateId: templateArg(args.templateId),
      }),
    }),
  }),
  bulkReanalysis: t.field({
    type: BulkReanalysis,
    nullable: true,
    authScopes: { analyst: true },
    description: 'Progress of a bulk re-analysis. Analysts and above.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => byId(args.id, (id) => getBulkReanalysis(ctx.app.db, accountIdOf(ctx), id)),
  }),
}));

builder.mutationFields((t) => ({
  startBulkReanalysis: t.field({
    type: BulkReanalysis,
    authScopes: { analyst: true },
    errors: directErrors,
    description:
      'Re-analyzes every analyzed or transcribed call matching the filter (the calls list’s), optionally only those scored with `templateId`; `total` is the count. Analysts and above. Errors: `invalid_search`, `not_found` (a template, agent or campaign id not of this account).',
    args: { filter: t.arg({ type: CallFilter }), templateId: t.arg.id() },
    resolve: (_r, args, ctx) =>
      startBulkReanalysis(ctx.app.db, accountIdOf(ctx), sessionOf(ctx).user.id, {
        filter: cleanFilter(args.filter),
        templateId: args.templateId == null ? null : parseUuid(args.templateId, 'Template'),
      }),
  }),
  cancelBulkReanalysis: t.field({
    type: BulkReanalysis,
    authScopes: { analyst: true },
    errors: directErrors,
    description:
      'Stops a running bulk re-analysis after the call in hand; calls already queued finish. Errors: `not_found`, `not_ready` (already finished or cancelled).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) =>
      cancelBulkReanalysis(ctx.app.db, accountIdOf(ctx), parseUuid(args.id, 'Bulk re-analysis'), byUser(ctx)),
  }),
}));
