import { z } from 'zod';
import { TemplateDefinition } from '../analysis/template.ts';
import type { Db } from '../db/client.ts';
import { type AuditBy, recordBy } from './audit.ts';

/** At most this many entries of the account's own list, each at most this long. */
export const VOCABULARY_MAX_ENTRIES = 500;
export const VOCABULARY_MAX_LENGTH = 60;
/** What one call's recognition is biased towards, at most (the trie stays small and fast). */
const CALL_VOCABULARY_MAX = 800;

/** The account's list as the API and the settings page take it: trimmed, no blanks, no duplicates. */
export const VocabularyInput = z
  .array(
    z
      .string()
      .transform((s) => s.trim().replace(/\s+/g, ' '))
      .pipe(z.string().max(VOCABULARY_MAX_LENGTH, `Each entry can have at most ${VOCABULARY_MAX_LENGTH} characters.`)),
  )
  .transform((words) => dedupe(words.filter(Boolean)))
  .pipe(z.array(z.string()).max(VOCABULARY_MAX_ENTRIES, `At most ${VOCABULARY_MAX_ENTRIES} entries.`));

export async function setVocabulary(
  db: Db,
  accountId: string,
  words: readonly string[],
  by?: AuditBy,
): Promise<string[]> {
  return db.$transaction(async (tx) => {
    const before = await tx.account.findUnique({ where: { id: accountId }, select: { vocabulary: true } });
    const account = await tx.account.update({ where: { id: accountId }, data: { vocabulary: [...words] } });
    const old = new Set(before?.vocabulary ?? []);
    const added = account.vocabulary.filter((w) => !old.has(w));
    const removed = [...old].filter((w) => !account.vocabulary.includes(w));
    // The words themselves: a vocabulary holds product and people's names, not secrets.
    if (by && (added.length || removed.length))
      await recordBy(tx, by, {
        accountId,
        action: 'vocabulary.changed',
        targetType: 'account',
        targetId: accountId,
        detail: { added: added.join(', '), removed: removed.join(', ') },
      });
    return account.vocabulary;
  });
}

/**
 * The words one call's recognition is biased towards: the account's own list, the phrases of the
 * template that will score it (its campaign's) or of every template of the account when that is
 * not known yet, its campaign names and its active agents' names — the words QA criteria look for.
 */
export async function callVocabulary(
  db: Db,
  call: { accountId: string; campaignId: string | null },
): Promise<string[]> {
  const [account, campaigns, agents] = await Promise.all([
    db.account.findUniqueOrThrow({ where: { id: call.accountId }, select: { vocabulary: true } }),
    db.campaign.findMany({
      where: { accountId: call.accountId, archivedAt: null },
      select: { id: true, name: true, templateId: true },
      // A fixed order: the list (and which entries the cap keeps) must not follow the table's row order,
      // or the same recording could be heard differently from one run to the next (issue 27).
      orderBy: { id: 'asc' },
    }),
    db.agent.findMany({
      where: { accountId: call.accountId, active: true },
      select: { name: true },
      orderBy: { id: 'asc' },
    }),
  ]);
  const own = campaigns.find((c) => c.id === call.campaignId)?.templateId;
  const templates = await db.template.findMany({
    where: { accountId: call.accountId, deletedAt: null, ...(own ? { id: own } : {}) },
    select: { definition: true },
    orderBy: { id: 'asc' },
  });
  const phrases = templates.flatMap((t) => templatePhrases(t.definition));
  return dedupe([
    ...account.vocabulary,
    ...phrases,
    ...campaigns.map((c) => c.name),
    ...agents.map((a) => a.name),
  ]).slice(0, CALL_VOCABULARY_MAX);
}

/**
 * Phrases of a stored template's phrase criteria and topics. Not its forbidden phrases: biasing
 * towards an insult would make the recogniser hear violations nobody said.
 */
export function templatePhrases(definition: unknown): string[] {
  const parsed = TemplateDefinition.safeParse(definition);
  if (!parsed.success) return [];
  return [
    ...parsed.data.criteria.flatMap((c) => (c.kind === 'phrase' ? c.phrases : [])),
    ...parsed.data.topics.flatMap((t) => t.phrases),
  ];
}

function dedupe(words: string[]): string[] {
  const seen = new Set<string>();
  return words.filter((w) => {
    const key = w.toLocaleLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
