// @vitest-environment jsdom
// The call page's sentiment card and line tags say the reading in words (not colour alone), in the
// UI language, with the customer's trend worded as a change.
import { cleanup, render, screen } from '@testing-library/react';
import { createElement as h } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nProvider, type Lang } from '../../src/web/i18n/index.tsx';
import { SentimentCard, SentimentTag, signedScore } from '../../src/web/components/sentiment.tsx';

afterEach(cleanup);

const rising = {
  agent: { label: 'POSITIVE' as const, score: 0.31 },
  customer: { label: 'NEUTRAL' as const, score: 0.02 },
  customerTrend: 0.84,
  segments: [],
};

function show(lang: Lang, node: ReturnType<typeof h>) {
  // biome-ignore lint/correctness/noChildrenProp: I18nProvider's props type requires `children`.
  return render(h(I18nProvider, { lang, children: node }));
}

describe('sentiment on the call page', () => {
  it('words each reading and the trend in English', () => {
    show('en', h(SentimentCard, { sentiment: rising }));
    expect(screen.getByText('Customer overall')).toBeTruthy();
    expect(screen.getByText('Neutral')).toBeTruthy();
    expect(screen.getByText('Positive')).toBeTruthy();
    expect(screen.getByTestId('sentiment-trend').textContent).toBe('Improved (+0.84)');
  });

  it('reads natively in Spanish, with a decimal comma and a true minus sign', () => {
    show('es', h(SentimentCard, { sentiment: { ...rising, customerTrend: -0.4 } }));
    expect(screen.getByTestId('sentiment-trend').textContent).toBe('Empeoró (−0,40)');
    expect(screen.getByText('Cliente en conjunto')).toBeTruthy();
  });

  it('explains why there is no per-speaker reading on mono', () => {
    show('en', h(SentimentCard, { sentiment: { agent: null, customer: null, customerTrend: null, segments: [] } }));
    expect(screen.getByText(/not told apart/)).toBeTruthy();
  });

  // The reports count a customer as ending better / worse from ±0.1 on (migration
  // 20261126600000_report_sentiment): the same edge as this card's words, so a call the dashboard
  // counts as improved says "Improved" on its page.
  it('words a change from ±0.1 on, where the reports count it', () => {
    const trendText = (customerTrend: number) => {
      cleanup();
      show('en', h(SentimentCard, { sentiment: { ...rising, customerTrend } }));
      return screen.getByTestId('sentiment-trend').textContent;
    };
    expect(trendText(0.1)).toMatch(/^Improved/);
    expect(trendText(0.099)).toMatch(/^About the same/);
    expect(trendText(-0.099)).toMatch(/^About the same/);
    expect(trendText(-0.1)).toMatch(/^Got worse/);
  });

  it('tags a line with its label and its score as a tooltip', () => {
    show('es', h(SentimentTag, { reading: { label: 'NEGATIVE', score: -0.52 } }));
    const tag = screen.getByText('Negativo');
    expect(tag.closest('[title]')?.getAttribute('title')).toBe('Sentimiento −0,52 (de −1 a +1)');
    expect(signedScore(0, 'en')).toBe('0.00');
  });
});
