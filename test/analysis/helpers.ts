import { parseTemplate, type TemplateDefinition, type TemplateDefinitionInput } from '../../src/analysis/index.ts';
import type { AnalysisInput, Segment } from '../../src/analysis/index.ts';

type Line = [start: number, end: number, speaker: Segment['speaker'], text: string];

/** Stereo call from [start, end, speaker, text] lines; agent on channel 0. */
export function stereo(lines: Line[], durationSeconds?: number, language = 'en'): AnalysisInput {
  return {
    segments: lines.map(([start, end, speaker, text]) => ({
      start,
      end,
      speaker,
      text,
      channel: speaker === 'customer' ? 1 : 0,
    })),
    durationSeconds: durationSeconds ?? Math.max(0, ...lines.map((l) => l[1])),
    channels: 2,
    language,
  };
}

/** Mono call: every line is spoken by an unknown 'speaker'. */
export function mono(lines: [number, number, string][], durationSeconds?: number, language = 'en'): AnalysisInput {
  return {
    segments: lines.map(([start, end, text]) => ({ start, end, speaker: 'speaker', text, channel: 0 })),
    durationSeconds: durationSeconds ?? Math.max(0, ...lines.map((l) => l[1])),
    channels: 1,
    language,
  };
}

export function template(input: Omit<TemplateDefinitionInput, 'version'>): TemplateDefinition {
  const parsed = parseTemplate({ version: 1, ...input });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.template;
}

/** A typical support call used across tests. */
export const supportCall = stereo(
  [
    [0.5, 4, 'agent', 'Good morning, thank you for calling Acme, my name is Laura.'],
    [4.5, 9, 'customer', 'Hi, I was charged twice on my last invoice and I need a refund.'],
    [9.5, 13, 'agent', "I'm sorry to hear that. Can I have your account number please?"],
    [13.5, 16, 'customer', 'Sure, it is four five six seven.'],
    [17, 24, 'agent', 'Thank you. I can see the duplicate charge on the invoice from March.'],
    [24.5, 30, 'agent', 'I have requested the refund of the duplicate charge to your card.'],
    [30.5, 33, 'customer', 'Great, thanks a lot.'],
    [33.5, 37, 'agent', 'Is there anything else I can help you with today?'],
    [37.5, 39, 'customer', 'No, that is all. Bye.'],
  ],
  40,
);
