import { describe, expect, it } from 'vitest';
import { clientKey } from '../auth/client-key';
import { RateLimiter } from '../core/rate-limit';
import { clientIp, parseTrustedProxies } from './client-ip';
import { hostAllowed, hostPolicy } from './host-check';

describe('the Host check', () => {
  const base = { PORT: 3000, HOST: '0.0.0.0', SKILLDOCK_PUBLIC_URL: undefined, SKILLDOCK_ALLOWED_HOSTS: undefined };

  it('answers loopback names on the listening port only', () => {
    const p = hostPolicy(base);
    for (const h of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'LOCALHOST:3000']) expect(hostAllowed(h, p), h).toBe(true);
    for (const h of ['evil.example', 'evil.example:3000', 'localhost:3001', '127.0.0.1', '10.0.0.5:3000', '', undefined])
      expect(hostAllowed(h, p), String(h)).toBe(false);
  });

  it('answers the public URL host (its default port too) and the allowlist', () => {
    const p = hostPolicy({ ...base, SKILLDOCK_PUBLIC_URL: 'https://console.example.com/', SKILLDOCK_ALLOWED_HOSTS: 'lan-box, 10.0.0.5:3000 ,[fd00::5]:3000' });
    for (const h of ['console.example.com', 'console.example.com:443', 'lan-box', 'lan-box:8080', '10.0.0.5:3000', '[fd00::5]:3000']) {
      expect(hostAllowed(h, p), h).toBe(true);
    }
    for (const h of ['console.example.com:3000', 'other.example.com', '10.0.0.5:3001', 'console.example.com.evil.example'])
      expect(hostAllowed(h, p), h).toBe(false);
  });

  it('answers the bind address when it is a specific one', () => {
    expect(hostAllowed('192.168.1.7:3000', hostPolicy({ ...base, HOST: '192.168.1.7' }))).toBe(true);
    expect(hostAllowed('192.168.1.7:3000', hostPolicy(base))).toBe(false);
  });
});

describe('the client address behind proxies', () => {
  it('ignores X-Forwarded-For unless proxies are trusted', () => {
    expect(clientIp('::ffff:10.0.0.9', '1.2.3.4', parseTrustedProxies(undefined))).toBe('10.0.0.9');
    expect(clientIp('127.0.0.1', '1.2.3.4', parseTrustedProxies(''))).toBe('127.0.0.1');
  });

  it('takes the right-most untrusted hop, never the client-written left part', () => {
    const trusted = parseTrustedProxies('10.0.0.0/8, ::1');
    // The client sent "6.6.6.6" itself; the proxy at 10.0.0.2 appended the address it saw.
    expect(clientIp('10.0.0.2', '6.6.6.6, 203.0.113.7', trusted)).toBe('203.0.113.7');
    expect(clientIp('10.0.0.2', '6.6.6.6, 203.0.113.7, 10.1.1.1', trusted)).toBe('203.0.113.7');
    // A connection that does not come from a trusted proxy: its header is the client's own words.
    expect(clientIp('198.51.100.4', '6.6.6.6', trusted)).toBe('198.51.100.4');
    expect(clientIp('::1', '2001:db8::1', trusted)).toBe('2001:db8::1');
    expect(clientIp('10.0.0.2', 'not-an-ip, 203.0.113.7', trusted)).toBe('203.0.113.7');
    expect(clientIp('10.0.0.2', 'not-an-ip', trusted)).toBe('10.0.0.2');
  });

  it('counts hops from the socket', () => {
    expect(clientIp('10.0.0.2', '6.6.6.6, 203.0.113.7', parseTrustedProxies('1'))).toBe('203.0.113.7');
    expect(clientIp('10.0.0.2', '6.6.6.6, 203.0.113.7, 10.0.0.3', parseTrustedProxies('2'))).toBe('203.0.113.7');
    expect(clientIp('10.0.0.2', undefined, parseTrustedProxies('1'))).toBe('10.0.0.2');
  });

  it('refuses a setting that is neither a count nor addresses', () => {
    expect(() => parseTrustedProxies('10.0.0.0/8, proxy.internal')).toThrow(/proxy\.internal/);
  });
});

describe('the throttling unit', () => {
  it('is the address for IPv4 and the /64 for IPv6', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2::1')).toBe(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
  });
});

describe('the per-user rate limiter', () => {
  it('allows max calls per window and says how long to wait', () => {
    let now = 1_000_000;
    const rl = new RateLimiter(() => now);
    const rule = { max: 2, perSeconds: 10 };
    expect(rl.take('a', rule)).toBe(0);
    expect(rl.take('a', rule)).toBe(0);
    expect(rl.take('b', rule)).toBe(0);
    now += 4000;
    expect(rl.take('a', rule)).toBe(6000);
    now += 6000;
    expect(rl.take('a', rule)).toBe(0);
  });
});
