import type { AppContext } from '../src/app/context.ts';
import { enqueueCallFailed } from '../src/webhooks/enqueue.ts';
import { getApplicableTemplate } from '../src/domain/templates.ts';
import { foldAccents } from '../src/domain/text.ts';
import { minutesForDuration, releaseMinutes, settleMinutes } from '../src/domain/usage.ts';
import { transition } from '../src/lifecycle/transition.ts';
import {
  TranscriptionFailure,
  createEngines,
  transcribeFile,
  type TranscriptionEngine,
} from '../src/transcription/index.ts';
import { callVocabulary } from '../src/domain/vocabulary.ts';
import { enqueue, task } from './jobs.ts';
import { OperatorFault } from '../src/audio/failure.ts';
import { asOperatorFault } from '../src/health/faults.ts';
import { waitForOperator } from '../src/ops/operator-wait.ts';

/**
 * queued → transcribing → analyzing (a template applies) | transcribed (none) | failed.
 * Safe to run twice: every write is guarded by the status it expects, and minutes are settled
 * through the ledger, which charges a call once.
 */
export function createTranscribeTask(app: AppContext, engines: TranscriptionEngine[] = defaultEngines(app)) {
  return task('transcribe', async ({ callId, waits = 0 }, helpers) => {
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
      await db.$transaction((tx) =>
        transition(tx, callId, 'queued', 'transcribing', { detail: `attempt ${helpers.job.attempts}` }),
      );
    }

    // The words this call likely contains (templates' phrases, names, the account's own list).
    const vocabulary = await callVocabulary(db, call);

    // Tools name the file in their messages; users see the detail, so it names their file instead.
    let path = call.storageKey;
    let result: Awaited<ReturnType<typeof transcribeFile>>;
    try {
      if (!(await app.storage.exists(call.storageKey)))
        throw new OperatorFault('storage', `recording ${call.storageKey} is missing from storage`);
      const started = performance.now();
      // Object storage hands a temporary local copy, removed when transcription ends.
      result = await app.storage.withLocalFile(call.storageKey, (file) => {
        path = file;
        return transcribeFile(file, {
          engines,
          language: call.language,
          agentChannel: call.account.agentChannel === 'right' ? 'right' : 'left',
          logger: log,
          decoder: app.config.decoder,
          vocabulary,
        });
      });
      if (result.durationSeconds > 0)
        app.metrics?.transcriptionRealtimeFactor.observe((performance.now() - started) / 1000 / result.durationSeconds);
      for (const check of ['decoder', 'storage', 'transcription_api', `engine:${result.language}`])
        app.faults?.clear(check);
    } catch (error) {
      // Deleted while being transcribed (its file went with it): nothing to do, and no fault.
      if (!(await db.call.count({ where: { id: callId } }))) {
        helpers.logger.info(`call ${callId} was deleted; nothing to transcribe`);
        return;
      }
      // A missing model or decoder, an unreachable API: the operator's to fix, so the call waits.
      const fault = asOperatorFault(error);
      if (fault) {
        await waitForOperator(app, callId, fault, waits);
        return;
      }
      // Unexpected errors are retried by graphile-worker; only a verdict on the recording itself
      // (undecodable, no speech, a language no configured engine covers) fails the call now.
      const permanent = error instanceof TranscriptionFailure;
      if (!permanent) {
        if (helpers.job.attempts >= helpers.job.max_attempts)
          await failCall(app, callId, 'internal_error', String(error).replaceAll(path, call.fileName));
        throw error;
      }
      await failCall(app, callId, error.reason, error.message.replaceAll(path, call.fileName));
      log.info({ callId, reason: error.reason }, 'transcription failed');
      return;
    }

    const template = await getApplicableTemplate(db, {
      accountId: call.accountId,
      campaignId: call.campaignId,
      language: call.language ?? result.language,
    });
    const next = template ? 'analyzing' : 'transcribed';
    await db.$transaction(async (tx) => {
      const moved = await transition(tx, callId, 'transcribing', next, {
        detail: template ? `template ${template.name}` : 'no template applies',
        data: {
          segments: result.segments as object[],
          searchText: foldAccents(result.segments.map((s) => s.text).join(' ')),
          durationSeconds: result.durationSeconds,
          channels: result.channels,
          detectedLanguage: result.language,
          templateId: template?.id ?? null,
        },
      });
      if (!moved) return;
      await settleMinutes(tx, callId, minutesForDuration(result.durationSeconds));
      if (template) await enqueue(tx, 'analyze', { callId });
    });
    log.info({ callId, next, seconds: result.durationSeconds, language: result.language }, 'call transcribed');
  });
}

/** transcribing → failed, releasing the reservation (no charge); a no-op if the call moved on. */
async function failCall(app: AppContext, callId: string, reason: string, detail: string) {
  await app.db.$transaction(async (tx) => {
    const moved = await transition(tx, callId, 'transcribing', 'failed', {
      detail: reason,
      data: { failureReason: reason, failureDetail: detail.slice(0, 500) },
    });
    if (!moved) return;
    await releaseMinutes(tx, callId);
    // Opt-in event: endpoints that did not subscribe to call.failed get nothing.
    await enqueueCallFailed(tx, callId, app.config.publicUrl);
  });
}

function defaultEngines(app: AppContext): TranscriptionEngine[] {
  const t = app.config.transcription;
  return createEngines({
    engine: t.engine,
    modelsDir: app.config.modelsDir,
    moonshineLanguages: t.moonshineLanguages,
    concurrency: app.config.workerConcurrency,
    beam: t.beam,
    biasBoost: t.biasBoost,
    ...(t.openai ? { openai: t.openai } : {}),
  });
}
