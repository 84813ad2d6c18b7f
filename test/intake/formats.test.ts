// §8 accepted formats and §4 "File type rule", with real audio made by espeak-ng + ffmpeg.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AUDIO_FORMATS, convert, speak } from '../fixtures/audio.ts';
import type { TestDb } from '../support/db.ts';
import { postCall } from '../support/intake.ts';
import { seedAccount, type TestService } from '../support/service.ts';
import { describe, expect, test } from '../support/harness.ts';

let t: TestDb;
let svc: TestService;
let key: string;
let speech: string;

test.beforeAll(async ({ db, service }) => {
  t = db;
  svc = service;
  ({ key } = await seedAccount(svc));
  speech = await speak('Hello, thank you for calling Escucha.', { voice: 'en' });
});

const send = (file: { path: string; name?: string; type?: string }) =>
  postCall(svc.url, { key, fields: { agent_code: 'AG-07' }, file });
const countCalls = async () => (await t.sql('SELECT count(*)::int AS n FROM calls'))[0].n as number;

const pdf = path.join(os.tmpdir(), 'escucha-fixture.pdf');
const png = path.join(os.tmpdir(), 'escucha-fixture.png');
const text = path.join(os.tmpdir(), 'escucha-fixture.txt');
writeFileSync(pdf, '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
writeFileSync(
  png,
  Buffer.from(
    '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
      '1f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082',
    'hex',
  ),
);
writeFileSync(text, 'just some notes about a call, not audio at all\n');

describe('§8 accepted formats: MP3, WAV, OGG, M4A, AAC, FLAC, Opus, WebM, WMA, AMR', () => {
  for (const format of AUDIO_FORMATS) {
    test(`accepts a real ${format.toUpperCase()} recording (201)`, async () => {
      const file = await convert(speech, format);
      const r = await send({ path: file, name: `call.${format}`, type: 'application/octet-stream' });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    });
  }
});

describe('§4 File type rule and PRODUCT magic-byte sniffing', () => {
  test('audio disguised with a wrong name and type is accepted (magic bytes win): MP3 named notes.txt as text/plain', async () => {
    const r = await send({ path: await convert(speech, 'mp3'), name: 'notes.txt', type: 'text/plain' });
    expect(r.status).toBe(201);
    const [row] = await t.sql('SELECT content_type FROM calls WHERE id = $1', [r.body.id]);
    expect(row.content_type).toBe('audio/mpeg');
  });

  test('an audio container is accepted whatever the name: WebM named video.bin', async () => {
    expect(
      (await send({ path: await convert(speech, 'webm'), name: 'video.bin', type: 'application/octet-stream' })).status,
    ).toBe(201);
  });

  test('an Ogg container whose first stream file-type does not name (a Skeleton track before the Vorbis audio) is accepted whatever its name', async () => {
    // Ogg files from several tools start with a Skeleton stream ("fishead"); file-type then only
    // says application/ogg. docs/api/product-decisions.md: an Ogg container is accepted whatever its name.
    const vorbis = readFileSync(await convert(speech, 'ogg'));
    const file = path.join(os.tmpdir(), 'escucha-fixture-skeleton.ogg');
    writeFileSync(file, Buffer.concat([skeletonPage(), vorbis]));
    const r = await send({ path: file, name: 'recording.bin', type: 'application/octet-stream' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const [row] = await t.sql('SELECT content_type FROM calls WHERE id = $1', [r.body.id]);
    expect(row.content_type).toBe('audio/ogg');
  });

  test('a sniffed non-audio type is not_audio even with an audio name and type: PDF named call.mp3 as audio/mpeg', async () => {
    const before = await countCalls();
    const r = await send({ path: pdf, name: 'call.mp3', type: 'audio/mpeg' });
    expect(r.status).toBe(415);
    expect(r.body.error.code).toBe('not_audio');
    expect(await countCalls()).toBe(before);
  });

  test('a PNG named call.wav is not_audio (415)', async () => {
    expect((await send({ path: png, name: 'call.wav', type: 'audio/wav' })).body.error.code).toBe('not_audio');
  });

  test('sent as application/octet-stream, the file-name extension decides: unknown bytes named .wav are accepted', async () => {
    expect((await send({ path: text, name: 'call.wav', type: 'application/octet-stream' })).status).toBe(201);
  });

  test('unknown bytes with an audio/... type are accepted even without an audio extension', async () => {
    expect((await send({ path: text, name: 'call.dat', type: 'audio/x-custom' })).status).toBe(201);
  });

  test('no audio extension and no audio/... type → 415 not_audio, nothing stored', async () => {
    const before = await countCalls();
    const files = svc.storedFiles().length;
    for (const type of ['application/octet-stream', 'text/plain', '']) {
      const r = await send({ path: text, name: 'notes.txt', type });
      expect(r.status).toBe(415);
      expect(r.body.error).toMatchObject({ code: 'not_audio' });
    }
    expect(await countCalls()).toBe(before);
    expect(svc.storedFiles().length).toBe(files);
  });
});

/** An Ogg page (RFC 3533) holding one packet, with its CRC (polynomial 0x04c11db7, unreflected). */
function oggPage(packet: Buffer, serial: number, flags: number, sequence: number): Buffer {
  const segments = [];
  for (let left = packet.length; ; left -= 255) {
    segments.push(Math.min(left, 255));
    if (left < 255) break;
  }
  const header = Buffer.alloc(27 + segments.length);
  header.write('OggS', 0, 'latin1');
  header[5] = flags;
  header.writeUInt32LE(serial, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = segments.length;
  Buffer.from(segments).copy(header, 27);
  const page = Buffer.concat([header, packet]);
  let crc = 0;
  for (const byte of page) {
    crc ^= byte << 24;
    for (let i = 0; i < 8; i++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  page.writeUInt32LE(crc >>> 0, 22);
  return page;
}

/** The first page of an Ogg Skeleton 3.0 stream (its "fishead" packet), as tools put before the media. */
function skeletonPage(): Buffer {
  const fishead = Buffer.alloc(64);
  fishead.write('fishead\0', 0, 'latin1');
  fishead.writeUInt16LE(3, 8);
  fishead.writeUInt16LE(0, 10);
  fishead.writeBigUInt64LE(1000n, 20); // presentation time denominator
  fishead.writeBigUInt64LE(1000n, 36); // base time denominator
  return oggPage(fishead, 0x5ce1e70, 0x02, 0);
}
