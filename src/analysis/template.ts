/** Analysis template (QA scorecard) definition, validated with zod and reported in plain English. */
import { z } from 'zod';
import { CRITERION_KINDS, METRIC_OPS, METRICS, type MetricName, RATIO_METRICS } from './metric-names.ts';
import { tokenize } from './normalize.ts';

export { CRITERION_KINDS, METRIC_OPS, METRICS, type MetricName };

/**
 * Sentiment metrics (src/analysis/sentiment.ts) are the only ones that go below zero: a score from
 * −1 to 1, a trend (end minus start) from −2 to 2.
 */
const SIGNED_METRIC_RANGE: Readonly<Record<string, number>> = { customer_sentiment: 1, customer_sentiment_trend: 2 };

const Key = z
  .string()
  .regex(/^[a-z0-9]+(?:[_-][a-z0-9]+)*$/, {
    error: 'key must be a slug: lower-case letters, digits, "-" or "_" (e.g. "greeting_with_company")',
  })
  .max(64, { error: 'key must be at most 64 characters' });

const Label = z
  .string()
  .trim()
  .min(1, { error: 'label must not be empty' })
  .max(200, { error: 'label must be at most 200 characters' });

const Phrase = z
  .string()
  .max(200, { error: 'a phrase must be at most 200 characters' })
  .refine((phrase) => tokenize(phrase).length > 0, { error: 'a phrase must contain at least one word' });

const Phrases = z
  .array(Phrase)
  .min(1, { error: 'phrases must list at least one phrase' })
  .max(100, { error: 'phrases must list at most 100 phrases' });

const criterionBase = {
  key: Key,
  label: Label,
  description: z.string().max(1000, { error: 'description must be at most 1000 characters' }).optional(),
  weight: z
    .number()
    .int({ error: 'weight must be a whole number from 1 to 10' })
    .min(1, { error: 'weight must be a whole number from 1 to 10' })
    .max(10, { error: 'weight must be a whole number from 1 to 10' }),
  /** A failed critical criterion makes the whole score 0. */
  critical: z.boolean().default(false),
  /** On mono recordings (speaker unknown) a restricted criterion looks at all speech. */
  speaker: z
    .enum(['agent', 'customer', 'any'], { error: 'speaker must be "agent", "customer" or "any"' })
    .default('any'),
};

const PhraseCriterion = z.strictObject({
  ...criterionBase,
  kind: z.literal('phrase'),
  phrases: Phrases,
  /** Only phrases said within the first/last `seconds` of the call count. */
  window: z
    .strictObject({
      from: z.enum(['start', 'end'], { error: 'window.from must be "start" or "end"' }),
      seconds: z.number().positive({ error: 'window.seconds must be a number of seconds greater than 0' }),
    })
    .optional(),
  minCount: z
    .number()
    .int({ error: 'minCount must be a whole number of at least 1' })
    .min(1, { error: 'minCount must be a whole number of at least 1' })
    .default(1),
});

const ForbiddenCriterion = z.strictObject({
  ...criterionBase,
  kind: z.literal('forbidden'),
  phrases: Phrases,
});

const Threshold = z.number();

const MetricCriterion = z
  .strictObject({
    ...criterionBase,
    kind: z.literal('metric'),
    metric: z.enum(METRICS, { error: `metric must be one of: ${METRICS.join(', ')}` }),
    op: z.enum(METRIC_OPS, { error: `op must be one of: ${METRIC_OPS.join(', ')}` }),
    value: Threshold.optional(),
    min: Threshold.optional(),
    max: Threshold.optional(),
  })
  .superRefine((criterion, ctx) => {
    const { op, value, min, max } = criterion;
    if (op === 'between') {
      if (min === undefined)
        ctx.addIssue({ code: 'custom', path: ['min'], message: 'min is required when op is "between"' });
      if (max === undefined)
        ctx.addIssue({ code: 'custom', path: ['max'], message: 'max is required when op is "between"' });
      if (min !== undefined && max !== undefined && min > max)
        ctx.addIssue({ code: 'custom', path: ['max'], message: 'max must be greater than or equal to min' });
      if (value !== undefined)
        ctx.addIssue({ code: 'custom', path: ['value'], message: 'use min and max, not value, when op is "between"' });
    } else {
      if (value === undefined)
        ctx.addIssue({ code: 'custom', path: ['value'], message: `value is required when op is "${op}"` });
      if (min !== undefined || max !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [min !== undefined ? 'min' : 'max'],
          message: 'min and max are only for op "between"',
        });
    }
    const signed = SIGNED_METRIC_RANGE[criterion.metric];
    for (const field of ['value', 'min', 'max'] as const) {
      const threshold = criterion[field];
      if (threshold === undefined) continue;
      if (signed === undefined && threshold < 0)
        ctx.addIssue({ code: 'custom', path: [field], message: 'thresholds must be 0 or more' });
      if (signed !== undefined && Math.abs(threshold) > signed)
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `${criterion.metric} goes from -${signed} to ${signed}`,
        });
    }
    if (RATIO_METRICS.has(criterion.metric)) {
      for (const field of ['value', 'min', 'max'] as const) {
        const threshold = criterion[field];
        if (threshold !== undefined && threshold > 1)
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `${criterion.metric} is a fraction from 0 to 1 (write 0.6 for 60%)`,
          });
      }
    }
  });

const LlmCriterion = z.strictObject({
  ...criterionBase,
  kind: z.literal('llm'),
  question: z
    .string()
    .trim()
    .min(1, { error: 'question must not be empty' })
    .max(500, { error: 'question must be at most 500 characters' }),
});

const Criterion = z.discriminatedUnion('kind', [PhraseCriterion, ForbiddenCriterion, MetricCriterion, LlmCriterion], {
  error: `kind must be one of: ${CRITERION_KINDS.join(', ')}`,
});

const Topic = z.strictObject({ key: Key, label: Label, phrases: Phrases });

function requireUniqueKeys(items: readonly { key: string }[], what: string, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.key))
      ctx.addIssue({
        code: 'custom',
        path: [index, 'key'],
        message: `${what} key "${item.key}" is used more than once`,
      });
    seen.add(item.key);
  });
}

export const TemplateDefinition = z.strictObject({
  version: z.literal(1, { error: 'version must be 1' }),
  /** Language of the phrases and of generated summaries; the call's language when absent. */
  language: z
    .string()
    .regex(/^[a-z]{2}$/, { error: 'language must be a two-letter code such as "en" or "es"' })
    .optional(),
  /**
   * Below this coverage (percent of the criteria's weight actually evaluated) a call is marked
   * "needs review" instead of showing a score that looks complete.
   */
  minCoverage: z
    .number({ error: 'minCoverage must be a percentage from 0 to 100' })
    .min(0, { error: 'minCoverage must be a percentage from 0 to 100' })
    .max(100, { error: 'minCoverage must be a percentage from 0 to 100' })
    .optional(),
  criteria: z
    .array(Criterion)
    .min(1, { error: 'criteria must list at least one criterion' })
    .max(100, { error: 'criteria must list at most 100 criteria' })
    .superRefine((criteria, ctx) => requireUniqueKeys(criteria, 'criterion', ctx)),
  topics: z
    .array(Topic)
    .max(100, { error: 'topics must list at most 100 topics' })
    .default([])
    .superRefine((topics, ctx) => requireUniqueKeys(topics, 'topic', ctx)),
});

export type TemplateDefinition = z.output<typeof TemplateDefinition>;
/** What an author writes: defaults (critical, speaker, minCount, topics) may be left out. */
export type TemplateDefinitionInput = z.input<typeof TemplateDefinition>;
export type Criterion = TemplateDefinition['criteria'][number];
export type CriterionKind = Criterion['kind'];
export type PhraseCriterion = Extract<Criterion, { kind: 'phrase' }>;
export type ForbiddenCriterion = Extract<Criterion, { kind: 'forbidden' }>;
export type MetricCriterion = Extract<Criterion, { kind: 'metric' }>;
export type LlmCriterion = Extract<Criterion, { kind: 'llm' }>;
export type MetricOp = (typeof METRIC_OPS)[number];
export type Topic = TemplateDefinition['topics'][number];

/** A validation problem: `path` like `criteria[2].weight` ('' for the whole template). */
export interface TemplateIssue {
  path: string;
  message: string;
}

export type ParseTemplateResult = { ok: true; template: TemplateDefinition } | { ok: false; issues: TemplateIssue[] };

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, part) => {
    if (typeof part === 'number') return `${out}[${part}]`;
    return out === '' ? String(part) : `${out}.${String(part)}`;
  }, '');
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const EXPECTED: Record<string, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

/** Plain-English fallback for issues the schema has no message of its own for. */
const plainEnglish: z.core.$ZodErrorMap = (issue) => {
  const field = [...(issue.path ?? [])].reverse().find((p) => typeof p === 'string');
  const subject = field === undefined ? 'the template' : String(field);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${subject} is required`;
      return `${subject} must be ${EXPECTED[issue.expected] ?? issue.expected}, not ${describeType(issue.input)}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    default:
      return undefined;
  }
};

const NOT_JSON = Symbol('not JSON');

/** A template is given as parsed JSON or as JSON text: text is parsed, anything else is taken as is. */
function fromJsonText(json: unknown): unknown {
  if (typeof json !== 'string') return json;
  try {
    return JSON.parse(json);
  } catch {
    return NOT_JSON;
  }
}

/** Validate a template given as parsed JSON or as JSON text. */
export function parseTemplate(json: unknown): ParseTemplateResult {
  const data = fromJsonText(json);
  if (data === NOT_JSON) return { ok: false, issues: [{ path: '', message: 'the template is not valid JSON' }] };
  const result = TemplateDefinition.safeParse(data, { error: plainEnglish });
  if (result.success) return { ok: true, template: result.data };
  return {
    ok: false,
    issues: result.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
  };
}

/** A template file as `template:import` and the examples read it: the definition, plus the template's name. */
export interface TemplateFile {
  /** The file's own top-level `name`, when it has one (not part of the stored definition). */
  name: string | undefined;
  /** Everything else, for `parseTemplate`; text that is not JSON is passed on as is, so it is reported like any issue. */
  definition: unknown;
}

/**
 * Splits a template file into its name and definition. The name travels with the file so a shared
 * example is imported under its own name ("Atención al cliente"), not its file name; a `name` that is
 * not text stays in the definition, where the validator reports it as an unknown field.
 */
export function splitTemplateFile(json: unknown): TemplateFile {
  const data = fromJsonText(json);
  if (data === NOT_JSON) return { name: undefined, definition: json };
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return { name: undefined, definition: data };
  const { name, ...definition } = data as Record<string, unknown>;
  if (typeof name !== 'string') return { name: undefined, definition: data };
  return { name, definition };
}
