/** Extractive summary: the most informative sentences of the call, in time order. */
import { tokenize } from './normalize.ts';
import type { Segment, SpeakerRole } from './types.ts';

// Function words, fillers and greeting/closing formulas (normalized: no accents) that say nothing about the call.
const STOPWORDS: Record<string, ReadonlySet<string>> = {
  en: new Set(
    `a about above after again against all also am an and any are as at be because been before being below
    between both but by can could did do does doing done down during each few for from further get got had has
    have having he her here hers herself him himself his how i if in into is it its itself just let lets me
    more most my myself no nor not now of off on once only or other our ours ourselves out over own same she
    should so some such than that thats the their theirs them themselves then there these they this those
    through to too under until up very was we were what when where which while who whom why will with would
    you your yours yourself yourselves im ive youre dont doesnt didnt cant wont isnt thats theres okay ok yes
    yeah yep no nope uh um umm hmm oh ah well right sure alright please thank thanks hello hi bye goodbye one
    going gonna want wanna like really actually just know see say said tell told go make may might must
    shall us let ill youll well ok sir madam maam mister morning afternoon evening calling help assist
    speaking today welcome great nice anything else`.split(/\s+/),
  ),
  es: new Set(
    `a al algo algun alguna algunas alguno algunos ante antes aqui asi aun bien bueno cada casi como con contra
    cual cuales cuando de del desde donde dos el ella ellas ello ellos en entonces entre era eran es esa esas
    ese eso esos esta estaba estado estan estar estas este esto estos estoy fue fueron ha habia han has hasta
    hay he la las le les lo los mas me mi mis mismo mucho muy nada ni no nos nosotros o os otra otro para pero
    poco por porque pues que quien se sea ser si sin sobre solo son su sus tambien tan tanto te tiene tengo
    ti todo todos tu tus un una uno unos usted ustedes vale vamos va voy ya yo eh este pues claro vale okey ok
    gracias hola adios senor senora senorita favor perfecto muchas mucha dice digo decir hacer puedo puede
    quiero quiere ver mire oiga momento entonces ahora aca alla dias tardes noches atiende ayudar ayudarle
    ayudo llamar llamado bienvenido bienvenida hoy necesita buenos buenas`.split(/\s+/),
  ),
};
const NO_STOPWORDS: ReadonlySet<string> = new Set();

/** Words shorter than this carry little meaning in any language, with or without a stopword list. */
const MIN_CONTENT_WORD_LENGTH = 3;
/** A sentence needs this many content words to say something ("ok, thanks" does not). */
const MIN_CONTENT_WORDS = 3;

const SPEAKER_LABELS: Record<string, Record<SpeakerRole, string | null>> = {
  en: { agent: 'Agent', customer: 'Customer', speaker: null },
  es: { agent: 'Agente', customer: 'Cliente', speaker: null },
};

interface Sentence {
  text: string;
  speaker: SpeakerRole;
  start: number;
  order: number;
  content: string[];
}

function splitSentences(segments: readonly Segment[], stopwords: ReadonlySet<string>): Sentence[] {
  const sorted = [...segments].sort((a, b) => a.start - b.start);
  const sentences: Sentence[] = [];
  for (const segment of sorted) {
    // Recognizers without punctuation give one segment per utterance, which then stands as one sentence.
    for (const raw of segment.text.match(/[^.!?…]+[.!?…]*/g) ?? []) {
      const text = raw.trim();
      const content = tokenize(text).filter((w) => w.length >= MIN_CONTENT_WORD_LENGTH && !stopwords.has(w));
      if (text !== '')
        sentences.push({ text, speaker: segment.speaker, start: segment.start, order: sentences.length, content });
    }
  }
  return sentences;
}

/**
 * Picks the 2–3 sentences whose content words recur most across the call (what the call is about),
 * damped by length so one rambling sentence does not win by size alone.
 */
export function extractiveSummary(segments: readonly Segment[], language: string): string {
  const stopwords = STOPWORDS[language] ?? NO_STOPWORDS;
  // A guess (Segment.guessed) is not what was said: the summary quotes only words the recogniser heard.
  const sentences = splitSentences(
    segments.filter((s) => !s.guessed),
    stopwords,
  );
  if (sentences.length === 0) return '';

  const frequency = new Map<string, number>();
  for (const sentence of sentences)
    for (const word of sentence.content) frequency.set(word, (frequency.get(word) ?? 0) + 1);

  const score = (sentence: Sentence): number => {
    const unique = new Set(sentence.content);
    let total = 0;
    for (const word of unique) total += frequency.get(word) ?? 0;
    return total / Math.sqrt(Math.max(sentence.content.length, 1));
  };

  const informative = sentences.filter((s) => s.content.length >= MIN_CONTENT_WORDS);
  const candidates = informative.length > 0 ? informative : sentences;
  const count = candidates.length >= 4 ? 3 : 2;
  const seen = new Set<string>();
  const ranked = candidates
    .map((sentence) => ({ sentence, score: score(sentence) }))
    .sort((a, b) => b.score - a.score || a.sentence.order - b.sentence.order)
    .map(({ sentence }) => sentence)
    .filter((sentence) => {
      // Repeated sentences ("can I help you with anything else?") would otherwise fill the summary.
      const signature = sentence.content.join(' ');
      if (seen.has(signature)) return false;
      seen.add(signature);
      return true;
    });
  const chosen = ranked.slice(0, count);
  // The customer's own words say why they called: when the agent's sentences took every place,
  // the customer's best one takes the last.
  const customer = ranked.find((s) => s.speaker === 'customer');
  if (customer && !chosen.includes(customer) && chosen.every((s) => s.speaker !== 'customer'))
    chosen[chosen.length - 1] = customer;
  chosen.sort((a, b) => a.order - b.order);

  const labels = SPEAKER_LABELS[language] ?? SPEAKER_LABELS.en!;
  return chosen
    .map((sentence) => {
      const label = labels[sentence.speaker];
      return label ? `${label}: ${sentence.text}` : sentence.text;
    })
    .join('\n');
}
