/** Call metrics derived from transcript segments alone (no audio needed). */
import { tokenize } from './normalize.ts';
import { speakersKnown, type AnalysisInput, type Segment } from './types.ts';

/**
 * Times in seconds, ratios as fractions 0–1. `null` means "cannot be known": per-speaker figures on
 * mono recordings, or a ratio with nothing to divide by.
 */
export interface CallMetrics {
  duration_seconds: number;
  /** Time when anyone is speaking (overlaps counted once). */
  speech_seconds: number;
  agent_talk_seconds: number | null;
  customer_talk_seconds: number | null;
  /** Agent share of talk: agent / (agent + customer). */
  talk_ratio: number | null;
  /** Share of the recording where nobody speaks. */
  silence_ratio: number | null;
  /** Longest gap between two stretches of speech; leading and trailing silence (ringing, after hang-up) is not dead air. */
  longest_silence_seconds: number;
  /** A speaker starting while the other still talks for more than 0.3 s. */
  interruptions: number | null;
  agent_interruptions: number | null;
  customer_interruptions: number | null;
  /** Agent's pace on stereo, everyone's on mono; per minute of that speech, not of the call. */
  words_per_minute: number | null;
  agent_words_per_minute: number | null;
  customer_words_per_minute: number | null;
}

/** Overlap needed before talking over someone counts as an interruption rather than cross-talk noise. */
const INTERRUPTION_MIN_OVERLAP_SECONDS = 0.3;

type Interval = [number, number];

/** Sorted, merged intervals clipped to [0, limit]. */
function mergeIntervals(segments: readonly Segment[], limit: number): Interval[] {
  const intervals = segments
    .map((s): Interval => [Math.max(0, s.start), Math.min(limit, s.end)])
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  const merged: Interval[] = [];
  for (const [start, end] of intervals) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

function totalLength(intervals: readonly Interval[]): number {
  return intervals.reduce((sum, [start, end]) => sum + (end - start), 0);
}

function countInterruptions(by: readonly Segment[], of: readonly Segment[]): number {
  return by.filter((segment) =>
    of.some(
      (other) =>
        other.start < segment.start &&
        Math.min(other.end, segment.end) - segment.start > INTERRUPTION_MIN_OVERLAP_SECONDS,
    ),
  ).length;
}

function wordsPerMinute(segments: readonly Segment[], limit: number): number | null {
  const seconds = totalLength(mergeIntervals(segments, limit));
  if (seconds <= 0) return null;
  const words = segments.reduce((sum, s) => sum + tokenize(s.text).length, 0);
  return round(words / (seconds / 60), 1);
}

function round(value: number, decimals = 2): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

export function computeMetrics(input: AnalysisInput): CallMetrics {
  const { segments } = input;
  const lastSpeech = segments.reduce((max, s) => Math.max(max, s.end), 0);
  // Trust the decoder's duration, but never let speech run past the end of the call.
  const duration = Math.max(input.durationSeconds, lastSpeech);
  const speech = mergeIntervals(segments, duration);
  const speechSeconds = totalLength(speech);

  let longestSilence = 0;
  for (let i = 1; i < speech.length; i++) longestSilence = Math.max(longestSilence, speech[i]![0] - speech[i - 1]![1]);

  const base = {
    duration_seconds: round(duration),
    speech_seconds: round(speechSeconds),
    silence_ratio: duration > 0 ? round((duration - speechSeconds) / duration, 4) : null,
    longest_silence_seconds: round(longestSilence),
  };

  if (!speakersKnown(input)) {
    return {
      ...base,
      agent_talk_seconds: null,
      customer_talk_seconds: null,
      talk_ratio: null,
      interruptions: null,
      agent_interruptions: null,
      customer_interruptions: null,
      words_per_minute: wordsPerMinute(segments, duration),
      agent_words_per_minute: null,
      customer_words_per_minute: null,
    };
  }

  const agent = segments.filter((s) => s.speaker === 'agent');
  const customer = segments.filter((s) => s.speaker === 'customer');
  const agentTalk = totalLength(mergeIntervals(agent, duration));
  const customerTalk = totalLength(mergeIntervals(customer, duration));
  const agentInterruptions = countInterruptions(agent, customer);
  const customerInterruptions = countInterruptions(customer, agent);
  const agentWpm = wordsPerMinute(agent, duration);
  return {
    ...base,
    agent_talk_seconds: round(agentTalk),
    customer_talk_seconds: round(customerTalk),
    talk_ratio: agentTalk + customerTalk > 0 ? round(agentTalk / (agentTalk + customerTalk), 4) : null,
    interruptions: agentInterruptions + customerInterruptions,
    agent_interruptions: agentInterruptions,
    customer_interruptions: customerInterruptions,
    words_per_minute: agentWpm,
    agent_words_per_minute: agentWpm,
    customer_words_per_minute: wordsPerMinute(customer, duration),
  };
}
