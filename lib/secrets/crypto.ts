import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { AppError } from '../core/errors';

/** Shown instead of any stored secret; sending it back means "keep the stored value". */
export const MASK = '***';
const VERSION = 'v1';

export interface SecretBox {
  /** Identifies the key (a hash prefix that reveals nothing about it), stored with each ciphertext. */
  keyId: string;
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

/**
 * AES-256-GCM with a random 96-bit nonce per value. `context` (e.g. "setting:github.token") is
 * bound as associated data, so a ciphertext copied into another field does not decrypt.
 */
export function secretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new AppError('validation', 'The secret key must be exactly 32 bytes.');
  const keyId = createHash('sha256').update('skilldock-key-id:').update(key).digest('hex').slice(0, 8);
  return {
    keyId,
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      c.setAAD(Buffer.from(context));
      const body = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
      return [VERSION, keyId, iv.toString('base64url'), body.toString('base64url'), c.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed, context) {
      const [v, kid, iv, body, tag] = sealed.split('.');
      if (v !== VERSION || !iv || body === undefined || !tag) throw new AppError('validation', 'Not a sealed secret.');
      if (kid !== keyId)
        throw new AppError(
          'invalid_state',
          `This secret was sealed with another key (${kid}); start with the key it was written with, or enter the secret again.`,
        );
      try {
        const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        d.setAAD(Buffer.from(context));
        d.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
      } catch {
        throw new AppError('invalid_state', 'A stored secret failed its integrity check (wrong key or tampered data).');
      }
    },
  };
}

/** Parses SKILLDOCK_SECRET_KEY (base64 or base64url of 32 bytes). */
export function parseKey(text: string): Buffer {
  const key = Buffer.from(text.trim().replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== 32) throw new AppError('validation', 'SKILLDOCK_SECRET_KEY must decode to exactly 32 bytes (e.g. `openssl rand -base64 32`).');
  return key;
}

/** For updates from forms and the API: the mask (or nothing) keeps the stored secret. */
export function resolveSecretUpdate(incoming: string | null | undefined, stored: string | null): string | null {
  if (incoming === undefined || incoming === MASK) return stored;
  return incoming === '' ? null : incoming;
}
