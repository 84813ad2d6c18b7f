/**
 * Phrase criteria judged from the audio. The free transcription of a noisy call mishears ("And you for
 * calling at me" for "Thank you for calling Acme"), and a criterion read from that text fails an agent
 * who did greet. The recogniser itself can be asked instead: in a segment where the transcript has
 * something like an expected phrase, put the phrase in place of those words and compare how likely
 * the model finds that transcript of the segment's audio with how likely it finds its own (both
 * teacher-forced, the same model and audio). A phrase that was said costs little or nothing; one that
 * was not costs many nats. Pure logic: the scores come from an `AudioScorer` (the engine).
 */
import { levenshtein } from '../domain/text.ts';
import { decoderLoop } from './loops.ts';
import { tokenize } from './normalize.ts';
import type { Segment, SpeakerRole } from './types.ts';

/**
 * How likely texts are as the whole transcript of a segment's audio (log-likelihoods, nats), for
 * several segments at once (in time order): the recording is read once for all of them.
 */
export interface AudioScorer {
  /**
   * `vocabulary`: words whose tokens earn the boost the recogniser's biased decoding gives them
   * (names: phraseNames), so a name is scored as the decoder weighed it when it wrote the transcript.
   */
  score(
    jobs: readonly { segment: Segment; texts: readonly string[] }[],
    vocabulary?: readonly string[],
  ): Promise<number[][]>;
  /**
   * How many log-probabilities a score sums for the text (the engine's tokens and its end). Without
   * it a phrase counts its words and one more.
   */
  tokens?(text: string): number;
}

/**
 * Thresholds on the margin per token of the phrase: log-likelihood of the transcript with the phrase
 * minus that of the transcript as heard, in nats, divided by the phrase's scored tokens (its end
 * included). A whole-margin threshold let a long phrase said under noise cost as much as a short one
 * not said (−12.66 nats for an eleven-token "algo más en lo que pueda ayudarle" that was said, −7.3 for
 * a three-token "your account number" that was not): each token of a misheard phrase costs a little,
 * each of a phrase not said a lot. Calibrated on bench:verdicts' tuning calls only
 * (docs/benchmarks/verdicts.md); the held-out calls report them.
 */
export const HEARD_MARGIN = -1.6;
/** Between this and HEARD_MARGIN the audio neither confirms nor rules out the phrase: a person listens. */
export const UNSURE_MARGIN = -2.6;
/**
 * At or below this (per token) at every stretch the text doubted, the audio settles the doubt: the
 * phrase is not there. Well under UNSURE_MARGIN: a said phrase scored down to −3.7 per token on the
 * tuning calls (a greeting heard as "You can't put only that busy" under 5 dB babble).
 */
export const RULED_OUT_MARGIN = -4;
/** Only stretches of the transcript at least this close (characters) to a phrase are tried. */
const MIN_SIMILARITY = 0.5;
/** Stretches tried per phrase and segment (the closest ones). */
const SPANS_PER_PHRASE = 2;

export type Hearing = 'heard' | 'unsure' | 'not_heard';

export interface Heard {
  /** Index in the analysed segments. */
  segment: number;
  phrase: string;
  /** What the transcript has where the phrase would be. */
  quote: string;
  start: number;
  end: number;
  speaker: SpeakerRole;
  /** Log-likelihood of the transcript with the phrase minus that of the transcript as heard (nats). */
  margin: number;
  /** The margin per scored token of the phrase: what the thresholds judge. */
  perToken: number;
  hearing: Hearing;
  /**
   * The phrase's words but its closing name, scored with the word heard in the name's place (nameless):
   * their margin per token. Set only where the phrase ends with a name the transcript heard as another word.
   */
  restPerToken?: number;
}

export interface ListenRequest {
  key: string;
  /** Segments (indexes) where the criterion can apply. */
  segments: readonly number[];
  phrases: readonly string[];
  /**
   * Segments (among `segments`) where the phrases are also tried at the turn's start whatever the
   * transcript has there (startSpans): the turns that open or close the call, for a criterion tied to
   * its opening or closing. Elsewhere only the stretches spelled like a phrase are tried (cost).
   */
  openings?: readonly number[];
  /**
   * Stretches the text doubted (a near match over words the recogniser was unsure of): the phrase is
   * tried in their place whatever their spelling, so the audio answers the very doubt the text raised.
   * `from` and `to` are character offsets in the segment's text.
   */
  doubts?: readonly { segment: number; phrase: string; from: number; to: number }[];
}

interface Span {
  from: number;
  to: number;
  similarity: number;
}

interface Word {
  text: string;
  norm: string;
  start: number;
  end: number;
}

function words(text: string): Word[] {
  return [...text.matchAll(/\S+/g)].map((m) => ({
    text: m[0],
    norm: tokenize(m[0]).join(' '),
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** The stretches of words closest in spelling to the phrase (a phrase misheard is mostly spelled alike). */
export function closestSpans(text: readonly Word[], phrase: string, keep = SPANS_PER_PHRASE): Span[] {
  const target = tokenize(phrase).join(' ');
  const k = target.split(' ').length;
  const spans: Span[] = [];
  for (let from = 0; from < text.length; from++)
    for (let len = Math.max(1, k - 2); len <= k + 2 && from + len <= text.length; len++) {
      const said = text
        .slice(from, from + len)
        .map((w) => w.norm)
        .filter(Boolean)
        .join(' ');
      const longest = Math.max(said.length, target.length);
      if (1 - Math.abs(said.length - target.length) / longest < MIN_SIMILARITY) continue;
      const similarity = 1 - levenshtein(said, target) / longest;
      if (similarity >= MIN_SIMILARITY) spans.push({ from, to: from + len, similarity });
    }
  spans.sort((a, b) => b.similarity - a.similarity || a.from - b.from);
  const kept: Span[] = [];
  for (const s of spans) {
    if (kept.length >= keep) break;
    if (!kept.some((o) => s.from < o.to && o.from < s.to)) kept.push(s);
  }
  return kept;
}

/**
 * A phrase of at least this many words is also tried at the start of the turns that open or close a
 * call (ListenRequest.openings), whatever the transcript has there. Phrases open turns ("Thanks for calling Acme, …", "Is there anything else …")
 * and a noisy turn's opening can be heard as words spelled nothing like them ("You can't put all in
 * that myth, how can I help?"), so the spelling alone never offers the audio that stretch. A long
 * phrase that was not said costs many nats wherever it is put; a two-word one ("I understand") put in
 * place of a short turn ("Yeah.") cost as little as one that was said (bench:verdicts tuning calls).
 */
const START_MIN_WORDS = 3;

/**
 * The turn's first words, one or two more than the phrase has (a misheard stretch runs longer), or the
 * whole turn when it is shorter but has at least one word fewer than the phrase. On the tuning calls
 * every phrase found this way was found at one of these lengths; trying k − 1 … k + 2 words as well
 * found nothing more and cost twice the decoder runs.
 */
function startSpans(text: readonly Word[], phrase: string, seconds: number): Span[] {
  const k = tokenize(phrase).length;
  if (k < START_MIN_WORDS || !text.length) return [];
  // A turn heard as far fewer words than its time holds ("No." over 3 s at the close of a call, for
  // "Can I help you with anything else today?") lost its words, not its speech: the whole turn is tried
  // whatever its length, when the phrase fits the time.
  if (text.length < k - 1 && text.length <= seconds * STARVED_WORDS_PER_SECOND && k <= seconds * 4.5 + 1)
    return [{ from: 0, to: text.length, similarity: 0 }];
  const lengths = new Set([Math.min(text.length, k + 1), Math.min(text.length, k + 2)]);
  // And, in a turn heard as fewer words than its time holds, the phrase before the turn's words, none
  // replaced: the recogniser can drop a turn's first words whole and keep the rest ("Mi nombre es
  // Carlos." for "Ha llamado a Acme, mi nombre es Carlos."), and a phrase put in place of words that
  // were said pays for losing them.
  const inserted =
    text.length < seconds * INSERT_WORDS_PER_SECOND && text.length + k <= seconds * 4.5 + 1
      ? [{ from: 0, to: 0, similarity: 0 }]
      : [];
  return [
    ...[...lengths].filter((len) => len >= k - 1).map((len) => ({ from: 0, to: len, similarity: 0 })),
    ...inserted,
  ];
}

/**
 * Under this many words a second heard in the turn, the phrase is also tried before its words
 * (startSpans), when the phrase and the words heard fit the turn's time (4.5 words a second, as for a
 * starved turn): a turn heard whole keeps 2.3–3 words a second (scripted and real agents), and one whose
 * first words were dropped falls below ("Mi nombre es Carlos." over 3.1 s, 1.3 a second). A short turn
 * that holds its one word ("Yeah." in 0.8 s) has no time for a phrase before it.
 */
const INSERT_WORDS_PER_SECOND = 2;

/**
 * At most this many words a second heard in a turn means its words were lost (startSpans): scripted and
 * real agents speak 2.3–3 words a second, and a turn heard right keeps nearly all of them.
 */
const STARVED_WORDS_PER_SECOND = 1;

/** The words of each stretch the text doubted for this phrase in this segment (ListenRequest.doubts). */
function doubtSpans(request: ListenRequest, text: readonly Word[], phrase: string, index: number): Span[] {
  return (request.doubts ?? []).flatMap((d) => {
    if (d.segment !== index || d.phrase !== phrase) return [];
    const from = text.findIndex((w) => w.end > d.from);
    const to = text.findLastIndex((w) => w.start < d.to) + 1;
    return from >= 0 && to > from ? [{ from, to, similarity: 1 }] : [];
  });
}

/** The transcript with words [from, to) replaced by the phrase, in the recogniser's own style (capitals, punctuation). */
function substitute(text: readonly Word[], span: Span, phrase: string): string {
  if (span.to === span.from) return insert(text, span.from, phrase);
  const first = text[span.from]!.text;
  const last = text[span.to - 1]!.text;
  // Opening marks are the recogniser's style too ("¡Gracias por llamarme!", "¿En qué…"): dropping the
  // "¡" and writing the phrase in lower case after it cost the said greeting more than the phrase did.
  const leading = /^[^\p{L}\p{N}]+/u.exec(first)?.[0] ?? '';
  let said = phrase.trim();
  if (/^\p{Lu}/u.test(first.slice(leading.length))) said = said.charAt(0).toUpperCase() + said.slice(1);
  const trailing = /[.,;:!?]+$/.exec(last)?.[0] ?? '';
  return [
    ...text.slice(0, span.from).map((w) => w.text),
    leading + said + trailing,
    ...text.slice(span.to).map((w) => w.text),
  ].join(' ');
}

/**
 * The transcript with the phrase put before word `at` (an empty span): a clause of its own, in the
 * recogniser's style ("Ha llamado a Acme, mi nombre es Carlos."). The word after it loses its capital
 * (not "I") and its opening mark, which goes before the phrase.
 */
function insert(text: readonly Word[], at: number, phrase: string): string {
  const next = text[at];
  const leading = next ? (/^[^\p{L}\p{N}]+/u.exec(next.text)?.[0] ?? '') : '';
  const said = phrase.trim().charAt(0).toUpperCase() + phrase.trim().slice(1);
  const rest = next ? next.text.slice(leading.length) : '';
  const lowered = /^I(\W|$)/u.test(rest) ? rest : rest.charAt(0).toLowerCase() + rest.slice(1);
  return [
    ...text.slice(0, at).map((w) => w.text),
    `${leading}${said}${next ? ',' : '.'}`,
    ...(next ? [lowered, ...text.slice(at + 1).map((w) => w.text)] : []),
  ].join(' ');
}

function timeAt(segment: Segment, charOffset: number): number {
  const length = Math.max(segment.text.length, 1);
  return Math.round((segment.start + ((segment.end - segment.start) * charOffset) / length) * 100) / 100;
}

/**
 * The names in phrases: words written with a capital inside a phrase ("Acme" in "thank you for calling
 * Acme"), never the pronoun "I" ("I'm", "I'll"). A phrase's first word is capitalised in a phrase
 * written as a sentence ("Thank you for calling"), so it is not taken for a name there; "Acme" at the
 * start of "Acme good morning" is the name found inside the other phrases. A name is rare in the
 * model's prior: said, it still costs many nats teacher-forced, unless it earns the boost the
 * recogniser's decoding gave it (the template's phrases are the decoder's vocabulary).
 */
export function phraseNames(phrases: readonly string[]): string[] {
  const names = new Set<string>();
  for (const phrase of phrases)
    for (const word of phrase.trim().split(/\s+/).slice(1)) {
      const w = word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      if (w.length >= 2 && /^\p{Lu}/u.test(w) && !/^I('|’|$)/u.test(w)) names.add(w);
    }
  return [...names].sort();
}

/**
 * The phrase with its closing name replaced by the last word of the stretch it is tried on, when the
 * phrase ends with a name (phraseNames) after at least two other words and the stretch heard another
 * word there ("Ay, amado Arme" for "ha llamado a Acme", "bienvenido a este" for "bienvenido a Acme"):
 * the phrase's other words judged on their own. Null otherwise.
 */
export function nameless(phrase: string, names: readonly string[], heardLast: string): string | null {
  const words = phrase.trim().split(/\s+/);
  const last = words.at(-1)!.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  if (words.length < NAMELESS_MIN_WORDS + 1 || !names.includes(last)) return null;
  const heard = heardLast.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  if (!heard || heard.toLowerCase() === last.toLowerCase()) return null;
  return [...words.slice(0, -1), heard].join(' ');
}

/**
 * Words a phrase keeps before its closing name for `nameless` to judge them alone: "bienvenido a",
 * "gracias por llamar a". A single word ("this" of "this is Acme" has two) is too common to say anything.
 */
const NAMELESS_MIN_WORDS = 2;

/** How the audio judges a phrase from its margin per token (HEARD_MARGIN, UNSURE_MARGIN). */
export function hearingOf(perToken: number): Hearing {
  return perToken >= HEARD_MARGIN ? 'heard' : perToken >= UNSURE_MARGIN ? 'unsure' : 'not_heard';
}

/** The phrase's scored tokens, as the scorer counts them (words and the end without a tokenizer). */
function phraseTokens(scorer: AudioScorer, phrase: string): number {
  return Math.max(1, scorer.tokens ? scorer.tokens(phrase) : tokenize(phrase).length + 1);
}

/**
 * For each request, the best-supported phrase per segment where any was tried, in time order. A phrase
 * is tried in place of the stretches of the transcript spelled most like it and, in the request's
 * openings when it is long enough, of the turn's first words (startSpans). A segment's audio is encoded
 * once, and its transcript as heard and every candidate scored with it; an opening turn with no stretch
 * spelled like any phrase (not encoded otherwise) is tried only for a request the other segments did not
 * let pass, in a second round. A text's score does not depend on the texts scored with it (the engine
 * scores each as alone), so the rounds find what one would.
 */
export async function listen(
  segments: readonly Segment[],
  requests: readonly ListenRequest[],
  scorer: AudioScorer,
): Promise<Map<string, Heard[]>> {
  const opening = (r: ListenRequest, index: number) => r.openings?.includes(index) ?? false;
  const duration = (index: number) => segments[index]!.end - segments[index]!.start;
  const scored = new Set<number>();
  const heard = await pass(segments, requests, scorer, scored, [
    (_, text, phrase) => closestSpans(text, phrase),
    (r, text, phrase, index) => doubtSpans(r, text, phrase, index),
    (r, text, phrase, index, encoded) =>
      encoded && opening(r, index) ? startSpans(text, phrase, duration(index)) : [],
  ]);
  const open = requests.filter((r) => r.openings?.length && !heard.get(r.key)!.some((h) => h.hearing === 'heard'));
  if (open.length) {
    const done = new Set(scored);
    const more = await pass(segments, open, scorer, scored, [
      (r, text, phrase, index) =>
        !done.has(index) && opening(r, index) ? startSpans(text, phrase, duration(index)) : [],
    ]);
    for (const [key, found] of more) heard.get(key)!.push(...found);
  }
  for (const list of heard.values()) list.sort((a, b) => a.start - b.start);
  return heard;
}

type SpanRule = (
  request: ListenRequest,
  text: readonly Word[],
  phrase: string,
  index: number,
  encoded: boolean,
) => Span[];

/**
 * One round of tries: each rule in turn gives the spans to try per request, segment and phrase (told
 * whether the segment is already being scored this round); the segments scored are added to `scored`.
 */
async function pass(
  segments: readonly Segment[],
  requests: readonly ListenRequest[],
  scorer: AudioScorer,
  scored: Set<number>,
  rules: readonly SpanRule[],
): Promise<Map<string, Heard[]>> {
  const perSegment = new Map<
    number,
    {
      texts: string[];
      tries: { key: string; phrase: string; span: Span; text: number; rest?: string; restAt?: number }[];
    }
  >();
  // The names in the phrases are scored with the boost the recogniser's vocabulary gave them (phraseNames).
  const names = phraseNames(requests.flatMap((r) => r.phrases));
  const wordsOf = new Map<number, Word[]>();
  for (const rule of rules)
    for (const request of requests)
      for (const index of request.segments) {
        const segment = segments[index]!;
        const text = wordsOf.get(index) ?? words(segment.text);
        wordsOf.set(index, text);
        for (const phrase of request.phrases)
          for (const span of rule(request, text, phrase, index, perSegment.has(index))) {
            const entry = perSegment.get(index) ?? { texts: [segment.text], tries: [] };
            perSegment.set(index, entry);
            const hypothesis = substitute(text, span, phrase);
            let at = entry.texts.indexOf(hypothesis);
            if (at < 0) at = entry.texts.push(hypothesis) - 1;
            // Only in the turns that open (close) the call for a criterion tied to them: "Gracias por su
            // llamada, adiós" closing a short call is inside a greeting's 30 s and reads "gracias por … a adiós".
            // And only on stretches spelled like the phrase or doubted (not a turn's first k + 1 words, whose
            // last word stands for nothing): a third more texts per call otherwise, for no verdict.
            const rest =
              request.openings?.includes(index) && span.similarity > 0
                ? nameless(phrase, names, text[span.to - 1]!.text)
                : null;
            let restAt: number | undefined;
            if (rest !== null) {
              const restText = substitute(text, span, rest);
              restAt = entry.texts.indexOf(restText);
              if (restAt < 0) restAt = entry.texts.push(restText) - 1;
            }
            entry.tries.push({ key: request.key, phrase, span, text: at, ...(rest !== null ? { rest, restAt } : {}) });
          }
      }
  for (const index of perSegment.keys()) scored.add(index);
  const heard = new Map<string, Heard[]>(requests.map((r) => [r.key, []]));
  const order = [...perSegment].sort((a, b) => a[0] - b[0]);
  const scores = await scorer.score(
    order.map(([index, { texts }]) => ({ segment: segments[index]!, texts })),
    names.length ? names : undefined,
  );
  order.forEach(([index, { texts, tries }], n) => {
    const segment = segments[index]!;
    const got = scores[n]!;
    // A segment the recording did not reach (cut short) has no scores: the text decides there.
    if (got.length !== texts.length) return;
    const best = new Map<string, Heard>();
    // A decoder loop (decoderLoop: "I'm an ipay, look wide. I'm an ipay" for "Have a nice day, goodbye")
    // is beaten easily by a phrase put in its place (−0.5 nats a token for "anything else I can do for
    // you"): there the audio can make a phrase unsure at most.
    const loops = decoderLoop(segment, segments);
    for (const t of tries) {
      // A phrase the transcript already has word for word scores 0: the audio cannot say more than that.
      const margin = Math.min(0, got[t.text]! - got[0]!);
      const perToken = margin / phraseTokens(scorer, t.phrase);
      const restPerToken =
        t.restAt === undefined
          ? undefined
          : Math.min(0, got[t.restAt]! - got[0]!) / phraseTokens(scorer, t.rest!.replace(/\s*\S+$/, ''));
      // A phrase put before the turn's words (an empty span) stands against the whole turn as heard.
      const inserted = t.span.to === t.span.from;
      // Put before words that were heard, a phrase has audio no word explains to lean on, said or not
      // (a slow or long turn qualifies): it makes the criterion unsure at most, for a person to hear.
      const hearing = hearingWithName(hearingOf(perToken), restPerToken, loops || inserted);
      // The try with the best hearing, then the best margin: a capped try must not hide one heard plainly.
      const previous = best.get(t.key);
      if (
        previous &&
        (HEARING_RANK[previous.hearing] > HEARING_RANK[hearing] ||
          (previous.hearing === hearing && previous.perToken >= perToken))
      )
        continue;
      const text = wordsOf.get(index)!;
      const from = text[inserted ? 0 : t.span.from]!.start;
      const to = text[inserted ? text.length - 1 : t.span.to - 1]!.end;
      best.set(t.key, {
        segment: index,
        phrase: t.phrase,
        quote: segment.text.slice(from, to).replace(/[.,;:!?]+$/, ''),
        start: timeAt(segment, from),
        end: timeAt(segment, to),
        speaker: segment.speaker,
        margin: Math.round(margin * 100) / 100,
        perToken: Math.round(perToken * 1000) / 1000,
        hearing,
        ...(restPerToken !== undefined ? { restPerToken: Math.round(restPerToken * 1000) / 1000 } : {}),
      });
    }
    for (const [key, h] of best) heard.get(key)!.push(h);
  });
  return heard;
}

const HEARING_RANK: Record<Hearing, number> = { heard: 2, unsure: 1, not_heard: 0 };

/**
 * A phrase ending in a name the transcript heard as another word: when its other words are heard
 * (restPerToken ≥ HEARD_MARGIN) the phrase is at least unsure. A company's name is rare in the model's
 * prior and the telephone band blurs it ("Arme", "Ahmed", "este" for "Acme"): the name alone cost a said
 * greeting −2.7 to −3.1 nats a token of the phrase, as much as an unsaid one, while "ha llamado a",
 * "bienvenido a" were plainly there. Whether the name was said is then for a person to hear, not a fail.
 * A decoder loop, or a phrase tried before a turn's words (startSpans), makes a phrase unsure at most.
 */
function hearingWithName(whole: Hearing, restPerToken: number | undefined, atMostUnsure: boolean): Hearing {
  const hearing =
    whole === 'not_heard' && restPerToken !== undefined && restPerToken >= HEARD_MARGIN ? 'unsure' : whole;
  return atMostUnsure && hearing === 'heard' ? 'unsure' : hearing;
}
