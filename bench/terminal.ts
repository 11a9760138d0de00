// Terminal benchmarks in a running busybox sandbox, each beside a baseline in the same run: a raw
// dockerode TTY exec stream into the same sandbox (same shell, same env, same geometry).
// - Keystroke echo: one printable byte typed into `cat` until the TTY line discipline echoes it,
//   the two ends alternating sample by sample so drift hits both alike.
// - Output throughput: a command writing N MiB of 'a' (no newline, so the TTY passes it unchanged),
//   counted until an end marker the shell computes (so the echoed command line cannot match it).
// Skilldock's server runs in a child process (bench/terminal-child.ts), apart from the client; so does
// a bare relay (bench/terminal-relay-child.ts), the floor for anything relaying a socket to the exec.
import { fmt, nowMs, percentile } from './common';
import { engine } from './sandboxes';
import { openDirectEnd, openSocketEnd, startRelayChild, startTerminalChild, type TermEnd } from './terminal-ends';

export interface Spread {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}
/** ws: Skilldock's /ws/terminal; relay: a bare ws-to-exec relay (the floor for any socket relay); direct: the baseline. */
type Ends<T> = { ws: T; relay: T; direct: T };
export interface TerminalBench {
  engine: string;
  echo: Ends<Spread> & { samples: number; warmup: number; p50Ratio: number; p99Ratio: number; relayP50Ratio: number };
  /** meanChunk: bytes per data event (direct) or per WebSocket message, median run. */
  throughput: { bytes: number; runs: number; runsMs: Ends<number[]>; MiBps: Ends<number>; ratio: number; relayRatio: number; meanChunk: Ends<number> };
}

const PROMPT = /[#$] (?:\x1b\[[0-9;]*[A-Za-z])*$/;
const LINE = 40;
const END_MARK = 'DONE';

/** The text an end received (latin1), with a wait for a condition on it. */
class Screen {
  text = '';
  private waiter: { test: () => boolean; resolve: () => void } | null = null;
  constructor(readonly end: TermEnd) {
    this.listen();
  }

  listen(): void {
    this.end.onData((b) => {
      this.text += b.toString('latin1');
      if (this.waiter?.test()) {
        const w = this.waiter;
        this.waiter = null;
        w.resolve();
      }
    });
  }

  until(test: () => boolean, what: string, ms = 30_000): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.end.name}: no ${what} within ${ms / 1000} s; got ${JSON.stringify(this.text.slice(-200))}`)), ms);
      this.waiter = {
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  }

  type(s: string): void {
    this.end.write(Buffer.from(s, 'latin1'));
  }

  async prompt(): Promise<void> {
    await this.until(() => PROMPT.test(this.text), 'prompt');
    await sleep(100);
    this.text = '';
  }
}

/** The list started at index i (mod its length): each end goes first in turn. */
const rotate = <T>(xs: T[], i: number): T[] => xs.map((_, k) => xs[(k + i) % xs.length]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const spread = (xs: number[]): Spread => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50Ms: percentile(s, 50), p99Ms: percentile(s, 99), maxMs: s[s.length - 1] };
};
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

/** Echo round trips into `cat` (canonical mode, echo on), the ends taking turns going first. */
async function echoRounds(screens: Screen[], samples: number, warmup: number): Promise<Record<string, number[]>> {
  for (const s of screens) {
    s.type('cat\r');
    await s.until(() => /cat\r\n/.test(s.text), 'cat started');
    await sleep(200);
    s.text = '';
  }
  const out: Record<string, number[]> = Object.fromEntries(screens.map((s) => [s.end.name, []]));
  let typed = '';
  for (let i = 0; i < warmup + samples; i++) {
    const c = String.fromCharCode(0x61 + (i % 26));
    for (const s of rotate(screens, i)) {
      const from = s.text.length;
      const t0 = nowMs();
      s.type(c);
      await s.until(() => s.text.indexOf(c, from) >= 0, `echo of ${c}`, 10_000);
      if (i >= warmup) out[s.end.name].push(nowMs() - t0);
    }
    typed += c;
    if (typed.length < LINE && i < warmup + samples - 1) continue;
    // End the line (its echo, then cat's copy of it), so the line buffer never fills.
    for (const s of screens) {
      s.type('\r');
      const want = `${typed}\r\n${typed}\r\n`;
      await s.until(() => s.text.endsWith(want), 'line from cat');
      s.text = '';
    }
    typed = '';
  }
  for (const s of screens) {
    s.type('\x04');
    await s.prompt();
  }
  return out;
}

/** One command writing `bytes` of 'a': the time from its Enter to the end marker, with every 'a' counted. */
async function outputRun(s: Screen, bytes: number): Promise<{ ms: number; chunks: number }> {
  s.type(`head -c ${bytes} /dev/zero | tr '\\0' a; echo DO""NE`);
  await s.until(() => s.text.includes('DO""NE'), 'command echo');
  await sleep(100);
  const all = Buffer.alloc(1 << 20, 0x61);
  let as = 0;
  let tail = '';
  let t0 = 0;
  let started = false;
  let done = false;
  let chunks = 0;
  const ms = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${s.end.name}: no end marker within 300 s (${as} bytes)`)), 300_000);
    s.end.onData((b) => {
      if (done) return;
      chunks++;
      if (started && b.length <= all.length && b.equals(all.subarray(0, b.length))) {
        as += b.length;
        return;
      }
      // The line editor's answer to Enter (a redraw of the line, then CRLF) comes before the output.
      let from = 0;
      if (!started) {
        from = b.indexOf(0x0a) + 1;
        started = from > 0;
        if (!started) return;
      }
      // The prompt after the marker has letters of its own.
      const text = tail + b.toString('latin1');
      const at = text.indexOf(END_MARK);
      const stop = at < 0 ? b.length : Math.max(from, at - tail.length);
      for (let i = from; i < stop; i++) if (b[i] === 0x61) as++;
      if (at >= 0) {
        done = true;
        clearTimeout(timer);
        resolve(nowMs() - t0);
      }
      tail = text.slice(-(END_MARK.length - 1));
    });
    t0 = nowMs();
    s.type('\r');
  });
  s.listen();
  s.text = '';
  s.type('\r');
  await s.prompt();
  if (as !== bytes) throw new Error(`${s.end.name}: ${as} bytes of 'a' arrived, ${bytes} were written`);
  return { ms, chunks };
}

export interface TerminalKnobs {
  samples: number;
  megabytes: number;
  runs: number;
}

const NAMES = ['ws', 'relay', 'direct'] as const;
const byEnd = <T>(f: (name: (typeof NAMES)[number]) => T): Ends<T> => ({ ws: f('ws'), relay: f('relay'), direct: f('direct') });

export async function terminalBench({ samples, megabytes, runs }: TerminalKnobs): Promise<TerminalBench | { skipped: string }> {
  const e = await engine();
  if ('skip' in e) return { skipped: e.skip };
  const env: Record<string, string> = e.host ? { DOCKER_HOST: e.host } : {};
  const stops: (() => Promise<void>)[] = [e.stop];
  const ends: TermEnd[] = [];
  try {
    const child = await startTerminalChild(env);
    stops.unshift(child.stop);
    const relay = await startRelayChild(env, child.info.containerId);
    stops.unshift(relay.stop);
    ends.push(await openSocketEnd('ws', await child.url(), child.info));
    ends.push(await openSocketEnd('relay', relay.url));
    ends.push(await openDirectEnd(e.host, child.info.containerId));
    const screens = ends.map((x) => new Screen(x));
    for (const s of screens) await s.prompt();
    const warmup = 30;
    const echo = await echoRounds(screens, samples, warmup);

    const bytes = Math.round(megabytes * 1024 * 1024);
    const runsMs = byEnd(() => [] as number[]);
    const chunks = byEnd(() => [] as number[]);
    for (let i = -1; i < runs; i++) {
      for (const s of rotate(screens, i + 1)) {
        const r = await outputRun(s, bytes);
        if (i < 0) continue;
        runsMs[s.end.name as keyof typeof runsMs].push(r.ms);
        chunks[s.end.name as keyof typeof chunks].push(r.chunks);
      }
    }
    const lat = byEnd((n) => spread(echo[n]));
    const MiBps = byEnd((n) => bytes / 1024 / 1024 / (median(runsMs[n]) / 1000));
    return {
      engine: e.host ?? 'default socket',
      echo: {
        samples,
        warmup,
        ...lat,
        p50Ratio: lat.ws.p50Ms / lat.direct.p50Ms,
        p99Ratio: lat.ws.p99Ms / lat.direct.p99Ms,
        relayP50Ratio: lat.relay.p50Ms / lat.direct.p50Ms,
      },
      throughput: {
        bytes,
        runs,
        runsMs,
        MiBps,
        ratio: MiBps.ws / MiBps.direct,
        relayRatio: MiBps.relay / MiBps.direct,
        meanChunk: byEnd((n) => bytes / median(chunks[n])),
      },
    };
  } finally {
    for (const x of ends) await x.close().catch(() => undefined);
    for (const stop of stops) await stop();
  }
}

/** The figures as the bench prints them. */
export function describeTerminal(tb: TerminalBench | { skipped: string }): string[] {
  if ('skipped' in tb) return ['\n== Terminal ==', `skipped: ${tb.skipped}`];
  const t = (x: Spread) => `p50 ${fmt(x.p50Ms, 2)} ms, p99 ${fmt(x.p99Ms, 2)} ms, max ${fmt(x.maxMs, 1)} ms`;
  const e = tb.echo;
  const d = tb.throughput;
  const runs = (xs: number[]) => `[${xs.map((x) => fmt(x, 0)).join(', ')} ms]`;
  const kib = (n: number) => `${fmt(n / 1024, 1)} KiB`;
  return [
    `\n== Terminal keystroke echo (busybox sandbox, one byte typed into cat until the TTY echoes it; ${e.samples} samples each after ${e.warmup} warm-ups, interleaved) ==`,
    `baseline (dockerode TTY exec stream, same sandbox and shell): ${t(e.direct)}`,
    `skilldock (/ws/terminal, ws client, binary frames; server in a child process): ${t(e.ws)}`,
    `bare relay (ws server piping to a TTY exec, nothing else, in a child process): ${t(e.relay)}`,
    `ratio: p50 ×${fmt(e.p50Ratio, 2)}, p99 ×${fmt(e.p99Ratio, 2)} of direct (target ≤ 1.3); bare relay p50 ×${fmt(e.relayP50Ratio, 2)}`,
    `\n== Terminal output of ${fmt(d.bytes / 1024 / 1024, 0)} MiB (head -c … /dev/zero | tr '\\0' a; median of ${d.runs} after 1 warm-up, interleaved) ==`,
    `baseline (dockerode TTY exec stream): ${fmt(d.MiBps.direct, 1)} MiB/s  ${runs(d.runsMs.direct)}, ${kib(d.meanChunk.direct)} per read`,
    `skilldock (/ws/terminal to a Node ws client): ${fmt(d.MiBps.ws, 1)} MiB/s  ${runs(d.runsMs.ws)}, ${kib(d.meanChunk.ws)} per message`,
    `bare relay: ${fmt(d.MiBps.relay, 1)} MiB/s  ${runs(d.runsMs.relay)}, ${kib(d.meanChunk.relay)} per message`,
    `ratio: throughput ×${fmt(d.ratio, 2)} of direct (target ≥ 0.7); bare relay ×${fmt(d.relayRatio, 2)}`,
  ];
}
