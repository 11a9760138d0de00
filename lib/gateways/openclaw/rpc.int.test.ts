// test-phase: pglite only. What it proves is OpenClaw's own reading of what Skilldock wrote;
// the gateway store it writes through runs on both engines in the doors tests.
// The remote-gateway access against a real OpenClaw gateway (one start for the whole file):
// config.get's hash, an allowlist written by config.patch that skills.status then reflects, a
// concurrent edit refusing a write from the old hash, refused and missing credentials, device
// pairing for a gateway that sees Skilldock as remote, and the write rate limit's retry-after.
//
// "Remote" is made on loopback: the gateway trusts 127.0.0.1 as a proxy, and a client that sends
// X-Forwarded-For with a documentation address (198.51.100.0/24) is treated as coming from there.
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { ConfigChangedError } from '@/lib/gateways/access';
import { RemoteOpenClawAccess } from '@/lib/gateways/openclaw/remote-access';
import { OpenClawRpc } from '@/lib/gateways/openclaw/rpc';
import type { DeviceIdentity } from '@/lib/gateways/openclaw/rpc-frames';
import {
  ensureOpenClaw,
  freePort,
  makeOpenClawState,
  OPENCLAW_VERSION,
  type OpenClaw,
  type OpenClawGateway,
  runOpenClaw,
  skillMd,
  startOpenClawGateway,
} from '@/test/helpers/openclaw';

const TOKEN = 'skilldock-test-token-5f0c2a';
const REMOTE = { 'x-forwarded-for': '198.51.100.23' };

const newDevice = (): DeviceIdentity => ({
  privateKeyPem: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
});

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe('OpenClaw gateway RPC (remote access)', () => {
  let oc: OpenClaw;
  let gw: OpenClawGateway;
  let root: string;
  let stateDir: string;
  let home: string;
  let access: RemoteOpenClawAccess;

  beforeAll(async () => {
    oc = await ensureOpenClaw();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-oc-rpc-'));
    stateDir = path.join(root, 'state');
    home = path.join(root, 'home');
    fs.mkdirSync(home);
    const ws = (id: string) => JSON.stringify(path.join(root, `ws-${id}`));
    makeOpenClawState(
      stateDir,
      `{
        gateway: { trustedProxies: ["127.0.0.1"] },
        agents: { ownership: "explicit", entries: { a1: { workspace: ${ws('a1')} }, a2: { workspace: ${ws('a2')} } } },
      }`,
      { 'rpc-alpha': skillMd('rpc-alpha'), 'rpc-beta': skillMd('rpc-beta') },
    );
    gw = await startOpenClawGateway(oc, { stateDir, home, token: TOKEN });
    access = new RemoteOpenClawAccess(gw.url, TOKEN);
  }, 180_000);

  afterAll(async () => {
    await access?.close();
    await gw?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it("reports the gateway's version and its config with a hash", async () => {
    expect(await access.version()).toBe(OPENCLAW_VERSION);
    const c = await access.readConfig();
    expect(c.hash).toMatch(/^\S{16,}$/);
    expect(c.path).toBe(path.join(stateDir, 'openclaw.json'));
    expect(c.raw).toContain('trustedProxies');
    expect(c.value).toMatchObject({ agents: { entries: { a1: {}, a2: {} } } });
  });

  it('writes an agent allowlist with config.patch, and skills.status reflects it', async () => {
    const before = await access.readConfig();
    const r = await access.patchConfig({ agents: { entries: { a1: { skills: ['rpc-alpha'] } } } }, before.hash, []);
    expect(r.hash).not.toBe(before.hash);
    expect((await access.readConfig()).hash).toBe(r.hash);

    const [a1, a2] = await access.agentSkills(['a1', 'a2']);
    expect(a1?.agentId).toBe('a1');
    expect(fs.realpathSync(a1?.managedSkillsDir ?? '')).toBe(fs.realpathSync(path.join(stateDir, 'skills')));
    expect(a1?.skills.find((s) => s.name === 'rpc-alpha')).toMatchObject({ source: 'openclaw-managed', modelVisible: true, blockedByAgentFilter: false });
    expect(a1?.skills.find((s) => s.name === 'rpc-beta')).toMatchObject({ modelVisible: false, blockedByAgentFilter: true });
    // a2 has no allowlist: both visible.
    expect(a2?.skills.find((s) => s.name === 'rpc-beta')).toMatchObject({ modelVisible: true, blockedByAgentFilter: false });
  });

  it('refuses a write from a hash a concurrent edit moved, and keeps that edit', async () => {
    const read = await access.readConfig();
    const other = await runOpenClaw(
      oc,
      [
        'gateway',
        'call',
        'config.patch',
        '--url',
        gw.url,
        '--token',
        TOKEN,
        '--json',
        '--params',
        JSON.stringify({ raw: JSON.stringify({ agents: { entries: { a2: { skills: ['rpc-beta'] } } } }), baseHash: read.hash }),
      ],
      { stateDir, home },
    );
    expect(other.code, other.stderr + other.stdout).toBe(0);

    const err = await access.patchConfig({ agents: { entries: { a1: { skills: [] } } } }, read.hash, ['agents.entries.a1.skills']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigChangedError);

    const now = await access.readConfig();
    expect(now.hash).not.toBe(read.hash);
    expect(now.value).toMatchObject({ agents: { entries: { a1: { skills: ['rpc-alpha'] }, a2: { skills: ['rpc-beta'] } } } });
  });

  it('refuses a wrong token with a clear error, and names an unreachable address', async () => {
    const wrong = await refusal(OpenClawRpc.connect({ url: gw.url, token: 'not-the-token' }));
    expect(wrong.code).toBe('upstream_error');
    expect(wrong.details).toMatchObject({ reason: 'auth_refused', detailCode: 'AUTH_TOKEN_MISMATCH' });
    expect(wrong.message).toContain('refused the token');

    const viaAccess = await refusal(new RemoteOpenClawAccess(gw.url, 'not-the-token').readConfig());
    expect(viaAccess.details).toMatchObject({ reason: 'auth_refused' });

    const gone = await refusal(OpenClawRpc.connect({ url: `ws://127.0.0.1:${await freePort()}`, token: TOKEN, connectTimeoutMs: 3000 }));
    expect(gone.code).toBe('unavailable');
  });

  it('needs a paired device when the gateway sees it as remote', async () => {
    const bare = await refusal(OpenClawRpc.connect({ url: gw.url, token: TOKEN, headers: REMOTE }));
    expect(bare.details).toMatchObject({ reason: 'missing_scope' });

    const device = newDevice();
    const pending = await refusal(OpenClawRpc.connect({ url: gw.url, token: TOKEN, headers: REMOTE, device }));
    expect(pending.details).toMatchObject({ reason: 'pairing_required' });
    const requestId = String(pending.details?.requestId);
    expect(pending.hint).toContain(`openclaw devices approve ${requestId}`);

    const approve = await runOpenClaw(oc, ['devices', 'approve', requestId, '--url', gw.url, '--token', TOKEN], { stateDir, home });
    expect(approve.code, approve.stderr + approve.stdout).toBe(0);

    const remote = new RemoteOpenClawAccess(gw.url, TOKEN, { headers: REMOTE, device });
    try {
      expect(await remote.version()).toBe(OPENCLAW_VERSION);
      const [a1] = await remote.agentSkills(['a1']);
      expect(a1?.skills.find((s) => s.name === 'rpc-alpha')?.modelVisible).toBe(true);
    } finally {
      await remote.close();
    }
  });

  it('refuses skill folder writes on a remote gateway with the reason', async () => {
    const e = await refusal(access.putSkill({ name: 'x', digest: 'd', files: [] }));
    expect(e.code).toBe('invalid_state');
    expect(e.details).toMatchObject({ reason: 'remote_skills_unsupported' });
    expect(e.hint).toContain('uploads');
  });

  // Last: it spends this device's whole config.patch budget (30 a minute per device and address).
  it('surfaces the write rate limit with its retry-after', async () => {
    const rpc = await OpenClawRpc.connect({ url: gw.url, token: TOKEN, device: newDevice() });
    try {
      let limited: AppError | null = null;
      for (let i = 0; i < 40 && !limited; i++) {
        const e = await rpc.request('config.patch', { raw: '{}', baseHash: 'stale' }).catch((err: unknown) => err);
        if (e instanceof AppError && e.code === 'rate_limited') limited = e;
      }
      expect(limited?.status).toBe(429);
      expect(Number(limited?.details?.retryAfterMs)).toBeGreaterThan(0);
      expect(limited?.hint).toMatch(/Try again in \d+ s\./);
    } finally {
      await rpc.close();
    }
  });
});
