import type { Db } from '../db/client.ts';
import { DomainError } from '../domain/errors.ts';
import { normalizeCode, normalizeName } from '../domain/text.ts';

export interface AgentRef {
  id: string;
  codeNormalized: string | null;
}

/**
 * The agent rule of the intake document: `agent_code` (or, when nobody has that code,
 * `agent_name`), else a telephony code in the file name. A sent code or name that matches no
 * active agent is `unknown_agent`; the file name is not consulted then.
 */
export async function resolveAgent(
  db: Db,
  accountId: string,
  sent: { code?: string; name?: string },
  fileNameCandidates: string[],
): Promise<AgentRef> {
  const select = { id: true, codeNormalized: true, name: true } as const;
  if (sent.code) {
    const code = normalizeCode(sent.code);
    const agent = code
      ? await db.agent.findFirst({ where: { accountId, codeNormalized: code, active: true }, select })
      : null;
    if (agent) return agent;
  }
  if (sent.name) {
    const agents = await db.agent.findMany({
      where: { accountId, nameNormalized: normalizeName(sent.name), active: true },
      select,
      take: 2,
    });
    if (agents.length > 1) {
      throw new DomainError(
        'ambiguous_agent',
        `More than one agent in the team is named "${sent.name}"; send agent_code to say which one.`,
      );
    }
    if (agents[0]) return agents[0];
  }
  if (sent.code || sent.name) {
    const what = [sent.code && `code "${sent.code}"`, sent.name && `name "${sent.name}"`].filter(Boolean).join(' or ');
    throw new DomainError(
      'unknown_agent',
      `No active agent in the team has the ${what}. Add the agent in the app's team section first.`,
    );
  }
  if (fileNameCandidates.length) {
    const agents = await db.agent.findMany({
      where: { accountId, active: true, codeNormalized: { in: fileNameCandidates } },
      select,
    });
    for (const candidate of fileNameCandidates) {
      const agent = agents.find((a) => a.codeNormalized === candidate);
      if (agent) return agent;
    }
  }
  throw new DomainError(
    'agent_required',
    "The recording doesn't say whose it is: send agent_code or agent_name, or put the agent's telephony code in the file name.",
  );
}
