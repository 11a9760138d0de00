// test-phase: pglite only. What it proves happens in the engine; its database writes are the
// store operations other files run on both engines.
// Collection on a backend without an archive API: the E2B-protocol backend against the loopback
// E2B server (its sandboxes are real containers), read through its file API (list and read) only.
import Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sandboxArtifactFiles } from '@/db/schema';
import { systemActor } from '@/lib/auth/actor';
import { DbBlobStore } from '@/lib/cluster/blob-store';
import { describeDocker } from '@/test/helpers/docker';
import { type E2bServer, serverContainers, startE2bServer } from '@/test/helpers/e2b-server';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { E2bBackend } from '../e2b/backend';
import { collectOutput } from './collect';

describeDocker('artifacts kept from an E2B sandbox through its file API', () => {
  const docker = new Docker();
  let server: E2bServer;
  let backend: E2bBackend;
  let ts: TestServices;

  beforeAll(async () => {
    server = await startE2bServer({ docker, flavor: 'e2b' });
    backend = new E2bBackend(
      'e2b',
      { apiUrl: server.apiUrl, apiKey: server.apiKey, domain: server.baseDomain, proxyUrl: server.proxyUrl, template: 'skilldock-test' },
      { lookup: server.lookup },
    );
    ts = await startTestServices({ worker: false });
  }, 120_000);

  afterAll(async () => {
    await backend?.close();
    await server?.close();
    expect(await serverContainers(docker, server)).toEqual([]);
    await ts?.stop();
  });

  it('keeps regular files with their bytes, skips the symlink, and applies the caps', async () => {
    const sb = await backend.create({ image: 'skilldock-test', labels: { 'skilldock.principal': 'agent:a1' } });
    const made = await backend.exec(sb.id, {
      argv: [
        'sh',
        '-c',
        'mkdir -p /workspace/output/deep && printf one > /workspace/output/one.txt && printf two > /workspace/output/deep/two.txt && head -c 3000 /dev/zero > /workspace/output/big.bin && ln -s /etc/passwd /workspace/output/pw',
      ],
      timeoutMs: 20_000,
      maxOutputBytes: 4096,
    });
    expect(made.exitCode).toBe(0);
    const db = ts.services.database.db;
    const r = await collectOutput(
      { db, artifactLimits: { maxBytes: 2000 } },
      { row: { id: 'cfg-e2b', name: 'e2b-config', backend: 'e2b' }, backend, sandbox: sb },
      { trigger: 'remove', actor: systemActor },
    );
    expect(r).toMatchObject({ status: 'partial', fileCount: 2, totalBytes: 6 });
    expect(r.note).toMatch(/1 symbolic link\(s\), not followed/);
    expect(r.note).toMatch(/1 file\(s\) larger than the whole collection cap/);
    const files = await db.select().from(sandboxArtifactFiles).where(eq(sandboxArtifactFiles.collectionId, r.id!));
    const blobs = new DbBlobStore(db);
    const got: Record<string, string> = {};
    for (const f of files) {
      const chunks: Buffer[] = [];
      for await (const c of await blobs.get(f.sha256)) chunks.push(c as Buffer);
      got[f.path] = Buffer.concat(chunks).toString();
    }
    expect(got).toEqual({ 'one.txt': 'one', 'deep/two.txt': 'two' });
    await backend.remove(sb.id);
  }, 120_000);
});
