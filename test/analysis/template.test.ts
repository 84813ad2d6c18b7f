import { describe, expect, it } from 'vitest';
import { llmQuestions } from '../../src/analysis/examples/index.ts';
import {
  enCustomerSupport,
  esAtencionCliente,
  exampleTemplates,
  parseTemplate,
  splitTemplateFile,
} from '../../src/analysis/index.ts';

const phrase = { key: 'greeting', label: 'Greeting', kind: 'phrase', weight: 3, phrases: ['hello'] };

function issues(json: unknown): { path: string; message: string }[] {
  const result = parseTemplate(json);
  if (result.ok) throw new Error('expected the template to be rejected');
  return result.issues;
}

describe('parseTemplate', () => {
  it('accepts a minimal template and fills in defaults', () => {
    const result = parseTemplate({ version: 1, criteria: [phrase] });
    expect(result).toEqual({
      ok: true,
      template: {
        version: 1,
        criteria: [{ ...phrase, critical: false, speaker: 'any', minCount: 1 }],
        topics: [],
      },
    });
  });

  it('accepts JSON text', () => {
    expect(parseTemplate(JSON.stringify({ version: 1, criteria: [phrase] })).ok).toBe(true);
    expect(issues('{not json')).toEqual([{ path: '', message: 'the template is not valid JSON' }]);
  });

  it('reports duplicate criterion and topic keys', () => {
    const found = issues({
      version: 1,
      criteria: [phrase, { ...phrase, label: 'Again' }],
      topics: [
        { key: 'billing', label: 'Billing', phrases: ['invoice'] },
        { key: 'billing', label: 'Billing 2', phrases: ['bill'] },
      ],
    });
    expect(found).toEqual([
      { path: 'criteria[1].key', message: 'criterion key "greeting" is used more than once' },
      { path: 'topics[1].key', message: 'topic key "billing" is used more than once' },
    ]);
  });

  it('reports a weight out of range', () => {
    expect(issues({ version: 1, criteria: [{ ...phrase, weight: 11 }] })).toEqual([
      { path: 'criteria[0].weight', message: 'weight must be a whole number from 1 to 10' },
    ]);
  });

  it('reports missing or empty phrases', () => {
    const { phrases: _omitted, ...withoutPhrases } = phrase;
    expect(issues({ version: 1, criteria: [withoutPhrases] })).toEqual([
      { path: 'criteria[0].phrases', message: 'phrases is required' },
    ]);
    expect(issues({ version: 1, criteria: [{ ...phrase, phrases: [] }] })).toEqual([
      { path: 'criteria[0].phrases', message: 'phrases must list at least one phrase' },
    ]);
    expect(issues({ version: 1, criteria: [{ ...phrase, phrases: ['?!'] }] })).toEqual([
      { path: 'criteria[0].phrases[0]', message: 'a phrase must contain at least one word' },
    ]);
  });

  it('explains unknown kinds, unknown fields and wrong types', () => {
    expect(
      issues({
        version: 2,
        criteria: [
          { ...phrase, kind: 'keyword' },
          { ...phrase, key: 'b', wieght: 2 },
          { ...phrase, key: 'c', critical: 'yes' },
        ],
      }),
    ).toEqual([
      { path: 'version', message: 'version must be 1' },
      { path: 'criteria[0].kind', message: 'kind must be one of: phrase, forbidden, metric, llm' },
      { path: 'criteria[1]', message: 'unknown field "wieght"' },
      { path: 'criteria[2].critical', message: 'critical must be true or false, not a string' },
    ]);
  });

  it('checks metric thresholds', () => {
    const metric = { key: 'talk', label: 'Talk', kind: 'metric', weight: 1, metric: 'talk_ratio' };
    expect(issues({ version: 1, criteria: [{ ...metric, op: 'between', min: 0.7, max: 0.3 }] })).toEqual([
      { path: 'criteria[0].max', message: 'max must be greater than or equal to min' },
    ]);
    expect(issues({ version: 1, criteria: [{ ...metric, op: 'lt' }] })).toEqual([
      { path: 'criteria[0].value', message: 'value is required when op is "lt"' },
    ]);
    expect(issues({ version: 1, criteria: [{ ...metric, op: 'lt', value: 60 }] })).toEqual([
      { path: 'criteria[0].value', message: 'talk_ratio is a fraction from 0 to 1 (write 0.6 for 60%)' },
    ]);
  });
});

describe('example templates', () => {
  it('parse, carry their own names and use every kind a call can be scored on offline', () => {
    expect(exampleTemplates.map((t) => [t.id, t.name])).toEqual([
      ['en-customer-support', 'Customer support'],
      ['es-atencion-cliente', 'Atención al cliente'],
    ]);
    for (const example of [enCustomerSupport, esAtencionCliente]) {
      const kinds = new Set(example.definition.criteria.map((c) => c.kind));
      expect([...kinds].sort()).toEqual(['forbidden', 'metric', 'phrase']);
      expect(example.definition.topics.length).toBeGreaterThanOrEqual(4);
    }
    expect(enCustomerSupport.definition.language).toBe('en');
    expect(esAtencionCliente.definition.language).toBe('es');
  });

  // Reports and filters merge rows by key: "Billing / Facturación" needs the same key in both.
  it('share every criterion and topic key across languages, with labels of their own', () => {
    const keys = (t: typeof enCustomerSupport, list: 'criteria' | 'topics') => t.definition[list].map((c) => c.key);
    expect(keys(esAtencionCliente, 'criteria')).toEqual(keys(enCustomerSupport, 'criteria'));
    expect(keys(esAtencionCliente, 'topics')).toEqual(keys(enCustomerSupport, 'topics'));
    const billing = (t: typeof enCustomerSupport) => t.definition.topics.find((x) => x.key === 'billing')?.label;
    expect([billing(enCustomerSupport), billing(esAtencionCliente)]).toEqual(['Billing', 'Facturación']);
    enCustomerSupport.definition.criteria.forEach((c, i) => {
      const es = esAtencionCliente.definition.criteria[i]!;
      expect({ kind: es.kind, weight: es.weight, critical: es.critical }).toEqual({
        kind: c.kind,
        weight: c.weight,
        critical: c.critical,
      });
      expect(es.label).not.toBe(c.label);
    });
  });

  it('offer the language-model questions as an add-on with the same key in each language', () => {
    const en = llmQuestions('en');
    const es = llmQuestions('es');
    expect(en.map((c) => [c.key, c.kind])).toEqual([['resolution', 'llm']]);
    expect(es.map((c) => c.key)).toEqual(['resolution']);
    expect(es[0]?.label).toBe('Resuelve la consulta');
  });
});

describe('splitTemplateFile', () => {
  it("takes the file's name out of the definition", () => {
    expect(splitTemplateFile('{"name":"Ventas","version":1}')).toEqual({ name: 'Ventas', definition: { version: 1 } });
  });

  it('leaves what it cannot split for the validator to report', () => {
    expect(splitTemplateFile('{ "version": ')).toEqual({ name: undefined, definition: '{ "version": ' });
    expect(splitTemplateFile({ name: 7, version: 1 })).toEqual({
      name: undefined,
      definition: { name: 7, version: 1 },
    });
    expect(issues(splitTemplateFile({ name: 7, version: 1, criteria: [phrase] }).definition)).toEqual([
      { path: '', message: 'unknown field "name"' },
    ]);
  });
});
