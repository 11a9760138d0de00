import { describe, expect, it } from 'vitest';
import { parseDestination } from './destination';

describe('parseDestination', () => {
  it.each([
    ['pypi.org', { host: 'pypi.org', port: 443, kind: 'domain' }],
    ['PyPI.org.', { host: 'pypi.org', port: 443, kind: 'domain' }],
    ['  pypi.org:8080 ', { host: 'pypi.org', port: 8080, kind: 'domain' }],
    ['1.2.3.4', { host: '1.2.3.4', port: 443, kind: 'ip' }],
    ['1.2.3.4:22', { host: '1.2.3.4', port: 22, kind: 'ip' }],
    ['2001:DB8::1', { host: '2001:db8::1', port: 443, kind: 'ip' }],
    ['[2001:db8::1]:443', { host: '2001:db8::1', port: 443, kind: 'ip' }],
    ['[2001:db8::1]', { host: '2001:db8::1', port: 443, kind: 'ip' }],
    ['[::ffff:169.254.169.254]', { host: '::ffff:a9fe:a9fe', port: 443, kind: 'ip' }],
    ['http://example.com', { host: 'example.com', port: 80, kind: 'domain' }],
    ['https://example.com/a/b?c#d', { host: 'example.com', port: 443, kind: 'domain' }],
    ['HTTP://Example.com:8080/x', { host: 'example.com', port: 8080, kind: 'domain' }],
    ['http://[2001:db8::1]:8080/', { host: '2001:db8::1', port: 8080, kind: 'ip' }],
    ['https://10.0.0.1', { host: '10.0.0.1', port: 443, kind: 'ip' }],
    ['http://x.com?q', { host: 'x.com', port: 80, kind: 'domain' }],
  ])('%j → %j', (input, expected) => {
    expect(parseDestination(input)).toEqual(expected);
  });

  it.each([
    ['', 'Enter a host'],
    ['a b.com', 'whitespace'],
    ['ftp://x.com', 'The scheme "ftp" is not supported'],
    ['ssh://x.com', 'is not supported'],
    ['https://user:pw@x.com/', 'User information'],
    ['user@x.com', 'User information'],
    ['x.com/path', 'A path needs a scheme'],
    ['x.com:0', 'must be a number from 1 to 65535'],
    ['x.com:65536', 'must be a number from 1 to 65535'],
    ['x.com:http', 'must be a number from 1 to 65535'],
    ['x.com:', 'must be a number from 1 to 65535'],
    ['[2001:db8::1]:99999', 'must be a number from 1 to 65535'],
    ['[2001:db8::1', 'no "]" closes it'],
    ['[2001:db8::1]x', 'only ":port" may follow'],
    ['[1.2.3.4]:80', 'is not an IPv6 address'],
    ['2852039166', 'not a dotted-quad'],
    ['http://2852039166/', 'not a dotted-quad'],
    ['0251.0376.0251.0376', 'not a dotted-quad'],
    ['0x7f.0.0.1', 'the last label is a number'],
    ['http://0x7f.1/', 'the last label is a number'],
    ['1.2.3', 'not a dotted-quad'],
    ['1.2.3:443', 'not a dotted-quad'],
    ['fe80::1%eth0', 'Zone ids'],
    ['x.com%2f', 'percent-encoding'],
    ['2001:db8:::1', 'not a valid IPv6 address'],
    ['*.x.com', 'a wildcard is not allowed here'],
    ['localhost', 'at least two labels'],
    ['https://', 'The URL has no host'],
  ])('refuses %j (%s)', (input, reason) => {
    expect(parseDestination(input)).toEqual({ path: 'destination', message: expect.stringContaining(reason) });
  });
});
