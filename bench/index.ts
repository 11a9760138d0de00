// `npm run bench`: measures, prints the figures as ratios against same-run baselines, saves JSON.
import fs from 'node:fs';
import path from 'node:path';
import { agentsCompute } from './agents-compute';
import { agentsGateway } from './agents-gateway';
import { apiLoad } from './api-load';
import { ensureBuilt, fmt, ROOT } from './common';
import { describeGatewayFolder, gatewayFolderBench } from './gateway-folder';
import { describePropagation, gatewayOpenClawBench } from './gateway-openclaw';
import { describeCheck, githubBench } from './github';
import { describeInstalls, installsBench } from './installs';
import { describeIsolation, isolationBench } from './isolation';
import { describeFanout, fanoutSkilldock, fanoutTail } from './log-fanout';
import { describeMachine, machineBench } from './machine';
import { describeNetwork, networkBench } from './network';
import { describeOutdated, npmOutdatedBench } from './npm-outdated';
import { describeList, packagesList } from './packages-list';
import { describePolicy, policyBench } from './policy';
import { describePolicyCorpus, policyCorpusBench } from './policy-corpus';
import { describeExecBench, policyExecBench } from './policy-exec';
import { describeReplicas, replicasBench } from './replicas';
import { sandboxesBench } from './sandboxes';
import { skillsBench } from './skills';
import { describeTerminal, terminalBench } from './terminal';

const LINES = Number(process.env.BENCH_LINES ?? 50_000);
const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 20);
const env: Record<string, string> = process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {};
// BENCH_ONLY=packages (or a comma list of server,logs,api,packages,github,skills,agents,policy,policy-corpus,sandboxes,installs,network,terminal,exec,isolation,gateways,machine,replicas) runs only those sections; default: all.
// `server` is `logs` (live log fan-out) plus `api` (API under load).
const SECTIONS = [
  'server',
  'logs',
  'api',
  'packages',
  'github',
  'skills',
  'agents',
  'policy',
  'policy-corpus',
  'sandboxes',
  'installs',
  'network',
  'terminal',
  'exec',
  'isolation',
  'gateways',
  'machine',
  'replicas',
] as const;
const only = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
for (const s of only) if (!(SECTIONS as readonly string[]).includes(s)) throw new Error(`BENCH_ONLY: unknown section "${s}" (known: ${SECTIONS.join(', ')})`);
const runs = (s: (typeof SECTIONS)[number]) => !only.length || only.includes(s) || ((s === 'logs' || s === 'api') && only.includes('server'));
const results: Record<string, unknown> = { at: new Date().toISOString() };

if (runs('logs') || runs('api') || runs('agents') || runs('machine')) {
  // BENCH_SERVER_JS names a server built elsewhere (e.g. main's, for a before/after).
  if (!process.env.BENCH_SERVER_JS) ensureBuilt();
  console.log(`Database: ${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}`);
}

if (runs('logs')) {
  const fanout: Record<string, unknown> = {};
  for (const rate of [0, Number(process.env.BENCH_RATE ?? 5000)]) {
    const label = rate ? `paced at ${rate.toLocaleString('en')} lines/s` : 'unthrottled burst';
    console.log(`\n== Live log fan-out, ${label} ==`);
    const tail = await fanoutTail(LINES, FOLLOWERS, rate);
    console.log(`baseline (file + tail -f): ${describeFanout(tail)}`);
    const sse = await fanoutSkilldock(LINES, FOLLOWERS, rate, env);
    console.log(`skilldock (job log → SSE): ${describeFanout(sse)}`);
    console.log(
      `ratio: p50 ×${fmt(sse.p50 / tail.p50, 2)}, p95 ×${fmt(sse.p95 / tail.p95, 2)}, throughput ×${fmt(sse.linesPerSecond / tail.linesPerSecond, 2)} of baseline`,
    );
    fanout[rate ? 'paced' : 'burst'] = { rate, tail, sse };
  }
  Object.assign(results, { lines: LINES, followers: FOLLOWERS, fanout });
}

if (runs('api')) {
  console.log('\n== API under load (50 connections) ==');
  const load = await apiLoad(50, Number(process.env.BENCH_SECONDS ?? 10), 200, env);
  for (const r of [load.trivial, load.jobs])
    console.log(
      `${r.path.padEnd(14)} ${Math.round(r.requestsPerSecond).toLocaleString('en')} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}, non-2xx ${r.non2xx}`,
    );
  console.log(
    `ratio: /api/v1/jobs serves ${fmt((load.jobs.requestsPerSecond / load.trivial.requestsPerSecond) * 100, 1)}% of the trivial route's req/s; p99 ×${fmt(load.jobs.p99 / load.trivial.p99, 2)}`,
  );

  Object.assign(results, { load });
}

if (runs('packages')) {
  const N = Number(process.env.BENCH_PACKAGES ?? 2000);
  const RUNS = Number(process.env.BENCH_RUNS ?? 5);
  console.log(`\n== Listing ${N.toLocaleString('en')} packages per manager (median of ${RUNS} after 1 warm-up) ==`);
  const list = await packagesList(N, RUNS);
  for (const line of describeList('pipList, reads METADATA headers', list.pip, 'python3 -m pip list --path … --format json')) console.log(line);
  for (const line of describeList('npmList, reads package.json', list.npm, 'npm ls -g --depth=0 --json --prefix …')) console.log(line);
  console.log(`ratio: pip list ×${fmt(list.pip.speedup, 1)}, npm ls ×${fmt(list.npm.speedup, 1)} slower than Skilldock`);

  const OUTDATED = Number(process.env.BENCH_OUTDATED ?? 200);
  console.log(`\n== Outdated check, ${OUTDATED} npm packages (concurrency 8) ==`);
  const od = await npmOutdatedBench(OUTDATED, 8, RUNS);
  console.log(`registry cold (fresh cache): ${describeOutdated(od.registry.cold)}`);
  console.log(`registry cached (same cache): ${describeOutdated(od.registry.cached)} (×${fmt(od.registry.ratio, 2)} of cold)`);
  console.log(`loopback cold (fresh cache, median of ${od.loopback.runs}): ${describeOutdated(od.loopback.cold)}`);
  console.log(`loopback cached (strong ETags, median of ${od.loopback.runs}): ${describeOutdated(od.loopback.cached)} (×${fmt(od.loopback.ratio, 2)} of cold)`);
  console.log(
    `ratio: cached/cold ×${fmt(od.registry.ratio, 2)} on the registry (${od.registry.cached.notModified} of ${od.registry.cached.requests} answered 304), ×${fmt(od.loopback.ratio, 2)} on loopback (${od.loopback.cached.notModified} of ${od.loopback.cached.requests} answered 304)`,
  );
  Object.assign(results, { packagesList: list, npmOutdated: od });
}

if (runs('github')) {
  const PKGS = Number(process.env.BENCH_GITHUB_PACKAGES ?? 100);
  const GRUNS = Number(process.env.BENCH_GITHUB_RUNS ?? 3);
  const MB = Number(process.env.BENCH_GITHUB_MB ?? 50);
  const gb = await githubBench(PKGS, GRUNS, MB);
  const o = gb.outdated;
  console.log(`\n== GitHub update check, ${o.packages} packages (loopback FakeGithub, PGlite; median of ${o.runs} after 1 warm-up) ==`);
  console.log(
    `setup: ${o.packages} packages installed with installGithubPackage in ${fmt(o.installMs / 1000, 1)} s (${fmt(o.installMs / o.packages, 0)} ms each)`,
  );
  console.log(`cold (github_http_cache emptied): ${describeCheck(o.cold)}`);
  console.log(`warm (ETags stored):              ${describeCheck(o.warm)}`);
  console.log(`ratio: warm/cold time ×${fmt(o.ratio, 2)}; rate-limited requests ${o.cold.counted} → ${o.warm.counted}`);
  const i = gb.install;
  console.log(
    `\n== GitHub install of a ${fmt(i.payloadBytes / 1024 / 1024, 0)} MiB asset (${(i.assetBytes / 1e6).toFixed(1)} MB tar.gz; median of ${i.runs} after 1 warm-up) ==`,
  );
  console.log(`baseline (fetch streamed to a file + sha256sum): ${fmt(i.baselineMs, 0)} ms  [${i.baselineRunsMs.map((x) => fmt(x, 0)).join(', ')}]`);
  console.log(
    `installGithubPackage (download, verify ${i.checksumSource}, extract, ELF, smoke, swap): ${fmt(i.installMs, 0)} ms  [${i.installRunsMs.map((x) => fmt(x, 0)).join(', ')}]`,
  );
  console.log(`ratio: install ×${fmt(i.ratio, 2)} of baseline (target ≤ 1.3)`);
  Object.assign(results, { githubOutdated: gb.outdated, githubInstall: gb.install });
}

if (runs('skills')) {
  const N = Number(process.env.BENCH_SKILLS ?? 5000);
  const SRUNS = Number(process.env.BENCH_SKILLS_RUNS ?? 3);
  const sb = await skillsBench(N, SRUNS);
  const r = sb.read;
  const x = sb.index;
  console.log(
    `\n== Scan and index ${N.toLocaleString('en')} skill folders (generated from the fixture corpus; median of ${SRUNS} after 1 warm-up; own process each) ==`,
  );
  console.log(
    `baseline (walk + read every file, 16 at a time): ${fmt(r.medianMs, 0)} ms, ${r.files.toLocaleString('en')} files, ${fmt(r.bytes / 1024 / 1024, 1)} MiB, peak RSS ${fmt(r.maxRssMb, 0)} MB`,
  );
  console.log(
    `skilldock first build (discover, hash, parse, security-scan every file, gate): ${fmt(x.medianMs, 0)} ms, peak RSS ${fmt(x.maxRssMb, 0)} MB — ${x.ready} ready, ${x.needsSetup} needs setup, ${x.blocked} blocked, ${x.invalid} invalid, ${x.findings} findings`,
  );
  console.log(
    `skilldock rebuild with nothing changed (stat identities and scanner verdicts kept from the previous build): ${fmt(sb.rebuild.medianMs, 0)} ms, peak RSS ${fmt(sb.rebuild.maxRssMb, 0)} MB`,
  );
  console.log(`ratio: first build ×${fmt(sb.ratio, 2)} (target ≤ 2), rebuild ×${fmt(sb.rebuildRatio, 2)} (target ≤ 0.1) of the plain read`);
  const q = sb.search;
  console.log(`\n== Search over ${N.toLocaleString('en')} skills (${q.queries} queries: words, prefixes, typos) ==`);
  console.log(`index build (BM25 over name, description, body; once, then kept up to date by document): ${fmt(q.indexMs, 0)} ms`);
  console.log(`p50 ${fmt(q.p50Ms, 2)} ms, p99 ${fmt(q.p99Ms, 2)} ms, max ${fmt(q.maxMs, 2)} ms, ${fmt(q.hitsPerQuery, 1)} hits per query (limit 20)`);
  const c = sb.change;
  console.log(`\n== One skill changed (${c.changes} edits of SKILL.md: reload, rescan, gate, re-index that skill) ==`);
  console.log(`re-indexed in: median ${fmt(c.medianMs, 1)} ms, max ${fmt(c.maxMs, 1)} ms (target ≤ 50), ${c.fullBuilds} full builds`);
  console.log(
    `search right after: p50 ${fmt(c.search.p50Ms, 2)} ms, p99 ${fmt(c.search.p99Ms, 2)} ms (target ≤ 5), max ${fmt(c.search.maxMs, 2)} ms, ${fmt(c.search.hitsPerQuery, 1)} hits per query`,
  );
  Object.assign(results, { skills: sb });
}

if (runs('agents')) {
  const A = Number(process.env.BENCH_AGENTS ?? 100);
  const S = Number(process.env.BENCH_AGENT_SKILLS ?? 1000);
  const ARUNS = Number(process.env.BENCH_AGENTS_RUNS ?? 3);
  const c = await agentsCompute(A, S, ARUNS);
  console.log(`\n== Effective skills of ${c.agents} agents over ${c.skills.toLocaleString('en')} skills (all agents each time; median of the runs) ==`);
  console.log(`effective skills per agent: min ${c.effectiveSkills.min}, median ${c.effectiveSkills.median}, max ${c.effectiveSkills.max}`);
  console.log(`from scratch (computeEffective per agent, every skill evaluated for every agent): ${fmt(c.scratch.medianMs, 1)} ms`);
  console.log(`cold cache (each skill evaluated once, shared by the agents): ${fmt(c.cold.medianMs, 1)} ms (×${fmt(c.cold.medianMs / c.scratch.medianMs, 3)})`);
  console.log(
    `one SKILL.md edited (${c.skillEdited.runs} edits; ${c.changedPerEdit} agents get a new version): ${fmt(c.skillEdited.medianMs, 2)} ms, max ${fmt(c.skillEdited.maxMs, 2)} ms (target ≤ 10; the catalog's own update ${fmt(c.skillEdited.catalogUpdateMs, 1)} ms apart)`,
  );
  console.log(`one allowlist edited: ${fmt(c.allowlistEdited.medianMs, 2)} ms, max ${fmt(c.allowlistEdited.maxMs, 2)} ms`);
  console.log(`nothing changed: ${fmt(c.nothingChanged.medianMs, 2)} ms, max ${fmt(c.nothingChanged.maxMs, 2)} ms`);
  console.log(`ratio: one skill edited ×${fmt(c.skillEdited.medianMs / c.scratch.medianMs, 4)} of from scratch`);
  console.log(`\n== Gateway poll, GET /api/v1/agents/{id}/skills with If-None-Match and an API token (50 connections) ==`);
  const g = await agentsGateway(50, Number(process.env.BENCH_SECONDS ?? 10), S, A, env);
  for (const r of [g.trivial, g.notModified, g.full])
    console.log(
      `${r.path.padEnd(14)} ${Math.round(r.requestsPerSecond).toLocaleString('en')} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}, unexpected ${r.non2xx}`,
    );
  console.log(
    `ratio: the 304 poll serves ${fmt((g.notModified.requestsPerSecond / g.trivial.requestsPerSecond) * 100, 1)}% of the trivial route's req/s (target 60%), p99 ×${fmt(g.notModified.p99 / g.trivial.p99, 2)}; the 200 poll (prompt of ${g.promptChars.toLocaleString('en')} characters) ${fmt((g.full.requestsPerSecond / g.trivial.requestsPerSecond) * 100, 1)}%`,
  );
  Object.assign(results, { agents: { compute: c, gateway: g } });
}

if (runs('policy')) {
  const pb = await policyBench(Number(process.env.BENCH_POLICY_ROUNDS ?? 50));
  for (const line of describePolicy(pb)) console.log(line);
  Object.assign(results, { policy: pb });
}

if (runs('policy-corpus')) {
  console.log('\n== Exec policy against the skills corpus and the attack corpus ==');
  const pc = await policyCorpusBench(Number(process.env.BENCH_POLICY_ROUNDS ?? 20));
  for (const line of describePolicyCorpus(pc)) console.log(line);
  Object.assign(results, { policyCorpus: pc });
}

if (runs('sandboxes')) {
  const RUNS = Number(process.env.BENCH_SANDBOX_RUNS ?? 5);
  const CREATES = Number(process.env.BENCH_SANDBOX_CREATES ?? 20);
  console.log(`\n== Sandbox full check on Docker (busybox image built offline; median of ${RUNS} after 1 warm-up) ==`);
  const sb = await sandboxesBench(RUNS, CREATES);
  if ('skipped' in sb) console.log(`skipped: ${sb.skipped}`);
  else {
    console.log(
      `baseline (dockerode: create+start+wait+remove of \`true\`, then create+start+exec \`true\`+remove): ${fmt(sb.baseline.medianMs, 0)} ms (run ${fmt(sb.baseline.runMs, 0)} ms + exec ${fmt(sb.baseline.execMs, 0)} ms)  [${sb.baseline.runsMs.map((x) => fmt(x, 0)).join(', ')}]`,
    );
    console.log(`runFullCheck (DockerBackend, every probe passing): ${fmt(sb.check.medianMs, 0)} ms  [${sb.check.runsMs.map((x) => fmt(x, 0)).join(', ')}]`);
    console.log(
      `probes (median ms): ${Object.entries(sb.check.probesMs)
        .map(([k, v]) => `${k} ${fmt(v, 0)}`)
        .join(', ')}`,
    );
    console.log(`ratio: full check ×${fmt(sb.ratio, 2)} of baseline (target ≤ 1.5)`);
    if ('skipped' in sb.enforced) console.log(`with network enforcement: skipped (${sb.enforced.skipped})`);
    else
      console.log(
        `with network enforcement (own bridge network, nft rules, the network probe inside): ${fmt(sb.enforced.medianMs, 0)} ms, ×${fmt(sb.enforced.ratio, 2)} of baseline; probes: ${Object.entries(
          sb.enforced.probesMs,
        )
          .map(([k, v]) => `${k} ${fmt(v, 0)}`)
          .join(', ')}`,
      );
    console.log(`\n== Create-to-first-exec of a Docker sandbox (DockerBackend.create, then exec \`true\`; ${sb.createToExec.creates} creates) ==`);
    console.log(`p50 ${fmt(sb.createToExec.p50Ms, 0)} ms, p95 ${fmt(sb.createToExec.p95Ms, 0)} ms, max ${fmt(sb.createToExec.maxMs, 0)} ms`);
  }
  Object.assign(results, { sandboxes: sb });
}

if (runs('installs')) {
  const RUNS = Number(process.env.BENCH_INSTALL_RUNS ?? 3);
  const SKILLS = Number(process.env.BENCH_INSTALL_SKILLS ?? 10);
  console.log(
    `\n== Skill installs into Docker configs (offline busybox and Debian python3+pip images; ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}) ==`,
  );
  const ib = await installsBench(RUNS, SKILLS);
  if ('skipped' in ib) console.log(`skipped: ${ib.skipped}`);
  else for (const line of describeInstalls(ib)) console.log(line);
  Object.assign(results, { installs: ib });
}

if (runs('network')) {
  const nb = await networkBench({
    connections: Number(process.env.BENCH_NET_CONNS ?? 200),
    megabytes: Number(process.env.BENCH_NET_MB ?? 100),
    runs: Number(process.env.BENCH_NET_RUNS ?? 3),
    saves: Number(process.env.BENCH_NET_SAVES ?? 20),
  });
  for (const line of describeNetwork(nb)) console.log(line);
  Object.assign(results, { network: nb });
}

if (runs('terminal')) {
  const tb = await terminalBench({
    samples: Number(process.env.BENCH_TERM_SAMPLES ?? 300),
    megabytes: Number(process.env.BENCH_TERM_MB ?? 50),
    runs: Number(process.env.BENCH_TERM_RUNS ?? 3),
  });
  for (const line of describeTerminal(tb)) console.log(line);
  Object.assign(results, { terminal: tb });
}

if (runs('exec')) {
  const RUNS = Number(process.env.BENCH_EXEC_RUNS ?? 200);
  console.log(
    `\n== Gateway exec round trip of \`true\` on Docker (busybox image built offline; ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}) ==`,
  );
  const eb = await policyExecBench(RUNS);
  for (const line of describeExecBench(eb)) console.log(line);
  Object.assign(results, { policyExec: eb });
}

if (runs('isolation')) {
  console.log("\n== The cost of isolation: an agent's own sandbox against the shared sandbox of before (busybox image built offline) ==");
  const ib = await isolationBench(Number(process.env.BENCH_ISOLATION_RUNS ?? 100), Number(process.env.BENCH_ISOLATION_CREATES ?? 10));
  for (const line of describeIsolation(ib)) console.log(line);
  Object.assign(results, { isolation: ib });
}

if (runs('gateways')) {
  ensureBuilt();
  console.log("\n== Gateways: an allowlist saved in the console → a real OpenClaw gateway's config in the new state ==");
  const gb = await gatewayOpenClawBench(
    Number(process.env.BENCH_GATEWAY_SAVES ?? 30),
    Number(process.env.BENCH_GATEWAY_CLI_SAVES ?? 5),
    Number(process.env.BENCH_GATEWAY_POLL_MS ?? 250),
  );
  console.log(describePropagation(gb.file));
  console.log(describePropagation(gb.cli));
  Object.assign(results, { gatewayOpenClaw: gb });
  console.log('\n== Gateways: `skilldock sync` into a folder (events vs polling, a first sync against cp -r, a no-change sync) ==');
  const gf = await gatewayFolderBench(Number(process.env.BENCH_FOLDER_SKILLS ?? 1000));
  console.log(describeGatewayFolder(gf));
  Object.assign(results, { gatewayFolder: gf });
}

if (runs('replicas')) {
  if (!process.env.BENCH_DATABASE_URL) console.log('\n== Replicas: skipped (set BENCH_DATABASE_URL to a PostgreSQL server URL) ==');
  else {
    ensureBuilt();
    console.log('\n== Replicas on one PostgreSQL behind a round-robin proxy (1, 2, 3 replicas; 50 connections) ==');
    const rb = await replicasBench(
      Number(process.env.BENCH_SECONDS ?? 10),
      Number(process.env.BENCH_PROPAGATION ?? 40),
      Number(process.env.BENCH_TAKEOVERS ?? 3),
    );
    for (const line of describeReplicas(rb)) console.log(line);
    Object.assign(results, { replicas: rb });
  }
}

if (runs('machine')) {
  const C = 50;
  console.log(`\n== The machine-facing API against plain node:http answering the same bytes (${C} connections) ==`);
  const m = await machineBench(
    C,
    Number(process.env.BENCH_SECONDS ?? 10),
    Number(process.env.BENCH_AGENT_SKILLS ?? 1000),
    Number(process.env.BENCH_AGENTS ?? 100),
    env,
  );
  for (const l of describeMachine(m)) console.log(l);
  Object.assign(results, { machine: m });
}

const out = path.join(ROOT, 'bench/results');
fs.mkdirSync(out, { recursive: true });
// A partial run (BENCH_ONLY) keeps the other sections' figures from the previous run.
const file = path.join(out, 'latest.json');
const previous = only.length && fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
fs.writeFileSync(file, JSON.stringify({ ...previous, ...results }, null, 2));
console.log(`\nSaved bench/results/latest.json`);
