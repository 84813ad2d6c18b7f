import type { Db, Tx } from '../db/client.ts';
import { type AuditBy, recordBy } from './audit.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { parseTemplate, type TemplateDefinition, type TemplateIssue } from '../analysis/template.ts';
import { DomainError, found, notFound } from '../domain/errors.ts';

export interface TemplateInput {
  name: string;
  /** Parsed JSON or JSON text, exactly as the author wrote it. */
  definition: unknown;
}

/** What the analysis needs: the definition is re-validated on read, so callers get the typed form. */
export interface ApplicableTemplate {
  id: string;
  name: string;
  definition: TemplateDefinition;
}

const NAME_MAX = 200;

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new DomainError('invalid_name', 'A template needs a name.');
  if (trimmed.length > NAME_MAX)
    throw new DomainError('invalid_name', `A template name must be at most ${NAME_MAX} characters.`);
  return trimmed;
}

function describeIssues(issues: readonly TemplateIssue[]): string {
  const list = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  return `The template is invalid (${issues.length} problem${issues.length === 1 ? '' : 's'}): ${list}`;
}

/** Validates and normalises a definition; the stored form has every default filled in. */
export function validateDefinition(definition: unknown): TemplateDefinition {
  const parsed = parseTemplate(definition);
  if (!parsed.ok) throw new DomainError('invalid_template', describeIssues(parsed.issues), { issues: parsed.issues });
  return parsed.template;
}

// The accounts → templates foreign key does not know about tenants, so every lookup carries the
// account id: a template id from another account is indistinguishable from one that never existed.
async function findLiveTemplate(db: Tx, accountId: string, id: string) {
  const row = await found(db.template.findFirst({ where: { id, accountId, deletedAt: null } }), 'Template');
  return row;
}

export async function createTemplate(db: Db, accountId: string, input: TemplateInput, by?: AuditBy) {
  const name = cleanName(input.name);
  const definition = validateDefinition(input.definition);
  await found(db.account.findUnique({ where: { id: accountId }, select: { id: true } }), 'Account');
  return db.$transaction(async (tx) => {
    const created = await tx.template.create({
      data: { accountId, name, definition: definition as Prisma.InputJsonValue },
    });
    if (by)
      await recordBy(tx, by, {
        accountId,
        action: 'template.created',
        targetType: 'template',
        targetId: created.id,
        detail: { name, criteria: definition.criteria.length },
      });
    return created;
  });
}

type CriterionLike = { key: string; label?: string };
const criteriaOf = (definition: unknown): CriterionLike[] =>
  ((definition as { criteria?: CriterionLike[] } | null)?.criteria ?? []).filter((c) => c && typeof c.key === 'string');

/** What an edit changed, for the audit log: the name, and the criteria added, removed or changed (by label). */
function templateChanges(before: { name: string; definition: unknown }, name: string, definition: unknown) {
  const detail: Record<string, Prisma.InputJsonValue> = {};
  if (before.name !== name) detail.name = { from: before.name, to: name };
  const old = new Map(criteriaOf(before.definition).map((c) => [c.key, c]));
  const now = criteriaOf(definition);
  const label = (c: CriterionLike) => c.label || c.key;
  const added = now.filter((c) => !old.has(c.key)).map(label);
  const removed = [...old.values()].filter((c) => !now.some((n) => n.key === c.key)).map(label);
  const changed = now.filter((c) => old.has(c.key) && JSON.stringify(old.get(c.key)) !== JSON.stringify(c)).map(label);
  if (added.length) detail.criteriaAdded = added.join(', ');
  if (removed.length) detail.criteriaRemoved = removed.join(', ');
  if (changed.length) detail.criteriaChanged = changed.join(', ');
  const rest = (d: unknown) => JSON.stringify({ ...(d as object), criteria: undefined });
  if (rest(before.definition) !== rest(definition)) detail.settingsChanged = true;
  return detail;
}

export async function updateTemplate(
  db: Db,
  accountId: string,
  id: string,
  input: Partial<TemplateInput>,
  by?: AuditBy,
) {
  const data: Prisma.TemplateUpdateInput = {};
  if (input.name !== undefined) data.name = cleanName(input.name);
  if (input.definition !== undefined) data.definition = validateDefinition(input.definition) as Prisma.InputJsonValue;
  return db.$transaction(async (tx) => {
    const before = await findLiveTemplate(tx, accountId, id);
    const updated = await tx.template.update({ where: { id }, data });
    const detail = templateChanges(before, updated.name, updated.definition);
    if (by && Object.keys(detail).length)
      await recordBy(tx, by, {
        accountId,
        action: 'template.updated',
        targetType: 'template',
        targetId: id,
        detail: { ...(detail.name ? {} : { template: updated.name }), ...detail },
      });
    return updated;
  });
}

/**
 * Soft delete: calls analysed with the template keep pointing at it, but it stops applying to new
 * calls, so it is detached from the account default and from every campaign in the same step.
 */
export async function deleteTemplate(db: Db, accountId: string, id: string, by?: AuditBy) {
  return db.$transaction(async (tx) => {
    const row = await found(tx.template.findFirst({ where: { id, accountId, deletedAt: null } }), 'Template');
    await tx.account.updateMany({ where: { id: accountId, defaultTemplateId: id }, data: { defaultTemplateId: null } });
    await tx.campaign.updateMany({ where: { accountId, templateId: id }, data: { templateId: null } });
    await tx.accountLanguageTemplate.deleteMany({ where: { accountId, templateId: id } });
    if (by)
      await recordBy(tx, by, {
        accountId,
        action: 'template.deleted',
        targetType: 'template',
        targetId: id,
        detail: { name: row.name },
      });
    return tx.template.update({ where: { id }, data: { deletedAt: new Date() } });
  });
}

/** Sets (or with null clears) the template used by calls whose campaign has none. */
export async function setDefaultTemplate(db: Db, accountId: string, templateId: string | null, by?: AuditBy) {
  return db.$transaction(async (tx) => {
    const account = await tx.account.findUnique({
      where: { id: accountId },
      select: { id: true, defaultTemplate: { select: { id: true, name: true } } },
    });
    if (!account) throw notFound('Account');
    const to = templateId ? await findLiveTemplate(tx, accountId, templateId) : null;
    const updated = await tx.account.update({ where: { id: accountId }, data: { defaultTemplateId: templateId } });
    const from = account.defaultTemplate;
    if (by && (from?.id ?? null) !== templateId)
      await recordBy(tx, by, {
        accountId,
        action: 'template.default_changed',
        targetType: 'template',
        targetId: to?.id ?? from?.id ?? null,
        detail: { from: from?.name ?? null, to: to?.name ?? null },
      });
    return updated;
  });
}

export async function getTemplate(db: Db, accountId: string, id: string) {
  return findLiveTemplate(db, accountId, id);
}

export async function listTemplates(db: Db, accountId: string) {
  return db.template.findMany({ where: { accountId, deletedAt: null }, orderBy: { createdAt: 'asc' } });
}

type TemplateRow = { id: string; accountId: string; name: string; definition: unknown; deletedAt: Date | null };

function usable(row: TemplateRow | null | undefined, accountId: string): ApplicableTemplate | null {
  if (!row || row.deletedAt || row.accountId !== accountId) return null;
  return { id: row.id, name: row.name, definition: validateDefinition(row.definition) };
}

/** The template routing chose for a call, and whether it is in another language than the call. */
export interface RoutedTemplate extends ApplicableTemplate {
  /** How it was chosen: the call's campaign, the account's default for the call's language, or the account's any-language default. */
  via: 'campaign' | 'language' | 'default';
  /** The template's language differs from the call's: scored anyway (the intake document), but flagged. */
  languageMismatch: boolean;
}

/**
 * The template a call is scored with: its campaign's; else the account's default for the call's
 * language (sent, else its campaign's, else detected); else the account's any-language default;
 * else none. A template whose `language` is set and differs from the call's still scores the call
 * and is reported as a mismatch.
 */
export async function getApplicableTemplate(
  db: Db,
  call: { accountId: string; campaignId?: string | null; language?: string | null },
): Promise<RoutedTemplate | null> {
  let language = call.language ?? null;
  const routed = (t: ApplicableTemplate | null, via: RoutedTemplate['via']): RoutedTemplate | null =>
    t && {
      ...t,
      via,
      languageMismatch: !!(language && t.definition.language && t.definition.language !== language),
    };
  if (call.campaignId) {
    const campaign = await db.campaign.findFirst({
      where: { id: call.campaignId, accountId: call.accountId },
      select: { template: true, language: true },
    });
    language ??= campaign?.language ?? null;
    const fromCampaign = routed(usable(campaign?.template, call.accountId), 'campaign');
    if (fromCampaign) return fromCampaign;
  }
  if (language) {
    const row = await db.accountLanguageTemplate.findUnique({
      where: { accountId_language: { accountId: call.accountId, language } },
      select: { template: true },
    });
    const forLanguage = routed(usable(row?.template, call.accountId), 'language');
    if (forLanguage) return forLanguage;
  }
  const account = await db.account.findUnique({ where: { id: call.accountId }, select: { defaultTemplate: true } });
  return routed(usable(account?.defaultTemplate, call.accountId), 'default');
}

/** Sets (or with null clears) the account's default template for calls in `language`. */
export async function setLanguageDefaultTemplate(
  db: Db,
  accountId: string,
  language: string,
  templateId: string | null,
  by?: AuditBy,
) {
  await db.$transaction(async (tx) => {
    const before = await tx.accountLanguageTemplate.findUnique({
      where: { accountId_language: { accountId, language } },
      select: { template: { select: { id: true, name: true } } },
    });
    const to = templateId ? await findLiveTemplate(tx, accountId, templateId) : null;
    if (!templateId) await tx.accountLanguageTemplate.deleteMany({ where: { accountId, language } });
    else
      await tx.accountLanguageTemplate.upsert({
        where: { accountId_language: { accountId, language } },
        create: { accountId, language, templateId },
        update: { templateId, updatedAt: new Date() },
      });
    const from = before?.template ?? null;
    if (by && (from?.id ?? null) !== (to?.id ?? null))
      await recordBy(tx, by, {
        accountId,
        action: 'template.language_default_changed',
        targetType: 'template',
        targetId: to?.id ?? from?.id ?? null,
        detail: { language, from: from?.name ?? null, to: to?.name ?? null },
      });
  });
}

/** The account's default template per language, by language. */
export async function languageDefaults(db: Db, accountId: string) {
  return db.accountLanguageTemplate.findMany({
    where: { accountId, template: { deletedAt: null } },
    orderBy: { language: 'asc' },
    include: { template: true },
  });
}
