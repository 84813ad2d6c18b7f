import { builder } from '../builder.ts';
import { Criteria, parseColumn } from '../../src/call-columns.ts';
import {
  accountToday,
  acknowledgeCoaching,
  assignCoaching,
  COACHING_STATUSES,
  type CoachingStatus,
  coachingWhere,
  completeCoaching,
  isOverdue,
} from '../../src/coaching/coaching.ts';
import { type CoachingReportRow, coachingReport } from '../../src/coaching/coaching-report.ts';
import { assertNotBlind, blindCallsWhere, blindFilter } from '../../src/calibration/read.ts';
import { CriterionOutcomeEnum } from './call.ts';
import { accountIdOf, callViewerOf, directErrors, parseUuid, sessionOf, uuidOrNull } from './common.ts';

/*
 * Coaching (issue 31.3): items assigned from a call's criteria to its agent, acknowledged by the
 * agent and completed by a manager; the per-agent list and the report. Agent users see only their
 * own items (coachingWhere narrows every list to them).
 */

const CoachingStatusEnum = builder.enumType('CoachingStatus', {
  description: 'OPEN → ACKNOWLEDGED (the agent read it) → DONE (a manager closed it with a note). DONE is final.',
  values: Object.fromEntries(COACHING_STATUSES.map((s) => [s.toUpperCase(), { value: s }])) as {
    OPEN: { value: 'open' };
    ACKNOWLEDGED: { value: 'acknowledged' };
    DONE: { value: 'done' };
  },
});

const CoachingViewEnum = builder.enumType('CoachingView', {
  description:
    'OPEN: not done yet (acknowledged or not, overdue included); OVERDUE: not done and past its due day; DONE.',
  values: { OPEN: { value: 'open' }, OVERDUE: { value: 'overdue' }, DONE: { value: 'done' } } as const,
});

/** Today in the account's zone, read once per request however many items ask (not once per item). */
const todays = new WeakMap<object, Promise<Date>>();
function todayOf(ctx: Parameters<typeof sessionOf>[0], accountId: string): Promise<Date> {
  let today = todays.get(ctx);
  if (!today) {
    today = accountToday(ctx.app.db, accountId);
    todays.set(ctx, today);
  }
  return today;
}

interface CoachingCriterion {
  key: string;
  label: string;
  result: 'passed' | 'failed' | 'na' | null;
}
const CoachingCriterionRef = builder.objectRef<CoachingCriterion>('CoachingCriterion').implement({
  description: 'A criterion of the call the item was made from, with its current result on that call.',
  fields: (t) => ({
    key: t.exposeString('key'),
    label: t.exposeString('label'),
    result: t.field({ type: CriterionOutcomeEnum, nullable: true, resolve: (c) => c.result }),
  }),
});

const CoachingItem = builder.prismaObject('CoachingItem', {
  description:
    "Something a call's agent should improve, from criteria of that call, pinned to moments of its recording.",
  fields: (t) => ({
    id: t.exposeID('id'),
    call: t.relation('call'),
    agent: t.relation('agent'),
    criteria: t.field({
      type: [CoachingCriterionRef],
      select: { criterionKeys: true, call: { select: { criteria: true } } },
      resolve: (i) => {
        const criteria = parseColumn(Criteria, i.call.criteria) ?? [];
        return i.criterionKeys.map((key) => {
          const c = criteria.find((x) => x.key === key);
          return { key, label: c?.label ?? key, result: c?.result ?? null };
        });
      },
    }),
    improve: t.exposeString('improve', { description: 'What to improve.' }),
    moments: t.exposeFloatList('moments', {
      description: 'Seconds from the start of the recording, in order; each plays from its moment.',
    }),
    dueOn: t.string({
      nullable: true,
      description: "Due day (YYYY-MM-DD) in the account's time zone.",
      select: { dueOn: true },
      resolve: (i) => i.dueOn?.toISOString().slice(0, 10) ?? null,
    }),
    status: t.field({ type: CoachingStatusEnum, resolve: (i) => i.status as CoachingStatus }),
    overdue: t.boolean({
      description: "Not done and its due day has passed in the account's time zone.",
      select: { status: true, dueOn: true, accountId: true },
      resolve: async (i, _a, ctx) => isOverdue(i, await todayOf(ctx, i.accountId)),
    }),
    assignedByName: t.string({
      nullable: true,
      select: { assignedBy: { select: { name: true } } },
      resolve: (i) => i.assignedBy?.name ?? null,
    }),
    assignedAt: t.expose('assignedAt', { type: 'DateTime' }),
    acknowledgedAt: t.expose('acknowledgedAt', { type: 'DateTime', nullable: true }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    completedByName: t.string({
      nullable: true,
      select: { completedBy: { select: { name: true } } },
      resolve: (i) => i.completedBy?.name ?? null,
    }),
    completionNote: t.exposeString('completionNote', { nullable: true }),
  }),
});

const CoachingReportRowRef = builder.objectRef<CoachingReportRow>('CoachingReportRow').implement({
  description: "One agent's coaching: items not done (of which acknowledged and overdue) and done.",
  fields: (t) => ({
    agentId: t.exposeID('agentId'),
    agentName: t.exposeString('agentName'),
    open: t.exposeInt('open', { description: 'Not done yet, acknowledged or not.' }),
    acknowledged: t.exposeInt('acknowledged', { description: 'Of the open ones, acknowledged by the agent.' }),
    overdue: t.exposeInt('overdue', { description: 'Of the open ones, past their due day.' }),
    done: t.exposeInt('done'),
  }),
});

const coachOf = (ctx: Parameters<typeof sessionOf>[0]) => {
  const u = sessionOf(ctx).user;
  return { id: u.id, accountId: u.accountId, name: u.name };
};

builder.queryFields((t) => ({
  coachingItems: t.prismaField({
    type: [CoachingItem],
    authScopes: { signedIn: true },
    description:
      "Coaching items, newest first (up to 500): the account's, or for an AGENT user only their own. Filter by agent, call and view.",
    args: {
      agentId: t.arg.id(),
      callId: t.arg.id(),
      view: t.arg({ type: CoachingViewEnum }),
    },
    resolve: async (query, _r, args, ctx) => {
      const viewer = callViewerOf(ctx);
      // Malformed or foreign ids match nothing, as in the calls filter.
      const none = '00000000-0000-0000-0000-000000000000';
      const agentId = args.agentId == null ? null : (uuidOrNull(args.agentId) ?? none);
      const callId = args.callId == null ? null : (uuidOrNull(args.callId) ?? none);
      const today = await todayOf(ctx, viewer.accountId);
      return ctx.app.db.coachingItem.findMany({
        ...query,
        where: {
          ...coachingWhere(viewer, { agentId, callId, view: args.view ?? null }, today),
          // An item shows its call's verdicts: none from a call its reader grades blind (src/calibration/read.ts).
          call: blindCallsWhere(viewer.id),
        },
        orderBy: [{ assignedAt: 'desc' }, { id: 'desc' }],
        take: 500,
      });
    },
  }),
  coachingReport: t.field({
    type: [CoachingReportRowRef],
    authScopes: { member: true },
    description:
      "Per agent: coaching items open, acknowledged, overdue and done, over the items assigned between `from` and `to` (days in the account's time zone; both optional).",
    args: { from: t.arg.string(), to: t.arg.string() },
    resolve: async (_r, args, ctx) => {
      const day = (v: string | null | undefined) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null);
      // As `coachingItems`: no item made from a call the reader grades blind (src/calibration/read.ts).
      const range = await blindFilter<Parameters<typeof coachingReport>[2] & object>(
        ctx.app.db,
        sessionOf(ctx).user.id,
        { from: day(args.from), to: day(args.to) },
      );
      return coachingReport(ctx.app.db, accountIdOf(ctx), range);
    },
  }),
}));

builder.mutationFields((t) => ({
  assignCoaching: t.prismaField({
    type: CoachingItem,
    authScopes: { analyst: true },
    errors: directErrors,
    description:
      "Analysts and above: assigns a coaching item to the call's agent, from one or more of the call's criteria, with what to improve, moments (seconds) and an optional due day. Errors: `not_found` (call or criterion), `not_ready`, `invalid_input`.",
    args: {
      callId: t.arg.id({ required: true }),
      criterionKeys: t.arg.stringList({ required: true }),
      improve: t.arg.string({ required: true }),
      moments: t.arg.floatList(),
      dueOn: t.arg.string({ description: "YYYY-MM-DD, in the account's time zone." }),
    },
    resolve: async (query, _r, args, ctx) => {
      const callId = parseUuid(args.callId, 'Call');
      await assertNotBlind(ctx.app.db, sessionOf(ctx).user.id, callId);
      const item = await assignCoaching(
        ctx.app.db,
        coachOf(ctx),
        {
          callId,
          criterionKeys: args.criterionKeys,
          improve: args.improve,
          moments: args.moments ?? [],
          dueOn: args.dueOn ?? null,
        },
        ctx.app.config.publicUrl,
      );
      return ctx.app.db.coachingItem.findUniqueOrThrow({ ...query, where: { id: item.id } });
    },
  }),
  acknowledgeCoaching: t.prismaField({
    type: CoachingItem,
    authScopes: { signedIn: true },
    errors: directErrors,
    description:
      'The agent the item is for (role AGENT) acknowledges it; twice keeps the first time. Errors: `forbidden` (not an agent user), `not_found`.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const item = await acknowledgeCoaching(ctx.app.db, sessionOf(ctx).user, parseUuid(args.id, 'Coaching item'));
      return ctx.app.db.coachingItem.findUniqueOrThrow({ ...query, where: { id: item.id } });
    },
  }),
  completeCoaching: t.prismaField({
    type: CoachingItem,
    authScopes: { analyst: true },
    errors: directErrors,
    description:
      'Analysts and above: marks a coaching item done with a note. Errors: `not_found`, `coaching_done`, `invalid_input`.',
    args: { id: t.arg.id({ required: true }), note: t.arg.string({ required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const id = parseUuid(args.id, 'Coaching item');
      const of = await ctx.app.db.coachingItem.findUnique({ where: { id }, select: { callId: true } });
      if (of) await assertNotBlind(ctx.app.db, sessionOf(ctx).user.id, of.callId);
      const item = await completeCoaching(ctx.app.db, coachOf(ctx), { id, note: args.note }, ctx.app.config.publicUrl);
      return ctx.app.db.coachingItem.findUniqueOrThrow({ ...query, where: { id: item.id } });
    },
  }),
}));
