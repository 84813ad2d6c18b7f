import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { parseColumn, Segments } from '../../src/call-columns.ts';
import { applyBenchmark } from '../../src/calibration/apply.ts';
import { listSessions, readSession, type SessionView } from '../../src/calibration/read.ts';
import type { Alignment, Cell, CriterionAgreement } from '../../src/calibration/results.ts';
import { closeSession, createSession, saveAnswers } from '../../src/calibration/sessions.ts';
import { notFound } from '../../src/domain/errors.ts';
import { Account } from './account.ts';
import { CallFilter, CriterionOutcomeEnum, cleanFilter, SegmentRef } from './call.ts';
import { directErrors, parseUuid, sessionOf, byId } from './common.ts';

/*
 * Calibration sessions (issue 31.1). Blindness is enforced here, not in the app: while a session is
 * open a grader reads only their own answers (`myAnswers`), `results` is null for everyone, a
 * session's call carries its recording and transcript but never a score or verdict, and the
 * `call` lookup hides the calls of a grader's open sessions (src/calibration/read.ts).
 */

const viewerOf = (ctx: GraphQLContext) => {
  const u = sessionOf(ctx).user;
  return { id: u.id, accountId: u.accountId, role: u.role, name: u.name };
};

const CalibrationStatusEnum = builder.enumType('CalibrationStatus', {
  description: 'OPEN: graders are answering, blind. CLOSED: everyone answered or a manager closed it; results show.',
  values: { OPEN: { value: 'open' }, CLOSED: { value: 'closed' } } as const,
});

const CalibrationCriterion = builder.objectRef<{ key: string; label: string }>('CalibrationCriterion').implement({
  description: "A criterion of the session's template, as it was when the session was made.",
  fields: (t) => ({ key: t.exposeString('key'), label: t.exposeString('label') }),
});

interface CallShape {
  id: string;
  startedAt: Date;
  durationSeconds: number | null;
  language: string | null;
  detectedLanguage: string | null;
  segments: unknown;
  agent: { name: string };
}

const CalibrationCall = builder.objectRef<CallShape & { position: number }>('CalibrationCall').implement({
  description:
    'A call to grade: what a grader may see of it (recording and transcript), never its score or the machine’s verdicts.',
  fields: (t) => ({
    callId: t.id({ resolve: (c) => c.id }),
    position: t.exposeInt('position', { description: 'Order in the session, from 1.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    durationSeconds: t.exposeFloat('durationSeconds', { nullable: true }),
    language: t.string({ nullable: true, resolve: (c) => c.language ?? c.detectedLanguage }),
    agentName: t.string({ resolve: (c) => c.agent.name }),
    transcript: t.field({
      type: [SegmentRef],
      nullable: true,
      resolve: (c) => parseColumn(Segments, c.segments),
    }),
    recordingUrl: t.string({
      description: 'Download of the recording (needs the session cookie).',
      resolve: (c, _a, ctx) => `${ctx.app.config.publicUrl}/api/calls/${c.id}/recording`,
    }),
  }),
});

const CalibrationGrader = builder.objectRef<SessionView['graders'][number]>('CalibrationGrader').implement({
  description: 'A grader of the session and how far along they are (never their answers while open).',
  fields: (t) => ({
    userId: t.id({ resolve: (g) => g.userId }),
    name: t.exposeString('name'),
    benchmark: t.exposeBoolean('benchmark', {
      description: 'The benchmark grader, whom the others are compared with.',
    }),
    submitted: t.exposeBoolean('submitted', { description: 'Answered every criterion of every call.' }),
    answered: t.exposeInt('answered', { description: 'Answers given so far.' }),
  }),
});

const CalibrationAnswer = builder
  .objectRef<{ callId: string; criterionKey: string; result: 'passed' | 'failed' | 'na' }>('CalibrationAnswer')
  .implement({
    fields: (t) => ({
      callId: t.id({ resolve: (a) => a.callId }),
      criterionKey: t.exposeString('criterionKey'),
      result: t.field({ type: CriterionOutcomeEnum, resolve: (a) => a.result }),
    }),
  });

const GraderAnswer = builder
  .objectRef<{ userId: string; result: 'passed' | 'failed' | 'na' | null }>('CalibrationGraderAnswer')
  .implement({
    fields: (t) => ({
      userId: t.id({ resolve: (a) => a.userId }),
      result: t.field({ type: CriterionOutcomeEnum, nullable: true, resolve: (a) => a.result }),
    }),
  });

const CalibrationCell = builder.objectRef<Cell>('CalibrationCell').implement({
  description: 'One call × criterion of a closed session: every answer side by side.',
  fields: (t) => ({
    callId: t.id({ resolve: (c) => c.callId }),
    criterionKey: t.exposeString('criterionKey'),
    answers: t.field({
      type: [GraderAnswer],
      description: 'Each grader (not the benchmark), in the order of `graders`.',
      resolve: (c) => c.answers,
    }),
    benchmark: t.field({ type: CriterionOutcomeEnum, nullable: true, resolve: (c) => c.benchmark }),
    majority: t.field({
      type: CriterionOutcomeEnum,
      nullable: true,
      description: "The graders' strict majority; null on a tie.",
      resolve: (c) => c.majority,
    }),
    machine: t.field({
      type: CriterionOutcomeEnum,
      nullable: true,
      description: "The automatic analysis's verdict when the session closed.",
      resolve: (c) => c.machine,
    }),
  }),
});

const CalibrationAlignment = builder.objectRef<Alignment>('CalibrationAlignment').implement({
  description: 'How often a grader (or the machine) gave the benchmark’s answer, and the majority’s.',
  fields: (t) => ({
    userId: t.id({ nullable: true, description: 'Null for the machine.', resolve: (a) => a.userId }),
    name: t.exposeString('name'),
    answered: t.exposeInt('answered'),
    benchmarkMatches: t.exposeInt('benchmarkMatches'),
    benchmarkCompared: t.exposeInt('benchmarkCompared'),
    benchmarkAlignment: t.exposeFloat('benchmarkAlignment', { nullable: true, description: '0–1.' }),
    majorityMatches: t.exposeInt('majorityMatches'),
    majorityCompared: t.exposeInt('majorityCompared'),
    majorityAlignment: t.exposeFloat('majorityAlignment', { nullable: true, description: '0–1.' }),
  }),
});

const CalibrationCriterionAgreement = builder.objectRef<CriterionAgreement>('CalibrationCriterionAgreement').implement({
  description:
    "How much the graders agreed on a criterion, over the calls every grader answered: percent agreement (share of calls where every grader gave the same answer) and Fleiss' kappa (agreement beyond chance: 1 perfect, 0 chance; null when undefined); also with the machine as one more grader.",
  fields: (t) => ({
    key: t.exposeString('key'),
    label: t.exposeString('label'),
    calls: t.exposeInt('calls'),
    percentAgreement: t.exposeFloat('percentAgreement', { nullable: true, description: '0–1.' }),
    fleissKappa: t.exposeFloat('fleissKappa', { nullable: true }),
    percentAgreementWithMachine: t.exposeFloat('percentAgreementWithMachine', { nullable: true }),
    fleissKappaWithMachine: t.exposeFloat('fleissKappaWithMachine', { nullable: true }),
  }),
});

const CalibrationResults = builder.objectRef<NonNullable<SessionView['results']>>('CalibrationResults').implement({
  fields: (t) => ({
    cells: t.field({ type: [CalibrationCell], resolve: (r) => r.cells }),
    graders: t.field({ type: [CalibrationAlignment], resolve: (r) => r.graders }),
    machine: t.field({ type: CalibrationAlignment, resolve: (r) => r.machine }),
    criteria: t.field({ type: [CalibrationCriterionAgreement], resolve: (r) => r.criteria }),
  }),
});

const CalibrationSeatEnum = builder.enumType('CalibrationSeat', {
  values: { GRADER: { value: 'grader' }, BENCHMARK: { value: 'benchmark' } } as const,
});

const CalibrationSession = builder.objectRef<SessionView>('CalibrationSession').implement({
  description:
    'A calibration: graders score the same calls blind, then compare with each other, the benchmark and the machine.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    status: t.field({ type: CalibrationStatusEnum, resolve: (s) => s.status }),
    templateName: t.exposeString('templateName', { nullable: true }),
    createdByName: t.exposeString('createdByName', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    closedAt: t.expose('closedAt', { type: 'DateTime', nullable: true }),
    appliedAt: t.expose('appliedAt', {
      type: 'DateTime',
      nullable: true,
      description: "When a manager applied the benchmark's answers to the calls as overrides.",
    }),
    criteria: t.field({ type: [CalibrationCriterion], resolve: (s) => s.criteria }),
    calls: t.field({
      type: [CalibrationCall],
      resolve: async (s, _a, ctx) => {
        const rows = await ctx.app.db.call.findMany({
          where: { id: { in: s.callIds }, accountId: sessionOf(ctx).user.accountId },
          select: {
            id: true,
            startedAt: true,
            durationSeconds: true,
            language: true,
            detectedLanguage: true,
            segments: true,
            agent: { select: { name: true } },
          },
        });
        return s.callIds.flatMap((id, i) => {
          const row = rows.find((r) => r.id === id);
          return row ? [{ ...row, position: i + 1 }] : [];
        });
      },
    }),
    graders: t.field({ type: [CalibrationGrader], resolve: (s) => s.graders }),
    mySeat: t.field({ type: CalibrationSeatEnum, nullable: true, resolve: (s) => s.mySeat }),
    canManage: t.exposeBoolean('canManage', {
      description: 'The viewer may close the session and apply the benchmark.',
    }),
    myAnswers: t.field({ type: [CalibrationAnswer], resolve: (s) => s.myAnswers }),
    results: t.field({
      type: CalibrationResults,
      nullable: true,
      description: 'Null while the session is open: graders answer blind.',
      resolve: (s) => s.results,
    }),
  }),
});

builder.queryFields((t) => ({
  calibrationSessions: t.field({
    type: [CalibrationSession],
    authScopes: { analyst: true },
    description:
      'Calibration sessions, newest first (up to 100): every one of the account for managers (admins and above), those they grade for analysts.',
    resolve: (_r, _a, ctx) => listSessions(ctx.app.db, viewerOf(ctx)),
  }),
  calibrationSession: t.field({
    type: CalibrationSession,
    nullable: true,
    authScopes: { analyst: true },
    description: 'A calibration session; null when unknown, of another account, or not one the analyst grades.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => byId(args.id, (id) => readSession(ctx.app.db, viewerOf(ctx), id)),
  }),
}));

const CreateCalibrationInput = builder.inputType('CreateCalibrationSessionInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    templateId: t.id({ required: true, description: 'The template whose criteria every grader answers.' }),
    callIds: t.idList({ description: 'Calls picked by hand (analyzed; at most 50)…' }),
    filter: t.field({
      type: CallFilter,
      description: '…or a random sample of the analyzed calls matching a calls-list filter.',
    }),
    sampleSize: t.int({ description: 'With `filter`: how many calls to sample (1–50).' }),
    graderIds: t.idList({ required: true, description: 'Users who grade (analysts and above; 1–20).' }),
    benchmarkUserId: t.id({ description: 'Optional benchmark grader (not also one of the graders).' }),
  }),
});

const CalibrationAnswerInput = builder.inputType('CalibrationAnswerInput', {
  fields: (t) => ({
    key: t.string({ required: true, description: 'A criterion key of the session.' }),
    result: t.field({ type: CriterionOutcomeEnum, required: true }),
  }),
});

const read = async (ctx: GraphQLContext, id: string) => {
  const s = await readSession(ctx.app.db, viewerOf(ctx), id);
  if (!s) throw notFound('Calibration session');
  return s;
};

builder.mutationFields((t) => ({
  createCalibrationSession: t.field({
    type: CalibrationSession,
    authScopes: { admin: true },
    errors: directErrors,
    description:
      'Managers (admins and above): starts a calibration of some calls (by hand, or a random sample of a filter) by graders, optionally against a benchmark grader. Errors: `not_found`, `not_ready` (a call not analyzed), `invalid_input`.',
    args: { input: t.arg({ type: CreateCalibrationInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      const ids = (list: readonly (string | number)[] | null | undefined, what: string) =>
        list?.map((id) => parseUuid(id, what)) ?? null;
      const session = await createSession(ctx.app.db, viewerOf(ctx), {
        name: input.name,
        templateId: parseUuid(input.templateId, 'Template'),
        callIds: ids(input.callIds, 'Call'),
        filter: input.filter ? cleanFilter(input.filter) : null,
        sampleSize: input.sampleSize ?? null,
        graderIds: ids(input.graderIds, 'User') ?? [],
        benchmarkUserId: input.benchmarkUserId ? parseUuid(input.benchmarkUserId, 'User') : null,
      });
      return read(ctx, session.id);
    },
  }),
  saveCalibrationAnswers: t.field({
    type: CalibrationSession,
    authScopes: { analyst: true },
    errors: directErrors,
    description:
      "A grader's answers for one call of an open session (some or all criteria; answering again replaces). The session closes by itself when every grader has answered everything. Errors: `not_found` (not a grader of it), `calibration_closed`, `invalid_input`.",
    args: {
      sessionId: t.arg.id({ required: true }),
      callId: t.arg.id({ required: true }),
      answers: t.arg({ type: [CalibrationAnswerInput], required: true }),
    },
    resolve: async (_r, args, ctx) => {
      const sessionId = parseUuid(args.sessionId, 'Calibration session');
      await saveAnswers(ctx.app.db, viewerOf(ctx), sessionId, parseUuid(args.callId, 'Call'), args.answers);
      return read(ctx, sessionId);
    },
  }),
  closeCalibrationSession: t.field({
    type: CalibrationSession,
    authScopes: { admin: true },
    errors: directErrors,
    description:
      'Managers: closes an open session before everyone has answered; results then show. Errors: `not_found`, `calibration_closed`.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const id = parseUuid(args.id, 'Calibration session');
      await closeSession(ctx.app.db, viewerOf(ctx), id);
      return read(ctx, id);
    },
  }),
  applyCalibrationBenchmark: t.field({
    type: CalibrationSession,
    authScopes: { admin: true },
    errors: directErrors,
    description:
      "Managers: applies the benchmark's answers of a closed session to its calls as overrides (only where they differ; score, history, audit and webhooks as any override). The only way a calibration changes a call. Errors: `not_found`, `not_ready` (still open), `invalid_input` (no benchmark), `calibration_closed` (already applied).",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const id = parseUuid(args.id, 'Calibration session');
      await applyBenchmark(ctx.app.db, viewerOf(ctx), id, ctx.app.config.publicUrl);
      return read(ctx, id);
    },
  }),
}));

builder.prismaObjectFields(Account, (t) => ({
  machineAgreementThreshold: t.exposeInt('machineAgreementThreshold', {
    description: 'Percent: a criterion whose machine agreement falls below it is flagged (dashboard, template editor).',
  }),
}));
