import { describe, expect, it } from 'vitest';
import { historyDetail } from '../../src/web/lib/history-detail.ts';
import { en } from '../../src/web/i18n/en.ts';
import { es } from '../../src/web/i18n/es.ts';

const tr =
  (dict: Record<string, string>) =>
  (key: string, params: Record<string, string | number> = {}) =>
    dict[key]!.replace(/\{(\w+)\}/g, (_m, k: string) => String(params[k]));

describe('status history details in the UI language', () => {
  it('translates every form the server writes, in Spanish', () => {
    const t = tr(es) as any;
    expect(historyDetail('accepted via api', t)).toBe('recibida por la API');
    expect(historyDetail('attempt 2', t)).toBe('intento 2');
    expect(historyDetail('template Soporte QA', t)).toBe('plantilla Soporte QA');
    expect(historyDetail('no template applies', t)).toBe('no se aplica ninguna plantilla');
    expect(historyDetail('score 87.5 with Soporte QA', t)).toBe('puntuación 87.5 con Soporte QA');
    expect(historyDetail('undecodable', t)).toBe(es['failure.undecodable']);
  });

  it('keeps English forms readable and leaves unknown text as sent', () => {
    const t = tr(en) as any;
    expect(historyDetail('score n/a with QA', t)).toBe('score — with QA');
    expect(historyDetail('something new', t)).toBe('something new');
  });
});
