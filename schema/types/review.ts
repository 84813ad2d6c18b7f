import { builder } from '../builder.ts';
import { callScope } from '../../src/auth/call-scope.ts';
import { addCallComment } from '../../src/review/comments.ts';
import {
  acknowledgeCall,
  DISPUTE_STATUSES,
  type DisputeStatus,
  openDispute,
  resolveDispute,
  windowClosesAt,
} from '../../src/review/disputes.ts';
import { overrideCriterion } from '../../src/review/override.ts';
import { assertNotBlind, blindCallsWhere } from '../../src/calibration/read.ts';
import { Call, CriterionOutcomeEnum, CriterionResultRef } from './call.ts';
import { callViewerOf, directErrors, parseUuid, sessionOf } from './common.ts';

/*
 * Human review and agents as users (issue 10.3–10.4): overrides with a note and their history,
 * comments pinned to moments, an agent's acknowledgement and disputes, and the dispute queue.
 */

const reviewerOf = (ctx: Parameters<typeof sessionOf>[0]) => {
  const u = sessionOf(ctx).user;
  return { id: u.id, accountId: u.accountId, name: u.name };
};

builder.objectFields(CriterionResultRef, (t) => ({
  autoResult: t.field({
    type: CriterionOutcomeEnum,
    description: 'What the automatic analysis said; differs from `result` when a reviewer overrode it.',
    resolve: (c) => c.auto_result ?? c.result,
  }),
  reviewed: t.boolean({ description: 'A person overrode this result.', resolve: (c) => c.auto_result !== undefined }),
  reviewNote: t.string({ nullable: true, resolve: (c) => c.review?.note ?? null }),
  reviewedByName: t.string({ nullable: true, resolve: (c) => c.review?.by_name ?? null }),
  reviewedAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.review?.at ?? null }),
}));

builder.prismaObject('CriterionReview', {
  description: "One override of a criterion's result: the call's review history.",
  fields: (t) => ({
    id: t.id({ resolve: (r) => r.id.toString() }),
    criterionKey: t.exposeString('criterionKey'),
    autoResult: t.field({ type: CriterionOutcomeEnum, resolve: (r) => r.autoResult as 'passed' }),
    fromResult: t.field({ type: CriterionOutcomeEnum, resolve: (r) => r.fromResult as 'passed' }),
    toResult: t.field({ type: CriterionOutcomeEnum, resolve: (r) => r.toResult as 'passed' }),
    note: t.exposeString('note'),
    reviewerName: t.exposeString('reviewerName'),
    scoreBefore: t.exposeFloat('scoreBefore', { nullable: true }),
    scoreAfter: t.exposeFloat('scoreAfter', { nullable: true }),
    disputeId: t.exposeID('disputeId', { nullable: true, description: 'Set when the override accepted a dispute.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('CallComment', {
  description: 'A comment on a call, pinned to a moment of the recording when `atSeconds` is set.',
  fields: (t) => ({
    id: t.exposeID('id'),
    authorName: t.exposeString('authorName'),
    atSeconds: t.exposeFloat('atSeconds', { nullable: true }),
    body: t.exposeString('body'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const DisputeStatusEnum = builder.enumType('DisputeStatus', {
  description:
    'OPEN → ACCEPTED (the criterion was overridden) | REJECTED (with a reply). Accepted and rejected are final.',
  values: Object.fromEntries(DISPUTE_STATUSES.map((s) => [s.toUpperCase(), { value: s }])) as {
    OPEN: { value: 'open' };
    ACCEPTED: { value: 'accepted' };
    REJECTED: { value: 'rejected' };
  },
});

builder.prismaObject('DisputeEvent', {
  description: 'One state of a dispute, with its time.',
  fields: (t) => ({
    status: t.field({ type: DisputeStatusEnum, resolve: (e) => e.status as DisputeStatus }),
    note: t.exposeString('note', { nullable: true }),
    userName: t.string({
      nullable: true,
      select: { user: { select: { name: true } } },
      resolve: (e) => e.user?.name ?? null,
    }),
    at: t.expose('at', { type: 'DateTime' }),
  }),
});

const Dispute = builder.prismaObject('Dispute', {
  description: "An agent's dispute of one criterion of their call.",
  fields: (t) => ({
    id: t.exposeID('id'),
    call: t.relation('call'),
    criterionKey: t.exposeString('criterionKey'),
    status: t.field({ type: DisputeStatusEnum, resolve: (d) => d.status as DisputeStatus }),
    comment: t.exposeString('comment'),
    openedByName: t.string({
      nullable: true,
      select: { openedBy: { select: { name: true } } },
      resolve: (d) => d.openedBy?.name ?? null,
    }),
    openedAt: t.expose('openedAt', { type: 'DateTime' }),
    reply: t.exposeString('reply', { nullable: true }),
    resolvedByName: t.string({
      nullable: true,
      select: { resolvedBy: { select: { name: true } } },
      resolve: (d) => d.resolvedBy?.name ?? null,
    }),
    resolvedAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true }),
    events: t.relation('events', {
      description: 'Every state, oldest first.',
      query: { orderBy: [{ at: 'asc' }, { id: 'asc' }] },
    }),
  }),
});

builder.prismaObjectFields(Call, (t) => ({
  autoScore: t.exposeFloat('autoScore', {
    nullable: true,
    description: 'The automatic analysis score; `score` is the effective one, after reviewers’ overrides.',
  }),
  reviewedAt: t.expose('reviewedAt', {
    type: 'DateTime',
    nullable: true,
    description: 'Last override; null if never reviewed.',
  }),
  reviewedBy: t.relation('reviewedBy', { nullable: true }),
  reviews: t.relation('reviews', {
    description: 'Review history (every override, and reviews discarded by a re-analysis), oldest first.',
    query: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
  }),
  comments: t.relation('comments', {
    description: 'Comments, oldest first; pinned ones carry `atSeconds`.',
    query: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
  }),
  disputes: t.relation('disputes', {
    description: 'Disputes of this call, newest first.',
    query: { orderBy: { openedAt: 'desc' } },
  }),
  openDisputes: t.exposeInt('openDisputes', { description: 'Disputes still waiting for an analyst.' }),
  acknowledgedAt: t.expose('acknowledgedAt', {
    type: 'DateTime',
    nullable: true,
    description: 'When the agent acknowledged the score.',
  }),
  disputeWindowClosesAt: t.field({
    type: 'DateTime',
    nullable: true,
    description:
      "Until when the call's agent may acknowledge it or dispute a criterion (the account's window after analysis).",
    select: { analyzedAt: true, account: { select: { disputeWindowDays: true } } },
    resolve: (c) => windowClosesAt(c.analyzedAt, c.account.disputeWindowDays),
  }),
}));

builder.queryField('disputes', (t) =>
  t.prismaField({
    type: [Dispute],
    authScopes: { signedIn: true },
    description:
      "The dispute queue, oldest first (up to 200): every dispute of the account, or, for an AGENT user, their own calls' disputes.",
    args: { status: t.arg({ type: DisputeStatusEnum }) },
    resolve: (query, _r, args, ctx) =>
      ctx.app.db.dispute.findMany({
        ...query,
        where: {
          // A dispute shows its call and the verdict disputed: none of a call its reader grades blind.
          call: { ...callScope(callViewerOf(ctx)), ...blindCallsWhere(sessionOf(ctx).user.id) },
          ...(args.status ? { status: args.status } : {}),
        },
        orderBy: [{ openedAt: 'asc' }, { id: 'asc' }],
        take: 200,
      }),
  }),
);

builder.mutationFields((t) => ({
  overrideCriterion: t.prismaField({
    type: 'Call',
    authScopes: { analyst: true },
    errors: directErrors,
    description:
      "Analysts and above: sets a criterion's result (PASSED, FAILED, NA) with a required note; the score is recomputed and the override recorded in the call's review history. Errors: `not_found`, `not_ready`, `invalid_input`.",
    args: {
      callId: t.arg.id({ required: true }),
      key: t.arg.string({ required: true }),
      result: t.arg({ type: CriterionOutcomeEnum, required: true }),
      note: t.arg.string({ required: true }),
    },
    resolve: async (query, _r, args, ctx) => {
      const callId = parseUuid(args.callId, 'Call');
      await assertNotBlind(ctx.app.db, sessionOf(ctx).user.id, callId);
      await overrideCriterion(
        ctx.app.db,
        reviewerOf(ctx),
        { callId, key: args.key, result: args.result, note: args.note },
        ctx.app.config.publicUrl,
      );
      return ctx.app.db.call.findUniqueOrThrow({ ...query, where: { id: callId } });
    },
  }),
  addCallComment: t.prismaField({
    type: 'CallComment',
    authScopes: { analyst: true },
    errors: directErrors,
    description: 'Analysts and above: a comment on a call, pinned to a moment (`atSeconds`) or on the whole call.',
    args: {
      callId: t.arg.id({ required: true }),
      body: t.arg.string({ required: true }),
      atSeconds: t.arg.float(),
    },
    resolve: async (query, _r, args, ctx) => {
      const comment = await addCallComment(ctx.app.db, sessionOf(ctx).user, {
        callId: parseUuid(args.callId, 'Call'),
        body: args.body,
        atSeconds: args.atSeconds ?? null,
      });
      return ctx.app.db.callComment.findUniqueOrThrow({ ...query, where: { id: comment.id } });
    },
  }),
  acknowledgeCall: t.prismaField({
    type: 'Call',
    authScopes: { signedIn: true },
    errors: directErrors,
    description:
      "The call's agent (role AGENT) acknowledges the score, within the account's window. Errors: `forbidden` (not an agent user), `not_found`, `dispute_window_closed`.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const call = await acknowledgeCall(ctx.app.db, sessionOf(ctx).user, parseUuid(args.id, 'Call'));
      return ctx.app.db.call.findUniqueOrThrow({ ...query, where: { id: call.id } });
    },
  }),
  disputeCriterion: t.prismaField({
    type: Dispute,
    authScopes: { signedIn: true },
    errors: directErrors,
    description:
      "The call's agent (role AGENT) disputes one criterion with a comment, within the account's window; it goes to the dispute queue. Errors: `forbidden`, `not_found`, `dispute_window_closed`, `already_disputed`, `invalid_input`.",
    args: {
      callId: t.arg.id({ required: true }),
      key: t.arg.string({ required: true }),
      comment: t.arg.string({ required: true }),
    },
    resolve: async (query, _r, args, ctx) => {
      const dispute = await openDispute(ctx.app.db, sessionOf(ctx).user, {
        callId: parseUuid(args.callId, 'Call'),
        key: args.key,
        comment: args.comment,
      });
      return ctx.app.db.dispute.findUniqueOrThrow({ ...query, where: { id: dispute.id } });
    },
  }),
  resolveDispute: t.prismaField({
    type: Dispute,
    authScopes: { analyst: true },
    errors: directErrors,
    description:
      'Analysts and above: accept (the criterion is overridden, to `result` or else the other verdict, with the reply as note) or reject a dispute with a reply. Errors: `not_found`, `dispute_closed`, `not_ready`, `invalid_input`.',
    args: {
      id: t.arg.id({ required: true }),
      accept: t.arg.boolean({ required: true }),
      reply: t.arg.string({ required: true }),
      result: t.arg({ type: CriterionOutcomeEnum }),
    },
    resolve: async (query, _r, args, ctx) => {
      const id = parseUuid(args.id, 'Dispute');
      const of = await ctx.app.db.dispute.findUnique({ where: { id }, select: { callId: true } });
      if (of) await assertNotBlind(ctx.app.db, sessionOf(ctx).user.id, of.callId);
      const dispute = await resolveDispute(
        ctx.app.db,
        reviewerOf(ctx),
        { id, accept: args.accept, reply: args.reply, result: args.result ?? null },
        ctx.app.config.publicUrl,
      );
      return ctx.app.db.dispute.findUniqueOrThrow({ ...query, where: { id: dispute.id } });
    },
  }),
}));
