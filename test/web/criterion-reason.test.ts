import { describe, expect, it } from 'vitest';
import { criterionReason } from '../../src/web/lib/criterion-reason.ts';
import { en } from '../../src/web/i18n/en.ts';
import { es } from '../../src/web/i18n/es.ts';

const tr = (dict: Record<string, string>) =>
  ((key: string, params: Record<string, string | number> = {}) =>
    dict[key]!.replace(/\{(\w+)\}/g, (_m, k: string) => String(params[k]))) as any;

describe('criterion reasons in the UI language', () => {
  it('says coded reasons in Spanish, windows and metric names included', () => {
    const t = tr(es);
    expect(
      criterionReason(
        {
          reason: 'x',
          reasonCode: 'phrase_missing',
          reasonParams: { phrases: '"adiós"', from: 'end', seconds: 20, mono: 0 },
        },
        t,
      ),
    ).toBe('no se dijo ninguna de "adiós" en los últimos 20 s');
    expect(
      criterionReason(
        {
          reason: 'x',
          reasonCode: 'metric_between',
          reasonParams: { metric: 'talk_ratio', value: '64.5%', min: '30%', max: '60%' },
        },
        t,
      ),
    ).toBe('Proporción de habla del agente 64.5%; debe estar entre 30% y 60%');
    expect(criterionReason({ reason: 'x', reasonCode: 'forbidden_none', reasonParams: { mono: 1 } }, t)).toBe(
      'no se dijo ninguna frase prohibida (interlocutores desconocidos: se revisó todo el audio)',
    );
  });

  it('keeps the English reason when there is no known code (older calls, a model’s own words)', () => {
    expect(criterionReason({ reason: 'The agent offered a refund.', reasonCode: null }, tr(en))).toBe(
      'The agent offered a refund.',
    );
    expect(criterionReason({ reason: 'something', reasonCode: 'from_the_future' }, tr(es))).toBe('something');
  });
});
