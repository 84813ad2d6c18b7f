import { describe, expect, it } from 'vitest';
import { analyzeCall, parseTemplate } from '../../src/analysis/index.ts';
import { callSentiment, scoreText, trend } from '../../src/analysis/sentiment.ts';
import { mono, stereo, template } from './helpers.ts';

const label = (text: string, language: 'en' | 'es') => scoreText(text, language).label;

describe('segment sentiment', () => {
  it('reads complaints, thanks and requests in English', () => {
    expect(label("I've been on the phone for an hour, this is ridiculous.", 'en')).toBe('negative');
    expect(label('Thank you so much, that solves it.', 'en')).toBe('positive');
    expect(label("I'd like to check the status of my order, please.", 'en')).toBe('neutral');
  });

  it('reads complaints, thanks and requests in Spanish', () => {
    expect(label('Estoy harto, es la tercera vez que llamo.', 'es')).toBe('negative');
    expect(label('Muchísimas gracias, ha sido muy amable.', 'es')).toBe('positive');
    expect(label('¿Me puede decir cuándo termina mi contrato?', 'es')).toBe('neutral');
  });

  it('turns negated words around, softened', () => {
    const notBad = scoreText("That's not bad at all.", 'en');
    expect(notBad.label).toBe('positive');
    // "not bad" is milder praise than "good".
    expect(notBad.score).toBeLessThan(scoreText("That's good.", 'en').score);
    expect(label("I'm not happy with this.", 'en')).toBe('negative');
    expect(label("It still doesn't work.", 'en')).toBe('negative');
    expect(label('No está mal, me quedo con la oferta.', 'es')).toBe('positive');
    expect(label('No estoy nada contento con la respuesta.', 'es')).toBe('negative');
    expect(label('Sigue sin funcionar.', 'es')).toBe('negative');
  });

  it('does not read "menos mal" or "no problem" as complaints', () => {
    expect(label('Menos mal que llamé.', 'es')).toBe('positive');
    expect(label('No problem, thanks.', 'en')).toBe('positive');
  });

  it('keeps scores within −1…1, neutral at 0', () => {
    const strong = scoreText('Terrible, awful, horrible, the worst service, I hate it, useless!', 'en');
    expect(strong.score).toBeGreaterThanOrEqual(-1);
    expect(strong.score).toBeLessThan(-0.8);
    expect(scoreText('', 'en')).toEqual({ label: 'neutral', score: 0 });
  });

  it('measures the trend as last third minus first third', () => {
    expect(trend([-0.6, -0.4, 0, 0.2, 0.5, 0.7])).toBeCloseTo(1.1, 3);
    expect(trend([0.5])).toBeNull();
  });
});

const angryThenThankful = stereo([
  [0, 4, 'agent', 'Good morning, thank you for calling Acme, this is Laura.'],
  [5, 10, 'customer', "This is the third time I'm calling, I'm really angry, nothing works."],
  [11, 14, 'agent', "I'm sorry about that, let me check your account."],
  [15, 18, 'customer', 'The internet keeps dropping every evening, it is unacceptable.'],
  [19, 24, 'agent', 'I have reset the line and booked an engineer for tomorrow morning.'],
  [25, 28, 'customer', 'Okay, tomorrow morning then.'],
  [29, 32, 'agent', 'It should work now. Can you try?'],
  [33, 36, 'customer', 'Yes, it works now, that is great.'],
  [37, 40, 'customer', 'Thank you so much, you have been really helpful.'],
]);

describe('call sentiment', () => {
  it('rises for a customer who starts angry and ends thankful', () => {
    const s = callSentiment(angryThenThankful);
    expect(s.segments).toHaveLength(angryThenThankful.segments.length);
    expect(s.segments[1]!.label).toBe('negative');
    expect(s.segments[8]!.label).toBe('positive');
    expect(s.customer_trend).toBeGreaterThan(0.5);
    expect(s.agent?.label).toBe('positive');
  });

  it('has no per-speaker figures on a mono recording', () => {
    const s = callSentiment(mono([[0, 3, 'Thank you, that was great.']]));
    expect(s.customer).toBeNull();
    expect(s.customer_trend).toBeNull();
    expect(s.overall?.label).toBe('positive');
  });

  it('judges "customer ends no worse than they started" as a metric criterion', async () => {
    const criterion = {
      key: 'ends_happier',
      label: 'Customer ends no worse than they started',
      kind: 'metric',
      metric: 'customer_sentiment_trend',
      op: 'gte',
      value: 0,
      weight: 1,
    } as const;
    const rising = await analyzeCall(angryThenThankful, template({ criteria: [criterion] }));
    expect(rising.criteria[0]).toMatchObject({ result: 'passed', reason_code: 'metric_gte' });
    expect(rising.sentiment.customer_trend).toBeGreaterThan(0);

    const souring = stereo([
      [0, 3, 'customer', 'Hi, thanks for calling me back, that is kind of you.'],
      [4, 8, 'agent', 'The fee cannot be refunded.'],
      [9, 12, 'customer', 'That is unacceptable, I am really disappointed.'],
    ]);
    const falling = await analyzeCall(souring, template({ criteria: [criterion] }));
    expect(falling.criteria[0]).toMatchObject({ result: 'failed' });

    const unknown = await analyzeCall(mono([[0, 3, 'Thanks.']]), template({ criteria: [criterion] }));
    expect(unknown.criteria[0]).toMatchObject({ result: 'na', reason_code: 'metric_mono' });
  });

  it('accepts negative thresholds for sentiment only, within their range', () => {
    const base = { version: 1, language: 'en' } as const;
    const metric = (metric: string, value: number) => ({
      ...base,
      criteria: [{ key: 'k', label: 'L', kind: 'metric', metric, op: 'gte', value, weight: 1 }],
    });
    expect(parseTemplate(metric('customer_sentiment', -0.2)).ok).toBe(true);
    expect(parseTemplate(metric('customer_sentiment', -1.5)).ok).toBe(false);
    expect(parseTemplate(metric('customer_sentiment_trend', -1.5)).ok).toBe(true);
    expect(parseTemplate(metric('duration', -1)).ok).toBe(false);
  });
});
