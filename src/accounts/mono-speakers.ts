/**
 * Which of the two voices of a mono recording is the agent. Transcription makes the voice heard first
 * the agent (the agent usually greets first); an account set to 'greeting' asks the template instead:
 * the voice that says more of the template's agent phrases (greeting first: phrases expected at the
 * start count double) is the agent. Without such phrases, or on a tie, the voice heard first stays.
 */
import { findPhrases } from '../analysis/match.ts';
import type { TemplateDefinition } from '../analysis/template.ts';
import type { Segment } from '../call-columns.ts';

export const MONO_SPEAKERS = ['off', 'first_speaker', 'greeting'] as const;
export type MonoSpeakers = (typeof MONO_SPEAKERS)[number];

export function monoSpeakersOf(value: string): MonoSpeakers {
  return (MONO_SPEAKERS as readonly string[]).includes(value) ? (value as MonoSpeakers) : 'first_speaker';
}

/** The agent's expected phrases of a template, with a weight (2 for greetings said at the start). */
export function agentPhrases(
  definition: TemplateDefinition | null | undefined,
): { phrases: string[]; weight: number }[] {
  if (!definition) return [];
  return definition.criteria.flatMap((c) =>
    c.kind === 'phrase' && c.speaker === 'agent'
      ? [{ phrases: c.phrases, weight: c.window?.from === 'start' ? 2 : 1 }]
      : [],
  );
}

/** The segments with agent and customer swapped when the customer's side says more of the agent's phrases. */
export function assignAgentByPhrases(
  segments: Segment[],
  expected: readonly { phrases: string[]; weight: number }[],
): { segments: Segment[]; swapped: boolean } {
  if (!expected.length) return { segments, swapped: false };
  const score = (speaker: 'agent' | 'customer') => {
    const side = segments.filter((s) => s.speaker === speaker);
    return expected.reduce((sum, e) => sum + e.weight * Math.min(1, findPhrases(side, e.phrases).length), 0);
  };
  if (score('customer') <= score('agent')) return { segments, swapped: false };
  const swap = { agent: 'customer', customer: 'agent', speaker: 'speaker' } as const;
  return { segments: segments.map((s) => ({ ...s, speaker: swap[s.speaker] })), swapped: true };
}
