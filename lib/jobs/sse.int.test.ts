// test-phase: both engines. Its subject is the job event stream over each engine's notifications.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { jobs } from '@/db/schema';
import { AppError } from '@/lib/core/errors';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { JobLogWriter } from './log-writer';
import { publish } from './queue';
import { jobEventStream, openJobEvents } from './sse';

let t: TestServices;
let big: string;
const BIG = 200_000;

/** The database with a count of the log pages read from it (every select on job_logs). */
function counting(database: Database): { database: Database; pages: () => number } {
  let n = 0;
  const db = new Proxy(database.db, {
    get(target, p, recv) {
      const v = Reflect.get(target, p, recv);
      if (p !== 'select' || typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        const fields = args[0] as Record<string, unknown> | undefined;
        if (fields && 'seq' in fields && 'line' in fields) n++;
        return v.apply(target, args);
      };
    },
  });
  return { database: { ...database, db }, pages: () => n };
}

async function insertJob(state: 'running' | 'succeeded', lines: number): Promise<string> {
  const id = crypto.randomUUID();
  const db = t.services.database;
  await db.db.insert(jobs).values({ id, kind: 'pipeline-selftest', title: 'big', state, createdByLabel: 'test', logCount: lines });
  if (lines) {
    await db.rows(sql`insert into job_logs (job_id, seq, at, stream, line) select ${id}, g, now(), 'stdout', 'line ' || g from generate_series(1, ${lines}) g`);
  }
  return id;
}

/** Reads server-sent events from a stream's reader until `until` says stop or the stream ends. */
async function readEvents(reader: ReadableStreamDefaultReader<Uint8Array>, until: (ev: string) => boolean): Promise<string[]> {
  const dec = new TextDecoder();
  const events: string[] = [];
  let buf = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    const parts = (buf + dec.decode(value, { stream: true })).split('\n\n');
    buf = parts.pop() ?? '';
    for (const ev of parts) {
      events.push(ev);
      if (until(ev)) return events;
    }
  }
}
const seqOf = (ev: string) => Number(/^id: (\d+)/.exec(ev)?.[1] ?? Number.NaN);
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 5));
};

beforeAll(async () => {
  t = await startTestServices({ worker: false });
  big = await insertJob('succeeded', BIG);
});
afterAll(async () => t?.stop());

describe('job event stream', () => {
  it('reads the history only as fast as the reader takes it, and stops when it leaves', async () => {
    const c = counting(t.services.database);
    const ac = new AbortController();
    const res = jobEventStream(c.database, t.services.hub, big, 0, ac.signal);
    const reader = res.body!.getReader();
    await readEvents(reader, (ev) => ev.includes('event: log'));
    // A reader that stops reading holds the replay: no page is read beyond what fills its queue.
    await turns(20);
    const held = c.pages();
    expect(held).toBeLessThanOrEqual(3);
    await turns(20);
    expect(c.pages()).toBe(held);
    await reader.cancel();
    ac.abort();
    await turns(10);
    expect(c.pages()).toBe(held);
  });

  it('lets timers run while a long replay is read', async () => {
    const c = counting(t.services.database);
    const res = jobEventStream(c.database, t.services.hub, big, 0, new AbortController().signal);
    const reader = res.body!.getReader();
    let fired = false;
    setTimeout(() => (fired = true), 0);
    const events = await readEvents(reader, (ev) => fired || ev.startsWith('event: end'));
    // The timer fired while the history was still being read, not after the whole replay.
    expect(fired).toBe(true);
    expect(events.filter((e) => e.includes('event: log')).length).toBeLessThan(BIG / 2);
    expect(c.pages()).toBeLessThan(BIG / 2000);
    await reader.cancel();
  });

  it('resumes exactly after the Last-Event-ID', async () => {
    const res = jobEventStream(t.services.database, t.services.hub, big, BIG - 2500, new AbortController().signal);
    const events = await readEvents(res.body!.getReader(), (ev) => ev.startsWith('event: end'));
    const seqs = events.filter((e) => e.includes('event: log')).map(seqOf);
    expect(seqs).toEqual(Array.from({ length: 2500 }, (_, i) => BIG - 2500 + i + 1));
    expect(events.at(-1)).toContain('"state":"succeeded"');
  });

  it('bounds what it holds for a slow reader of live lines and still delivers every line', async () => {
    const id = await insertJob('running', 0);
    const maxLiveBytes = 64 * 1024;
    const { stream, stats } = openJobEvents(t.services.database, t.services.hub, id, 0, new AbortController().signal, {
      maxLiveBytes,
      highWaterBytes: 16 * 1024,
    });
    const reader = stream.getReader();
    await readEvents(reader, (ev) => ev.startsWith('event: state'));
    // The reader now stops reading while 20,000 lines (about 2 MB of frames) are written live.
    const log = await JobLogWriter.open(t.services.database, id);
    const LIVE = 20_000;
    for (let i = 1; i <= LIVE; i++) log.append(`live line ${i} ${'x'.repeat(40)}`, 'stdout');
    await log.flush();
    await waitFor(async () => stats.fallbacks > 0, 'the live buffer to overflow into a replay');
    expect(stats.maxLiveBytesSeen).toBeLessThanOrEqual(maxLiveBytes + 200);
    await t.services.database.db.update(jobs).set({ state: 'succeeded', finishedAt: new Date() }).where(eq(jobs.id, id));
    await publish(t.services.database, { t: 'state', id });
    const events = await readEvents(reader, (ev) => ev.startsWith('event: end'));
    expect(events.filter((e) => e.includes('event: log')).map(seqOf)).toEqual(Array.from({ length: LIVE }, (_, i) => i + 1));
    expect(stats.closed).toBe(true);
  });

  it('caps the streams one owner holds open', async () => {
    const open = () => openJobEvents(t.services.database, t.services.hub, big, BIG, new AbortController().signal, { owner: 'user:cap', maxPerOwner: 2 });
    const a = open();
    open();
    let refused: unknown;
    try {
      open();
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('rate_limited');
    await a.stream.cancel();
    expect(() => open()).not.toThrow();
  });
});
