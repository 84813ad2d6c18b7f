import { describe, expect, it } from 'vitest';
import { keyMoments, segmentAtTime } from '../../src/web/lib/segments.ts';

const segs = [
  { start: 0.8, end: 4.0 },
  { start: 4.8, end: 9.5 },
  { start: 10.3, end: 14.0 },
  { start: 13.5, end: 16.0 }, // overlaps the previous one (cross-talk on stereo)
];

describe('segment playing at a time', () => {
  it('finds the segment containing the time', () => {
    expect(segmentAtTime(segs, 1)).toBe(0);
    expect(segmentAtTime(segs, 4.8)).toBe(1);
    expect(segmentAtTime(segs, 9.4)).toBe(1);
    expect(segmentAtTime(segs, 12)).toBe(2);
  });

  it('is -1 before the first word, in long pauses and after the end', () => {
    expect(segmentAtTime(segs, 0)).toBe(-1);
    expect(segmentAtTime(segs, 0.5)).toBe(-1);
    expect(segmentAtTime(segs, 9.9)).toBe(-1);
    expect(segmentAtTime(segs, 20)).toBe(-1);
    expect(segmentAtTime([], 3)).toBe(-1);
    expect(segmentAtTime(segs, Number.NaN)).toBe(-1);
  });

  it('bridges short gaps so the highlight does not flicker', () => {
    expect(segmentAtTime(segs, 4.1)).toBe(0);
    expect(segmentAtTime(segs, 4.1, 0)).toBe(-1);
  });

  it('on overlaps picks the latest started segment, then an earlier one still running', () => {
    expect(segmentAtTime(segs, 13.8)).toBe(3);
    const nested = [
      { start: 0, end: 10 },
      { start: 2, end: 3 },
    ];
    expect(segmentAtTime(nested, 5)).toBe(0);
  });

  it('scales to long transcripts', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ start: i * 2, end: i * 2 + 1.5 }));
    expect(segmentAtTime(many, 12_345.2)).toBe(6172);
    expect(segmentAtTime(many, 12_345.9)).toBe(-1);
  });
});

describe('key moments', () => {
  const transcript = [
    { start: 0, speaker: 'agent', text: 'Hola, buenos días.' },
    { start: 3.5, speaker: 'customer', text: 'Me han cobrado dos veces la factura de la luz de marzo.' },
    { start: 9, speaker: 'agent', text: 'Veo el cobro duplicado. Tramito la devolución hoy.' },
  ];
  it('finds each line of the extractive summary in the transcript: who said it and when', () => {
    expect(
      keyMoments(
        'Cliente: Me han cobrado dos veces la factura de la luz de marzo.\nAgente: Tramito la devolución hoy.',
        transcript,
      ),
    ).toEqual([
      { speaker: 'customer', start: 3.5, text: 'Me han cobrado dos veces la factura de la luz de marzo.' },
      { speaker: 'agent', start: 9, text: 'Tramito la devolución hoy.' },
    ]);
  });
  it('leaves a written summary (not transcript sentences) as text', () => {
    expect(keyMoments('The customer was charged twice; a refund was issued.', transcript)).toBeNull();
    expect(keyMoments('', transcript)).toBeNull();
  });
});
