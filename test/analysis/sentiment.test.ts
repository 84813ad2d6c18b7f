import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeCall, parseTemplate } from '../../src/analysis/index.ts';
import { callSentiment, readRules, readText, scoreText, trend } from '../../src/analysis/sentiment.ts';
import { combine } from '../../src/analysis/sentiment-model.ts';
import { probeTestSets, setFile } from '../../scripts/bench/sentiment-sets.ts';
import { mono, stereo, template } from './helpers.ts';

const label = (text: string, language: 'en' | 'es') => scoreText(text, language).label;
const expectLabels = (language: 'en' | 'es', expected: string, texts: readonly string[]) => {
  for (const text of texts) expect(label(text, language), text).toBe(expected);
};

describe('segment sentiment', () => {
  it('reads complaints, thanks and requests in English', () => {
    expect(label("I've been on the phone for an hour, this is ridiculous.", 'en')).toBe('negative');
    expect(label('Thank you so much, that solves it.', 'en')).toBe('positive');
    expect(label("I'd like to check the status of my order, please.", 'en')).toBe('neutral');
  });

  it('reads complaints, thanks and requests in Spanish', () => {
    expect(label('Estoy harto, es la tercera vez que llamo.', 'es')).toBe('negative');
    expect(label('Muchísimas gracias, ha sido muy amable.', 'es')).toBe('positive');
    expect(label('¿Me puede decir cuándo termina mi contrato?', 'es')).toBe('neutral');
  });

  it('turns negated words around, softened', () => {
    const notBad = scoreText("That's not bad at all.", 'en');
    expect(notBad.label).toBe('positive');
    // "not bad" is milder praise than "good".
    expect(notBad.score).toBeLessThan(scoreText("That's good.", 'en').score);
    expect(label("I'm not happy with this.", 'en')).toBe('negative');
    expect(label("It still doesn't work.", 'en')).toBe('negative');
    expect(label('No está mal, me quedo con la oferta.', 'es')).toBe('positive');
    expect(label('No estoy nada contento con la respuesta.', 'es')).toBe('negative');
    expect(label('Sigue sin funcionar.', 'es')).toBe('negative');
  });

  it('does not read "menos mal" or "no problem" as complaints', () => {
    expect(label('Menos mal que llamé.', 'es')).toBe('positive');
    expect(label('No problem, thanks.', 'en')).toBe('positive');
  });

  // Issue 27: the speech act decides before the words in it do.
  it('reads refusals as negative, whatever words they contain', () => {
    for (const text of [
      "That's not my problem.",
      "Calm down. There's nothing I can do about it today.",
      "I'm sorry, but there's nothing more I can do for you.",
      "That's not my department, you'll have to call someone else.",
    ])
      expect(label(text, 'en'), text).toBe('negative');
    for (const text of ['No es mi problema.', 'No puedo hacer nada.', 'Lo siento, pero no le puedo ayudar con eso.'])
      expect(label(text, 'es'), text).toBe('negative');
  });

  it('reads apologies and empathy as courtesy: neutral, never negative', () => {
    for (const text of [
      "I'm sorry to hear that.",
      'I apologize for the inconvenience.',
      'I understand how frustrating that must be.',
      "My apologies, I gave you the wrong date, that's my mistake.",
    ])
      expect(scoreText(text, 'en'), text).toEqual({ label: 'neutral', score: 0 });
    for (const text of ['Lamento las molestias.', 'Entiendo perfectamente su frustración.', 'Disculpe la espera.'])
      expect(scoreText(text, 'es'), text).toEqual({ label: 'neutral', score: 0 });
    // A customer's "sorry, but" is still a complaint, and an apology does not hide what follows it.
    expect(label("I'm sorry, but this is unacceptable.", 'en')).toBe('negative');
    expect(label('Lo siento mucho, ya se lo he arreglado y funciona perfectamente.', 'es')).toBe('positive');
  });

  it('reads complaints and escalation threats as negative, even without a negative word', () => {
    for (const text of [
      'I want to speak to a manager.',
      "If this isn't fixed today I'll cancel.",
      "This is the third time I'm calling.",
      'Thanks for nothing.',
      "The solution you gave me didn't work.",
    ])
      expect(label(text, 'en'), text).toBe('negative');
    for (const text of [
      'Quiero hablar con un supervisor.',
      'Si hoy no lo arreglan me doy de baja.',
      'Es la tercera vez que llamo.',
      'Gracias por nada.',
      'Me dijeron que era gratis y me lo han cobrado.',
    ])
      expect(label(text, 'es'), text).toBe('negative');
  });

  // Issue 27: "Lovely, another bill" was read as praise: one warm word and nothing negative.
  it('reads a warm word said through gritted teeth as a complaint, in both languages', () => {
    for (const text of [
      'Lovely, another bill.',
      'Oh brilliant, the same error again.',
      'great another fee',
      'Perfect, now I have two bills.',
      'Brilliant, late as usual.',
      "Thanks a lot, now it's even worse.",
      'Thanks for wasting my time.',
      'I love how you keep sending me the same letter.',
      'Is this what you call good service?',
    ])
      expect(label(text, 'en'), text).toBe('negative');
    for (const text of [
      'Genial, otra factura.',
      'Qué maravilla, otra vez lo mismo.',
      'Estupendo, ahora tengo dos contratos.',
      'Genial, otra vez sin internet.',
      'Muchas gracias, ahora ya no funciona nada.',
      'Genial, lo que me faltaba.',
      'Gracias por hacerme perder toda la mañana.',
      '¿A esto le llaman buen servicio?',
    ])
      expect(label(text, 'es'), text).toBe('negative');
  });

  it('keeps the same shape sincere when what follows is good news, a plan, an offer or a question', () => {
    for (const text of [
      'Perfect, another question for you: what is the postcode?',
      "Brilliant, it's working again.",
      "Great, I'll try again tomorrow then.",
      'Great, now I have both accounts on screen.',
      'Thank you, again.',
      'Great service as always, thank you.',
      "Great, I've got a signal again.",
    ])
      expect(label(text, 'en'), text).toBe('positive');
    for (const text of [
      'Perfecto, otra pregunta para usted.',
      'Estupendo, ya funciona otra vez.',
      'Perfecto, lo intento otra vez mañana.',
      'Genial, ahora tengo las dos cuentas en pantalla.',
      'Muchas gracias otra vez.',
      'Qué maravilla, otra vez tengo internet.',
    ])
      expect(label(text, 'es'), text).toBe('positive');
  });

  // Praise and resolutions as speech acts (issue 27, after the blind sets read praise neutral):
  // praise of a person or the service vouches for a positive reading; as an exclamation with no
  // subject it is weighed for irony like any warm interjection; put beside sour words it is weighed
  // against them, never read as the direction of the line.
  it('reads praise of people and service positive, and praise used as a reaction to trouble negative', () => {
    expectLabels('en', 'positive', [
      'Your technician was really thorough and very polite.',
      "Honestly you've been a lifesaver this afternoon.",
      'The fitter went out of his way to help my dad.',
      'hes been ever so patient with me',
    ]);
    expectLabels('es', 'positive', [
      'La chica de la tienda fue súper atenta conmigo.',
      'Es usted un cielo, de verdad.',
      'El instalador se portó de diez.',
      'qué amable, muchas gracias',
      'La atención estuvo de lujo, se nota que saben.',
    ]);
    expectLabels('en', 'negative', ['Great service, the parcel went back to the depot again.']);
    expectLabels('es', 'negative', [
      'Excelente servicio, otra vez sin línea.',
      'Qué amable, colgándome a mitad de frase.',
    ]);
    // Praise denied or supposed is no praise.
    expectLabels('en', 'negative', ["The second agent wasn't helpful at all."]);
    expect(label('If the first agent had been helpful I would not be calling again.', 'en')).not.toBe('positive');
    expect(label('Es muy amable por su parte quitarme el recargo.', 'es')).toBe('positive');
  });

  it('reads the trouble put right positive, done on the account or announced, in both languages', () => {
    expectLabels('en', 'positive', [
      "I've removed the missed payment charge from your account.",
      'Your repair has been approved and the courier is on its way.',
      "That's your direct debit updated, you're all set.",
      'the broadband has come back and the lights gone green',
    ]);
    expectLabels('es', 'positive', [
      'Listo, ya quedó solucionado.',
      'Ya te desbloqueé la tarjeta, prueba ahora.',
      'Le acabo de reactivar la línea, ya puede llamar.',
      'Su reclamación está aprobada y sin coste adicional.',
      'ya tengo internet otra vez',
    ]);
    // A customer who sent or returned something, or a question, is not the agent putting it right.
    expectLabels('es', 'neutral', ['¿Quiere que le mande una copia por correo?']);
    expect(label('Al principio no me importaba esperar, pero ya va un mes.', 'es')).toBe('negative');
  });

  it('reads greetings neutral, and declines, policy refusals and closing sarcasm negative', () => {
    expectLabels('en', 'neutral', [
      'hi yes hello, is that the billing team?',
      "Hello, you're speaking to Omar, how can I help you?",
    ]);
    expectLabels('es', 'neutral', ['Aló, buenas.', 'Hola, le atiende Carla, ¿en qué le puedo ayudar?']);
    expectLabels('en', 'negative', [
      "No thanks, I'm not interested, please stop calling.",
      'i cant change that its down to the claims team',
      'Brilliant job on the install, not.',
    ]);
    expectLabels('es', 'negative', [
      'No trabajamos con devoluciones en productos de saldo.',
      'No se lo cubre la garantía, lo siento.',
      'Gracias, eh, por dejarme una hora esperando.',
    ]);
    // A supposition keeps its refusal words to itself.
    expect(label('¿Qué pasa si no pago este mes?', 'es')).not.toBe('negative');
  });

  // A bare interjection answering news the words cannot value reads neutral: "Lovely, the engineer
  // came" is sincere or ironic and no word rule can tell ("Lovely, the engineer turned up without
  // the part"). Neutral is a miss at worst, never the opposite of what was meant.
  it('reads a bare interjection before news of no value neutral, never as a complaint', () => {
    expectLabels('en', 'neutral', ['Lovely, the engineer came.', 'Great, the parcel is at the depot.']);
    expectLabels('es', 'neutral', ['Genial, el técnico viene el lunes.', 'Perfecto, como siempre pago con tarjeta.']);
    expectLabels('en', 'positive', ['Great, thanks.', 'Perfect, go ahead.', 'Great service, honestly.']);
    expectLabels('es', 'positive', ['Perfecto, gracias.', 'Genial, ya se han encendido las luces del router.']);
    expectLabels('en', 'negative', [
      'Fantastic, the engineer turned up without the part.',
      "oh great the app's down again",
    ]);
    expectLabels('es', 'negative', ['Fantástico, el técnico vino sin la pieza.', 'Muchas gracias, lo han empeorado.']);
  });

  it('reads Spanish without accents and through other forms of a listed adjective', () => {
    expectLabels('es', 'negative', [
      'que verguenza de servicio',
      'el internet esta caido desde ayer',
      'la conexion va lentisima',
      'me estan cobrando un servicio que no contrate',
    ]);
    expectLabels('es', 'positive', [
      'muchisimas gracias',
      'La compañera de ayer fue muy atenta.',
      'qué buena atención la verdad',
      'Me lo ha explicado todo muy clarito.',
      'Sí, claro, tiene sentido.',
    ]);
    // Folded, "por mí" and "por mi contrato" meet: agreement only as an answer.
    expect(label('Llamo por mi contrato de móvil.', 'es')).toBe('neutral');
  });

  it('reads contact-centre complaints that carry no valued word, in both languages', () => {
    expectLabels('en', 'negative', [
      'my direct debit was taken twice',
      'the tv keeps freezing and the sound goes',
      "That's the fourth router in two months.",
      'it took three weeks to get a reply to my email',
      "The tracking hasn't updated in a week.",
      "i pay for a hundred meg and i'm lucky to get ten",
      "You've sent me someone else's bill.",
      "I'm absolutely furious about this.",
      "I've been without a landline since last Thursday.",
    ]);
    expectLabels('es', 'negative', [
      'me pasaron el recibo dos veces',
      'el wifi se desconecta a cada rato',
      'Es el cuarto router en dos meses.',
      'Tardaron tres semanas en contestarme el correo.',
      'el seguimiento no se actualiza desde hace una semana',
      'pago cien megas y con suerte me llegan diez',
      'Me han mandado la factura de otra persona.',
      'Han venido tres técnicos y ninguno lo ha arreglado.',
      'no me deja ni llamar es un desastre',
      'no anda',
    ]);
    // A date is not a repeat: "the fifth" needs a noun to be the fifth of something.
    expect(label('I ordered it on the fifth.', 'en')).toBe('neutral');
  });

  it('reads an apology that closes the line as naming the trouble before it (fresh batch 5)', () => {
    for (const text of [
      "Gosh, that's a horrible thing to come home to, I'm so sorry.",
      'Forgive me, I misread the date on your account.',
    ])
      expect(label(text, 'en'), text).not.toBe('negative');
    for (const text of ['eso ha sido fallo nuestro y le pido perdón', 'Perdóneme, he leído mal la fecha de su cuenta.'])
      expect(label(text, 'es'), text).not.toBe('negative');
    // A refusal keeps its weight whatever apology follows it.
    expect(label("I can't refund that, I'm sorry.", 'en')).toBe('negative');
  });

  it('reads complaints in plain, technical or reported words, doubting questions and negated praise', () => {
    expectLabels('en', 'negative', [
      'The direct debit came out on the first instead of the fifteenth as agreed.',
      'yeah the box just sits there on the loading screen',
      "I'm far from satisfied with this.",
      'The new package is wonderful apart from the fact it disconnects every hour.',
      'Do you actually read the notes on my account?',
      'Is anyone over there going to take responsibility for this?',
      'The last agent told me it would be fixed in forty-eight hours, and that was last week.',
      "happy to pay for a service that works which this clearly isn't",
      'none of your staff have been particularly helpful',
      "the router's been showing a red light since tuesday",
    ]);
    expectLabels('es', 'negative', [
      'el router tiene la luz roja encendida desde el martes',
      'Mi pedido lleva once días en estado procesando.',
      'El último agente me dijo que en cuarenta y ocho horas estaría arreglado, y eso fue la semana pasada.',
      'la verdad no sé ni para qué me molesto',
    ]);
    expectLabels('en', 'negative', [
      "I'm not in a position to agree to that.",
      "That's not a service we provide, sorry.",
    ]);
    expect(label('No estoy en condiciones de aceptar eso.', 'es')).toBe('negative');
    // Probe batch 8: warm words that measure what is missing.
    expectLabels('en', 'negative', [
      'It was working fine until your update last night.',
      'so the best you can offer is a five pound credit',
      'your app is great when it actually loads',
      'A simple sorry would have been nice.',
      "well that's just perfect isn't it",
      "You were fine when I signed up, it's only gone downhill since.",
    ]);
    expectLabels('es', 'negative', [
      'Funcionaba perfectamente hasta la actualización de anoche.',
      'lo único que hacen bien es mandar facturas',
      'Un simple lo siento habría estado bien.',
      'Claro, la culpa es del cliente.',
    ]);
    expect(label('Le entiendo, pero la respuesta sigue siendo que no.', 'es')).toBe('negative');
    // A "yeah" that opens a turn holds the floor; on its own it still agrees.
    expect(label('yeah the engineer is coming on friday', 'en')).toBe('neutral');
    expect(label('Yeah.', 'en')).not.toBe('negative');
  });

  it('reads refusals phrased by authority, policy or by sending the customer elsewhere', () => {
    expectLabels('en', 'negative', [
      "You'll have to contact the manufacturer yourself.",
      "That's company policy, there's no exception.",
      "We won't be sending another engineer.",
      "I'm not authorised to do that.",
    ]);
    expectLabels('es', 'negative', [
      'No puedo quitarle esa penalización.',
      'Es lo que hay.',
      'Tendrá que reclamar usted al fabricante.',
      'No estoy autorizado para hacer eso.',
    ]);
    // Not a refusal: something that will not be charged.
    expect(label("We won't be charging you for that.", 'en')).not.toBe('negative');
  });

  it('stops negation at an unpunctuated new clause unless a verb passes it on', () => {
    expect(label("I wouldn't say it's bad.", 'en')).not.toBe('negative');
    expect(label('No diría que es malo.', 'es')).not.toBe('negative');
    expect(label('No es un desastre.', 'es')).not.toBe('negative');
    expect(label('never had any problems with it', 'en')).toBe('positive');
    // A yes/no question about a trouble asks; it does not report one.
    expectLabels('en', 'neutral', ['Is there an outage in my area?', 'Are you still there?']);
    expect(label('¿Hay algún problema con la red esta noche?', 'es')).toBe('neutral');
  });

  it('reads a complaint carried by a want, a let-down, a "but" or a rhetorical question as negative', () => {
    expectLabels('en', 'negative', [
      'I only need the thing to work, that is all.',
      'Everything was fine until last month and then it just died.',
      'Your engineer was lovely, though the line is still crackling.',
      'I appreciate the discount, but the bill is still wrong.',
      "It's great that you're sorry, now what are you going to do about it?",
      'Perfect, the router is broken.',
      "It's a great price if it actually worked.",
      'Sure, it is fine, if you like paying for nothing.',
    ]);
    expectLabels('es', 'negative', [
      'Solo pido que me funcione el teléfono.',
      'Seguimos sin línea desde el lunes.',
      'Iba todo genial hasta que me cambiaron la tarifa.',
      'Agradezco el descuento, pero la factura sigue mal.',
      '¿Por qué me dicen que está solucionado si sigo sin línea?',
      'Sería un buen precio si funcionara.',
      'Ya ni me molesto en llamar.',
    ]);
  });

  it('does not read a supposition, a relief or the agent putting it right as a complaint', () => {
    expectLabels('en', 'neutral', [
      'Could you check if there is an outage in my area?',
      'If it breaks again, just call us.',
    ]);
    expectLabels('es', 'neutral', [
      '¿Me puede decir si se ha hecho el pago?',
      'Si se vuelve a cortar, reinicie el router.',
    ]);
    expectLabels('en', 'positive', [
      "You've been really helpful, I thought I'd be on hold for ages.",
      "I've credited your account with ten pounds.",
      'Good news, the outage is over.',
    ]);
    expectLabels('es', 'positive', [
      'Ha sido muy amable, pensaba que iba a estar horas esperando.',
      'Le he quitado el recargo de este mes.',
      'Listo, ya tiene la línea activa.',
    ]);
  });

  it('reads thanks, agreement and reassurance as positive', () => {
    for (const text of ['Thanks, that really helps.', 'Yes, that works for me.', 'No worries at all.', 'Deal.'])
      expect(label(text, 'en'), text).toBe('positive');
    for (const text of ['Se lo agradezco mucho.', 'Me parece bien.', 'No se preocupe.', 'Trato hecho.'])
      expect(label(text, 'es'), text).toBe('positive');
    // …and denied agreement as disagreement.
    expect(label('No me parece bien.', 'es')).toBe('negative');
  });

  it('keeps information and questions neutral, and salutations courtesy', () => {
    for (const text of ['Your contract ends on the fourteenth of March.', 'How much is the cancellation fee?'])
      expect(label(text, 'en'), text).toBe('neutral');
    for (const text of ['Le voy a poner en espera un momento.', '¿Cuánto tarda el reembolso?'])
      expect(label(text, 'es'), text).toBe('neutral');
    expect(label('Good morning, thank you for calling Acme, this is Laura.', 'en')).toBe('neutral');
    expect(label('Buenas tardes, gracias por llamar, le atiende Marta.', 'es')).toBe('neutral');
  });

  it('keeps scores within −1…1, neutral at 0', () => {
    const strong = scoreText('Terrible, awful, horrible, the worst service, I hate it, useless!', 'en');
    expect(strong.score).toBeGreaterThanOrEqual(-1);
    expect(strong.score).toBeLessThan(-0.8);
    expect(scoreText('', 'en')).toEqual({ label: 'neutral', score: 0 });
  });

  it('measures the trend as last third minus first third', () => {
    expect(trend([-0.6, -0.4, 0, 0.2, 0.5, 0.7])).toBeCloseTo(1.1, 3);
    expect(trend([0.5])).toBeNull();
  });
});

const angryThenThankful = stereo([
  [0, 4, 'agent', 'Good morning, thank you for calling Acme, this is Laura.'],
  [5, 10, 'customer', "This is the third time I'm calling, I'm really angry, nothing works."],
  [11, 14, 'agent', "I'm sorry about that, let me check your account."],
  [15, 18, 'customer', 'The internet keeps dropping every evening, it is unacceptable.'],
  [19, 24, 'agent', 'I have reset the line and booked an engineer for tomorrow morning.'],
  [25, 28, 'customer', 'Okay, tomorrow morning then.'],
  [29, 32, 'agent', 'It should work now. Can you try?'],
  [33, 36, 'customer', 'Yes, it works now, that is great.'],
  [37, 40, 'customer', 'Thank you so much, you have been really helpful.'],
]);

// A rude agent behind a polite script (issue 27: read Positive +0.20 before).
const rudeAgent = (language: 'en' | 'es') =>
  language === 'en'
    ? stereo([
        [0, 3, 'agent', 'Good morning, thank you for calling Acme, this is Mark.'],
        [4, 8, 'customer', 'Hi, my internet has been down since Monday.'],
        [9, 11, 'agent', 'What is your account number?'],
        [12, 14, 'customer', 'It is four five two one eight.'],
        [15, 18, 'agent', "That's not my problem."],
        [19, 22, 'customer', 'Can you at least give me a credit?'],
        [23, 26, 'agent', "Calm down. There's nothing I can do about it today."],
        [27, 30, 'customer', 'I want to speak to a manager.'],
        [31, 34, 'agent', 'Thanks for calling, goodbye.'],
      ])
    : stereo(
        [
          [0, 3, 'agent', 'Buenos días, gracias por llamar a Acme, le atiende Marcos.'],
          [4, 8, 'customer', 'Hola, no tengo internet desde el lunes.'],
          [9, 11, 'agent', '¿Me dice su número de cliente?'],
          [12, 14, 'customer', 'Cuatro cinco dos uno ocho.'],
          [15, 18, 'agent', 'No es mi problema.'],
          [19, 22, 'customer', '¿Me pueden hacer al menos un abono?'],
          [23, 26, 'agent', 'Cálmese. Hoy no puedo hacer nada más.'],
          [27, 30, 'customer', 'Quiero hablar con un supervisor.'],
          [31, 34, 'agent', 'Gracias por llamar, adiós.'],
        ],
        undefined,
        'es',
      );

// The probe set (test/fixtures/sentiment/probe-<lang>.tsv): lines written to check that the rules
// generalise, labelled before the scorer was run on them; with it the sets tuned on like a probe
// batch after their first reading: the fourth to sixth fresh batches (fresh5–7) and the spent
// blind sets (holdout2 to holdout7) — every set scripts/bench/sentiment-sets.ts marks `tuned` but the tune half. The held-out half of <lang>.tsv is never read here: it is for
// bench:sentiment's report only.
describe('probe set', () => {
  const sets = probeTestSets();
  const load = (language: 'en' | 'es') =>
    sets
      .flatMap((set) => set.files.map((stem) => setFile(stem, language)))
      .flatMap((file) =>
        readFileSync(path.join(import.meta.dirname, `../fixtures/sentiment/${file}`), 'utf8')
          .split('\n')
          .slice(1),
      )
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const [split, speaker, cls, accepted, text] = line.split('\t');
        return { split, speaker, cls: cls!, accepted: accepted!.split('|'), text: text! };
      });

  for (const language of ['en', 'es'] as const)
    it(`${language}: at least 150 lines, ≥ 95 % accepted, no reading backwards on refusals, complaints, apologies, thanks`, () => {
      const rows = load(language);
      expect(rows.length).toBeGreaterThanOrEqual(150);
      expect(
        rows.every(
          (r) => sets.some((set) => set.name === r.split) && (r.speaker === 'agent' || r.speaker === 'customer'),
        ),
      ).toBe(true);
      const readings = rows.map((r) => ({ ...r, got: label(r.text, language) }));
      const accepted = readings.filter((r) => r.accepted.includes(r.got)).length;
      expect(accepted / rows.length).toBeGreaterThanOrEqual(0.95);
      const backwards = readings.filter(
        (r) =>
          ['refusal', 'complaint', 'apology', 'thanks'].includes(r.cls) &&
          ((r.accepted.join() === 'negative' && r.got === 'positive') ||
            (!r.accepted.includes('negative') && r.got === 'negative' && r.accepted.includes('positive'))),
      );
      expect(backwards.map((r) => r.text)).toEqual([]);
    });
});

// Issue 27: the lines the issue quotes, read the way a QA reviewer reads them, in both languages.
describe("the issue's lines", () => {
  it.each([
    [
      'en',
      ["That's not my problem.", "Calm down. There's nothing I can do about it today."],
      ["I'm sorry to hear that.", 'I apologize for the inconvenience.', 'I understand how frustrating that must be.'],
    ],
    [
      'es',
      ['No es mi problema.', 'Cálmese. Hoy no puedo hacer nada al respecto.'],
      ['Siento oír eso.', 'Le pido disculpas por las molestias.', 'Entiendo lo frustrante que debe de ser.'],
    ],
  ] as const)(
    '%s: refusals read negative, the agent’s apologies and empathy neutral',
    (language, refusals, apologies) => {
      for (const text of refusals) expect(scoreText(text, language).label, text).toBe('negative');
      for (const text of apologies)
        expect(readText(text, language), text).toEqual({ label: 'neutral', score: 0, courtesy: true });
    },
  );
});

// The trained model beside the rules (src/analysis/sentiment-model.ts): what it may change and what it
// may not, over every line of the tune half, the probe set and the model's own training lines (never
// the held-out half).
describe('the model beside the rules', () => {
  const fixtures = path.join(import.meta.dirname, '../fixtures/sentiment');
  const lines = (language: 'en' | 'es') =>
    [
      `${language}.tsv`,
      `probe-${language}.tsv`,
      `probe4-${language}.tsv`,
      `probe6-${language}.tsv`,
      `train-${language}.tsv`,
      `fresh-${language}.tsv`,
      `fresh2-${language}.tsv`,
      `fresh4-${language}.tsv`,
    ].flatMap((file) =>
      readFileSync(path.join(fixtures, file), 'utf8')
        .split('\n')
        .filter((line) => /^(tune|probe|train|fresh[24]?)\t/.test(line))
        .map((line) => line.split('\t')[4]!),
    );

  it.each(['en', 'es'] as const)(
    '%s: never turns the rules’ reading round, nor touches courtesy or a refusal, rudeness or threat',
    (language) => {
      const texts = lines(language);
      expect(texts.length).toBeGreaterThan(600);
      let changed = 0;
      for (const text of texts) {
        const rules = readRules(text, language);
        const read = readText(text, language);
        if (read.label !== rules.label) changed++;
        const turned =
          (rules.label === 'positive' && read.label === 'negative') ||
          (rules.label === 'negative' && read.label !== 'negative');
        expect(turned, text).toBe(false);
        if (rules.courtesy || rules.firm)
          expect(read, text).toEqual({ label: rules.label, score: rules.score, courtesy: rules.courtesy });
      }
      // It does have a say (the fresh batch and its own training lines hold lines the rules do not read).
      expect(changed).toBeGreaterThan(0);
    },
  );

  it('reads complaints no rule construction covers, which the rules alone leave neutral', () => {
    // From the model's own training lines (test/fixtures/sentiment/train-<lang>.tsv).
    for (const [language, text] of [
      ['en', 'the agent was really polite but nothing has actually been done'],
      ['en', 'my direct debit came out early and took me into my overdraft'],
      ['es', 'el paquete ha vuelto otra vez al almacen'],
      ['es', 'me pasaron el recibo antes de tiempo y me quede en numeros rojos'],
    ] as const) {
      expect(readRules(text, language).label, text).toBe('neutral');
      expect(scoreText(text, language).label, text).toBe('negative');
    }
  });

  // The model's probabilities are only computed where they can change the reading.
  it('is not consulted where it has no say (a negative reading, courtesy, a firm act)', () => {
    const never = () => {
      throw new Error('the model was consulted');
    };
    for (const text of ["That's not my problem.", 'I apologize for the inconvenience.', 'I was charged twice.'])
      expect(combine(readRules(text, 'en'), never).fromRules, text).toBe(true);
    expect(() =>
      combine(readRules('my direct debit came out early and took me into my overdraft', 'en'), never),
    ).toThrow();
  });

  // The model's doubt takes a positive reading to neutral only when the model does not itself read
  // the line positive at COMBINATION.backed (0.6) or more: unsure is not contradicting (sincere praise
  // carries the warm words of ironic complaints). A complaint the model is torn on, or clear about,
  // still takes it to neutral.
  it('keeps a positive reading the model is merely unsure of, and doubts one it reads as a complaint', () => {
    const praise = { label: 'positive', courtesy: false, firm: false, setAside: false, vouched: false } as const;
    const unsure = { negative: 0.35, neutral: 0.02, positive: 0.63 };
    const complaint = { negative: 0.44, neutral: 0.1, positive: 0.46 };
    const clear = { negative: 0.87, neutral: 0.01, positive: 0.12 };
    expect(combine(praise, unsure).label).toBe('positive');
    expect(combine(praise, complaint).label).toBe('neutral');
    expect(combine(praise, clear).label).toBe('neutral');
    expect(combine({ ...praise, vouched: true }, clear).label).toBe('neutral');
    // Never turned round, and a negative reading is never softened.
    expect(combine({ ...praise, label: 'negative' }, { negative: 0, neutral: 0, positive: 1 }).label).toBe('negative');
  });

  // Probe batch 9 (probe6-<lang>.tsv): sincere praise keeps its reading, praise words around a
  // complaint do not make it one.
  it('reads sincere praise positive and never reads a complaint in praise words positive', () => {
    for (const [language, text] of [
      ['en', 'The lady I spoke to yesterday was fantastic, she sorted everything'],
      ['en', 'you explained that better than anyone else has'],
      ['es', 'usted me lo ha explicado mejor que nadie'],
      ['es', 'la verdad es que este año han estado geniales ninguna queja'],
    ] as const)
      expect(scoreText(text, language).label, text).toBe('positive');
    for (const [language, text] of [
      ['en', 'great service as usual, nobody called me back'],
      ['en', 'Perfect, now I have been charged for a router I sent back'],
      ['es', 'un servicio estupendo como siempre nadie me ha devuelto la llamada'],
      ['es', 'Perfecto, ahora me cobran un router que ya devolví'],
    ] as const)
      expect(scoreText(text, language).label, text).not.toBe('positive');
  });

  it('gives the same reading every time', () => {
    const text = 'fantastic now the tv has no sound either';
    expect(new Set(Array.from({ length: 5 }, () => JSON.stringify(readText(text, 'en')))).size).toBe(1);
  });

  // The weights are not edited by hand: `npm run sentiment:train` writes them, deterministically.
  it('the committed weights are what the training script produces', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/sentiment-train.ts', '--check'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(out).toContain('matches what the training script produces');
  }, 180_000);
});

// After the fourth blind set (holdout4): speech acts its first reading missed, as constructions.
describe('questions, praise by what never happened, resigned thanks and remedies', () => {
  it('reads a question that asks for information neutral, whatever its nouns, in both languages', () => {
    expectLabels('en', 'neutral', [
      'does the warranty cover water damage or not',
      'Is this the right address for the refund?',
      'how long does the installation usually take',
    ]);
    expectLabels('es', 'neutral', [
      '¿La penalización se cobra en la próxima factura?',
      'el recargo se aplica este mes o no',
      '¿no hay manera de que me quiten la comisión?',
    ]);
  });

  it('still reads a rhetorical question or a refusal stated outright negative', () => {
    expectLabels('en', 'negative', [
      'Is anyone actually going to call me back?',
      'How many times do I have to explain this?',
    ]);
    expectLabels('es', 'negative', [
      'no hay manera de quitarle la comisión',
      'lo siento, pero no os lo podemos cambiar',
    ]);
  });

  it('reads praise by what never happened and good reviews positive, not as complaints or threats', () => {
    expectLabels('en', 'positive', [
      'nobody has ever explained it so well',
      "you've never let us down",
      "I'll be leaving you a five star review",
    ]);
    expectLabels('es', 'positive', [
      'en quince años nunca nos han fallado',
      'hacía meses que no me atendían así de bien',
      'les voy a dejar una reseña excelente',
    ]);
  });

  it('reads resigned thanks as courtesy, and agreement and denied costs positive', () => {
    expect(readText('ok, thanks anyway', 'en')).toEqual({ label: 'neutral', score: 0, courtesy: true });
    expect(readText('bueno, gracias de todos modos', 'es')).toEqual({ label: 'neutral', score: 0, courtesy: true });
    expectLabels('en', 'positive', ['that makes perfect sense', "honestly it wasn't complicated at all"]);
    expectLabels('es', 'positive', ['eso es, exacto', 'la instalación no fue nada complicada']);
  });

  it('reads what the agent puts right positive, and "you should have" as a reproach only when it is one', () => {
    expectLabels('en', 'positive', [
      "I've put a twenty pound credit on the account",
      'the lost card has been blocked and a new one is on its way',
      'you should have your signal back within the hour',
    ]);
    expect(label('you should have told me', 'en')).toBe('negative');
    expect(readText('I really do apologise for the mix-up', 'en').courtesy).toBe(true);
    expect(label("I'm afraid that's not something I'm able to do", 'en')).toBe('negative');
  });

  it('reads time counted out in full as a complaint, whatever praise is said over it', () => {
    expect(label('it took three whole weeks to get a reply, brilliant', 'en')).toBe('negative');
    expect(label('qué rapidez, dos semanas para contestar un correo', 'es')).toBe('negative');
    expect(label('the engineer will be with you for a whole day', 'en')).toBe('neutral');
    expect(label('el técnico tarda tres días en llegar', 'es')).not.toBe('negative');
  });
});

describe('the agent escalating, information that names a trouble, bad news with regret, wit questioned', () => {
  it("reads the agent escalating the customer's case as neither negative nor a threat, and the customer's threat as one", () => {
    for (const text of [
      "I'll pass your complaint on to my supervisor today",
      "I've escalated this to our billing team so they can look at it",
    ])
      expect(label(text, 'en'), text).not.toBe('negative');
    for (const text of ['le voy a pasar su queja a mi supervisora', 'ya escalé tu reclamo al área técnica'])
      expect(label(text, 'es'), text).not.toBe('negative');
    expectLabels('en', 'negative', ["I'm going to escalate this to your manager", 'I want to escalate this']);
    expectLabels('es', 'negative', ['voy a escalar esto a su jefe', 'quiero poner una reclamación formal']);
  });

  it('keeps information and questions that name a trouble nobody has neutral, in both languages', () => {
    expectLabels('en', 'neutral', [
      'the home plan covers flood damage and burglary',
      'calls to mobiles are charged per minute after that',
      'are you seeing any error messages on the screen?',
      'nobody did anything wrong, the form just expired',
    ]);
    expectLabels('es', 'neutral', [
      'el seguro cubre robos y daños por agua',
      'los datos extra se cobran por giga',
      '¿le aparece algún error en la pantalla?',
      'nadie hizo nada mal, solo caducó el formulario',
    ]);
    expect(label('there are error messages all over the screen again', 'en')).toBe('negative');
  });

  it('reads bad news announced with regret as what it announces, never as good news', () => {
    for (const text of [
      "I'm sorry to say the parcel has been confirmed as missing",
      'we regret to inform you that the flight has been cancelled',
    ])
      expect(label(text, 'en'), text).not.toBe('positive');
    expect(label('lamento informarle que el envío se ha perdido', 'es')).not.toBe('positive');
    expect(readText("I'm sorry to hear that", 'en').courtesy).toBe(true);
    expect(readText("I'm afraid we sent the letter to your old address", 'en').courtesy).toBe(true);
    expect(label("I'm sorry to tell you the engineer can't come until Monday", 'en')).toBe('negative');
    expect(label('lamento decirle que el pedido no llegará esta semana', 'es')).toBe('negative');
    expect(label('from April your premium will be higher', 'en')).toBe('negative');
  });

  it('reads a hold lifted as put right, and "not great, not terrible" as neither', () => {
    expect(label("the security block on your account's been lifted now", 'en')).toBe('positive');
    expect(label('ya le levanté el bloqueo de la cuenta', 'es')).toBe('positive');
    expect(label('the block still has not been lifted', 'en')).toBe('negative');
    expect(label('not bad, not great', 'en')).toBe('neutral');
  });

  it('reads wit questioned and contempt as rude, and praise by a fault that never came as praise', () => {
    expectLabels('en', 'negative', ['does anybody there have half a brain']);
    expectLabels('es', 'negative', ['¿alguien ahí tiene dos dedos de frente?', 'me importa un pepino su protocolo']);
    expectLabels('en', 'positive', ["they've never once let us down"]);
    expectLabels('es', 'positive', ['desde que estoy con ustedes no he tenido ni un solo problema']);
  });
});

// After the sixth blind set (holdout6): speech acts its reading missed, as constructions; new lines.
describe('refusals behind an apology or a system, being left uninformed, service absent, loyalty and insults', () => {
  it('reads an apology or a system that opens an inability as a refusal, never as good news', () => {
    for (const text of [
      "I'm sorry, I can't backdate the cancellation",
      'unfortunately we are unable to split the bill across two cards',
      "apologies, the software doesn't allow us to reissue the voucher",
    ])
      expect(label(text, 'en'), text).not.toBe('positive');
    for (const text of [
      'lo siento, no le puedo adelantar la fecha de instalación',
      'disculpe, no podemos fraccionar esa compra',
      'no gracias, no quiero ninguna tarjeta de crédito',
    ])
      expect(label(text, 'es'), text).not.toBe('positive');
    // Not hearing or finding is no refusal.
    expect(label("sorry, I can't hear you very well", 'en')).not.toBe('negative');
    expect(label('perdone, no le puedo escuchar bien', 'es')).not.toBe('negative');
  });

  it('reads being left uninformed and paying for a service that is not there as complaints', () => {
    expectLabels('en', 'negative', [
      'the lift has been broken for a week and nobody has explained anything',
      'two bars at best upstairs, and I pay for the premium plan',
    ]);
    expectLabels('es', 'negative', [
      'suspendieron el tren y nadie en la estación nos explicó nada',
      'en la oficina no tengo cobertura desde el lunes',
    ]);
    expectLabels('en', 'negative', [
      'the wifi in the back bedroom is one bar since the upgrade',
      "we've been chasing the refund for weeks now",
    ]);
    expectLabels('es', 'negative', [
      'llevamos un mes reclamando la devolución',
      'la garantía no me quiere reponer el cargador',
      'la alarma dejó de mandar avisos hace dos semanas',
      'diez años con ustedes y a los clientes nuevos les dan la fibra gratis',
    ]);
    expectLabels('en', 'negative', ['eight years with you and new customers get the faster package for less']);
    expect(label('have a good day', 'en')).not.toBe('negative');
  });

  it('reads loyalty, a rescue and trouble gone since a fix as praise', () => {
    expectLabels('en', 'positive', [
      "I wouldn't move my account anywhere else",
      "we haven't had one outage since the new cable went in",
      'honestly, you saved my bacon today',
    ]);
    expectLabels('es', 'positive', [
      'no me voy de este banco por nada',
      'no hemos tenido ni un corte desde que vino el técnico',
      'en el banco anterior nunca me trataron tan bien',
    ]);
    expect(label("I haven't had any internet since Tuesday", 'en')).toBe('negative');
  });

  it('reads courtesy thanked for a harm and luck wished against the service as complaints', () => {
    expect(label('so thoughtful of your colleague to cut me off mid sentence', 'en')).toBe('negative');
    expect(label('buena suerte encontrando a alguien que lo arregle', 'es')).toBe('negative');
    expect(label('very kind of you to call me back so quickly', 'en')).not.toBe('negative');
  });

  it('reads less than was paid for, an offer taken as an insult and nothing changing as complaints', () => {
    expectLabels('en', 'negative', [
      'we pay for the business plan and all we get is a voicemail',
      'the free delivery ended up costing me twelve pounds',
      "I've rung four times and nothing ever gets fixed",
    ]);
    expectLabels('es', 'negative', [
      'el envío gratis me acabó costando doce euros',
      'lo que me ofrecen es una tomadura de pelo',
      'llamo y llamo y nada se soluciona',
    ]);
    expect(label("don't worry, nothing changes for you", 'en')).not.toBe('negative');
    expect(label('tranquilo, para usted no cambia nada', 'es')).not.toBe('negative');
  });

  it('reads an insult aimed at the listener as rude', () => {
    expectLabels('en', 'negative', ["I'm done talking to a clown like you"]);
    expectLabels('es', 'negative', [
      'no pienso discutir con una inútil como usted',
      'atienden personas sin dos dedos de frente',
    ]);
  });
});

// After the seventh blind set (holdout7): speech acts its reading missed, as constructions; new lines.
describe('conditional refusals, policies after an apology, apologies announced, relief by comparison and records', () => {
  it('reads an inability made conditional, or a policy stated after an apology, as a refusal', () => {
    expectLabels('en', 'negative', [
      "we can't unlock the handset until the contract's been paid off",
      "I won't be able to reissue the ticket unless the original is returned",
      'sorry, we no longer offer paper statements',
      'unfortunately we do not insure vans over ten years old',
      "no thanks, I don't want to hear about the bundle, just the cancellation",
    ]);
    expectLabels('es', 'negative', [
      'hasta que no recibamos el documento no le podemos liberar la cuenta',
      'no le puedo reactivar la tarjeta mientras no pase por la sucursal',
    ]);
    // Not knowing yet is no refusal.
    expect(label("sorry, we don't know yet when the engineer will be free", 'en')).not.toBe('negative');
  });

  it('reads an apology announced as courtesy, not as the trouble it names', () => {
    for (const text of [
      "I'd like to apologise for the confusion over your renewal",
      'I want to apologise on behalf of the branch for the long queue',
      'let me just apologise for the wrong invoice we sent',
    ])
      expect(label(text, 'en'), text).not.toBe('negative');
  });

  it('reads an arrangement or a slot accepted as good, and a grudge said at the end as a complaint', () => {
    expect(label("I've arranged a courier to pick up the damaged parcel tomorrow", 'en')).not.toBe('negative');
    expect(label('le programé la visita del técnico para el jueves por la mañana', 'es')).not.toBe('negative');
    expectLabels('en', 'positive', ['great, an early slot suits us perfectly', 'brilliant, Monday is ideal']);
    expect(label("no, Wednesday doesn't suit me at all", 'en')).not.toBe('positive');
    expectLabels('es', 'negative', [
      'comprendo que haya mucho trabajo, pero tres semanas sin contestarme ya es demasiado',
      'lo único que funciona bien con ustedes es el cobro automático',
    ]);
    expectLabels('en', 'negative', ['your cashback page is the only thing that works reliably']);
  });

  it('reads relief by comparison with what was feared, and what could not have gone better, as positive', () => {
    expectLabels('en', 'positive', [
      "honestly it wasn't half as stressful as I'd feared",
      'the move was nowhere near as complicated as we expected',
      "the install couldn't have gone any smoother",
    ]);
    expectLabels('es', 'positive', [
      'el trámite no fue tan engorroso como me esperaba',
      'la mudanza no pudo haber salido mejor',
    ]);
    // A denied feeling is not an apology.
    expect(label('no siento que nadie me esté tomando en serio', 'es')).toBe('negative');
    expect(label('siento que haya tenido que llamar tres veces', 'es')).not.toBe('negative');
  });

  it('reads a record of when a fault was logged, or how a charge accrues, as information', () => {
    expectLabels('en', 'neutral', [
      'the fault was logged on Tuesday at 8:05',
      'late fees are applied monthly on unpaid balances',
    ]);
    expectLabels('es', 'neutral', [
      'la incidencia se registró el lunes a primera hora',
      'los recargos se aplican mensualmente sobre la deuda',
    ]);
  });

  it('reads hurry thrown at the listener and a reproach as a condition as rude', () => {
    expectLabels('es', 'negative', ['oiga, no tengo toda la mañana, ¿me lo arregla o no?']);
    expectLabels('en', 'negative', ["if you'd checked the notes properly you'd know I already paid"]);
    expectLabels('es', 'positive', [
      'desde la visita del técnico la conexión anda joya',
      'el servicio nuevo anda bárbaro',
    ]);
  });

  it('reads a warm word closing a grievance, or a plan mentioned late in one, as irony', () => {
    expectLabels('en', 'negative', [
      'Oh lovely, so my parcel is lost and the earliest redelivery you can book is next month. Great.',
      'Super, another web form that crashes before the last page, very useful.',
    ]);
    // Good news or a plan right after the reaction stays sincere, and so does a closing one after it.
    expectLabels('en', 'positive', [
      'Perfect, I can book you in for Friday. Lovely.',
      'The replacement card arrived this morning. Brilliant.',
    ]);
  });

  it('reads a recommendation or a reward wished on someone as praise, and praise denied as a complaint', () => {
    expectLabels('en', 'positive', [
      "I'd happily recommend your repair team to my neighbours",
      'the courier deserves a medal for finding us',
    ]);
    expectLabels('es', 'positive', ['los recomendaría sin dudarlo', 'la chica de la tienda se merece un aumento']);
    expectLabels('en', 'negative', [
      "I wouldn't recommend you to anyone",
      "honestly I can't say you've been much help",
    ]);
    expectLabels('es', 'negative', ['no puedo decir que me hayan ayudado']);
    expect(label('le reintegramos el importe del cargo duplicado esta mañana', 'es')).toBe('positive');
  });

  it('reads a limit offered as a refusal and an apology owed as courtesy, never backwards', () => {
    for (const [text, language] of [
      ['the most we can offer is a twenty pound voucher', 'en'],
      ['lo máximo que le podemos ofrecer es un bono de veinte euros', 'es'],
    ] as const)
      expect(label(text, language), text).not.toBe('positive');
    expect(label('I owe you an apology, I gave you the wrong information yesterday', 'en')).not.toBe('negative');
  });

  it('reads a remedy asked about as a question, not as one done', () => {
    expectLabels('en', 'neutral', [
      'did the alarm go off when the electricity came back on?',
      'is the heating back on at your end?',
    ]);
  });
});

describe('apologies as all that is left, thanks as a blessing, dread looked back on, remedies and rudeness', () => {
  it('reads an apology offered as all that is left to give as courtesy, never as a complaint', () => {
    for (const [text, language] of [
      ['all we can do is apologise, the parcel should never have gone to your neighbour', 'en'],
      ["I can't apologise enough for the mix-up with your booking", 'en'],
      ['we can only say sorry, the engineer had no business leaving it like that', 'en'],
      ['solo puedo pedirle disculpas, le hemos fallado con la entrega', 'es'],
      ['quiero pedirles perdón, les dimos mal la fecha de la cita', 'es'],
    ] as const)
      expect(label(text, language), text).not.toBe('negative');
  });

  it('reads thanks as a blessing, and the dread it relieves, as positive; dread alone stays sour', () => {
    expectLabels('en', 'positive', [
      'god bless you, that has saved me a trip into town',
      "you're an angel, I'd been worried sick about the gas bill",
    ]);
    expectLabels('es', 'positive', [
      'que Dios se lo pague, señorita',
      'muchas gracias, me daba pánico llamar por lo de la hipoteca',
    ]);
    // The model doubts a blessing beside dread (it has seen few): neutral, never backwards.
    expect(label('ay, que Dios la bendiga, ya no sabía a quién llamar', 'es')).not.toBe('negative');
    expectLabels('en', 'negative', ["I was dreading this call and it's every bit as bad as I thought"]);
    expectLabels('es', 'negative', ['ya no sabía a quién llamar, llevo tres semanas sin luz']);
  });

  it('reads an apology dismissed as useless as a complaint, not as courtesy', () => {
    expectLabels('en', 'negative', ["it's no use saying sorry if nobody comes out to fix it"]);
    expectLabels('es', 'negative', ['de qué me sirven sus disculpas si sigo sin calefacción']);
  });

  it('reads costs covered, a swap at no charge, a new unit sent and what was not ordered removed as put right', () => {
    expectLabels('en', 'positive', [
      "we'll pay for the taxi, just keep hold of the receipt",
      "I've switched you to paperless so that fee won't be charged again",
    ]);
    expectLabels('es', 'positive', [
      'te movimos la cita sin cargo al martes por la mañana',
      'le enviamos un router de reemplazo mañana a primera hora',
      'ya le quité el seguro que no había contratado',
      'le cubrimos los gastos del hotel de esa noche',
    ]);
    // The customer's own complaint keeps its reading.
    expectLabels('es', 'negative', ['me cobraron un seguro que no había contratado']);
  });

  it('reads an expectation denied in pleasant surprise as positive', () => {
    expectLabels('en', 'positive', ["honestly I didn't expect it to be sorted so quickly"]);
    expectLabels('es', 'positive', ['nunca pensé que fuera tan fácil cambiar la tarifa']);
  });

  it('reads a practice denied as a refusal and a case closed with nothing done as a complaint', () => {
    expectLabels('en', 'negative', [
      "sorry, that's not something we offer on this tariff",
      "they closed the ticket as fixed and it's still broken",
    ]);
    expectLabels('es', 'negative', [
      'lo siento, no es un servicio que ofrezcamos en su zona',
      'abrí una incidencia y la dieron por solucionada sin arreglar nada',
    ]);
    // The agent closing it once it is fixed is putting it right.
    expectLabels('en', 'positive', ["I've marked the ticket as resolved, you're all set"]);
  });

  it('reads a request granted with "of course I can" or "cómo no" as agreement, but not "of course I can\'t"', () => {
    expectLabels('en', 'positive', ['of course we can move the appointment to Friday']);
    expectLabels('es', 'positive', ['cómo no, ya se lo cambio']);
    expect(label("of course I can't, it's the weekend", 'en')).not.toBe('positive');
    expect(label('¿cómo no voy a estar molesto?', 'es')).not.toBe('positive');
  });

  it('reads wit questioned, an ultimatum to calm down and the company called thieves as rude', () => {
    expectLabels('en', 'negative', [
      'do you not understand plain English? I said the twelfth',
      "don't give me that excuse again, I'm not stupid",
      'you lot are nothing but thieves',
    ]);
    expectLabels('es', 'negative', [
      'no me salga con excusas, que no soy tonta',
      'si sigue gritándome voy a tener que cortar la llamada',
      'son unos estafadores, todos ustedes',
    ]);
  });
});

describe('call sentiment', () => {
  it.each(['en', 'es'] as const)('reads a rude agent as negative overall, greeting or not (%s)', (language) => {
    const s = callSentiment(rudeAgent(language));
    expect(s.agent?.label).toBe('negative');
    expect(s.overall?.label).toBe('negative');
  });

  it.each([
    [
      'en',
      [
        "I'm so sorry to hear that.",
        'I apologize for the inconvenience.',
        'I understand how frustrating that must be.',
      ],
    ],
    ['es', ['Lamento mucho lo sucedido.', 'Disculpe las molestias.', 'Entiendo lo frustrante que debe de ser.']],
  ] as const)('does not count apologies against the agent (%s)', (language, apologies) => {
    const fixed =
      language === 'en' ? 'I have fixed it, it works perfectly now.' : 'Ya está arreglado, funciona perfectamente.';
    const thanks = language === 'en' ? 'Thank you so much.' : 'Muchísimas gracias.';
    const plain = stereo(
      [
        [0, 3, 'agent', fixed],
        [4, 6, 'customer', thanks],
      ],
      undefined,
      language,
    );
    const apologetic = stereo(
      [
        ...apologies.map((text, i): [number, number, 'agent', string] => [i * 2, i * 2 + 1, 'agent', text]),
        [10, 13, 'agent', fixed],
        [14, 16, 'customer', thanks],
      ],
      undefined,
      language,
    );
    const withApologies = callSentiment(apologetic);
    // Each apology line reads neutral, and the agent's overall reading is what it is without them.
    expect(withApologies.segments.slice(0, 3).map((x) => x.label)).toEqual(['neutral', 'neutral', 'neutral']);
    expect(withApologies.agent).toEqual(callSentiment(plain).agent);
    expect(withApologies.agent?.label).toBe('positive');
    expect(withApologies.overall).toEqual(callSentiment(plain).overall);
  });

  it('reads a sarcastic customer as negative, not as a happy one', () => {
    const s = callSentiment(
      stereo([
        [0, 3, 'agent', "I've sent a new bill to replace the old one."],
        [4, 7, 'customer', 'Lovely, now I have two bills.'],
        [8, 11, 'agent', 'Perfect, another question for you: is this your current address?'],
        [12, 15, 'customer', 'Oh great, the same address as the last three letters.'],
      ]),
    );
    expect(s.segments.map((x) => x.label)).toEqual(['neutral', 'negative', 'positive', 'negative']);
    expect(s.customer?.label).toBe('negative');
  });

  it('rises for a customer who starts angry and ends thankful', () => {
    const s = callSentiment(angryThenThankful);
    expect(s.segments).toHaveLength(angryThenThankful.segments.length);
    expect(s.segments[1]!.label).toBe('negative');
    expect(s.segments[8]!.label).toBe('positive');
    expect(s.customer_trend).toBeGreaterThan(0.5);
    expect(s.agent?.label).toBe('positive');
  });

  it('has no per-speaker figures on a mono recording', () => {
    const s = callSentiment(mono([[0, 3, 'Thank you, that was great.']]));
    expect(s.customer).toBeNull();
    expect(s.customer_trend).toBeNull();
    expect(s.overall?.label).toBe('positive');
  });

  it('judges "customer ends no worse than they started" as a metric criterion', async () => {
    const criterion = {
      key: 'ends_happier',
      label: 'Customer ends no worse than they started',
      kind: 'metric',
      metric: 'customer_sentiment_trend',
      op: 'gte',
      value: 0,
      weight: 1,
    } as const;
    const rising = await analyzeCall(angryThenThankful, template({ criteria: [criterion] }));
    expect(rising.criteria[0]).toMatchObject({ result: 'passed', reason_code: 'metric_gte' });
    expect(rising.sentiment.customer_trend).toBeGreaterThan(0);

    const souring = stereo([
      [0, 3, 'customer', 'Hi, thanks for calling me back, that is kind of you.'],
      [4, 8, 'agent', 'The fee cannot be refunded.'],
      [9, 12, 'customer', 'That is unacceptable, I am really disappointed.'],
    ]);
    const falling = await analyzeCall(souring, template({ criteria: [criterion] }));
    expect(falling.criteria[0]).toMatchObject({ result: 'failed' });

    const unknown = await analyzeCall(mono([[0, 3, 'Thanks.']]), template({ criteria: [criterion] }));
    expect(unknown.criteria[0]).toMatchObject({ result: 'na', reason_code: 'metric_mono' });
  });

  it('accepts negative thresholds for sentiment only, within their range', () => {
    const base = { version: 1, language: 'en' } as const;
    const metric = (metric: string, value: number) => ({
      ...base,
      criteria: [{ key: 'k', label: 'L', kind: 'metric', metric, op: 'gte', value, weight: 1 }],
    });
    expect(parseTemplate(metric('customer_sentiment', -0.2)).ok).toBe(true);
    expect(parseTemplate(metric('customer_sentiment', -1.5)).ok).toBe(false);
    expect(parseTemplate(metric('customer_sentiment_trend', -1.5)).ok).toBe(true);
    expect(parseTemplate(metric('duration', -1)).ok).toBe(false);
  });
});
