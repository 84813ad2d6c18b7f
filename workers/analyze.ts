import type { AppContext } from '../src/context.ts';
import { analyzeCall, createLlmClient, type LlmClient } from '../src/analysis/index.ts';
import { Criteria, parseColumn, Segments } from '../src/call-columns.ts';
import { carryOverReviews, effectiveTotals, lockCall } from '../src/review/review.ts';
import { getApplicableTemplate } from '../src/accounts/templates.ts';
import { transition } from '../src/lifecycle/transition.ts';
import { enqueueCallAnalyzed } from '../src/webhooks/enqueue.ts';
import { task } from '../src/jobs/catalog.ts';

/**
 * analyzing → analyzed, scoring the transcript with the applicable template. The result, its
 * history entry and the webhook event commit together; a rerun of the same revision finds the
 * call already analyzed and does nothing, so no second event is ever created.
 */
export function createAnalyzeTask(app: AppContext, llm: LlmClient | null = defaultLlm(app)) {
  return task('analyze', async ({ callId }, helpers) => {
    const { db } = app;
    const call = await db.call.findUnique({ where: { id: callId } });
    if (call?.status !== 'analyzing') {
      helpers.logger.info(`call ${callId} is ${call?.status ?? 'gone'}; nothing to analyze`);
      return;
    }
    try {
      await analyze(app, call, llm);
    } catch (error) {
      // After the last retry the call must not stay "analyzing" forever: it keeps its transcript
      // and can be analyzed again from the app once the cause is fixed.
      if (helpers.job.attempts >= helpers.job.max_attempts) {
        await db.$transaction((tx) =>
          transition(tx, callId, 'analyzing', 'transcribed', {
            detail: `analysis failed: ${String(error).slice(0, 300)}`,
          }),
        );
      }
      throw error;
    }
  });
}

type CallRow = NonNullable<Awaited<ReturnType<AppContext['db']['call']['findUnique']>>>;

async function analyze(app: AppContext, call: CallRow, llm: LlmClient | null) {
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
  const result = await analyzeCall(
    {
      segments: parseColumn(Segments, call.segments) ?? [],
      durationSeconds: call.durationSeconds ?? 0,
      channels: call.channels ?? 1,
      language: call.language ?? call.detectedLanguage ?? template.definition.language ?? 'en',
    },
    template.definition,
    { llm, logger: log },
  );
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

function defaultLlm(app: AppContext): LlmClient | null {
  return app.config.llm
    ? createLlmClient({ ...app.config.llm, apiKey: app.config.llm.apiKey ?? '' }, { logger: app.log })
    : null;
}
