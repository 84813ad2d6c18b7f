/** Input of the analysis engine, as produced by the transcription stage. */

import type { Segment } from '../call-columns.ts';

export type { Evidence, Segment, Speaker as SpeakerRole } from '../call-columns.ts';

export interface AnalysisInput {
  segments: Segment[];
  durationSeconds: number;
  channels: number;
  language: string;
}

/**
 * Speakers are known when every segment is attributed to agent or customer (stereo, or a future
 * diarized mono). A stereo call with no speech still has known speakers: it simply has no talk.
 */
export function speakersKnown(input: Pick<AnalysisInput, 'segments' | 'channels'>): boolean {
  const attributed = input.segments.every((s) => s.speaker !== 'speaker');
  return input.channels >= 2 ? attributed : attributed && input.segments.length > 0;
}
