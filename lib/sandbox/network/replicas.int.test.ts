// Two full Services on one PostgreSQL and one engine, as two replicas: one holds the engine's
// network enforcement; a sandbox started and a policy applied through the other go through it.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sandboxConfigs } from '@/db/schema';
import { loadConfig } from '@/lib/core/config';
import { enforcementProblem } from '@/lib/network/docker/enforcer';
import { listBridgeNetworks, removeBridgeNetwork } from '@/lib/network/docker/networks';
import { deleteTable, readTable } from '@/lib/network/docker/nft';
import { setElements } from '@/lib/network/docker/nft-json';
import { type NetworkPolicy, OPEN_POLICY } from '@/lib/network/policy/types';
import { validatePolicy } from '@/lib/network/policy/validate';
import { CONFIG_LABEL } from '@/lib/sandbox/config/in-use';
import { loadRow } from '@/lib/sandbox/config/store';
import { dockerConnection } from '@/lib/sandbox/docker/connection';
import { backendFor } from '@/lib/sandbox/instances/service';
import { type Services, startServices, stopServices } from '@/lib/services';
import { dbKind } from '@/test/helpers/db';
import { describeDocker, dockerHost } from '@/test/helpers/docker';
import { ensureBusyboxImage } from '@/test/helpers/sandbox-images';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { applyToRunning, updateFirewall } from './apply';
import { networkCheckProbes } from './check-probe';
import { enforcementHolder } from './enforcement';

describeDocker('two replicas sharing one engine’s network enforcement', () => {
  const table = `skilldock_t${randomBytes(5).toString('hex')}`;
  const configId = `cfg${randomBytes(4).toString('hex')}`;
  const engine = dockerConnection({ host: dockerHost });
  let problem: string | null = process.getuid?.() !== 0 ? 'not root' : dbKind !== 'postgres' ? 'two replicas need PostgreSQL' : null;
  let first: TestServices;
  let second: Services;
  let secondDir = '';
  let holder: Services;
  let other: Services;
  let sandboxId = '';
  let image = '';

  const policy = (p: Partial<NetworkPolicy>): NetworkPolicy => {
    const r = validatePolicy('docker', { ...OPEN_POLICY, ...p });
    if (!r.policy) throw new Error(`test policy invalid: ${JSON.stringify(r.issues)}`);
    return r.policy;
  };

  beforeAll(async () => {
    problem ??= await enforcementProblem();
    if (problem) return;
    image = await ensureBusyboxImage(engine.api);
    const env = {
      ...(dockerHost ? { DOCKER_HOST: dockerHost } : {}),
      SKILLDOCK_NFT_TABLE: table,
      SKILLDOCK_EGRESS_PROXY_PORT: String(30000 + (randomBytes(2).readUInt16BE(0) % 20000)),
    };
    first = await startTestServices({ worker: false, env });
    secondDir = await mkdtemp(path.join(os.tmpdir(), 'skilldock-int-'));
    second = await startServices({
      config: loadConfig({
        SKILLDOCK_DATA_DIR: secondDir,
        DATABASE_URL: first.databaseUrl,
        LOG_LEVEL: 'warn',
        SKILLDOCK_DNS_UPSTREAMS: '127.0.0.1:9',
        ...env,
      }),
      worker: false,
    });
    await first.services.database.db.insert(sandboxConfigs).values({
      id: configId,
      name: configId,
      backend: 'docker',
      config: { host: dockerHost ?? '', templateId: image, networkMode: 'bridge' },
      networkPolicy: policy({ denyEgressByDefault: true }) as unknown as Record<string, unknown>,
      createdBy: 'test',
      updatedBy: 'test',
    });
  }, 120_000);

  afterAll(async () => {
    if (sandboxId)
      await engine.api
        .getContainer(sandboxId)
        .remove({ force: true })
        .catch(() => undefined);
    if (second) await stopServices(second);
    if (secondDir) await rm(secondDir, { recursive: true, force: true });
    if (first) await first.stop();
    if (!problem) {
      for (const n of await listBridgeNetworks(engine.api, table)) await removeBridgeNetwork(engine.api, n.name);
      await deleteTable(table);
    }
  });

  it('one replica holds it; a sandbox starts, passes the network probe and gets a tightened policy through the other', async (ctx) => {
    if (problem) return ctx.skip(problem);
    const both = [first.services, second];
    const held = both.filter((s) => s.network.owner?.held);
    expect(both.map((s) => s.network.problem)).toEqual([null, null]);
    expect(held).toHaveLength(1);
    holder = held[0]!;
    other = both.find((s) => s !== holder)!;
    expect(other.network.control).not.toBeNull();

    const row = await loadRow(other.database.db, configId);
    const backend = backendFor(other.sandboxes, row);
    const sb = await backend.create({ image, labels: { [CONFIG_LABEL]: configId }, network: 'bridge', networkPolicy: policy({ denyEgressByDefault: true }) });
    sandboxId = sb.id;
    expect(holder.network.enforcer?.networks().map((n) => n.configId)).toEqual([configId]);
    expect(other.network.enforcer?.networks()).toEqual([]);
    const [probe] = networkCheckProbes(other.network);
    expect(await probe!.run(backend, (await backend.get(sandboxId))!)).toMatchObject({ status: 'pass' });

    const tightened = policy({ denyEgressByDefault: true, denyOut: ['10.98.0.0/16'] });
    await other.database.db
      .update(sandboxConfigs)
      .set({ networkPolicy: tightened as unknown as Record<string, unknown>, updatedAt: new Date() })
      .where(eq(sandboxConfigs.id, configId));
    const saved = await loadRow(other.database.db, configId);
    const reached = await applyToRunning(other.sandboxes, saved, await updateFirewall(other.sandboxes, saved));
    expect(reached).toEqual([expect.objectContaining({ status: 'updated' })]);
    const key = holder.network.enforcer!.networks()[0]!.key;
    expect(setElements(await readTable(table), `d4_${key}`)).toContain('10.98.0.0/16');

    const view = enforcementHolder(other.network) ?? '';
    expect(view).toContain(`Held by replica ${holder.replica.id}`);
  });
});
