// docs/api/product-decisions.md "File-name rules": the examples the product decision names, and each rule.
import { describe, expect, it } from 'vitest';
import { parseFileName } from '../../src/intake/filename.ts';

const TZ = 'Europe/Madrid';
const parse = (n: string) => parseFileName(n, TZ, new Date('2026-01-01T00:00:00Z'));

describe('file-name examples', () => {
  it('FreePBX out-600111222-1001-20240115-103000-1705311000.123.wav: outbound, agent 1001, customer 600111222, local date', () => {
    const f = parse('out-600111222-1001-20240115-103000-1705311000.123.wav');
    expect(f.direction).toBe('outbound');
    expect(f.agentCandidates[0]).toBe('1001');
    expect(f.phones[0]!.value).toBe('600111222');
    expect(f.startedAt?.toISOString()).toBe('2024-01-15T09:30:00.000Z');
  });

  it('in-34911222333-AG_07-20231012-142233.mp3: inbound, agent AG_07 among the candidates, phone, CEST date', () => {
    const f = parse('in-34911222333-AG_07-20231012-142233.mp3');
    expect(f.direction).toBe('inbound');
    expect(f.agentCandidates).toContain('ag07');
    expect(f.phones[0]!.value).toBe('34911222333');
    expect(f.startedAt?.toISOString()).toBe('2023-10-12T12:22:33.000Z');
  });

  it('2024-03-05_09-15-00_+34600111222_outbound_ana-01.ogg: date, phone with +, outbound, agent ana-01', () => {
    const f = parse('2024-03-05_09-15-00_+34600111222_outbound_ana-01.ogg');
    expect(f.startedAt?.toISOString()).toBe('2024-03-05T08:15:00.000Z');
    expect(f.phones[0]!.value).toBe('+34600111222');
    expect(f.direction).toBe('outbound');
    expect(f.agentCandidates).toContain('ana01');
  });

  it('recording.m4a: nothing', () => {
    const f = parse('recording.m4a');
    expect(f.direction).toBeUndefined();
    expect(f.startedAt).toBeUndefined();
    expect(f.phones).toEqual([]);
  });

  it('1712345678901_ag7.opus: Unix milliseconds and agent ag7', () => {
    const f = parse('1712345678901_ag7.opus');
    expect(f.startedAt?.toISOString()).toBe(new Date(1712345678901).toISOString());
    expect(f.agentCandidates).toContain('ag7');
    expect(f.phones).toEqual([]);
  });
});

describe('file-name rules', () => {
  it('direction words in English and Spanish', () => {
    for (const w of ['in', 'inbound', 'incoming', 'entrante', 'entrada'])
      expect(parse(`x_${w}_y.wav`).direction).toBe('inbound');
    for (const w of ['out', 'outbound', 'outgoing', 'saliente', 'salida'])
      expect(parse(`x_${w}_y.wav`).direction).toBe('outbound');
  });

  it('date forms: YYYYMMDD+HHMMSS adjacent or joined by T, YYYY-MM-DD + HH.MM.SS, Unix seconds', () => {
    expect(parse('20240115T103000.wav').startedAt?.toISOString()).toBe('2024-01-15T09:30:00.000Z');
    expect(parse('call 20240115 103000.wav').startedAt?.toISOString()).toBe('2024-01-15T09:30:00.000Z');
    expect(parse('2024-01-15 10.30.00 agent.wav').startedAt?.toISOString()).toBe('2024-01-15T09:30:00.000Z');
    expect(parse('rec-1705311000.wav').startedAt?.toISOString()).toBe('2024-01-15T09:30:00.000Z');
  });

  it('local times use the account time zone', () => {
    expect(parseFileName('20240715-120000.wav', 'America/New_York').startedAt?.toISOString()).toBe(
      '2024-07-15T16:00:00.000Z',
    );
    expect(parseFileName('20240715-120000.wav', 'UTC').startedAt?.toISOString()).toBe('2024-07-15T12:00:00.000Z');
  });

  it('impossible or out-of-range dates are not dates', () => {
    expect(parse('20240230-103000.wav').startedAt).toBeUndefined();
    expect(parse('19990101-103000.wav').startedAt).toBeUndefined();
  });

  it('phone: 6–15 digits with optional + or 00, not part of the date', () => {
    expect(parse('0034600111222_x.wav').phones[0]!.value).toBe('0034600111222');
    expect(parse('12345_x.wav').phones).toEqual([]);
    expect(parse('20240115-103000-600111222.wav').phones.map((p) => p.value)).toEqual(['600111222']);
  });
});
