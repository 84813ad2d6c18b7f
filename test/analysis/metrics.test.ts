import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../../src/analysis/index.ts';
import { mono, stereo } from './helpers.ts';

describe('computeMetrics', () => {
  const call = stereo(
    [
      [2, 12, 'agent', 'one two three four five six seven eight nine ten'],
      [11, 21, 'customer', 'customer talks over the agent here for a while'],
      [30, 40, 'agent', 'one two three four five six seven eight nine ten'],
      [39.9, 40.9, 'customer', 'ok'],
    ],
    50,
  );

  it('measures talk time per speaker and the agent talk ratio', () => {
    const m = computeMetrics(call);
    expect(m.duration_seconds).toBe(50);
    expect(m.agent_talk_seconds).toBe(20);
    expect(m.customer_talk_seconds).toBe(11);
    expect(m.talk_ratio).toBeCloseTo(20 / 31, 4);
  });

  it('measures silence from gaps where nobody speaks', () => {
    const m = computeMetrics(call);
    // Speech covers 2–21 and 30–40.9: 29.9 s of 50.
    expect(m.speech_seconds).toBe(29.9);
    expect(m.silence_ratio).toBe(0.402);
    // Leading (0–2) and trailing (40.9–50) silence are not dead air; the gap 21–30 is.
    expect(m.longest_silence_seconds).toBe(9);
  });

  it('counts interruptions only when the overlap exceeds 0.3 s', () => {
    const m = computeMetrics(call);
    // Customer at 11 s overlaps the agent by 1 s; the "ok" at 39.9 s overlaps by 0.1 s only.
    expect(m.interruptions).toBe(1);
    expect(m.customer_interruptions).toBe(1);
    expect(m.agent_interruptions).toBe(0);
  });

  it('measures the agent pace per minute of agent speech', () => {
    expect(computeMetrics(call).words_per_minute).toBe(60);
  });

  it('leaves speaker metrics unknown on mono and measures everyone', () => {
    const m = computeMetrics(mono([[0, 30, 'one two three four five six seven eight nine ten']], 60));
    expect(m.talk_ratio).toBeNull();
    expect(m.interruptions).toBeNull();
    expect(m.agent_talk_seconds).toBeNull();
    expect(m.words_per_minute).toBe(20);
    expect(m.silence_ratio).toBe(0.5);
  });

  it('never reports speech beyond the duration', () => {
    const m = computeMetrics(stereo([[0, 12, 'agent', 'hello']], 10));
    expect(m.duration_seconds).toBe(12);
    expect(m.silence_ratio).toBe(0);
  });
});
