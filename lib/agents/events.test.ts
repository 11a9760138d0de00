import { describe, expect, it } from 'vitest';
import { AppError, hasCode } from '../core/errors';
import { lastEventIdOf, openAgentEvents, openAgentStreams } from './events';
import { AgentVersionWatcher } from './events-watcher';

/** A watcher over a version the test sets; `gone` makes reads answer not_found. */
function fake(intervalMs = 5) {
  const state = { version: 'v1', gone: false, reads: 0 };
  const watcher = new AgentVersionWatcher(async () => {
    state.reads++;
    if (state.gone) throw new AppError('not_found', 'Agent "a" was not found.');
    return state.version;
  }, intervalMs);
  return { state, watcher };
}

async function reader(stream: ReadableStream<Uint8Array>) {
  const r = stream.getReader();
  const dec = new TextDecoder();
  let text = '';
  return {
    /** Reads until `pred` holds for all text read so far. */
    async until(pred: (text: string) => boolean): Promise<string> {
      while (!pred(text)) {
        const { done, value } = await r.read();
        if (done) break;
        text += dec.decode(value, { stream: true });
      }
      return text;
    },
    cancel: () => r.cancel(),
  };
}

const count = (text: string, s: string) => text.split(s).length - 1;

describe('agent event streams', () => {
  it('sends the version at once, each change once, and nothing for an unchanged version', async () => {
    const { state, watcher } = fake();
    const ac = new AbortController();
    const r = await reader(openAgentEvents(watcher, 'a', null, ac.signal));
    let text = await r.until((t) => t.includes('id: v1'));
    expect(text).toContain('retry: 2000');
    expect(text).toContain('event: version\ndata: {"agentId":"a","version":"v1"}');
    const readsBefore = state.reads;
    state.version = 'v2';
    text = await r.until((t) => t.includes('id: v2'));
    expect(state.reads).toBeGreaterThan(readsBefore);
    expect(count(text, 'id: v1')).toBe(1);
    ac.abort();
    expect(watcher.followed().size).toBe(0);
  });

  it('sends nothing at first when Last-Event-ID is current, and the next change when it comes', async () => {
    const { state, watcher } = fake();
    const ac = new AbortController();
    const r = await reader(openAgentEvents(watcher, 'a', 'v1', ac.signal));
    // Let the watcher check a few times with v1 current, then change it.
    while (state.reads < 3) await new Promise((res) => setTimeout(res, 5));
    state.version = 'v2';
    const text = await r.until((t) => t.includes('id: v2'));
    expect(text).not.toContain('id: v1');
    ac.abort();
  });

  it('shares one watcher per agent: two streams, one read per tick', async () => {
    const { state, watcher } = fake(1000);
    const a = new AbortController();
    const b = new AbortController();
    const ra = await reader(openAgentEvents(watcher, 'a', null, a.signal));
    const rb = await reader(openAgentEvents(watcher, 'a', null, b.signal));
    await ra.until((t) => t.includes('id: v1'));
    await rb.until((t) => t.includes('id: v1'));
    expect(watcher.followed().get('a')).toBe(2);
    // Each subscribe checked once; the 1 s interval has not passed.
    expect(state.reads).toBeLessThanOrEqual(2);
    a.abort();
    expect(watcher.followed().get('a')).toBe(1);
    b.abort();
    expect(watcher.followed().size).toBe(0);
  });

  it('ends with an error event when the agent is gone', async () => {
    const { state, watcher } = fake();
    const r = await reader(openAgentEvents(watcher, 'a', null, new AbortController().signal));
    await r.until((t) => t.includes('id: v1'));
    state.gone = true;
    const text = await r.until(() => false);
    expect(text).toContain('event: error\ndata: {"code":"not_found"');
    expect(watcher.followed().size).toBe(0);
  });

  it('sends heartbeat comments', async () => {
    const { watcher } = fake(1000);
    const ac = new AbortController();
    const r = await reader(openAgentEvents(watcher, 'a', null, ac.signal, { heartbeatMs: 10 }));
    expect(await r.until((t) => t.includes(': ping'))).toMatch(/^: ping \d+$/m);
    ac.abort();
  });

  it('bounds the streams one owner holds open, and frees a place when one closes', async () => {
    const { watcher } = fake(1000);
    const opts = { owner: 'token:t1', maxPerOwner: 2 };
    const a = new AbortController();
    openAgentEvents(watcher, 'a', null, a.signal, opts);
    openAgentEvents(watcher, 'b', null, new AbortController().signal, opts);
    let refused: unknown;
    try {
      openAgentEvents(watcher, 'c', null, new AbortController().signal, opts);
    } catch (e) {
      refused = e;
    }
    expect(hasCode(refused, 'rate_limited')).toBe(true);
    expect(openAgentStreams(watcher, 'token:t1')).toBe(2);
    a.abort();
    expect(openAgentStreams(watcher, 'token:t1')).toBe(1);
    openAgentEvents(watcher, 'c', null, new AbortController().signal, opts);
    expect(openAgentStreams(watcher, 'token:t1')).toBe(2);
  });

  it('reads Last-Event-ID from the header or the query, ignoring an overlong one', () => {
    expect(lastEventIdOf(new Request('http://x/e', { headers: { 'last-event-id': 'v9' } }))).toBe('v9');
    expect(lastEventIdOf(new Request('http://x/e?lastEventId=v8'))).toBe('v8');
    expect(lastEventIdOf(new Request('http://x/e', { headers: { 'last-event-id': 'x'.repeat(201) } }))).toBeNull();
  });
});
