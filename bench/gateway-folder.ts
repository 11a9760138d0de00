// `skilldock sync` into a skills folder, against the real gateway routes over loopback HTTP (served
// from this process on a fresh database, the sync as a child process, as a person runs it):
// - an allowlist saved until the folder holds the change, following the event stream and, in the
//   same run, with the stream refused (ETag polling every --poll-ms), p50/p95 of each;
// - 1,000 real skills synced into an empty folder, against `cp -r` of the same skill folders: rounds
//   taken in turn, each from a flushed filesystem (this machine's file creation speed swings ×4 while
//   earlier writes are still being written back), compared by their medians; the sync's own flush
//   (its durability barrier) counts against it, `cp -r` flushes nothing;
// - a sync that finds nothing changed: as a command (a Node start included) with its state file
//   (304) and without it (full compare), and as one pass of a running follower.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { syncPass } from '../lib/gateways/folder/sync';
import { GatewayClient } from '../lib/gateways/folder/sync-client';
import { startAgentsSetup } from '../test/helpers/agents-setup';
import { startGatewayHttp } from '../test/helpers/gateway-http';
import { fmt, nowMs, percentile, ROOT } from './common';

const BIN = path.join(ROOT, 'bin/skilldock.mjs');
// Three of the generated skills, for the latency agent.
const [LA, LB, LC] = ['bench-skill-00001', 'bench-skill-00002', 'bench-skill-00003'];

export interface GatewayFolderResult {
  skills: number;
  latency: { samples: number; pollMs: number; events: { p50: number; p95: number }; polling: { p50: number; p95: number } };
  bulk: { rounds: number; syncMs: number; cpMs: number; ratio: number; files: number; syncAll: number[]; cpAll: number[] };
  noChange: { withStateMs: number; fullCompareMs: number; passMs: number };
}

/** One `sync --once` (a child: the server answers from this process, so nothing here may block). */
async function timeOnce(args: string[]): Promise<number> {
  const t0 = nowMs();
  const code = await new Promise<number | null>((resolve) => {
    spawn(process.execPath, [BIN, 'sync', ...args, '--once'], { stdio: ['ignore', 'ignore', 'inherit'] }).on('exit', resolve);
  });
  if (code !== 0) throw new Error(`skilldock sync --once exited ${code}`);
  return nowMs() - t0;
}

/** Writes back every dirty page, so the next measurement starts from the same state. */
const flush = () => new Promise((resolve) => spawn('sync', [], { stdio: 'ignore' }).on('exit', resolve));

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

async function timeCp(from: string, to: string): Promise<number> {
  const t0 = nowMs();
  const code = await new Promise<number | null>((resolve) => spawn('cp', ['-r', from, to]).on('exit', resolve));
  if (code !== 0) throw new Error(`cp -r exited ${code}`);
  return nowMs() - t0;
}

const countFiles = (dir: string): number =>
  fs.readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? countFiles(path.join(dir, e.name)) : 1), 0);

export async function gatewayFolderBench(nSkills = 1000, samples = 15, pollMs = 1000, rounds = 3): Promise<GatewayFolderResult> {
  const t = await startAgentsSetup('bench-folder');
  // Skills without gating requirements, so every one is effective: SKILL.md and three more files each.
  const guide = '## Guide\n\n'.concat('Step by step, what the skill does and when to call it.\n'.repeat(70));
  for (let i = 1; i <= nSkills; i++) {
    const name = `bench-skill-${String(i).padStart(5, '0')}`;
    t.write(name, `Bench skill number ${i}.`, {
      files: { 'scripts/run.sh': `#!/bin/sh\necho ${name}\n`, 'references/guide.md': guide, 'assets/data.json': JSON.stringify({ i, name }) },
    });
  }
  const source = t.root;
  const set = await t.skills.settings({ maxCandidatesPerRoot: nSkills + 100 });
  if (set.status !== 200) throw new Error(`skills settings answered ${set.status}`);
  await t.refresh();
  const gwEvents = await startGatewayHttp();
  const gwPoll = await startGatewayHttp();
  gwPoll.refuseEvents = true;
  const children: ReturnType<typeof spawn>[] = [];
  try {
    // Bulk: every skill (the agent inherits the unrestricted defaults) into an empty folder.
    if ((await t.api.create({ id: 'bulk', name: 'Bulk', budget: { maxSkills: 1000, maxChars: 1_000_000 } })).status !== 201)
      throw new Error('create bulk agent failed');
    await timeOnce(['--url', gwEvents.url, '--agent', 'bulk', '--token', t.adminToken, '--dir', path.join(t.tmp, 'warm')]); // bundles the CLI once
    const argsFor = (dir: string) => ['--url', gwEvents.url, '--agent', 'bulk', '--token', t.adminToken, '--dir', dir];
    const syncAll: number[] = [];
    const cpAll: number[] = [];
    for (let r = 0; r < rounds; r++) {
      await flush();
      syncAll.push(await timeOnce(argsFor(path.join(t.tmp, `bulk-${r}`))));
      await flush();
      cpAll.push(await timeCp(source, path.join(t.tmp, `cp-copy-${r}`)));
    }
    const dir = path.join(t.tmp, 'bulk-0');
    const args = argsFor(dir);
    const synced = fs.readdirSync(dir).filter((n) => !n.startsWith('.')).length;
    if (synced !== nSkills) throw new Error(`the bulk sync wrote ${synced} skill folders, not ${nSkills}`);
    await flush();
    const withStateMs = median([await timeOnce(args), await timeOnce(args), await timeOnce(args)]);
    // A running follower: its first pass warms the process, the next ones find nothing changed.
    const client = new GatewayClient({ url: gwEvents.url, agentId: 'bulk', token: t.adminToken });
    await syncPass(client, dir);
    const passes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = nowMs();
      const p = await syncPass(client, dir);
      passes.push(nowMs() - t0);
      if (!p.unchanged) throw new Error('a pass over an unchanged folder changed something');
    }
    fs.rmSync(path.join(dir, '.skilldock-sync.json'));
    const fullCompareMs = await timeOnce(args);

    // Latency: two followers of one agent, one on the event stream, one polling.
    if ((await t.api.create({ id: 'lat', name: 'Latency', skills: [LA, LB] })).status !== 201) throw new Error('create lat agent failed');
    const dirs = { events: path.join(t.tmp, 'lat-events'), polling: path.join(t.tmp, 'lat-polling') };
    for (const [mode, url] of [
      ['events', gwEvents.url],
      ['polling', gwPoll.url],
    ] as const) {
      const c = spawn(
        process.execPath,
        [BIN, 'sync', '--url', url, '--agent', 'lat', '--token', t.adminToken, '--dir', dirs[mode], '--poll-ms', String(pollMs)],
        {
          stdio: 'ignore',
        },
      );
      children.push(c);
    }
    const has = (d: string, n: string) => fs.existsSync(path.join(d, n, '.skilldock.json'));
    const wait = async (pred: () => boolean, limitMs: number) => {
      const end = nowMs() + limitMs;
      while (!pred()) {
        if (nowMs() > end) throw new Error('the folder did not follow in time');
        await new Promise((r) => setTimeout(r, 2));
      }
      return nowMs();
    };
    await wait(() => has(dirs.events, LB) && has(dirs.polling, LB), 60_000);
    const times = { events: [] as number[], polling: [] as number[] };
    for (let i = 0; i < samples; i++) {
      const adding = i % 2 === 0;
      const cur = await t.api.get('lat');
      const t0 = nowMs();
      const r = await t.api.patch('lat', { revision: cur.body.revision, skills: adding ? [LA, LB, LC] : [LA, LB] });
      if (r.status !== 200) throw new Error(`PATCH answered ${r.status}`);
      const done = (d: string) => () => has(d, LC) === adding;
      const [te, tp] = await Promise.all([wait(done(dirs.events), 60_000), wait(done(dirs.polling), 60_000)]);
      times.events.push(te - t0);
      times.polling.push(tp - t0);
    }
    const stats = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return { p50: percentile(s, 50), p95: percentile(s, 95) };
    };
    return {
      skills: nSkills,
      latency: { samples, pollMs, events: stats(times.events), polling: stats(times.polling) },
      bulk: { rounds, syncMs: median(syncAll), cpMs: median(cpAll), ratio: median(syncAll) / median(cpAll), files: countFiles(source), syncAll, cpAll },
      noChange: { withStateMs, fullCompareMs, passMs: median(passes) },
    };
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await gwEvents.close();
    await gwPoll.close();
    await t.stop();
  }
}

export function describeGatewayFolder(r: GatewayFolderResult): string {
  const l = r.latency;
  return [
    `skilldock sync, save → folder updated (${l.samples} samples): events p50 ${fmt(l.events.p50, 0)} ms, p95 ${fmt(l.events.p95, 0)} ms; ` +
      `ETag polling every ${l.pollMs} ms p50 ${fmt(l.polling.p50, 0)} ms, p95 ${fmt(l.polling.p95, 0)} ms`,
    `skilldock sync of ${r.skills} skills (${r.bulk.files} files) into an empty folder, median of ${r.bulk.rounds} rounds: ${fmt(r.bulk.syncMs, 0)} ms vs cp -r ${fmt(r.bulk.cpMs, 0)} ms (${fmt(r.bulk.ratio)}×; rounds ${r.bulk.syncAll.map((x) => fmt(x, 0)).join(', ')} vs ${r.bulk.cpAll.map((x) => fmt(x, 0)).join(', ')})`,
    `skilldock sync with nothing changed: a pass of a running follower ${fmt(r.noChange.passMs, 0)} ms; the command ${fmt(r.noChange.withStateMs, 0)} ms (state file, 304; a Node start included), ${fmt(r.noChange.fullCompareMs, 0)} ms without its state file (full compare)`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await gatewayFolderBench(
    Number(process.env.BENCH_FOLDER_SKILLS ?? 1000),
    Number(process.env.BENCH_FOLDER_SAMPLES ?? 15),
    1000,
    Number(process.env.BENCH_FOLDER_ROUNDS ?? 3),
  );
  console.log(describeGatewayFolder(r));
  console.log(JSON.stringify(r));
  process.exit(0);
}
