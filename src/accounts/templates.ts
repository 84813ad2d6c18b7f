import type { Db } from '../db/client.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { parseTemplate, type TemplateDefinition, type TemplateIssue } from '../analysis/template.ts';
import { DomainError, notFound } from '../domain/errors.ts';

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
async function findLiveTemplate(db: Db, accountId: string, id: string) {
  const row = await db.template.findFirst({ where: { id, accountId, deletedAt: null } });
  if (!row) throw notFound('Template');
  return row;
}

export async function createTemplate(db: Db, accountId: string, input: TemplateInput) {
  const name = cleanName(input.name);
  const definition = validateDefinition(input.definition);
  const account = await db.account.findUnique({ where: { id: accountId }, select: { id: true } });
  if (!account) throw notFound('Account');
  return db.template.create({ data: { accountId, name, definition: definition as Prisma.InputJsonValue } });
}

export async function updateTemplate(db: Db, accountId: string, id: string, input: Partial<TemplateInput>) {
  await findLiveTemplate(db, accountId, id);
  const data: Prisma.TemplateUpdateInput = {};
  if (input.name !== undefined) data.name = cleanName(input.name);
  if (input.definition !== undefined) data.definition = validateDefinition(input.definition) as Prisma.InputJsonValue;
  return db.template.update({ where: { id }, data });
}

/**
 * Soft delete: calls analysed with the template keep pointing at it, but it stops applying to new
 * calls, so it is detached from the account default and from every campaign in the same step.
 */
export async function deleteTemplate(db: Db, accountId: string, id: string) {
  return db.$transaction(async (tx) => {
    const row = await tx.template.findFirst({ where: { id, accountId, deletedAt: null } });
    if (!row) throw notFound('Template');
    await tx.account.updateMany({ where: { id: accountId, defaultTemplateId: id }, data: { defaultTemplateId: null } });
    await tx.campaign.updateMany({ where: { accountId, templateId: id }, data: { templateId: null } });
    await tx.accountLanguageTemplate.deleteMany({ where: { accountId, templateId: id } });
    return tx.template.update({ where: { id }, data: { deletedAt: new Date() } });
  });
}

/** Sets (or with null clears) the template used by calls whose campaign has none. */
export async function setDefaultTemplate(db: Db, accountId: string, templateId: string | null) {
  const account = await db.account.findUnique({ where: { id: accountId }, select: { id: true } });
  if (!account) throw notFound('Account');
  if (templateId) await findLiveTemplate(db, accountId, templateId);
  return db.account.update({ where: { id: accountId }, data: { defaultTemplateId: templateId } });
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
) {
  if (!templateId) {
    await db.accountLanguageTemplate.deleteMany({ where: { accountId, language } });
    return;
  }
  await findLiveTemplate(db, accountId, templateId);
  await db.accountLanguageTemplate.upsert({
    where: { accountId_language: { accountId, language } },
    create: { accountId, language, templateId },
    update: { templateId, updatedAt: new Date() },
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
