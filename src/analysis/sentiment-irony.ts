/*
 * Warm words said through gritted teeth (issue 27). "Lovely, another bill." and "Genial, otra vez sin
 * internet." carry one warm word and nothing negative, so a word list reads them as praise; yet no
 * customer means "lovely" there. What gives the irony away is what the reaction is a reaction to:
 * more of the same trouble ("another …", "… again", "the same letter", "two bills", "otra vez",
 * "encima"), a change for the worse ("now I've got no internet", "ahora no tengo ni línea"), or any
 * news that reads bad ("Perfect, the router's broken").
 * The same shape is sincere when what follows has anything good in it ("Brilliant, it's working
 * again", "Estupendo, ya funciona otra vez"), or moves the call forward — a plan, an instruction, an
 * offer, a question ("Great, I'll try again tomorrow", "Perfect, another question for you",
 * "Perfecto, lo intento otra vez mañana").
 *
 * A reaction is a clause that holds one warm interjection (or thanks) and nothing but filler ("oh",
 * "well, that's just", "pues qué"), or an interjection that opens the utterance straight into a
 * marker ("great another fee", as transcripts come without commas). Patterns are matched on the
 * scorer's tokens (lower case, clause punctuation as "|", speech acts as "@act", lexicon phrases
 * joined with "-"), whole tokens only.
 *
 * Set phrases that are ironic wherever they stand ("thanks for nothing", "lo que me faltaba") are
 * kept here too, and the scorer reads them as complaint acts (sentiment-acts.ts).
 */

import { EN_ORDINALS, EN_UNITS, ES_ORDINALS, ES_UNITS, wholeTokens } from './sentiment-acts.ts';

export interface IronyRules {
  /**
   * Set phrases that are ironic wherever they stand ("thanks for nothing", "is this what you call
   * service?", "lo que me faltaba"): the scorer reads them as complaint acts, before any other.
   */
  phrases: readonly string[];
  /** Warm interjections that can be meant either way ("great", "lovely", "genial", "qué-bien"). */
  reactions: readonly string[];
  /** Filler that may stand in the reaction's clause: "oh", "just", "that's", "qué", "pues". */
  fillers: readonly string[];
  /**
   * What may follow an ironic thanks in its clause: "thanks for that, now …". Nothing else does:
   * "thanks for everything", "gracias de verdad" are sincere formulas.
   */
  thanksFor: readonly string[];
  /** Words after the reaction that open its object: "I love how …", "me encanta cómo …". */
  introducers: readonly string[];
  /** More of the same: repetition, duplication, piling up. Ironic unless what follows reads positive. */
  recurrence: readonly string[];
  /** A change announced ("now"): ironic when what follows reads negative. */
  change: readonly string[];
  /** Moving the call forward (plans, instructions, offers, questions): never ironic. */
  forward: readonly string[];
  /**
   * After a bare interjection ("Lovely, …"), news that carries no value either way is read neutral
   * (see ironicReactions) unless one of these says it is good: a go-ahead, a "ya" (done at last).
   */
  assent: readonly string[];
  /** Nouns that make the reaction an evaluation rather than an interjection: "great service", "good news". */
  evaluated: readonly string[];
}

export const EN_IRONY: IronyRules = {
  phrases: [
    '(?:thanks|thank you|cheers) for (?:absolutely |precisely |exactly |all of |a whole lot of )?nothing',
    // "Cheers for that, really useful, not.": a closing "not" takes back everything before it.
    '(?:(?<=^)\\S+)(?: \\S+)* \\| not(?= \\|$|$)',
    '(?:thanks|thank you|cheers)(?: \\S+){0,3} for (?:leaving|keeping) (?:me|us) (?:on hold|hanging|waiting|in the dark|without)',
    // Thanks for how long it took ("cheers for the three hour wait"), not "thanks for the wait".
    '(?:thanks|thank you|cheers)(?: \\S+){0,2} for (?:the|that|this|my) (?:\\S+ )?(?:hour|minute|min|day|week)s?(?: long)? (?:hold|wait|queue)(?= \\||$| really| i| though)',
    '(?:thanks|thank you|cheers)(?: \\S+){0,2} for the (?:\\S+ )?(?:runaround|hassle|headache)',
    // Thanks for a harm or for making it worse, commas or not: "thanks a bunch you've made it worse".
    '(?:thanks|thank you|cheers)(?: \\S+){0,2} for (?:wasting|ruining|losing|messing up|breaking|making me (?:wait|waste|lose))',
    '(?:thanks|thank you|cheers)(?: \\S+){0,5} (?:made|making) (?:it|things|everything) (?:even |much )?worse',
    '(?:(?:thanks|thank you)(?: \\S+){0,6} )?said (?:no one|nobody|no-one) ever',
    '(?:thanks|thank you) for the (?:\\S+ )?surprise (?:on|in) (?:my|the|this)',
    '(?:i )?(?:really )?appreciate (?:being|getting) (?:kept|left|put|ignored|charged|passed|cut|hung)',
    // Praise asked as a question: "is this what you call good service?"
    "(?:is this|is that|this is|that's|so this is) what you(?: people)? (?:call|'d call)",
    // "So much for the free upgrade", not "thank you so much for sorting that out".
    '(?<!(?:thank you|thanks) )so much for',
    '(?:love|enjoy|adore) (?:waiting|having to|paying|being (?:on hold|ignored|charged|passed|kept)|spending (?:hours|an hour|my))',
    'good luck (?:getting|trying|finding|with that)',
    // Thanks for a cost: "cheers for the fifty quid late fee".
    '(?:thanks|thank you|cheers)(?: \\S+){0,2} for (?:the|that|this|my|another|a|an) (?:\\S+ ){0,3}(?:late fee|fee|surcharge|penalty|fine|price rise|price increase|price hike)',
    '(?:thrilled|delighted|overjoyed|over the moon) to (?:be )?(?:spending|spend|wasting|waste|sitting|sit|waiting|wait)',
    // Service that came late, welcomed through gritted teeth: "nice of you to finally pick up".
    '(?:about time|(?:nice|good|kind|lovely|decent|big) of you to (?:finally|eventually|bother))',
    // Courtesy thanked for a harm: "very kind of you to hang up on me" (not "kind of you to call back").
    '(?:nice|good|kind|lovely|decent|sweet|thoughtful|considerate|generous|big) of (?:you|them|him|her|someone|somebody|(?:the|your) \\S+) to (?:just |then |also )?(?:hang up|cut (?:me|us) off|ignore|lose|leave (?:me|us|it)|keep (?:me|us) waiting|overcharge|double charge|charge (?:me|us) twice|disconnect|cancel (?:my|our)|put (?:me|us) on hold)',
    // Good only when it works, which is the complaint: "it's brilliant when it works".
    'when it (?:actually |does )?(?:works|work)(?= \\||$| which)',
  ],
  reactions: [
    // Praise (sentiment-acts.ts) as a reaction: "great service, three failed deliveries".
    '@praise',
    '@acclaim',
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
    'good',
    'joy',
    'charming',
    'delightful',
    'surprise',
    'well-done',
    'congratulations',
    'bravo',
    'love',
  ],
  // "Oh, well, that's just perfect", "Great timing", "Nice one", "What a surprise", "Cheers for that".
  fillers: [
    'oh',
    'ah',
    'well',
    'yeah',
    'yes',
    'just',
    "that's",
    'that',
    'is',
    'how',
    'so',
    'really',
    'very',
    'what',
    'a',
    'one',
    'timing',
    'service',
    'job',
    'for',
    'i',
  ],
  thanksFor: ['for that', 'for this'],
  introducers: ['how', 'the way', 'it when'],
  recurrence: [
    'again',
    'once more',
    '(?:yet )?another',
    '(?:the )?same',
    // "a third engineer", not "the second payment" (one already known).
    `(?:a|yet a) ${EN_ORDINALS}`,
    // Duplicates, not "both accounts" or "the two lines" (things already known).
    // "two bills", "two direct debits".
    `(?<!(?:the|both|those|these|my|your|our) )(?:two|three|four) (?!${EN_UNITS})(?:\\S+ )?(?!${EN_UNITS})\\S+s`,
    'just what i (?:needed|wanted)',
    'all over again',
    // "Back on hold", "back to square one"; not "the lights are back on".
    'back (?:on hold|to (?:square one|the start|the beginning|the same))',
    // Qualifying what went before ("late as usual"), not a habit ("as usual I'll pay by card").
    '(?:as (?:usual|always|ever)|like always)(?= \\||$)',
  ],
  // "Great, thanks, so the refund's gone to an account I closed": a consequence opening what follows.
  change: ['now', 'and now', 'so now', '(?<=^\\| )so', '(?:just )?made (?:it|things|everything) worse', 'even worse'],
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
    // Sent to put things right: "a second engineer will come to finish the job".
    'to (?:finish|fix|sort|repair|complete|install|replace|check|help)',
    'for you',
    'questions?',
  ],
  // A plan agreed: "Perfect, do that then".
  assent: ['go ahead', 'do it', 'book it', 'go for it', 'do that', 'then', "let's"],
  evaluated: ['service', 'job', 'news', 'timing'],
};

export const ES_IRONY: IronyRules = {
  phrases: [
    '(?:muchas |muchísimas |mil )?gracias por (?:absolutamente )?nada',
    '(?:(?<=^)\\S+)(?: \\S+)* \\| (?:no|nada)(?= \\|$|$)',
    // Gracias por dejarle a uno esperando: "gracias, eh, por dejarme media hora escuchando la musiquita".
    '(?:s[ií] )?gracias(?: \\S+){0,3} por (?:dejarme|dejarnos|tenerme|tenernos) (?:\\S+ ){0,3}(?:esperando|escuchando|colgad[oa]s?|tirad[oa]s?|plantad[oa]s?|en espera|sin)',
    'gracias(?: \\S+){0,4} (?:todavía|aún|incluso|mucho|bastante) peor',
    // Gracias por lo que duró la espera, no "gracias por la espera" (sincero).
    '(?:s[ií] )?gracias(?: \\S+){0,2} por (?:la|las|el|los) (?:\\S+ )?(?:horas?|minutos|semanas|días) de (?:espera|musiquita|vueltas)(?= \\||$)',
    // Gracias por un daño, con comas o sin ellas: "sí, gracias por hacerme perder otra hora".
    'gracias por la (?:\\S+ )?sorpres(?:a|ita) (?:en|de) (?:la|mi|este|el)',
    '(?:le |les )?agradezco (?:\\S+ )?que me (?:tengan|dejen|cobren|cuelguen)',
    '(?:s[ií] )?gracias(?: \\S+){0,2} por (?:hacerme|hacernos) (?:perder|esperar)|gracias por (?:fastidiarme|arruinarme|amargarme)',
    // Un daño en infinitivo con su pronombre: "muchas gracias por cortarme el internet".
    '(?:s[ií] )?gracias(?: \\S+){0,2} por (?:cortarme|cortarnos|colgarme|cobrarme|cobrarnos|dejarme sin|dejarnos sin|quitarme|cancelarme|subirme|ignorarme|tenerme esperando|mandarme de un lado)',
    // Un elogio en forma de pregunta: "¿a esto le llaman buen servicio?"
    '(?:a esto|a eso|esto es lo que|eso es lo que) (?:le |lo )?(?:llaman|llamáis|llama usted|llaman ustedes)',
    'vaya con',
    // Gracias por un coste: "gracias por el recargo de cincuenta euros".
    'gracias(?: \\S+){0,2} por (?:el|la|ese|esa|este|esta|otro|otra|mi) (?:\\S+ ){0,3}(?:recargo|penalización|multa|comisión|subida)',
    '(?:encantad[oa]s?|emocionad[oa]s?|feliz|felices) de (?:pasar|perder|estar) (?:\\S+ ){0,3}(?:en espera|esperando|al teléfono)',
    // "¡Lo que me faltaba!": the last straw, said of whatever went wrong.
    '(?:justo |solo |sólo )?lo que (?:me |nos )?faltaba',
    'me encanta (?:esperar|tener que|pagar|que me)',
    'ya era hora|(?:se dignan|se han dignado|os dignáis|se dignó)',
    '(?:amable|detalle|bonito|considerado) (?:por|de) (?:su|vuestra|tu) parte (?:\\S+ ){0,4}por fin',
    'cuando (?:va|funciona)(?= \\||$| que)',
  ],
  reactions: [
    // El elogio (sentiment-acts.ts) como reacción: "estupendo servicio, tres entregas fallidas".
    '@praise',
    '@acclaim',
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
    'alegría',
    'ilusión',
    'oportuno',
    'suerte',
    'sorpresa',
    'enhorabuena',
    'bravo',
    'encanta',
  ],
  fillers: [
    'oh',
    'ay',
    'pues',
    'sí',
    'si',
    'qué',
    'muy',
    'de',
    'y',
    'vaya',
    'todo',
    'pero',
    'por',
    'eso',
    'un',
    'servicio',
    'verdad',
    'eh',
    'hombre',
    'me',
    'nos',
  ],
  thanksFor: ['por eso', 'por esto'],
  introducers: ['cómo', 'la forma en que'],
  recurrence: [
    'otra vez',
    'de nuevo',
    'una vez más',
    'otr[oa]s?',
    '(?:el|la|lo|los|las) mism[oa]s?',
    'encima',
    `(?:un|una) ${ES_ORDINALS}`,
    `(?<!(?:las|los|mis|sus|tus|estas|estos|esas|esos|ambas|ambos) )(?:dos|tres|cuatro) (?!${ES_UNITS})\\S+s`,
    '(?:volver|vuelta|vuelvo) a empezar|desde cero',
    'ya van',
    '(?:como siempre|como de costumbre|lo de siempre)(?= \\||$)',
  ],
  change: ['ahora', 'y ahora', '(?<=^\\| )así que', '(?:lo |la )?(?:han|has|habéis|ha) empeorado', 'peor que antes'],
  forward: [
    '(?:voy|vamos|va) a',
    '(?<!no )(?:puedo|podemos|puede|puedes|pueden|podría|podríamos)',
    'debería|deberías|debe',
    // "lo intento otra vez", "pruebo de nuevo", "le vuelvo a llamar": a plan, not a relapse.
    '(?:lo |la )?(?:intento|intentaré|intentamos|pruebo|probaré|probamos)',
    '(?:le |te |lo |la )?vuelvo a (?:llamar|intentar|probar|mirar)',
    '(?:le|te) (?:llamo|llamaré|paso|envío|mando)',
    '(?:a|para) (?:terminar|acabar|arreglar|reparar|solucionar|completar|instalar|cambiar|revisar|ayudar)',
    'por favor',
    'para usted|para ti',
    'preguntas?',
  ],
  // Un plan acordado: "Perfecto, entonces el martes a las cuatro".
  assent: ['ya', 'por-favor', 'hágalo', 'hazlo', 'háganlo', 'adelante', 'entonces', 'dale', 'hágale'],
  evaluated: ['servicio', 'noticia', 'trabajo'],
};

export interface CompiledIrony {
  reactions: Set<string>;
  fillers: Set<string>;
  thanksFor: Set<string>;
  /** An introducer right after the reaction: "how …" in "I love how …". */
  introducer: RegExp;
  recurrence: RegExp;
  /** Recurrence or change at the very start of the rest: "great another fee". */
  opensWithMarker: RegExp;
  change: RegExp;
  forward: RegExp;
  assent: RegExp;
  evaluated: Set<string>;
}

export function compileIrony(rules: IronyRules): CompiledIrony {
  const markers = [...rules.recurrence, ...rules.change];
  return {
    reactions: new Set(rules.reactions),
    fillers: new Set(rules.fillers),
    thanksFor: new Set(rules.thanksFor),
    introducer: new RegExp(`^(?:${rules.introducers.join('|')}) `),
    recurrence: wholeTokens(rules.recurrence),
    opensWithMarker: new RegExp(`^(?:${markers.join('|')})(?= |$)`),
    change: wholeTokens(rules.change),
    forward: wholeTokens(rules.forward),
    assent: wholeTokens(rules.assent),
    evaluated: new Set(rules.evaluated),
  };
}

/**
 * Indices of the warm reactions (and thanks) in `tokens` that are meant ironically, given each
 * token's value as the scorer read it. `boundary` separates clauses; `thanks` is the thanks act's
 * token. Thanks is ironic only before something negative ("thanks a lot, now I've got no internet",
 * "thanks for that, now I owe you sixty pounds") or for a harm ("thanks for wasting my morning"); a
 * bare "thanks, again" is just thanks.
 */
/** The praise act's token (sentiment-acts.ts), weighed for irony like a warm interjection. */
const praise = '@praise';
/** Praise as an exclamation, with no subject ("qué amable"): weighed like any warm interjection. */
const acclaim = '@acclaim';

export function ironicReactions(
  tokens: readonly string[],
  values: readonly number[],
  irony: CompiledIrony,
  boundary: string,
  thanks: string,
  /** Filled with the reactions that read neutral (see below). */
  doubtful?: number[],
  /** Filled with the reactions weighed and found sincere (good news or a plan after them). */
  sincere?: number[],
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
    // Zero for a word the lexicon does not value ("surprise"); never a negated one.
    if (!isThanks && !(irony.reactions.has(token) && values[i]! >= 0)) continue;
    // Warm words may pile up: "what a lovely surprise", "oh great, wonderful".
    const filler = (t: string) => irony.fillers.has(t) || irony.reactions.has(t);
    if (!tokens.slice(clauseStart, i).every(filler)) continue;
    if (isThanks && harmThanked(tokens, values, i, boundary)) {
      ironic.push(i);
      continue;
    }
    // Only filler after it up to the clause's end, unless it runs straight into a marker ("great
    // another fee", as transcripts come without commas) or opens its object ("I love how …").
    const opensObject = !isThanks && irony.introducer.test(tokens.slice(i + 1).join(' '));
    let end = i + 1;
    if (isThanks) {
      while (end < tokens.length && tokens[end] !== boundary) end++;
      const after = tokens.slice(i + 1, end).join(' ');
      if (after !== '' && !irony.thanksFor.has(after)) {
        // Transcripts come without commas: "muchas gracias eh ahora está peor", "thanks now I can't
        // log in". After filler, a change or more of the same opens what the thanks answers.
        let k = i + 1;
        while (k < end && irony.fillers.has(tokens[k]!)) k++;
        if (!irony.opensWithMarker.test(tokens.slice(k, end).join(' '))) continue;
        end = k;
      }
    } else while (!opensObject && end < tokens.length && tokens[end] !== boundary && filler(tokens[end]!)) end++;
    const rest = tokens.slice(end);
    if (rest.every((t) => t === boundary)) continue;
    const restText = rest.join(' ');
    const runsOn = end < tokens.length && tokens[end] !== boundary;
    // Transcripts come without commas: an utterance that opens with the reaction ("oh great the
    // app's down again") reads as if one followed it; later in a line it must run into a marker.
    if (runsOn && !opensObject && clauseStart > 0 && !irony.opensWithMarker.test(restText)) continue;
    // Praise running on into what it praises ("es muy amable por su parte quitarme el recargo") is
    // weighed only when it runs straight into a marker ("qué buen servicio otra vez sin línea").
    if (runsOn && (token === praise || token === acclaim) && !irony.opensWithMarker.test(restText)) {
      sincere?.push(i);
      continue;
    }
    const net = values.slice(end).reduce((sum, v) => sum + v, 0);
    if (net > 0 || irony.forward.test(restText)) {
      sincere?.push(i);
      continue;
    }
    const recurs = irony.recurrence.test(restText);
    const worse = irony.change.test(restText) && net < 0;
    // A warm word in answer to bad news ("Perfect, the router's broken") or to more of the same is
    // ironic; thanks only when what follows is bad and new (a bare "thanks, again" is just thanks).
    // Or what it answers is a change to more of the same: "cheers, now I've got two direct debits".
    const doubled = recurs && net <= 0 && irony.change.test(restText);
    if (isThanks ? (net < 0 && (recurs || worse)) || doubled : recurs || net < 0) ironic.push(i);
    // A bare interjection opening the utterance ("Lovely, the engineer turned up without the part",
    // "Genial, el técnico viene el lunes") answering news the words cannot value: sincere or ironic,
    // the words cannot tell, so it reads neutral rather than risk the opposite of what was meant.
    else if (
      !isThanks &&
      // Praise with its subject ("you've been a godsend, I mean that") evaluates; it is no interjection.
      token !== praise &&
      clauseStart === 0 &&
      !runsOn &&
      !tokens.slice(0, end).some((t) => irony.evaluated.has(t)) &&
      !irony.assent.test(restText) &&
      // "Great, now I have both accounts on screen": a change announced with nothing bad in it.
      !irony.change.test(restText)
    )
      doubtful?.push(i);
    // That change, weighed for irony (nothing bad in it, nothing repeated) and found sincere.
    else if (!isThanks && irony.change.test(restText)) sincere?.push(i);
  }
  return ironic;
}

/** "Thanks for wasting my morning", "gracias por hacerme perder la mañana": what is thanked for is a harm. */
function harmThanked(tokens: readonly string[], values: readonly number[], at: number, boundary: string): boolean {
  if (tokens[at + 1] !== 'for' && tokens[at + 1] !== 'por') return false;
  for (let j = at + 2; j < Math.min(tokens.length, at + 4) && tokens[j] !== boundary; j++) {
    if (values[j]! > 0) return false;
    if (values[j]! < 0) return true;
  }
  return false;
}
