// Issue 27: a turn under babble that Moonshine ends at once is asked for its best guess; the stock
// endings of subtitled videos it says over noise are not words anybody said on the call.
import { describe, expect, it } from 'vitest';
import { isStockPhrase } from '../../src/transcription/expected.ts';

describe('the decoder’s stock phrases', () => {
  it('are recognised in both languages, with their punctuation and small variations', () => {
    for (const [text, language] of [
      ['Gracias por ver el video.', 'es'],
      ['¡Gracias por ver el vídeo!', 'es'],
      ['Subtítulos realizados por la comunidad de Amara.org', 'es'],
      ['Thank you for watching!', 'en'],
      ['Thanks for watching.', 'en'],
      ['Gracias por ver el video. Suscríbete.', 'es'],
      ['♪', 'en'],
    ] as const)
      expect(isStockPhrase(text, language), text).toBe(true);
  });

  it('are not confused with what an agent says', () => {
    for (const [text, language] of [
      ['¡Hola! ¡Buenos días!', 'es'],
      ['Gracias por llamar a Acme.', 'es'],
      ['Voy a mirar mi cuenta.', 'es'],
      ['Gracias por verificar sus datos, ¿en qué puedo ayudarle?', 'es'],
      ['Thank you for calling Acme.', 'en'],
      ['Is there anything else I can help you with?', 'en'],
    ] as const)
      expect(isStockPhrase(text, language), text).toBe(false);
  });
});
