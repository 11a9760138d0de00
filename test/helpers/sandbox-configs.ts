// A running Services with allowed roots on disk (a TLS folder, a workspace root with a symlink out),
// users of three roles with API tokens, and a stand-in inventory of live sandboxes per config.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { auditLog, sandboxConfigs, sandboxEnvVars } from '@/db/schema';
import { type OpName, ops } from '@/lib/api/operations';
import { ROLE_PERMISSIONS } from '@/lib/auth';
import { route } from '@/lib/http/route';
import { CONFIG_LABEL, type InUseInstance, SandboxUsage } from '@/lib/sandbox/config/in-use';
import { SandboxConfigService } from '@/lib/sandbox/config/service';
import { type Services, setServices } from '@/lib/services';
import { apiUser } from './api';
import { startTestServices } from './services';

export interface ConfigFixture {
  s: Services;
  tmp: string;
  tlsDir: string;
  wsRoot: string;
  tokens: { owner: string; admin: string; viewer: string };
  ownerId: string;
  /** Live sandboxes the inventory reports, by config id. */
  live: Map<string, InUseInstance[]>;
  /** The next inventory call signals `entered` and waits for `release`. */
  hold(): { entered: Promise<void>; release: () => void };
  call(name: OpName, token: string, opts?: { params?: Record<string, string>; body?: unknown }): Promise<{ status: number; json: Record<string, any> }>;
  counts(): Promise<{ configs: number; env: number; audit: number }>;
  stop(): Promise<void>;
}

let n = 0;
export const unique = (p: string) => `${p}-${++n}`;
export const docker = (config: Record<string, unknown> = {}) => ({ name: unique('docker'), backend: 'docker', config: { image: 'busybox:1.36', ...config } });
export const e2b = (config: Record<string, unknown> = {}) => ({
  name: unique('e2b'),
  backend: 'e2b',
  config: { apiKey: 'e2b_live_secret_value', apiUrl: 'http://127.0.0.1:3999', domain: 'sandbox.test', allowPrivateEndpoints: true, ...config },
});

export async function startConfigFixture(): Promise<ConfigFixture> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'sbx-cfg-'));
  const tlsDir = path.join(tmp, 'tls', 'engine1');
  const wsRoot = path.join(tmp, 'workspaces');
  await mkdir(tlsDir, { recursive: true });
  await mkdir(path.join(wsRoot, 'team'), { recursive: true });
  await mkdir(path.join(tmp, 'outside'), { recursive: true });
  // outside/ holds the files too, so only the roots check can refuse it.
  for (const d of [tlsDir, path.join(tmp, 'outside')]) for (const f of ['ca.pem', 'cert.pem', 'key.pem']) await writeFile(path.join(d, f), 'x');
  await mkdir(path.join(tmp, 'tls', 'partial'), { recursive: true });
  await writeFile(path.join(tmp, 'tls', 'partial', 'ca.pem'), 'x');
  await symlink(path.join(tmp, 'outside'), path.join(wsRoot, 'escape'));
  const ts = await startTestServices({ worker: false, env: { SKILLDOCK_DOCKER_TLS_ROOTS: path.join(tmp, 'tls'), SKILLDOCK_WORKSPACE_ROOTS: wsRoot } });
  const s = ts.services;
  setServices(Promise.resolve(s));
  const live = new Map<string, InUseInstance[]>();
  let gate: { entered: () => void; release: Promise<void> } | null = null;
  // The stand-in inventory replaces the backends' listers: these tests decide what is live.
  s.sandboxUsage = new SandboxUsage();
  s.sandboxUsage.addInstanceLister(async (configId, labels) => {
    if (labels[CONFIG_LABEL] !== configId) throw new Error('the inventory was asked without the config label');
    if (gate) {
      const g = gate;
      gate = null;
      g.entered();
      await g.release;
    }
    return live.get(configId) ?? [];
  });
  // The config operations ask the config service what uses a config: it is rebuilt over the stand-in.
  s.sandboxConfigs = new SandboxConfigService({
    database: s.database,
    secrets: s.secrets,
    usage: s.sandboxUsage,
    validate: s.sandboxConfigs.deps.validate,
    instances: s.sandboxes,
  });
  const o = await apiUser(s, { email: 'owner@sbx.test', role: 'owner', tokenName: 'o', permissions: [...ROLE_PERMISSIONS.owner] });
  const admin = (await apiUser(s, { email: 'admin@sbx.test', role: 'admin', tokenName: 'a', permissions: [...ROLE_PERMISSIONS.admin] })).token;
  const viewer = (await apiUser(s, { email: 'viewer@sbx.test', role: 'viewer', tokenName: 'v', permissions: [...ROLE_PERMISSIONS.viewer] })).token;
  const db = s.database.db;
  return {
    s,
    tmp,
    tlsDir,
    wsRoot,
    tokens: { owner: o.token, admin, viewer },
    ownerId: o.actor.userId ?? '',
    live,
    hold() {
      let entered!: () => void;
      let release!: () => void;
      const inside = new Promise<void>((r) => {
        entered = r;
      });
      gate = { entered, release: new Promise<void>((r) => (release = r)) };
      return { entered: inside, release };
    },
    async call(name, token, opts = {}) {
      const op = ops[name];
      const c = op.contract;
      let url = c.path;
      for (const [k, v] of Object.entries(opts.params ?? {})) url = url.replace(`{${k}}`, encodeURIComponent(v));
      const res = await route(op as never)(
        new Request(`http://localhost${url}`, {
          method: c.method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        }),
        { params: Promise.resolve(opts.params ?? {}) },
      );
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : null };
    },
    async counts() {
      return {
        configs: (await db.select().from(sandboxConfigs)).length,
        env: (await db.select().from(sandboxEnvVars)).length,
        audit: (await db.select().from(auditLog)).length,
      };
    },
    async stop() {
      await ts.stop();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}
