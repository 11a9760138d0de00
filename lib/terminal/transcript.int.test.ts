// Transcripts end to end on real parts: recording switched on in the settings, a shell in a Docker
// sandbox over /ws/terminal, an admin closing it, then the transcript routes (list, download, delete).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ops } from '@/lib/api/operations';
import type { Operation } from '@/lib/http/operation';
import { route } from '@/lib/http/route';
import { updateTerminalSettings } from '@/lib/settings';
import { describeDocker } from '@/test/helpers/docker';
import { ORIGIN, startTerminalHarness, TerminalClient, type TerminalHarness, type TerminalUser } from '@/test/helpers/terminal-harness';

async function call(op: Operation, user: TerminalUser, params: Record<string, string> = {}) {
  const c = op.contract;
  const path = c.path.replace(/\{(\w+)\}/g, (_, k: string) => params[k] ?? '');
  const req = new Request(`${ORIGIN}${path}`, { method: c.method, headers: { cookie: user.cookie, origin: ORIGIN, host: 'console.test' } });
  return route(op)(req, { params: Promise.resolve(params) });
}

describeDocker('terminal transcripts', () => {
  let h: TerminalHarness;
  beforeAll(async () => {
    h = await startTerminalHarness();
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('records a session while recording is on; admins list, download and delete it; lower roles are refused', async () => {
    await updateTerminalSettings(h.ts.services.database.db, h.users.owner.actor, { recordTranscripts: true });
    const t = await h.ticket(h.users.admin);
    expect(t.status).toBe(200);
    const c = await TerminalClient.connect(h.port, { ticket: t.json.ticket, sandbox: h.instanceId, cols: 90, rows: 25, cookie: h.users.admin.cookie });
    if (!(c instanceof TerminalClient)) throw new Error(`refused ${c.refused} ${c.body}`);
    await c.until(() => !!c.ready);
    const sessionId = c.ready!.sessionId;
    c.type('echo rec-""me\r');
    await c.waitFor(/rec-me/);

    // Still open: listed without an end, and it cannot be deleted yet.
    const open = await (await call(ops.listTerminalTranscripts, h.users.owner)).json();
    expect(open.items.find((x: { id: string }) => x.id === sessionId)).toMatchObject({ endedAt: null, sandboxId: h.instanceId });
    expect((await call(ops.deleteTerminalTranscript, h.users.owner, { id: sessionId })).status).toBe(409);

    expect((await call(ops.closeTerminalSession, h.users.owner, { id: sessionId })).status).toBe(200);
    await c.waitClosed();
    let item: { endedAt: string | null; reason: string | null; user: string; bytes: number } | undefined;
    for (let i = 0; i < 100 && !item?.endedAt; i++) {
      if (i) await new Promise((r) => setTimeout(r, 50));
      const list = await call(ops.listTerminalTranscripts, h.users.owner);
      expect(list.status).toBe(200);
      item = (await list.json()).items.find((x: { id: string }) => x.id === sessionId);
    }
    expect(item).toMatchObject({ user: h.users.admin.actor.label, reason: 'closed' });
    expect(item!.endedAt).not.toBeNull();

    const dl = await call(ops.downloadTerminalTranscript, h.users.owner, { id: sessionId });
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-type')).toBe('application/x-asciicast');
    expect(dl.headers.get('content-disposition')).toBe(`attachment; filename="terminal-${sessionId}.cast"`);
    const text = await dl.text();
    expect(Buffer.byteLength(text)).toBe(item!.bytes);
    const [header, ...events] = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(header).toMatchObject({ version: 2, width: 90, height: 25, env: { TERM: 'xterm-256color' } });
    const shown = events.filter((e) => (e as string[])[1] === 'o').map((e) => (e as string[])[2]);
    // What was typed is there only as the shell echoed it; input itself is never recorded.
    expect(events.some((e) => (e as string[])[1] === 'i')).toBe(false);
    expect(shown.join('')).toContain('echo rec-""me');
    expect(shown.join('')).toMatch(/rec-me\r?\n/);
    expect(events.at(-1)).toEqual([expect.any(Number), 'm', 'ended: closed']);

    const operator = await h.newUser('operator', 'transcript-operator@term.test');
    for (const who of [h.users.viewer, operator]) {
      expect((await call(ops.listTerminalTranscripts, who)).status).toBe(403);
      expect((await call(ops.downloadTerminalTranscript, who, { id: sessionId })).status).toBe(403);
      expect((await call(ops.deleteTerminalTranscript, who, { id: sessionId })).status).toBe(403);
    }
    expect((await call(ops.downloadTerminalTranscript, h.users.owner, { id: '..%2F..%2Fetc' })).status).toBe(400);

    expect((await call(ops.deleteTerminalTranscript, h.users.owner, { id: sessionId })).status).toBe(200);
    expect((await call(ops.downloadTerminalTranscript, h.users.owner, { id: sessionId })).status).toBe(404);
    const after = await (await call(ops.listTerminalTranscripts, h.users.owner)).json();
    expect(after.items.some((x: { id: string }) => x.id === sessionId)).toBe(false);
  });

  it('records nothing once recording is off again', async () => {
    await updateTerminalSettings(h.ts.services.database.db, h.users.owner.actor, { recordTranscripts: false });
    const t = await h.ticket(h.users.admin);
    const c = await TerminalClient.connect(h.port, { ticket: t.json.ticket, sandbox: h.instanceId, cols: 80, rows: 24, cookie: h.users.admin.cookie });
    if (!(c instanceof TerminalClient)) throw new Error(`refused ${c.refused} ${c.body}`);
    await c.until(() => !!c.ready);
    const sessionId = c.ready!.sessionId;
    c.type('echo quiet\r');
    await c.waitFor(/quiet\r?\n/);
    expect((await call(ops.closeTerminalSession, h.users.owner, { id: sessionId })).status).toBe(200);
    await c.waitClosed();
    const list = await (await call(ops.listTerminalTranscripts, h.users.owner)).json();
    expect(list.items.some((x: { id: string }) => x.id === sessionId)).toBe(false);
  });
});
