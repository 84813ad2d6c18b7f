import { builder } from '../builder.ts';
import {
  assignReview,
  completeReview,
  encodeReviewCursor,
  listReviewQueue,
  REVIEW_PAGE_MAX,
  REVIEW_REASON_KEYS,
  type ReviewItem as ReviewItemShape,
  type ReviewReason,
  setReviewSamplePercent,
} from '../../src/review/review-queue.ts';
import { assertNotBlind, blindCallIds } from '../../src/calibration/read.ts';
import { Account } from './account.ts';
import { accountIdOf, directErrors, parseUuid, sessionOf, uuidOrNull, byUser } from './common.ts';

// The enum follows the domain's list of reasons: a reason added there is a value here.
const ReviewReasonEnum = builder.enumType('ReviewReason', {
  description:
    'Why a call is in the review queue: NEEDS_REVIEW (coverage below the template minimum), CRITICAL_FAIL (a critical criterion failed), LANGUAGE_MISMATCH (scored with a template in another language), LOW_CONFIDENCE (a criterion failed only on words the recogniser was unsure of), SAMPLE (the random share of each agent’s calls).',
  values: Object.fromEntries(REVIEW_REASON_KEYS.map((k) => [k.toUpperCase(), { value: k }])) as Record<
    Uppercase<ReviewReason>,
    { value: ReviewReason }
  >,
});

const ReviewStateEnum = builder.enumType('ReviewState', {
  values: { OPEN: { value: 'open' }, DONE: { value: 'done' } } as const,
});

const ReviewItem = builder.objectRef<ReviewItemShape>('ReviewItem').implement({
  description: 'A call in the review queue, why it is there, who has it and whether it is done.',
  fields: (t) => ({
    call: t.prismaField({
      type: 'Call',
      resolve: (query, item, _a, ctx) => ctx.app.db.call.findUniqueOrThrow({ ...query, where: { id: item.callId } }),
    }),
    reasons: t.field({ type: [ReviewReasonEnum], resolve: (i) => i.reasons }),
    assignedTo: t.prismaField({
      type: 'User',
      nullable: true,
      resolve: (query, i, _a, ctx) =>
        i.assignedToId ? ctx.app.db.user.findUnique({ ...query, where: { id: i.assignedToId } }) : null,
    }),
    assignedAt: t.expose('assignedAt', { type: 'DateTime', nullable: true }),
    doneBy: t.prismaField({
      type: 'User',
      nullable: true,
      resolve: (query, i, _a, ctx) =>
        i.doneById ? ctx.app.db.user.findUnique({ ...query, where: { id: i.doneById } }) : null,
    }),
    doneAt: t.expose('doneAt', { type: 'DateTime', nullable: true }),
  }),
});

const ReviewQueuePage = builder
  .objectRef<{ items: ReviewItemShape[]; hasNextPage: boolean }>('ReviewQueuePage')
  .implement({
    description: 'One page of the review queue, newest calls first.',
    fields: (t) => ({
      items: t.field({ type: [ReviewItem], resolve: (p) => p.items }),
      hasNextPage: t.exposeBoolean('hasNextPage'),
      endCursor: t.string({
        nullable: true,
        description: 'Pass as `after` for the next page.',
        resolve: (p) => {
          const last = p.items.at(-1);
          return last ? encodeReviewCursor(last) : null;
        },
      }),
    }),
  });

const ReviewQueueFilter = builder.inputType('ReviewQueueFilter', {
  fields: (t) => ({
    reasons: t.field({ type: [ReviewReasonEnum], description: 'Any of these reasons; all when empty.' }),
    agentIds: t.idList(),
    state: t.field({ type: ReviewStateEnum, description: 'OPEN (default) or DONE.' }),
    assignedToMe: t.boolean({ description: 'Only calls assigned to the signed-in user.' }),
  }),
});

builder.objectField(Account, 'reviewSamplePercent', (t) =>
  t.exposeFloat('reviewSamplePercent', {
    description: 'Share (percent) of each agent’s calls sampled into the review queue; 0 turns sampling off.',
  }),
);

builder.queryField('reviewQueue', (t) =>
  t.field({
    type: ReviewQueuePage,
    authScopes: { analyst: true },
    errors: directErrors,
    description: `Analyzed calls that need a person, newest first (keyset pages of up to ${REVIEW_PAGE_MAX}). Analysts and above. Errors: \`invalid_cursor\`.`,
    args: {
      filter: t.arg({ type: ReviewQueueFilter }),
      first: t.arg.int({ defaultValue: 25 }),
      after: t.arg.string(),
    },
    resolve: async (_r, args, ctx) => {
      const f = args.filter;
      const userId = sessionOf(ctx).user.id;
      return listReviewQueue(
        ctx.app.db,
        accountIdOf(ctx),
        {
          reasons: f?.reasons ?? null,
          // Foreign or malformed ids simply match nothing.
          agentIds: f?.agentIds ? f.agentIds.map(String).filter((id) => uuidOrNull(id)) : null,
          state: f?.state ?? 'open',
          assignedToId: f?.assignedToMe ? userId : null,
          // A calibration grader's blind calls are not in their queue (src/calibration/read.ts).
          excludeCallIds: await blindCallIds(ctx.app.db, userId),
        },
        { first: args.first ?? 25, after: args.after ?? null },
      );
    },
  }),
);

builder.mutationFields((t) => ({
  assignReview: t.field({
    type: ReviewItem,
    authScopes: { analyst: true },
    errors: directErrors,
    description: 'Assigns the call’s review to the signed-in user. Analysts and above.',
    args: { callId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const callId = parseUuid(args.callId, 'Call');
      await assertNotBlind(ctx.app.db, sessionOf(ctx).user.id, callId);
      return assignReview(ctx.app.db, accountIdOf(ctx), callId, sessionOf(ctx).user.id);
    },
  }),
  completeReview: t.field({
    type: ReviewItem,
    authScopes: { analyst: true },
    errors: directErrors,
    description:
      'Marks the call reviewed (who and when are kept), which takes it out of the open queue; `done: false` puts it back. Analysts and above.',
    args: { callId: t.arg.id({ required: true }), done: t.arg.boolean({ defaultValue: true }) },
    resolve: async (_r, args, ctx) => {
      const callId = parseUuid(args.callId, 'Call');
      await assertNotBlind(ctx.app.db, sessionOf(ctx).user.id, callId);
      return completeReview(ctx.app.db, accountIdOf(ctx), callId, sessionOf(ctx).user.id, args.done ?? true);
    },
  }),
  setReviewSamplePercent: t.prismaField({
    type: 'Account',
    authScopes: { analyst: true },
    errors: directErrors,
    description:
      'Sets the share (percent, 0–100) of each agent’s calls sampled into the review queue. Analysts and above. Errors: `invalid_input`.',
    args: { percent: t.arg.float({ required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const id = accountIdOf(ctx);
      await setReviewSamplePercent(ctx.app.db, id, args.percent, byUser(ctx));
      return ctx.app.db.account.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));
