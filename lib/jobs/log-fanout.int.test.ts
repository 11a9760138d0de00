// test-phase: both engines. Its subject is job log delivery through each engine's notifications.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { jobs } from '@/db/schema';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { JobEventHub } from './hub';
import { JobLogWriter } from './log-writer';
import { publish } from './queue';
import { openJobEvents } from './sse';

let t: TestServices;

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

async function runningJob(lease?: { owner: string; attempts: number }): Promise<string> {
  const id = crypto.randomUUID();
  await t.services.database.db.insert(jobs).values({
    id,
    kind: 'pipeline-selftest',
    title: 'fan-out',
    state: 'running',
    createdByLabel: 'test',
    ...(lease ? { leaseOwner: lease.owner, attempts: lease.attempts } : {}),
  });
  return id;
}

async function finish(id: string) {
  await t.services.database.db.update(jobs).set({ state: 'succeeded', finishedAt: new Date() }).where(eq(jobs.id, id));
  await publish(t.services.database, { t: 'state', id });
}

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
const logSeqs = (events: string[]) => events.filter((e) => e.includes('event: log')).map((e) => Number(/^id: (\d+)/.exec(e)?.[1]));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const isEnd = (ev: string) => ev.startsWith('event: end');
const isState = (ev: string) => ev.startsWith('event: state');

beforeAll(async () => {
  t = await startTestServices({ worker: false });
});
afterAll(async () => t?.stop());

describe('live log fan-out', () => {
  it('lets followers that fell behind catch up from the lines just stored, not by each reading the log again', async () => {
    const { hub } = t.services;
    const c = counting(t.services.database);
    const id = await runningJob();
    const FOLLOWERS = 5;
    const LINES = 20_000;
    const streams = Array.from({ length: FOLLOWERS }, () =>
      openJobEvents(c.database, hub, id, 0, new AbortController().signal, { maxLiveBytes: 64 * 1024, highWaterBytes: 16 * 1024 }),
    );
    const readers = streams.map((s) => s.stream.getReader());
    for (const r of readers) await readEvents(r, isState);
    const joined = c.pages();
    // The followers stop reading while the lines are written, so each overflows what it may hold live.
    const log = await JobLogWriter.open(t.services.database, id, { onStored: (job, rows) => hub.stored(job, rows) });
    for (let i = 1; i <= LINES; i++) log.append(`live line ${i} ${'x'.repeat(40)}`, 'stdout');
    await log.flush();
    await waitFor(async () => streams.every((s) => s.stats.fallbacks > 0), 'every follower to fall back to replay');
    await finish(id);
    for (const r of readers) expect(logSeqs(await readEvents(r, isEnd))).toEqual(range(1, LINES));
    expect(c.pages()).toBe(joined);
    expect(streams.every((s) => s.stats.pagesFromMemory > 0)).toBe(true);
  });

  it('resumes exactly after the Last-Event-ID while the job is still writing, from memory or from the database', async () => {
    // A hub that keeps only the latest ~16 KiB of frames, so an older resume point must come from the database.
    const hub = new JobEventHub(t.services.database, { recentBytes: 16 * 1024 });
    await hub.start();
    try {
      const id = await runningJob();
      const watcher = openJobEvents(t.services.database, hub, id, 0, new AbortController().signal).stream.getReader();
      await readEvents(watcher, isState);
      const log = await JobLogWriter.open(t.services.database, id, { onStored: (job, rows) => hub.stored(job, rows) });
      const write = async (from: number, to: number) => {
        for (let i = from; i <= to; i++) log.append(`line ${i}`, i % 7 ? 'stdout' : 'stderr');
        await log.flush();
      };
      await write(1, 3000);
      const first = new AbortController();
      const a = openJobEvents(t.services.database, hub, id, 0, first.signal).stream.getReader();
      const seen = logSeqs(await readEvents(a, (ev) => ev.startsWith('id: 1234\n')));
      expect(seen).toEqual(range(1, 1234));
      first.abort();
      await write(3001, 4000);
      // 1234 is long out of the hub's window; 3990 is inside it.
      const old = openJobEvents(t.services.database, hub, id, 1234, new AbortController().signal);
      const recent = openJobEvents(t.services.database, hub, id, 3990, new AbortController().signal);
      const oldReader = old.stream.getReader();
      const recentReader = recent.stream.getReader();
      const fromOld = await readEvents(oldReader, isState);
      const fromRecent = await readEvents(recentReader, isState);
      await write(4001, 4500);
      await finish(id);
      fromOld.push(...(await readEvents(oldReader, isEnd)));
      fromRecent.push(...(await readEvents(recentReader, isEnd)));
      expect(logSeqs(fromOld)).toEqual(range(1235, 4500));
      expect(logSeqs(fromRecent)).toEqual(range(3991, 4500));
      expect(old.stats.pagesRead).toBeGreaterThan(0);
      expect(recent.stats.pagesRead).toBe(0);
      expect(recent.stats.pagesFromMemory).toBeGreaterThan(0);
      expect(logSeqs(await readEvents(watcher, isEnd))).toEqual(range(1, 4500));
      // What was sent is what is stored, line for line.
      const stored = await t.services.database.rows<{ n: number; s: number }>(
        sql`select count(*)::int as n, coalesce(sum(seq), 0)::bigint as s from job_logs where job_id = ${id}`,
      );
      expect(Number(stored[0].n)).toBe(4500);
      expect(Number(stored[0].s)).toBe((4500 * 4501) / 2);
    } finally {
      await hub.stop();
    }
  });

  it('announces stored lines to other processes, whose followers get every line in order', async () => {
    const { hub, database } = t.services;
    const id = await runningJob();
    // A second hub on the same database stands for another replica: it learns of lines only by notice.
    const replica = new JobEventHub(database);
    await replica.start();
    let notices = 0;
    const off = hub.onBus((m) => {
      if (m.t === 'log' && m.id === id) notices++;
    });
    try {
      const here = openJobEvents(database, hub, id, 0, new AbortController().signal).stream.getReader();
      const there = openJobEvents(database, replica, id, 0, new AbortController().signal).stream.getReader();
      await readEvents(here, isState);
      await readEvents(there, isState);
      const log = await JobLogWriter.open(database, id, { onStored: (job, rows) => hub.stored(job, rows) });
      for (let i = 1; i <= 500; i++) log.append(`line ${i}`, 'stdout');
      await log.flush();
      await finish(id);
      expect(logSeqs(await readEvents(here, isEnd))).toEqual(range(1, 500));
      expect(logSeqs(await readEvents(there, isEnd))).toEqual(range(1, 500));
      expect(notices).toBeGreaterThan(0);
    } finally {
      off();
      await replica.stop();
    }
  });

  it('hands each stored statement of a large flush to the followers at once, in short statements on PGlite', async () => {
    const { database } = t.services;
    const id = await runningJob();
    const handed: number[][] = [];
    const log = await JobLogWriter.open(database, id, { onStored: (_job, rows) => handed.push(rows.map((r) => r.seq)) });
    for (let i = 1; i <= 2000; i++) log.append(`line ${i}`, 'stdout');
    await log.flush();
    expect(handed.flat()).toEqual(range(1, 2000));
    // PGlite runs each statement on the server's one thread, so a long one would hold every follower back.
    const longest = Math.max(...handed.map((h) => h.length));
    if (database.kind === 'pglite') expect(longest).toBeLessThanOrEqual(250);
    expect(handed.length).toBeGreaterThan(1);
  });

  it('never sends a line that was not stored: a fenced-off attempt reaches no follower', async () => {
    const { hub, database } = t.services;
    const id = await runningJob({ owner: 'worker-b', attempts: 2 });
    const reader = openJobEvents(database, hub, id, 0, new AbortController().signal).stream.getReader();
    await readEvents(reader, isState);
    const stale = await JobLogWriter.open(database, id, { owner: 'worker-a', attempt: 1, onStored: (job, rows) => hub.stored(job, rows) });
    for (let i = 1; i <= 300; i++) stale.append(`stale ${i}`, 'stdout');
    await stale.flush();
    const current = await JobLogWriter.open(database, id, { owner: 'worker-b', attempt: 2, onStored: (job, rows) => hub.stored(job, rows) });
    for (let i = 1; i <= 300; i++) current.append(`current ${i}`, 'stdout');
    await current.flush();
    await finish(id);
    const events = await readEvents(reader, isEnd);
    expect(logSeqs(events)).toEqual(range(1, 300));
    expect(events.some((e) => e.includes('stale'))).toBe(false);
  });
});
