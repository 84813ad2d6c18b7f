import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encrypts short secrets at rest (webhook signing secrets) with AES-256-GCM under a key derived
 * from APP_SECRET. `context` is bound as associated data, so a sealed value copied onto another
 * row (another account) fails to open instead of silently working there.
 * Format: `v1.<iv>.<tag>.<ciphertext>`, each part base64url; the version leaves room for a new
 * algorithm or key without guessing what an old value was sealed with.
 */

const VERSION = 'v1';

function key(appSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', appSecret, '', 'escucha/secret-box/v1', 32));
}

export function sealSecret(appSecret: string, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(appSecret), iv).setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function openSecret(appSecret: string, sealed: string, context: string): string {
  const [version, iv, tag, ciphertext, ...rest] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined || rest.length) {
    throw new Error('Sealed secret is malformed or of an unknown version.');
  }
  try {
    // A fixed tag length stops a truncated tag from weakening the authentication.
    const decipher = createDecipheriv('aes-256-gcm', key(appSecret), Buffer.from(iv, 'base64url'), {
      authTagLength: 16,
    })
      .setAAD(Buffer.from(context))
      .setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('Sealed secret cannot be opened: APP_SECRET changed or the value was tampered with.');
  }
}
