import { describe, expect, it } from 'vitest';
import { criterionReason } from '../../src/web/lib/criterion-reason.ts';
import { en } from '../../src/web/i18n/en.ts';
import { es } from '../../src/web/i18n/es.ts';
import * as i18nModule from '../../src/web/i18n/index.tsx';

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
          reasonParams: { metric: 'talk_ratio', unit: 'percent', value: 0.645, min: 0.3, max: 0.6 },
        },
        t,
        'es',
      ),
    ).toBe('Proporción de habla del agente 64,5\u00a0%; debe estar entre 30\u00a0% y 60\u00a0%');
    expect(criterionReason({ reason: 'x', reasonCode: 'forbidden_none', reasonParams: { mono: 1 } }, t)).toBe(
      'no se dijo ninguna frase prohibida (interlocutores desconocidos: se revisó todo el audio)',
    );
  });

  it('says what was expected beside what was heard outside the window, and counts in words (issue 26)', () => {
    const { translate } = i18nModule;
    const late = {
      reason: 'x',
      reasonCode: 'phrase_outside_window',
      reasonParams: { quote: 'thank you for calling Acme', at: '00:49', phrases: '"acme"', from: 'start', seconds: 30 },
    };
    const en_ = (k: string, p?: Record<string, string | number>) => translate('en', k as never, p);
    const es_ = (k: string, p?: Record<string, string | number>) => translate('es', k as never, p);
    expect(criterionReason(late, en_)).toBe(
      'expected "acme" in the first 30 s; heard only outside that window: “thank you for calling Acme” at 00:49',
    );
    expect(criterionReason(late, es_)).toBe(
      'se esperaba "acme" en los primeros 30 s; solo se oyó fuera de ese intervalo: «thank you for calling Acme» en 00:49',
    );
    // Older analyses, without the phrases: what was heard, as before.
    const { phrases: _, ...old } = late.reasonParams;
    expect(criterionReason({ ...late, reasonParams: old }, en_)).toBe(
      'said only outside the time window: “thank you for calling Acme” at 00:49',
    );
    const few = (count: number) => ({ reason: 'x', reasonCode: 'phrase_too_few', reasonParams: { count, min: 3 } });
    expect(criterionReason(few(1), en_)).toBe('said once; at least 3 needed');
    expect(criterionReason(few(2), en_)).toBe('said 2 times; at least 3 needed');
    expect(criterionReason(few(1), es_)).toBe('lo dijo una vez; hacen falta al menos 3');
    expect(criterionReason(few(2), es_)).not.toContain('(');
  });

  it('formats metric numbers in the UI language, by their unit', () => {
    const between = {
      reason: 'x',
      reasonCode: 'metric_between',
      reasonParams: { metric: 'talk_ratio', unit: 'percent', value: 0.645, min: 0.3, max: 0.6 },
    };
    expect(criterionReason(between, tr(en), 'en')).toBe('Agent talk share 64.5%; must be between 30% and 60%');
    const silence = {
      reason: 'x',
      reasonCode: 'metric_lte',
      reasonParams: { metric: 'longest_silence', unit: 'seconds', value: 8.5, threshold: 5 },
    };
    expect(criterionReason(silence, tr(es), 'es')).toBe('Silencio más largo 8,5 s; debe ser como máximo 5 s');
    expect(criterionReason(silence, tr(en), 'en')).toBe('Longest silence 8.5 s; must be at most 5 s');
    const mood = {
      reason: 'x',
      reasonCode: 'metric_gte',
      reasonParams: { metric: 'customer_sentiment', unit: 'signed', value: 0.52, threshold: -0.25 },
    };
    expect(criterionReason(mood, tr(es), 'es')).toBe('Sentimiento del cliente +0,52; debe ser al menos -0,25');
    expect(criterionReason(mood, tr(en), 'en')).toBe('Customer sentiment +0.52; must be at least -0.25');
  });

  it('shows the strings of calls analyzed before numbers were sent raw as they are', () => {
    const old = {
      reason: 'x',
      reasonCode: 'metric_between',
      reasonParams: { metric: 'talk_ratio', value: '64.5%', min: '30%', max: '60%' },
    };
    expect(criterionReason(old, tr(es), 'es')).toBe('Proporción de habla del agente 64.5%; debe estar entre 30% y 60%');
  });

  it('keeps the English reason when there is no known code (older calls, a model’s own words)', () => {
    expect(criterionReason({ reason: 'The agent offered a refund.', reasonCode: null }, tr(en))).toBe(
      'The agent offered a refund.',
    );
    expect(criterionReason({ reason: 'something', reasonCode: 'from_the_future' }, tr(es))).toBe('something');
  });
});
