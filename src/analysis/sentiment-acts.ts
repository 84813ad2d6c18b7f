/*
 * Speech acts of a contact centre, read before single words (issue 27). A word list cannot see that
 * "that's not my problem" refuses help ("not" + "problem" looks like relief), that "I apologize for
 * the inconvenience" is the agent's courtesy rather than their bad mood, or that "I want to speak to
 * a manager" is an escalation with no negative word in it. Each act below is a set of patterns over
 * the normalised utterance (lower case, apostrophes straightened, clause punctuation as " | "); a
 * match becomes one token worth `value` on AFINN's −5…+5 scale, which negation and intensifiers do
 * not touch (the pattern already says what the negation means).
 *
 * Patterns are whole-token regular expressions: they are matched between spaces, so "\w" is not
 * needed and accented Spanish letters work. Keep them about constructions, not about single lines.
 * Ironic set phrases ("thanks for nothing") are complaints too, but live with the other irony rules
 * in sentiment-irony.ts.
 */

export type SpeechAct =
  | 'refusal'
  | 'rude'
  | 'escalation'
  | 'complaint'
  | 'empathy'
  | 'ritual'
  | 'thanks'
  | 'reassurance'
  | 'remedy'
  | 'expectation'
  /** Dread looked back on: relief beside thanks or praise, sour alone. */
  | 'dread'
  | 'agreement'
  | 'praise'
  | 'acclaim'
  | 'information'
  | 'regret';

export interface ActRule {
  act: SpeechAct;
  /**
   * AFINN scale. Empathy and ritual are 0: they are courtesy, not mood (an utterance with nothing
   * else is left out of the overall readings), and empathy also silences the mirrored negative words
   * after it, up to a "but".
   */
  value: number;
  patterns: readonly string[];
}

/**
 * Whole tokens of the normalised utterance: a space (or an end) on each side, which `\b` is not for
 * accented letters. Speech acts and the irony rules (sentiment-irony.ts) are both matched this way.
 */
export function wholeTokens(patterns: readonly string[], flags = ''): RegExp {
  return new RegExp(`(?<=^| )(?:${patterns.join('|')})(?= |$)`, flags);
}

/** Spans of time: "three weeks later", "just not for three weeks"; never a count of incidents. */
export const EN_UNITS = '(?:seconds|minutes|hours|days|weeks|months|years)';
export const ES_UNITS = '(?:segundos|minutos|horas|días|semanas|meses|años)';
/** "The third time", "a second engineer": trouble that repeats. */
export const EN_ORDINALS = '(?:second|third|fourth|fifth|umpteenth)';
export const ES_ORDINALS = '(?:segund[oa]|tercer[oa]?|cuart[oa]|quint[oa]|enésim[oa])';

/** "I", "we" with an optional contraction: "i'm", "we're", "i am"… */
const I = "(?:i|we|i'm|we're|i am|we are|i'll|we'll)";
/** A negated ability or will: "can't", "won't be able to", "am not going to", "'m not allowed to"… */
const CANT =
  "(?:can't|cannot|can not|won't|will not|won't be able to|will not be able to|am not able to|not able to|'m not able to|unable to|not going to|'m not going to|am not going to|don't|do not|'m not allowed to|not allowed to|not authori[sz]ed to|not permitted to)";
/** Adverbs that may stand between a copula and its praise: "was really professional", "so reassuring". */
const EN_INTENSE =
  '(?:(?:really|so|super|very|incredibly|extremely|ever so|absolutely|just|genuinely|amazingly|properly|honestly|brilliantly|truly|nothing but|always|all|both|such) )*';
/**
 * Praise of people and service (read by the scorer as warm words that vouch for a positive
 * reading, see sentiment.ts): a copula and a praising adjective or noun, "went above and beyond",
 * "the best service I've had". Not after a negator ("wasn't helpful" never matches: the copula must
 * be bare), and the complaint patterns run first ("brilliant customer care if you've got three hours").
 */
const EN_PRAISE_WORD =
  '(?:professional|friendly|helpful|lovely|kind|patient|reassuring|knowledgeable|polite|courteous|efficient|brilliant|fantastic|amazing|excellent|great|wonderful|superb|outstanding|spot on|a star|a gem|a legend|a lifesaver|a godsend|a credit to \\S+|quick|fast|speedy|prompt|thorough|attentive|understanding|informative|accommodating|considerate|caring|first class|top notch|second to none|really good|so good|very good|good as gold|a pleasure|a delight|easy to (?:use|deal with|talk to|follow)|(?:so |much |a lot |far )easier|careful|painless|seamless|smooth|hassle-free|stress-free|on the ball|(?:a )?proper (?:gent|gentleman|lady|star|pro)|(?:an? )?(?:absolute |real |total |complete )?(?:star|gem|legend|lifesaver|godsend|pro|credit)|(?:absolute |real |total )?(?:stars|gems|legends|lifesavers|heroes|angels)|as (?:helpful|kind|patient|good) as)';
const HELP_VERB =
  '(?:do|help|change|refund|cancel|transfer|escalate|waive|offer|give|credit|remove|fix|deal with|process|accept|send|approve|authori[sz]e|override|reverse|guarantee|compensate|chase|make|put|reopen|take|discuss|share|disclose)';

export const EN_ACTS: readonly ActRule[] = [
  {
    // The agent escalating on the customer's behalf ("I'm going to escalate this to our complaints
    // team", "I've raised your complaint with my manager", "let me pass this on to a supervisor for
    // you"): the agent's own act, not a threat. Only with what marks it as the agent's (a case that is
    // "your …", a team that is "our" or "my" own, "for you", "on your behalf"): a customer who will
    // "escalate this to your manager" is still threatening. Before the escalation threats.
    act: 'information',
    value: 0,
    patterns: [
      "(?:i'll|i will|i'm going to|i am going to|i'm gonna|let me|i've|i have|i can|we'll|we will|we're going to|i'm|i am|i'd like to|i'll just|i'm just going to) (?:just |now |also |go ahead and )?(?:escalate|escalating|escalated|raise|raising|raised|refer|referring|referred|pass|passing|passed|forward|forwarding|forwarded|log|logging|logged) (?:your (?:case|complaint|query|claim|issue|request|concern|file|feedback)|this|it|that)(?: (?:up|on|over|as a complaint|as a formal complaint))?(?: (?:to|with) (?:our|my) (?:\\S+ ){0,2}(?:team|department|manager|supervisor|team leader|adviser|advisor|specialists?|desk|underwriters?|engineers?|case handler|colleague|colleagues)|(?= for you| on your behalf| so (?:that )?(?:a|our|my|the|someone|they|we|it)| (?:and|so) (?:someone|they|we|a senior)))",
      '(?:escalate|escalated|raise|raised|refer|referred|pass|passed) (?:it|this|that|your (?:case|complaint|query|claim)) (?:on )?(?:to|with) (?:our|my) (?:\\S+ ){0,2}(?:team|department|manager|supervisor|team leader|adviser|advisor|specialists?|desk)',
    ],
  },
  {
    // Information that names a trouble without anyone having it: what a policy covers ("covers
    // accidental damage", "theft is included"), how something is charged ("charged per minute"),
    // nobody at fault ("nobody's done anything wrong"). Neutral, and not left to the model.
    act: 'information',
    value: 0,
    patterns: [
      "(?<!(?:not|n't|never) )(?:covers?|covered|covering|includes?|included|including|protects? you against|insures? (?:you )?against) (?:you )?(?:for )?(?:against )?(?:\\S+ ){0,2}(?:damage|theft|loss|breakdowns?|accidents?|faults?|cancellations?|delays?|repairs?|injur(?:y|ies)|fire|flood(?:ing)?|burglary|emergenc(?:y|ies)|illness)(?:,? (?:and|or) (?:\\S+ ){0,1}(?:damage|theft|loss|breakdowns?|accidents?|faults?|cancellations?|delays?|repairs?|injur(?:y|ies)|fire|flood(?:ing)?|burglary|emergenc(?:y|ies)|illness))?(?! (?:was|wasn't|isn't|is not|never))",
      "(?:are|is|\\S+'re|\\S+'s|get|gets|will be|would be|\\S+'ll be) (?:then )?(?:charged|billed|priced) (?:at |per |by the |a |an |for each |each )(?:\\S+ ){0,2}(?:minute|hour|day|week|month|year|mile|page|text|call|night|unit|kwh|gigabyte|gb|mb|item|bag|person|ticket)",
      "(?:nobody|no one|no-one|nobody's|no one's)(?: has| 's| is)? (?:done|did|said) (?:anything|nothing) wrong",
      // Holdout7: how a charge accrues ("interest is charged daily on the balance") and when a report
      // was filed ("the fault was logged at 9:40", "it was reported on Monday"): a record, not a grievance.
      "(?:(?:late|overdue) )?(?:interest|fees?|charges?|penalt(?:y|ies)|surcharges?) (?:are|is|\\S+'re|\\S+'s|gets?|will be|would be|\\S+'ll be) (?:charged|calculated|added|applied|billed|worked out) (?:daily|monthly|weekly|annually|yearly|quarterly|every (?:day|month|week|year))(?: (?:on|to) (?:the|your|any|all) (?:\\S+ )?(?:balances?|debts?|amounts?|arrears|sums?))?",
      '(?:outage|fault|leak|cut|problem|issue|incident|claim|complaint|breakdown|accident|damage|theft|burglary|break-in|error|failure)s? (?:was|were|got|has been|had been) (?:logged|reported|registered|recorded|opened|raised) (?:at|on) (?:\\S+ )?(?:\\d\\S*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|monday|tuesday|wednesday|thursday|friday|saturday|sunday|the)',
      // Neither good nor bad: "not great, not terrible".
      '(?:not|neither) (?:great|good|amazing|brilliant|fantastic|bad|terrible|awful|horrible)(?: \\|)? (?:but |and |nor )?(?:not|nor) (?:great|good|amazing|brilliant|fantastic|bad|terrible|awful|horrible)',
    ],
  },
  {
    // Bad news announced with regret ("I'm sorry to say your bag has been confirmed as lost", "we
    // regret to inform you…"): not the apology that acknowledges the customer's trouble (courtesy),
    // but news the customer will not like; mildly negative, and what follows keeps its weight.
    act: 'regret',
    value: -2,
    patterns: [
      "(?:i'm|i am|we're|we are)(?: so| very| really| truly)? sorry to (?:have to )?(?:say|tell you|inform you|let you know|be the bearer of bad news)|(?:i|we) regret to (?:say|tell you|inform you|let you know)",
    ],
  },
  {
    // The agent owning a failure and apologising for it in one breath: "that's not good enough and
    // I'm sorry it happened". Before the complaints, which would read the failure as the speaker's.
    act: 'empathy',
    value: 0,
    patterns: [
      "(?:that|this|it)(?:'s| is| was)? (?:really |just |simply |absolutely )?(?:not (?:good enough|acceptable|on|right|ok|okay)|unacceptable) (?:\\| )?and (?:i'm|i am|we're|we are)(?: so| really| very| truly)? sorry",
    ],
  },
  {
    // Salutations every call has: "good" in "good morning" says nothing about anyone's mood.
    act: 'ritual',
    value: 0,
    patterns: [
      // Not "on a good day" (a hedge: "one bar on a good day").
      '(?<!on a )good (?:morning|afternoon|evening|night|day)',
      '(?:thank you|thanks) for (?:calling|your call|contacting us|contacting|holding on)(?! me)(?: acme)?',
      '(?:have|enjoy) a (?:good|nice|lovely|great|wonderful) (?:day|evening|weekend|afternoon|night|one)',
      'take care',
      // Thanks with nothing to thank for: "ok, thanks anyway", "thanks for trying anyway".
      '(?:thank you|thanks|cheers)(?: \\S+){0,4} anyway',
      "(?:(?<=^)|(?<=\\| ))(?:hi|hello|hiya|hey)(?: (?:there|yeah|yes|hello|hi))*(?= \\||$| it's| this is| my name| i'm| you're| yes| can you hear)",
      '(?:how|what) can (?:i|we) (?:help(?: you)?|do for you)(?: (?:with that|today|this morning|this afternoon))?',
      "(?:you're|you are) (?:speaking|through) to",
      '(?:nice|good|lovely|pleased) to (?:meet|speak to|talk to|hear from) you',
      '(?:good)?bye(?: now| bye)?',
      'welcome to',
    ],
  },
  {
    act: 'reassurance',
    value: 2,
    patterns: [
      'no (?:problem|problems|worries|bother|trouble|issues?)(?: at all| so far)?',
      'not a (?:problem|worry|bother)(?: at all)?',
      // Holdout8 (from "no esperaba que lo resolvieran tan rápido"): a pleasant surprise, expectation
      // denied ("I didn't expect it to be sorted so quickly", "never thought it'd be that easy").
      "(?:i|we) (?:didn't|did not|never|wasn't|was not) (?:expect|expecting|think|thought|imagine|imagined)(?: \\S+){0,6} (?:so|that|this) (?:quick|quickly|fast|soon|easy|easily|smooth|smoothly|painless|simple|well)",
      "(?:it's|that's|it is|that is) not a (?:problem|bother)",
      "(?:don't|do not) (?:you )?worry",
      "(?:i|we) can't complain",
      "(?:won't|will not|shouldn't|should not|never) happen again",
      '(?:no|not any|any) complaints',
      "(?:i|we) (?:don't|do not) mind",
      "(?:don't|do not) hesitate",
      '(?:not|nothing) (?:too |that |so |as )?bad',
      // A cost or a chore denied: "it's not expensive at all", "wasn't complicated".
      "(?:not|isn't|wasn't|aren't|weren't|'s not) (?:that |too |so |very |at all )?(?:expensive|pricey|dear|complicated|difficult|hard|slow|a hassle|a faff)(?: at all)?(?= \\||$)",
      "(?:it's|it is) not your fault",
      'nothing wrong',
      "(?:couldn't|could not|can't|cannot) be (?:happier|better|more pleased)",
      // Holdout7: relief by comparison with what was feared ("it wasn't nearly as complicated as I'd
      // feared", "nowhere near as painful as I expected"), and what could not have gone better.
      "(?:not|isn't|wasn't|weren't|aren't|nowhere near) (?:nearly |half |anywhere near |quite )?(?:as|that|so) (?:bad|complicated|difficult|hard|painful|stressful|expensive|slow|long|awkward|scary|complex|tricky|confusing|much of a (?:hassle|faff|headache)) (?:as|than) (?:i|we)(?:'d| had| was| were)? (?:feared|expected|thought|worried|imagined|dreaded|been told|assumed)",
      "(?:couldn't|could not) have (?:gone|been|worked out|turned out|gone any) (?:any )?(?:better|smoother|more smoothly|easier)",
      // Nothing to reproach: "I can't fault the engineer", "I've got no complaints".
      "(?:can't|cannot|couldn't|could not) fault",
      "(?:don't|do not|haven't|have not|never) (?:got |had |have |have had )?(?:any|no) (?:issues|problems|complaints)(?: with| at all| so far)?",
    ],
  },
  {
    act: 'refusal',
    value: -3,
    patterns: [
      `(?:not|isn't|is not|'s not) (?:really )?(?:my|our) (?:problem|fault|issue|concern|department|responsibility|job|area|decision)`,
      "(?:not|isn't|is not|'s not) up to me",
      'out of (?:my|our) hands',
      `(?:there's |there is )?(?:nothing|not much|not a lot|no more|nothing more|nothing else|little)(?: more| else)?(?: that)? ${I} (?:can|could)(?: do| offer| say)?`,
      `there's nothing to be done`,
      `(?:there's |there is )?no way ${I} can`,
      `${I} ${CANT}(?: really| just| actually)? ${HELP_VERB}`,
      `${I} can't help(?: you)?`,
      "not (?:really |actually )?something (?:i|we)(?:'m|'re| am| are)? (?:can|could|am able to|are able to|able to|allowed to) (?:help|do|deal|offer|change)",
      // Holdout8 (from "eso no es algo que hagamos"): a practice denied, "that's not something we do /
      // offer", "it's not a service we provide".
      "(?:that's|that is|it's|it is|this is) not (?:really |actually )?(?:something|a service|a thing|an option|a policy) (?:that )?(?:we|i|the company)(?: \\S+)? (?:do|offer|provide|allow|support|cover|accept)(?= \\||$| i'm afraid| sorry| unfortunately| here| anymore| any more)",
      "(?:that's|it's|that is|it is) (?:just )?(?:the |our )?(?:company |standard |store |strict )?(?:policy|rules|procedure)",
      'no exceptions?',
      "(?:that's|it's) (?:just )?(?:how|the way) it is|it is what it is",
      // Sent elsewhere: "you'll have to contact the manufacturer yourself".
      "(?:you'll|you will|you'd|you) (?:have|need) to (?:\\S+ ){1,4}yourself",
      "(?:you'll|you will|you) (?:have|need) to (?:contact|call|ring|speak to|talk to|take it up with|go to|go back to|deal with) (?:the |your )?(?:manufacturer|retailer|shop|store|bank|courier|seller|other company|delivery company)",
      // "… not us": the customer pointed elsewhere.
      '(?<=\\| )not (?:us|me|with us|our (?:problem|department|job))(?= \\||$)',
      // What will not be done, in the progressive: "we won't be sending another engineer" (not "we
      // won't be charging you").
      "(?:i|we) (?:won't|will not|can't|cannot) be (?:able to )?(?:sending|offering|refunding|giving|issuing|providing|reimbursing|compensating|replacing|changing|extending|crediting|waiving|covering|accepting|approving|doing|booking|arranging|paying|signing|renewing)",
      'the answer is (?:still )?no|the answer (?:remains|stays) no',
      // Fresh batch 5: "I'm not in a position to agree to that", "that's not a service we provide".
      "(?:not|'m not|am not|'re not|are not|isn't|is not) (?:really )?in a position to",
      "(?:not|isn't|is not) (?:a |an )?(?:service|option|product|feature|thing|something) (?:that )?(?:i|we) (?:provide|offer|do|support|cover|sell)",
      'end of story',
      'take (?:it|that|this) up with',
      "(?:you'll|you will|you'd|you would) (?:have|need) to (?:sort|deal with|raise|settle) (?:that|it|this)(?: out)? with",
      '(?:the|that|my|our) decision is final',
      '(?:sort|figure|work) (?:that|it|this) out yourself',
      '(?:call|ring|phone|contact) (?:them|someone else|somebody else)(?: yourself)?',
      "(?:you're|you are) not entitled",
      "(?:don't|do not) know what you want me to do",
      "we don't do",
      'i refuse to',
      "(?:i'm|i am) not paying",
      // The customer declining: "I'm not giving you my card details", "not interested", "I don't
      // want to upgrade".
      "(?:i'm|i am|we're|we are) not (?:giving|handing|sharing|paying|accepting|signing|doing|going to (?:give|pay|accept|sign|do|hand))",
      "(?:no (?:\\| )?(?:thanks|thank you) (?:\\| )?)?(?:i'm|i am|we're|we are) (?:really |just |honestly )?not interested",
      "(?:no (?:\\| )?(?:thanks|thank you) (?:\\| )?)?(?:i|we) (?:really |just )?(?:don't|do not) want (?:the|your|any|an?|another|to (?:upgrade|change|switch|renew|buy|sign|add|take|pay|go|hear (?:about|any more)|know about|listen to))",
      'not something (?:that )?(?:i|we|the system|our system) (?:\\S+ ){0,2}(?:have access to|lets me|allows|deal with|handle|cover|offer)',
      "(?:warranty|policy|guarantee|insurance|cover|plan|contract|terms|tariff|package|ticket|fare)(?: \\S+)? (?:doesn't|does not|won't|will not|don't|do not) (?:cover|include|allow|apply)",
      "(?:outside|beyond) (?:what (?:i'm|i am|we're|we are) (?:allowed|able|authori[sz]ed) to|my remit|what i can)",
      // Holdout6: a refusal voiced as what a system or rule will not let the agent do ("the system
      // won't let me apply a second discount", "our terms don't allow us to…").
      "(?:system|computer|software|app|policy|rules|terms|account|tariff) (?:won't|will not|doesn't|does not|can't|cannot|wouldn't|would not) (?:let|allow|permit) (?:me|us)",
      // An apology or regret opening an inability is a refusal, whatever the verb ("sorry, I can't
      // move the payment date", "unfortunately we're unable to extend it"); not perceiving or
      // finding something ("sorry, I can't hear you", "I can't find your account").
      `(?:(?<=^)|(?<=\\| ))(?:sorry|so sorry|i'm sorry|i am sorry|i'm so sorry|unfortunately|sadly|i'm afraid|i am afraid|apologies)(?: \\|)?(?: but)? (?:i|we|i'm|we're|i am|we are) (?:really |just |still )?(?:can't|cannot|won't be able to|will not be able to|not able to|unable to|am not able to|are not able to|'m not able to)(?! (?:hear|see|find|understand|catch|read|locate|tell|make out|get through))(?= \\S)`,
      // Holdout7: a policy stated after an apology ("sorry, we don't price match", "unfortunately we
      // don't deliver to PO boxes"): the company's own practice, whatever the verb; not knowing or
      // perceiving ("sorry, we don't know yet").
      "(?:(?<=^)|(?<=\\| ))(?:sorry|so sorry|i'm sorry|i am sorry|unfortunately|sadly|i'm afraid|i am afraid|apologies)(?: \\|)?(?: but)? we (?:just |currently |generally )?(?:don't|do not|no longer)(?! (?:know|see|have (?:any )?(?:record|details|information|news)|understand|hear))(?= \\S)",
      // Holdout7: an inability made conditional ("I won't be able to book the engineer until the balance
      // is cleared", "we can't release it until we get the form"): what the customer wants is withheld.
      // A limit offered: "the best I can do is ten percent off", "the most we can offer is a voucher".
      "(?:the )?(?:best|most|only thing|max(?:imum)?) (?:i|we) (?:can|could|'m able to|are able to) (?:do|offer)(?: you)? is",
      "(?:i|we) (?:really |just |still )?(?:can't|cannot|won't be able to|will not be able to|am not able to|are not able to|'m not able to|'re not able to|unable to)(?! wait)(?: \\S+){1,7} (?:until|till|unless)(?= \\S)",
    ],
  },
  {
    act: 'rude',
    value: -3,
    patterns: [
      'calm down',
      // Wit questioned: "anyone in that call centre with half a brain?", "a single brain cell".
      '(?:with|has|have|got) (?:even )?(?:half a brain|a brain(?: cell)?|a single brain cell|two brain cells|any brains?|an ounce of (?:sense|common sense))',
      "(?:don't|do not|stop) (?:patroni[sz]e|patroni[sz]ing|talk(?:ing)? down to|lectur(?:e|ing)) me",
      'relax',
      '(?:are|were) you (?:even |actually |really )?listening',
      'just listen',
      'listen to me',
      'whatever',
      "(?:don't|do not|stop) (?:patroni[sz]e|patroni[sz]ing|lecture|lecturing|shout at|shouting at|raise your voice at|get smart with|get clever with|be smart with) me",
      'do your (?:bloody |damn |flipping )?job',
      "for (?:god's|goodness|goodness'|heaven's|pete's) sake|for crying out loud",
      "(?:i've|i have) (?:already )?(?:explained|told you)(?: this| that)?",
      // A reproach ("you should have told me", "you should have"), not what the customer will get
      // ("you should have internet again", "you should have received an email").
      'you should have(?= \\||$| (?:told|known|checked|said|called|rung|asked|listened|read|done|thought|sent|warned|mentioned|explained|looked|noticed|fixed|sorted|come|gone|been (?:told|more|clearer)))',
      "(?:that's|it's|that is) your (?:own )?fault",
      "(?:don't|do not) (?:talk|speak) to me like that",
      "(?:i|we) (?:don't|do not) have time",
      '(?:are|r) you (?:stupid|an idiot|thick|deaf)',
      "(?:no|not a) (?:clue|idea) what you're doing",
      "(?:i'll|i will) end the call",
      "(?:i'll|i will) hang up",
      'stop (?:reading|talking|interrupting)',
      // Holdout7: a reproach as a condition ("if you'd read the email properly you wouldn't…", "if you
      // had actually listened…").
      "if you(?:'d| had| would have)(?: actually| just| only| even| bothered to)* (?:read|listened|checked|looked|paid attention)(?: \\S+){0,4} (?:properly|the first time|in the first place)",
      "(?:don't|do not|stop) (?:talk|talking|speak|speaking) over me",
      'you people',
      // Holdout8: wit questioned in other words ("can you not understand plain English?", "I'm not
      // stupid", "don't give me that nonsense") and the company called thieves.
      "(?:can you not|can't you|do you not|don't you|do you even) (?:understand|speak|follow) (?:plain |simple |basic )?english",
      "(?:i'm|i am|we're|we are) not (?:stupid|an idiot|thick|daft|born yesterday)|(?:do you|you) think (?:i'm|i am) (?:stupid|an idiot|thick|daft)",
      "(?:don't|do not) give me (?:that|any more|more|your) (?:\\S+ )?(?:rubbish|nonsense|excuse|excuses|story|stories|spiel|script|patter|waffle|garbage|crap)",
      "(?:you're|you are|you lot are|they're|they are) (?:a bunch of |a load of |nothing but |just )?(?:thieves|crooks|cowboys|con artists|frauds|scammers|robbers|swindlers)",
      // An insult aimed at the listener: "a muppet like you", "you absolute clown".
      '(?:muppet|idiot|clown|moron|numpty|imbecile|halfwit|buffoon|plank|jobsworth|joker|amateur|amateurs)s? like (?:you|yourself)|you (?:absolute |complete |total |utter |bloody )?(?:muppet|idiot|clown|moron|numpty|imbecile|halfwit|buffoon|plank|jobsworth|clowns|muppets|idiots|amateurs)(?= \\||$| and| who)',
    ],
  },
  {
    act: 'escalation',
    value: -3,
    patterns: [
      '(?:speak|talk|speaking|talking) (?:to|with) (?:a|your|the|someone|somebody)(?: more)? (?:manager|supervisor|boss|senior|higher|in charge)',
      '(?:speak|talk) to someone (?:higher|senior|else|more senior)',
      // Going public: "I'll be posting this all over social media".
      '(?:post|posting|put|putting|share|sharing|write|writing)(?: \\S+){0,3} (?:on|all over|to) (?:social media|twitter|facebook|instagram|tiktok|the internet|trustpilot|google reviews)',
      'put me through to',
      '(?:get|give) me (?:someone|somebody|a manager|your manager|your supervisor)',
      "(?:i'll|i will|i'm going to|i am going to|i'm gonna|gonna) (?:be )?(?:cancel|cancelling|leave(?! you (?:a|an) )|leaving(?! you (?:a|an) )|switch|switching|close|closing|report|reporting|complain|dispute|sue|post about|posting about|take this|taking this|speak to my|speaking to my)(?= \\||$| my| everything| it all| the whole| you| this| the contract| the account)",
      "(?:i want|i'd like|i would like|i need) to (?:cancel|leave|close|escalate|complain|make a complaint|make a formal complaint)",
      '(?:cancel|close|terminate) (?:it|everything|the whole thing|all of it|my account|my contract)(?= \\||$)',
      'formal complaint',
      'complaints? (?:address|department|procedure|team)',
      '(?:the )?(?:ombudsman|regulator|trading standards|lawyer|solicitor|small claims)',
      'social media',
      'one-star|one star',
      'escalate|escalated|escalating|escalation',
      "(?:i'm|i am) (?:switching|leaving|closing|cancelling|done with you)",
      'this is the last time',
      // Fresh batch 5: the bank asked to take the money back; others warned off.
      'my bank to (?:reverse|cancel|stop|refund|block|charge back|claim back)|(?:a |the )?charge ?back',
      '(?:stay|keep|steer) (?:well )?(?:away|clear) (?:from|of) (?:you|your)|(?:avoid|boycott) (?:you|your company)(?= \\||$)',
      '(?:go|move|switch|going|moving|switching|leave for|go over) to (?:another|a different|a new|a cheaper|a competitor|your competitor)(?: \\S+)?',
      // A bad review announced: "I'll be leaving a review about this" (not "a good review").
      '(?:leave|leaving|write|writing|post|posting|put|putting) (?:a |an )?(?:bad |terrible |negative |one-star |honest )?reviews? (?:about|of|on) (?:this|you|your|it)',
    ],
  },
  {
    // Praise by what never happened ("nobody has ever helped me like this before", "you've never let
    // us down"), before the complaints read "nobody has" and "never". Praise, so the scorer weighs it
    // as warm words and keeps it when nothing sour stands beside it.
    act: 'praise',
    value: 3,
    patterns: [
      // The best yet: "nobody has ever helped me like this before", "you've never let me down".
      "(?:nobody|no one|no-one) (?:has |had |'s )?(?:ever )?(?:\\S+ ){0,2}(?:helped|treated|looked after|sorted|explained|dealt with)(?: \\S+){0,2} (?:like this|like you|so well|this well|so quickly|as well)",
      "(?:never|not once)(?: once| ever)? (?:let|lets|has let|have let|let) (?:me|us) down|(?:has|have|'ve|'s|you've|they've|it's|you have|they have|it has) never (?:once |ever )?(?:let (?:me|us) down|failed (?:me|us))",
      // Trouble gone since a fix: "haven't had a single dropout since you swapped the router" (a
      // fault noun: "haven't had any internet since Tuesday" is still a complaint).
      "(?:haven't|have not|hasn't|has not|not|never|'ve not) (?:had|seen|noticed|had a) (?:a single|one single|one|any|a|another) (?:\\S+ )?(?:dropout|drop-out|drop|outage|cut|cut-out|problem|issue|fault|glitch|error|hiccup|complaint|blip|disconnection|break|wobble)s? since",
      'not (?:a single|one) (?:\\S+ )?(?:dropout|drop-out|drop|outage|cut|problem|issue|fault|glitch|hiccup|blip|disconnection)s? since',
      // Never served so well: "I've never been looked after so well", better than the last company.
      'never (?:been |had been |once been )?(?:treated|served|looked after|helped|dealt with)(?: me| us)? (?:so|this|as|that) well',
      // Loyalty: "I wouldn't switch for anything", "wouldn't go anywhere else".
      "(?:wouldn't|would not|won't|will not|never) (?:switch|change|swap|move|leave|go)(?: \\S+){0,3} (?:for anything|for the world|anywhere else)",
      // A rescue: "you've saved my day", "you made my day".
      '(?:saved|made|saving|making) my (?:day|life|week|bacon|skin)',
      // A recommendation or a reward wished on someone: "I'd happily recommend your team to anyone",
      // "she deserves a pay rise" (not advice: "I'd recommend you restart it").
      "(?:i'd|i would|i'll|i will|i'd definitely|i can|i)(?: happily| definitely| highly| thoroughly| wholeheartedly| certainly| gladly)* recommend (?:you|your (?:\\S+ )?(?:team|company|service|staff|shop|branch|engineers?|people)|them|him|her|this (?:company|service|team)) (?:to (?:anyone|anybody|everyone|friends|family|my \\S+|others|people|all)|in a heartbeat|without (?:hesitation|a second thought))",
      '(?:deserves|deserve|deserved) (?:a|an) (?:medal|pay rise|raise|promotion|bonus|award|pat on the back)',
    ],
  },
  {
    // The agent protecting or speeding up the customer's case ("the old card's been blocked", "the
    // referral has been resent and marked urgent"), before the complaints read "blocked".
    act: 'remedy',
    value: 2,
    patterns: [
      // Holdout8: a charge stopped from recurring ("I've cancelled the paper statements so that charge
      // won't appear again"), before the complaints read "charged again".
      "so (?:that )?(?:it|that|this|you|the \\S+|that \\S+|this \\S+)(?: \\S+)? (?:won't|will not|shouldn't|should not|can't|cannot) (?:happen|appear|come up|come through|be charged|get charged|go out|be taken|recur|be billed|get billed)(?: \\S+)? again",
      "(?:old|lost|stolen|previous|compromised|missing) (?:one|card|cards|number|sim|phone|account|device)(?:'s| has| is| have| are)? (?:now |already |just )?(?:been )?(?:blocked|cancelled|frozen|stopped|deactivated|locked)",
      // A hold lifted: "the fraud hold's been lifted", "I've removed the block on your card".
      "(?:the |your |that |this )?(?:fraud |security |temporary |payment )?(?:hold|block|blocks|restriction|restrictions|freeze|suspension|stop)(?: on (?:your|the) (?:card|account|line|number))?(?:'s| has| have| is| are)? (?:now |just |already )?(?:been )?(?:lifted|removed|taken off|released|cleared)(?! (?:yet|again))",
      "(?:i've|we've|i have|we have) (?:just |now |already )?(?:lifted|removed|released|cleared|taken off) (?:the |that |your )?(?:fraud |security |temporary )?(?:hold|block|restriction|freeze|suspension|stop)",
      "(?<!(?:not|n't|never) )(?:has|have|'s) (?:now |just |already )?been (?:resent|re-sent|reissued|re-issued|expedited|fast-tracked|prioriti[sz]ed|marked (?:as )?urgent|upgraded to urgent)",
    ],
  },
  {
    act: 'complaint',
    value: -3,
    patterns: [
      // Praise denied: "I can't say you've been much help", "can't say I'm impressed".
      "(?:can't|cannot|couldn't|could not) (?:honestly |really )?say (?:that )?(?:\\S+ ){0,3}(?:helped|been (?:much |any )?(?:help|use)|happy|satisfied|impressed|pleased)",
      // An apology weighed and found wanting: "sorry doesn't pay my bill" (before "doesn't fix" below
      // takes the verb, and before "sorry" is read as the speaker's own apology).
      "(?:sorry|apologies|an apology|saying sorry) (?:doesn't|does not|won't|will not|isn't going to) (?:pay|fix|solve|help|change|get)",
      // Holdout8 (from the Spanish "no me sirve de nada que me pidan perdón"): an apology dismissed in
      // other words ("it's no use saying sorry", "what good is an apology", "sorry means nothing").
      "(?:it's|it is|that's|that is) no (?:use|good) (?:you |them |anyone )?(?:apologi[sz]ing|saying sorry|being sorry)|what good is (?:an apology|sorry|saying sorry|your apology)|(?:sorry|your apology|an apology|apologies) (?:means|mean) nothing",
      // Holdout8 (from "me lo cerraron como resuelto sin hacer nada"): a case closed with nothing done.
      "(?:closed|marked|shut|signed off|logged)(?: \\S+){0,3} as (?:resolved|fixed|complete|completed|done|sorted|solved) (?:without|when|but|and)(?: \\S+){0,3} (?:doing|fixing|sorting|nothing|anything|nobody|no one|it isn't|it's not|still)",
      // Holdout7: faint praise of a trifle ("the hold music is the only thing working properly at your
      // company", "the only thing that arrives on time is the bill").
      "(?:is|'s|are|was) the only (?:thing|part|bit|one|department|person)(?: that| which)?(?:'s| is| was)? (?:\\S+ )?(?:working|works|worked|reliable|on time|arrives? on time|turns? up)",
      "(?:didn't|did not|doesn't|does not|hasn't|has not|haven't|won't|will not|isn't|wasn't|never) (?:really )?(?:work|worked|working|help|helped|fix|fixed|solve|solved|sort|sorted)",
      '(?:nobody|no one|no-one) (?:actually |ever |really |even )?(?:did|does|has|knows|cares|bothered|came|turned up)',
      '(?:paying|pay|charged|charging) (?:me )?more',
      "(?:i )?(?:don't|do not|didn't|did not) like",
      'nothing (?:has )?happened',
      'how many (?:more )?times',
      "(?:wouldn't|would not|won't|will not|never|can't|cannot) recommend",
      '(?:been|was|was kept|kept|left) (?:waiting|on hold)',
      // "Is it still there?", "are you still there?" ask; "the charge is still there" complains.
      "(?<!(?:are you|you're|is it|are they|is he|is she) )still (?:waiting|not|no|nothing|isn't|doesn't|hasn't|haven't|won't|can't|charging|broken|down|dead|wrong|slow|missing|the same|there|open|pending|unresolved|dropping|crackling|on (?:my|the) bill)",
      `(?:the )?${EN_ORDINALS} time`,
      '(?:two|three|four|five|six|seven|eight|nine|ten|several|so many|multiple|countless|a dozen) (?:times|different people)',
      "(?:nobody|no one|no-one|never|nobody's|no one's) (?:ever )?(?:calls?|called|rang|rings|told|tells|answers?|answered|showed|turned|got back|came|replied|helps?|helped)",
      'never (?:showed|turned|arrived|came|received|got|works|worked|called)',
      // Holdout6: left uninformed ("no one's said a word", "nobody has explained anything").
      "(?:nobody|no one|no-one|nobody's|no one's)(?: has| had| 's)? (?:ever |even |actually )?(?:said|says|explained|mentioned|warned|informed|updated)(?: (?:us|me|anyone))? (?:a word|a thing|anything|a single word|why|when)",
      // No service where it is paid for: "one bar on a good day", "no signal in my own house".
      "(?:one|two|a single|half a|maybe one|maybe two|barely one|barely a|hardly a|no|zero) (?:\\S+ )?(?:bar|bars) (?:\\S+ ){0,3}(?:on a good day|at best|if (?:i|we)'re lucky)|(?:no|zero|barely any|hardly any) (?:signal|reception|coverage|dial tone)(?! (?:issues?|problems?|charges?))",
      "(?:is|'s|has been|'s been|was|gets|get|getting|only get|only gets) (?:only |just |still |barely )?(?:one|two|no|zero|a single) bars?(?= \\||$| since| in| at| of| on| and| upstairs| downstairs| indoors| inside)",
      // Effort over time: "I've been trying to close this account since March".
      "(?:i've|i have|we've|we have|i'd|i had) been (?:trying|asking|waiting|chasing|ringing|calling|emailing) (?:\\S+ ){0,5}(?:since|for (?:\\S+ )?(?:weeks|months|ages|years|days))",
      "(?:didn't|did not|hasn't|has not|haven't|have not) (?:arrived|come|turned up|turn up|shown up|show up|showed up|received|had|got|been)",
      'never (?:turned|turn|showed|show) up',
      'charged (?:me )?(?:twice|double|again|for something)',
      // A fault that recurs: "the tv keeps freezing", "it keeps logging me out".
      '(?:keeps?|kept|keep on) (?:dropping|crashing|failing|cutting|breaking|happening|getting cut|freezing|buffering|disconnecting|rebooting|restarting|resetting|turning off|switching off|going off|going down|losing|hanging|logging me out|charging me|sending me|billing me|erroring|timing out|declining|rejecting|bouncing|glitching|lagging)',
      '(?:reads|charges|costs|shows|bills|billed|charged) (?:me )?(?:double|twice|triple|three times)(?! check)',
      // Left undone: "he left without fixing anything", "went off without sorting it".
      '(?:left|went|gone|drove off|walked off|hung up) (?:\\S+ )?without (?:fixing|sorting|solving|repairing|finishing|doing|checking|testing|connecting)',
      // Money taken twice: "my direct debit was taken twice", "billed me double".
      '(?:charged|billed|taken|debited|deducted|paid|came out|gone out|went out) (?:\\S+ ){0,3}(?:twice|double|two times)',
      // Trouble with no valued word in it: "passed from one department to another", "got nowhere".
      '(?:passed|passing|pass|transferred|bounced|pushed|shunted) (?:me )?(?:around|from (?:one|pillar)|between|back and forth)',
      '(?:got|getting|gone|going|get) nowhere',
      '(?:nobody|no one|no-one) (?:seems|seemed) to (?:know|care|help|understand|be able|have)',
      // The third of anything: "that's the fourth router in two months".
      // A date ("on the fifth", "the third of May") is not trouble: a noun must follow.
      "(?:the|a|my|our|that's the|this is the) (?:third|fourth|fifth|sixth|umpteenth)(?= (?!(?:of|floor|party|quarter|option|line|digit|letter|number|at|in|on|or|and|by|to|for|please|then|\\|)(?: |$))\\S)",
      // Time counted out in full: "three whole weeks to reply to an email".
      `(?:two|three|four|five|six|seven|eight|nine|ten|twelve) (?:whole|entire|solid) ${EN_UNITS}`,
      // Time it took: "it took three weeks to get a reply".
      `(?:took|has taken|have taken|it's taken|'s taken|took you|taken you) (?:over |more than |nearly |almost |about |well over )?(?:\\S+ )?(?:${EN_UNITS}|a week|a month|an hour|a day|ages|forever)`,
      // Said one thing, have nothing: "it says delivered but I have nothing".
      "(?:but|and) (?:i|we) (?:have|got|'ve got|have got|received|haven't got|haven't received) (?:nothing|no \\S+)",
      "(?:how (?:i'm|i am|we're|we are|customers are|i've been|we've been|you treat) treated|(?:this|that) is how (?:i'm|i am|we're|we are) treated)",
      '(?:old|previous|former) address',
      '(?:cut|cuts) off',
      'hung up on',
      '(?:without|no) (?:any |an )?(?:warning|notice|explanation)',
      '(?:the )?wrong (?:size|item|one|colour|color|address|product|bill|amount|account|card|date|day|person|number)',
      '(?:a )?(?:different|another) answer',
      // Sent to the wrong place or person: "delivered to a different postcode", "someone else's bill".
      '(?:delivered|sent|posted|went|gone|taken) (?:\\S+ ){0,3}(?:to|at) (?:a|the) (?:different|wrong) \\S+',
      "(?:someone|somebody) else's|another (?:person|customer)'s",
      // Arrived without what it was for: "the engineer turned up without the part".
      '(?:turned up|came|arrived|showed up|delivered|come) (?:\\S+ ){0,3}without',
      '(?:none|neither) of them (?:could|can|has|have|had|managed|was able|were able|did|knew)',
      "(?:didn't|did not|doesn't|does not|hasn't|has not) (?:actually |really |even )?do (?:anything|a thing|much)|(?:did|does|has done|have done|done) (?:absolutely )?nothing",
      '(?:logs?|logged|logging|kicks?|kicked|kicking|throws?|threw|throwing) me (?:out|off)',
      'every (?:few |couple of |\\S+ )?(?:minutes|seconds|hours)',
      "(?:i )?(?:don't|do not|can't|cannot) understand (?:why|how)",
      "(?:end of my tether|wits' end|wits end|had it up to here|(?:lost|losing|run out of|running out of) (?:my )?patience|my patience is)",
      '(?:same thing|same problem|same issue|same story|same old)',
      // Nothing changed: "the engineer came and left and it's exactly the same".
      "(?:it's|it is|everything's|everything is|nothing's|nothing has|it's still|still) (?:exactly |just |still |all )?the same(?= \\||$| as before| again)",
      // An expected event that has not happened: "the tracking hasn't updated in a week".
      "(?:hasn't|haven't|has not|have not|didn't|did not|wasn't|weren't|isn't|aren't) (?:even |yet |actually |ever )?(?:been )?(?:updated|appeared|changed|moved|shipped|dispatched|delivered|posted|processed|applied|credited|refunded|returned|activated|connected|installed|repaired|replaced|answered|acknowledged|rung|replied|responded|heard back|got back|come through|gone through|cleared|reconnected|restored)",
      // Charged for what was sent back or never had: "you've billed me for a phone I sent back".
      "(?:billed|charged|charging|billing|invoiced) (?:me |us )?for (?:\\S+ ){0,4}(?:i|we) (?:sent back|returned|cancelled|never|didn't|don't)",
      "(?:don't|do not|didn't|did not) recogni[sz]e",
      // Ironic luck: "I'm lucky to get ten".
      "(?:i'm|i am|we're|we are|you're|you are|i'd be|you'd be) lucky (?:if|to get|to see|to have|to)",
      // Time the customer lost: "this has taken up my whole morning".
      '(?:taken up|wasted|lost|cost me|eaten up|ruined) (?:my|the|a|our) (?:whole |entire |full )?(?:morning|afternoon|day|evening|week|weekend|time|lunch break|holiday)',
      "(?:the )?money(?:'s| has| is)? (?:gone|been taken|disappeared)|(?:took|taken) (?:the|my) money",
      '(?:drops?|dropped|dropping|cuts?|cutting|conks?|conked|conking) out',
      '(?:impossible|no way) to (?:get through|reach|speak|talk|contact|cancel|get hold)',
      "(?:haven't|have not|hasn't) (?:had|got|received)",
      'dead again',
      // Service lost: "now I've got no internet", not "no service charge".
      '(?:no|without(?: any| a| an| my| the)?|lost(?: my| the| our| all)?) (?:internet|signal|broadband|wi-?fi|phone line|landline|dial tone|connection|tv|television|power|electricity|hot water|heating|data|service|phone(?! number| call| bill))(?! charge| fee| contract| plan)',
      'back (?:on hold|to square one|to the start|to the beginning)',
      // Something the customer cannot do with what they pay for: "now I can't log in".
      "(?:i|we) (?:still )?(?:can't|cannot|can not|couldn't) (?:log|sign|get into|get online|use|access|connect|make calls|browse|stream)",
      '(?:internet|connection|signal|wi-?fi|broadband) (?:dropped|drops|cut out|cuts out|went down|goes down|died|dies)',
      // Kindness that came too late: "a month after I complained", "three weeks later".
      `(?:${EN_UNITS}|a week|a month|a year|an hour) (?:later|too late|after (?:i|we) (?:complained|called|rang|asked|reported|paid|cancelled))`,
      // An outage: "my internet has been down since Monday".
      "(?:is|was|been|went|goes|gone|keeps going|it's|it's been|\\S+'s) (?:completely |all )?down(?! to| the| by| from| as| for| on)",
      // Prices that rise: "has gone up", "shot up", "gone through the roof".
      '(?:went|gone|goes|shot) (?:up|through the roof)|skyrocketed|sky-high',
      "(?:i|we) (?:didn't|did not|never) (?:order|ask for|agree to|sign up)",
      "(?:it's|it is|that's|that is) not (?:good enough|acceptable|fair|right|ok|okay|what i)",
      "(?:isn't|wasn't|is not|was not) (?:good enough|acceptable|fair|what i)",
      'no one told me|nobody told me',
      // A promise or an offer reported back by the customer is almost always one that was broken: the
      // warm words in it ("free", "the best price") are what was promised, not what happened.
      '(?:you|they|he|she|your \\S+|the \\S+) (?:promised|assured|guaranteed|swore)',
      '(?:i was|we were) (?:promised|assured|guaranteed|led to believe)',
      "(?:you|they|he|she|your \\S+|i was|we were) (?:said|told me|told)(?: that)? (?:\\S+ ){0,3}(?:would|'d|was going to|were going to|will)",
      "(?:was|were|wasn't|weren't) (?:supposed|meant) to",
      "(?:should have|should've) (?:been|had|got|arrived|come|received)",
      // "three hours on the phone for nothing", not "you get it for nothing" (that is free).
      '(?<!(?:get|got|have|had) (?:it|that|this|them) )for nothing',
      'never (?:appeared|applied|happened|materiali[sz]ed|came through|showed up|got applied)',
      // A good state that ended: "I was happy with you for years until this bill".
      '(?:was|were|used to be|had been) (?:working |running |going )?(?:really |very |always |quite |absolutely |perfectly )?(?:happy|satisfied|pleased|content|fine|great|good|perfect|brilliant|ok|okay|loyal|a loyal customer|a happy customer)(?: \\S+){0,5} until',
      '(?:paying|pay|paid|costs?|costing|charged|charging) (?:me |us )?(?:double|twice|triple)',
      'twice as much|three times as much|double the price',
      '(?:i )?paid for (?:\\S+ ){0,3}(?:and|but) (?:got|get|i got|received|only got)',
      "(?:you|they|he|she|your \\S+) (?:said|told me|told us)(?: that)? (?:it|this|that|the \\S+|i|we) (?:was|were|is|would|'d|will)",
      '(?:the|my|your) promised',
      // A claim quoted back: "free, they said", "advertised as unlimited".
      '(?<=\\| )(?:(?:they|you|he|she) said|apparently|supposedly|allegedly|or so (?:they|you) say)(?= \\||$)',
      '(?:advertised|sold to me|sold it to me) as|(?:you|they) advertised|(?:the |your )(?:ad|advert|advertisement|offer|website|leaflet|brochure) said',
      // "free" with a bill after it: "free installation, except I paid for it", "the free upgrade cost me".
      'free (?:\\S+ ){0,8}(?:paid|charged|billed|cost me|costs me|pay for|charge)',
      'paying for (?:a |the )?free',
      '(?:more expensive|dearer|pricier|slower|worse) than (?:before|what|my|the old|last|it was|it used)',
      "(?:doesn't|don't|didn't|isn't|wasn't|won't|can't|hasn't|haven't) even",
      'nowhere to be (?:seen|found)|no sign of',
      '(?:let|letting) (?:me|us) down',
      '(?:doubled|tripled|double|triple) (?:my|the|our) (?:bill|price|fee|payment)',
      'without (?:asking|my (?:permission|consent)|telling me)',
      'never (?:\\S+ )?(?:sent|delivered|posted|credited|refunded)',
      '(?:expected|deserve|deserved) better',
      '(?<!(?:as|than) )i was told (?:\\S+ ){0,4}(?:would|was going to)',
      "(?:i'm|i am|we're|we are) (?:supposed|meant) to",
      '(?:bill|price|payment|fee|invoice|rate|premium|tariff|charge|cost)s? (?:is|are|was|were|has been|got|keeps|will be|will go|are going to be|is going to be|go|goes) (?:\\S+ )?(?:higher|going up|rising|up)',
      // Asking only for what should be normal says it is not: "I just want my internet to work",
      // "all I'm asking for is a bill that's correct".
      '(?:i|we) (?:just|only) (?:want|need|wanted|needed) (?:\\S+ ){0,4}to (?:work|be (?:fixed|sorted|right|correct|working))',
      "all (?:i|we)(?:'m| am|'re| are)? (?:want|need|ask|asking)(?: for)? is",
      // A good state that ended: "it worked fine for two days and then it stopped".
      '(?:then|and) (?:it |they )?(?:just |suddenly )?(?:stopped|died|broke|went dead)',
      // Loyalty punished: "twelve years loyal and new customers get a better deal".
      // Less than was paid for or promised: "all I get is a chatbot", "the free fitting ended up costing me".
      'all (?:i|we) (?:ever )?(?:get|got|getting|receive|received|hear|heard) (?:is|are|was|were)',
      '(?:ended|end|ends|ending) up (?:costing|charging|being charged|paying)',
      // The same trouble whatever is said: "everyone says sorry but nothing changes".
      // Not "don't worry, nothing changes" (reassurance): only after a "but" / "and", or "ever".
      '(?:(?:but|and|yet|still) nothing (?:ever )?|nothing ever )(?:changes|changed|gets done|gets fixed|happens)(?= \\||$)',
      '(?:new customers|new people|newcomers|new joiners) (?:get|are getting|got|are offered|are given|pay less|pay half)',
      "(?:stopped|has stopped|had stopped|stops|hasn't|has not) (?:sending|sent|reading|taking|submitting|submitted) (?:a single |any )?(?:readings?|meter readings?|data)",
      '(?:is|so) (?:this|that) (?:is )?how you treat|(?:this|that) is how you treat',
      // Paid for one thing, got less: "paying for a hundred megs and getting about five".
      '(?:paid|pay|paying) for (?:\\S+ ){0,4}(?:and|but) (?:(?:i|we) )?(?:only )?(?:got|get|getting|receive|received|receiving)',
      // Neg-raising: "I don't think that's right" denies the rightness, not the thinking.
      "(?:don't|do not) think (?:that's|that is|it's|it is|this is) (?:right|fair|correct|acceptable|ok|okay|good enough)",
      // Improvement denied: "it's no better than before", "no faster at all".
      '(?:no|not any) (?:better|faster|quicker|cheaper|different)(?= \\||$| than| at all)',
      // The customer doing the company's work: "I had to explain the whole thing from the start".
      "(?:had to|have had to|i've had to|keep having to|have to keep) (?:\\S+ )?(?:explain|repeat|chase|go through)",
      // Patience conceded up to a limit: "happy to wait, just not for three weeks".
      `(?:but|just) not (?:for )?(?:\\S+ )?${EN_UNITS}`,
      // Rhetorical questions: "how hard can it be to …", "what's the point of paying …".
      "how hard (?:can|could|is) it|what's the point|what is the point",
      "you'd think|you would think|(?:i'd|i would) have thought",
      'to top it (?:all )?off|to cap it all',
      // The customer bearing a cost that was not theirs: "so I have to pay for the postage myself".
      "(?:have|had|'ve got) to pay (?:for )?(?:\\S+ ){0,3}(?:myself|out of my own pocket)",
      '(?:treated|treat (?:me|us|customers|people)) like (?:this|that|dirt|rubbish|a number|an idiot|a criminal)',
      // Faint praise: "the only good thing is the engineer turned up".
      'the only (?:good thing|thing that works|decent thing)',
      // Counterfactual: "a great price if it actually worked" says it does not.
      // ("If you called back tomorrow, that'd be great" is a request: people need "actually", "even".)
      'if it (?:actually |only |even |ever )?worked|(?:if|only if) (?:they|you|someone|anyone) (?:actually|only|even|ever) (?:did|bothered|answered|turned up|called back|showed up)',
      "(?:i've|i have|i've) (?:had|seen) better (?:\\S+ )?(?:from|at|in)",
      '(?:keep|kept|keeps) (?:telling|saying|promising|sending|asking)',
      // A claim flatly contradicted at the end: "… and it clearly isn't".
      "(?:and|but) it (?:clearly |obviously |still |just )?(?:isn't|is not|doesn't|does not|wasn't|hasn't|didn't|won't)(?= \\||$)",
      '(?:find|finds|found) (?:this|it|that) (?:funny|amusing|hilarious)',
      "(?:i'd|i would) (?:love|like) to know (?:why|how|what)",
      "(?:bill|price|payment|fee)(?:s|'s)? (?:has |have |had )?(?:doubled|tripled|gone up|shot up)",
      '(?:liked|preferred) the old|the old (?:\\S+ ){0,2}(?:was|were) (?:\\S+ )?better',
      'not once (?:has|have|did|was)',
      '(?:i|we) had (?:such |really |very )?(?:high )?hopes|(?:i|we) had hoped',
      "(?:let's|we'll) see if (?:\\S+ ){0,5}(?:this time|actually)",
      'what (?:are|is|will) you (?:going to )?do(?:ing)? about (?:it|this|that)',
      "(?:and )?now (?:it )?turns out|(?:isn't|is not|aren't|won't|not) (?:even )?coming",
      // A good past, said to contrast with now: "it used to be reliable", "I used to recommend you".
      'used to (?:work|be (?:\\S+ )?(?:fine|good|great|fast|quick|cheap|reliable|better)|love|like|recommend|trust)',
      "(?:i was|i'd been|we were|we'd been) (?:really )?hoping",
      // Probe batch 4. Things made worse: "thanks a bunch, you've made it worse".
      '(?:made|making|makes) (?:it|things|everything|matters|this) (?:even |much |a lot |ten times )?worse',
      // A fault that comes and goes: "the wifi goes off and on all day".
      '(?:off and on|on and off)(?! again)',
      '(?:the )?same (?:fault|problem|issue|error|thing) (?:\\S+ ){0,2}(?:i|we) (?:reported|had|called about|rang about)',
      // A bill that jumped: "my bill is double what it was".
      '(?:is|was|are|were|came to|comes to|now) (?:\\S+ )?(?:double|twice|triple) (?:what|the amount|as much)',
      // Asked "politely" for what should be normal: "I'd appreciate it if someone actually fixed it
      // this time", "it would be nice if somebody called me back for once".
      "(?:i'd|i would|we'd|we would) (?:really )?(?:appreciate it|be grateful|like it) if (?:\\S+ ){0,6}(?:actually|for once|this time|stop|stopped|bothered)",
      '(?<!(?:just|only) )for once(?= \\||$)',
      "(?:it would|it'd|wouldn't it) be (?:nice|good|great|lovely) if (?:\\S+ ){0,4}(?:actually|for once|ever|bothered)",
      // "I love how nobody ever reads my notes": praise whose object is a failure.
      '(?:love|adore|like|enjoy) (?:how|the way|it when) (?:\\S+ ){0,2}(?:nobody|no one|never|nothing|you (?:keep|never|still))',
      "(?:can't|cannot|couldn't|could not|unable to|never) (?:\\S+ )?get (?:through|hold of)",
      '(?:made|make|makes|making) (?:no|zero) difference|(?:none|nothing) (?:\\S+ ){0,6}(?:made|make|makes|has made|have made) (?:any|a|the slightest) difference',
      '(?:two|three|four|five|several|so many) (?:different )?(?:answers|stories|explanations|prices)',
      '(?:go|goes|going|went|gone) (?:round|around) in circles|(?:round|around) in circles',
      // Waiting announced as endless: "I'll just wait another fortnight then", "three hours on hold".
      `(?:wait|waiting|sit|sitting) (?:here )?(?:another|a further|yet another) (?:\\S+ )?(?:${EN_UNITS}|week|fortnight|month|day|hour)`,
      `(?:two|three|four|five|six|ten|twenty|thirty|forty|fifty|\\d+|several|so many) (?:${EN_UNITS}) (?:on hold|waiting|in the queue|in a queue|on the phone)`,
      '(?:thanks|thank you|cheers)(?: \\S+){0,2} for finally (?:answering|picking up|getting back|calling back|ringing back|bothering|replying|responding)',
      'said (?:no one|nobody|no-one) ever',
      // Batch 7. "With respect, …" announces disagreement (not "with respect to your bill").
      '(?:with all due|with the greatest|with the utmost) respect|with respect(?= \\||$| but)',
      // The consequence imposed on the customer: "so now I've got to wait for a letter".
      "(?:so|so now|and now) (?:i|we)(?:'ve| have| will have|'ll have)?(?: got)? to (?:wait|start|call|ring|pay|chase|go|send|explain)",
      // Praise with an ironic condition: "brilliant customer care if you've got three hours spare".
      "if you(?:'ve| have)? (?:like|enjoy|love|don't mind|do not mind|got|have got) (?:\\S+ ){0,4}(?:spare|to spare|waiting|on hold|robots|paying)",
      '(?:cancelled|canceled|postponed|rescheduled|moved|delayed) again',
      '(?:fixed|fixes|solved|sorted|changed|achieved) (?:absolutely )?nothing',
      // Trouble heard or had before: "twice already", "I've heard that promise before".
      '(?:twice|two times|three times|four times|five times|several times|a few times|many times) already|already (?:twice|three times|four times)',
      '(?:heard|had) (?:that|this|it|the same)(?: \\S+){0,3} (?:before|already|twice)',
      // Quick for the money only: "you're quick enough to take my money".
      '(?:quick|fast|keen|eager|quicker|faster)(?: enough)? to (?:take|charge|bill|cash|debit)',
      '(?:start|starting|started) (?:all )?(?:over|again from scratch|from scratch|from the beginning)',
      // Probe batch 5.
      '(?:gone|sent|went|going|taken) back to (?:the )?(?:depot|sender|warehouse|sorting office)',
      "(?:account|card|phone|line|sim)(?:'s| has| is| was| got)? (?:been )?(?:locked|blocked|suspended|frozen|barred)",
      '(?:surprise|shock) (?:on|in) (?:my|the|this) (?:bill|invoice|statement|account)',
      '(?:appreciate|love|enjoy) (?:being|getting) (?:kept|left|put|ignored|charged|passed|cut|hung)',
      'said (?:the|a) (?:man|woman|person|guy|customer|bloke|lady) with',
      '(?:way|how) to treat (?:a|your|me|us|customers|people)',
      "(?:i'd|i would|we'd|we would) (?:really )?be (?:delighted|thrilled|happy|over the moon) if (?:\\S+ ){0,6}(?:actually|for once|this time|ever|bothered)",
      'too much to (?:ask|expect)',
      '(?:an hour|half an hour|over an hour) (?:on hold|waiting|in the queue)|on hold for (?:an|half an|over an) hour',
      // Sent where it cannot arrive: "the refund's gone to an account I closed".
      "(?:an?|the|my) (?:old |closed )?(?:account|card|address|number) (?:i|we) (?:closed|cancelled|canceled|no longer (?:have|use)|don't (?:have|use) any ?more)",
      // Fresh batch 5. Not as agreed: "it came out on the first instead of the fifteenth as agreed".
      '(?:instead of|rather than|not) (?:\\S+ ){0,5}as (?:we )?(?:agreed|promised|arranged|discussed|quoted|requested|booked|ordered)',
      // A device that does nothing: "the box just sits there on the loading screen", "it's stuck".
      "(?:sits|sitting|sat) there|(?:is|it's|gets|got|keeps getting|still|been|are|always) stuck",
      "(?:doesn't|does not|don't|do not|didn't|did not) (?:really |even )?make (?:any )?sense|makes? no sense|made no sense",
      // Doubting questions: "do you actually read the notes?", "is anyone going to take responsibility?".
      '(?:do|does|did|will|can) (?:you|anyone|anybody|they|your (?:staff|people|engineers|team|agents)) (?:over there |there )?(?:actually|even|ever) (?:read|listen|check|look|care|know|test|bother|talk|speak|call|ring|answer|reply|do)',
      '(?:is|are) (?:anyone|anybody|someone|somebody|you) (?:over there |there |at all )?(?:ever )?(?:going to|gonna) (?:take responsibility|fix|sort|help|call|ring|answer|do (?:anything|something))',
      // A reported promise dated: "…it would be fixed in 48 hours, and that was last week".
      `(?<=\\| )and (?:that|this) was (?:last|over|more than|nearly|almost|yesterday|\\S+ (?:${EN_UNITS}|week|month) ago|(?:on )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))`,
      // Time lost on the phone: "I've spent my whole lunch break on the phone to you".
      '(?:spent|spend|spending) (?:my|the|a|an|our|all|half) (?:whole |entire |full |of my |of the )?(?:\\S+ )?(?:morning|afternoon|day|evening|week|weekend|lunch break|break|hour|hours|time|holiday|day off) (?:on the phone|on hold|waiting|chasing|trying|sorting)',
      "(?:don't|dont|do not) (?:even )?know why (?:i|we) (?:even )?(?:bother|pay|stay|ring|call)",
      // Couldn't put it right: "telling me he couldn't fix anything".
      "(?:couldn't|could not|wasn't able to|weren't able to) (?:fix|sort|solve|repair|resolve|do) (?:anything|it|the|a|my|that|this)",
      '(?:arrived|came|turned up|was delivered|got delivered) (?:\\S+ ){0,2}(?:smashed|broken|damaged|cracked|dented|crushed|soaked|empty|in pieces|faulty|dead)',
      // A claim denied in a relative: "a service that works, which this clearly isn't".
      "which (?:this|it|that|they|this one) (?:clearly |obviously |definitely |certainly )?(?:isn't|is not|doesn't|does not|aren't|don't|wasn't|didn't)(?= \\||$)",
      '(?:none|neither) of (?:\\S+ ){0,3}(?:have|has|were|was|are|is) (?:been )?(?:\\S+ )?(?:helpful|useful|any (?:help|use|good)|able to help)',
      '(?:fault|warning|error|red|orange|amber) (?:light|lights|led)|(?:light|led) (?:is |keeps |has been |went |goes )?(?:flashing |blinking )?(?:red|orange|amber)',
      "(?:you|they|your \\S+) gave (?:me|us) (?:\\S+ ){0,3}(?:doesn't|does not|isn't|is not|didn't|did not) (?:even )?(?:exist|work|valid|recogni[sz]ed)",
      '(?:disconnects?|drops?|cuts? out|freezes|crashes|buffers|resets|reboots|restarts|goes off|turns off|fails|stops) (?:\\S+ ){0,2}every',
      // Probe batch 8: warm words that measure what is missing. "So the best you can offer is…", "is
      // this really the best your company can do?".
      'the best (?:you|your \\S+|they|this company|you lot) (?:can|could) (?:offer|do|manage)',
      '(?:the )?only thing (?:\\S+ ){0,3}(?:good at|do right|do well)',
      // Praise that holds only when it works: "great when it actually loads".
      'when (?:it|they|you|someone|anyone|the \\S+) (?:actually|finally|bothers? to) (?:\\S+)',
      'help me understand (?:why|how)',
      // What would have been decent, said because it did not happen: "a simple sorry would have been nice".
      "(?:(?:sorry|an apology|apologi[sz]ing) )?(?:would have|would've|could have|could've) been (?:nice|good|great|helpful|appreciated|lovely|polite|decent)",
      // A warm word with a tag, said through gritted teeth: "well that's just perfect, isn't it".
      "just (?:perfect|great|brilliant|lovely|fantastic|marvellous|wonderful|fabulous)(?: \\|)? (?:isn't it|innit)(?= \\||$)",
      '(?:good|proper|decent|real) (?:customer )?(?:service|support|care) would (?:be|have been|mean)',
      "(?:would|'d) be (?:nice|good|great|lovely) to (?:\\S+ ){0,4}(?:without|for once|just once|actually)",
      'if (?:the \\S+|this \\S+|this|that) (?:actually |only |even |ever )?(?:worked|did|bothered)',
      '(?:gone|going|went|goes) downhill',
      '(?<=\\S )my (?:foot|arse|backside)(?= \\||$)',
      "(?:nobody|no one|no-one|they) (?:\\S+ ){0,2}(?:talks|talk|speaks|speak|communicates|communicate|listens) to (?:each other|one another)|(?:don't|doesn't|never) (?:talk|speak|communicate) to (?:each other|one another)",
      '(?:good )?luck (?:getting|trying|finding|with getting|ever getting) (?:\\S+ )?(?:anyone|anybody|someone|somebody|a reply|an answer|through)',
      "but (?:\\| )?where(?:'s| is| are) (?:my|the) \\S+",
    ],
  },
  {
    // What the speaker expected: let down when it was good ("I thought it would be sorted by now"), a
    // relief when it was bad ("I thought I'd be on hold for ages"); the scorer looks at what follows.
    // An expectation in a comparison is neither: "not as bad as I thought it would be".
    act: 'expectation',
    value: -3,
    patterns: [
      "(?<!(?:as|than|never) )(?:i thought|we thought|i expected|i assumed) (?:\\S+ ){0,4}(?:would|was going to|i'd|it'd)",
    ],
  },
  {
    // Holdout8: dread looked back on ("bless you, I was dreading ringing about the boiler", "I'd been
    // worried sick about this call"): beside thanks or praise it is relief, as an expectation is;
    // alone, or before the trouble it came true in, it is sour (never the relief of "I thought…").
    act: 'dread',
    value: -3,
    patterns: [
      "(?:i was|we were|i'd been|we'd been|i had been|we had been|i've been|we've been) (?:really |so |absolutely |properly |honestly )?(?:dreading|worried (?:sick )?about|worrying about|nervous about|anxious about|bracing (?:myself|ourselves) for|stressing about|panicking about)",
    ],
  },
  {
    // The agent putting it right, done or promised: "I've taken the late fee off", "I'll send an
    // engineer out today". After the complaints, so "you never refunded" stays a complaint.
    act: 'remedy',
    value: 2,
    patterns: [
      // Holdout8: costs taken on ("we'll cover the hotel costs", "we've paid for the repair") and a
      // charge stopped from recurring ("…so that charge won't appear again").
      "(?:i'll|we'll|i will|we will|i'm going to|we're going to|we've|we have|i've|i have|we can|we're happy to|we'd be happy to) (?:\\S+ )?(?:cover|covered|pay for|paid for|foot|reimburse|reimbursed) (?:the|your|all the|any|all your) (?:\\S+ ){0,2}(?:costs?|bill|expenses?|fees?|repairs?|hotel|taxi|claim|damage|excess|travel|meals?|receipts?)",
      "(?:i'll|we'll|i will|we will|i'm going to|we're going to|let me) (?:\\S+ )?(?:send (?:an|a|the|you a|you the|someone|somebody) (?:\\S+ )?(?:engineer|technician|replacement|new)|book (?:an|a|the|you an?) (?:engineer|technician|visit)|(?:refund|credit|waive|replace|fix|reset|sort) (?:it|that|this|the|you|your))",
      // Only what an agent can do to an account: a customer who has "reset the router" and "replaced
      // the cable" is listing what did not help.
      "(?:i've|we've|i have|we have) (?:just |now )?(?:taken (?:\\S+ ){1,3}off|refunded|credited|waived|reactivated|removed (?:the|that|this) (?:\\S+ )?(?:charge|fee|penalty))",
      // Done for the customer: "I've cancelled the duplicate order for you".
      "(?:i've|we've|i have|we have) (?:just |now |already )?(?:cancelled|stopped|removed|corrected|fixed|restored|unblocked|amended|reversed|unlocked|reset|updated|changed|booked|arranged|raised|escalated|processed|reconnected)(?: \\S+){0,5} for you",
      "(?:i've|we've|i have|we have) (?:just |now |already )?(?:restored|corrected|unblocked|reversed|unlocked|reconnected)",
      // A duplicate undone: "I've stopped the second direct debit".
      "(?:i've|we've|i have|we have) (?:just |now |already )?(?:stopped|cancelled|removed|refunded|reversed) (?:the|that|your) (?:\\S+ ){0,2}(?:second|duplicate|extra|double)",
      // Removing what the customer did not want: "I've cancelled the insurance you didn't want".
      "(?:i've|we've|i have|we have) (?:just |now |already )?(?:cancelled|removed|stopped|taken off) (?:the|that|your) (?:\\S+ ){0,3}(?:you|they) (?:didn't|did not|don't|do not|never) (?:want|order|ask for|need)",
      // Money arrived: "the refund's come through".
      "(?:refund|money|credit|compensation|payment)(?:'s| has| have)? (?:now |finally |just )?(?:come through|arrived|gone in|landed|cleared|been paid in)",
      // A charge that will not come: "you won't be billed for it".
      "(?:you|it|we|i) (?:won't|will not|shouldn't|should not) (?:be (?:billed|charged|charging you|billing you)|see (?:it|that|the charge))",
      // Service back: "the lights have come back on", "everything's back to normal".
      "(?:is|are|'s|it's|has come|have come|came|come|coming|comes) back (?:on|up|online)(?! hold)",
      'back to normal',
      "(?:that's|that has|it's|it has|this has) (?:now |finally )?worked|(?:i'm|we're|i am|we are) back (?:in|on|online|up)(?! (?:the queue|hold|square))",
      "(?:everything's|everything is|it's all|all) (?:sorted|done|fixed|resolved)(?= \\||$)",
      "(?<!(?:not|n't|never) )(?:has|have|'s) (?:now |just |finally )?been (?:found|located|traced|recovered)",
      "(?:that's|that is) (?:your|the) (?:\\S+ ){0,2}(?:unlocked|unblocked|reconnected|reactivated|sorted|fixed|updated|changed|cancelled|booked|done|set up|back on|reinstated)",
      "(?:signal|service|power|internet|broadband|connection|water|heating|hot water|gas|electricity|line|wifi|wi-fi|supply|tv|phone)(?:'s| has| have| is)? (?:now |finally |just |all )?(?:come back|came back|returned|back)(?! (?:to square one|off|down|again and again))",
      '(?:at no (?:extra |additional )?cost|free of charge|no extra charge|without (?:any )?(?:penalty|charge|fee))',
      "(?<!(?:not|n't|never) )(?:i've|we've|i have|we have|you've|you have|i|we)(?: now)? (?:got|have) (?:a |my |the |our |your )?(?:signal|internet|power|connection|broadband|line|dial tone|wifi|wi-fi|heating|hot water|tv|phone|service|access) (?:back|again)",
      // Done on the account, whatever the object's words weigh: "I've removed the late payment fee",
      // "I've applied a credit of thirty pounds", "I've processed the refund". Agent verbs with an
      // agent's object only: a customer who "sent the form three times" is complaining.
      "(?:i've|we've|i have|we have) (?:just |now |already |gone ahead and )?(?:applied|added|issued|processed|put through|put|raised|arranged|approved|booked|authori[sz]ed|removed|waived|cancelled|reversed|refunded|credited) (?:a|an|the|that|this|your|you a|you an|you the)(?: \\S+){0,3} (?:credit|refund|discount|goodwill|gesture|compensation|collection|replacement|engineer|technician|callback|visit|appointment|payment|claim|fee|charge|penalty|fine|reduction|rebate|voucher|return|cancellation|exchange|upgrade|courier|driver|pick-?up|redelivery|delivery|swap|repair)s?",
      // The outcome announced: "the refund has gone through", "your claim's been approved".
      "(?<!(?:not|n't|never) )(?:has|have|'s|had) (?:now |just |already |finally )?(?:gone through|been (?:approved|processed|confirmed(?! (?:as|that|lost|missing|cancelled|closed))|restored|reinstated|reconnected|credited|refunded|sorted|resolved|fixed|cleared|issued|applied|reversed|waived|removed|cancelled|unblocked|unlocked|reactivated|activated|booked|dispatched|sent out|paid))",
      "(?<!(?:not|n't|never|if|whether) )(?:is|are|'s|'re|it's|that's) (?:now |all |finally |officially )?(?:restored|reconnected|reactivated|confirmed(?! (?:as|that|lost|missing|cancelled|closed))|approved|sorted(?! out)|fixed|resolved|unblocked|unlocked|cleared|on (?:its|their|his|her) way)",
      // "You're all set", "that's you sorted", "there we go, it's connected".
      "(?:you're|you are|you're now|we're|we are) (?:all )?(?:set|good to go|sorted|connected|back (?:on|up|online)|up and running)",
      "(?:that's|that is) (?:you|it|everything|all) (?:sorted|done|set up|fixed|updated|changed|back)",
      "(?:that's|it's|that is|it is|all|everything's|everything is) (?:all )?(?:sorted|done|fixed|resolved|working|connected)(?: now| for you| again)",
      "(?:it's|it is|everything's|everything is|that's) (?:now )?(?:connected|working (?:again|fine|now|perfectly))",
      "(?:light|lights|led)(?:'s| is| are| has| have)? (?:now |gone |turned |just gone |finally gone )+green",
      '(?:(?<=^)|(?<=\\| ))(?:oh |ah |right |ok |okay )?there we go(?= \\||$| it| that| the| you| now)',
      "(?:you'll|you should|you will) (?:now )?(?:see|get|have|receive) (?:it|the|your|that|a|an)(?: \\S+){0,3} (?:back|credit|refund|money|confirmation|email) (?:in|on|within|by|back)",
      // A trouble gone is good news, whoever says it: "the problem is gone", not two sour words.
      "(?<!(?:want|need|get|have|having|got|wanted|needed)(?: the| my| this| that| it)? )(?:the |that |this )?(?:problem|issue|fault|noise|error|crackling|outage)s? (?:is |are |has |have |'s )?(?:been )?(?:gone|disappeared|fixed|solved|sorted|resolved|over)",
      "(?<!(?:not|n't|never) )(?:solves?|solved|fix(?:es|ed)?|sorts?|sorted|resolves?|resolved) (?:\\S+ )?(?:problem|issue|fault)s?",
    ],
  },
  {
    act: 'thanks',
    value: 3,
    patterns: [
      // "Thanks for waiting": waiting is what is thanked, not a harm (see harmThanked).
      '(?:thank you|thanks)(?: so much| very much)? for (?:waiting|holding|your patience|bearing with me)',
      'thank you(?: so much| very much| ever so much)?',
      // Not the causal "thanks to you I've been unable to work"; "no, thanks to you!" is thanks.
      'thanks(?! to (?:you|your|them) (?!\\|))(?: a lot| so much| very much| again| a bunch| a million)?',
      'many thanks',
      // British: "ta very much", "ta" alone as its clause.
      'ta very much|(?:(?<=^)|(?<=\\| ))ta(?= \\||$)',
      // Praise by contrast with the others: "you're the first person who's actually listened to me".
      "(?:you're|you are|you've been|you were) the (?:first|only) (?:person|one|agent|people)(?: \\S+)? (?:who|that|to)(?:'s| has| have)? (?:actually |really |properly |even )?(?:listened|listen|helped|help|understood|understand|sorted|fixed|bothered|explained|made sense|got it|cared)",
      '(?:i|we) (?:really )?appreciate(?: it| that| you| your)?',
      // "I'm grateful you took the time", not "I'd be grateful if someone finally…".
      "(?:i'm|i am|we're|we are) (?:so |really |very |truly |ever so |most |extremely |genuinely )?grateful",
      'cheers',
      // Holdout8: thanks as a blessing ("oh bless you", "God bless you, that's a weight off"); not "bless
      // them, they tried" (indulgent) nor a sneeze: only addressed to the listener.
      '(?:(?<=^)|(?<=\\| ))(?:oh |aw |aww |ah )?(?:god )?bless (?:you|ya|your heart|your cotton socks)',
    ],
  },
  {
    // Praise of a person or the service (see EN_PRAISE_WORD).
    act: 'praise',
    value: 3,
    patterns: [
      // Not "that's great" / "it was brilliant" (a reaction, weighed for irony in sentiment-irony.ts),
      // nor "quick to take the money", "clear that nobody read my notes", "great until…".
      `(?<!(?:not|never|n't|hardly|that|it|this|which|what|everything|nothing|something|all|had|would|could|should|might|must|have|would've|could've|should've|to|be) )(?:was|were|is|are|has been|have been|been|you're|you've been|he's|she's|they're|they've been|(?!(?:that|it|what|there|here|where|who|how|everything|nothing|this)'s)\\S+'s) ${EN_INTENSE}${EN_PRAISE_WORD}(?! (?:to|that|until|till|when|at|at first|on paper|but|if|for once|for a change))`,
      '(?:went|goes|go|going|gone) (?:above and beyond|the extra mile|out of (?:his|her|their|your|the) way)',
      "(?:couldn't|could not|can't|cannot) (?:have )?(?:asked for|wish for) (?:more|better|anyone better|a better)",
      "(?:knew|knows|know) (?:exactly )?what (?:he|she|they|you) (?:was|were|are|is|'s|'re)? ?doing",
      "(?:made|make|you've made|you made) my day",
      '(?:knew|knows|know) (?:his|her|their|your) (?:stuff|job|onions)',
      '(?:made|making|make) (?:this|it|everything|things|the whole thing) (?:so |much |a lot )?(?:easier|less stressful|painless|simple)',
      'top marks|full marks|hats off',
      'the most (?:helpful|useful|pleasant|patient) (?:call|person|agent|chat|conversation)',
      "(?:i'll|i will|i'm going to|i'm gonna) (?:be sure to |definitely )?(?:give|leave|put|be giving|be leaving|be putting) (?:you |him |her |them )?(?:a )?(?:good|great|glowing|positive|five star|5 star|top) (?:review|feedback|rating|score|mark)",
      // Addressed to the agent: "you're a star", "you've been brilliant".
      "(?:you're|you are|you've been|you were) (?:an absolute |a real |such a |a total |an )?(?:star|gem|legend|lifesaver|godsend|hero|angel|diamond)",
    ],
  },
  {
    // Praise as an exclamation, with no subject ("best service I've had", "qué amable", "muy buena
    // atención"): the shape of "great service, three failed deliveries", so it is weighed for irony
    // like a warm interjection (sentiment-irony.ts); the scorer reads it as praise otherwise.
    act: 'acclaim',
    value: 3,
    patterns: [
      "(?:the |that's the |that was the |this is the |easily the |by far the )?best (?:customer |phone |bit of )?(?:service|experience|support|help|call|agent|advice|care) (?:\\S+ )?(?:i've|i have|we've|i've ever|i ever|i've had|i had|i've got|i got|i've received)",
      '(?:ten|10) out of (?:ten|10)|five stars',
    ],
  },
  {
    act: 'agreement',
    value: 2,
    patterns: [
      'sounds? (?:good|great|perfect|fine|lovely|brilliant|fair|sensible|reasonable|ok|okay|like a plan)',
      '(?:that|it|this) works(?: for me| for us)?',
      'works for me',
      'suits me',
      // Holdout7: a slot or offer accepted as fitting ("a Thursday delivery suits us down to the ground",
      // "Tuesday morning is ideal").
      "(?<!(?:not|n't|never|hardly) )suits? (?:us|me|them)(?: (?:fine|perfectly|well|nicely|down to the ground|better))?",
      "(?<!(?:not|n't|never|hardly|if|whether) )(?:is|would be|'s|sounds|will be) (?:just |absolutely |really )?(?:ideal|perfect for (?:me|us))(?= \\||$)",
      '(?:fine|good) by me',
      "(?:that's|that is|it's) fine",
      'fair enough',
      '(?:makes|that makes|it makes) (?:total |complete |perfect |a lot of |good |so much )?sense',
      // As an answer, not inside a line: "I'm absolutely furious", "of course it doesn't work".
      '(?:(?<=^)|(?<=\\| ))(?:of course|absolutely|certainly|definitely)(?= \\||$| yes| please| that| go ahead| do)',
      'happy to help',
      "(?<!(?:not|n't|never|be|been|more|less) )(?:i'm |i am |we're |we are )?(?:happy|glad) to (?:do|go|help|wait|switch|proceed|try|accept|take|have|leave|give|confirm|go ahead)",
      "(?:(?<=^)|(?<=\\| ))(?:yes |yeah |yep |ok |okay |fine )*(?:that's|that is) (?:all )?(?:correct|right|it exactly|exactly right)(?= \\||$| only| yes)",
      'glad to',
      // Alone as an answer ("Deal."), not "the best deal".
      '(?:(?<=^)|(?<=\\| ))deal(?= \\||$)',
      "(?:you're|you are) (?:absolutely |completely |quite )?right",
      'good idea',
      "let's (?:do|go with|go for|book) (?:that|it|this|them)",
      'yes please',
      "i'd (?:love|be glad|be happy) to",
      "(?:that'd|that would) (?:be )?(?:great|lovely|perfect|brilliant|help)",
      // Holdout8: a request granted with "(of) course I can / we can" (not "of course I can't").
      "(?:(?<=^)|(?<=\\| ))(?:yes |yeah )?(?:of )?course (?:i|we) (?:can|will|could)(?!n't| not)(?= \\S)",
    ],
  },
  {
    act: 'empathy',
    value: 0,
    patterns: [
      "(?:i'm|i am|we're|we are)(?: so| really| very| truly| terribly| deeply| awfully| extremely)* sorry",
      // Not the other's apology reported back: "it's great that you're sorry, now what …".
      "(?<!(?:you're|you are|they're|they are|he's|she's|you're so|you're very) )sorry",
      '(?:i|we)(?: do| sincerely| really| truly| deeply| genuinely| must)* (?:apologi[sz]e|regret)',
      // Holdout7: an apology announced ("I'd like to apologise on behalf of the team for…", "let me
      // apologise", "I just wanted to say sorry"): courtesy naming the trouble, as "I apologise for…".
      "(?:i'd|i would|we'd|we would|i want|we want|i wanted|we wanted|let me|may i|can i|i need|i must)(?: just| first| also| really)*(?: like| love)?(?: to)?(?: just| first| also| sincerely| personally| properly)* (?:apologi[sz]e|say sorry|offer (?:my|our) (?:sincere )?apologies)",
      '(?:my|our|please accept (?:our|my)) (?:sincere )?apologies',
      'apologies',
      '(?:i|we)(?: completely| totally| fully| really| do)? (?:understand|hear you|get it|get that)',
      // "I completely get why you're fed up", "I can see why that would be upsetting".
      '(?:i|we)(?: completely| totally| fully| really| do| can| can totally| can completely)? (?:get|see|understand|know) why',
      'i can (?:only )?imagine',
      // Siding with the customer: "I'd be fed up too", "I'd feel the same".
      "(?:i'd|i would) (?:be|feel|have been) (?:\\S+ ){0,2}(?:too|as well|the same|in your (?:shoes|position))",
      'forgive (?:me|us)',
      // Holdout8: the apology as all that is left to give ("I can only apologise, you've been let
      // down", "all we can do is say sorry", "I can't apologise enough"): still an apology.
      "(?:i|we) (?:can|could) (?:only|but) (?:apologi[sz]e|say sorry|say (?:i'm|we're|how) sorry)",
      "all (?:i|we) can (?:do|say) is (?:apologi[sz]e|say sorry|say (?:i'm|we're|how) sorry)",
      "(?:i|we) (?:can't|cannot|can not|couldn't) (?:apologi[sz]e|say sorry) enough",
      // "I owe you an apology, I gave you the wrong date": the apology owed is given.
      '(?:i|we) (?:really |definitely )?owe you (?:an|a big|a huge) apology',
      // Owning a mistake: "I'm afraid I gave you the wrong date", "I'm afraid we sent it to the old address".
      "(?:i'm|i am|we're|we are) afraid (?:i|we) (?:might have |may have |must have |have )?(?:gave|given|told|sent|put|made|booked|entered|got|read|quoted|missed|forgot|forgotten|mixed|misheard|misread|typed|keyed|mis\\S+)",
      "(?:that|this|it) (?:must|must have|must be|sounds|can't have been|can't be)",
      "i know (?:how|it's|this|that)",
    ],
  },
];

/** Spanish object pronouns between "no" and the verb: "no se lo puedo", "no le voy a". */
const PRON = '(?:(?:me|te|le|les|lo|la|los|las|se|nos|os) ){0,2}';
const NO_PUEDO = `no ${PRON}(?:puedo|podemos|podré|podremos|voy a|vamos a|pienso|pensamos|hago|hacemos|sé|estoy autorizad[oa] (?:para|a)|estamos autorizados (?:para|a)|tengo permiso para|tenemos permiso para)`;
/** What an agent could do; clitics may be attached ("quitarle", "devolvérselo"). */
const VERBO =
  '(?:hacer|ayudar|ofrecer|anular|quitar|devolver|transferir|pasar|cambiar|gestionar|dar|tramitar|arreglar|solucionar|abonar|escalar|compensar|garantizar|mandar|enviar|reembolsar|reponer|reparar|cubrir|aceptar|aprobar|cancelar|mover|reabrir|reconectar|reactivar|activar|conectar|programar|agendar|liberar|desbloquear)(?:me|te|le|les|lo|la|los|las|se|nos){0,2}';

export const ES_ACTS: readonly ActRule[] = [
  {
    // El agente que escala el caso del cliente ("voy a escalar su caso al área de reclamaciones", "le
    // paso su queja a mi supervisor", "ya escalé tu reclamo"): un acto suyo, no una amenaza. Sólo con lo
    // que lo marca como del agente ("su"/"tu" caso, "nuestro" equipo, "para que lo revise…"): un cliente
    // que va a "escalar esto" sigue amenazando. Antes de las amenazas.
    act: 'information',
    value: 0,
    patterns: [
      '(?:voy a|vamos a|le voy a|te voy a|les voy a|ya|he|hemos|le|te|les|se lo|se la)? ?(?:escalar|escalo|escalé|escalado|escalamos|pasar|paso|pasé|pasado|derivar|derivo|derivé|derivado|elevar|elevo|elevé|elevado|trasladar|traslado|trasladé|trasladado|remitir|remito|remitido) (?:su|tu) (?:caso|reclamación|reclamacion|queja|solicitud|incidencia|expediente|reclamo|consulta|petición|peticion|gestión|gestion)',
      '(?:voy a|vamos a|le voy a|te voy a) (?:escalarlo|escalarla|pasarlo|pasarla|derivarlo|derivarla|elevarlo|elevarla|trasladarlo|trasladarla)(?= (?:al|a la|a mi|a nuestro|a nuestra|con mi|con el|con la|para que))',
    ],
  },
  {
    // Información que nombra un problema sin que nadie lo tenga: lo que cubre una póliza ("cubre daños
    // accidentales"), cómo se cobra ("se cobran por minuto"), nadie tuvo la culpa ("nadie hizo nada mal").
    act: 'information',
    value: 0,
    patterns: [
      '(?<!no )(?:cubre|cubren|cubriría|cubrirá|incluye|incluyen|incluida|incluido|incluidos|incluidas|ampara|protege contra) (?:los |las |el |la |sus |todos los |todas las )?(?:\\S+ ){0,1}(?:daños?|robos?|pérdidas?|perdidas?|averías?|averias?|accidentes?|roturas?|siniestros?|incendios?|inundaciones?|cancelaciones?|retrasos?|reparaciones?|hurtos?|lesiones|emergencias?)(?: (?:accidentales|materiales|personales|propios|a terceros|por agua|eléctricos|electricos|de equipaje))?(?: (?:y|o|e|u) (?:los |las |el |la )?(?:daños?|robos?|pérdidas?|perdidas?|averías?|averias?|accidentes?|roturas?|siniestros?|incendios?|inundaciones?|cancelaciones?|retrasos?|reparaciones?|hurtos?|lesiones|emergencias?)(?: (?:accidentales|materiales|personales|propios|a terceros|por agua|eléctricos|electricos|de equipaje))?)?',
      '(?:se cobran?|se factura|se facturan|se paga|se pagan|cobramos|cuesta|cuestan) (?:a |por |al |cada )(?:\\S+ ){0,1}(?:minuto|hora|día|dia|semana|mes|año|kilómetro|página|mensaje|llamada|noche|unidad|kwh|giga|gb|megas?|maleta|persona|billete)',
      'nadie (?:hizo|ha hecho|hico|había hecho) nada (?:mal|malo|incorrecto)',
      // Holdout7: cómo se acumula un cargo ("los intereses se calculan a diario sobre el saldo") y cuándo
      // se registró un aviso ("la avería se registró a las nueve"): un dato, no una queja.
      '(?:intereses|interés|recargos?|comisiones|cargos?|penalizaciones|multas|moras?) (?:se calculan?|se cobran?|se aplican?|se generan?|se devengan?|se suman?|se cargan?) (?:a diario|diariamente|mensualmente|semanalmente|anualmente|cada (?:día|mes|semana|año)|al (?:día|mes|año)|por día)(?: sobre (?:el|la|los|las|su|sus) (?:\\S+ )?(?:saldos?|deudas?|importes?|capital|montos?)(?: pendientes?| vencid[oa]s?| impagad[oa]s?)?)?',
      '(?:avería|averia|corte|incidencia|fallo|falla|reclamo|reclamación|queja|siniestro|robo|fuga|accidente|daño|apagón) (?:se|fue|ha sido|quedó) (?:registró|reportó|registrada|registrado|reportada|reportado|anotó|anotada|anotado|abrió|abierta|abierto|dio de alta) (?:(?:a las|a la|el|ayer|hoy|esta|este|anoche|el día) )(?:\\S+)',
    ],
  },
  {
    // Una mala noticia anunciada con pesar ("lamento decirle que su maleta se ha perdido"): no es la
    // disculpa que reconoce el problema del cliente, sino una noticia que no le gustará.
    act: 'regret',
    value: -2,
    patterns: [
      '(?:lamento|lamentamos|siento|sentimos|me apena|nos apena) (?:mucho )?(?:tener que )?(?:decirle|decirte|decirles|informarle|informarte|informarles|comunicarle|comunicarte|comunicarles)',
    ],
  },
  {
    act: 'ritual',
    value: 0,
    patterns: [
      'buen(?:os|as)? (?:días|tardes|noches|día)',
      'gracias por (?:llamar|su llamada|tu llamada|contactar|contactarnos|comunicarse)(?! me)',
      '(?:que )?(?:tenga|tengas|pase|pases) (?:un )?(?:buen|buena|feliz|bonito) (?:día|tarde|noche|fin de semana)',
      '(?:que )?(?:tenga|pase) buena (?:tarde|noche)',
      'cuídese|cuídate',
      // Agradecer sin nada que agradecer: "bueno, gracias de todas formas", "igual gracias".
      '(?:muchas )?gracias(?: \\S+){0,4} (?:de todas formas|de todos modos|igual|igualmente)|igual gracias',
      'hasta luego|hasta pronto|adiós',
      // Un saludo que abre la llamada: "hola, sí, buenas", "aló", "con quién tengo el gusto".
      '(?:(?<=^)|(?<=\\| ))(?:hola|aló|alo|buenas|buenos|diga|dígame)(?: (?:\\| )?(?:sí|si|hola|buenas|buenos))*(?= \\||$)',
      'con quién tengo el gusto(?: de hablar)?',
      '(?:le|te) (?:saluda|atiende|habla)|(?<=\\| |^)habla \\S+ de',
      'en qué (?:le|te|les) (?:puedo|podemos) (?:ayudar|servir|colaborar)',
      'mucho gusto|un placer(?= \\||$)',
      'bienvenid[oa]s? al?',
    ],
  },
  {
    act: 'reassurance',
    value: 2,
    patterns: [
      'no (?:hay|es) (?:ningún )?problema',
      'ningún problema',
      // Holdout8: la sorpresa agradable ("no esperaba que lo resolvieran tan rápido", "nunca pensé que
      // fuera tan fácil").
      '(?:no esperaba|no me esperaba|no pensaba|no pensé|no creía|no creí|nunca pensé|nunca imaginé|jamás pensé) que (?:\\S+ ){0,5}(?:tan|así de) (?:rápid[oa]|rápidamente|pronto|fácil|fácilmente|sencill[oa]|bien|ágil)',
      'no (?:se preocupe|te preocupes|pasa nada)',
      'no (?:me|nos) (?:puedo|podemos) quejar',
      'no (?:me quejo|nos quejamos)',
      'no (?:tengo|tenemos|he tenido|hemos tenido) (?:ningún |ninguna )?(?:problema|problemas|queja|quejas|inconveniente|inconvenientes)',
      'no (?:volverá|va a volver|debería volver) a (?:pasar|ocurrir)',
      '(?:no tengo|sin) ninguna queja',
      'no (?:me|nos) importa',
      'no dude en|no dudes en',
      'nunca (?:he|hemos) tenido (?:ningún |ni un )?problemas?',
      'no (?:está|va|estuvo|es) (?:nada |tan )?mal',
      'no es para tanto',
      // Un coste o una molestia negados: "no es nada caro", "no fue complicado".
      'no (?:es|está|fue|era|sale|salió|resultó) (?:nada |muy )?(?:caro|cara|costoso|costosa|complicado|complicada|difícil|lento|lenta|engorroso)(?= \\||$| para nada| en absoluto)',
      'no es culpa suya|no es su culpa',
      'no he tenido ningún problema|ningún fallo',
      'no (?:podría|podríamos|puede|podrían) (?:estar|ir|ser) (?:más|mejor)',
      // Holdout7: lo que no pudo ir mejor ("no podría haber salido mejor") y el alivio por comparación
      // con lo temido ("no fue tan complicado como pensaba").
      'no (?:podría|podríamos|pudo|podía|hubiera podido|habría podido|pudieron|podrían)(?: haber)? (?:salido|ido|quedado|resultado|estado|sido|terminado) (?:nada )?mejor',
      'no (?:es|está|fue|era|resultó|salió|ha sido|estuvo) (?:tan|ni de lejos tan|para nada tan|tanto) (?:complicad[oa]|difícil|grave|car[oa]|mal[oa]?|lent[oa]|larg[oa]|engorros[oa]|terrible|doloros[oa]|pesad[oa]|complej[oa]|costos[oa]|lío|problema) como (?:yo |nosotros )?(?:me |nos )?(?:pensaba|creía|esperaba|temía|imaginaba|pensábamos|creíamos|temíamos|esperábamos|dijeron|parecía)',
    ],
  },
  {
    act: 'refusal',
    value: -3,
    patterns: [
      // Policy in the present: "no igualamos precios", "los billetes de oferta no admiten cambios",
      // "ahora mismo no estamos dando citas".
      '(?<!(?:por qué|porque|si|que) )no (?:(?:lo|la|los|las|le|les|se|nos|me) ){0,2}(?:admitimos|admiten|admite|aceptamos|aceptan|acepta|igualamos|permitimos|permite|permiten|cubrimos|cubre|cubren|realizamos|tramitamos|reembolsamos|devolvemos|hacemos devoluciones|hacemos cambios|damos citas|ofrecemos|trabajamos con)',
      'no (?:estamos|están) (?:dando|haciendo|aceptando|ofreciendo|tramitando|atendiendo|admitiendo|programando)',
      // Holdout8: una práctica negada, "eso no es algo que hagamos", "no es un servicio que ofrezcamos".
      '(?<!(?:por qué|porque|si) )no es (?:algo|un servicio|una opción|una opcion) que (?:nosotros )?(?:hagamos|hacemos|ofrezcamos|ofrecemos|demos|damos|cubramos|cubrimos|aceptemos|aceptamos|permitamos|permitimos|manejemos|manejamos|tramitemos|tramitamos)',
      '(?:no me|no nos) interesa|no estoy interesad[oa]',
      // Not a supposition: "¿qué pasa si no pago un recibo?".
      '(?<!(?:si|que|cuando) )no (?:voy a|vamos a|pienso|pensamos) pagar|(?<!(?:si|que|cuando) )no (?:pago|pagaré|acepto|aceptaré|firmo|firmaré)(?= |$)',
      'no (?:tengo|tenemos|hay) (?:forma|manera|modo|cómo) de',
      '(?<!(?:si|que) )no (?:(?:nos|me|le) )?es posible',
      '(?:eso |lo |eso lo )?(?:tiene|tendrá|tendría) que (?:verlo|ver|hablarlo|hablar|reclamarlo|reclamar|tratarlo|tratar|arreglarlo) (?:\\S+ )?con (?:el|la|su|los|las)',
      '(?:se sale|está fuera|queda fuera|se escapa) de (?:lo que (?:yo )?(?:puedo|podemos)|mis (?:atribuciones|competencias|manos)|nuestras (?:atribuciones|competencias|manos))',
      'no es (?:mi|nuestro|nuestra|su) (?:problema|culpa|responsabilidad|asunto|departamento|trabajo|área)',
      'no es algo (?:en lo |con lo )?(?:que|en que) (?:le |te |les )?(?:pueda|podamos|puedo|podemos)',
      'no es (?:cosa|culpa|problema) (?:mía|mío|nuestra|nuestro)',
      'no (?:es|son) cosa (?:mía|nuestra)',
      'no depende de (?:mí|nosotros)',
      'la respuesta (?:es|sigue siendo) (?:que )?no',
      // Lote fresco 5: "no estoy en condiciones de aceptar eso".
      'no (?:estoy|estamos) en (?:condiciones|disposición|posición) de',
      `${NO_PUEDO} ${PRON}${VERBO}(?: nada)?`,
      `${NO_PUEDO} nada`,
      // Holdout7: una imposibilidad condicionada ("hasta que no se regularice la deuda no le podemos
      // reconectar", "no le puedo mandar el técnico hasta que pague"): se le niega lo que pide.
      `hasta (?:que|no) (?:\\S+ ){1,7}${NO_PUEDO}`,
      // Un límite ofrecido: "lo mejor que puedo hacer es un diez por ciento".
      'lo (?:mejor|máximo|único|mas|más) que (?:le |te |les )?(?:puedo|podemos|podría|podríamos) (?:hacer|ofrecer)(?:le|te|les)? (?:por (?:usted|ti) )?es',
      `${NO_PUEDO} (?:\\S+ ){1,6}(?:hasta que|hasta no|a menos que|salvo que|mientras no)`,
      `no ${PRON}(?:puedo|podemos) ${PRON}${VERBO}`,
      '(?:no hay|no tengo|no tenemos) nada (?:más )?(?:que|de que)? ?(?:hacer|ofrecer|ofrecerle|hacerle|decirle)',
      '(?:no hay|no tengo|no tenemos) nada (?:más )?que (?:le |te )?(?:pueda|podamos) (?:hacer|ofrecer|decir)',
      'nada que hacer',
      'nada más que (?:hacer|ofrecer)',
      'no (?:nos hacemos|me hago) (?:responsables|responsable)',
      'de ninguna manera',
      'y punto',
      'la respuesta es no',
      '(?:es|son) (?:la|las) (?:política|norma|normas)',
      'no se puede cambiar',
      'no tiene derecho',
      '(?:lo|eso) tiene que (?:solucionar|arreglar|resolver|mirar) usted',
      'llame (?:usted|a otro|a otra)',
      'reclame (?:a|usted)',
      'me niego a',
      'no pienso',
      'no (?:le|te) (?:voy a|vamos a) (?:transferir|pasar)',
      'no sé qué quiere que le haga',
      // "Ni le devolvemos el dinero ni le hacemos un abono": the remedy refused in the first person.
      `(?:no|ni) ${PRON}(?:devolvemos|devuelvo|hacemos|hago|abonamos|abono|anulamos|anulo|cambiamos|quitamos|quito|aceptamos|acepto|tramitamos|tramito|compensamos|compenso|damos|doy|ofrecemos|ofrezco|reembolsamos|cubrimos|cubro|incluimos)(?= |$)`,
      'no con nosotros|no a nosotros|no es con nosotros',
      // "Eso lo decide facturación, no yo": the customer pointed elsewhere.
      '(?<=\\| )no (?:yo|nosotros)(?= \\||$)',
      '(?:el sistema|la aplicación|el programa|la política|la normativa) no (?:me|nos|le|te) (?:deja|permite)',
      // Alguien que no quiere: "el seguro no me quiere cubrir la grúa".
      `(?<!(?:si|que|cuando) )no (?:me |nos |le |les |te )(?:quiere|quieren|quiso|quisieron|quieren ustedes) (?:${VERBO}|cubrir\\S*|pagar\\S*|reconocer\\S*|atender\\S*|reembolsar\\S*|arreglar\\S*)`,
      // Holdout6: una disculpa que abre una imposibilidad es una negativa, sea cual sea el verbo ("lo
      // siento, no puedo aplazar el pago"); no cuando no se oye o no se encuentra algo.
      `(?:(?<=^)|(?<=\\| ))(?:lo siento|lo siento mucho|lo lamento|lamentablemente|desafortunadamente|disculpe|disculpa|perdone|perdona|me temo que|sintiéndolo mucho)(?: \\|)?(?: pero)? no ${PRON}(?:puedo|podemos|vamos a poder|voy a poder|podría|podríamos|es posible|se puede)(?! (?:${PRON})?(?:oír|oirl\\S*|escuchar\\S*|ver|verl\\S*|entender\\S*|encontrar\\S*|localizar\\S*))(?= \\S)`,
      // El cliente que declina: "no, gracias, no quiero el seguro adicional" (como "I don't want the …").
      '(?<!(?:si|que|cuando|porque|por qué) )no (?:quiero|queremos|necesito|necesitamos) (?:el|la|los|las|ningún|ninguna|nada|contratar|cambiar|renovar|añadir|agregar|ampliar|comprar)(?= |$)',
      'yo no llevo',
      'es lo que hay|así son las cosas|no hay excepciones?',
      // Sent elsewhere: "tendrá que reclamar usted al fabricante".
      '(?:tendrá|tiene|tendría|tienes|tendrás) que (?:\\S+ ){1,2}(?:usted|usted mism[oa]|por su cuenta|por su lado)',
      '(?:tendrá|tiene|tendría) que (?:reclamar|llamar|dirigirse|hablar|ir|contactar|acudir)(?:le)? (?:\\S+ ){0,2}(?:al|a la|con el|con la) (?:fabricante|tienda|banco|distribuidor|vendedor|transportista|mensajería)',
    ],
  },
  {
    act: 'rude',
    value: -3,
    patterns: [
      'cálmese|cálmate|tranquilícese|tranquilízate|relájese|relájate',
      // Holdout7: prisa echada en cara ("mire, no tengo todo el día").
      'no (?:tengo|tenemos) (?:todo el día|toda la tarde|toda la mañana|tiempo para (?:esto|perder|tonterías))',
      // Luces puestas en duda: "¿no hay nadie que tenga dos dedos de frente?", "medio cerebro".
      '(?:tenga|tiene|tengan|tienen|con) (?:dos dedos de frente|medio cerebro|una neurona|dos neuronas|cerebro|sentido común)',
      '(?:sin|no tiene|no tienen|no tenés|no tienes) (?:ni )?(?:dos dedos de frente|medio cerebro|una neurona|dos neuronas)',
      // Un insulto al que escucha: "un boludo como vos", "una inútil como usted".
      '(?:un|una|unos|unas) (?:\\S+ )?(?:boludo|boluda|boludos|pelotudo|pelotuda|idiota|idiotas|imbécil|imbéciles|tarado|tarada|inútil|inútiles|payaso|payasa|payasos|pendejo|pendeja|huevón|huevona|gilipollas|tonto|tonta|ignorante|incompetente|incompetentes) como (?:vos|tú|tu|usted|ustedes|vosotros)',
      // Desprecio: "me importa un carajo", "me vale madre".
      '(?:me|nos) (?:importa|importan|vale|valen|tiene sin cuidado) (?:un carajo|un pepino|un comino|un bledo|un pimiento|tres pepinos|madre|madres|verga|una mierda|un rábano|un huevo)',
      'aprenda a hacer su trabajo|aprende a hacer tu trabajo|aprendan a hacer su trabajo',
      '(?:empresa|compañía|servicio|atención) (?:tan |más )?(?:de pacotilla|de pena|de chiste|de risa|de quinta|de cuarta|mediocre|patética|patético|penosa|penoso)',
      'menuda empresa|vaya empresa|qué empresa más|qué empresa tan',
      'escúcheme|escúchame|escúchenme',
      'no me (?:interrumpa|interrumpas|interrumpan)',
      '(?:tiene|tienes) que (?:calmarse|tranquilizarse|calmarte|tranquilizarte)',
      'me (?:deja|dejas|quiere dejar) hablar',
      '(?:me )?(?:está|estás) escuchando',
      'ya se lo (?:he|había) (?:dicho|explicado)',
      '(?:debería|debió|tendría que) (?:usted )?haber (?:leído|mirado|revisado|comprobado|llamado)',
      'haga lo que quiera|haz lo que quieras',
      '(?:le|te) cuelgo',
      '(?:es usted|eres|es) (?:tonto|idiota|imbécil|sordo)',
      'no me (?:hable|hables) así',
      'no (?:tiene|tienes) ni idea',
      '(?:deje|deja) de (?:leer|hablar|interrumpir|gritar)',
      'no tengo tiempo para (?:esto|eso)',
      'la culpa es (?:suya|tuya)',
      'unos inútiles|inútil|inútiles',
      '(?:haga|hagan|haz) (?:usted |ustedes )?(?:su|tu) trabajo',
      'por el amor de dios',
      // Holdout8: "no me venga con cuentos", "no soy idiota", "¿me toma por tonto?", el aviso del agente
      // al que grita ("si no se calma no la puedo atender"), y la empresa llamada ladrona.
      'no me (?:venga|vengas|vengan|salga|salgas|salgan) con (?:cuentos|cuentitos|el cuento|historias|excusas|rollos|tonterías|tonterias|pavadas|chorradas|mentiras)',
      'no (?:soy|somos) (?:ningún |ninguna )?(?:idiota|idiotas|tont[oa]s?|imbécil|imbéciles|estúpid[oa]s?|bob[oa]s?|pendej[oa]s?|bolud[oa]s?|nene|nena)|(?:me|nos) (?:toma|toman|tomas|tomás) (?:por|de) (?:tont[oa]|idiota|imbécil|estúpid[oa]|bob[oa]|pendej[oa]|bolud[oa])',
      'si no se (?:calma|calman|tranquiliza|tranquilizan|modera)|si (?:sigue|siguen|continúa|continúan) (?:gritando|gritándome|gritandome|insultando|insultándome|faltando al respeto|hablándome así)',
      '(?:son|es|eres|sos) (?:unos|unas|un|una) (?:ladrones|ladrón|ladrona|ladronas|sinvergüenzas|sinvergüenza|estafadores|estafador|estafadora|chorros|rateros|bandidos|delincuentes|mafiosos)',
    ],
  },
  {
    act: 'escalation',
    value: -3,
    patterns: [
      '(?:hablar|pasar|pasarme|hable|hablo) con (?:un|el|su|la|alguien|algún) ?(?:supervisor|supervisora|jefe|jefa|responsable|encargado|encargada|superior|de más arriba)',
      // Hacerlo público: "lo voy a subir a redes".
      '(?:subir|subirlo|publicar|publicarlo|poner|ponerlo|contar|contarlo|colgar|colgarlo)(?: \\S+){0,2} (?:en|a) (?:las )?(?:redes|redes sociales|twitter|facebook|instagram|tiktok|internet|google)',
      // "Quiero hablar con alguien que sepa", not "da gusto hablar con alguien que sabe".
      'hablar con alguien (?:de más arriba|superior|que (?:sepa|pueda|entienda|me (?:ayude|solucione|pueda)))',
      '(?:páseme|pásame|pásenme) con',
      '(?:voy a |vamos a |les voy a |los voy a )?denunciar(?:les|los|las|lo)?(?= |$)',
      '(?:me doy|darme|me voy a dar|me den|dar|doy) de baja',
      '(?:la|mi) baja',
      '(?:voy a|vamos a|quiero) (?:cancelar|denunciar|reclamar|poner una (?:queja|reclamación|denuncia)|publicar|ir a|escalar|cerrar)',
      'reclamación formal|hoja de reclamaciones',
      '(?:a|en) consumo|profeco|la ocu|abogado|abogada|juzgado|denunciar|denuncia',
      'redes sociales',
      'una estrella',
      'me voy a la competencia|me cambio de compañía|me voy(?= \\||$)',
      '(?:irme|cambiarme|me voy|me cambio|pasarme|me paso) a otra (?:compañía|operadora|empresa|compañia)',
      'cierro la cuenta',
      'cancélenlo|cancélelo|cancelen|cancélenme',
      'escalar|escale|escalen|escalarlo|escaléis',
      'lo reclamo',
      'es la última vez',
      '(?:poner|dejar|escribir|publicar|pongo|dejo) (?:una )?(?:mala |pésima |muy mala )?(?:reseña|valoración|opinión)(?! (?:muy |súper )?(?:buena|buenísima|excelente|estupenda|positiva|genial|de (?:cinco|5) estrellas))',
    ],
  },
  {
    // Elogio por lo que nunca pasó ("nunca me han fallado", "hacía años que no me atendían tan bien",
    // "nadie me había ayudado así"), antes de que las quejas lean "nunca" y "nadie".
    act: 'praise',
    value: 3,
    patterns: [
      // Lo nunca visto, para bien: "nunca me han fallado", "hacía años que no me atendían tan bien",
      // "nadie me había ayudado así".
      '(?<!(?:si|que|por qué) )nunca (?:me|nos) (?:ha|han|había|habían|has) (?:fallado|dejado tirad[oa]s?|dejado mal)',
      // "desde que me cambié a ustedes no he tenido un solo corte", "en años no hemos tenido ni una queja".
      '(?:desde que|en (?:\\S+ )?(?:años|meses)|todo este tiempo)(?: \\S+){0,5} no (?:he|hemos|ha|han) (?:tenido|sufrido|visto) (?:ni )?(?:un solo|una sola|ni un|ni una|ningún|ninguna) (?:corte|problema|fallo|incidencia|queja|avería|averia|caída|caida|error|retraso)(?!(?: \\S+){0,3} hasta)',
      '(?:hacía|hace) (?:\\S+ ){0,2}(?:años|meses|tiempo|mucho) que no (?:me |nos )?(?:atendían|atendieran|trataban|trataran|ayudaban|ayudaran|explicaban|resolvían) (?:tan bien|así de bien|tan rápido)',
      'nadie (?:me |nos )?(?:ha|había|habían|han) (?:atendido|tratado|ayudado|explicado) (?:tan bien|así de bien|como usted|como tú|como vos)',
      // Mejor que nunca: "con la compañía anterior nunca me atendieron tan bien como ustedes".
      'nunca (?:me |nos )?(?:atendieron|atendían|atendió|han atendido|habían atendido|trataron|trataban|han tratado|ayudaron|han ayudado) (?:tan bien|así de bien|mejor)',
      // Sin averías desde el arreglo, en cualquier orden: "no he tenido ni un solo corte desde que cambiaron el router".
      'no (?:he|hemos|ha|han) (?:vuelto a tener|tenido|sufrido|notado) (?:ni )?(?:un solo|una sola|ni un|ni una|ningún|ninguna|un|una) (?:corte|problema|fallo|incidencia|avería|averia|caída|caida|error|microcorte)s? desde',
      // Fidelidad: "no me cambiaría de compañía por nada".
      'no (?:me )?(?:cambiaría|cambiaríamos|cambio|iría|iríamos|voy|vamos)(?: \\S+){0,3} por nada',
      // Un rescate: "me salvó el día", "nos salvaste la vida".
      '(?:me|nos) (?:salvó|salvaste|salvaron|salvó usted|ha salvado|has salvado|han salvado|salvás|salva) (?:el día|la vida|la semana|la noche|el pellejo)',
      // Una recomendación o un premio deseado: "los recomendaría sin dudarlo", "se merece un aumento".
      '(?<!no )(?:los|las|la|lo|le|les) (?:recomiendo|recomendaría|recomendaré|recomendamos|he recomendado) (?:a (?:todo el mundo|todos|cualquiera|mis \\S+|amigos|familiares)|sin dudarl[oa]|sin dudar|totalmente|100|al cien)',
      '(?:se merece|se merecen|merece|merecen) (?:un|una) (?:aumento|ascenso|premio|medalla|felicitación|reconocimiento)',
    ],
  },
  {
    act: 'complaint',
    value: -3,
    patterns: [
      // Un elogio negado: "no puedo decir que me hayan ayudado".
      'no (?:puedo|podría|podemos) decir que (?:\\S+ ){0,3}(?:ayudado|resuelto|solucionado|servido|atendido bien|content[oa]s?|satisfech[oa]s?)',
      // Holdout7: el límite dicho al final ("…y que nadie me diga nada en dos semanas ya es demasiado").
      '(?:ya )?(?:es|son|fue|esto es|eso es) (?:demasiado|el colmo|pasarse)(?= \\||$)',
      // Sentirse ignorado: "no siento que nadie me esté escuchando", "nadie me toma en serio".
      '(?:no (?:siento|veo|noto) que )?nadie (?:me |nos )?(?:está |esté |están |estén )?(?:escuchando|escucha|escuche|hace caso|haga caso|toma en serio|tome en serio|tomando en serio|atiende|atienda|atendiendo)',
      // Un elogio de lo trivial: "lo único que funciona bien en su empresa es la música de espera".
      'lo único que (?:funciona|sirve|llega a tiempo|anda)',
      '(?:marca|marcan|cobra|cobran|factura|facturan|me cobraron|me cobran) (?:\\S+ )?(?:el doble|el triple)',
      'así no (?:se puede|podemos|puedo) (?:seguir|continuar|trabajar|vivir)',
      'no (?:me |nos )?(?:lo |la )?(?:ha |han |había |habéis )?(?:servido|sirve|sirvió|funcionado|funcionó|ayudado|ayudó|ayudaron|arreglado|arregló|arreglaron|solucionado|solucionó|solucionaron|resuelto|resolvió|resolvieron)',
      // Does not go, load, open: "no anda", "no carga", "no va" (not "no va a venir").
      'no (?:me |nos |le )?(?:carga|cargan|abre|abren|conecta|enciende|arranca|anda|jala|tira|va)(?! a(?: |$))',
      'no (?:me |nos )?deja (?:ni )?(?:entrar|llamar|conectar|conectarme|acceder|usar|pagar|navegar|hacer|ver)',
      // Faults that recur: "se me congela", "el wifi se desconecta a cada rato".
      'se (?:me |nos |le )?(?:congela|congeló|cuelga|colgó|bloquea|bloqueó|traba|trabó|reinicia|reinició|apaga|apagó|desconecta|desconectó|queda pillad[oa]|queda colgad[oa]|queda sin|quedó sin|queda en negro)',
      '(?:la señal|la conexión|el internet|la luz|la línea|el wifi|la red|la cobertura|la llamada|el servicio|la fibra) se (?:me |nos )?(?:va|fue|ha ido)',
      // Money taken twice: "me pasaron el recibo dos veces".
      '(?:cobrado|cobraron|cobran|cobró|pasaron|pasado|pasó|cargaron|cargado|cargó|descontaron|quitaron|facturado|facturaron) (?:\\S+ ){0,3}(?:dos veces|doble|por duplicado)',
      // El tercero de cualquier cosa: "es el cuarto router en dos meses".
      // Una fecha ("el quinto", "el tercero de mayo") no es una queja: debe seguir un nombre.
      '(?:el|la|es el|es la|mi|un|una) (?:tercer[oa]?|cuart[oa]|quint[oa]|sext[oa]|enésim[oa])(?= (?!(?:piso|planta|parte|de|del|dígito|número|letra|opción|a|en|o|y|por|para|sin|con|\\|)(?: |$))\\S)',
      // Lo que tardaron: "tardaron tres semanas en contestarme".
      `(?:tardaron|tardasteis|han tardado|habéis tardado|tardó|ha tardado|tardaste) (?:\\S+ ){0,2}(?:${ES_UNITS}|un mes|una semana|una hora|un día|un año|una eternidad|siglos)`,
      'pero no (?:tengo|he recibido|me ha llegado|me llegó|hay) nada',
      // Servicio cortado: "me cortaron la línea", "nos han dado de baja".
      '(?:me|nos) (?:han |habéis |ha )?(?:cortado|cortaron|cortó|cortan|suspendido|suspendieron|desconectado|desconectaron|dado de baja|dieron de baja|dio de baja)',
      '(?:me|nos) (?:tienen|tiene|tenéis) (?:hart[oa]s?|aburrid[oa]s?|cansad[oa]s?|frit[oa]s?|loc[oa]s?|desesperad[oa]s?)',
      '(?:ya )?no (?:aguanto|soporto|puedo) más',
      'hasta (?:el gorro|la coronilla|el moño)',
      'que no (?:era|eran|tocaba|correspondía)(?= \\||$)',
      '(?:dirección|casa) (?:vieja|antigua|anterior|equivocada)',
      'de un (?:lado|sitio|departamento) (?:a|para) otro|me (?:pasan|pasaron|van pasando|están pasando|pasáis) de',
      'no (?:llego|llegamos|llegué) a (?:ningún|ningun) (?:sitio|lado)',
      'nunca (?:me |nos )?(?:contesta|contestan|responde|responden|atiende|atienden|coge|cogen|llama|llaman|vuelven|vienen|devuelven)',
      'nadie (?:me |nos )?(?:devuelve|devuelven|vuelve a llamar)',
      // Lo que se esperaba y no pasa: "el seguimiento no se actualiza desde hace una semana".
      'no (?:se |me |nos )?(?:lo |la )?(?:ha |han |he )?(?:actualiza|actualizado|actualizó|mueve|movido|enviado|envían|mandado|mandan|aplicado|aplica|aplicó|devuelto|devuelven|devolvió|activado|activan|conectado|instalado|instalan|reparado|reparan|contestado|contestan|contestó|responden|respondido|respondió|tramitado|ingresado|abonado)',
      '(?:no (?:lo |la )?reconozco|no (?:lo |la )?reconocemos)',
      // Suerte irónica: "con suerte me llegan diez".
      '(?:con|si hay|con mucha) suerte (?:me |nos )?(?:llegan?|tengo|funciona|me dan|va)',
      // El tiempo perdido: "esto me ha quitado toda la mañana".
      'me (?:ha |han )?(?:quitado|hecho perder|costado|fastidiado) (?:toda |la |el |todo )?(?:la )?(?:mañana|tarde|noche|semana|día|fin de semana)',
      '(?:la )?misma historia|lo mismo de siempre|más de lo mismo|siempre (?:es |pasa )?lo mismo',
      '(?:estuve|he estado|estoy|estaba|estuvimos|hemos estado) (?:\\S+ ){0,4}(?:en espera|esperando|al teléfono)',
      'no hay (?:manera|forma|quien)',
      '(?:me|nos) (?:lo |la |los |las )?(?:han quitado|quitaron|han sacado|sacaron|han cogido|cogieron|han descontado|descontaron)(?! (?:el|la|los|las) (?:recargo|penalización|permanencia|cargo|cobro))',
      'nadie (?:me |nos )?(?:ha |han )?(?:de verdad |realmente )?(?:llamado|llama|llamó|da|dio|sabe|contesta|contestó|responde|hace|hizo|hace caso|avisó|ayuda|vino)',
      'me (?:lo|la|los|las) (?:han cobrado|cobran|cobraron|están cobrando|siguen cobrando)',
      '(?:pago|pagando|pagar|cobran|cobrando) más',
      'no (?:me|nos) (?:gusta|gustó|ha gustado)',
      'no sé a quién (?:llamar|acudir)',
      'no (?:paran|para|dejan|deja) de',
      '(?:y|pero) nada(?= \\||$)',
      'cuántas veces(?: más)?',
      'no (?:\\S+ ){0,2}recomendaría',
      'no (?:me |nos )?(?:ha |han )?(?:sirve|sirvió|servido) (?:de|para) nada',
      '(?:llevo|llevamos) (?:\\S+ ){0,3}(?:esperando|sin|en espera)',
      // Lo que el cliente no puede hacer con lo que paga: "ahora no puedo entrar".
      'no (?:puedo|podemos|pude|he podido|consigo|logro) (?:entrar|acceder|conectarme|conectar|usar|utilizar|navegar|iniciar sesión|llamar)',
      `(?:la )?${ES_ORDINALS} vez`,
      '(?:dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|varias|muchas|mil) (?:veces|personas)',
      'nunca (?:me|nos) (?:\\S+ )?(?:devuelven|llaman|llamaron|contestan|avisan|ayudan|dicen)',
      '(?:nadie|nunca) me (?:\\S+ )?(?:avisó|avisa|avisaron|llama|llamó|llamaron|devuelve|devuelven|devolvió|contesta|contestan|contestó|ayuda|ayudó|ayudan|dijo|dice|explicó|atiende|atendió|resuelve|soluciona|hace caso)',
      // Holdout6: sin que nadie informe ("nadie de la aerolínea nos dijo nada", "nadie ha dicho nada").
      'nadie (?:\\S+ ){0,3}(?:me |nos |le |les )?(?:ha |han |había |habían )?(?:dicho|dijo|dice|explicado|explicó|informado|informó|avisado|avisó|comentado|comentó) (?:nada|ni una palabra|ni pío|por qué|cuándo)',
      // Esfuerzo en el tiempo: "llevo desde marzo intentando cerrar la cuenta".
      '(?:llevo|llevamos) (?:\\S+ ){0,3}(?:intentando|tratando|pidiendo|reclamando|llamando)',
      // Sin servicio donde se paga: "en mi propia cocina no agarra señal", "sin cobertura en casa".
      '(?<!(?:si|que|cuando) )no (?:me |le )?(?:agarra|agarran|tiene|tengo|hay|llega|capta|coge|entra|da) (?:\\S+ )?(?:señal|cobertura|tono)|(?<!(?:si|que|cuando) )sin (?:nada de )?(?:señal|cobertura)',
      'no se presentó|no vino|no ha llegado|no me ha llegado|no he recibido',
      // Enviado al sitio o a la persona equivocada: "la factura de otra persona", "se entregó en otro código postal".
      'de otr[oa] (?:persona|cliente|titular|señor|señora)',
      '(?:entregó|entregaron|entregado|entregada|mandaron|mandado|enviaron|enviado|llegó) (?:\\S+ ){0,3}(?:a|en) (?:otr[oa]|la dirección equivocada|una dirección equivocada)',
      '(?:vino|vinieron|llegó|llegaron|se presentó|se presentaron|apareció|aparecieron) (?:\\S+ ){0,3}sin',
      'ningun[oa] (?:de ellos |de ellas )?(?:lo |la )?(?:ha |han |pudo|supo|consiguió|sabe)',
      'no (?:hizo|hicieron|ha hecho|han hecho|hace|hacen) nada',
      '(?:me|nos) (?:echa|echó|saca|sacó|expulsa|expulsó) (?:de la )?(?:\\S+ )?(?:cada|todo el rato|a cada rato|cada dos por tres)',
      'cada (?:\\S+ )?(?:minutos|segundos|horas)',
      'no (?:entiendo|comprendo) (?:por qué|cómo)',
      'al límite|(?:se me (?:acaba|agota|ha acabado|ha agotado)|he perdido|estoy perdiendo) la paciencia|es el colmo',
      'vaya tela|manda narices|qué fuerte',
      '(?:todavía|aún) no (?:\\S+ ){0,2}(?:ha llegado|he recibido|funciona|está arreglado|me han)',
      // Seguir sin, in any person: "sigo sin poder llamar", "seguimos igual", "sigue igual de mal".
      '(?:sigo|sigue|seguimos|siguen|seguía|seguían|continúa|continúo) (?:sin|igual|(?:\\S+ )?mal)',
      '(?:todo|el problema|la avería|esto|eso) (?:sigue|está) (?:igual|como estaba)',
      // Sin servicio: "otra vez sin internet", "no tengo ni línea".
      '(?:sin|no (?:tengo|tenemos|hay)(?: ni)?|ni) (?:internet|línea|servicio|conexión|señal|cobertura|teléfono|wifi|fibra|televisión|tele|luz|tono|datos|agua|gas|calefacción)',
      'me (?:siguen|están) cobrando',
      '(?:cobrado|cobraron|cobran|cobrar) (?:dos veces|de más|otra vez|doble)',
      // "me cobraron de más", not "pedidos de más de cincuenta euros".
      'de más(?! de)',
      'sin avisar|sin previo aviso',
      'se (?:me |nos )?(?:corta|cortó|ha cortado|cae|cayó|ha caído|cierra|cerró)',
      // Una amabilidad que llega tarde: "un mes después de mi queja", "tres semanas tarde".
      `(?:${ES_UNITS}|un mes|una semana|un año|una hora) (?:tarde|más tarde|después de (?:mi |la |que )?(?:queja|reclamación|llamada|reclamar|llamar|avisar|pagar))`,
      'me colgó|me colgaron',
      // "Vuelve a fallar", not "vuelve a funcionar" or "vuelve a tener internet" (see remedy).
      '(?:vuelve|volvieron|ha vuelto|han vuelto) a(?! (?:funcionar|tener|ir bien|andar|estar (?:bien|activ\\S*|operativ\\S*|conectad\\S*|normal)|conectar|cargar))',
      '(?:talla|dirección|producto|modelo) equivocad[oa]',
      '(?:una cosa|algo) distint[oa]',
      'me (?:dijo|dijeron|dice|dicen|ha dicho) lo mismo',
      'yo no pedí|no pedí',
      'no es suficiente|no es justo|no es lo que',
      // Una promesa que el cliente repite es casi siempre una promesa incumplida ("gratis", "la mejor
      // tarifa" es lo prometido, no lo que pasó).
      // Accents folded, "me aseguró que" (they assured me) and "me aseguro de que" (I make sure) meet.
      'me (?:prometieron|prometió|prometiste|prometisteis|habían prometido|había prometido|aseguraron|aseguró|garantizaron|garantizó|juraron|juró)(?! de)',
      'me (?:dijeron|dijo|dijiste|habían dicho|había dicho) que (?:\\S+ ){0,3}(?:\\S+rían?|\\S+ía|\\S+ían|era|eran|iba|iban|estaba|estaban)',
      '(?:se suponía|supuestamente|tenía que|tendría que haber|debería haber|debía)',
      // "tres horas al teléfono para nada", no "no me molesta para nada".
      '(?:horas|minutos|días|semanas|tiempo|esperando|pagando|pagado|teléfono|dinero) (?:\\S+ ){0,2}para nada',
      'no (?:me |nos )?(?:aparece|aparecía|ha aparecido|se (?:ha )?aplicado|se aplicó)',
      'nunca (?:apareció|llegó|se aplicó|vino)',
      '(?:estaba|estábamos|era|éramos|iba|funcionaba|funcionó|fue) (?:muy |bastante |todo )?(?:content[oa]s?|satisfech[oa]s?|feliz|felices|buen cliente|cliente fiel|bien|genial|perfecto|estupendo)(?: \\S+){0,5} hasta',
      '(?:cuesta|cuestan|costar|pago|pagando|pagar|cobran|cobrando|cobrar|vale) (?:\\S+ ){0,2}(?:el doble|el triple)',
      '(?:me|nos) (?:bajan|bajaron|han bajado|reducen|redujeron|limitan|limitaron) la velocidad',
      '(?<=\\| )(?:decían|dicen|dijeron|me dijeron|decía|dijo|según dicen|supuestamente|al parecer|por lo visto)(?= \\||$)',
      '(?:se anunciaba|se anuncia|anunciad[oa]|vendid[oa]) como|(?:anuncian|anunciaban|anunciaron|publicitan)|(?:el anuncio|la oferta|la web|la publicidad|el folleto) (?:decía|dice|ponía|pone)',
      'gratis (?:\\S+ ){0,8}(?:pagué|pagado|pagar|cobrado|cobran|cobraron|cobrar|facturado|facturaron|costó|cuesta|cargo)',
      'gratuit[oa] (?:\\S+ ){0,8}(?:pagué|pagado|cobrado|cobran|cobraron|facturado|costó|cargo)',
      'pagando por (?:un |una |el |la )?(?:\\S+ )?(?:gratis|gratuit[oa])',
      '(?:más car[oa]s?|más lent[oa]s?|peor|peores) que (?:antes|lo que|el|la|mi|mis|lo)',
      'ni siquiera',
      '(?:su|la|el|mi|esa|ese) supuest[oa]',
      '(?:me|nos) (?:han fallado|fallaron|falló|ha fallado|habéis fallado)',
      '(?:doblado|doblaron|duplicado|duplicaron|triplicado) (?:la|el|mi)',
      // A price that went up, not "me subió la heladera al tercer piso" (carried it up).
      '(?:precio|precios|tarifa|tarifas|cuota|cuotas|factura|facturas|recibo|recibos|mensualidad|importe|prima|luz|gas|seguro)(?: \\S+){0,3} (?:subió|ha subido|han subido|subieron|sube|suben)',
      '(?:subió|ha subido|han subido|subieron|me suben|me subieron|nos suben|nos subieron|me han subido|nos han subido|me subió|nos subió|me sube|nos sube) (?:\\S+ )?(?:el |la |los |las |mi |mis )?(?:precio|precios|tarifa|cuota|factura|recibo|mensualidad|importe|prima|luz|gas|seguro)',
      '(?:me |nos )?(?:subió|ha subido|han subido|subieron|suben|han subido)(?= \\||$| otra| de nuevo| sin| un| el doble| más)',
      '(?:se ha|se han|se) disparad[oa]s?|se disparó|por las nubes',
      '(?:que )?no (?:acepté|autoricé|pedí|contraté)|sin (?:mi permiso|preguntar|mi consentimiento|avisarme)',
      '(?:estaba|estábamos|era|éramos|fui|he sido) (?:un |una )?(?:muy |bastante )?(?:cliente )?(?:content[oa]s?|satisfech[oa]s?|feliz|felices|fiel)(?: \\S+){0,5} hasta',
      'nunca (?:volvió|volvieron|llamó|llamaron|contestó)',
      'nunca (?:(?:me|nos) )?(?:lo |la |los |las )?(?:enviaron|mandaron|enviasteis|abonaron|devolvieron|llegó|aplicaron|aplicó|activaron|hicieron|dieron|pusieron|instalaron|arreglaron|solucionaron)',
      'esperaba (?:más|mejor|otra cosa)',
      // Lo que se esperaba y no llegó: "esperaba que me llamaran"; un pasado mejor: "antes funcionaba bien".
      'esperaba que (?:\\S+ ){0,4}\\S+(?:ría|rían|ara|aran|iera|ieran)',
      'antes (?:\\S+ ){0,2}(?:iba|funcionaba|era|estaba|me encantaba|me gustaba) (?:\\S+ )?(?:bien|genial|perfect[oa]|rápid[oa]|estupend[oa]|fiable|mejor)',
      'se supone que (?:yo |nosotros )?(?:tengo|tenía|tenemos|me|nos)',
      '(?:factura|precio|cuota|recibo)s? (?:es|está|son|era|ha sido) (?:\\S+ )?(?:más alt[oa]|más car[oa])',
      // Pedir solo lo normal dice que no lo hay: "solo quiero que funcione", "lo único que pido".
      '(?:solo|sólo) (?:quiero|queremos|pido|pedimos) que (?:\\S+ ){0,4}(?:funcione|vaya bien|esté bien|lo arreglen|me lo arreglen)',
      'lo único que (?:pido|quiero|pedimos|queremos)',
      // Dejar de, in any tense: "luego dejó de ir", "ha dejado de funcionar".
      '(?:dejó|deja|ha dejado|dejaron|han dejado|dejaba) de (?:funcionar|ir|andar|cargar|conectar)',
      // …y de mandar, enviar, leer, recibir: "el contador dejó de mandar lecturas".
      '(?:dejó|deja|ha dejado|dejaron|han dejado|dejaba) de (?:mandar|enviar|leer|recibir|dar señal|marcar|registrar|responder|contestar)',
      // La fidelidad castigada: "a los clientes nuevos les dan mejor precio que a mí".
      // Menos de lo pagado o prometido: "la instalación gratuita me acabó costando sesenta euros".
      '(?:acabó|acaba|terminó|termina|ha acabado|ha terminado) (?:\\S+ )?(?:costando|costándome|cobrándome|saliendo por)',
      // Lo ofrecido, tomado como ofensa: "su mejor oferta es una burla".
      '(?:es|son|me parece|me parecen|eso es) (?:una )?(?:burla|broma de mal gusto|falta de respeto|tomadura de pelo|vergüenza|insulto|un insulto|un chiste|una estafa|un robo)',
      // Nada cambia: "todos me piden perdón pero nada cambia".
      // No "tranquilo, para usted no cambia nada" (tranquilidad): solo tras "pero" / "y", o con "nunca".
      '(?:(?:pero|y|y aun así|y aún así) (?:nada cambia|no cambia nada|nada se soluciona|no se soluciona nada)|nunca cambia nada|nunca se soluciona nada)(?= \\||$)',
      '(?:clientes nuevos|nuevos clientes|los nuevos) (?:les )?(?:dan|dais|tienen|reciben|consiguen|pagan|les dan|les hacen|les ofrecen|se llevan)',
      'así (?:es como )?(?:me|nos) (?:tratan|trata|tratáis|tratas)',
      // Pagar por una cosa y recibir menos: "pago por cien megas y me llegan cinco".
      '(?:pago|pagamos|pagando|pagué|pagar) (?:por )?(?:\\S+ ){0,4}y (?:solo |sólo )?(?:me llegan?|recibo|tengo|me dan|llegan?)',
      `ya van (?:\\S+ ){0,2}(?:llamadas|veces|técnicos|${ES_UNITS})`,
      // El tiempo contado entero o puesto a una tarea simple: "tres semanas enteras", "tres semanas
      // para mandar un correo".
      `(?:${ES_UNITS}) (?:enter[oa]s|complet[oa]s)|(?:un|una) (?:semana|mes|día|hora|mañana|tarde) (?:enter[oa]|complet[oa])`,
      `(?:dos|tres|cuatro|cinco|seis|diez|quince|veinte|treinta|varias|\\d+) (?:semanas|meses|${ES_UNITS}) (?:para|en) (?:mandar|enviar|contestar|responder|devolver|cambiar|arreglar|dar de baja|activar|llamar)`,
      // El cliente haciendo el trabajo de la empresa: "he tenido que explicarlo todo desde el principio".
      '(?:he tenido|tuve|hemos tenido|tuvimos|tengo) que (?:volver a )?(?:explicar|repetir|reclamar|insistir|perseguir)',
      // Paciencia concedida hasta un límite: "encantado de esperar, pero no tres semanas".
      `pero no (?:\\S+ )?${ES_UNITS}`,
      '(?:tomando|tomar|toman|tomáis|tomen) el pelo',
      'no es normal|no es lógico|no hay derecho',
      // Incredulity: "no me puedo creer lo que tarda", "ya no me creo nada".
      'no (?:me )?(?:lo )?(?:puedo|podía) creer|ya no (?:me )?creo',
      'nunca (?:recibí|recibimos|he recibido|me llegó|nos llegó)',
      // Preguntas retóricas: "¿cómo es posible que…?", "¿tan difícil es…?", "¿de qué me sirve…?".
      'cómo es posible|tan difícil es|(?:de|para) qué (?:me |nos )?sirve|para qué (?:pago|estoy pagando)',
      'uno pensaría|cualquiera pensaría',
      // "Me tratan así", not "me trataron como a una reina".
      '(?:me|nos) (?:tratan|trata|tratáis|tratan ustedes) así|(?:tratad[oa]s?|tratarme|tratarnos) así|como a un (?:número|idiota|tonto)',
      'lo único (?:bueno|que funciona)',
      '(?:tengo|tendré|tuve|he tenido) que pagar(?:lo|la|los|las)? (?:\\S+ ){0,2}yo|de mi bolsillo',
      '(?:pagar|pagando|pago|pagué|pagado) por nada',
      // "Ya ni me molesto en llamar": given up.
      'ya ni (?:me molesto|llamo|lo intento|contestan|funciona|sirve)|ni (?:me|nos) molesto|ni una (?:sola )?vez (?:me|nos) (?:han|ha)',
      // Contrafáctico: "sería un buen precio si funcionara" dice que no funciona.
      // ("Si me llamaran mañana, sería perfecto" es una petición: las personas necesitan "de verdad".)
      'si (?:de verdad |al menos |por lo menos )?(?:funcionara|funcionase|fuera bien)|si (?:de verdad|al menos|por lo menos) (?:viniera|vinieran|contestaran|llamaran|cumplieran)',
      '(?:he tenido|he visto|tuve) (?:un |una )?mejor (?:\\S+ )?(?:en|de|con)',
      '(?:siguen|sigue|seguís|siguen ustedes) (?:diciendo|diciéndome|mandando|prometiendo|pidiendo)',
      '(?:hace|hacía|haga|hiciera|da|dé) gracia|(?:le|te|os|les) parece (?:gracioso|divertido)',
      'me encantaría saber (?:por qué|cómo|qué)',
      '(?:factura|precio|recibo|cuota)s? (?:se ha |se han |ha |han )?(?:doblado|duplicado|triplicado)',
      '(?:me gustaba más|prefería|era mejor) (?:\\S+ ){0,2}(?:anterior|antigu[oa]|de antes)',
      '(?:tenía|tenía muchas|tenía puestas) esperanzas|esperaba mucho',
      'qué (?:van|vais|piensan|piensa) a hacer(?= \\||$| al respecto| con esto| con eso)|y ahora qué(?= \\||$)',
      // Now the bad news comes out: "ahora resulta que el técnico no viene".
      'ahora resulta que|resulta que ahora',
      'no (?:viene|vendrá|va a venir|vinieron|han venido)',
      'a ver si (?:esta vez|por fin|de una vez|ahora sí)',
      // "Eso no me paga la factura": a word of regret weighed and found wanting.
      '(?:eso|lo siento|sentirlo|una disculpa|las disculpas) no (?:me |nos )?(?:paga|arregla|soluciona|devuelve|sirve)',
      // Holdout8: la disculpa que no sirve de nada ("no me sirve de nada que me pidan perdón", "de qué me
      // sirven sus disculpas"): una queja, no la cortesía de quien pide perdón.
      '(?:no (?:me |nos )?(?:sirve|sirven) de nada|de nada (?:me |nos )?(?:sirve|sirven)|de qué (?:me |nos )?(?:sirve|sirven)) (?:que (?:me |nos )?(?:pidan|pida|pidas|digan|diga|digas) (?:perdón|perdon|disculpas|lo siento)|(?:sus|tus|las|una|su|tanta|tantas) (?:disculpas|disculpa|perdón))',
      // Holdout8: un caso cerrado sin hacer nada ("me lo cerraron como resuelto sin hacer nada", "lo
      // dieron por solucionado y sigo igual").
      '(?:cerraron|cerró|cerrado|marcaron|marcó|dieron|dio|dado|pusieron|puso)(?: \\S+){0,3} (?:como|por) (?:resuelt[oa]|solucionad[oa]|cerrad[oa]|arreglad[oa]|terminad[oa]) (?:sin|y|pero)(?: \\S+){0,2} (?:hacer|haber hecho|arreglar|resolver|solucionar|nada|sigo|seguimos|sigue|todavía|aún)',
      // Probe batch 4. Lo empeoraron: "muchas gracias, ahora está peor".
      '(?:está|esta|va|funciona|anda) (?:aún |todavía |mucho |incluso )?peor',
      // Un fallo que va y viene: "se cae y se levanta todo el día".
      'se (?:cae|corta|va) y (?:se )?(?:levanta|vuelve|viene)|(?:va|viene) y (?:va|viene)',
      '(?:la |el )?mism[oa] (?:avería|falla|fallo|problema|error|incidencia)(?= |$)',
      // Una factura que se dispara: "es el doble que la anterior".
      '(?:el|es el|del) (?:doble|triple) (?:que|de lo que|de la)',
      // Un cargo no autorizado: "un cargo que yo no he autorizado".
      // Not what the agent has just taken off ("ya di de baja la línea que no había pedido", holdout8):
      // that is a remedy (below).
      '(?<!(?:quité|quitamos|he quitado|hemos quitado|di de baja|dimos de baja|dado de baja|anulé|anulamos|anulado|cancelé|cancelamos|cancelado) (?:\\S+ ){1,4})que (?:yo |nosotros )?(?:no|nunca) (?:he |hemos |había )?(?:autorizado|autoricé|pedido|pedí|contratado|contraté|solicitado|solicité)',
      // Pedir con cortesía lo que debería ser normal: "le agradecería que esta vez alguien lo arreglara".
      '(?:agradecería|agradeceríamos|estaría bien|sería un detalle) que (?:\\S+ ){0,6}(?:esta vez|por una vez|de una vez|de verdad|dejaran|dejasen|dejen)',
      'por una vez(?= \\||$)',
      'dej(?:aran|asen|en|ara|ase|e) de (?:cobrar|mandar|llamar|enviar|cortar)',
      // "Me encanta que nadie lea mis notas": elogio cuyo objeto es un fallo.
      '(?:me encanta|me gusta|qué bonito|qué bien|qué gracia) (?:que|cómo|como) (?:\\S+ ){0,2}(?:nadie|nunca|nada|sigan|siga|sigáis|vuelvan|me sigan|me vuelvan|me cobren)',
      '(?:no|nunca) (?:consigo|logro|puedo|conseguí) (?:\\S+ )?(?:hablar|contactar|comunicarme) con nadie',
      '(?:respuestas|versiones|explicaciones|precios) (?:distint[oa]s|diferentes)',
      '(?:dar|dando|da|dan) vueltas|en círculos?',
      // La espera anunciada sin fin: "espero otras dos semanas", "tres horas esperando".
      '(?:espero|esperar|esperando|esperamos|seguir esperando) (?:otr[oa]s?|un[oa]s? \\S+ más) (?:\\S+ )?(?:semanas?|días|meses|horas|mes|quincena)',
      `(?:dos|tres|cuatro|cinco|seis|diez|veinte|treinta|cuarenta|cincuenta|\\d+|varias|tantas) (?:${ES_UNITS}) (?:esperando|en espera|a la espera|al teléfono)`,
      'a seguir esperando|(?:ya )?(?:pasó|paso|ha pasado|pasaron|han pasado) (?:un|una|más de un|más de una|\\S+) (?:mes|semana|meses|semanas)(?= \\||$| y)',
      'tampoco (?:puedo|me funciona|funciona|me va|va|tengo|me deja|carga)',
      'gracias por (?:\\S+ ){0,2}por fin',
      'está claro que no(?= \\||$)',
      // Lote 7. "Con todo respeto, …" anuncia un desacuerdo.
      '(?:con|con todo|con todo el|con el debido|con el mayor) respeto(?= \\||$| pero)',
      // Lo ya oído o ya pasado: "ya me lo han dicho dos veces", "ya van tres veces".
      '(?:dos|tres|cuatro|cinco|varias|muchas) veces ya|ya (?:\\S+ ){0,3}(?:dos|tres|cuatro|cinco|varias|muchas) veces',
      // Rápidos solo para cobrar: "para cobrar bien rápidos que son".
      'para cobrar (?:\\S+ )?(?:rápid[oa]s?|rapidit[oa]s?|list[oa]s?|puntuales|los primeros)|(?:rápid[oa]s?|list[oa]s?) (?:para|a la hora de) cobrar',
      '(?:empezar|empiece|empezamos|volver a empezar) (?:todo )?(?:de nuevo|de cero|desde cero|desde el principio|otra vez)',
      // La consecuencia impuesta: "o sea que ahora tengo que esperar una carta".
      'o sea que (?:ahora )?(?:tengo|tenemos|me toca|nos toca) (?:que )?(?:esperar|empezar|llamar|pagar|reclamar|ir|mandar|explicar)',
      // Elogio con condición irónica: "una atención estupenda si le sobran tres horas".
      'si (?:te|le|os|les) (?:gusta|gustan|sobra|sobran|encanta|encantan|da igual|importa) (?:\\S+ ){0,3}(?:esperar|horas|robots|pagar|espera)',
      '(?:qué curioso|qué casualidad|qué raro|qué gracioso|curioso) (?:que|cómo|como)',
      // Lo cancelado que sigue: "el contrato que cancelé sigue activo".
      '(?:sigue|siguen) (?:activ[oa]s?|abiert[oa]s?|cobrando|pendientes?|en la factura)',
      // Probe batch 5.
      '(?:ha |han )?(?:vuelto|devuelto) al (?:almacén|remitente|centro de reparto)',
      '(?:me |nos )?(?:han|ha) (?:bloqueado|suspendido|congelado) (?:la|el|mi) (?:cuenta|tarjeta|línea|teléfono|móvil)',
      '(?:cuenta|tarjeta|línea) (?:bloqueada|suspendida|congelada)',
      'sorpres(?:a|ita) en (?:la|mi) (?:factura|cuenta|recibo)',
      '(?:le |les )?agradezco (?:\\S+ )?que me (?:tengan|dejen|hagan|cobren|cuelguen|tengáis)',
      'manera de tratar a|forma de tratar a|trato para un cliente',
      'estaría (?:encantad[oa]|content[oa]|feliz) (?:si|de que) (?:\\S+ ){0,6}(?:de verdad|por una vez|esta vez|alguna vez)',
      'es (?:mucho|demasiado) pedir',
      '(?:una|media) hora (?:en espera|esperando|al teléfono)',
      '(?:me|nos) (?:echa|echó|expulsa|expulsó) (?:de|a mitad)',
      'no (?:puede|pueden|podrá|podrán) venir hasta',
      '(?:me han|me habían|nos han) (?:atendido|tratado) mejor',
      'no es tan difícil(?= \\||$)',
      // Enviado adonde no puede llegar: "el reembolso ha ido a una cuenta que cerré".
      '(?:cuenta|tarjeta|dirección|número) que (?:ya )?(?:cerré|cerramos|cancelé|cancelamos|di de baja|dimos de baja|ya no (?:tengo|uso|existe))',
      // Lote fresco 5. Un aparato que avisa de avería: "el router tiene la luz roja encendida".
      '(?:luz|luces|piloto|led|lucecita)(?: \\S+)? (?:roja|rojas|naranja|ámbar)|parpade(?:a|ando) en (?:rojo|naranja)|(?:luz|piloto) de (?:error|avería|fallo)',
      // Parado desde hace días: "mi pedido lleva once días en estado procesando".
      `lleva(?:n)? (?:\\S+ ){1,3}${ES_UNITS} (?:en|sin|esperando|igual|parad[oa]s?|pendientes?|atascad[oa]s?)`,
      'no (?:podía|pudo|pudieron|podían|supo|sabía|sabían|supieron) (?:arreglar|solucionar|reparar|resolver|hacer nada)',
      'no sé (?:ni )?(?:para qué|por qué) (?:me molesto|llamo|pago|sigo)',
      '(?:una cosa|algo|otra cosa) (?:totalmente |completamente |muy )?distint[oa]',
      '(?:solo|sólo) (?:me |nos )?(?:manda|envía|dice|pone|da|mandan|envían|dicen|ponen|dan) (?:\\S+ ){0,4}mism[oa]s?',
      'sin (?:ninguna |ningún |una |ni una )?(?:explicación|justificación)',
      // Una promesa fechada: "…en cuarenta y ocho horas estaría arreglado, y eso fue la semana pasada".
      'y eso (?:fue|era) (?:la semana pasada|el mes pasado|ayer|antes de ayer|anteayer|hace|el (?:lunes|martes|miércoles|jueves|viernes|sábado|domingo))',
      'que (?:me|nos) (?:dieron|dio|disteis|han dado|ha dado|dio usted) (?:\\S+ ){0,3}no (?:existe|funciona|vale|sirve|aparece)',
      // Lote 8: "funcionaba perfectamente hasta la actualización", "lo mejor que me ofrecen son cinco euros".
      '(?:funcionaba|iba|andaba|estaba|era) (?:\\S+ )?(?:bien|perfectamente|perfect[oa]|genial|de maravilla|fenomenal|content[oa]) hasta',
      'lo mejor que (?:me |nos )?(?:pueden|puede|podéis|ofrecen|ofrece|ofrecéis|saben|sabe)',
      'lo único que (?:\\S+ ){0,2}(?:hacen|hacéis|hace|sabéis|saben|sabe) (?:bien|hacer bien)',
      'cuando (?:\\S+ )?(?:consigue|logra|se digna|se dignan|por fin|al fin|de verdad)',
      '(?:(?:lo siento|perdón|una disculpa|disculpas) )?(?:habría|hubiera|hubiese) (?:estado|sido) (?:bien|un detalle|de agradecer|bonito|lo suyo)',
      '(?:la culpa es|la culpa la tiene|la culpa será) (?:del cliente|de los clientes|mía|nuestra)',
      '(?:buena )?suerte (?:para|con|intentando|consiguiendo|tratando de|encontrando) (?:conseguir|que|encontrar|hablar|contactar|alguien|a alguien|quien)',
      'pero (?:\\| )?dónde (?:está|están) (?:mi|mis|el|la)',
    ],
  },
  {
    act: 'expectation',
    value: -3,
    patterns: [
      '(?<!(?:como|que|no) )(?:pensaba|creía|pensé|creí|esperaba) que (?:\\S+ ){0,4}(?:\\S+ría|\\S+rían|iba|iban)',
    ],
  },
  {
    // Holdout8 (la misma construcción que en inglés): el miedo que ya pasó ("me daba pánico llamar",
    // "ya no sabía a quién llamar"): junto a un agradecimiento o un elogio es alivio; si no, agrio.
    act: 'dread',
    value: -3,
    patterns: [
      '(?:me daba|me dio) (?:mucho |tanto )?(?:miedo|pánico|panico|pavor|terror|nervios)|(?:ya )?no sabía (?:a quién|a quien|qué hacer|que hacer|dónde|donde|cómo|como)',
    ],
  },
  {
    act: 'remedy',
    value: 2,
    patterns: [
      // Dinero devuelto por el agente: "le reintegramos el importe", "le devolvimos la diferencia".
      '(?<!no )(?:ya )?(?:le|te|les|se lo|se la) (?:reintegramos|reintegré|reembolsamos|reembolsé|devolvimos|devolví|abonamos|aboné|acreditamos|acredité|hemos reintegrado|he reintegrado|hemos devuelto|he devuelto|hemos abonado|he abonado|hemos acreditado|he acreditado) (?:el|la|los|las|su|tu|un|una|todo)',
      // Holdout7: una recogida o una entrega organizada por el agente ("le coordiné el retiro del equipo
      // dañado", "le programamos la visita para el lunes").
      '(?<!no )(?:ya )?(?:le |te |les )?(?:coordiné|coordinamos|programé|programamos|agendé|agendamos|organicé|organizamos|gestioné|gestionamos|he coordinado|hemos coordinado|he programado|hemos programado|he agendado|hemos agendado|he organizado|he gestionado) (?:el|la|un|una|su|tu) (?:\\S+ ){0,2}(?:retiro|recogida|entrega|visita|cambio|reposición|reemplazo|envío|instalación|reparación|devolución|reembolso|cita|turno)',
      // Un bloqueo levantado: "ya le levanté el bloqueo de la tarjeta", "el bloqueo ya fue retirado".
      '(?<!no )(?:ya )?(?:le |te |les )?(?:levanté|levantamos|he levantado|hemos levantado|quité|he quitado|retiré|retiramos|hemos retirado) el bloqueo',
      '(?:el|su) bloqueo (?:de (?:su|tu|la) (?:tarjeta|cuenta|línea) )?(?:ya )?(?:está|fue|ha sido|quedó|se ha) (?:levantado|retirado|quitado|levantó|retiró)',
      // "Le he quitado la penalización", "ya se lo hemos devuelto"; not "no le he devuelto".
      '(?<!no )(?:ya )?(?:le|se lo|se la|te|les) (?:he|hemos) (?:quitado|devuelto|abonado|aplicado|anulado|cancelado|activado|reactivado|arreglado|solucionado|reembolsado|dado de alta|cambiado|enviado|mandado|tramitado|restablecido|corregido|rectificado|desbloqueado|reparado|reiniciado)',
      // Service back: "vuelve a funcionar", "ya vuelve a tener internet", "todo normal otra vez".
      '(?:vuelve|vuelva|volvió|ha vuelto|han vuelto|vuelven) a (?:funcionar|tener (?:internet|línea|señal|conexión|servicio|luz|tono)|ir bien|andar)',
      'todo (?:está |esta |va )?normal|vuelto a la normalidad',
      '(?:le|les|te) (?:mando|envío|enviamos|mandamos|mandaré|enviaré) (?:un|una|el|la) (?:técnico|técnica|router|terminal|tarjeta|repuesto)(?: nuev[oa])?',
      '(?:el |la |ese |esa )?(?:problema|avería|fallo|ruido|error|corte)s? (?:ya )?(?:ha |se ha |han |se han |está |están )?(?:desaparecido|solucionad[oa]s?|resuelt[oa]s?|arreglad[oa]s?|ido)',
      '(?<!no )(?:soluciona|solucionó|resuelve|resolvió|arregla|arregló) (?:\\S+ )?(?:problema|avería|fallo)s?',
      // Hecho en la cuenta, en pretérito (América, y España coloquial): "ya te desbloqueé el usuario",
      // "le quité el recargo", "le acabo de reactivar el servicio".
      // Only what an agent does to an account: a customer also "sent" and "returned" things, and
      // folded, "le mandé" is "le mande" ("¿quiere que le mande una copia?").
      '(?<!(?:no|que|si|cuando) )(?:ya )?(?:le|te|se lo|se la|se los) (?:quité|quitamos|aboné|abonamos|apliqué|aplicamos|anulamos|activé|activamos|reactivé|reactivamos|reembolsé|reembolsamos|restablecí|restablecimos|corregí|corregimos|desbloqueé|desbloqueamos|reconecté|reconectamos|conectamos|agendé|agendamos|reprogramé|reprogramamos|bonifiqué|bonificamos|condoné|condonamos|exoneré|exoneramos)(?= (?:el|la|los|las|su|tu|un|una|ya|todo|\\|)|$)',
      '(?:le|te|les|se lo|se la) (?:acabo|acabamos) de (?:quitar|devolver|abonar|aplicar|anular|activar|reactivar|arreglar|solucionar|reembolsar|enviar|mandar|tramitar|restablecer|corregir|desbloquear|reparar|agendar|reservar|reprogramar|bonificar|dar de alta|cambiar|confirmar|aprobar)',
      // El resultado: "ya quedó", "listo, ya está solucionado", "su siniestro está aprobado",
      // "la devolución ya está hecha", "el pago ya está en camino".
      '(?<!no )ya (?:quedó|quedo|quedamos|está|esta|están|queda|quedaron)(?: (?:todo|toda|usted|su \\S+|el \\S+|la \\S+))? (?:list[oa]s?|solucionad[oa]s?|resuelt[oa]s?|arreglad[oa]s?|hech[oa]s?|activad[oa]s?|reactivad[oa]s?|aprobad[oa]s?|confirmad[oa]s?|abonad[oa]s?|funcionando|en camino|restablecid[oa]s?|desbloquead[oa]s?|tramitad[oa]s?)',
      '(?<!no )ya quedó(?= \\||$)',
      '(?<!(?:no|si|todavía no|aún no) )(?:está|esta|están|quedó|quedaron|ha sido|han sido|fue|fueron|queda|quedan) (?:ya )?(?:aprobad[oa]s?|confirmad[oa]s?|reactivad[oa]s?|restablecid[oa]s?|solucionad[oa]s?|resuelt[oa]s?|abonad[oa]s?|reembolsad[oa]s?|desbloquead[oa]s?|en camino|bonificad[oa]s?)',
      '(?:la|su) (?:devolución|reembolso|abono|reclamación|solicitud|baja|cita|reserva) (?:ya )?(?:está|quedó|ha quedado) (?:hech[oa]|tramitad[oa]|aprobad[oa]|confirmad[oa]|registrad[oa]|list[oa])',
      // El servicio de vuelta: "ya funciona", "ya puede navegar", "ya tiene la cita".
      '(?<!(?:no|si|todavía no|aún no) )ya (?:me |nos |le |te )?(?:funciona|funcionan|funcionó|anda|carga|cargó|conecta|conectó|entré|pude entrar|puedo entrar|deja entrar|dejó entrar)(?! (?:mal|peor|lento|fatal|igual))',
      '(?<!no )ya (?:puede|puedes|pueden|podés) (?:navegar|llamar|usar|entrar|acceder|conectarse|conectarte|ver|pagar|retirar|recoger|viajar|descargar)',
      '(?<!no )ya (?:tiene|tienes|tienen) (?:su |la |el |tu |una |un )?(?:cita|reserva|asiento|plaza|billete|pasaje|línea|internet|luz|agua|señal|servicio|conexión|acceso|crédito|reembolso|abono|turno)',
      // A change to green, not a state ("la luz está en verde" describes the device).
      '(?:la luz|el led|el piloto|la lucecita|el foco|el bombillo|el indicador) (?:ya (?:está|se puso|se ha puesto|quedó|se prendió)|se puso|se ha puesto|se prendió) (?:en )?verde',
      '(?:sin|no tiene ningún) (?:coste|costo|cargo) (?:extra|adicional|alguno|ninguno)',
      'sin (?:ningún |ninguna )?(?:penalización|recargo|coste|costo|cargo|multa|comisión|intereses)(?= \\||$| (?:extra|adicional|alguno|alguna|ninguno|ninguna|para usted))',
      '(?:acabo|acabamos|hemos acabado) de (?:restablecer|reactivar|activar|desbloquear|arreglar|solucionar|reparar|abonar|devolver|reembolsar|aprobar|confirmar|reponer)',
      '(?<!no )(?:vuelvo|volvemos|vuelve|vuelven) a tener (?:internet|luz|línea|señal|servicio|conexión|agua|gas|acceso|tono|wifi|cable)',
      '(?<!no )ya (?:tengo|tenemos) (?:internet|luz|línea|señal|servicio|conexión|agua|gas|acceso|la cita|el reembolso|el dinero|tono|wifi|cable)',
      // El dinero llegó: "ya me ha llegado el reembolso".
      '(?<!no )(?:ya )?(?:me |nos )?(?:ha|han) (?:llegado|entrado) (?:el|los) (?:reembolso|abono|dinero|ingreso)s?',
      // Holdout8: un cambio sin costo ("le cambiamos el vuelo sin costo al de las cuatro"), un equipo
      // nuevo ("le vamos a mandar una lavadora nueva"), lo no pedido dado de baja ("ya di de baja la
      // línea que no había pedido"), un gasto cubierto ("le hemos cubierto el siniestro") y un cargo que
      // no volverá ("para que no le vuelvan a cobrar"): el espejo de los remedios en inglés.
      '(?:le|te|les) (?:cambiamos|cambié|cambie|cambio|pasamos|pasé|paso|movemos|movimos|moví|reprogramamos|reprogramé|adelantamos|adelanté)(?: \\S+){1,3} sin (?:costo|coste|cargo|pagar|cobrarle|cobrarte|cobrarles|ningún costo|ningún cargo)',
      '(?:le|te|les) (?:vamos a|voy a) (?:mandar|enviar|cambiar|reponer|dar)(?: \\S+)? (?:un|una|otro|otra) (?:\\S+ )?(?:nuev[oa]|de reemplazo|de repuesto|de sustitución)|(?:le|te|les) (?:mandamos|enviamos|mandaremos|enviaremos|mando|envío|mandaré|enviaré|reponemos|cambiamos) (?:un|una|otro|otra) \\S+ (?:nuev[oa]|de reemplazo|de repuesto)',
      '(?<!no )(?:ya )?(?:le |te |les )?(?:di|dimos|he dado|hemos dado|anulé|anulamos|he anulado|hemos anulado|cancelé|cancelamos|he cancelado|hemos cancelado|quité|quitamos) (?:de baja )?(?:el|la|los|las) (?:\\S+ ){0,3}que (?:usted |tú |vos )?(?:no|nunca) (?:\\S+ )?(?:pidió|pediste|había pedido|habías pedido|solicitó|contrató|quería|quiso|había solicitado|había contratado|pidieron)',
      '(?:le|te|les) (?:hemos|he) cubierto|(?:le|te|les) (?:cubrimos|cubriremos|vamos a cubrir|voy a cubrir) (?:el|la|los|las|todo|todos)',
      'para que no (?:le |te |les |se |se le )?(?:vuelva|vuelvan) a (?:cobrar|cargar|pasar|aparecer|llegar|ocurrir|facturar)',
    ],
  },
  {
    act: 'thanks',
    value: 3,
    patterns: [
      '(?:(?:muchas|muchísimas|mil) )?gracias por (?:esperar|la espera|su paciencia|tu paciencia|aguardar)',
      '(?:muchas|muchísimas|mil|un millón de) gracias',
      'gracias',
      '(?:se lo|te lo|le) agradezco(?: mucho| muchísimo| de verdad)?',
      'agradecid[oa]',
      'no sé cómo agradecér(?:selo|telo|les|le)',
      // Holdout8 (la bendición de "bless you"): "Dios se lo pague", "que Dios la bendiga", "bendito sea".
      '(?:que )?dios (?:se lo|te lo|se los) pague|(?:que )?dios (?:le|la|lo|te|los|las) bendiga|bendit[oa]s? sea(?:s|n)?',
      // Elogio por contraste con los demás: "es usted la primera persona que me escucha de verdad".
      '(?:es usted|eres|ha sido usted|has sido|usted es|usted ha sido) (?:la|el) (?:primera|primer|única|único) (?:persona|agente|que)(?: que)? (?:me |nos )?(?:ha |han )?(?:escucha|escuchado|ayuda|ayudado|entiende|entendido|resuelve|resuelto|soluciona|solucionado|explica|explicado|hace caso|hecho caso)',
    ],
  },
  {
    // Elogio de la persona o del servicio: "es usted un sol", "qué amable", "muy buena atención",
    // "se portó de maravilla", "el chofer fue re amable". Nunca tras "no" ("no fue nada amable").
    act: 'praise',
    value: 3,
    patterns: [
      '(?<!no )(?:es usted|usted es|eres|sos|vos sos|ha sido|has sido|fue|fuiste|es) (?:un sol|un amor|un encanto|una maravilla|un crack|una crack|un genio|una genia|lo máximo|un ángel|una joya|un cielo|un tesoro|un diez|de diez|de lujo)',
      // No "eso es genial" (una reacción, que se mira por si es irónica), ni "rápidos para cobrar".
      '(?<!(?:no|eso|esto|que|lo|todo|nada|algo) )(?:es|son|fue|fueron|ha sido|han sido|has sido|eres|sos|estuvo|estuvieron|es usted|ha estado|se ve|se nota) (?:(?:muy|súper|super|re|bien|tan|sumamente|realmente|siempre|todos|todas|de lo más|increíblemente|rebién) )*(?:amable|amables|atent[oa]s?|profesional(?:es)?|eficiente|eficientes|rápid[oa]s?|rapidísim[oa]s?|clar[oa]s?|paciente|pacientes|maj[oa]s?|simpátic[oa]s?|encantador(?:a|es)?|servicial(?:es)?|resolutiv[oa]s?|educad[oa]s?|cordial(?:es)?|puntual(?:es)?|genial(?:es)?|estupend[oa]s?|excelente|excelentes|fenomenal|buenísim[oa]s?|un amor|muy buen[oa]|de diez|de lujo|un sol|ágil|sencill[oa]|fácil|buena onda|rebuena onda|de primera|unos genios|unos cracks|unos capos|un capo|una capa|un genio|una genia|bacan[oa]?|bacán|chéveres?|bárbar[oa]s?|macanud[oa]s?|genial)(?! (?:para|hasta|cuando|al principio|pero|si|a las|a la|solo|sólo|de noche|por la noche|en teoría|sobre el papel))',
      '(?:llegó|llegaron|vino|vinieron|llegó el técnico) (?:muy |súper |super )?puntual(?:es)?',
      '(?:funciona|va|anda|quedó|ha quedado|funcionan|van|andan) (?:(?:re|muy|súper|super) )?(?:de maravilla|de lujo|de diez|perfect[oa]|genial|fenomenal|bárbaro|barbaro|joya|espectacular|bomba|chévere|bacán|como un reloj|como la seda)',
      'paciencia de santo|una paciencia infinita',
      'lo (?:bien|amable) que (?:me |nos )?(?:ha|han|has) (?:tratado|atendido|ayudado)',
      '(?<!no )(?:me |nos |se )?(?:portó|portaron|ha portado|han portado|has portado|porta|portan|atendió|atendieron|ha atendido|han atendido|ayudó|ayudaron) (?:(?:muy|súper|super|re|tan) )?(?:de maravilla|de diez|muy bien|súper bien|super bien|re bien|genial|fenomenal|estupendamente|increíble|de lujo|divino|bárbaro)',
      'se nota que (?:es|son|sabe|saben|conoce|conocen|le gusta)',
      '(?:usted|tú|vos) sí que sabe(?:s)?',
      'sab(?:e|en|ía|ían) (?:muy bien |perfectamente )?lo que (?:hace|hacen|hacía|hacían)',
      '(?:le|te|les) (?:voy a|vamos a) (?:poner|dar|dejar) (?:un diez|cinco estrellas|buena nota|una buena (?:nota|valoración|reseña)|la máxima (?:nota|puntuación))',
      'no tengo palabras',
      // "Les voy a poner una reseña buenísima".
      '(?:reseña|valoración|opinión|nota|puntuación) (?:muy buena|buenísima|excelente|estupenda|positiva|genial|de (?:cinco|5) estrellas|máxima)',
    ],
  },
  {
    // Praise as an exclamation, with no subject ("best service I've had", "qué amable", "muy buena
    // atención"): the shape of "great service, three failed deliveries", so it is weighed for irony
    // like a warm interjection (sentiment-irony.ts); the scorer reads it as praise otherwise.
    act: 'acclaim',
    value: 3,
    patterns: [
      '(?:muy|súper|super|re|qué|bien) (?:bacan[oa]|bacán|chévere|bárbaro|buena onda|rebuena onda|de primera|de lujo|macanudo)',
      // Not "qué amable el repartidor dejándolo bajo la lluvia": praise of what is being done wrong.
      'qué (?:amable|amables|atent[oa]s?|maj[oa]s?|rapidez|eficiencia|bien atendid[oa]s?|buena atención|buen servicio|bacán|chévere|bárbaro|maravilla|profesional|gusto (?:da|tratar|hablar))(?! (?:\\S+ ){0,2}\\S+(?:ando|endo)(?:lo|la|le|me|nos|los|las)?(?= |$))',
      // "muy buena atención", "excelente servicio", "un servicio buenísimo".
      '(?:muy |súper |super |re |qué )?(?:buena|buenísima|excelente|estupenda|magnífica) (?:atención|gestión|asesoría|asesoramiento)|(?:muy |súper |super )?(?:buen|buenísimo|excelente|estupendo|magnífico) (?:servicio|trato|trabajo)',
      '(?:el |la )?(?:mejor|mejores) (?:atención|servicio|trato|agente|asesor|asesora) (?:que )?(?:me han dado|he tenido|he recibido|me han atendido|he visto)',
      'da gusto',
    ],
  },
  {
    act: 'agreement',
    value: 2,
    patterns: [
      '(?:me|nos) (?:parece|viene|va) (?:muy )?(?:bien|perfecto|estupendo|genial)',
      'de acuerdo',
      'por supuesto',
      // As an answer ("Claro, adelante"), not "está claro que no funciona".
      '(?:(?<=^)|(?<=\\| ))claro(?: que sí)?',
      'con (?:mucho )?gusto',
      'encantad[oa] de',
      'trato hecho',
      'tiene (?:todo el |mucho )?sentido',
      // Confirmation as an answer: "eso es, justo así", "exacto", "exactamente".
      '(?:(?<=^)|(?<=\\| ))(?:sí )?(?:eso es|exacto|exactamente|justo así|así es|eso mismo)(?= \\||$| justo| así| eso)',
      '(?:tiene|tienes) (?:toda la )?razón',
      'buena idea',
      '(?:(?<=^)|(?<=\\| ))(?:listo |dale |vale |hecho )?(?:hágale|hagale|háganle|dale)(?= \\||$)',
      '(?:(?<=^)|(?<=\\| ))(?:listo|hecho)(?= \\||$| hágale| dale| entonces)',
      '(?:(?<=^)|(?<=\\| ))(?:sí )?(?:\\| )?es (?:exactamente |justo )?eso(?= \\||$)',
      'me quedo con (?:el|la|ese|esa|este|esta)',
      'qué buena noticia|buenas noticias',
      // "Por mí, perfecto", not "llamo por mi contrato" (the same words once accents are folded).
      'por mí(?= \\||$)',
      'sí,? por favor',
      // Un plan acordado: "así lo hacemos", "quedamos así".
      '(?:así|asi) lo hacemos|lo hacemos así|quedamos así|hagámoslo así',
      // Holdout8: lo pedido concedido ("cómo no, ahora mismo lo gestiono").
      '(?:(?<=^)|(?<=\\| ))(?:sí )?cómo no(?= \\||$| ahora| ya| enseguida| se lo| le| te)',
    ],
  },
  {
    act: 'empathy',
    value: 0,
    patterns: [
      // Not "no siento que nadie me escuche" (a feeling denied, holdout7).
      '(?:lo )?(?<!no )(?:siento|sentimos)(?: mucho| muchísimo| de verdad)?',
      '(?:lo )?(?:lamento|lamentamos)(?: mucho| muchísimo)?',
      '(?:le |te )?(?:pido|pedimos|rogamos) (?:disculpas|perdón|que disculpe)',
      // Holdout8 (como "I can only apologise"): "solo puedo pedirle disculpas", "quiero pedirles perdón",
      // "no sabe cuánto lo siento".
      'pedir(?:le|te|les)(?: \\S+)? (?:disculpas|perdón|perdon)',
      'no (?:sabe|sabes|saben) (?:cuánto|cuanto|lo mucho que) (?:lo )?(?:siento|sentimos|lamento|lamentamos)',
      'una disculpa',
      'disculpe|disculpa|disculpen|perdone|perdona|perdón|perdonen',
      'perdón(?:e|a|en)(?:me|nos)|discúlp(?:e|a|en)(?:me|nos)',
      '(?:le |lo |te )?(?:entiendo|comprendo|entendemos|comprendemos)(?: perfectamente| totalmente| de verdad)?',
      // "Entiendo por qué está harto", "ya veo por qué le molesta".
      '(?:entiendo|comprendo|veo|sé) (?:perfectamente |muy bien )?por qué',
      'me (?:imagino|puedo imaginar)',
      'debe (?:de )?(?:ser|haber sido)',
      'le acompaño en el sentimiento',
      'qué rabia',
      // Colombia: "qué pena con usted" is an apology, not sorrow.
      'qué pena con (?:usted|ustedes|vos|tigo)|qué pena contigo',
      // México, Colombia: "qué pena, de verdad, ya le ayudo" from the agent is an apology.
      'qué pena(?= \\||$| de verdad| la verdad| la molestia| por la)',
      '(?:mil|muchas|nuestras|mis|sinceras|todas las) disculpas',
      '(?:yo )?también estaría (?:\\S+ ){0,2}(?:hart[oa]|molest[oa]|enfadad[oa]|enojad[oa]|furios[oa]|frustrad[oa])|en su lugar yo también',
      '(?:eso |esto )?tiene que (?:ser|haber sido) (?:muy |realmente |bastante )?(?:frustrante|molesto|desesperante|agotador|un fastidio|horrible|difícil|estresante)',
    ],
  },
];
