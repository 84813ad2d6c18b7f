import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { AppContext } from '../context.ts';
import { DomainError, notFound } from '../domain/errors.ts';
import { parseLanguage } from '../domain/languages.ts';
import { periodOf } from '../domain/period.ts';
import { assertCleanText, normalizeCode, normalizeName, stripControls, truncate } from '../domain/text.ts';
import { minutesForBytes } from '../accounts/usage.ts';
import { detectAudioType } from './audio-type.ts';
import { badRequest } from './errors.ts';
import { parseFileName } from './filename.ts';
import type { ReceivedFile } from './multipart.ts';
import { insertQueuedCall, readIntakeFacts } from './intake-sql.ts';
import { resolveAgent } from './resolve-agent.ts';
import type { RequestCount } from './rate-limit.ts';
import { parseStartedAt } from './started-at.ts';

export interface AcceptInput {
  accountId: string;
  source: 'api' | 'upload';
  file: ReceivedFile;
  /** Raw form fields as sent (names of the intake document §2). */
  fields: Record<string, string | undefined>;
  /** Manual upload's pickers: used only when neither the fields nor the file name say. */
  defaults?: { agentId?: string; campaignId?: string };
  /** The API's rate-limit count of this request, taken by the facts statement (src/intake/rate-limit.ts). */
  count?: RequestCount;
  now?: Date;
}

export interface Accepted {
  id: string;
  status: 'queued' | 'exists';
  url: string;
  /**
   * With `exists`, when the call was deleted since (ISO 8601): the resend is still answered
   * `exists` with the original id (the intake document's idempotent retry: nothing is created or
   * charged again), and says the call is gone instead of handing out a link as if it were there.
   */
  deleted_at?: string;
}

const existsAnswer = (id: string, url: string, deletedAt: Date | null): Accepted => ({
  id,
  status: 'exists',
  url,
  ...(deletedAt && { deleted_at: deletedAt.toISOString() }),
});

const TEXT_MAX = 300;
const EXTERNAL_ID_MAX = 200;

/** Cuts every text field to 300 characters (external_id to 200); empty means not sent. */
function cleanFields(raw: Record<string, string | undefined>) {
  const text = (name: string, max = TEXT_MAX) => {
    const v = raw[name] === undefined ? undefined : stripControls(raw[name]!).trim();
    return v ? truncate(v, max) : undefined;
  };
  return {
    externalId: text('external_id', EXTERNAL_ID_MAX),
    agentCode: text('agent_code'),
    agentName: text('agent_name'),
    campaign: text('campaign'),
    startedAt: text('started_at'),
    customerPhone: text('customer_phone'),
    customerName: text('customer_name'),
    direction: text('direction')?.toLowerCase(),
    language: text('language'),
  };
}

/**
 * Turns one received recording into a queued call, applying every rule of the intake document.
 * Either the call, its reservation, its period count, its transcription job and its stored file
 * all exist afterwards, or none of them do (the temporary file is always consumed).
 */
export async function acceptRecording(app: AppContext, input: AcceptInput): Promise<Accepted> {
  const { db, config } = app;
  const now = input.now ?? new Date();
  const f = cleanFields(input.fields);
  const file = { ...input.file, fileName: stripControls(input.file.fileName) };
  const urlOf = (id: string) => `${config.publicUrl}/calls/${id}`;
  let stored: string | null = null;
  // Once the storage moved the temporary file into place there is nothing left to remove (a
  // removal would still cost two file-system calls per call: rm looks before it unlinks).
  let tempGone = false;
  try {
    // Text hygiene (issue 16): NUL or broken Unicode is refused with invalid_text naming the field.
    for (const [name, value] of Object.entries(input.fields)) if (value !== undefined) assertCleanText(value, name);
    assertCleanText(input.file.fileName, 'file');
    // One round trip for the account, an earlier call with this external_id, the campaign, the agent
    // with the sent code and, for the API, the request's rate-limit count (past the limit: 429 first).
    const counting = input.count?.counted ? undefined : input.count;
    const countedAt = Date.now();
    const read = await readIntakeFacts(
      db,
      input.accountId,
      {
        externalId: f.externalId ?? null,
        campaignName: f.campaign ? normalizeName(f.campaign) : null,
        campaignId: f.campaign ? null : (input.defaults?.campaignId ?? null),
        agentCode: f.agentCode ? normalizeCode(f.agentCode) || null : null,
      },
      counting?.sql(),
    );
    counting?.settle(read.counted!, countedAt);
    const account = read.facts;
    if (!account) throw notFound('Account');
    if (account.existingId)
      return existsAnswer(account.existingId, urlOf(account.existingId), account.existingDeletedAt);
    if (file.size === 0) throw badRequest('The file is empty.');
    const type = await detectAudioType(file, file.fileName, file.declaredType);

    const facts = parseFileName(file.fileName, account.timeZone, now);

    const agent =
      account.agentByCode ??
      (!f.agentCode &&
      !f.agentName &&
      input.defaults?.agentId &&
      !(await fileNameNamesAgent(app, input.accountId, facts.agentCandidates))
        ? await defaultAgent(app, input.accountId, input.defaults.agentId)
        : await resolveAgent(db, input.accountId, { code: f.agentCode, name: f.agentName }, facts.agentCandidates));

    const campaign = account.campaign;

    let startedAt: Date = now;
    const sent = f.startedAt ? parseStartedAt(f.startedAt, now) : null;
    if (sent?.kind === 'ok') startedAt = sent.date;
    else if (sent?.kind !== 'out_of_range' && facts.startedAt) startedAt = facts.startedAt;

    const direction = f.direction === 'inbound' || f.direction === 'outbound' ? f.direction : (facts.direction ?? null);
    const phone = f.customerPhone ?? facts.phones.find((p) => p.code !== agent.codeNormalized)?.value ?? null;
    const language = parseLanguage(f.language) ?? campaign?.language ?? null;

    const id = randomUUID();
    const period = periodOf(now, account.timeZone);
    const minutes = minutesForBytes(file.size);
    const key = `${input.accountId}/${period}/${id}.${type.extension}`;
    const fileName = truncate(file.fileName || `recording.${type.extension}`, TEXT_MAX);

    // The recording is stored first, so a call row never exists without its file. A file whose call
    // is then not written (exists, no_minutes, a fault) is removed here, or by the hourly housekeeping
    // after a crash (it only touches files older than an hour).
    tempGone = await app.storage.putFile(key, file.tempPath);
    stored = key;
    // The call, its reservation, ledger entry, history and transcription job: one statement.
    const inserted = await insertQueuedCall(
      db,
      {
        id,
        accountId: input.accountId,
        externalId: f.externalId ?? null,
        source: input.source,
        agentId: agent.id,
        campaignId: campaign?.id ?? null,
        startedAt,
        customerPhone: phone,
        customerName: f.customerName ?? null,
        direction,
        language,
        fileName,
        fileSize: file.size,
        fileSha256: file.sha256,
        contentType: type.contentType,
        storageKey: key,
        minutes,
        period,
      },
      account.planMinutes,
      `accepted via ${input.source}`,
    );
    if (inserted.status === 'exists') {
      await app.storage.delete(key).catch(() => {});
      stored = null;
      // A concurrent request with the same external_id committed first (or that call was deleted
      // since: its tombstone keeps the id): answer with its call.
      const where = { accountId_externalId: { accountId: input.accountId, externalId: f.externalId! } };
      const live = await db.call.findUnique({ where, select: { id: true } });
      if (live) return existsAnswer(live.id, urlOf(live.id), null);
      const gone = await db.callTombstone.findUniqueOrThrow({ where, select: { id: true, deletedAt: true } });
      return existsAnswer(gone.id, urlOf(gone.id), gone.deletedAt);
    }
    return { id, status: 'queued', url: urlOf(id) };
  } catch (error) {
    if (stored) await app.storage.delete(stored).catch(() => {});
    throw error;
  } finally {
    if (!tempGone) await rm(file.tempPath, { force: true });
  }
}

async function fileNameNamesAgent(app: AppContext, accountId: string, candidates: string[]): Promise<boolean> {
  if (!candidates.length) return false;
  return (await app.db.agent.count({ where: { accountId, active: true, codeNormalized: { in: candidates } } })) > 0;
}

async function defaultAgent(app: AppContext, accountId: string, agentId: string) {
  const agent = await app.db.agent.findFirst({
    where: { id: agentId, accountId, active: true },
    select: { id: true, codeNormalized: true },
  });
  if (!agent) throw new DomainError('unknown_agent', 'The chosen agent is not an active member of the team.');
  return agent;
}
