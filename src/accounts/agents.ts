import { type Db, unlessTaken } from '../db/client.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { DomainError, found, notFound } from '../domain/errors.ts';
import { normalizeCode, normalizeName } from '../domain/text.ts';

export interface AgentInput {
  name: string;
  code?: string | null;
}

function clean(input: AgentInput) {
  const name = input.name.trim();
  if (!name) throw new DomainError('invalid_name', 'An agent needs a name.');
  const code = input.code?.trim() || null;
  const codeNormalized = code ? normalizeCode(code) : null;
  if (code && !codeNormalized) throw new DomainError('invalid_code', 'The telephony code has no letters or digits.');
  return { name, nameNormalized: normalizeName(name), code, codeNormalized };
}

/** Serialises seat checks per account so two concurrent creations cannot both take the last seat. */
async function lockAccount(tx: Prisma.TransactionClient, accountId: string) {
  const [account] = await tx.$queryRaw<
    { plan_seats: number }[]
  >`SELECT plan_seats FROM accounts WHERE id = ${accountId}::uuid FOR UPDATE`;
  if (!account) throw notFound('Account');
  return account;
}

async function assertSeatFree(tx: Prisma.TransactionClient, accountId: string) {
  const account = await lockAccount(tx, accountId);
  const used = await tx.agent.count({ where: { accountId, active: true } });
  if (used >= account.plan_seats) {
    throw new DomainError(
      'seat_limit',
      `All ${account.plan_seats} agent seats of the plan are in use; deactivate an agent or upgrade the plan.`,
      { seats: account.plan_seats },
    );
  }
}

const codeTaken = (code: string | null) => () =>
  new DomainError(
    'code_taken',
    `Another agent already has the telephony code "${code}" (codes are compared ignoring case, hyphens, underscores and spaces).`,
  );

export async function createAgent(db: Db, accountId: string, input: AgentInput) {
  const data = clean(input);
  return unlessTaken(
    () =>
      db.$transaction(async (tx) => {
        await assertSeatFree(tx, accountId);
        return tx.agent.create({ data: { accountId, ...data } });
      }),
    codeTaken(data.code),
  );
}

export async function updateAgent(db: Db, accountId: string, id: string, input: Partial<AgentInput>) {
  const existing = await found(db.agent.findFirst({ where: { id, accountId } }), 'Agent');
  const data = clean({
    name: input.name ?? existing.name,
    code: input.code === undefined ? existing.code : input.code,
  });
  return unlessTaken(() => db.agent.update({ where: { id }, data }), codeTaken(data.code));
}

export async function setAgentActive(db: Db, accountId: string, id: string, active: boolean) {
  return db.$transaction(async (tx) => {
    const existing = await found(tx.agent.findFirst({ where: { id, accountId } }), 'Agent');
    if (existing.active === active) return existing;
    if (active) await assertSeatFree(tx, accountId);
    return tx.agent.update({ where: { id }, data: { active, deactivatedAt: active ? null : new Date() } });
  });
}
