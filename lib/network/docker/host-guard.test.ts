// The proxy's guard: the host's own addresses (read from this kernel, and from sample files) and
// the networks' subnets, refreshed after their time. Nothing is sent anywhere.
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { HostGuard, localV4FromFibTrie, v6FromIfInet6 } from './host-guard';

const FIB = `Main:
  +-- 0.0.0.0/0 3 0 4
     |-- 0.0.0.0
        /0 universe UNICAST
     +-- 127.0.0.0/8 2 0 2
           |-- 127.0.0.0
              /8 host LOCAL
           |-- 127.0.0.1
              /32 host LOCAL
        |-- 127.255.255.255
           /32 link BROADCAST
     +-- 172.17.0.0/16 2 0 2
           |-- 172.17.0.0
              /16 link UNICAST
           |-- 172.17.0.1
              /32 host LOCAL
Local:
     |-- 172.17.0.1
        /32 host LOCAL
`;

const INET6 = `fd000000000000000000000000000002 04 40 00 82     eth0
fe8000000000000000fc00fffe000001 04 40 20 80     eth0
00000000000000000000000000000001 01 80 10 80       lo
garbage line
`;

describe('host address listings', () => {
  it('reads the local /32 addresses of the fib trie, not networks or broadcasts', () => {
    expect(localV4FromFibTrie(FIB).sort()).toEqual(['127.0.0.1', '172.17.0.1']);
  });

  it('reads every IPv6 address of /proc/net/if_inet6', () => {
    expect(v6FromIfInet6(INET6)).toEqual(['fd00::2', 'fe80::fc:ff:fe00:1', '::1']);
  });
});

describe('HostGuard', () => {
  it("refuses this host's own interface addresses, read from the kernel", async () => {
    const guard = new HostGuard({ networkSubnets: async () => [] });
    const mine = Object.values(os.networkInterfaces())
      .flatMap((l) => l ?? [])
      .map((i) => i.address.split('%')[0]);
    expect(mine.length).toBeGreaterThan(0);
    for (const a of mine) expect(await guard.check([a]), a).toMatchObject({ allowed: false, kind: 'host', entry: expect.any(String) });
    expect(await guard.check(['203.0.113.77'])).toBeNull();
  });

  it('refuses any address in a listed subnet, a v4-mapped spelling included, and passes the rest', async () => {
    const guard = new HostGuard({ hostAddresses: async () => ['192.0.2.2'], networkSubnets: async () => ['172.18.0.0/16', 'fd42::/64'] });
    expect(await guard.check(['203.0.113.1', '172.18.3.4'])).toMatchObject({ kind: 'other-network', entry: '172.18.0.0/16' });
    expect(await guard.check(['::ffff:172.18.0.1'])).toMatchObject({ kind: 'other-network' });
    expect(await guard.check(['fd42::9'])).toMatchObject({ kind: 'other-network', entry: 'fd42::/64' });
    expect(await guard.check(['::ffff:192.0.2.2'])).toMatchObject({ kind: 'host', entry: '192.0.2.2' });
    expect(await guard.check(['203.0.113.1', '2001:db8::1'])).toBeNull();
  });

  it('lists again after its time or when invalidated, and keeps the last listing when a new one fails', async () => {
    let now = 0;
    let subnets = ['172.18.0.0/16'];
    let fail = false;
    let lists = 0;
    const guard = new HostGuard({
      hostAddresses: async () => [],
      networkSubnets: async () => {
        lists++;
        if (fail) throw new Error('engine down');
        return subnets;
      },
      ttlMs: 1000,
      now: () => now,
    });
    expect(await guard.check(['172.19.0.1'])).toBeNull();
    subnets = ['172.19.0.0/16'];
    now = 500;
    expect(await guard.check(['172.19.0.1'])).toBeNull();
    now = 1500;
    expect(await guard.check(['172.19.0.1'])).toMatchObject({ kind: 'other-network' });
    subnets = ['172.20.0.0/16'];
    guard.invalidate();
    expect(await guard.check(['172.20.0.1'])).toMatchObject({ kind: 'other-network' });
    fail = true;
    guard.invalidate();
    expect(await guard.check(['172.20.0.1'])).toMatchObject({ kind: 'other-network' });
    expect(lists).toBe(4);
  });

  it('refuses everything when the first listing fails', async () => {
    const guard = new HostGuard({
      hostAddresses: async () => [],
      networkSubnets: async () => {
        throw new Error('engine down');
      },
    });
    expect(await guard.check(['203.0.113.1'])).toMatchObject({ allowed: false, kind: 'host' });
  });
});
