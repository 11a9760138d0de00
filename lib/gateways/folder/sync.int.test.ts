// `skilldock sync` as a person runs it (the bin launcher, a child process) against the real gateway
// routes over loopback HTTP: a folder follows adds, edits, removals and allowlist changes; a folder
// it did not write is never touched; --check reports drift; the event stream resumes after a drop
// with Last-Event-ID, and polling takes over while the stream is refused; clear exit codes.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '@/lib/auth/tokens';
import { type AgentsSetup, startAgentsSetup } from '@/test/helpers/agents-setup';
import { apiUser } from '@/test/helpers/api';
import { type GatewayHttp, startGatewayHttp } from '@/test/helpers/gateway-http';
import { waitFor } from '@/test/helpers/services';
import { MARKER_FILE } from '../access';

const BIN = path.resolve('bin/skilldock.mjs');
let t: AgentsSetup;
let gw: GatewayHttp;
let token: string;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  t = await startAgentsSetup('folder-sync');
  t.write('alpha', 'The alpha skill.', { files: { 'scripts/run.sh': '#!/bin/sh\necho alpha\n', 'docs/deep/note.txt': 'alpha note' } });
  t.write('beta', 'The beta skill.', { files: { 'data.bin': '\u0000\u0001binary' } });
  t.write('gamma', 'The gamma skill.');
  t.write('delta', 'The delta skill.');
  await t.refresh();
  expect((await t.api.create({ id: 'mirror', name: 'Mirror', skills: ['alpha', 'beta'] })).status).toBe(201);
  const { actor } = await apiUser(t.ts.services, { email: 'sync-admin@example.com', role: 'admin', tokenName: 'x', permissions: ['agents.read'] });
  token = (await createToken(t.ts.services.database.db, actor, { name: 'mirror', permissions: ['agents.read'], expiresInDays: 1, agentIds: ['mirror'] })).token;
  gw = await startGatewayHttp();
}, 180_000);
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await gw?.close();
  await t?.stop();
});

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [BIN, 'sync', ...args], { env: { ...process.env, SKILLDOCK_TOKEN: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d) => (stdout += d));
    c.stderr.on('data', (d) => (stderr += d));
    c.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const base = (dir: string, agent = 'mirror') => ['--url', gw.url, '--agent', agent, '--token', token, '--dir', dir];
const freshDir = (name: string) => fs.mkdtempSync(path.join(t.tmp, `${name}-`));
const read = (...p: string[]) => fs.readFileSync(path.join(...p), 'utf8');
const skillDirs = (dir: string) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

async function setSkills(skills: string[]) {
  const cur = await t.api.get('mirror');
  expect((await t.api.patch('mirror', { revision: cur.body.revision, skills })).status).toBe(200);
}

/** The folder holds exactly these skills, each SKILL.md the catalog's. */
function inStep(dir: string, names: string[], foreign: string[] = []): boolean {
  const got = skillDirs(dir).filter((n) => !foreign.includes(n));
  if (got.join() !== [...names].sort().join()) return false;
  return names.every((n) => fs.existsSync(path.join(dir, n, MARKER_FILE)) && read(dir, n, 'SKILL.md') === read(t.root, n, 'SKILL.md'));
}

describe('skilldock sync --once and --check', () => {
  it('materialises the effective skills with their files and markers, then --check finds no drift', async () => {
    const dir = freshDir('once');
    const r = await run(base(dir).concat('--once'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/added alpha\n/);
    expect(r.stdout).toMatch(/added beta\n/);
    expect(inStep(dir, ['alpha', 'beta'])).toBe(true);
    expect(read(dir, 'alpha/docs/deep/note.txt')).toBe('alpha note');
    expect(read(dir, 'alpha/scripts/run.sh')).toBe('#!/bin/sh\necho alpha\n');
    expect(fs.readFileSync(path.join(dir, 'beta/data.bin'))).toEqual(Buffer.from('\u0000\u0001binary'));
    expect(JSON.parse(read(dir, 'alpha', MARKER_FILE))).toMatchObject({ name: 'alpha', writer: 'skilldock' });

    const check = await run(base(dir).concat('--check'));
    expect([check.code, check.stdout]).toEqual([0, '']);
    // A second --once reads the list with its ETag (304) and nothing else.
    const [files, bundles] = [gw.counts.file, gw.counts.bundle];
    const again = await run(base(dir).concat('--once'));
    expect(again.code).toBe(0);
    expect([gw.counts.file, gw.counts.bundle]).toEqual([files, bundles]);
  });

  it('--check exits 1 and lists drift; a foreign folder is never touched and blocks only its own name', async () => {
    const dir = freshDir('drift');
    expect((await run(base(dir).concat('--once'))).code).toBe(0);
    fs.writeFileSync(path.join(dir, 'alpha/SKILL.md'), 'edited by hand');
    fs.mkdirSync(path.join(dir, 'handmade'));
    fs.writeFileSync(path.join(dir, 'handmade/SKILL.md'), 'mine');
    await setSkills(['alpha', 'beta', 'gamma']);
    fs.mkdirSync(path.join(dir, 'gamma'));
    fs.writeFileSync(path.join(dir, 'gamma/SKILL.md'), 'not Skilldock');
    const check = await run(base(dir).concat('--check'));
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('~ updated alpha');
    expect(check.stdout).toContain('! blocked gamma');
    expect(check.stdout).not.toContain('handmade');
    expect(read(dir, 'alpha/SKILL.md')).toBe('edited by hand');

    const r = await run(base(dir).concat('--once'));
    expect(r.code).toBe(6);
    expect(r.stdout).toContain('blocked gamma');
    expect(read(dir, 'alpha/SKILL.md')).toBe(read(t.root, 'alpha/SKILL.md'));
    expect(read(dir, 'gamma/SKILL.md')).toBe('not Skilldock');
    expect(read(dir, 'handmade/SKILL.md')).toBe('mine');
    await setSkills(['alpha', 'beta']);
    expect((await run(base(dir).concat('--once'))).code).toBe(0);
    expect(read(dir, 'gamma/SKILL.md')).toBe('not Skilldock');
    expect(read(dir, 'handmade/SKILL.md')).toBe('mine');
  });

  it('--plugin writes plugin.json and the skills under skills/', async () => {
    const dir = freshDir('plugin');
    expect((await run(base(dir).concat('--once', '--plugin', 'mirror-skills'))).code).toBe(0);
    expect(JSON.parse(read(dir, '.claude-plugin/plugin.json')).name).toBe('mirror-skills');
    expect(inStep(path.join(dir, 'skills'), ['alpha', 'beta'])).toBe(true);
  });

  it('clear errors: token refused (3), agent not found (4), unreachable (5), usage (2)', async () => {
    const dir = freshDir('errors');
    const bad = await run(['--url', gw.url, '--agent', 'mirror', '--dir', dir, '--once'], { SKILLDOCK_TOKEN: 'sdk_wrong' });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('token was refused');
    const wrongAgent = await run(['--url', gw.url, '--agent', 'nobody', '--token', t.adminToken, '--dir', dir, '--once']);
    expect(wrongAgent.code).toBe(4);
    const scopedElsewhere = await run(['--url', gw.url, '--agent', 'nobody', '--token', token, '--dir', dir, '--once']);
    expect(scopedElsewhere.code).toBe(3);
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const down = await run(['--url', `http://127.0.0.1:${port}`, '--agent', 'mirror', '--token', token, '--dir', dir, '--once']);
    expect(down.code).toBe(5);
    expect(down.stderr).toContain('Cannot reach');
    expect((await run(['--agent', 'mirror', '--dir', dir])).code).toBe(2);
  });
});

describe('skilldock sync (following)', () => {
  it('follows adds, edits, removals and allowlist changes; resumes after a drop; polls while the stream is refused', async () => {
    const dir = freshDir('follow');
    fs.mkdirSync(path.join(dir, 'handmade'));
    fs.writeFileSync(path.join(dir, 'handmade/SKILL.md'), 'mine');
    const child = spawn(process.execPath, [BIN, 'sync', ...base(dir), '--poll-ms', '100'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const until = async (check: () => boolean, what: string) => {
      try {
        await waitFor(async () => check(), what, 30_000);
      } catch (e) {
        throw new Error(`${(e as Error).message}; output:\n${out}`);
      }
    };
    const folder = (names: string[], what: string) => until(() => inStep(dir, names, ['handmade']), what);

    await folder(['alpha', 'beta'], 'the first sync');
    await waitFor(async () => gw.openStreams() > 0, 'the event stream');
    await setSkills(['alpha', 'beta', 'gamma']);
    await folder(['alpha', 'beta', 'gamma'], 'an added skill');
    t.write('gamma', 'The gamma skill, edited.', { files: { 'extra.txt': 'new file' } });
    await t.refresh();
    await until(() => fs.existsSync(path.join(dir, 'gamma/extra.txt')), 'an edited skill');
    expect(read(dir, 'gamma/SKILL.md')).toContain('edited');
    await setSkills(['alpha', 'gamma']);
    await folder(['alpha', 'gamma'], 'a removed skill');

    // A dropped stream is resumed with the version the client had.
    const lastVersion = (await t.api.skills('mirror')).headers.get('etag')?.replaceAll('"', '');
    const opened = gw.counts.events;
    gw.dropStreams();
    await waitFor(async () => gw.counts.events > opened && gw.openStreams() > 0, 'a reconnect');
    expect(gw.lastEventIds.at(-1)).toBe(lastVersion);
    await setSkills(['alpha', 'gamma', 'delta']);
    await folder(['alpha', 'delta', 'gamma'], 'a change after the reconnect');

    // While the stream is refused, ETag polling keeps the folder in step.
    gw.refuseEvents = true;
    gw.dropStreams();
    await until(() => out.includes('polling every 100 ms'), 'the polling fallback');
    await setSkills(['beta']);
    await folder(['beta'], 'a change while polling');
    gw.refuseEvents = false;

    expect(read(dir, 'handmade/SKILL.md')).toBe('mine');
    // The child logs each change after its rename: the line may still be in the pipe.
    await until(() => / removed alpha\n/.test(out), 'the removal in the log');
    child.kill('SIGTERM');
    const code = await new Promise((r) => child.on('exit', r));
    children.delete(child);
    expect(code).toBe(0);
  });
});

describe('skilldock sync reads bundles, and trusts only folders nobody touched', () => {
  const statePath = (dir: string) => path.join(dir, '.skilldock-sync.json');
  const state = (dir: string) => JSON.parse(read(statePath(dir)));
  const settle = () => new Promise((r) => setTimeout(r, 120)); // past the window in which a ctime counts as fresh
  const bundledSince = (n: number) => gw.bundles.slice(n).flat().sort();

  it('the bundle route answers bytes and missing names, bounds the names, and keeps the token to its agent', async () => {
    const get = (agent: string, names: string, tok = token) =>
      fetch(`${gw.url}/api/v1/agents/${agent}/skill-files?names=${encodeURIComponent(names)}`, { headers: { authorization: `Bearer ${tok}` } });
    await setSkills(['alpha', 'beta']);
    const r = await get('mirror', 'alpha,nope');
    expect(r.status).toBe(200);
    const body = (await r.json()) as { skills: { name: string; contentHash: string; files: { path: string; contentBase64: string }[] }[]; missing: string[] };
    expect(body.missing).toEqual(['nope']);
    expect(body.skills.map((s) => s.name)).toEqual(['alpha']);
    const note = body.skills[0]?.files.find((f) => f.path === 'docs/deep/note.txt');
    expect(Buffer.from(note?.contentBase64 ?? '', 'base64').toString()).toBe('alpha note');
    const listed = (await t.api.skills('mirror')).body.skills.find((s: { name: string }) => s.name === 'alpha');
    expect(listed.contentHash).toBe(body.skills[0]?.contentHash);
    expect((await get('mirror', Array.from({ length: 101 }, (_, i) => `s${i}`).join(','))).status).toBe(400);
    expect((await get('nobody', 'alpha')).status).toBe(403);
  });

  it('a change elsewhere reads nothing for an untouched skill, and restores one whose files were edited by hand', async () => {
    await setSkills(['alpha', 'beta']);
    const dir = freshDir('manifest');
    const [files, skill, b0] = [gw.counts.file, gw.counts.skill, gw.bundles.length];
    expect((await run(base(dir).concat('--once'))).code).toBe(0);
    expect(bundledSince(b0)).toEqual(['alpha', 'beta']);
    expect([gw.counts.file, gw.counts.skill]).toEqual([files, skill]);

    // A version change that leaves alpha and beta as they were: only gamma is read.
    await settle();
    await setSkills(['alpha', 'beta', 'gamma']);
    const b1 = gw.bundles.length;
    expect((await run(base(dir).concat('--once'))).code).toBe(0);
    expect(bundledSince(b1)).toEqual(['gamma']);
    expect(typeof state(dir).skills.alpha.sig).toBe('string');

    // The same size, so only the stat identity tells: alpha is read again and restored.
    const original = read(dir, 'alpha/SKILL.md');
    fs.writeFileSync(path.join(dir, 'alpha/SKILL.md'), original.replace(/alpha/g, 'ALPHA'));
    await settle();
    await setSkills(['alpha', 'beta', 'gamma', 'delta']);
    const b2 = gw.bundles.length;
    const r = await run(base(dir).concat('--once'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('updated alpha: its files were changed by hand; restored');
    expect(bundledSince(b2)).toEqual(['alpha', 'delta']);
    expect(read(dir, 'alpha/SKILL.md')).toBe(original);
    expect(inStep(dir, ['alpha', 'beta', 'delta', 'gamma'])).toBe(true);
  });

  it('a folder recorded too fresh to trust is compared by its bytes: untouched it is kept, edited it is restored', async () => {
    await setSkills(['alpha', 'beta']);
    const dir = freshDir('fresh');
    expect((await run(base(dir).concat('--once'))).code).toBe(0);
    const s = state(dir);
    s.skills.alpha.sig = null;
    s.skills.beta.sig = null;
    fs.writeFileSync(statePath(dir), JSON.stringify(s));
    fs.appendFileSync(path.join(dir, 'beta/data.bin'), 'x');
    await setSkills(['alpha', 'beta', 'gamma']);
    const b0 = gw.bundles.length;
    const r = await run(base(dir).concat('--once'));
    expect(r.code).toBe(0);
    expect(bundledSince(b0)).toEqual(['beta', 'gamma']);
    expect(r.stdout).toContain('updated beta: its files were changed by hand; restored');
    expect(r.stdout).not.toContain('alpha');
    expect(fs.readFileSync(path.join(dir, 'beta/data.bin'))).toEqual(Buffer.from('\u0000\u0001binary'));
  });

  it('with the version unchanged, a marker edited by hand is noticed without reading any file, and the folder rewritten', async () => {
    await setSkills(['alpha', 'beta']);
    const dir = freshDir('marker');
    expect((await run(base(dir).concat('--once'))).code).toBe(0);
    await settle();
    const b0 = gw.bundles.length;
    const quiet = await run(base(dir).concat('--once'));
    expect(quiet.code).toBe(0);
    expect(gw.bundles.length).toBe(b0);
    const markerFile = path.join(dir, 'beta', MARKER_FILE);
    const marker = JSON.parse(read(markerFile));
    fs.writeFileSync(markerFile, JSON.stringify({ ...marker, digest: '0'.repeat(64) }));
    const r = await run(base(dir).concat('--once'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('updated beta');
    expect(bundledSince(b0)).toEqual(['beta']);
    expect(JSON.parse(read(markerFile)).digest).toBe(marker.digest);
  });

  it('materialises user-only commands beside the prompt skills; a user-invocable: false skill only when the model may use it', async () => {
    t.write('slash', 'A user-only command.', { extra: 'disable-model-invocation: true' });
    t.write('hidden', 'Neither for the model nor a command.', { extra: 'disable-model-invocation: true\nuser-invocable: false' });
    await t.refresh();
    await setSkills(['alpha', 'slash', 'hidden']);
    const dir = freshDir('commands');
    const r = await run(base(dir).concat('--once'));
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(inStep(dir, ['alpha', 'slash'])).toBe(true);
    expect(read(dir, 'slash/SKILL.md')).toContain('disable-model-invocation: true');
    await setSkills(['alpha', 'beta']);
  });
});
