/** Public API of the QA analysis engine. A template preview is simply `analyzeCall` on a chosen call. */
export { analyzeCall, belowMinCoverage, coverage, score } from './analyze.ts';
export type { AnalysisResult, AnalyzeOptions, CriterionOutcome, CriterionResult } from './analyze.ts';
export { enCustomerSupport, esAtencionCliente, exampleTemplates } from './examples/index.ts';
export type { ExampleTemplate } from './examples/index.ts';
export { createLlmClient, formatTranscript, LlmError } from './llm.ts';
export type { LlmAnswer, LlmClient, LlmConfig, LlmQuestion, LlmTopicAndSummary, LlmTopicChoice } from './llm.ts';
export { findPhrases, tokensMatch } from './match.ts';
export type { PhraseMatch } from './match.ts';
export { computeMetrics } from './metrics.ts';
export type { CallMetrics } from './metrics.ts';
export { normalizeText, tokenize, tokenizeWithOffsets } from './normalize.ts';
export type { Token } from './normalize.ts';
export { extractiveSummary } from './summary.ts';
export {
  CRITERION_KINDS,
  METRIC_OPS,
  METRICS,
  parseTemplate,
  splitTemplateFile,
  TemplateDefinition,
} from './template.ts';
export type {
  Criterion,
  CriterionKind,
  ForbiddenCriterion,
  LlmCriterion,
  MetricCriterion,
  MetricName,
  MetricOp,
  ParseTemplateResult,
  PhraseCriterion,
  TemplateDefinitionInput,
  TemplateIssue,
  Topic,
} from './template.ts';
export { speakersKnown } from './types.ts';
export type { AnalysisInput, Evidence, Segment, SpeakerRole } from './types.ts';
