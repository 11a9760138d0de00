import { describe, expect, it } from 'vitest';
import { SharedReads } from './shared-read';

/** A read whose answers the test releases one by one; each answer is the number of reads started before it. */
function controlled() {
  const pending: { key: string; n: number; release: () => void; fail: (e: Error) => void }[] = [];
  let started = 0;
  const reads = new SharedReads<string>(
    (key) =>
      new Promise<string>((resolve, reject) => {
        const n = ++started;
        pending.push({ key, n, release: () => resolve(`${key}#${n}`), fail: reject });
      }),
  );
  return { reads, pending, started: () => started };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('SharedReads', () => {
  it('a caller arriving during a read waits for the next read, shared with everyone who arrived meanwhile', async () => {
    const { reads, pending, started } = controlled();
    const a = reads.get('k');
    const b = reads.get('k');
    const c = reads.get('k');
    expect(started()).toBe(1);
    pending[0].release();
    expect(await a).toBe('k#1');
    await tick();
    expect(started()).toBe(2);
    const d = reads.get('k'); // arrives during read 2: joins read 3
    pending[1].release();
    expect(await b).toBe('k#2');
    expect(await c).toBe('k#2');
    await tick();
    expect(started()).toBe(3);
    pending[2].release();
    expect(await d).toBe('k#3');
    await tick();
    expect(reads.running).toBe(0);
  });

  it('keys do not wait for each other', async () => {
    const { reads, pending, started } = controlled();
    const a = reads.get('a');
    const b = reads.get('b');
    expect(started()).toBe(2);
    pending[1].release();
    expect(await b).toBe('b#2');
    pending[0].release();
    expect(await a).toBe('a#1');
  });

  it('a failed read fails its callers only; the queued read still runs', async () => {
    const { reads, pending } = controlled();
    const a = reads.get('k');
    const b = reads.get('k');
    pending[0].fail(new Error('gone'));
    await expect(a).rejects.toThrow('gone');
    await tick();
    pending[1].release();
    expect(await b).toBe('k#2');
    await tick();
    expect(reads.running).toBe(0);
    const c = reads.get('k');
    pending[2].release();
    expect(await c).toBe('k#3');
  });
});
