import { builder } from '../builder.ts';
import { updateAccountSettings } from '../../src/accounts/accounts.ts';
import { monoSpeakersOf } from '../../src/accounts/mono-speakers.ts';
import { accountIdOf, directErrors, byUser } from './common.ts';

const Plan = builder.objectRef<{ minutes: number; seats: number; manualUploadMaxBytes: bigint }>('Plan').implement({
  fields: (t) => ({
    minutes: t.exposeInt('minutes', {
      description: 'Transcription minutes per period (calendar month in the account time zone).',
    }),
    seats: t.exposeInt('seats', { description: 'Active agents allowed.' }),
    manualUploadMaxBytes: t.float({
      description: 'Largest recording accepted by manual upload (bytes; Float because GraphQL Int is 32-bit).',
      resolve: (p) => Number(p.manualUploadMaxBytes),
    }),
  }),
});

const ScoreBands = builder.objectRef<{ good: number; fair: number }>('ScoreBands').implement({
  fields: (t) => ({
    good: t.exposeInt('good', { description: 'Lowest good score (green).' }),
    fair: t.exposeInt('fair', { description: 'Lowest fair score (amber); below it a score is poor (red).' }),
  }),
});

const MonoSpeakersEnum = builder.enumType('MonoSpeakers', {
  values: {
    OFF: { value: 'off' },
    FIRST_SPEAKER: { value: 'first_speaker' },
    GREETING: { value: 'greeting' },
  } as const,
});

export const Account = builder.prismaObject('Account', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    timeZone: t.exposeString('timeZone'),
    agentChannel: t.exposeString('agentChannel', {
      description: 'Channel of the agent on stereo recordings: `left` or `right`.',
    }),
    monoSpeakers: t.field({
      type: MonoSpeakersEnum,
      description:
        'Mono recordings: OFF keeps one speaker; FIRST_SPEAKER separates two voices and the one heard first is the agent; GREETING separates them and the voice saying the template’s agent phrases (greeting first) is the agent.',
      select: { monoSpeakers: true },
      resolve: (a) => monoSpeakersOf(a.monoSpeakers),
    }),
    scoreBands: t.field({
      type: ScoreBands,
      description: 'The web app’s score colours: good from `good` up, fair from `fair` up, poor below.',
      select: { scoreGood: true, scoreFair: true },
      resolve: (a) => ({ good: a.scoreGood, fair: a.scoreFair }),
    }),
    disputeWindowDays: t.exposeInt('disputeWindowDays', {
      description: 'Days after a call is analyzed during which its agent may acknowledge it or dispute a criterion.',
    }),
    plan: t.field({
      type: Plan,
      resolve: (a) => ({ minutes: a.planMinutes, seats: a.planSeats, manualUploadMaxBytes: a.manualUploadMaxBytes }),
    }),
    defaultTemplate: t.relation('defaultTemplate', { nullable: true, query: { where: { deletedAt: null } } }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('account', (t) =>
  t.prismaField({
    type: 'Account',
    authScopes: { member: true },
    description: 'The account of the signed-in user, with its plan.',
    resolve: (query, _root, _args, ctx) =>
      ctx.app.db.account.findUniqueOrThrow({ ...query, where: { id: accountIdOf(ctx) } }),
  }),
);

const AgentChannel = builder.enumType('AgentChannel', {
  values: { LEFT: { value: 'left' }, RIGHT: { value: 'right' } } as const,
});

builder.mutationField('updateAccountSettings', (t) =>
  t.prismaField({
    type: 'Account',
    authScopes: { admin: true },
    errors: directErrors,
    description:
      'Admins: the stereo channel that carries the agent (the other is the customer), the time zone of local times in file names and of the monthly usage period, the score colour bands (`scoreGood` and `scoreFair` together), the days agents have to acknowledge or dispute a scored call, and how the two voices of mono recordings are separated (for calls transcribed from now on). Errors: `invalid_time_zone`, `invalid_score_bands`, `invalid_dispute_window`.',
    args: {
      agentChannel: t.arg({ type: AgentChannel }),
      timeZone: t.arg.string(),
      scoreGood: t.arg.int({ description: 'Lowest good score (0–100); with scoreFair.' }),
      scoreFair: t.arg.int({ description: 'Lowest fair score, below scoreGood; with scoreGood.' }),
      disputeWindowDays: t.arg.int(),
      monoSpeakers: t.arg({ type: MonoSpeakersEnum }),
    },
    resolve: async (query, _r, args, ctx) => {
      const id = accountIdOf(ctx);
      await updateAccountSettings(
        ctx.app.db,
        id,
        {
          ...(args.agentChannel != null && { agentChannel: args.agentChannel }),
          ...(args.timeZone != null && { timeZone: args.timeZone.trim() }),
          ...((args.scoreGood != null || args.scoreFair != null) && {
            // Both or neither: one alone could silently cross the other.
            scoreBands: { good: args.scoreGood ?? Number.NaN, fair: args.scoreFair ?? Number.NaN },
          }),
          ...(args.disputeWindowDays != null && { disputeWindowDays: args.disputeWindowDays }),
          ...(args.monoSpeakers != null && { monoSpeakers: args.monoSpeakers }),
        },
        byUser(ctx),
      );
      return ctx.app.db.account.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
