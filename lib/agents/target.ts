// Where an agent's skills run, as its effective skills need it: the host (the catalog's own gating,
// the skill's folder), or its sandbox config (the install records of that config, and gating inside
// the config's image for Docker). A config is loaded once per computation whatever the number of
// agents or skills: one install query, one gating pass over the installed skills (its image probe
// is cached per image id by image-gating).
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxConfigs } from '@/db/schema';
import type { ServedVersion } from '@/db/schema/installs';
import { type AgentEnvNames, type GateInConfigDeps, gateSkillsInConfig } from '../installs/gating/image-gating';
import { servedVersion } from '../installs/records/states';
import { type InstallRecord, listInstalls } from '../installs/records/store';
import { SKILLS_ROOT } from '../sandbox/images/snapshot-names';
import { readContainedFile } from '../skills/contained-read';
import { parseSkillMd } from '../skills/manifest';
import type { CatalogSkill, CatalogSnapshot } from '../skills/service/catalog';
import { managedStore } from '../skills/service/roots';
import { validateSlug, validateVersion, versionDir } from '../skills/store/manifest';
import type { GateStep, SkillManifest } from '../skills/types';
import { agentEnvKey } from './agent-env';

export interface HostTarget {
  kind: 'host';
  label: string;
  /** Home-directory prefix shown as `~/` in the prompt. */
  home: string | null;
}

export interface SkillGate {
  eligible: boolean;
  trace: GateStep[];
}

export interface SandboxTarget {
  kind: 'sandbox';
  configId: string;
  configName: string;
  backend: string;
  /** By skill key. */
  installs: ReadonlyMap<string, InstallRecord>;
  /** By skill key: the manifest of the version the sandbox serves, where it is not the catalog's current one. */
  manifests: ReadonlyMap<string, SkillManifest>;
  /** Gating in the image, by skill name; null when it was not checked (see gatingNote). */
  gating: ReadonlyMap<string, SkillGate> | null;
  /** Why gating was not checked: a backend without image gating, or the engine's error. */
  gatingNote: { unsupported: boolean; message: string } | null;
  /**
   * In a sandbox no path is under a home folder worth shortening: skills live under SKILLS_ROOT,
   * so the prompt shows absolute locations.
   */
  home: null;
}

export type AgentTarget = HostTarget | SandboxTarget;

export interface TargetDeps {
  db: AppDb;
  /** The sandbox backends' dependencies, for gating inside an image. */
  gate: GateInConfigDeps;
  /** The host's home folder (os.homedir()). */
  home: string | null;
  /** The data dir holding the managed skill store (the versions installs serve). */
  dataDir: string;
}

/** Where an installed skill sits in a sandbox of the config. */
export const sandboxSkillDir = (install: InstallRecord) => `${SKILLS_ROOT}/${install.skillName}`;

/** The install a sandbox serves for a catalog skill with the version it serves (during an update, the previous one), or null. */
export function servedInstall(t: SandboxTarget, skill: CatalogSkill): (InstallRecord & { served: ServedVersion }) | null {
  const r = t.installs.get(skill.skillKey);
  const served = r ? servedVersion(r) : null;
  return r && served ? { ...r, served } : null;
}

/** The SKILL.md of every served version that differs from the catalog's copy, read from the managed store. */
async function servedManifests(deps: TargetDeps, snapshot: CatalogSnapshot, installs: ReadonlyMap<string, InstallRecord>): Promise<Map<string, SkillManifest>> {
  const out = new Map<string, SkillManifest>();
  const storeDir = path.resolve(managedStore(deps.dataDir).storeDir);
  for (const s of snapshot.skills) {
    const r = installs.get(s.skillKey);
    const served = r ? servedVersion(r) : null;
    if (!served || served.contentHash === s.copy.contentHash || out.has(s.skillKey)) continue;
    try {
      const dir = versionDir(storeDir, validateSlug(s.skillKey), validateVersion(served.version));
      const text = (await readContainedFile(dir, 'SKILL.md', 1024 * 1024)).toString('utf8');
      out.set(s.skillKey, parseSkillMd(text, { dirName: s.name, metadataKeys: snapshot.metadataKeys }).manifest);
    } catch {
      // The stored version is gone (removed by hand): the catalog's manifest stands in.
    }
  }
  return out;
}

async function loadSandbox(deps: TargetDeps, configId: string, snapshot: CatalogSnapshot, agentEnv: AgentEnvNames | null): Promise<SandboxTarget> {
  const [row] = await deps.db
    .select({ id: sandboxConfigs.id, name: sandboxConfigs.name, backend: sandboxConfigs.backend })
    .from(sandboxConfigs)
    .where(eq(sandboxConfigs.id, configId));
  const base = { kind: 'sandbox' as const, configId, configName: row?.name ?? configId, backend: row?.backend ?? 'unknown', home: null };
  if (!row)
    return {
      ...base,
      installs: new Map(),
      manifests: new Map(),
      gating: null,
      gatingNote: { unsupported: false, message: `sandbox config ${configId} no longer exists` },
    };
  const installs = new Map((await listInstalls(deps.db, { configId })).map((r) => [r.skillKey, r]));
  if (row.backend !== 'docker')
    return {
      ...base,
      installs,
      manifests: await servedManifests(deps, snapshot, installs),
      gating: null,
      gatingNote: { unsupported: true, message: `gating inside a ${row.backend} sandbox is not checked; the install record decides` },
    };
  const manifests = await servedManifests(deps, snapshot, installs);
  const withInstalls = { ...base, installs, manifests };
  const served = snapshot.skills.filter((s) => {
    const r = installs.get(s.skillKey);
    return r && servedVersion(r);
  });
  if (!served.length) return { ...withInstalls, gating: new Map(), gatingNote: null };
  try {
    const g = await gateSkillsInConfig(
      deps.gate,
      configId,
      served.map((s) => manifests.get(s.skillKey) ?? s.copy.parsed.manifest),
      agentEnv,
    );
    return { ...withInstalls, gating: new Map(g.skills.map((s) => [s.name, { eligible: s.eligible, trace: s.gating.trace }])), gatingNote: null };
  } catch (e) {
    const message = `could not check gating in sandbox ${row.name}: ${e instanceof Error ? e.message : String(e)}`;
    return { ...withInstalls, gating: null, gatingNote: { unsupported: false, message } };
  }
}

/**
 * Targets of one computation: each config loaded once (once more per agent whose own variables
 * change what gating finds there), the host shared.
 */
export function targetLoader(deps: TargetDeps, snapshot: CatalogSnapshot): (configId: string | null, agentEnv?: AgentEnvNames | null) => Promise<AgentTarget> {
  const host: HostTarget = { kind: 'host', label: snapshot.target.label, home: deps.home };
  const sandboxes = new Map<string, Promise<SandboxTarget>>();
  return (configId, agentEnv = null) => {
    if (!configId) return Promise.resolve(host);
    const key = `${configId}|${agentEnvKey(agentEnv)}`;
    let t = sandboxes.get(key);
    if (!t) {
      t = loadSandbox(deps, configId, snapshot, agentEnv);
      sandboxes.set(key, t);
    }
    return t;
  };
}
