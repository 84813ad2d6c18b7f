import type { AppContext } from '../context.ts';
import { analyzeCall, createLlmClient, type LlmClient } from '../analysis/index.ts';
import { Criteria, parseColumn, Segments } from '../call-columns.ts';
import { carryOverReviews, effectiveTotals, lockCall } from '../review/review.ts';
import { getApplicableTemplate } from '../accounts/templates.ts';
import { transition } from '../lifecycle/transition.ts';
import { enqueueCallAnalyzed } from '../webhooks/enqueue.ts';
import type { TranscriptionEngine } from '../transcription/index.ts';
import { recordingScorer } from '../transcription/recording-scorer.ts';
import type { JobAttempt } from '../jobs/attempt.ts';
import type { JobPayload } from '../jobs/catalog.ts';

export interface AnalyzeWith {
  /** The language model for the criteria that ask one (null: none configured). */
  llm: LlmClient | null;
  /** The recognition engines, to judge phrase criteria from the recording (none: from the transcript alone). */
  engines: readonly TranscriptionEngine[];
}

/**
 * Task `analyze` (workers/analyze.ts): analyzing → analyzed, scoring the transcript with the
 * applicable template. The result, its history entry and the webhook event commit together; a rerun
 * of the same revision finds the call already analyzed and does nothing, so no second event is ever
 * created.
 */
export async function analyzeTranscribedCall(
  app: AppContext,
  { llm, engines }: AnalyzeWith,
  { callId }: JobPayload<'analyze'>,
  attempt: JobAttempt,
): Promise<void> {
  const { db } = app;
  const call = await db.call.findUnique({ where: { id: callId } });
  if (call?.status !== 'analyzing') {
    app.log.info(`call ${callId} is ${call?.status ?? 'gone'}; nothing to analyze`);
    return;
  }
  try {
    await analyze(app, call, llm, engines);
  } catch (error) {
    // After the last retry the call must not stay "analyzing" forever: it keeps its transcript
    // and can be analyzed again from the app once the cause is fixed.
    if (attempt.last) {
      await db.$transaction((tx) =>
        transition(tx, callId, 'analyzing', 'transcribed', {
          detail: `analysis failed: ${String(error).slice(0, 300)}`,
        }),
      );
    }
    throw error;
  }
}

type CallRow = NonNullable<Awaited<ReturnType<AppContext['db']['call']['findUnique']>>>;

async function analyze(app: AppContext, call: CallRow, llm: LlmClient | null, engines: readonly TranscriptionEngine[]) {
  const { db, log } = app;
  const callId = call.id;
  const template = await getApplicableTemplate(db, {
    accountId: call.accountId,
    campaignId: call.campaignId,
    language: call.language ?? call.detectedLanguage,
  });
  if (!template) {
    await db.$transaction((tx) =>
      transition(tx, callId, 'analyzing', 'transcribed', {
        detail: 'no template applies any more',
        data: { templateId: null },
      }),
    );
    return;
  }
  const language = call.language ?? call.detectedLanguage ?? template.definition.language ?? 'en';
  const input = {
    segments: parseColumn(Segments, call.segments) ?? [],
    durationSeconds: call.durationSeconds ?? 0,
    channels: call.channels ?? 1,
    language,
  };
  const listens = template.definition.criteria.some((c) => c.kind === 'phrase' || c.kind === 'forbidden');
  // Phrase criteria the transcript does not settle are judged from the recording (src/analysis/acoustic.ts).
  // A recording that cannot be read leaves them to the transcript: the call is analysed either way.
  const result =
    listens && engines.length && (await app.storage.exists(call.storageKey).catch(() => false))
      ? await app.storage.withLocalFile(call.storageKey, (file) =>
          analyzeCall(input, template.definition, {
            llm,
            logger: log,
            audio: recordingScorer(file, engines, language, app.config.decoder),
          }),
        )
      : await analyzeCall(input, template.definition, { llm, logger: log });
  await db.$transaction(async (tx) => {
    // Reviewed results survive a re-analysis: a person's correction is re-applied on top of the new
    // automatic results. The row is read under lock here, not at the start, so a review committed
    // while the analysis ran is not lost.
    const current = await lockCall(tx, call.accountId, callId);
    const carried = carryOverReviews(parseColumn(Criteria, current?.criteria), result.criteria, template.definition);
    const totals = carried.reviewed
      ? effectiveTotals(carried.criteria, template.definition)
      : { score: result.score, coverage: result.coverage, needsReview: result.needsReview };
    const moved = await transition(tx, callId, 'analyzing', 'analyzed', {
      detail: `score ${totals.score ?? 'n/a'} with ${template.name}${carried.reviewed ? ` (reviewed; automatic ${result.score ?? 'n/a'})` : ''}`,
      where: { analysisRevision: call.analysisRevision },
      data: {
        templateId: template.id,
        score: totals.score,
        autoScore: result.score,
        coverage: totals.coverage,
        needsReview: totals.needsReview,
        languageMismatch: template.languageMismatch,
        topic: result.topic_label ?? result.topic,
        summary: result.summary,
        criteria: carried.criteria as object[],
        metrics: result.metrics as object,
        sentiment: result.sentiment as object,
        customerSentiment: result.sentiment.customer?.score ?? null,
        customerSentimentTrend: result.sentiment.customer_trend,
        analyzedAt: new Date(),
      },
    });
    if (!moved) return;
    await enqueueCallAnalyzed(tx, callId, call.analysisRevision, app.config.publicUrl);
  });
  log.info({ callId, score: result.score, topic: result.topic }, 'call analyzed');
}

/** The language model the configuration names, if any. */
export function configuredLlm(app: AppContext): LlmClient | null {
  return app.config.llm
    ? createLlmClient({ ...app.config.llm, apiKey: app.config.llm.apiKey ?? '' }, { logger: app.log })
    : null;
}
