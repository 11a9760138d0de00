import { describe, expect, it } from 'vitest';
import { backendCaveat, backendGaps, E2B_UNCHECKED_FOR_NAMES } from './backend-gaps';
import { compilePolicy } from './compile';
import { decideDestination } from './decide';
import { type Destination, parseDestination } from './destination';
import { OPEN_POLICY } from './types';

const dest = (s: string) => parseDestination(s) as Destination;
const policy = compilePolicy({ ...OPEN_POLICY, denyEgressByDefault: true, allowOut: ['api.example.com', '10.20.0.0/16'] });
const caveat = (backend: 'docker' | 'e2b' | 'cube', s: string) => backendCaveat(backend, dest(s), decideDestination(policy, dest(s)));

describe('backend gaps', () => {
  it('names the always-blocked ranges E2B does not check for a domain-allowed name', () => {
    expect(E2B_UNCHECKED_FOR_NAMES).toEqual([
      '0.0.0.0/8',
      '168.63.129.16/32',
      '224.0.0.0/4',
      '240.0.0.0/4',
      '::/128',
      '::ffff:0:0/96',
      '64:ff9b::/96',
      'ff00::/8',
    ]);
  });

  it('has no gaps and no caveats on Docker, where Skilldock enforces its own rules', () => {
    expect(backendGaps('docker')).toEqual([]);
    for (const d of ['api.example.com', '1.1.1.1:53', '10.20.0.1']) expect(caveat('docker', d)).toBeNull();
  });

  it('gives a caveat exactly where the backend would decide otherwise', () => {
    expect(caveat('e2b', 'https://api.example.com/')).toMatch(/not blocked by E2B/);
    expect(caveat('e2b', '1.1.1.1:53')).toMatch(/^E2B does not enforce this rule/);
    expect(caveat('e2b', '169.254.169.254')).toBeNull();
    expect(caveat('e2b', '10.20.0.1')).toBeNull();
    expect(caveat('cube', '10.20.0.1')).toMatch(/Cube blocks this address anyway/);
    expect(caveat('cube', '1.1.1.1:53')).toMatch(/^Cube does not enforce this rule/);
    expect(backendGaps('e2b')).toHaveLength(2);
    expect(backendGaps('cube')).toHaveLength(2);
  });
});
