// Beam search with shallow-fusion biasing, independent of the model: the engine supplies one
// batched decoder step, this module chooses the tokens. Width 1 without a vocabulary is exactly
// greedy decoding.

/** One node of the vocabulary's token trie. */
interface TrieNode {
  next: Map<number, TrieNode>;
  /** Share of the boost its token earns (the highest any spelling through it gives). */
  weight: number;
  /** The entry (index into the vocabulary) that ends here, if one does. */
  end: number | null;
  /** Entries whose token sequences pass through this node. */
  entries: number[];
}

/**
 * The account's vocabulary as a trie of token sequences. Each token that extends a listed
 * sequence earns `boost` (in nats); a match that breaks off before the sequence ends gives its
 * earnings back, so a word is only ever helped to be completed, and unlisted words are not forced:
 * the boost is bounded per token and never outweighs a clearly more likely word.
 */
/**
 * Nats per token, with DEFAULT_BEAM: chosen with bench:asr (2 and 3 gave the same gains in noise;
 * 2 left clean speech alone).
 */
export const DEFAULT_BIAS_BOOST = 2;

/**
 * Beam width: with the vocabulary, a beam lets a match that breaks off give its boost back before
 * it costs words (greedy decoding commits to the boosted token at once). bench:asr, telephone pink
 * 10 dB: WER 31 → 19.5 % (en) and 34 → 20 % (es), phrase recall 55 → 91 % / 42 → 92 %, for about
 * 1.5× the decoding time. Checked again 2026-11-26 (width 1 / 2 / 4, vocabulary on): pink 10 dB long
 * speech 15.9 / 10.2 / 12.1 % (en), 21.5 / 20.3 / 16.5 % (es), recall 18 / 21 / 21 of 23 phrases,
 * short Spanish answers 70 / 60 / 50 %; clean Spanish 12.7 / — / 8.9 %, clean English 1.3 % with any;
 * about 1.5× greedy's CPU time on dense speech. Width 4 stays.
 */
export const DEFAULT_BEAM = 4;

/**
 * Chunks whose decoder steps run as one batch (ASR_BATCH; 0 = each chunk steps alone, on a thread per
 * core). Batched, a worker holds one copy of each model and its steps read the weights once for all the
 * chunks in flight (src/transcription/moonshine.ts, StepBatcher): the same words, less memory and CPU
 * (docs/benchmarks/asr.md).
 */
export const DEFAULT_BATCH = 8;

export interface BiasTrie {
  root: TrieNode;
  boost: number;
}

/**
 * Share of the boost the token at `index` of a spelling earns. By default a match's first token
 * earns a third: it is often a common word ("the", "can"), and a greedy decoder must not be led
 * into a phrase the speaker never began. Engines that know their tokens refine this.
 */
export type TokenWeight = (spelling: readonly number[], index: number) => number;
const defaultWeight: TokenWeight = (_s, index) => (index === 0 ? 1 / 3 : 1);

/**
 * `sequences[i]` are the token spellings of vocabulary entry i (several: capitalised, lower case);
 * an entry earns its boost once per chunk whichever spelling completes it.
 */
export function biasTrie(
  sequences: readonly (readonly (readonly number[])[])[],
  boost: number,
  weight: TokenWeight = defaultWeight,
): BiasTrie {
  const root: TrieNode = { next: new Map(), weight: 0, end: null, entries: [] };
  for (const [entry, spellings] of sequences.entries()) {
    for (const seq of spellings) {
      if (!seq.length) continue;
      let node = root;
      for (const [i, t] of seq.entries()) {
        let child = node.next.get(t);
        if (!child) {
          child = { next: new Map(), weight: 0, end: null, entries: [] };
          node.next.set(t, child);
        }
        node = child;
        node.weight = Math.max(node.weight, weight(seq, i));
        if (!node.entries.includes(entry)) node.entries.push(entry);
      }
      node.end = entry;
    }
  }
  return { root, boost };
}

/**
 * One decoder step for a batch: the last token of each live hypothesis, and for each the index of
 * the hypothesis it extends in the previous step's batch (null at the first step, batch of one).
 * Returns each hypothesis' logits over the vocabulary.
 */
export type DecoderStep = (tokens: readonly number[], parents: readonly number[] | null) => Promise<Float32Array[]>;

export interface BeamOptions {
  width: number;
  maxTokens: number;
  start: number;
  eos: number;
  bias?: BiasTrie | null;
  /** Ids at or above this are never chosen (padding beyond the tokenizer's vocabulary). */
  vocabSize?: number;
  /** Never end before the first token: what the model would say if the chunk holds speech. */
  speak?: boolean;
}

export interface Decoded {
  tokens: number[];
  /** The model's own log-probability of each token (biasing not included). */
  logProbs: number[];
  /**
   * The model's probability of ending at once, before any word: how sure it is that the audio holds
   * no speech (Whisper's no-speech probability, read from end-of-text). 0 when not known.
   */
  noSpeech?: number;
}

interface Hyp extends Decoded {
  last: number;
  /** Sum of the model's log-probabilities. */
  lp: number;
  /** Boost earned by completed matches and the current partial one. */
  bias: number;
  node: TrieNode | null;
  /** Boost earned by the current partial match (given back if it breaks off). */
  pending: number;
  /** Entries this hypothesis completed: each earns its boost once per chunk (no boosted loops). */
  used: ReadonlySet<number>;
}

/**
 * Beam search: keeps the `width` best hypotheses by summed log-probability plus boost; a
 * hypothesis that ends is scored by its mean per token (length normalisation, so short
 * endings do not win by being short). A token that would repeat the tail of a hypothesis once
 * too often (the loop small seq2seq models fall into) is not considered.
 */
export async function beamSearch(step: DecoderStep, o: BeamOptions): Promise<Decoded> {
  const root = o.bias?.root ?? null;
  let active: Hyp[] = [
    { tokens: [], logProbs: [], last: o.start, lp: 0, bias: 0, node: root, pending: 0, used: new Set() },
  ];
  let parents: number[] | null = null;
  let noSpeech = 0;
  const finished: { hyp: Decoded; score: number }[] = [];
  const finish = (h: Hyp, eosLp: number | null) => {
    const total = h.lp + (eosLp ?? 0) + h.bias - h.pending;
    finished.push({ hyp: { tokens: h.tokens, logProbs: h.logProbs }, score: total / (h.tokens.length + 1) });
  };

  for (let stepIndex = 0; stepIndex < o.maxTokens && active.length; stepIndex++) {
    const rows = await step(
      active.map((h) => h.last),
      parents,
    );
    const cands: { from: number; token: number; lp: number; total: number; move: Move | null }[] = [];
    for (const [i, h] of active.entries()) {
      const row = rows[i]!;
      const limit = Math.min(row.length, o.vocabSize ?? row.length);
      const norm = logSumExp(row);
      if (stepIndex === 0) noSpeech = Math.exp(row[o.eos]! - norm);
      const top = topK(row, o.width + 1, limit);
      const ids = new Set(top);
      const bestLp = row[top[0]!]! - norm;
      if (o.bias) {
        for (const t of h.node!.next.keys()) if (t < limit) ids.add(t);
        for (const t of root!.next.keys()) if (t < limit) ids.add(t);
      }
      for (const token of ids) {
        const lp = row[token]! - norm;
        if (token === o.eos) {
          if (o.speak && stepIndex === 0) continue;
          cands.push({ from: i, token, lp, total: h.lp + lp + h.bias - h.pending, move: null });
          continue;
        }
        if (repeatsTail(h.tokens, token)) continue;
        // The vocabulary only re-ranks what the model finds plausible: a match starts on a token
        // close to the best one, and never where the model would rather stop (no run-on after
        // the speech ended); a match goes on through tokens a little less close.
        const room = {
          start: top[0] !== o.eos && lp >= bestLp - START_MARGIN,
          go: lp >= bestLp - CONTINUE_MARGIN,
        };
        const move = o.bias ? biasMove(o.bias, h, token, room) : null;
        cands.push({ from: i, token, lp, total: h.lp + lp + h.bias + (move?.delta ?? 0), move });
      }
    }
    // Ties (equal scores happen: the same logits reached by two parents) go the same way every run:
    // the older hypothesis, then the lower token id — never the order candidates happened to be listed in.
    cands.sort((a, b) => b.total - a.total || a.from - b.from || a.token - b.token);
    const next: Hyp[] = [];
    const nextParents: number[] = [];
    for (const c of cands.slice(0, o.width)) {
      const h = active[c.from]!;
      if (c.token === o.eos) {
        finish(h, c.lp);
        continue;
      }
      next.push({
        tokens: [...h.tokens, c.token],
        logProbs: [...h.logProbs, c.lp],
        last: c.token,
        lp: h.lp + c.lp,
        bias: h.bias + (c.move?.delta ?? 0),
        node: c.move?.node ?? null,
        pending: c.move?.pending ?? 0,
        used: c.move?.completed !== undefined ? new Set([...h.used, c.move.completed]) : h.used,
      });
      nextParents.push(c.from);
    }
    if (finished.length >= o.width) break;
    active = next;
    parents = nextParents;
  }
  // Out of tokens: what is still open ends here (the length cap, as greedy decoding had).
  for (const h of active) if (finished.length < o.width || !finished.length) finish(h, null);
  finished.sort((a, b) => b.score - a.score || compareTokens(a.hyp.tokens, b.hyp.tokens));
  return { ...(finished[0]?.hyp ?? { tokens: [], logProbs: [] }), noSpeech };
}

interface Move {
  node: TrieNode;
  delta: number;
  pending: number;
  /** The entry this token completed. */
  completed?: number;
}

/**
 * What the vocabulary earns a given token sequence, read as the beam would have read it (biasMove, the
 * same START_MARGIN / CONTINUE_MARGIN rooms): the boost a text teacher-forced against the audio would
 * have had in the decoder. `lps[k]` is the model's log-probability of `tokens[k]`, `best[k]` that of the
 * likeliest token at that position and `endBest[k]` whether that token is the end (no match starts
 * there). A match still open after the last token gives its boost back, as a finished hypothesis does.
 */
export function forcedBias(
  bias: BiasTrie,
  tokens: readonly number[],
  lps: readonly number[],
  best: readonly number[],
  endBest: readonly boolean[],
): number {
  let h: Hyp = { tokens: [], logProbs: [], last: 0, lp: 0, bias: 0, node: bias.root, pending: 0, used: new Set() };
  for (const [k, token] of tokens.entries()) {
    const room = {
      start: !endBest[k] && lps[k]! >= best[k]! - START_MARGIN,
      go: lps[k]! >= best[k]! - CONTINUE_MARGIN,
    };
    const move = biasMove(bias, h, token, room);
    h = {
      ...h,
      bias: h.bias + move.delta,
      node: move.node,
      pending: move.pending,
      used: move.completed !== undefined ? new Set([...h.used, move.completed]) : h.used,
    };
  }
  return h.bias - h.pending;
}

/** Every token of the vocabulary's spellings: where forcedBias needs the likeliest token's probability. */
export function trieTokens(bias: BiasTrie): Set<number> {
  const tokens = new Set<number>();
  const walk = (node: TrieNode) => {
    for (const [t, child] of node.next) {
      tokens.add(t);
      walk(child);
    }
  };
  walk(bias.root);
  return tokens;
}

/** How far below the best token (nats) a token may start or continue a boosted match. */
const START_MARGIN = 1.5;
const CONTINUE_MARGIN = 5;

/** What appending `token` does to a hypothesis' match against the vocabulary. */
function biasMove(bias: BiasTrie, h: Hyp, token: number, room: { start: boolean; go: boolean }): Move {
  const { root, boost } = bias;
  const advance = (from: TrieNode, already: number): Move | null => {
    const child = from.next.get(token);
    // Only paths towards an entry not yet completed in this hypothesis earn anything.
    if (!child || child.entries.every((e) => h.used.has(e))) return null;
    const earned = boost * child.weight;
    // A completed entry keeps its boost; a longer entry may still continue from here.
    if (child.end !== null && !h.used.has(child.end))
      return { node: child.next.size ? child : root, delta: earned, pending: 0, completed: child.end };
    return { node: child, delta: earned, pending: already + earned };
  };
  const node = h.node ?? root;
  if (node !== root && room.go) {
    const cont = advance(node, h.pending);
    if (cont) return cont;
  }
  // The partial match broke off: give its boost back, and maybe start a new match here.
  const fresh = room.start ? advance(root, 0) : null;
  return fresh ? { ...fresh, delta: fresh.delta - h.pending } : { node: root, delta: -h.pending, pending: 0 };
}

// A tail repeated more often than this is a decoding loop, not speech: a short span (a word,
// "no, no, no") may come back several times, a phrase of 4 tokens or more at most twice in a row.
const maxRepeats = (period: number) => (period === 1 ? 8 : period <= 3 ? 4 : 2);
const MAX_PERIOD = 24;

/** True when appending `token` makes the tail one span repeated more than allowed. */
export function repeatsTail(tokens: readonly number[], token: number): boolean {
  const seq = [...tokens.slice(-(MAX_PERIOD * 3 + 8)), token];
  for (let p = 1; p <= MAX_PERIOD; p++) {
    const times = maxRepeats(p) + 1;
    const span = p * times;
    if (seq.length < span) continue;
    let loop = true;
    for (let i = seq.length - span; i < seq.length - p && loop; i++) loop = seq[i] === seq[i + p];
    if (loop) return true;
  }
  return false;
}

/** Shorter first, then by the first token that differs: a fixed order for hypotheses that score the same. */
function compareTokens(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** log Σ exp(row), computed without overflow (log-probabilities from logits). */
export function logSumExp(row: Float32Array): number {
  let max = -Infinity;
  for (let i = 0; i < row.length; i++) if (row[i]! > max) max = row[i]!;
  let sum = 0;
  for (let i = 0; i < row.length; i++) sum += Math.exp(row[i]! - max);
  return max + Math.log(sum);
}

/** Indices of the k largest values below `limit`, best first. */
function topK(row: Float32Array, k: number, limit: number): number[] {
  const best: number[] = [];
  for (let i = 0; i < limit; i++) {
    if (best.length === k && row[i]! <= row[best[k - 1]!]!) continue;
    let j = Math.min(best.length, k - 1);
    if (best.length < k) best.push(i);
    while (j > 0 && row[best[j - 1]!]! < row[i]!) {
      best[j] = best[j - 1]!;
      j--;
    }
    best[j] = i;
  }
  return best;
}
