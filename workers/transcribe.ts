import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { AppContext } from '../src/app/context.ts';
import { getApplicableTemplate } from '../src/domain/templates.ts';
import { foldAccents } from '../src/domain/text.ts';
import { minutesForDuration, releaseMinutes, settleMinutes } from '../src/domain/usage.ts';
import {
  EngineError,
  TranscriptionFailure,
  createEngines,
  transcribeFile,
  type TranscriptionEngine,
} from '../src/transcription/index.ts';

const Payload = z.object({ callId: z.uuid() });

/**
 * queued → transcribing → analyzing (a template applies) | transcribed (none) | failed.
 * Safe to run twice: every write is guarded by the status it expects, and minutes are settled
 * through the ledger, which charges a call once.
 */
export function createTranscribeTask(app: AppContext, engines: TranscriptionEngine[] = defaultEngines(app)): Task {
  return async (raw, helpers) => {
    const { callId } = Payload.parse(raw);
    const { db, log } = app;
    const call = await db.call.findUnique({
      where: { id: callId },
      include: { account: { select: { agentChannel: true } } },
    });
    if (!call || !['queued', 'transcribing'].includes(call.status)) {
      helpers.logger.info(`call ${callId} is ${call?.status ?? 'gone'}; nothing to transcribe`);
      return;
    }
    if (call.status === 'queued') {
      await db.$transaction([
        db.call.updateMany({ where: { id: callId, status: 'queued' }, data: { status: 'transcribing' } }),
        db.callEvent.create({ data: { callId, status: 'transcribing', detail: `attempt ${helpers.job.attempts}` } }),
      ]);
    }

    // Tools name the file in their messages; users see the detail, so it names their file instead.
    const path = await app.storage.localPath(call.storageKey);
    let result;
    try {
      if (!(await app.storage.exists(call.storageKey)))
        throw new Error(`recording ${call.storageKey} is missing from storage`);
      result = await transcribeFile(path, {
        engines,
        language: call.language,
        agentChannel: call.account.agentChannel === 'right' ? 'right' : 'left',
        logger: log,
      });
    } catch (error) {
      // Unexpected errors and passing engine trouble (rate limits, outages) are retried by
      // graphile-worker; only a verdict on the recording itself fails the call now.
      const permanent = error instanceof TranscriptionFailure && !(error instanceof EngineError && error.retryable);
      if (!permanent) {
        if (helpers.job.attempts >= helpers.job.max_attempts)
          await failCall(app, callId, 'internal_error', String(error).replaceAll(path, call.fileName));
        throw error;
      }
      await failCall(app, callId, error.reason, error.message.replaceAll(path, call.fileName));
      log.info({ callId, reason: error.reason }, 'transcription failed');
      return;
    }

    const template = await getApplicableTemplate(db, { accountId: call.accountId, campaignId: call.campaignId });
    const next = template ? 'analyzing' : 'transcribed';
    await db.$transaction(async (tx) => {
      const moved = await tx.call.updateMany({
        where: { id: callId, status: 'transcribing' },
        data: {
          status: next,
          segments: result.segments as object[],
          searchText: foldAccents(result.segments.map((s) => s.text).join(' ')),
          durationSeconds: result.durationSeconds,
          channels: result.channels,
          detectedLanguage: result.language,
          templateId: template?.id ?? null,
        },
      });
      if (moved.count === 0) return;
      await settleMinutes(tx, callId, minutesForDuration(result.durationSeconds));
      await tx.callEvent.create({
        data: { callId, status: next, detail: template ? `template ${template.name}` : 'no template applies' },
      });
      // Analysis takes milliseconds: it jumps the transcription backlog so results are not held back.
      if (template)
        await tx.$executeRaw`SELECT graphile_worker.add_job('analyze', json_build_object('callId', ${callId}::text), job_key := ${`analyze:${callId}`}, max_attempts := 8, priority := -10)`;
    });
    log.info({ callId, next, seconds: result.durationSeconds, language: result.language }, 'call transcribed');
  };
}

/** transcribing → failed, releasing the reservation (no charge); a no-op if the call moved on. */
async function failCall(app: AppContext, callId: string, reason: string, detail: string) {
  await app.db.$transaction(async (tx) => {
    const moved = await tx.call.updateMany({
      where: { id: callId, status: 'transcribing' },
      data: { status: 'failed', failureReason: reason, failureDetail: detail.slice(0, 500) },
    });
    if (moved.count === 0) return;
    await tx.callEvent.create({ data: { callId, status: 'failed', detail: reason } });
    await releaseMinutes(tx, callId);
  });
}

function defaultEngines(app: AppContext): TranscriptionEngine[] {
  const t = app.config.transcription;
  return createEngines(
    t.engine === 'openai'
      ? {
          engine: 'openai',
          modelsDir: app.config.modelsDir,
          openai: { baseUrl: t.baseUrl, apiKey: t.apiKey, model: t.model },
        }
      : { engine: 'moonshine', modelsDir: app.config.modelsDir, concurrency: app.config.workerConcurrency },
  );
}
