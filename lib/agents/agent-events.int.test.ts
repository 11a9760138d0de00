// The agent event stream over real HTTP on a real catalog and database: the first version at once
// (equal to the skills list's ETag), one event per change of the effective skills, resume with
// Last-Event-ID (nothing repeated when it is current), the agent-scoped token rule, 404 for a
// missing agent, and an error event that ends the stream when the agent is deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '@/lib/auth/tokens';
import { type SseEvent, SseParser } from '@/lib/gateways/folder/sync-events';
import { type AgentsSetup, startAgentsSetup } from '@/test/helpers/agents-setup';
import { apiUser } from '@/test/helpers/api';
import { type GatewayHttp, startGatewayHttp } from '@/test/helpers/gateway-http';

let t: AgentsSetup;
let gw: GatewayHttp;
let scoped: string;

beforeAll(async () => {
  t = await startAgentsSetup('agent-events');
  for (const n of ['alpha', 'beta', 'gamma']) t.write(n, `The ${n} skill.`);
  await t.refresh();
  expect((await t.api.create({ id: 'ev', name: 'Events', skills: ['alpha'] })).status).toBe(201);
  expect((await t.api.create({ id: 'other', name: 'Other', skills: ['beta'] })).status).toBe(201);
  const { actor } = await apiUser(t.ts.services, { email: 'events-admin@example.com', role: 'admin', tokenName: 'x', permissions: ['agents.read'] });
  scoped = (await createToken(t.ts.services.database.db, actor, { name: 'ev only', permissions: ['agents.read'], expiresInDays: 1, agentIds: ['ev'] })).token;
  gw = await startGatewayHttp();
}, 120_000);
afterAll(async () => {
  await gw?.close();
  await t?.stop();
});

/** An open stream: its events as they come, and a way to wait for the next one. */
async function open(id: string, token: string, lastEventId?: string) {
  const ac = new AbortController();
  const res = await fetch(`${gw.url}/api/v1/agents/${id}/events`, {
    headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: ac.signal,
  });
  const events: SseEvent[] = [];
  let ended = false;
  const waiters: (() => void)[] = [];
  if (res.ok && res.body) {
    const parser = new SseParser();
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          events.push(...parser.push(dec.decode(value, { stream: true })));
          for (const w of waiters.splice(0)) w();
        }
      } catch {
        /* aborted */
      }
      ended = true;
      for (const w of waiters.splice(0)) w();
    })();
  }
  return {
    res,
    events,
    ended: () => ended,
    async next(count: number): Promise<SseEvent> {
      while (events.length < count && !ended) await new Promise<void>((r) => waiters.push(r));
      const e = events[count - 1];
      if (!e) throw new Error(`the stream ended after ${events.length} events`);
      return e;
    },
    close: () => ac.abort(),
  };
}

const versionOf = (e: SseEvent) => (JSON.parse(e.data) as { version: string }).version;
async function etag(id: string): Promise<string> {
  const r = await t.api.skills(id);
  return (r.headers.get('etag') as string).replaceAll('"', '');
}
async function setSkills(id: string, skills: string[]) {
  const cur = await t.api.get(id);
  const r = await t.api.patch(id, { revision: cur.body.revision, skills });
  expect(r.status).toBe(200);
}

describe('GET /api/v1/agents/{id}/events', () => {
  it('sends the current version at once, then one event per change, each equal to the ETag', async () => {
    const s = await open('ev', scoped);
    expect(s.res.status).toBe(200);
    expect(s.res.headers.get('content-type')).toContain('text/event-stream');
    const first = await s.next(1);
    expect(first.event).toBe('version');
    expect(JSON.parse(first.data)).toEqual({ agentId: 'ev', version: await etag('ev') });
    expect(first.id).toBe(versionOf(first));

    await setSkills('ev', ['alpha', 'beta']);
    const second = await s.next(2);
    expect(versionOf(second)).not.toBe(versionOf(first));
    expect(versionOf(second)).toBe(await etag('ev'));
    // Another agent's change is not this stream's event: the next one is ev's own.
    await setSkills('other', ['gamma']);
    await setSkills('ev', ['beta']);
    const third = await s.next(3);
    expect(versionOf(third)).toBe(await etag('ev'));
    s.close();
  });

  it('resumes with Last-Event-ID: the current version is not sent again, an older one is', async () => {
    const current = await etag('ev');
    const same = await open('ev', scoped, current);
    const stale = await open('ev', scoped, 'some-older-version');
    expect(versionOf(await stale.next(1))).toBe(current);
    await setSkills('ev', ['alpha', 'gamma']);
    // The first event of the resumed stream is the change, not a repeat of what it already had.
    const e = await same.next(1);
    expect(versionOf(e)).not.toBe(current);
    expect(versionOf(e)).toBe(await etag('ev'));
    same.close();
    stale.close();
  });

  it("refuses another agent's stream to a scoped token, and a missing agent with 404", async () => {
    const other = await open('other', scoped);
    expect(other.res.status).toBe(403);
    const missing = await open('nope', t.adminToken);
    expect(missing.res.status).toBe(404);
  });

  it('ends with an error event when the agent is deleted', async () => {
    expect((await t.api.create({ id: 'gone', name: 'Gone', skills: ['alpha'] })).status).toBe(201);
    const s = await open('gone', t.adminToken);
    await s.next(1);
    expect((await t.api.remove('gone')).status).toBe(200);
    const e = await s.next(2);
    expect(e.event).toBe('error');
    expect(JSON.parse(e.data).code).toBe('not_found');
    await new Promise<void>((r) => {
      const tick = () => (s.ended() ? r() : setTimeout(tick, 20));
      tick();
    });
    expect(s.ended()).toBe(true);
  });
});
