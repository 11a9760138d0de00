// Shared parts of the skill install job tests: a test service with configs on the offline busybox
// image, skills stored as an import stores them, jobs queued and awaited, and the cleanup of every
// container and image a config left on the engine.
import fsp from 'node:fs/promises';
import path from 'node:path';
import Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { jobs, sandboxConfigs } from '@/db/schema';
import { type Actor, systemActor } from '@/lib/auth/actor';
import { ALL_PERMISSIONS } from '@/lib/auth/permissions';
import { newId } from '@/lib/core/ids';
import * as store from '@/lib/installs/records/store';
import { getJob } from '@/lib/jobs/queue';
import type { JobContext, JobRow } from '@/lib/jobs/types';
import type { NetworkPolicyInput } from '@/lib/network/policy/schema';
import { createConfig } from '@/lib/sandbox/config/store';
import { MAINTENANCE_LABEL } from '@/lib/sandbox/images/snapshot-names';
import { execInInstance, startInstance } from '@/lib/sandbox/instances/service';
import { managedStore } from '@/lib/skills/service/roots';
import { createStagingDir } from '@/lib/skills/store';
import type { E2bServer } from './e2b-server';
import { ensureBusyboxImage } from './sandbox-images';
import { startTestServices, type TestServices, waitFor } from './services';

export const installActor: Actor = { ...systemActor, kind: 'user', label: 'install-job-test', permissions: new Set(ALL_PERMISSIONS) };

export function skillMd(name: string, bins: string[]): string {
  return `---\nname: ${name}\ndescription: A test skill for the install jobs.\nmetadata: { "openclaw": { "requires": { "bins": ${JSON.stringify(bins)} } } }\n---\n\n# ${name}\n\nRun its script.\n`;
}

/** A skill whose script prints `<name> says <arg>`. */
export const echoSkill = (name: string, bins = ['sh']) => ({
  'SKILL.md': skillMd(name, bins),
  'run.sh': `#!/bin/sh\necho "${name} says $1"\n`,
});

/** What an E2B config needs of the loopback server. */
export type E2bEndpoint = Pick<E2bServer, 'apiUrl' | 'proxyUrl' | 'baseDomain' | 'apiKey'>;

export interface InstallKit {
  ts: TestServices;
  docker: Docker;
  image: string;
  /** A config on the busybox image, or on `opts.image`, with `opts.network` as its network policy. */
  newConfig(name: string, opts?: { image?: string; network?: NetworkPolicyInput }): Promise<string>;
  /** An enabled E2B config on a loopback E2B server (test/helpers/e2b-server.ts) and its template. */
  newE2bConfig(name: string, server: E2bEndpoint, templateId?: string): Promise<string>;
  storeSkill(slug: string, files: Record<string, string>): Promise<store.CatalogSkill>;
  begin(configId: string, skill: store.CatalogSkill): Promise<store.InstallRecord>;
  waitJob(id: string): Promise<JobRow>;
  /** The skill folders a fresh sandbox of the config has. */
  skillsInSandbox(configId: string): Promise<string[]>;
  runIn(configId: string, argv: string[]): Promise<{ exitCode: number; stdout: string }>;
  maintenanceLeft(configId: string): Promise<unknown[]>;
  /**
   * A job context run by hand (no worker), aborted through the returned controller. Its job row is
   * real (records point at it) but queued an hour ahead, so the worker never takes it.
   */
  handCtx<P>(params: P, onLog?: (line: string) => void): Promise<{ ctx: JobContext<P>; lines: string[]; controller: AbortController }>;
  stop(): Promise<void>;
}

export async function startInstallKit(): Promise<InstallKit> {
  const docker = new Docker();
  const image = await ensureBusyboxImage(docker);
  const ts = await startTestServices({ worker: true });
  const configs: string[] = [];
  const db = ts.services.database.db;
  const kit: InstallKit = {
    ts,
    docker,
    image,
    async newConfig(name, opts = {}) {
      const s = ts.services;
      const deps = { db, secrets: s.secrets, usage: s.sandboxUsage, validate: { tlsRoots: [], workspaceRoots: [] } };
      const cfg = await createConfig(deps, installActor, {
        name,
        backend: 'docker',
        description: '',
        config: { image: opts.image ?? image, host: process.env.DOCKER_HOST ?? '', memoryLimitMb: 128, pidsLimit: 100, cpuLimit: 0.5 },
        ...(opts.network ? { network: opts.network } : {}),
      } as never);
      await db.update(sandboxConfigs).set({ enabled: true }).where(eq(sandboxConfigs.id, cfg.id));
      configs.push(cfg.id);
      return cfg.id;
    },
    async newE2bConfig(name, server, templateId = 'skilldock-test') {
      const s = ts.services;
      const deps = { db, secrets: s.secrets, usage: s.sandboxUsage, validate: { tlsRoots: [], workspaceRoots: [] } };
      const cfg = await createConfig(deps, installActor, {
        name,
        backend: 'e2b',
        description: '',
        config: { apiUrl: server.apiUrl, proxyUrl: server.proxyUrl, domain: server.baseDomain, apiKey: server.apiKey, templateId, allowPrivateEndpoints: true },
      } as never);
      await db.update(sandboxConfigs).set({ enabled: true }).where(eq(sandboxConfigs.id, cfg.id));
      return cfg.id;
    },
    async storeSkill(slug, files) {
      const st = managedStore(ts.dataDir);
      const dir = await createStagingDir(st);
      for (const [rel, text] of Object.entries(files)) {
        await fsp.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
        await fsp.writeFile(path.join(dir, rel), text, { mode: rel.endsWith('.sh') ? 0o755 : 0o644 });
      }
      const v = await ts.services.skillStore.install({ slug, stagedDir: dir, force: true });
      return { key: slug, name: slug, version: v.version, contentHash: v.contentHash };
    },
    async begin(configId, skill) {
      const begun = await store.beginInstall(db, installActor, { configId, skill });
      if (begun.noop) throw new Error(`${skill.key} is already installed`);
      return begun.install;
    },
    waitJob: (id) =>
      waitFor(
        async () => {
          const j = await getJob(ts.services.database, id);
          return j.state === 'succeeded' || j.state === 'failed' || j.state === 'canceled' ? j : null;
        },
        `job ${id}`,
        180_000,
      ),
    async skillsInSandbox(configId) {
      const r = await kit.runIn(configId, ['ls', '/opt/skilldock/skills']);
      return r.stdout.split('\n').filter(Boolean).sort();
    },
    async runIn(configId, argv) {
      const inst = await startInstance(ts.services.sandboxes, installActor, configId);
      return execInInstance(ts.services.sandboxes, installActor, inst.id, { argv });
    },
    async maintenanceLeft(configId) {
      const all = await docker.listContainers({ all: true, filters: { label: [MAINTENANCE_LABEL, `io.skilldock.config-id=${configId}`] } });
      return all.filter((c) => c.Labels[MAINTENANCE_LABEL]);
    },
    async handCtx<P>(params: P, onLog?: (line: string) => void) {
      const controller = new AbortController();
      const lines: string[] = [];
      const [row] = await db
        .insert(jobs)
        .values({
          id: newId(),
          kind: 'skill.install',
          title: 'install run by hand',
          params: params as Record<string, unknown>,
          runAfter: new Date(Date.now() + 3_600_000),
          createdByLabel: installActor.label,
        })
        .returning();
      const ctx: JobContext<P> = {
        job: row as JobRow,
        params,
        signal: controller.signal,
        database: ts.services.database,
        log: (line) => {
          lines.push(line);
          onLog?.(line);
        },
        progress: () => {},
        run: () => Promise.reject(new Error('not used')),
        critical: (fn) => fn(),
      };
      return { ctx, lines, controller };
    },
    async stop() {
      for (const cfg of configs) {
        for (const c of await docker.listContainers({ all: true, filters: { label: [`io.skilldock.config-id=${cfg}`] } }))
          await docker
            .getContainer(c.Id)
            .remove({ force: true, v: true })
            .catch(() => {});
        // A generation's parent only goes after its children: a few passes.
        for (let pass = 0; pass < 4; pass++) {
          const images = await docker.listImages({ all: true, filters: { label: [`io.skilldock.config-id=${cfg}`] } });
          if (!images.length) break;
          for (const img of images)
            await docker
              .getImage(img.Id)
              .remove({ force: true })
              .catch(() => {});
        }
      }
      await ts.stop();
    },
  };
  return kit;
}
