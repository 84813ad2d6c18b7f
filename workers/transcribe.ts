import type { AppContext } from '../src/context.ts';
import { enqueueCallFailed } from '../src/webhooks/enqueue.ts';
import { getApplicableTemplate } from '../src/accounts/templates.ts';
import { foldAccents } from '../src/domain/text.ts';
import { adjustStorage, minutesForDuration, releaseMinutes, settleMinutes } from '../src/accounts/usage.ts';
import { transition } from '../src/lifecycle/transition.ts';
import {
  TranscriptionFailure,
  createEngines,
  transcribeFile,
  type TranscriptionEngine,
} from '../src/transcription/index.ts';
import { callVocabulary } from '../src/accounts/vocabulary.ts';
import { enqueue, task } from '../src/jobs/catalog.ts';
import { OperatorFault } from '../src/audio/failure.ts';
import { asOperatorFault } from '../src/ops/faults.ts';
import { waitForOperator } from '../src/ops/operator-wait.ts';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { redactionOf } from '../src/accounts/redaction.ts';
import { agentPhrases, assignAgentByPhrases, monoSpeakersOf } from '../src/accounts/mono-speakers.ts';
import { REDACTED_CONTENT_TYPE, REDACTED_EXTENSION, writeRedactedAudio } from '../src/redaction/audio.ts';
import { redactSegments, type RedactedSpan, spansOf } from '../src/redaction/segments.ts';
import { alignedSpans } from '../src/redaction/align-audio.ts';

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
      include: {
        account: { select: { agentChannel: true, redactionMode: true, redactionKinds: true, monoSpeakers: true } },
      },
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
    const monoSpeakers = monoSpeakersOf(call.account.monoSpeakers);

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
          denoise: app.config.transcription.denoise,
          diarize: monoSpeakers !== 'off',
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
      // The process is stopping: the error may be the stop itself (a decoder killed by a SIGTERM sent
      // to the whole process group, as systemd and Ctrl-C do). Never a verdict on the recording: the
      // job is handed back and retried.
      if (app.stopping?.aborted) throw error;
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
      await failCall(app, callId, error.reason, error.message.replaceAll(path, call.fileName), error.durationSeconds);
      log.info({ callId, reason: error.reason }, 'transcription failed');
      return;
    }

    const template = await getApplicableTemplate(db, {
      accountId: call.accountId,
      campaignId: call.campaignId,
      language: call.language ?? result.language,
    });
    // Redaction happens before anything of the transcript is stored: the text written below, the
    // search index, and everything built from them later (evidence, summary, CSV, webhooks).
    // Two voices of a mono call: the one heard first is the agent unless the account asks the template.
    const heard =
      result.diarization?.separated && monoSpeakers === 'greeting'
        ? assignAgentByPhrases(result.segments, agentPhrases(template?.definition)).segments
        : result.segments;
    const redaction = redactionOf(call.account);
    const { segments, pieces } =
      redaction.mode === 'off'
        ? { segments: heard, pieces: [] }
        : redactSegments(heard, redaction.kinds, call.language ?? result.language);
    // The redacted recording is written first; it replaces the original only if this commit does. Its
    // spans follow the words' timings in the audio; text-only redaction notes the segments' moments.
    const copy =
      redaction.mode === 'text_audio' && pieces.length > 0
        ? await storeRedactedCopy(app, call, (file) =>
            alignedSpans({
              file,
              decoder: app.config.decoder,
              engines,
              language: result.language,
              segments: heard,
              pieces,
              logger: log,
            }),
          )
        : null;
    const spans = copy?.spans ?? spansOf(heard, pieces, new Map());
    const next = template ? 'analyzing' : 'transcribed';
    const moved = await db.$transaction(async (tx) => {
      const moved = await transition(tx, callId, 'transcribing', next, {
        detail: template ? `template ${template.name}` : 'no template applies',
        data: {
          segments: segments as object[],
          searchText: foldAccents(segments.map((s) => s.text).join(' ')),
          durationSeconds: result.durationSeconds,
          channels: result.channels,
          audioSnrDb: result.snrDb,
          diarized: result.diarization?.separated ?? false,
          diarizationConfidence: result.diarization?.confidence ?? null,
          detectedLanguage: result.language,
          templateId: template?.id ?? null,
          ...(spans.length > 0 ? { redactions: spans as object[] } : {}),
          ...(copy
            ? {
                storageKey: copy.key,
                contentType: REDACTED_CONTENT_TYPE,
                fileSize: BigInt(copy.bytes),
                audioRedacted: true,
              }
            : {}),
        },
      });
      if (!moved) return false;
      await settleMinutes(tx, callId, minutesForDuration(result.durationSeconds));
      // Usage counts what is stored: the redacted copy instead of the original.
      if (copy) await adjustStorage(tx, call.accountId, call.period, copy.bytes - Number(call.fileSize));
      if (template) await enqueue(tx, 'analyze', { callId });
      return true;
    });
    if (copy) {
      // The original goes once the copy is the call's recording; if this delete is lost (a crash),
      // the hourly sweep removes it as a file no call references.
      await app.storage.delete(moved ? call.storageKey : copy.key);
    }
    log.info(
      {
        callId,
        next,
        seconds: result.durationSeconds,
        language: result.language,
        redacted: spans.length,
        snrDb: result.snrDb,
        denoised: result.denoised,
      },
      'call transcribed',
    );
  });
}

/**
 * Writes the recording with the spans `spansIn` finds in it silenced next to the original in storage;
 * returns its key, size and the spans.
 */
async function storeRedactedCopy(
  app: AppContext,
  call: { id: string; storageKey: string },
  spansIn: (file: string) => Promise<RedactedSpan[]>,
): Promise<{ key: string; bytes: number; spans: RedactedSpan[] }> {
  const key = `${call.storageKey.replace(/\.[^./]*$/, '')}.redacted${REDACTED_EXTENSION}`;
  const dir = await mkdtemp(path.join(app.config.tmpDir, 'redact-'));
  try {
    const out = path.join(dir, `${call.id}${REDACTED_EXTENSION}`);
    const spans = await app.storage.withLocalFile(call.storageKey, async (file) => {
      const spans = await spansIn(file);
      await writeRedactedAudio(app.config.decoder, file, out, spans);
      return spans;
    });
    const { size } = await stat(out);
    await app.storage.putFile(key, out);
    return { key, bytes: size, spans };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * transcribing → failed, releasing the reservation (no charge); a no-op if the call moved on. The
 * recording's length is kept when it was known: the list, CSV and webhook show it, not "—".
 */
async function failCall(app: AppContext, callId: string, reason: string, detail: string, durationSeconds?: number) {
  await app.db.$transaction(async (tx) => {
    const moved = await transition(tx, callId, 'transcribing', 'failed', {
      detail: reason,
      data: {
        failureReason: reason,
        failureDetail: detail.slice(0, 500),
        ...(durationSeconds !== undefined ? { durationSeconds } : {}),
      },
    });
    if (!moved) return;
    await releaseMinutes(tx, callId);
    // Opt-in event: endpoints that did not subscribe to call.failed get nothing.
    await enqueueCallFailed(tx, callId, app.config.publicUrl);
  });
}

/** The configured engines; the worker shares one set between transcription and analysis (workers/index.ts). */
export function defaultEngines(app: AppContext): TranscriptionEngine[] {
  const t = app.config.transcription;
  return createEngines({
    engine: t.engine,
    modelsDir: app.config.modelsDir,
    moonshineLanguages: t.moonshineLanguages,
    ...(t.threads ? { threads: t.threads } : {}),
    beam: t.beam,
    biasBoost: t.biasBoost,
    ...(t.openai ? { openai: t.openai } : {}),
  });
}
