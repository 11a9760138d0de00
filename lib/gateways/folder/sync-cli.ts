// `skilldock sync`: mirrors an agent's effective skills into a skills folder any AgentSkills client
// reads (one folder per skill with SKILL.md), and keeps it in step: it follows the agent's event
// stream (resumed with Last-Event-ID, reconnected with backoff) and polls with the ETag while the
// stream is unavailable. Only folders it wrote (marker file) are ever replaced or removed.
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeFileAtomic } from '../../core/atomic-fs';
import { lockFile } from '../../core/dir-lock';
import { isAppError } from '../../core/errors';
import { trimEndChar } from '../../core/text';
import { type Change, syncPass } from './sync';
import { EXIT, GatewayClient, SyncFailure } from './sync-client';
import { followVersions } from './sync-events';

const USAGE = `Usage: skilldock sync --url http://host:3000 --agent <id> [--token <token>] --dir <folder>
                      [--plugin <name>] [--once] [--check] [--poll-ms N]

  --token     an API token scoped to the agent (agents.read); default: $SKILLDOCK_TOKEN
  --dir       the skills folder to keep in step (created when missing)
  --plugin    write a Claude Code plugin: <dir>/.claude-plugin/plugin.json and <dir>/skills/
  --once      sync once and exit 0
  --check     change nothing; exit 1 and list the differences when the folder is not in step, else 0
  --poll-ms   how often to poll while the event stream is unavailable (default 2000)

Exit codes: 0 done or in step, 1 differences (--check), 2 usage, 3 token refused, 4 agent not found,
5 server unreachable, 6 other failure (e.g. a folder Skilldock did not write is in the way).`;

export interface SyncCliOptions {
  url: string;
  agent: string;
  token: string;
  dir: string;
  plugin: string | null;
  once: boolean;
  check: boolean;
  pollMs: number;
}

export function parseSyncArgs(argv: string[], env: NodeJS.ProcessEnv): SyncCliOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      agent: { type: 'string' },
      token: { type: 'string' },
      dir: { type: 'string' },
      plugin: { type: 'string' },
      once: { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
      'poll-ms': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) throw new SyncFailure(USAGE, EXIT.ok);
  if (positionals.length !== 1 || positionals[0] !== 'sync') throw new SyncFailure(USAGE, EXIT.usage);
  const token = values.token ?? env.SKILLDOCK_TOKEN ?? '';
  const missing = (['url', 'agent', 'dir'] as const).filter((k) => !values[k]);
  if (missing.length) throw new SyncFailure(`Missing ${missing.map((m) => `--${m}`).join(', ')}.\n\n${USAGE}`, EXIT.usage);
  if (!token) throw new SyncFailure('No token: pass --token or set SKILLDOCK_TOKEN.', EXIT.usage);
  let url: URL;
  try {
    url = new URL(values.url as string);
  } catch {
    throw new SyncFailure(`--url "${values.url}" is not a URL (e.g. http://localhost:3000).`, EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SyncFailure('--url must be http:// or https://.', EXIT.usage);
  if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(values.agent as string)) throw new SyncFailure(`--agent "${values.agent}" is not an agent id.`, EXIT.usage);
  if (values.plugin !== undefined && !/^[a-z0-9][a-z0-9-]{0,63}$/.test(values.plugin)) {
    throw new SyncFailure('--plugin takes a lower-case name of letters, digits and "-".', EXIT.usage);
  }
  const pollMs = values['poll-ms'] === undefined ? 2000 : Number(values['poll-ms']);
  if (!Number.isInteger(pollMs) || pollMs < 50 || pollMs > 3_600_000) throw new SyncFailure('--poll-ms takes a whole number from 50 to 3600000.', EXIT.usage);
  if (values.once && values.check) throw new SyncFailure('--once and --check exclude each other.', EXIT.usage);
  return {
    url: trimEndChar(url.toString(), '/'),
    agent: values.agent as string,
    token,
    dir: path.resolve(values.dir as string),
    plugin: values.plugin ?? null,
    once: values.once,
    check: values.check,
    pollMs,
  };
}

const line = (text: string) => process.stdout.write(`${new Date().toISOString()} ${text}\n`);
const describe = (c: Change) => `${c.kind} ${c.name}${c.detail ? `: ${c.detail}` : ''}`;

async function writePlugin(dir: string, name: string, agent: string): Promise<void> {
  const manifest = { name, description: `Skills of the Skilldock agent "${agent}", kept in step by skilldock sync.` };
  const file = path.join(dir, '.claude-plugin', 'plugin.json');
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  const fs = await import('node:fs/promises');
  if ((await fs.readFile(file, 'utf8').catch(() => null)) === text) return;
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, text);
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

/** Runs the command; resolves with the exit code. */
export async function runSync(o: SyncCliOptions, signal: AbortSignal): Promise<number> {
  const client = new GatewayClient({ url: o.url, agentId: o.agent, token: o.token });
  const root = o.plugin ? path.join(o.dir, 'skills') : o.dir;
  const host = os.hostname();
  client.report = {
    id: createHash('sha256').update(`${host}\0${root}`).digest('hex').slice(0, 32),
    host,
    dir: root,
    mode: o.check ? 'check' : o.once ? 'once' : 'polling',
    pollMs: o.pollMs,
    blocked: 0,
  };
  if (o.check) {
    const r = await syncPass(client, root, { dryRun: true });
    for (const c of r.changes) process.stdout.write(`${{ added: '+', updated: '~', removed: '-', blocked: '!' }[c.kind]} ${describe(c)}\n`);
    return r.changes.length ? EXIT.differs : EXIT.ok;
  }
  await (await import('node:fs/promises')).mkdir(root, { recursive: true });
  const lock = lockFile(path.join(root, '.skilldock-sync.lock'), 'skills folder', root);
  try {
    if (o.plugin) await writePlugin(o.dir, o.plugin, o.agent);
    let version: string | null = null;
    let blocked = false;
    const pass = async () => {
      const r = await syncPass(client, root);
      if (!r.unchanged || version === null) {
        for (const c of r.changes) line(describe(c));
        if (version !== r.version) line(`in step with ${o.agent} version ${r.version} (${r.changes.filter((c) => c.kind !== 'blocked').length} changes)`);
      }
      const held = r.changes.filter((c) => c.kind === 'blocked').length;
      blocked = held > 0;
      if (client.report) client.report.blocked = held;
      version = r.version;
    };
    await pass();
    if (o.once) {
      // One more look at the list tells the console how this pass ended (a 304 when nothing moved).
      if (blocked) await client.skills(null).catch(() => undefined);
      return blocked ? EXIT.failed : EXIT.ok;
    }
    await follow(client, o, signal, pass, () => version);
    return EXIT.ok;
  } finally {
    lock.release();
  }
}

/**
 * Follows the event stream until `outer` aborts; a pass runs on each new version, and every pollMs
 * while the stream is down. A pass refused for good (token, agent gone) ends it with that failure.
 */
async function follow(client: GatewayClient, o: SyncCliOptions, outer: AbortSignal, pass: () => Promise<void>, version: () => string | null) {
  const stop = new AbortController();
  outer.addEventListener('abort', () => stop.abort(), { once: true });
  const signal = stop.signal;
  let fatal: unknown = null;
  let backoff = 250;
  let dirty = false;
  let running: Promise<void> | null = null;
  const kick = () => {
    if (running) {
      dirty = true;
      return;
    }
    running = (async () => {
      do {
        dirty = false;
        try {
          await pass();
        } catch (e) {
          if (e instanceof SyncFailure && !e.transient) {
            fatal = e;
            stop.abort();
          } else line(`sync failed, trying again: ${(e as Error).message}`);
        }
      } while (dirty && !signal.aborted);
      running = null;
    })();
  };
  while (!signal.aborted) {
    let opened = false;
    try {
      await followVersions(client, version(), signal, {
        onOpen: () => {
          opened = true;
          backoff = 250;
          if (client.report) client.report.mode = 'events';
        },
        onVersion: (v) => {
          if (v !== version()) kick();
        },
        onError: (data) => line(`the server ended the event stream: ${data}`),
      });
      if (!signal.aborted) line('event stream closed; reconnecting');
    } catch (e) {
      if (signal.aborted) break;
      if (e instanceof SyncFailure && (e.exitCode === EXIT.auth || e.exitCode === EXIT.usage)) throw e;
      if (!opened) line(`event stream unavailable (${(e as Error).message}); polling every ${o.pollMs} ms`);
    }
    // While the stream is down: poll with the ETag until the next reconnect attempt.
    if (client.report) client.report.mode = 'polling';
    const until = Date.now() + backoff;
    do {
      kick();
      await sleep(Math.min(o.pollMs, Math.max(0, until - Date.now())), signal);
    } while (!signal.aborted && Date.now() < until);
    backoff = Math.min(backoff * 2, 30_000);
  }
  await running;
  if (fatal) throw fatal;
}

export async function main(argv: string[]): Promise<number> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    return await runSync(parseSyncArgs(argv, process.env), controller.signal);
  } catch (e) {
    if (e instanceof SyncFailure) {
      (e.exitCode === EXIT.ok ? process.stdout : process.stderr).write(`${e.message}\n`);
      return e.exitCode;
    }
    process.stderr.write(`skilldock sync: ${isAppError(e) ? e.message : (e as Error).stack}\n`);
    return EXIT.failed;
  }
}
