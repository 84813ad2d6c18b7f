// Background talkers (a call centre's floor, a café) are speech to Silero: its probability hovers at
// 0.3–0.8 through the other speaker's turns and the pauses, a voice region runs to its cap, and the
// decoder loops on what is mostly somebody else's voice (issue 27, docs/benchmarks/verdicts.md).
// What tells the channel's own speaker apart is the level: the speaker is close to the microphone,
// the babble is a steady bed under everything. So on a channel that sounds like babble, a window only
// counts as speech when the channel's level over the last half second stands above its floor.
//
// Decided window by window from the audio before it (the first second from that second), so a recording
// fed in any block size gives the same regions, and the whole file the same as its stream.

const MIN_DB = -120;
const BIN_DB = 0.5;
const BINS = Math.ceil(-MIN_DB / BIN_DB) + 1;

/** The gate's settings, chosen on bench:verdicts' tuning calls (both channels, all conditions). */
const GATE = {
  /**
   * A window whose Silero probability lies in [ambiguous[0], ambiguous[1]) is one the model is unsure
   * about. Clean, pink- and street-noise calls have 2–7 % of such windows, babble 24–77 %: from
   * `babblyShare` on, the channel is treated as babble.
   */
  ambiguous: [0.2, 0.8],
  babblyShare: 0.15,
  /** The share is trusted after 1 s of audio; that first second is judged once it has been heard. */
  minWindows: 31,
  /** Floor: this quantile of the window levels heard so far (the babble's own level, between turns). */
  floorQuantile: 0.3,
  /** Level: mean power of the last 16 windows (0.5 s), which bridges the gaps between words. */
  levelWindows: 16,
  /** The channel's level must stand this far above the floor to count as its speaker (dB). */
  aboveFloorDb: 4,
} as const;

export class BabbleGate {
  private readonly levels = new Uint32Array(BINS);
  private count = 0;
  private ambiguous = 0;
  private readonly recent = new Float64Array(GATE.levelWindows);
  // The first second's windows wait until the channel has been judged on them, so a call that opens on
  // babble does not start with a region of it. Null once they have been given out.
  private held: { probability: number; levelDb: number }[] | null = [];
  private given: boolean[] = [];

  /**
   * Takes a window's Silero probability and mean square; gives back the speech probabilities to decide
   * regions on, in window order: none during the first second, then that second's at once, then one
   * per window.
   */
  push(probability: number, power: number): number[] {
    this.recent[this.count % GATE.levelWindows] = power;
    this.levels[binOf(power)]!++;
    this.count++;
    if (probability >= GATE.ambiguous[0] && probability < GATE.ambiguous[1]) this.ambiguous++;
    let sum = 0;
    const n = Math.min(this.count, GATE.levelWindows);
    for (let k = 0; k < n; k++) sum += this.recent[k]!;
    const levelDb = dbOf(sum / n);
    if (!this.held) return [this.decide(probability, levelDb)];
    this.held.push({ probability, levelDb });
    if (this.count < GATE.minWindows) return [];
    const held = this.held;
    this.held = null;
    return held.map((h) => this.decide(h.probability, h.levelDb));
  }

  /**
   * For each window given out since the last call, in window order: whether the gate was acting on it
   * (the channel judged as babble, so a region there is one that stood above the babble's level). Per
   * window, as decided, so it does not depend on how much audio arrived in one block.
   */
  takeEngaged(): boolean[] {
    const given = this.given;
    this.given = [];
    return given;
  }

  /** At the end of the recording: the windows still held (a recording shorter than a second), as heard. */
  flush(): number[] {
    const held = this.held ?? [];
    this.held = null;
    for (const _ of held) this.given.push(false);
    return held.map((h) => h.probability);
  }

  private decide(probability: number, levelDb: number): number {
    const engaged = this.ambiguous >= GATE.babblyShare * this.count;
    this.given.push(engaged);
    if (!engaged) return probability;
    return levelDb - this.floorDb() >= GATE.aboveFloorDb ? probability : 0;
  }

  private floorDb(): number {
    const target = GATE.floorQuantile * this.count;
    let seen = 0;
    for (let b = 0; b < BINS; b++) {
      seen += this.levels[b]!;
      if (seen >= target && this.levels[b]) return MIN_DB + b * BIN_DB;
    }
    return MIN_DB;
  }
}

const dbOf = (power: number) => (power > 0 ? Math.max(MIN_DB, 10 * Math.log10(power)) : MIN_DB);
const binOf = (power: number) => Math.min(BINS - 1, Math.round((dbOf(power) - MIN_DB) / BIN_DB));
