/** Input of the analysis engine, as produced by the transcription stage. */

/** `speaker` is the channel's role on stereo; `'speaker'` on mono, where who is talking is unknown. */
export type SpeakerRole = 'agent' | 'customer' | 'speaker';

export interface Segment {
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
  speaker: SpeakerRole;
  text: string;
  channel: number;
}

export interface AnalysisInput {
  segments: Segment[];
  durationSeconds: number;
  channels: number;
  language: string;
}

/** A quote from the transcript backing a criterion result. */
export interface Evidence {
  quote: string;
  start: number;
  end: number;
  speaker: SpeakerRole;
}

/**
 * Speakers are known when every segment is attributed to agent or customer (stereo, or a future
 * diarized mono). A stereo call with no speech still has known speakers: it simply has no talk.
 */
export function speakersKnown(input: Pick<AnalysisInput, 'segments' | 'channels'>): boolean {
  const attributed = input.segments.every((s) => s.speaker !== 'speaker');
  return input.channels >= 2 ? attributed : attributed && input.segments.length > 0;
}
