import { z } from 'zod';
import { builder } from '../builder.ts';
import { createAgent, setAgentActive, updateAgent } from '../../src/accounts/agents.ts';
import { accountIdOf, cachedRows, directErrors, parseUuid, byId } from './common.ts';
import { parseInput } from './errors.ts';

export const Agent = builder.prismaObject('Agent', {
  description: 'A person whose calls are analyzed. Each active agent occupies a seat of the plan.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    // Not `code`: that name belongs to Error.code, and GraphQL forbids one response field with two types in a union selection.
    telephonyCode: t.exposeString('code', {
      nullable: true,
      description:
        'Telephony-system code (intake `agent_code`); unique per account ignoring case, hyphens, underscores and spaces.',
    }),
    active: t.exposeBoolean('active'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    deactivatedAt: t.expose('deactivatedAt', { type: 'DateTime', nullable: true }),
  }),
});

const Seats = builder.objectRef<{ used: number; total: number }>('Seats').implement({
  fields: (t) => ({
    used: t.exposeInt('used', { description: 'Active agents.' }),
    total: t.exposeInt('total', { description: 'Seats of the plan.' }),
    available: t.int({ resolve: (s) => Math.max(0, s.total - s.used) }),
  }),
});

const AgentInput = builder.inputType('AgentInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    telephonyCode: t.string({ description: 'Telephony code; empty or null for none.' }),
  }),
});
const AgentPatch = builder.inputType('AgentPatch', {
  description: 'Only the fields given change; `telephonyCode: null` removes the code.',
  fields: (t) => ({ name: t.string(), telephonyCode: t.string() }),
});

const Name = z.string().trim().min(1, 'An agent needs a name.').max(200, 'Names can have at most 200 characters.');
const Code = z.string().max(100, 'Codes can have at most 100 characters.').nullish();

builder.queryFields((t) => ({
  agents: t.prismaField({
    type: ['Agent'],
    authScopes: { member: true },
    args: { includeInactive: t.arg.boolean({ defaultValue: false }) },
    resolve: (query, _r, args, ctx) =>
      cachedRows(ctx, `agents(${!!args.includeInactive})`, query, () =>
        ctx.app.db.agent.findMany({
          ...query,
          where: { accountId: accountIdOf(ctx), ...(args.includeInactive ? {} : { active: true }) },
          orderBy: [{ active: 'desc' }, { name: 'asc' }],
        }),
      ),
  }),
  agent: t.prismaField({
    type: 'Agent',
    nullable: true,
    authScopes: { member: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) =>
      byId(args.id, (id) => ctx.app.db.agent.findFirst({ ...query, where: { id, accountId: accountIdOf(ctx) } })),
  }),
  seats: t.field({
    type: Seats,
    authScopes: { member: true },
    description: 'Seats used by active agents versus seats of the plan.',
    resolve: async (_r, _a, ctx) => {
      const accountId = accountIdOf(ctx);
      const [account, used] = await Promise.all([
        ctx.app.db.account.findUniqueOrThrow({ where: { id: accountId }, select: { planSeats: true } }),
        ctx.app.db.agent.count({ where: { accountId, active: true } }),
      ]);
      return { used, total: account.planSeats };
    },
  }),
}));

builder.mutationFields((t) => ({
  createAgent: t.field({
    type: Agent,
    authScopes: { admin: true },
    errors: directErrors,
    description: 'Owners and admins (agents occupy paid seats). Errors: `seat_limit`, `code_taken`, `invalid_*`.',
    args: { input: t.arg({ type: AgentInput, required: true }) },
    resolve: (_r, { input }, ctx) => {
      const data = parseInput(z.object({ name: Name, telephonyCode: Code }), input);
      return createAgent(ctx.app.db, accountIdOf(ctx), { name: data.name, code: data.telephonyCode ?? null });
    },
  }),
  updateAgent: t.field({
    type: Agent,
    authScopes: { admin: true },
    errors: directErrors,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: AgentPatch, required: true }) },
    resolve: (_r, { id, input }, ctx) => {
      const data = parseInput(z.object({ name: Name.nullish(), telephonyCode: Code }), input);
      const patch = {
        ...(data.name != null && { name: data.name }),
        ...(input.telephonyCode !== undefined && { code: data.telephonyCode ?? null }),
      };
      return updateAgent(ctx.app.db, accountIdOf(ctx), parseUuid(id, 'Agent'), patch);
    },
  }),
  deactivateAgent: t.field({
    type: Agent,
    authScopes: { admin: true },
    errors: directErrors,
    description: "Frees the seat; the agent's calls stay, and intake no longer matches the agent.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => setAgentActive(ctx.app.db, accountIdOf(ctx), parseUuid(id, 'Agent'), false),
  }),
  reactivateAgent: t.field({
    type: Agent,
    authScopes: { admin: true },
    errors: directErrors,
    description: 'Takes a seat again; fails with `seat_limit` when none is free.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => setAgentActive(ctx.app.db, accountIdOf(ctx), parseUuid(id, 'Agent'), true),
  }),
}));
