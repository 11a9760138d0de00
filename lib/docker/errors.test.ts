import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeEngineProblem, engineUnavailable } from './errors';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-engine-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`connect ${code}`), { code });
}

describe('describeEngineProblem', () => {
  it('names the socket group id to add on a permission error', async () => {
    const sock = path.join(tmp, 'docker.sock');
    const server = net.createServer().listen(sock);
    await new Promise((r) => server.once('listening', r));
    try {
      const gid = fs.statSync(sock).gid;
      const p = describeEngineProblem(errno('EACCES'), `unix://${sock}`);
      expect(p.reason).toMatch(/permission denied/);
      expect(p.hint).toContain(`group id ${gid}`);
      expect(p.hint).toContain(`group_add: ["${gid}"]`);
    } finally {
      server.close();
    }
  });

  it('tells a stopped daemon from a missing socket and keeps other messages', () => {
    expect(describeEngineProblem(errno('ENOENT'), 'unix:///nope.sock').reason).toMatch(/no Docker socket/);
    expect(describeEngineProblem(errno('ECONNREFUSED'), 'tcp://127.0.0.1:1').hint).toMatch(/start the engine/);
    expect(describeEngineProblem(new Error('self-signed certificate in chain'), 'tcp://h:2376').hint).toMatch(/ca\.pem/);
    const e = engineUnavailable(errno('ECONNREFUSED'), 'unix:///x.sock');
    expect(e).toMatchObject({ code: 'unavailable', status: 503, details: { endpoint: 'unix:///x.sock' } });
  });
});
