// Honest scores (issue 10): a score carries the share of the template's weight it rests on, and a
// template can ask for a person when too little of it could be evaluated.
import { describe, expect, it } from 'vitest';
import { analyzeCall } from '../../src/analysis/index.ts';
import { supportCall, template } from './helpers.ts';

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
