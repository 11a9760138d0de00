import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import { castPath, metaPath, type TranscriptMeta, TranscriptRecorder, transcriptsDir } from './transcript';
import { transcriptRecorder } from './transcript-recorders';

const ID = '0f8b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
const actor = { label: 'ada@example.test', userId: 'user-1' } as Actor;
const start = { sessionId: ID, actor, sandboxId: 'cfg1~abc123', cols: 100, rows: 30 };

let dataDir: string;
let dir: string;
let clock: number;
const now = () => clock;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'transcript-'));
  dir = transcriptsDir(dataDir);
  clock = Date.UTC(2026, 0, 2, 3, 4, 5, 0);
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const QUOTA = { recordTranscripts: true, transcriptQuotaMb: 1024 };
const record = async (opts: { cap?: number } = {}) => {
  const rec = await transcriptRecorder(dataDir, { now, ...opts })(start, QUOTA);
  if (!rec) throw new Error('expected a recorder');
  return rec;
};
const lines = () =>
  fs
    .readFileSync(castPath(dir, ID), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);
const meta = () => JSON.parse(fs.readFileSync(metaPath(dir, ID), 'utf8')) as TranscriptMeta;

describe('transcriptRecorder', () => {
  it('records nothing while recordTranscripts is off', async () => {
    expect(await transcriptRecorder(dataDir, { now })(start, { ...QUOTA, recordTranscripts: false })).toBeNull();
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('writes the asciicast header, then output, resize and the end marker in order — never what was typed', async () => {
    const rec = await record();
    clock += 250;
    // Typed with echo off (a password prompt): nothing of it may reach the file.
    rec.input(Buffer.from('s3cret-typed\r'));
    clock += 1000;
    rec.output(Buffer.from('hi\r\n'));
    rec.resize(120, 40);
    clock += 500;
    rec.end('closed');
    await rec.done;
    const [header, ...events] = lines();
    expect(header).toEqual({
      version: 2,
      width: 100,
      height: 30,
      timestamp: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000,
      title: 'ada@example.test in cfg1~abc123',
      env: { TERM: 'xterm-256color' },
    });
    expect(events).toEqual([
      [1.25, 'o', 'hi\r\n'],
      [1.25, 'r', '120x40'],
      [1.75, 'm', 'ended: closed'],
    ]);
  });

  it('keeps the folder private and the file owner-only', async () => {
    const rec = await record();
    rec.end('idle');
    await rec.done;
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(castPath(dir, ID)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(metaPath(dir, ID)).mode & 0o777).toBe(0o600);
  });

  it('decodes a multi-byte character split across two output chunks', async () => {
    const rec = await record();
    const bytes = Buffer.from('héllo €', 'utf8');
    const cut = bytes.indexOf(0xe2) + 1; // inside the three bytes of €
    rec.output(bytes.subarray(0, 2)); // "h" and the first byte of é
    rec.output(bytes.subarray(2, cut));
    rec.output(bytes.subarray(cut));
    rec.end('exited');
    await rec.done;
    const text = lines()
      .slice(1)
      .filter((l) => (l as unknown[])[1] === 'o')
      .map((l) => (l as string[])[2])
      .join('');
    expect(text).toBe('héllo €');
    expect(text).not.toContain('\ufffd');
  });

  it('stops at the cap with one truncation note, and still records the end', async () => {
    const rec = await record({ cap: 200 });
    for (let i = 0; i < 50; i++) rec.output(Buffer.from(`line ${i} ${'x'.repeat(20)}\r\n`));
    rec.input(Buffer.from('ignored'));
    rec.end('idle');
    await rec.done;
    const events = lines().slice(1) as [number, string, string][];
    const outputs = events.filter((e) => e[1] === 'o');
    expect(outputs.length).toBeGreaterThan(0);
    expect(outputs.length).toBeLessThan(50);
    const eventBytes = outputs.reduce((n, e) => n + Buffer.byteLength(`${JSON.stringify(e)}\n`), 0);
    expect(eventBytes).toBeLessThanOrEqual(200);
    const notes = events.filter((e) => e[1] === 'm');
    expect(notes.map((e) => e[2].split(':')[0])).toEqual(['truncated', 'ended']);
    expect(events.some((e) => e[1] === 'i')).toBe(false);
    expect(meta().truncated).toBe(true);
  });

  it('writes who, where and when to the sidecar, and the end once the session ends', async () => {
    const rec = await record();
    await rec.started;
    expect(meta()).toMatchObject({ id: ID, user: 'ada@example.test', userId: 'user-1', sandboxId: 'cfg1~abc123', endedAt: null, reason: null });
    clock += 60_000;
    rec.end('revoked');
    await rec.done;
    expect(meta()).toMatchObject({
      startedAt: new Date(clock - 60_000).toISOString(),
      endedAt: new Date(clock).toISOString(),
      reason: 'revoked',
      truncated: false,
    });
  });

  it('ignores everything after the end, and a second end', async () => {
    const rec = await record();
    rec.end('closed');
    rec.output(Buffer.from('late'));
    rec.end('idle');
    await rec.done;
    expect(lines().slice(1)).toEqual([[0, 'm', 'ended: closed']]);
  });

  it('never writes into a file that already exists', async () => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(castPath(dir, ID), 'keep me');
    const rec = new TranscriptRecorder(dir, start, { now });
    rec.output(Buffer.from('x'));
    rec.end('closed');
    await rec.done;
    expect(fs.readFileSync(castPath(dir, ID), 'utf8')).toBe('keep me');
  });
});

describe('the transcript quota', () => {
  const MiB = 1024 * 1024;
  const ended = async (id: string, bytes: number, at: number) => {
    clock = at;
    const rec = await transcriptRecorder(dataDir, { now })({ ...start, sessionId: id }, QUOTA);
    rec?.output(Buffer.from('x'.repeat(bytes)));
    rec?.end('closed');
    await rec?.done;
  };
  const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];

  it('deletes the oldest ended transcripts to make room for a new one, and caps it at the room left', async () => {
    await ended(ids[0], 6 * MiB, Date.UTC(2026, 0, 1));
    await ended(ids[1], 6 * MiB, Date.UTC(2026, 0, 2));
    // 16 MiB in all, 12 used: a recorder wanting 8 MiB needs the oldest gone.
    const rec = await transcriptRecorder(dataDir, { now, cap: 8 * MiB })({ ...start, sessionId: ids[2] }, { ...QUOTA, transcriptQuotaMb: 16 });
    expect(fs.existsSync(castPath(dir, ids[0]))).toBe(false);
    expect(fs.existsSync(castPath(dir, ids[1]))).toBe(true);
    rec?.output(Buffer.from('y'.repeat(12 * MiB)));
    rec?.end('closed');
    await rec?.done;
    const total = [ids[1], ids[2]].reduce((n, id) => n + fs.statSync(castPath(dir, id)).size, 0);
    expect(total).toBeLessThanOrEqual(16 * MiB + 4096);
  });

  it('refuses a new terminal when open sessions hold all the room', async () => {
    const recorders = transcriptRecorder(dataDir, { now, cap: 16 * MiB });
    const first = await recorders({ ...start, sessionId: ids[0] }, { ...QUOTA, transcriptQuotaMb: 16 });
    await expect(recorders({ ...start, sessionId: ids[1] }, { ...QUOTA, transcriptQuotaMb: 16 })).rejects.toMatchObject({ code: 'invalid_state' });
    first?.end('closed');
    await first?.done;
    // Its room is given back when it ends (and, ended, it may be deleted for the next).
    const next = await recorders({ ...start, sessionId: ids[1] }, { ...QUOTA, transcriptQuotaMb: 16 });
    expect(next).not.toBeNull();
    next?.end('closed');
    await next?.done;
  });
});
