import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../core/errors';
import { castPath, metaPath } from './transcript';
import { listTranscripts, openTranscript, sweepTranscripts } from './transcript-store';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);
const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'transcripts-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A transcript last written `ageDays` before NOW. */
function put(
  id: string,
  ageDays: number,
  meta: object | null = { user: 'ada', userId: 'u1', sandboxId: 'c~s', startedAt: new Date(NOW - ageDays * DAY).toISOString() },
) {
  const at = new Date(NOW - ageDays * DAY);
  fs.writeFileSync(castPath(dir, id), '{"version":2}\n[0,"o","hi"]\n');
  fs.utimesSync(castPath(dir, id), at, at);
  if (meta) {
    fs.writeFileSync(metaPath(dir, id), JSON.stringify(meta));
    fs.utimesSync(metaPath(dir, id), at, at);
  }
}

const names = () => fs.readdirSync(dir).sort();

describe('sweepTranscripts', () => {
  it('removes transcripts (and their sidecars) last written before the retention days', async () => {
    put(ids[0], 31);
    put(ids[1], 29);
    expect(await sweepTranscripts(dir, 30, { now: NOW })).toBe(1);
    expect(names()).toEqual([`${ids[1]}.cast`, `${ids[1]}.json`]);
  });

  it('keeps an old transcript whose session is still open', async () => {
    put(ids[0], 40);
    expect(await sweepTranscripts(dir, 30, { now: NOW, isOpen: (id) => id === ids[0] })).toBe(0);
    expect(names()).toEqual([`${ids[0]}.cast`, `${ids[0]}.json`]);
  });

  it('counts by the clock it is given: the same files expire a day later', async () => {
    put(ids[0], 29.5);
    expect(await sweepTranscripts(dir, 30, { now: NOW })).toBe(0);
    expect(await sweepTranscripts(dir, 30, { now: NOW + DAY })).toBe(1);
  });

  it('removes old sidecars left without a transcript and old temp files, and leaves other names alone', async () => {
    const old = new Date(NOW - 90 * DAY);
    fs.writeFileSync(metaPath(dir, ids[2]), '{}');
    fs.writeFileSync(path.join(dir, '.tmp-x.json-abc'), '{}');
    fs.writeFileSync(path.join(dir, 'notes.cast'), 'not a session id');
    for (const n of [`${ids[2]}.json`, '.tmp-x.json-abc', 'notes.cast']) fs.utimesSync(path.join(dir, n), old, old);
    expect(await sweepTranscripts(dir, 30, { now: NOW })).toBe(0);
    expect(names()).toEqual(['notes.cast']);
  });

  it('finds nothing to do when no transcript was ever recorded', async () => {
    expect(await sweepTranscripts(path.join(dir, 'absent'), 30, { now: NOW })).toBe(0);
  });
});

describe('listTranscripts and openTranscript', () => {
  it('lists newest first with sizes, and a transcript without a sidecar still appears', async () => {
    put(ids[0], 3);
    put(ids[1], 1, {
      user: 'bob',
      userId: 'u2',
      sandboxId: 'c~t',
      startedAt: new Date(NOW - DAY).toISOString(),
      endedAt: new Date(NOW).toISOString(),
      reason: 'idle',
    });
    put(ids[2], 2, null);
    const list = await listTranscripts(dir);
    expect(list.map((t) => t.id).filter((id) => id !== ids[2])).toEqual([ids[1], ids[0]]);
    expect(list.find((t) => t.id === ids[1])).toMatchObject({ user: 'bob', reason: 'idle', bytes: fs.statSync(castPath(dir, ids[1])).size, truncated: false });
    expect(list.find((t) => t.id === ids[2])).toMatchObject({ user: 'unknown', endedAt: null, reason: null });
  });

  it('refuses an id that is not a UUID before building any path', async () => {
    const e = await openTranscript(dir, '../../etc/passwd').catch((x: unknown) => x);
    expect(isAppError(e) && e.code).toBe('validation');
  });

  it('answers not_found for an unknown id and for a symlink in the folder', async () => {
    fs.writeFileSync(path.join(dir, 'secret'), 'x');
    fs.symlinkSync(path.join(dir, 'secret'), castPath(dir, ids[1]));
    for (const id of [ids[0], ids[1]]) {
      const e = await openTranscript(dir, id).catch((x: unknown) => x);
      expect(isAppError(e) && e.code).toBe('not_found');
    }
  });

  it('streams the bytes of the file', async () => {
    put(ids[0], 0);
    const { stream } = await openTranscript(dir, ids[0]);
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('{"version":2}\n[0,"o","hi"]\n');
  });
});
