// Honest scores (issue 10): a score carries the share of the template's weight it rests on, and a
// template can ask for a person when too little of it could be evaluated.
import { describe, expect, it } from 'vitest';
import { analyzeCall } from '../../src/analysis/index.ts';
import { enCustomerSupport, esAtencionCliente } from '../../src/analysis/examples/index.ts';
import { stereo, supportCall, template } from './helpers.ts';

const criteria = [
  { key: 'greeting', label: 'Greets', kind: 'phrase' as const, weight: 3, phrases: ['thank you for calling Acme'] },
  { key: 'resolved', label: 'Resolves the issue', kind: 'llm' as const, weight: 5, question: 'Was it resolved?' },
  { key: 'closing', label: 'Offers more help', kind: 'phrase' as const, weight: 2, phrases: ['anything else'] },
];

describe('coverage', () => {
  it('is 1 when every criterion is evaluated', async () => {
    const r = await analyzeCall(supportCall, template({ criteria: [criteria[0]!, criteria[2]!] }));
    expect(r.coverage).toBe(1);
    expect(r.needsReview).toBe(false);
  });

  it('without a language model an llm criterion is N/A: the score stays 100 but rests on half the weight', async () => {
    const r = await analyzeCall(supportCall, template({ criteria }));
    expect(r.score).toBe(100);
    expect(r.coverage).toBe(0.5);
    expect(r.needsReview).toBe(false);
  });

  it("marks the call for review when coverage is below the template's minimum", async () => {
    const strict = await analyzeCall(supportCall, template({ criteria, minCoverage: 60 }));
    expect(strict.needsReview).toBe(true);
    const lenient = await analyzeCall(supportCall, template({ criteria, minCoverage: 50 }));
    expect(lenient.needsReview).toBe(false);
  });
});

// Issue 25: the shipped examples are what a new account's first calls are scored with, with no LLM_URL.
describe('the example templates with no language model', () => {
  it('evaluate every criterion of a stereo call in English and in Spanish (coverage 1)', async () => {
    const en = await analyzeCall(supportCall, enCustomerSupport.definition);
    expect(en.criteria.filter((c) => c.result === 'na').map((c) => c.key)).toEqual([]);
    expect(en.coverage).toBe(1);
    const llamada = stereo(
      [
        [0.5, 4, 'agent', 'Buenos días, gracias por llamar a Acme, le atiende Laura.'],
        [4.5, 9, 'customer', 'Hola, me han cobrado dos veces la factura de marzo.'],
        [9.5, 13, 'agent', 'Lo entiendo. ¿Me puede dar su nombre, por favor?'],
        [13.5, 16, 'customer', 'Sí, Carmen López.'],
        [17, 24, 'agent', 'Gracias. Veo el cargo duplicado y le hago la devolución hoy.'],
        [24.5, 28, 'customer', 'Perfecto, muchas gracias.'],
        [28.5, 32, 'agent', '¿Puedo ayudarle en algo más?'],
        [32.5, 34, 'customer', 'No, nada más. Adiós.'],
      ],
      35,
      'es',
    );
    const es = await analyzeCall(llamada, esAtencionCliente.definition);
    expect(es.criteria.filter((c) => c.result === 'na').map((c) => c.key)).toEqual([]);
    expect(es.coverage).toBe(1);
    expect(es.score).toBe(100);
    expect([es.topic, es.topic_label]).toEqual(['billing', 'Facturación']);
  });
});
