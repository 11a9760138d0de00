import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MASK, parseKey, resolveSecretUpdate, secretBox } from './crypto';

describe('secret box', () => {
  const box = secretBox(randomBytes(32));
  it('round-trips and never repeats a ciphertext', () => {
    const a = box.seal('ghp_secret', 'setting:github.token');
    expect(a).not.toContain('ghp_secret');
    expect(a).not.toBe(box.seal('ghp_secret', 'setting:github.token'));
    expect(box.open(a, 'setting:github.token')).toBe('ghp_secret');
  });
  it('refuses another context, a tampered value and another key', () => {
    const a = box.seal('value', 'ctx:a');
    expect(() => box.open(a, 'ctx:b')).toThrow(/integrity/);
    const parts = a.split('.');
    parts[3] = Buffer.from('other').toString('base64url');
    expect(() => box.open(parts.join('.'), 'ctx:a')).toThrow(/integrity/);
    expect(() => secretBox(randomBytes(32)).open(a, 'ctx:a')).toThrow(/another key/);
  });
  it('parses keys and keeps stored values on the mask', () => {
    expect(parseKey(randomBytes(32).toString('base64url')).length).toBe(32);
    expect(() => parseKey('c2hvcnQ=')).toThrow(/32 bytes/);
    expect(resolveSecretUpdate(MASK, 'old')).toBe('old');
    expect(resolveSecretUpdate(undefined, 'old')).toBe('old');
    expect(resolveSecretUpdate('', 'old')).toBe(null);
    expect(resolveSecretUpdate('new', 'old')).toBe('new');
  });
});
