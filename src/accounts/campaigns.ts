import { type Db, unlessTaken } from '../db/client.ts';
import { DomainError, found, notFound } from '../domain/errors.ts';
import { LANGUAGES, parseLanguage } from '../domain/languages.ts';
import { normalizeName } from '../domain/text.ts';

export interface CampaignInput {
  name: string;
  language?: string | null;
  templateId?: string | null;
}

async function clean(db: Db, accountId: string, input: CampaignInput) {
  const name = input.name.trim();
  if (!name) throw new DomainError('invalid_name', 'A campaign needs a name.');
  // Same reading as intake: "es", "ES" and "es-MX" all mean Spanish.
  const sent = input.language?.trim() || null;
  const language = sent ? parseLanguage(sent) : null;
  if (sent && !language) {
    throw new DomainError(
      'invalid_language',
      `"${sent}" is not a supported language code (${[...LANGUAGES].join(' ')}).`,
    );
  }
  const templateId = input.templateId || null;
  if (templateId) {
    const t = await db.template.findFirst({
      where: { id: templateId, accountId, deletedAt: null },
      select: { id: true },
    });
    if (!t) throw notFound('Template');
  }
  return { name, nameNormalized: normalizeName(name), language, templateId };
}

const nameTaken = (name: string) => () =>
  new DomainError(
    'name_taken',
    `A campaign named "${name}" already exists (names are compared ignoring case and accents).`,
  );

export async function createCampaign(db: Db, accountId: string, input: CampaignInput) {
  const data = await clean(db, accountId, input);
  return unlessTaken(() => db.campaign.create({ data: { accountId, ...data } }), nameTaken(data.name));
}

export async function updateCampaign(db: Db, accountId: string, id: string, input: Partial<CampaignInput>) {
  const existing = await found(db.campaign.findFirst({ where: { id, accountId } }), 'Campaign');
  const data = await clean(db, accountId, {
    name: input.name ?? existing.name,
    language: input.language === undefined ? existing.language : input.language,
    templateId: input.templateId === undefined ? existing.templateId : input.templateId,
  });
  return unlessTaken(() => db.campaign.update({ where: { id }, data }), nameTaken(data.name));
}

export async function setCampaignArchived(db: Db, accountId: string, id: string, archived: boolean) {
  const existing = await found(db.campaign.findFirst({ where: { id, accountId } }), 'Campaign');
  return db.campaign.update({
    where: { id },
    data: { archivedAt: archived ? (existing.archivedAt ?? new Date()) : null },
  });
}

export async function findCampaignByName(db: Db, accountId: string, name: string) {
  return db.campaign.findFirst({ where: { accountId, nameNormalized: normalizeName(name) } });
}
