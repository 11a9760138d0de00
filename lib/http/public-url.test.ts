import { describe, expect, it } from 'vitest';
import { hostMismatch, publicOrigin, publicUrlBootWarning } from './public-url';

describe('public URL', () => {
  it('defaults to localhost on the listening port', () => {
    expect(publicOrigin({ PORT: 3000, SKILLDOCK_PUBLIC_URL: undefined })).toBe('http://localhost:3000');
    expect(publicOrigin({ PORT: 3000, SKILLDOCK_PUBLIC_URL: 'https://skills.example.com/console' })).toBe('https://skills.example.com');
  });

  it('names the two hosts when a request came in under another one', () => {
    const config = { PORT: 3000, SKILLDOCK_PUBLIC_URL: undefined };
    expect(hostMismatch('localhost:3000', config)).toBeNull();
    expect(hostMismatch('LOCALHOST:3000', config)).toBeNull();
    expect(hostMismatch('127.0.0.1:3000', config)).toEqual({ used: '127.0.0.1:3000', configured: 'http://localhost:3000' });
    expect(hostMismatch('server:3000', { PORT: 3000, SKILLDOCK_PUBLIC_URL: 'http://server:3000' })).toBeNull();
    expect(hostMismatch('skills.example.com', { PORT: 3000, SKILLDOCK_PUBLIC_URL: 'https://skills.example.com' })).toBeNull();
    expect(hostMismatch(null, config)).toBeNull();
    expect(hostMismatch('bad host', config)).toBeNull();
  });

  it('warns at boot only when bound to every interface without a public URL', () => {
    expect(publicUrlBootWarning({ PORT: 3000, HOST: '0.0.0.0', SKILLDOCK_PUBLIC_URL: undefined })).toMatch(/SKILLDOCK_PUBLIC_URL is not set/);
    expect(publicUrlBootWarning({ PORT: 3000, HOST: '127.0.0.1', SKILLDOCK_PUBLIC_URL: undefined })).toBeNull();
    expect(publicUrlBootWarning({ PORT: 3000, HOST: '0.0.0.0', SKILLDOCK_PUBLIC_URL: 'http://server:3000' })).toBeNull();
  });
});
