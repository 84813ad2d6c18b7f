/**
 * `npm run sample-calls`: three short stereo call recordings for trying the service (README, "A first
 * call, end to end"), spoken by espeak-ng (Debian/Ubuntu: `apt-get install espeak-ng`) into
 * `sample-calls/` of the folder npm was run from: the agent on the left channel, the customer on the
 * right, named by the intake's file-name rules. The same text gives the same files.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveDecoder } from '../src/audio/binaries.ts';

type Turn = [speaker: 'agent' | 'customer', text: string];

const CALLS: { file: string; voice: string; turns: Turn[] }[] = [
  {
    file: 'out-600111222-AG07-20240115-103000.wav',
    voice: 'en',
    turns: [
      ['agent', 'Thank you for calling Acme, this is Ana. Can I have your name, please?'],
      ['customer', 'Hi, this is John Smith. I was charged twice on my last invoice.'],
      ['agent', 'I am sorry to hear that. I can see the double charge, and I have sent you a refund today.'],
      ['customer', 'Great, thank you very much.'],
      ['agent', 'Is there anything else I can help you with?'],
      ['customer', 'No, that is all. Goodbye.'],
    ],
  },
  {
    file: 'in-600333444-AG07-20240115-111500.wav',
    voice: 'es',
    turns: [
      ['agent', 'Buenos días, gracias por llamar a Acme, le atiende Ana. ¿Me puede dar su nombre?'],
      ['customer', 'Hola, soy Carmen López. Me han cobrado dos veces la factura de este mes.'],
      ['agent', 'Lo entiendo, disculpe las molestias. Ya le he hecho la devolución del cargo.'],
      ['customer', 'Perfecto, muchas gracias.'],
      ['agent', '¿Puedo ayudarle en algo más?'],
      ['customer', 'No, nada más. Adiós.'],
    ],
  },
  {
    file: 'in-600555666-AG07-20240115-120000.wav',
    voice: 'en',
    turns: [
      ['agent', 'Acme, good morning.'],
      ['customer', 'Hello. My internet has not been working for three days and nobody called me back.'],
      ['agent', 'Calm down. That is not my problem.'],
      ['customer', 'Then I want to cancel my contract.'],
      ['agent', 'Is there anything else?'],
      ['customer', 'No. Goodbye.'],
    ],
  },
];

const RATE = 16_000;
const GAP = Math.round(0.8 * RATE);
const ffmpeg = resolveDecoder(process.env).ffmpeg;

function speak(text: string, voice: string, scratch: string): Int16Array {
  const wav = path.join(scratch, 'turn.wav');
  try {
    execFileSync('espeak-ng', ['-v', voice, '-s', '150', '-w', wav, '--', text]);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(missing ? 'sample-calls needs espeak-ng (apt-get install espeak-ng)' : String(error));
  }
  const pcm = execFileSync(
    ffmpeg,
    ['-nostdin', '-v', 'error', '-i', wav, '-ac', '1', '-ar', String(RATE), '-f', 's16le', 'pipe:1'],
    {
      maxBuffer: 1 << 26,
    },
  );
  return new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);
}

/** 16-bit PCM WAV of two channels, interleaved. */
function stereoWav(left: Int16Array, right: Int16Array): Buffer {
  const data = Buffer.alloc(left.length * 4);
  for (let i = 0; i < left.length; i++) {
    data.writeInt16LE(left[i]!, i * 4);
    data.writeInt16LE(right[i]!, i * 4 + 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const out = path.join(process.env.INIT_CWD ?? process.cwd(), 'sample-calls');
mkdirSync(out, { recursive: true });
const scratch = mkdtempSync(path.join(os.tmpdir(), 'escucha-sample-'));
try {
  for (const call of CALLS) {
    const clips = call.turns.map(([speaker, text]) => ({ speaker, pcm: speak(text, call.voice, scratch) }));
    const frames = clips.reduce((n, c) => n + c.pcm.length + GAP, GAP);
    const left = new Int16Array(frames);
    const right = new Int16Array(frames);
    let at = GAP;
    for (const c of clips) {
      (c.speaker === 'agent' ? left : right).set(c.pcm, at);
      at += c.pcm.length + GAP;
    }
    const file = path.join(out, call.file);
    writeFileSync(`${file}.tmp`, stereoWav(left, right));
    // Renamed into place, so a reader never sees half a file.
    renameSync(`${file}.tmp`, file);
    console.log(`${path.relative(process.env.INIT_CWD ?? process.cwd(), file)}  ${(frames / RATE).toFixed(1)} s`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
