// Hostile or broken input to sandbox configs and env vars: each a typed 4xx, and nothing written
// (no config row, no env row, no audit row).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpName } from '@/lib/api/operations';
import { type ConfigFixture, docker, e2b, startConfigFixture, unique } from '@/test/helpers/sandbox-configs';

let f: ConfigFixture;
let owner: string;
let tmp: string;
let tlsDir: string;
let wsRoot: string;
const call: ConfigFixture['call'] = (...a) => f.call(...a);
const counts = () => f.counts();

beforeAll(async () => {
  f = await startConfigFixture();
  ({ tmp, tlsDir, wsRoot } = f);
  owner = f.tokens.owner;
});

afterAll(async () => {
  await f?.stop();
});

describe('hostile input: a typed 4xx and nothing written', () => {
  let cfgId: string;
  beforeAll(async () => {
    cfgId = (await call('createSandboxConfig', owner, { body: docker() })).json.id;
  });
  const outside = () => path.join(tmp, 'outside');
  const cases: [string, () => { op: OpName; params?: Record<string, string>; body: unknown }, number, string][] = [
    ['unknown backend', () => ({ op: 'createSandboxConfig', body: { name: unique('x'), backend: 'local', config: {} } }), 400, 'validation'],
    ['image injection ;', () => ({ op: 'createSandboxConfig', body: docker({ image: 'busybox;rm -rf /' }) }), 400, 'validation'],
    ['image injection $()', () => ({ op: 'createSandboxConfig', body: docker({ image: '$(x)' }) }), 400, 'validation'],
    ['image as a flag', () => ({ op: 'createSandboxConfig', body: docker({ image: '--privileged' }) }), 400, 'validation'],
    ['tcp to metadata', () => ({ op: 'createSandboxConfig', body: docker({ host: 'tcp://169.254.169.254:2376', tlsCertPath: tlsDir }) }), 403, 'ssrf_blocked'],
    [
      'tcp to metadata even with private endpoints allowed',
      () => ({ op: 'createSandboxConfig', body: docker({ host: 'tcp://169.254.169.254:2376', tlsCertPath: tlsDir, allowPrivateEndpoints: true }) }),
      403,
      'ssrf_blocked',
    ],
    [
      'tcp to a private address without the opt-in',
      () => ({ op: 'createSandboxConfig', body: docker({ host: 'tcp://10.1.2.3:2376', tlsCertPath: tlsDir }) }),
      403,
      'ssrf_blocked',
    ],
    [
      'tcp to IPv4-mapped metadata',
      () => ({ op: 'createSandboxConfig', body: docker({ host: 'tcp://[::ffff:169.254.169.254]:2376', tlsCertPath: tlsDir, allowPrivateEndpoints: true }) }),
      403,
      'ssrf_blocked',
    ],
    ['tcp without TLS', () => ({ op: 'createSandboxConfig', body: docker({ host: 'tcp://127.0.0.1:2376', allowPrivateEndpoints: true }) }), 400, 'validation'],
    ['TLS dir outside the roots', () => ({ op: 'createSandboxConfig', body: docker({ tlsCertPath: outside() }) }), 400, 'validation'],
    ['TLS dir missing files', () => ({ op: 'createSandboxConfig', body: docker({ tlsCertPath: path.join(tmp, 'tls', 'partial') }) }), 400, 'validation'],
    ['TLS dir with ..', () => ({ op: 'createSandboxConfig', body: docker({ tlsCertPath: `${tlsDir}/../../outside` }) }), 400, 'validation'],
    ['memory out of range', () => ({ op: 'createSandboxConfig', body: docker({ memoryLimitMb: 10 }) }), 400, 'validation'],
    ['cpu out of range', () => ({ op: 'createSandboxConfig', body: docker({ cpuLimit: 1000 }) }), 400, 'validation'],
    ['pids out of range', () => ({ op: 'createSandboxConfig', body: docker({ pidsLimit: 0 }) }), 400, 'validation'],
    ['network mode host', () => ({ op: 'createSandboxConfig', body: docker({ networkMode: 'host' }) }), 400, 'validation'],
    ['runtime injection', () => ({ op: 'createSandboxConfig', body: docker({ runtime: 'runc --debug' }) }), 400, 'validation'],
    ['mount with ..', () => ({ op: 'createSandboxConfig', body: docker({ workspaceMount: `${wsRoot}/../outside` }) }), 400, 'validation'],
    ['mount through a symlink out', () => ({ op: 'createSandboxConfig', body: docker({ workspaceMount: path.join(wsRoot, 'escape') }) }), 400, 'validation'],
    ['mount outside the roots', () => ({ op: 'createSandboxConfig', body: docker({ workspaceMount: outside() }) }), 400, 'validation'],
    ['e2b without an API key', () => ({ op: 'createSandboxConfig', body: e2b({ apiKey: '' }) }), 400, 'validation'],
    ['e2b "***" with nothing stored', () => ({ op: 'createSandboxConfig', body: e2b({ apiKey: '***' }) }), 400, 'validation'],
    ['e2b API on link-local', () => ({ op: 'createSandboxConfig', body: e2b({ apiUrl: 'http://169.254.169.254/' }) }), 403, 'ssrf_blocked'],
    ['patch with a bad image', () => ({ op: 'updateSandboxConfig', params: { id: cfgId }, body: { config: { image: 'a b' } } }), 400, 'validation'],
    ['env name with =', () => ({ op: 'setConfigEnv', params: { id: cfgId }, body: { name: 'A=B', value: 'x' } }), 400, 'validation'],
    ['env name with NUL', () => ({ op: 'setConfigEnv', params: { id: cfgId }, body: { name: 'A\0B', value: 'x' } }), 400, 'validation'],
    ['reserved env name PATH', () => ({ op: 'setConfigEnv', params: { id: cfgId }, body: { name: 'PATH', value: '/tmp' } }), 400, 'validation'],
    ['reserved env prefix LD_', () => ({ op: 'setConfigEnv', params: { id: cfgId }, body: { name: 'LD_PRELOAD', value: '/x.so' } }), 400, 'validation'],
    [
      'reserved env prefix SKILLDOCK_',
      () => ({ op: 'setMyEnv', body: { level: 'personal_skill', skillKey: 'weather', name: 'SKILLDOCK_SECRET_KEY', value: 'x' } }),
      400,
      'validation',
    ],
    ['env value with NUL', () => ({ op: 'setConfigEnv', params: { id: cfgId }, body: { name: 'OK_NAME', value: 'a\0b' } }), 400, 'validation'],
    [
      'env value of 1 MiB',
      () => ({ op: 'setConfigEnv', params: { id: cfgId }, body: { name: 'BIG', value: 'x'.repeat(1024 * 1024) } }),
      413,
      'payload_too_large',
    ],
    ['env value over 32 KiB', () => ({ op: 'setConfigEnv', params: { id: cfgId }, body: { name: 'BIG', value: 'x'.repeat(33 * 1024) } }), 400, 'validation'],
    ['env on a missing config', () => ({ op: 'setConfigEnv', params: { id: 'nope' }, body: { name: 'A', value: 'x' } }), 404, 'not_found'],
  ];
  for (const [what, make, status, code] of cases) {
    it(what, async () => {
      const c = make();
      const before = await counts();
      const r = await call(c.op, owner, { params: c.params, body: c.body });
      expect(r.status, JSON.stringify(r.json)).toBe(status);
      expect(r.json.error.code).toBe(code);
      expect(await counts()).toEqual(before);
    });
  }
});
