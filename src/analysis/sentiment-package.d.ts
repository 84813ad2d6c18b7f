// The `sentiment` package ships no types; only what src/analysis/sentiment.ts uses.
declare module 'sentiment' {
  interface ScoringStrategy {
    apply(tokens: string[], cursor: number, tokenScore: number): number;
  }
  interface AnalysisResult {
    score: number;
    comparative: number;
    tokens: string[];
    words: string[];
    positive: string[];
    negative: string[];
  }
  export default class Sentiment {
    registerLanguage(
      code: string,
      language: { labels: Record<string, number>; scoringStrategy?: ScoringStrategy },
    ): void;
    analyze(phrase: string, opts?: { language?: string }): AnalysisResult;
  }
}
