/*
 * Warm words said through gritted teeth (issue 27). "Lovely, another bill." and "Genial, otra vez sin
 * internet." carry one warm word and nothing negative, so a word list reads them as praise; yet no
 * customer means "lovely" there. What gives the irony away is what the reaction is a reaction to:
 * more of the same trouble ("another …", "… again", "the same letter", "two bills", "otra vez",
 * "encima"), or a change for the worse ("now I've got no internet", "ahora no tengo ni línea").
 * The same shape is sincere when what follows has anything good in it ("Brilliant, it's working
 * again", "Genial, otra cosa resuelta"), or moves the call forward — a plan, an instruction, an
 * offer, a question ("Great, I'll try again tomorrow", "Perfect, another question for you",
 * "Perfecto, lo intento otra vez mañana").
 *
 * A reaction is a clause that holds one warm interjection (or thanks) and nothing but filler ("oh",
 * "well, that's just", "pues qué"), or an interjection that opens the utterance straight into a
 * marker ("great another fee", as transcripts come without commas). Patterns are matched on the
 * scorer's tokens (lower case, clause punctuation as "|", speech acts as "@act", lexicon phrases
 * joined with "-"), whole tokens only.
 */

export interface IronyRules {
  /** Warm interjections that can be meant either way ("great", "lovely", "genial", "qué-bien"). */
  reactions: readonly string[];
  /** Filler that may stand in the reaction's clause: "oh", "just", "that's", "qué", "pues". */
  fillers: readonly string[];
  /** More of the same: repetition, duplication, piling up. Ironic unless what follows reads positive. */
  recurrence: readonly string[];
  /** A change announced ("now"): ironic when what follows reads negative. */
  change: readonly string[];
  /** Moving the call forward (plans, instructions, offers, questions): never ironic. */
  forward: readonly string[];
}

/** Time spans are durations, not duplicates: "two minutes and it's done". */
const EN_UNITS = '(?:seconds|minutes|hours|days|weeks|months|years)';
const ES_UNITS = '(?:segundos|minutos|horas|días|semanas|meses|años)';

export const EN_IRONY: IronyRules = {
  reactions: [
    'great',
    'lovely',
    'perfect',
    'brilliant',
    'wonderful',
    'fantastic',
    'marvellous',
    'marvelous',
    'excellent',
    'amazing',
    'super',
    'nice',
    'terrific',
    'fabulous',
    'splendid',
    'superb',
    'awesome',
  ],
  fillers: ['oh', 'ah', 'well', 'just', "that's", 'that', 'is', 'how', 'so', 'really', 'very'],
  recurrence: [
    'again',
    'once more',
    '(?:yet )?another',
    '(?:the )?same',
    '(?:a )?(?:second|third|fourth|fifth)',
    // Duplicates, not "both accounts" or "the two lines" (things already known).
    `(?<!(?:the|both|those|these|my|your|our) )(?:two|three|four) (?!${EN_UNITS})\\S+s`,
    'just what i (?:needed|wanted)',
    'all over again',
    'back (?:on|to)',
  ],
  change: ['now', 'and now', 'so now'],
  forward: [
    // "I'll have to call again" is an obligation, not a plan.
    "(?:i'll|we'll|i will|we will)(?! have to)",
    "i'd",
    'let me',
    "let's",
    'let us',
    '(?:i|we|you) can',
    'you (?:could|should|might)',
    '(?:could|can|would) you',
    'please',
    'try',
    'going to',
    'for you',
    'questions?',
  ],
};

export const ES_IRONY: IronyRules = {
  reactions: [
    'genial',
    'estupendo',
    'estupenda',
    'perfecto',
    'fantástico',
    'maravilloso',
    'maravilla',
    'fenomenal',
    'magnífico',
    'bonito',
    'bien',
    'qué-bien',
    'excelente',
    'increíble',
  ],
  fillers: ['oh', 'ay', 'pues', 'qué', 'muy', 'de', 'y', 'vaya', 'todo', 'pero'],
  recurrence: [
    'otra vez',
    'de nuevo',
    'una vez más',
    'otr[oa]s?',
    '(?:el|la|lo|los|las) mism[oa]s?',
    'encima',
    '(?:segund|tercer|cuart|quint)[oa]?',
    `(?<!(?:las|los|mis|sus|tus|estas|estos|esas|esos|ambas|ambos) )(?:dos|tres|cuatro) (?!${ES_UNITS})\\S+s`,
    '(?:volver|vuelta|vuelvo) a empezar|desde cero',
    'ya van',
  ],
  change: ['ahora', 'y ahora'],
  forward: [
    '(?:voy|vamos|va) a',
    'puedo|podemos|puede|puedes|pueden|podría|podríamos',
    'debería|deberías|debe',
    // "lo intento otra vez", "pruebo de nuevo", "le vuelvo a llamar": a plan, not a relapse.
    '(?:lo |la )?(?:intento|intentaré|intentamos|pruebo|probaré|probamos)',
    '(?:le |te |lo |la )?vuelvo a (?:llamar|intentar|probar|mirar)',
    '(?:le|te) (?:llamo|llamaré|paso|envío|mando)',
    'por favor',
    'para usted|para ti',
    'preguntas?',
  ],
};

/** Whole-token matching on the space-joined tokens, as for speech acts. */
function anyOf(patterns: readonly string[]): RegExp {
  return new RegExp(`(?<=^| )(?:${patterns.join('|')})(?= |$)`);
}

export interface CompiledIrony {
  reactions: Set<string>;
  fillers: Set<string>;
  recurrence: RegExp;
  /** Recurrence or change at the very start of the rest: "great another fee". */
  opensWithMarker: RegExp;
  change: RegExp;
  forward: RegExp;
}

export function compileIrony(rules: IronyRules): CompiledIrony {
  const markers = [...rules.recurrence, ...rules.change];
  return {
    reactions: new Set(rules.reactions),
    fillers: new Set(rules.fillers),
    recurrence: anyOf(rules.recurrence),
    opensWithMarker: new RegExp(`^(?:${markers.join('|')})(?= |$)`),
    change: anyOf(rules.change),
    forward: anyOf(rules.forward),
  };
}

/**
 * Indices of the warm reactions (and thanks) in `tokens` that are meant ironically, given each
 * token's value as the scorer read it. `boundary` separates clauses; `thanks` is the thanks act's
 * token. Thanks is ironic only before something negative ("thanks a lot, now I've got no internet");
 * a bare "thanks, again" is just thanks.
 */
export function ironicReactions(
  tokens: readonly string[],
  values: readonly number[],
  irony: CompiledIrony,
  boundary: string,
  thanks: string,
): number[] {
  const ironic: number[] = [];
  let clauseStart = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === boundary) {
      clauseStart = i + 1;
      continue;
    }
    const isThanks = token === thanks;
    if (!isThanks && !(irony.reactions.has(token) && values[i]! > 0)) continue;
    // Only filler before it in its clause, and only filler after it up to the clause's end — unless
    // it opens the utterance straight into a marker ("great another fee").
    if (!tokens.slice(clauseStart, i).every((t) => irony.fillers.has(t))) continue;
    let end = i + 1;
    while (end < tokens.length && tokens[end] !== boundary && irony.fillers.has(tokens[end]!)) end++;
    const rest = tokens.slice(end).filter((t) => t !== boundary);
    if (rest.length === 0) continue;
    const restText = rest.join(' ');
    if (end < tokens.length && tokens[end] !== boundary && !irony.opensWithMarker.test(restText)) continue;
    const net = values.slice(end).reduce((sum, v) => sum + v, 0);
    if (net > 0 || irony.forward.test(restText)) continue;
    const recurs = irony.recurrence.test(restText);
    const worse = irony.change.test(restText) && net < 0;
    if (isThanks ? net < 0 && (recurs || worse) : recurs || worse) ironic.push(i);
  }
  return ironic;
}
