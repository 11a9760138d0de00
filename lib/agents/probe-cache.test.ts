import { describe, expect, it } from 'vitest';
import type { AgentProbe } from './probe';
import { AgentProbeCache } from './probe-cache';

const probe = (stamp: string, sandboxConfigId: string | null = null): AgentProbe => ({
  agentStamp: stamp,
  sandboxConfigId,
  defaultsStamp: 'd',
  targetDigest: null,
});

function setup() {
  let now = 1000;
  const cache = new AgentProbeCache({ ttlMs: 2000, now: () => now });
  let stamp = 'v1';
  let reads = 0;
  const read = async () => {
    reads++;
    return probe(stamp);
  };
  return {
    cache,
    get: () => cache.get('a', read),
    set: (s: string) => (stamp = s),
    advance: (ms: number) => (now += ms),
    reads: () => reads,
  };
}

describe('AgentProbeCache', () => {
  it('answers from memory within its lifetime, then reads again', async () => {
    const t = setup();
    expect((await t.get()).agentStamp).toBe('v1');
    t.set('v2');
    expect((await t.get()).agentStamp).toBe('v1');
    expect(t.reads()).toBe(1);
    t.advance(2000);
    expect((await t.get()).agentStamp).toBe('v2');
    expect(t.reads()).toBe(2);
  });

  it('a change heard from the database (any replica) drops the agent, or every agent for the defaults', async () => {
    const t = setup();
    await t.get();
    t.set('v2');
    t.cache.heard('other');
    expect((await t.get()).agentStamp).toBe('v1');
    t.cache.heard('a');
    expect((await t.get()).agentStamp).toBe('v2');
    t.set('v3');
    t.cache.heard(null);
    expect((await t.get()).agentStamp).toBe('v3');
  });

  it('a change this process publishes is in force at once and nothing of it is kept until its notice arrives', async () => {
    const t = setup();
    await t.get();
    t.set('v2');
    t.cache.published('a');
    expect((await t.get()).agentStamp).toBe('v2');
    t.set('v3');
    // Not kept while the notice is pending: the commit may not have happened yet.
    expect((await t.get()).agentStamp).toBe('v3');
    t.cache.heard('a');
    await t.get();
    t.set('v4');
    expect((await t.get()).agentStamp).toBe('v3');
  });

  it('never stores a probe read before a change', async () => {
    const t = setup();
    let release: (p: AgentProbe) => void = () => {};
    const slow = t.cache.get('a', () => new Promise<AgentProbe>((r) => (release = r)));
    t.cache.heard('a');
    release(probe('old'));
    expect((await slow).agentStamp).toBe('old');
    expect(t.cache.size).toBe(0);
  });

  it('keeps no probe of an agent bound to a sandbox config', async () => {
    const cache = new AgentProbeCache();
    await cache.get('s', async () => probe('v1', 'cfg'));
    expect(cache.size).toBe(0);
  });
});
