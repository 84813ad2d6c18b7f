// Sentiment of a call (issue 14), computed by the analysis (src/analysis/sentiment.ts).
import { builder } from '../builder.ts';
import { CallSentimentColumn, parseColumn, type SentimentScore } from '../../src/call-columns.ts';

const SentimentLabelEnum = builder.enumType('SentimentLabel', {
  values: {
    NEGATIVE: { value: 'negative' },
    NEUTRAL: { value: 'neutral' },
    POSITIVE: { value: 'positive' },
  } as const,
});

const SentimentRef = builder.objectRef<SentimentScore>('Sentiment').implement({
  description: 'One sentiment reading.',
  fields: (t) => ({
    label: t.field({ type: SentimentLabelEnum, resolve: (s) => s.label }),
    score: t.exposeFloat('score', { description: '−1 (very negative) to 1 (very positive); neutral within ±0.05.' }),
  }),
});

type CallSentiment = NonNullable<ReturnType<typeof parseColumn<typeof CallSentimentColumn>>>;

const CallSentimentRef = builder.objectRef<CallSentiment>('CallSentiment').implement({
  description:
    'How the call felt, from the words said (English and Spanish lexicons; see the README). Per speaker figures are null on mono recordings.',
  fields: (t) => ({
    agent: t.field({
      type: SentimentRef,
      nullable: true,
      description: "Mean of the agent's segments.",
      resolve: (s) => s.agent,
    }),
    customer: t.field({
      type: SentimentRef,
      nullable: true,
      description: "Mean of the customer's segments.",
      resolve: (s) => s.customer,
    }),
    overall: t.field({
      type: SentimentRef,
      nullable: true,
      description: 'Mean of every segment.',
      resolve: (s) => s.overall,
    }),
    customerTrend: t.float({
      nullable: true,
      description:
        "The customer's last third of turns minus their first third (−2 to 2): above 0 they ended happier than they started. Null with fewer than two customer turns.",
      resolve: (s) => s.customer_trend,
    }),
    segments: t.field({
      type: [SentimentRef],
      description: 'One per transcript segment, in the order of `Call.transcript`.',
      resolve: (s) => s.segments,
    }),
  }),
});

builder.prismaObjectField('Call', 'sentiment', (t) =>
  t.field({
    type: CallSentimentRef,
    nullable: true,
    description: 'Null until analyzed (and on calls analyzed before sentiment existed).',
    select: { sentiment: true },
    resolve: (c) => parseColumn(CallSentimentColumn, c.sentiment),
  }),
);
