import type { AppContext } from '../context.ts';
import { getApplicableTemplate } from '../accounts/templates.ts';
import { foldAccents } from '../domain/text.ts';
import { adjustStorage, minutesForDuration, settleMinutes } from '../accounts/usage.ts';
import { transition } from '../lifecycle/transition.ts';
import {
  TranscriptionFailure,
  closeEngines,
  createEngines,
  trimUnavailable,
  graphCacheUnwritable,
  warmVoiceDetection,
  transcribeFile,
  type TranscriptionEngine,
} from '../transcription/index.ts';
import { callVocabulary } from '../accounts/vocabulary.ts';
import { enqueue, type JobPayload } from '../jobs/catalog.ts';
import type { JobAttempt } from '../jobs/attempt.ts';
import { OperatorFault } from '../audio/failure.ts';
import { asOperatorFault } from '../ops/faults.ts';
import { waitForOperator } from '../ops/operator-wait.ts';
import { redactionOf } from '../accounts/redaction.ts';
import { agentPhrases, assignAgentByPhrases, monoSpeakersOf } from '../accounts/mono-speakers.ts';
import { REDACTED_CONTENT_TYPE } from '../redaction/audio.ts';
import { redactSegments, spansOf } from '../redaction/segments.ts';
import { alignedSpans } from '../redaction/align-audio.ts';
import { failCall } from './fail-call.ts';
import { storeRedactedCopy } from './redacted-copy.ts';

/**
 * Task `transcribe` (workers/transcribe.ts): queued → transcribing → analyzing (a template applies) |
 * transcribed (none) | failed. Safe to run twice: every write is guarded by the status it expects,
 * and minutes are settled through the ledger, which charges a call once.
 */
export async function transcribeCall(
  app: AppContext,
  engines: readonly TranscriptionEngine[],
  { callId, waits = 0 }: JobPayload<'transcribe'>,
  attempt: JobAttempt,
): Promise<void> {
  const { db, log } = app;
  const call = await db.call.findUnique({
    where: { id: callId },
    include: {
      account: { select: { agentChannel: true, redactionMode: true, redactionKinds: true, monoSpeakers: true } },
    },
  });
  if (!call || !['queued', 'transcribing'].includes(call.status)) {
    log.info(`call ${callId} is ${call?.status ?? 'gone'}; nothing to transcribe`);
    return;
  }
  if (call.status === 'queued') {
    await db.$transaction((tx) =>
      transition(tx, callId, 'queued', 'transcribing', { detail: `attempt ${attempt.number}` }),
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
      log.info(`call ${callId} was deleted; nothing to transcribe`);
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
      if (attempt.last) await failCall(app, callId, 'internal_error', String(error).replaceAll(path, call.fileName));
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
        // A guess is not searchable: a search finds calls by words the recogniser heard.
        searchText: foldAccents(
          segments
            .filter((s) => !s.guessed)
            .map((s) => s.text)
            .join(' '),
        ),
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
}

/** The configured engines; the worker shares one set between transcription and analysis (workers/index.ts). */
/** Stops the recognition threads once the chunk in hand is done (a worker's last step). */
export function closePipelineEngines(engines: TranscriptionEngine[]): Promise<void> {
  return closeEngines(engines);
}

export function pipelineEngines(app: AppContext): TranscriptionEngine[] {
  const t = app.config.transcription;
  // The voice detector loaded now, not in the time to the first call's first chunk (src/audio/vad.ts). A
  // failure is not kept: the first call loads it again and reports what goes wrong there.
  warmVoiceDetection().catch(() => {});
  // Recognition's memory stays bounded by trimming malloc (src/transcription/heap-trim.ts); where it
  // should work and cannot, the operator hears why once (the worker runs as before, its peak higher).
  const untrimmed = t.engine === 'moonshine' ? trimUnavailable() : null;
  if (untrimmed)
    app.log.warn(
      { reason: untrimmed },
      'malloc cannot be trimmed (koffi or its prebuilt binary missing?): the worker peak may grow with call length',
    );
  // The rewritten decoder graphs are written beside the models once (src/transcription/graph-cache.ts);
  // a models volume that cannot be written keeps them in memory instead, at every start. Local models
  // are used as createEngines decides: listed languages, or the engine 'moonshine'.
  const local = t.moonshineLanguages ? t.moonshineLanguages.length > 0 : t.engine === 'moonshine';
  const uncached = local ? graphCacheUnwritable(app.config.modelsDir, t.moonshineLanguages) : null;
  if (uncached)
    app.log.warn(
      { reason: uncached },
      'the rewritten decoder graphs cannot be written beside the models: every start rewrites them in memory, with a higher model-load peak (docs/operations/models.md)',
    );
  return createEngines({
    engine: t.engine,
    modelsDir: app.config.modelsDir,
    moonshineLanguages: t.moonshineLanguages,
    ...(t.threads ? { threads: t.threads } : {}),
    batch: t.batch,
    encoderThread: t.encoderThread,
    beam: t.beam,
    biasBoost: t.biasBoost,
    ...(t.openai ? { openai: t.openai } : {}),
  });
}
