// Skill dependency check and install-missing on real parts: a SKILL.md and scripts sent to the route,
// the real python3 checker, pip with a wheel this test builds, and the job worker (PGlite and PostgreSQL).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as checkRoute } from '@/app/api/v1/packages/deps/check/route';
import { POST as installRoute } from '@/app/api/v1/packages/deps/install/route';
import { PUT as settingsPut } from '@/app/api/v1/settings/runtime/route';
import type { JobRow } from '@/lib/jobs';
import { setServices } from '@/lib/services';
import { apiUser, callRoute, jobEnd } from '@/test/helpers/api';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { buildWheel } from '@/test/helpers/wheels';

let t: TestServices;
let runtimeDir: string;
let wheels: string;
let token: string;
let viewerToken: string;

beforeAll(async () => {
  runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-deps-runtime-'));
  wheels = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-deps-wheels-'));
  await buildWheel(wheels, { name: 'skd-dep', version: '1.0', modules: { 'skd_dep/__init__.py': 'OK = True\n' } });
  t = await startTestServices({ env: { RUNTIME_DIR: runtimeDir } });
  setServices(Promise.resolve(t.services));
  token = (await apiUser(t.services, { email: 'deps-admin@example.com', role: 'admin', tokenName: 'deps', permissions: ['packages.read', 'packages.write'] }))
    .token;
  viewerToken = (await apiUser(t.services, { email: 'deps-viewer@example.com', role: 'viewer', tokenName: 'deps viewer', permissions: ['packages.read'] }))
    .token;
}, 60_000);
afterAll(async () => {
  await t?.stop();
  for (const d of [runtimeDir, wheels]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

const call = (handler: (req: Request) => Promise<Response>, method: 'POST' | 'PUT', url: string, body: unknown, bearer = token) =>
  callRoute(handler, bearer, method, url, body);
const count = async (table: string) => (await t.services.database.rows<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`)))[0].n;

const skill = {
  skillMd: '---\nname: demo\ndescription: a demo skill\nexclude_deps:\n  - pip:helpers\n---\n# Demo\n',
  files: [
    {
      path: 'scripts/run.py',
      content:
        '#!/usr/bin/env python3\nimport json, os\nfrom . import sibling\nimport helpers\n\ndef main():\n    import skd_dep\n    from lib_local import thing\n',
    },
    { path: 'scripts/lib_local.py', content: 'thing = 1\n' },
  ],
};
type Dep = { spec: string; source: string; status: string; detail: string };

describe('skill dependencies', () => {
  it('the check runs processes and scans untrusted text: a viewer is refused before anything runs', async () => {
    const r = await call(checkRoute, 'POST', '/api/v1/packages/deps/check', skill, viewerToken);
    expect(r.status).toBe(403);
  });

  it('reports the scan: stdlib, relative and local modules left out, the excluded one removed, the rest checked for real', async () => {
    const r = await call(checkRoute, 'POST', '/api/v1/packages/deps/check', skill);
    expect(r.status).toBe(200);
    const deps = r.body.deps as Dep[];
    expect(deps.map((d) => `${d.spec} ${d.source} ${d.status}`).sort()).toEqual(['pip:skd_dep scanned missing', 'system:python3 scanned ok']);
    expect(r.body.excludedScanned).toEqual(['pip:helpers']);
    expect(r.body.missing).toEqual(['pip:skd_dep']);
  });

  it('declared deps win; invalid entries come back as diagnostics with their line', async () => {
    const skillMd = '---\nname: d\ndeps:\n  - system:sh\n  - "pip:foo;rm -rf /"\n  - weird:thing\n---\n';
    const r = await call(checkRoute, 'POST', '/api/v1/packages/deps/check', { skillMd, files: skill.files });
    expect(r.status).toBe(200);
    expect((r.body.deps as Dep[]).map((d) => `${d.spec} ${d.source} ${d.status}`)).toEqual(['system:sh declared ok']);
    const diags = r.body.diagnostics as { key: string; line?: number; message: string }[];
    expect(diags.filter((d) => d.key === 'deps').map((d) => d.line)).toEqual([5, 6]);
  });

  it('refuses bad input before anything runs', async () => {
    for (const body of [
      {},
      { files: [{ path: '../etc/passwd', content: '' }] },
      { files: [{ path: '/abs.py', content: '' }] },
      { skillMd: '---\n---', deps: ['pip:x'] },
      { deps: ['x'.repeat(300)] },
    ]) {
      expect((await call(checkRoute, 'POST', '/api/v1/packages/deps/check', body)).status, JSON.stringify(body)).toBe(400);
    }
    const jobs = await count('jobs');
    expect((await call(installRoute, 'POST', '/api/v1/packages/deps/install', skill, viewerToken)).status).toBe(403);
    expect((await call(installRoute, 'POST', '/api/v1/packages/deps/install', { deps: ['system:sh'] })).status).toBe(409);
    expect(await count('jobs')).toBe(jobs);
  });

  it('installs the missing ones as one job, after which every dep is satisfied', async () => {
    expect((await call(settingsPut, 'PUT', '/api/v1/settings/runtime', { pipFindLinks: [wheels], pipNoIndex: true })).status).toBe(200);
    const r = await call(installRoute, 'POST', '/api/v1/packages/deps/install', skill);
    expect(r.status).toBe(202);
    const parent = r.body.job as JobRow;
    expect((r.body.children as JobRow[]).map((c) => [c.kind, (c.params as { spec: string }).spec, c.parentId])).toEqual([
      ['package.install', 'pip:skd_dep', parent.id],
    ]);
    const done = await jobEnd(t.services, parent.id);
    expect(done.error).toBeNull();
    expect(done.state).toBe('succeeded');
    const again = await call(checkRoute, 'POST', '/api/v1/packages/deps/check', skill);
    expect((again.body.deps as Dep[]).map((d) => `${d.spec} ${d.status}`).sort()).toEqual(['pip:skd_dep ok', 'system:python3 ok']);
  });
});
