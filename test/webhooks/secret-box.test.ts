import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret } from '../../src/crypto/secret-box.ts';

const appSecret = 'a'.repeat(40);

describe('secret-box', () => {
  it('round-trips and never shows the plaintext', () => {
    const sealed = sealSecret(appSecret, 'whsec_c2VjcmV0', 'account-1');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('c2VjcmV0');
    expect(openSecret(appSecret, sealed, 'account-1')).toBe('whsec_c2VjcmV0');
  });

  it('uses a fresh IV each time', () => {
    expect(sealSecret(appSecret, 's', 'c')).not.toBe(sealSecret(appSecret, 's', 'c'));
  });

  it('refuses another app secret, another context, a tampered value and an unknown version', () => {
    const sealed = sealSecret(appSecret, 'whsec_x', 'account-1');
    expect(() => openSecret('b'.repeat(40), sealed, 'account-1')).toThrow(/cannot be opened/);
    expect(() => openSecret(appSecret, sealed, 'account-2')).toThrow(/cannot be opened/);
    const [v, iv, tag, ct] = sealed.split('.');
    // Change the first ciphertext character to a different one (the IV is random, so it may already be "A").
    const tampered = `${ct!.startsWith('A') ? 'B' : 'A'}${ct!.slice(1)}`;
    expect(() => openSecret(appSecret, [v, iv, tag, tampered].join('.'), 'account-1')).toThrow();
    expect(() => openSecret(appSecret, [v, iv, tag!.slice(0, 6), ct].join('.'), 'account-1')).toThrow(
      /cannot be opened/,
    );
    expect(() => openSecret(appSecret, `v2.${iv}.${tag}.${ct}`, 'account-1')).toThrow(/unknown version/);
  });
});
