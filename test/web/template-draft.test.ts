import { describe, expect, it } from 'vitest';
import { parseTemplate, splitTemplateFile } from '../../src/analysis/template.ts';
import {
  definitionToDraft,
  draftToDefinition,
  newCriterion,
  newTopic,
  parseIssuePath,
  phraseRows,
  slugify,
  starterDraft,
} from '../../src/web/lib/template-draft.ts';
import enFile from '../../src/analysis/examples/en-customer-support.json' with { type: 'json' };

// The example file's own "name" is the template's name, not part of its definition.
const en = splitTemplateFile(enFile).definition as Record<string, unknown>;

describe('template editor draft ↔ definition', () => {
  it('the starter templates are valid for the server', () => {
    for (const lang of ['en', 'es'] as const) {
      const d = starterDraft(lang);
      d.name = 'x';
      const parsed = parseTemplate(draftToDefinition(d));
      expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
    }
  });

  it('every kind of criterion the editor builds is valid, with ratios typed as percentages', () => {
    const d = starterDraft('en');
    const metric = {
      ...newCriterion('metric'),
      label: 'Lets the customer talk',
      metric: 'talk_ratio' as const,
      op: 'lte' as const,
      value: '60',
    };
    const between = {
      ...newCriterion('metric'),
      label: 'Pace',
      metric: 'words_per_minute' as const,
      op: 'between' as const,
      min: '110',
      max: '170',
    };
    const llm = {
      ...newCriterion('llm'),
      label: '¿Confirmó la identidad?',
      question: 'Did the agent confirm the identity?',
    };
    const topic = { ...newTopic(), label: 'Facturación', phrases: 'factura\n\n  cobro \n' };
    d.criteria.push(metric, between, llm);
    d.topics.push(topic);
    const def = draftToDefinition(d) as any;
    expect(def.criteria[2]).toMatchObject({ kind: 'metric', metric: 'talk_ratio', op: 'lte', value: 0.6 });
    expect(def.criteria[3]).toMatchObject({ op: 'between', min: 110, max: 170 });
    expect(def.criteria[4]).toMatchObject({
      key: 'confirmo_la_identidad',
      question: 'Did the agent confirm the identity?',
    });
    expect(def.topics).toEqual([{ key: 'facturacion', label: 'Facturación', phrases: ['factura', 'cobro'] }]);
    const parsed = parseTemplate(def);
    expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
  });

  it('round-trips an existing template', () => {
    const parsed = parseTemplate(en);
    if (!parsed.ok) throw new Error('example template invalid');
    const back = draftToDefinition(definitionToDraft('EN', parsed.template));
    const again = parseTemplate(back);
    expect(again.ok).toBe(true);
    if (again.ok) expect(again.template).toEqual(parsed.template);
  });

  it('keeps the minimum coverage through the editor (typed with a comma or a point; empty means none)', () => {
    const parsed = parseTemplate({ ...en, minCoverage: 60 });
    if (!parsed.ok) throw new Error('example template invalid');
    const draft = definitionToDraft('EN', parsed.template);
    expect(draft.minCoverage).toBe('60');
    expect(draftToDefinition(draft).minCoverage).toBe(60);
    expect(draftToDefinition({ ...draft, minCoverage: '62,5' }).minCoverage).toBe(62.5);
    expect(draftToDefinition({ ...draft, minCoverage: '' })).not.toHaveProperty('minCoverage');
  });

  it('makes keys from labels until the author types one', () => {
    expect(slugify('Saluda y se presenta')).toBe('saluda_y_se_presenta');
    expect(slugify('  ¡Ofrece el plan PREMIUM!  ')).toBe('ofrece_el_plan_premium');
    expect(slugify('???')).toBe('item');
    const c = { ...newCriterion(), label: 'Greets', key: 'custom_key', keyEdited: true, phrases: 'hello' };
    expect(
      (draftToDefinition({ name: 'n', language: '', minCoverage: '', criteria: [c], topics: [] }) as any).criteria[0]
        .key,
    ).toBe('custom_key');
  });

  it('places server issues next to their field', () => {
    expect(parseIssuePath('criteria[2].weight')).toEqual({ section: 'criteria', index: 2, field: 'weight' });
    expect(parseIssuePath('criteria[0].window.seconds')).toEqual({
      section: 'criteria',
      index: 0,
      field: 'window.seconds',
    });
    expect(parseIssuePath('topics')).toEqual({ section: 'topics', index: null, field: '' });
    expect(parseIssuePath('')).toEqual({ section: null, index: null, field: '' });
  });

  it('sizes a phrase box to show every phrase plus a line to type the next', () => {
    expect(phraseRows('')).toBe(3);
    expect(phraseRows('a\nb')).toBe(3);
    expect(phraseRows(Array.from({ length: 11 }, (_, i) => `phrase ${i}`).join('\n'))).toBe(12);
  });
});
