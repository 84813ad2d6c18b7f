/**
 * The template editor works on a form-friendly draft (phrases as lines of text, numbers as typed);
 * these pure functions convert between it and the API's template definition (src/analysis/template.ts).
 */
// The lists are the server's (one definition, no copy to drift).
import { CRITERION_KINDS, METRIC_OPS, METRICS, type MetricName, RATIO_METRICS } from '../../analysis/metric-names.ts';

export { METRICS, type MetricName, RATIO_METRICS };
export const KINDS = CRITERION_KINDS;
export type Kind = (typeof KINDS)[number];
export const OPS = METRIC_OPS;
export type Op = (typeof OPS)[number];
export const SPEAKERS = ['agent', 'customer', 'any'] as const;
export type Speaker = (typeof SPEAKERS)[number];

export interface CriterionDraft {
  uid: string;
  kind: Kind;
  key: string;
  /** True once the author typed a key; until then it follows the label. */
  keyEdited: boolean;
  label: string;
  description: string;
  weight: number;
  critical: boolean;
  speaker: Speaker;
  phrases: string;
  windowFrom: '' | 'start' | 'end';
  windowSeconds: string;
  minCount: string;
  metric: MetricName;
  op: Op;
  value: string;
  min: string;
  max: string;
  question: string;
}

export interface TopicDraft {
  uid: string;
  key: string;
  keyEdited: boolean;
  label: string;
  phrases: string;
}

export interface TemplateDraft {
  name: string;
  language: string;
  /** Minimum coverage in percent, as typed ('' = none): below it a call is marked "needs review". */
  minCoverage: string;
  criteria: CriterionDraft[];
  topics: TopicDraft[];
}

let counter = 0;
export const uid = () => `d${Date.now().toString(36)}${(counter++).toString(36)}`;

/** "Saluda y se presenta" → "saluda_y_se_presenta" (the template key rules: lower-case slug). */
export function slugify(label: string): string {
  return (
    label
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 64)
      .replace(/_+$/g, '') || 'item'
  );
}

export function newCriterion(kind: Kind = 'phrase'): CriterionDraft {
  return {
    uid: uid(),
    kind,
    key: '',
    keyEdited: false,
    label: '',
    description: '',
    weight: 3,
    critical: false,
    speaker: kind === 'llm' ? 'any' : 'agent',
    phrases: '',
    windowFrom: '',
    windowSeconds: '30',
    minCount: '1',
    metric: 'talk_ratio',
    op: 'lte',
    value: '',
    min: '',
    max: '',
    question: '',
  };
}

export function newTopic(): TopicDraft {
  return { uid: uid(), key: '', keyEdited: false, label: '', phrases: '' };
}

export const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

function num(s: string): number | undefined {
  if (s.trim() === '') return undefined;
  const n = Number(s.replace(',', '.'));
  return Number.isFinite(n) ? n : undefined;
}

/** The ratio metrics are typed as percentages in the editor and stored as fractions. */
function threshold(metric: string, s: string): number | undefined {
  const n = num(s);
  if (n === undefined) return undefined;
  return RATIO_METRICS.has(metric) ? Math.round((n / 100) * 10000) / 10000 : n;
}

function unthreshold(metric: string, n: unknown): string {
  if (typeof n !== 'number') return '';
  return String(RATIO_METRICS.has(metric) ? Math.round(n * 100 * 100) / 100 : n);
}

const keyOf = (d: { key: string; keyEdited: boolean; label: string }) =>
  d.keyEdited && d.key.trim() ? d.key.trim() : slugify(d.label);

export function draftToDefinition(d: TemplateDraft): Record<string, unknown> {
  const criteria = d.criteria.map((c) => {
    const base: Record<string, unknown> = {
      key: keyOf(c),
      label: c.label.trim(),
      kind: c.kind,
      weight: c.weight,
      critical: c.critical,
      speaker: c.speaker,
    };
    if (c.description.trim()) base.description = c.description.trim();
    switch (c.kind) {
      case 'phrase': {
        base.phrases = lines(c.phrases);
        const seconds = num(c.windowSeconds);
        if (c.windowFrom && seconds !== undefined) base.window = { from: c.windowFrom, seconds };
        const minCount = num(c.minCount);
        if (minCount !== undefined && minCount !== 1) base.minCount = minCount;
        break;
      }
      case 'forbidden':
        base.phrases = lines(c.phrases);
        break;
      case 'metric':
        base.metric = c.metric;
        base.op = c.op;
        if (c.op === 'between') {
          base.min = threshold(c.metric, c.min);
          base.max = threshold(c.metric, c.max);
        } else base.value = threshold(c.metric, c.value);
        break;
      case 'llm':
        base.question = c.question.trim();
        break;
    }
    return base;
  });
  const topics = d.topics.map((x) => ({ key: keyOf(x), label: x.label.trim(), phrases: lines(x.phrases) }));
  const def: Record<string, unknown> = { version: 1, criteria, topics };
  if (d.language) def.language = d.language;
  const minCoverage = num(d.minCoverage);
  if (minCoverage !== undefined) def.minCoverage = minCoverage;
  return def;
}

type Json = Record<string, any>;

export function definitionToDraft(name: string, def: Json | null | undefined): TemplateDraft {
  const criteria: CriterionDraft[] = (Array.isArray(def?.criteria) ? def!.criteria : []).map((c: Json) => {
    const d = newCriterion(KINDS.includes(c.kind) ? c.kind : 'phrase');
    d.key = String(c.key ?? '');
    d.keyEdited = true;
    d.label = String(c.label ?? '');
    d.description = String(c.description ?? '');
    d.weight = typeof c.weight === 'number' ? c.weight : 1;
    d.critical = !!c.critical;
    d.speaker = SPEAKERS.includes(c.speaker) ? c.speaker : 'any';
    if (Array.isArray(c.phrases)) d.phrases = c.phrases.join('\n');
    if (c.window) {
      d.windowFrom = c.window.from === 'end' ? 'end' : 'start';
      d.windowSeconds = String(c.window.seconds ?? '');
    }
    if (c.minCount != null) d.minCount = String(c.minCount);
    if (c.metric) d.metric = c.metric;
    if (c.op) d.op = c.op;
    d.value = unthreshold(d.metric, c.value);
    d.min = unthreshold(d.metric, c.min);
    d.max = unthreshold(d.metric, c.max);
    d.question = String(c.question ?? '');
    return d;
  });
  const topics: TopicDraft[] = (Array.isArray(def?.topics) ? def!.topics : []).map((x: Json) => ({
    uid: uid(),
    key: String(x.key ?? ''),
    keyEdited: true,
    label: String(x.label ?? ''),
    phrases: Array.isArray(x.phrases) ? x.phrases.join('\n') : '',
  }));
  return {
    name,
    language: typeof def?.language === 'string' ? def.language : '',
    minCoverage: typeof def?.minCoverage === 'number' ? String(def.minCoverage) : '',
    criteria,
    topics,
  };
}

/** A first template that already does something useful, in the author's language. */
export function starterDraft(lang: 'en' | 'es'): TemplateDraft {
  const es = lang === 'es';
  const greet = newCriterion('phrase');
  greet.label = es ? 'Saluda y se presenta' : 'Greets the customer';
  greet.phrases = es
    ? 'gracias por llamar\nbuenos días\nle atiende'
    : 'thank you for calling\ngood morning\nmy name is';
  greet.windowFrom = 'start';
  greet.windowSeconds = '30';
  const rude = newCriterion('forbidden');
  rude.label = es ? 'Sin lenguaje ofensivo' : 'No offensive language';
  rude.phrases = es ? 'idiota\nestúpido' : 'stupid\nidiot';
  rude.critical = true;
  rude.weight = 2;
  return { name: '', language: lang, minCoverage: '', criteria: [greet, rude], topics: [] };
}

/** `criteria[2].weight` → { section: 'criteria', index: 2, field: 'weight' } to place an issue next to its field. */
export function parseIssuePath(path: string): {
  section: 'criteria' | 'topics' | null;
  index: number | null;
  field: string;
} {
  const m = /^(criteria|topics)(?:\[(\d+)\])?(?:\.(.+))?$/.exec(path);
  if (!m) return { section: null, index: null, field: path };
  return { section: m[1] as 'criteria' | 'topics', index: m[2] != null ? Number(m[2]) : null, field: m[3] ?? '' };
}

/** Rows for a phrase box: every phrase in view (one per line) plus an empty line to type the next. */
export function phraseRows(text: string): number {
  return Math.max(3, text.split('\n').length + 1);
}
