// The sets of test/fixtures/sentiment/ (issue 27), in one table read by bench:sentiment, by
// scripts/sentiment-train.ts and by the probe-set test, so that a set's standing is written once.
//
// `use` says what a set may be used for:
// - `tuned`: its first reading (if any) is recorded in docs/benchmarks/sentiment.md; rules are written
//   from its misses, the model is trained on it (unless `trained: false`), and the probe-set test holds
//   it at ≥ 95 % accepted with no line read backwards on the no-flip classes;
// - `unseen`: never tuned or trained on, never listed line by line (the first three fresh batches);
// - `held`: a held-out set: read in aggregate only, never listed, never tuned or trained on; the goals
//   are judged on it.
// Wiring in a new blind set is one line (`readOnce('holdout10', 'tenth blind set', 'held')`); spending
// it after its one reading is changing `'held'` to `'spent'` on that line. The halves of <lang>.tsv (`tune`, `holdout`) are read from that one file.

export type SetUse = 'tuned' | 'unseen' | 'held';

export interface SentimentSet {
  /** The split name in the files' first column. */
  name: string;
  /** File stems, read as `<stem>-<lang>.tsv` (`''`: `<lang>.tsv`). */
  files: readonly string[];
  /** How the bench names it. */
  title: string;
  use: SetUse;
  /** Trained on by scripts/sentiment-train.ts as a spent set (the tune half and the probe set are read there on their own). */
  trained?: boolean;
}

/**
 * A set read once before anything was written from it (a blind set or a fresh batch written by the rules'
 * author): `held` until its one reading is recorded, then `spent`: tuned on and trained on.
 */
const readOnce = (name: string, title: string, use: 'held' | 'spent'): SentimentSet =>
  use === 'held'
    ? { name, files: [name], title: `${title} (${name}; held out)`, use: 'held' }
    : {
        name,
        files: [name],
        title: `${title} (${name}; first reading recorded, now tuned on)`,
        use: 'tuned',
        trained: true,
      };

export const SENTIMENT_SETS: readonly SentimentSet[] = [
  { name: 'tune', files: [''], title: 'tune half', use: 'tuned' },
  { name: 'probe', files: ['probe', 'probe4', 'probe5', 'probe6'], title: 'probe set', use: 'tuned' },
  { name: 'fresh', files: ['fresh'], title: 'fresh batch', use: 'unseen' },
  { name: 'fresh2', files: ['fresh2'], title: 'second fresh batch', use: 'unseen' },
  { name: 'fresh4', files: ['fresh4'], title: 'third fresh batch', use: 'unseen' },
  { name: 'fresh5', files: ['fresh5'], title: 'fourth fresh batch', use: 'tuned' },
  readOnce('fresh6', 'fifth fresh batch', 'spent'),
  readOnce('fresh7', 'sixth fresh batch', 'spent'),
  { name: 'holdout', files: [''], title: 'holdout half', use: 'held' },
  readOnce('holdout2', 'second blind set', 'spent'),
  readOnce('holdout3', 'third blind set', 'spent'),
  readOnce('holdout4', 'fourth blind set', 'spent'),
  readOnce('holdout5', 'fifth blind set', 'spent'),
  readOnce('holdout6', 'sixth blind set', 'spent'),
  readOnce('holdout7', 'seventh blind set', 'spent'),
  readOnce('holdout8', 'eighth blind set', 'spent'),
  readOnce('holdout9', 'ninth blind set', 'spent'),
  readOnce('holdout10', 'tenth blind set', 'held'),
];

/** `<stem>-<lang>.tsv`, or `<lang>.tsv` for the two halves. */
export const setFile = (stem: string, language: string): string =>
  stem === '' ? `${language}.tsv` : `${stem}-${language}.tsv`;

/** The files the probe-set test reads: every tuned-on set but the tune half (whose file also holds the held-out half). */
export const probeTestSets = (): SentimentSet[] => SENTIMENT_SETS.filter((s) => s.use === 'tuned' && s.name !== 'tune');
