import { describe, expect, it } from 'vitest';
import { flushSubnet } from './conntrack';
import { applyTable, deleteTable, readTable } from './nft';

// Refused before any program runs: these never reach nft, conntrack or ip.
describe('firewall program arguments', () => {
  it.each([
    ['a subnet with a second argument', () => flushSubnet('10.0.0.0/8 -D')],
    ['a subnet that is a host name', () => flushSubnet('example.org')],
    ['an IPv6 subnet with a bad prefix', () => flushSubnet('fd12::/129')],
    ['a namespace name with a slash', () => applyTable('table inet skilldock {}\n', { netns: '../x' })],
    ['a namespace name with a space', () => deleteTable('skilldock', { netns: 'a b' })],
    ['a table name with a space', () => readTable('skilldock x')],
    ['an empty script', () => applyTable('')],
  ])('refuses %s', async (_what, run) => {
    await expect(run()).rejects.toMatchObject({ code: 'validation' });
  });
});
