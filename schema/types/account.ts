import { builder } from '../builder.ts';
import { updateAccountSettings } from '../../src/domain/accounts.ts';
import { accountIdOf, directErrors } from './common.ts';

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

export const Account = builder.prismaObject('Account', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    timeZone: t.exposeString('timeZone'),
    agentChannel: t.exposeString('agentChannel', {
      description: 'Channel of the agent on stereo recordings: `left` or `right`.',
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
      'Admins: the stereo channel that carries the agent (the other is the customer), the time zone of local times in file names and of the monthly usage period, and the days agents have to acknowledge or dispute a scored call. Errors: `invalid_time_zone`, `invalid_dispute_window`.',
    args: { agentChannel: t.arg({ type: AgentChannel }), timeZone: t.arg.string(), disputeWindowDays: t.arg.int() },
    resolve: async (query, _r, args, ctx) => {
      const id = accountIdOf(ctx);
      await updateAccountSettings(ctx.app.db, id, {
        ...(args.agentChannel != null && { agentChannel: args.agentChannel }),
        ...(args.timeZone != null && { timeZone: args.timeZone.trim() }),
        ...(args.disputeWindowDays != null && { disputeWindowDays: args.disputeWindowDays }),
      });
      return ctx.app.db.account.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
