/** OpenAI-compatible chat client for `llm` criteria, topic choice and summaries. */
import got, { type Got } from 'got';
import { pino, type Logger } from 'pino';
import { z } from 'zod';
import type { Segment } from './types.ts';

export interface LlmConfig {
  /** e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Whole request, per attempt. Default 60 s. */
  timeoutMs?: number;
  /** Retries on 429, 5xx and network errors. Default 2. */
  retries?: number;
}

export interface LlmQuestion {
  key: string;
  question: string;
}

export interface LlmAnswer {
  key: string;
  answer: 'yes' | 'no' | 'unknown';
  quote?: string;
  reason: string;
}

export interface LlmTopicChoice {
  key: string;
  label: string;
}

export interface LlmTopicAndSummary {
  topic: string | null;
  summary: string;
}

/** What the analysis needs from a language model; implementations throw `LlmError` when unavailable. */
export interface LlmClient {
  answerCriteria(transcript: readonly Segment[], questions: readonly LlmQuestion[]): Promise<LlmAnswer[]>;
  chooseTopicAndSummarize(
    transcript: readonly Segment[],
    topics: readonly LlmTopicChoice[],
    language: string,
  ): Promise<LlmTopicAndSummary>;
}

/** The model could not be reached or gave an unusable answer; the message completes "language model unavailable: …". */
export class LlmError extends Error {
  override name = 'LlmError';
}

const SPEAKER_NAMES = { agent: 'Agent', customer: 'Customer', speaker: 'Speaker' } as const;

function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(whole / 60)).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')}`;
}

/** "[mm:ss] Agent: text" lines in time order; minutes keep counting past 59 on long calls. */
export function formatTranscript(segments: readonly Segment[]): string {
  return [...segments]
    .sort((a, b) => a.start - b.start)
    .map((s) => `[${clock(s.start)}] ${SPEAKER_NAMES[s.speaker]}: ${s.text.trim()}`)
    .join('\n');
}

const ChatCompletion = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }) }))
    .min(1),
});

const AnswersReply = z.object({
  answers: z.array(
    z.object({
      key: z.string(),
      answer: z.enum(['yes', 'no', 'unknown']),
      quote: z.string().nullable(),
      reason: z.string(),
    }),
  ),
});

const TopicReply = z.object({ topic: z.string().nullable(), summary: z.string() });

// Strict structured outputs need every property listed as required; "optional" is spelled as nullable.
function answersSchema(keys: readonly string[]): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['answers'],
    properties: {
      answers: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['key', 'answer', 'quote', 'reason'],
          properties: {
            key: { type: 'string', enum: keys },
            answer: { type: 'string', enum: ['yes', 'no', 'unknown'] },
            quote: { type: ['string', 'null'], description: 'Exact words from the transcript supporting the answer' },
            reason: { type: 'string', description: 'One short sentence' },
          },
        },
      },
    },
  };
}

function topicSchema(keys: readonly string[]): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['topic', 'summary'],
    properties: {
      topic: keys.length > 0 ? { type: ['string', 'null'], enum: [...keys, null] } : { type: 'null' },
      summary: { type: 'string' },
    },
  };
}

const ANSWER_INSTRUCTIONS = [
  'You review customer-service call transcripts for quality assurance.',
  'Answer each question about the call with "yes" or "no", or "unknown" if the transcript does not show it.',
  'Transcripts come from speech recognition and may contain small errors.',
  'When you answer yes or no, quote the exact words from the transcript that support it, or null.',
  'Give a one-sentence reason in English. Answer every question, using its key.',
].join(' ');

function summaryInstructions(language: string): string {
  return [
    'You summarize customer-service call transcripts.',
    `Write a summary of 2 to 3 sentences in the language with code "${language}": why the customer called, what was done, and how it ended.`,
    'Then choose the topic key that best fits the call from the list, or null if none fits.',
  ].join(' ');
}

export function createLlmClient(config: LlmConfig, options: { logger?: Logger } = {}): LlmClient {
  const logger = options.logger ?? pino({ name: 'analysis-llm' });
  const http: Got = got.extend({
    prefixUrl: config.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${config.apiKey}` },
    timeout: { request: config.timeoutMs ?? 60_000 },
    retry: {
      limit: config.retries ?? 2,
      methods: ['POST'],
      statusCodes: [429, 500, 502, 503, 504],
      // Respect Retry-After but never hold an analysis job for long.
      maxRetryAfter: 30_000,
    },
  });

  async function complete<T>(
    name: string,
    system: string,
    user: string,
    schema: object,
    reply: z.ZodType<T>,
  ): Promise<T> {
    let body: unknown;
    try {
      body = await http
        .post('chat/completions', {
          json: {
            model: config.model,
            messages: [
              { role: 'system', content: system },
              { role: 'user', content: user },
            ],
            response_format: { type: 'json_schema', json_schema: { name, strict: true, schema } },
          },
        })
        .json();
    } catch (error) {
      logger.warn({ err: error, request: name }, 'language model request failed');
      throw new LlmError(`request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const completion = ChatCompletion.safeParse(body);
    const message = completion.success ? completion.data.choices[0]?.message : undefined;
    if (!message?.content) {
      logger.warn({ request: name, body, refusal: message?.refusal }, 'language model gave no usable reply');
      throw new LlmError('no usable reply');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(message.content);
    } catch {
      logger.warn({ request: name, content: message.content.slice(0, 2000) }, 'language model reply is not JSON');
      throw new LlmError('reply is not valid JSON');
    }
    const result = reply.safeParse(parsed);
    if (!result.success) {
      logger.warn(
        { request: name, content: message.content.slice(0, 2000), issues: result.error.issues },
        'language model reply has the wrong shape',
      );
      throw new LlmError('reply does not match the expected format');
    }
    return result.data;
  }

  return {
    async answerCriteria(transcript, questions) {
      if (questions.length === 0) return [];
      const keys = questions.map((q) => q.key);
      const user = [
        'Questions:',
        ...questions.map((q) => `- ${q.key}: ${q.question}`),
        '',
        'Transcript:',
        formatTranscript(transcript),
      ].join('\n');
      const reply = await complete('qa_answers', ANSWER_INSTRUCTIONS, user, answersSchema(keys), AnswersReply);
      return reply.answers
        .filter((a) => keys.includes(a.key))
        .map((a) => ({ key: a.key, answer: a.answer, reason: a.reason, ...(a.quote ? { quote: a.quote } : {}) }));
    },

    async chooseTopicAndSummarize(transcript, topics, language) {
      const keys = topics.map((t) => t.key);
      const user = [
        'Topics:',
        ...(topics.length > 0 ? topics.map((t) => `- ${t.key}: ${t.label}`) : ['(none: answer null)']),
        '',
        'Transcript:',
        formatTranscript(transcript),
      ].join('\n');
      const reply = await complete('call_summary', summaryInstructions(language), user, topicSchema(keys), TopicReply);
      // A key outside the list would point at nothing; treat it as "no topic" rather than failing the summary.
      return {
        topic: reply.topic !== null && keys.includes(reply.topic) ? reply.topic : null,
        summary: reply.summary.trim(),
      };
    },
  };
}
