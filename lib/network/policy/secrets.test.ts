import { describe, expect, it } from 'vitest';
import { maskPolicy, mergePolicySecrets, SECRET_MASK, splitPolicySecrets } from './secrets';
import type { NetworkPolicy } from './types';

const policy = (): NetworkPolicy => ({
  denyEgressByDefault: true,
  allowOut: ['api.x.com'],
  denyOut: [],
  cubeRules: [
    {
      name: 'api',
      scheme: 'https',
      sni: '',
      host: 'api.x.com',
      methods: ['GET'],
      path: '',
      deny: false,
      audit: '',
      inject: [
        { header: 'Authorization', secret: 'tok-1', format: 'Bearer {secret}' },
        { header: 'X-Empty', secret: '', format: '' },
      ],
    },
  ],
  e2bHostRules: [{ host: 'api.x.com', headers: { 'X-Key': 'key-2' } }],
});

describe('policy secrets', () => {
  it('splits the secrets out by stable keys and leaves "" in their place', () => {
    const { plain, secrets } = splitPolicySecrets(policy());
    expect(secrets).toEqual({ 'cube:api:authorization': 'tok-1', 'e2b:api.x.com:x-key': 'key-2' });
    expect(plain.cubeRules[0].inject.map((i) => i.secret)).toEqual(['', '']);
    expect(plain.e2bHostRules[0].headers).toEqual({ 'X-Key': '' });
    expect(JSON.stringify(plain)).not.toMatch(/tok-1|key-2/);
  });

  it('does not change the policy it splits', () => {
    const p = policy();
    splitPolicySecrets(p);
    expect(p).toEqual(policy());
  });

  it('masks the stored ones only', () => {
    const { plain, secrets } = splitPolicySecrets(policy());
    const masked = maskPolicy(plain, Object.keys(secrets));
    expect(masked.cubeRules[0].inject.map((i) => i.secret)).toEqual([SECRET_MASK, '']);
    expect(masked.e2bHostRules[0].headers['X-Key']).toBe(SECRET_MASK);
  });

  it('round-trips: the masked policy sent back merges into the original', () => {
    const { plain, secrets } = splitPolicySecrets(policy());
    const merged = mergePolicySecrets(maskPolicy(plain, Object.keys(secrets)), secrets);
    expect(merged).toEqual({ policy: policy(), issues: [] });
  });

  it('takes a new value over the stored one, and "" clears it', () => {
    const p = policy();
    p.cubeRules[0].inject[0].secret = 'tok-new';
    p.e2bHostRules[0].headers['X-Key'] = '';
    const { policy: merged } = mergePolicySecrets(p, { 'cube:api:authorization': 'tok-1', 'e2b:api.x.com:x-key': 'key-2' });
    expect(splitPolicySecrets(merged).secrets).toEqual({ 'cube:api:authorization': 'tok-new' });
  });

  it('refuses the mask where nothing is stored (e.g. a renamed rule)', () => {
    const p = policy();
    p.cubeRules[0].name = 'renamed';
    p.cubeRules[0].inject[0].secret = SECRET_MASK;
    const r = mergePolicySecrets(p, { 'cube:api:authorization': 'tok-1' });
    expect(r.issues).toEqual([{ path: 'cubeRules.0.inject.0.secret', message: expect.stringContaining('none is stored here (cube:renamed:authorization)') }]);
  });
});
