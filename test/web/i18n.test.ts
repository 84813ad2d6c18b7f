import { describe, expect, it } from 'vitest';
import { en } from '../../src/web/i18n/en.ts';
import { es } from '../../src/web/i18n/es.ts';
import { detectLanguage, dictionaries, hasKey, interpolate, translate } from '../../src/web/i18n/index.tsx';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('UI text in English and Spanish', () => {
  it('has every key in both languages, none empty', () => {
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
    for (const [k, v] of Object.entries(en)) expect(v.trim(), `en ${k}`).not.toBe('');
    for (const [k, v] of Object.entries(es)) expect(v.trim(), `es ${k}`).not.toBe('');
  });

  it('uses the same placeholders in both languages', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[])
      expect(placeholders(es[key]), key).toEqual(placeholders(en[key]));
  });

  it('translates Spanish for real (a few strings may legitimately match, most must not)', () => {
    const same = (Object.keys(en) as (keyof typeof en)[]).filter((k) => en[k] === es[k]);
    expect(same.length / Object.keys(en).length).toBeLessThan(0.05);
  });

  it('has a singular variant only next to its plural', () => {
    for (const key of Object.keys(en)) if (key.endsWith('_one')) expect(hasKey(key.slice(0, -4)), key).toBe(true);
    expect(translate('en', 'calls.total', { n: 1 })).toBe('1 call');
    expect(translate('es', 'calls.total', { n: '1' })).toBe('1 llamada');
    expect(translate('es', 'calls.total', { n: 3 })).toBe('3 llamadas');
  });

  it('explains every failure reason and the API error codes the app shows', () => {
    for (const reason of ['undecodable', 'no_speech', 'unsupported_language', 'too_long'])
      expect(hasKey(`failure.${reason}`)).toBe(true);
    expect(translate('en', 'failure.undecodable')).toBe('The recording could not be decoded');
    for (const code of [
      'invalid_credentials',
      'rate_limited',
      'seat_limit',
      'code_taken',
      'name_taken',
      'email_taken',
      'last_owner',
      'not_ready',
      'no_template',
      'weak_password',
      'not_found',
      'network',
      'session_expired',
      'forbidden_role',
    ])
      expect(hasKey(`errors.${code}`), code).toBe(true);
  });

  it('every key the source uses literally exists', () => {
    const dir = path.resolve('src/web');
    const used = new Set<string>();
    for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !/\.tsx?$/.test(e.name) || e.name.endsWith('.d.ts')) continue;
      const text = readFileSync(path.join(e.parentPath, e.name), 'utf8');
      for (const m of text.matchAll(/\bt\('([a-zA-Z0-9_.]+)'/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(300);
    for (const k of used) expect(hasKey(k), k).toBe(true);
  });

  it('picks the language from a saved choice, else the browser, else English', () => {
    expect(detectLanguage(null, ['es-MX', 'en'])).toBe('es');
    expect(detectLanguage(null, ['fr-FR', 'en-GB'])).toBe('en');
    expect(detectLanguage(null, ['de-DE'])).toBe('en');
    expect(detectLanguage('en', ['es-ES'])).toBe('en');
    expect(detectLanguage('xx', ['es'])).toBe('es');
    expect(Object.keys(dictionaries)).toEqual(['en', 'es']);
  });

  it('interpolates named placeholders and leaves unknown ones visible', () => {
    expect(interpolate('{a} of {b}', { a: 1, b: 2 })).toBe('1 of 2');
    expect(interpolate('{a} of {b}', { a: 1 })).toBe('1 of {b}');
  });
});
