// Skill gating inside a sandbox config's image: the catalog's own evaluateGating, with a target
// whose bins come from one probe of the image (lib/sandbox/images/image-probe.ts) and whose env is
// what an exec for the skill gets there (the image's ENV, the config's env vars, the skill's
// workspace variables and, for one agent, that agent's own variables), each name traced to where it
// comes from. A person's variables are left out: they differ per user.
import type { AppDb } from '@/db/client';
import { AppError } from '../../core/errors';
import type { DockerConfig } from '../../sandbox/config/schema';
import { loadRow } from '../../sandbox/config/store';
import type { ConfigRow } from '../../sandbox/config/view';
import type { DockerBackend } from '../../sandbox/docker/backend';
import { listEnv } from '../../sandbox/env/store';
import { type BackendFactoryDeps, backendForConfig } from '../../sandbox/factory';
import { checkProbeBins, type ImageProbe, type ImageProbeCache, probeImage } from '../../sandbox/images/image-probe';
import { activeImage } from '../../sandbox/images/images';
import { getSkillsSettings } from '../../settings/store';
import { collectBins, evaluateGating } from '../../skills/gating';
import { loadEntryConfigs } from '../../skills/service/entries';
import type { GatingResult, GatingTarget, SkillEntryConfig, SkillManifest } from '../../skills/types';

export { type ImageProbe, ImageProbeCache, PROBE_LABEL, probeImage } from '../../sandbox/images/image-probe';

/** Stands in for a value: gating reads names only, and no value leaves the env stores for it. */
const PRESENT = '(set)';

/** An agent's own variable names that reach its execs in this config: for the config, and per skill key. */
export interface AgentEnvNames {
  agentId: string;
  sandbox: readonly string[];
  perSkill: ReadonlyMap<string, readonly string[]>;
}

export interface ImageTargetOptions {
  /** Shown in reasons: the config's name. */
  label: string;
  /** Env names a sandbox of the config has besides the image's own (the config's env vars). */
  envNames?: readonly string[];
}

/** A GatingTarget for evaluateGating: bins as the probe found them (unprobed ones count as missing). */
export function imageGatingTarget(probe: ImageProbe, opts: ImageTargetOptions): GatingTarget {
  const env: Record<string, string> = {};
  for (const n of [...probe.env, ...(opts.envNames ?? [])]) env[n] = PRESENT;
  return {
    id: `image:${probe.imageId}`,
    label: opts.label,
    platform: 'linux',
    env,
    async which(names: string[]) {
      return Object.fromEntries(names.map((n) => [n, Object.hasOwn(probe.bins, n) ? (probe.bins[n] ?? null) : null]));
    },
  };
}

/** The reasons evaluateGating gives for a host, said of the sandbox instead. */
export function sandboxReasons(result: GatingResult, configName: string, primaryEnv?: string): string[] {
  const where = `in sandbox ${configName}`;
  const anyBins = `needs one of: ${result.missing.anyBins.join(', ')}`;
  return result.reasons.map((r) => {
    const bin = result.missing.bins.find((b) => r === `missing bin ${b}`);
    if (bin) return `missing bin ${bin} ${where}`;
    if (result.missing.anyBins.length && r === anyBins) return `${anyBins} ${where}`;
    const env = result.missing.env.find((n) => r.startsWith(`missing env ${n} — `));
    if (env)
      return `missing env ${env} ${where} — set it in the config's env${env === primaryEnv ? ' (primaryEnv)' : ''}, in the skill's workspace variables or in the agent's variables`;
    return r;
  });
}

export interface SkillInConfig {
  name: string;
  skillKey: string;
  eligible: boolean;
  reasons: string[];
  gating: GatingResult;
}

export interface ConfigGating {
  configId: string;
  configName: string;
  /** What was probed: the active snapshot's ref, or the base image. */
  image: string;
  imageId: string;
  skills: SkillInConfig[];
}

export interface GateInConfigDeps extends BackendFactoryDeps {
  db: AppDb;
  /** The config's backend (default: a new one from the row). */
  backendFor?: (row: ConfigRow) => DockerBackend;
  /** This service's image probes, kept per image id. */
  probes: ImageProbeCache;
}

const envNamesOf = (m: SkillManifest) => (m.primaryEnv ? [...m.requires.env, m.primaryEnv] : m.requires.env);

async function sandboxEnv(db: AppDb, configId: string): Promise<{ config: string[]; perSkill: Map<string, string[]> }> {
  const [config, skills] = await Promise.all([listEnv(db, { level: 'config', configId }), listEnv(db, { level: 'workspace_skill' })]);
  const perSkill = new Map<string, string[]>();
  for (const v of skills) if (v.skillKey) perSkill.set(v.skillKey, [...(perSkill.get(v.skillKey) ?? []), v.name]);
  return { config: config.map((v) => v.name), perSkill };
}

/**
 * Whether each skill would be eligible in a sandbox of the config, as its image stands now. One
 * probe answers every skill (the union of their bins); a bin that is not a plain program name is
 * never probed and counts as missing.
 */
/**
 * The env names an exec for the skill gets, each with where its value comes from; a later level
 * overrides an earlier one, as the resolver does.
 */
function skillEnvFrom(
  m: SkillManifest,
  imageEnv: readonly string[],
  env: { config: string[]; perSkill: Map<string, string[]> },
  agent: AgentEnvNames | null,
): { env: Record<string, string>; from: Record<string, string> } {
  const from: Record<string, string> = {};
  const add = (names: readonly string[] | undefined, label: string) => {
    for (const n of names ?? []) from[n] = label;
  };
  add(imageEnv, "the image's ENV");
  add(env.config, "the config's variables");
  add(env.perSkill.get(m.skillKey), "the skill's workspace variables, given to execs that name the skill");
  if (agent) {
    add(agent.sandbox, `agent ${agent.agentId}'s variables`);
    const declared = new Set(envNamesOf(m));
    add(
      agent.perSkill.get(m.skillKey)?.filter((n) => declared.has(n)),
      `agent ${agent.agentId}'s variables for this skill, given to execs that name the skill`,
    );
  }
  return { env: Object.fromEntries(Object.keys(from).map((n) => [n, PRESENT])), from };
}

export async function gateSkillsInConfig(
  deps: GateInConfigDeps,
  configId: string,
  manifests: readonly SkillManifest[],
  agent: AgentEnvNames | null = null,
): Promise<ConfigGating> {
  const row = await loadRow(deps.db, configId);
  if (row.backend !== 'docker') throw new AppError('sandbox_unsupported', `Gating in the image of a ${row.backend} config is not supported yet.`);
  const config = row.config as DockerConfig;
  const image = (await activeImage(deps.db, row.id))?.plannedRef ?? config.image;
  const backend = deps.backendFor?.(row) ?? (backendForConfig(row, deps) as DockerBackend);
  const [settings, entries, env] = await Promise.all([getSkillsSettings(deps.db), loadEntryConfigs(deps.db), sandboxEnv(deps.db, row.id)]);

  const bins = collectBins(manifests).filter((b) => {
    try {
      checkProbeBins([b]);
      return true;
    } catch {
      return false;
    }
  });
  const envNames = [...new Set(manifests.flatMap(envNamesOf))];
  const probe = await probeImage(
    backend,
    image,
    { bins, envNames, limits: { cpu: config.cpuLimit, memoryMb: config.memoryLimitMb, pids: config.pidsLimit } },
    deps.probes,
  );
  const target = imageGatingTarget(probe, { label: row.name, envNames: env.config });
  const found = await target.which(collectBins(manifests));

  const skills = manifests.map((m): SkillInConfig => {
    const host = entries.get(m.skillKey);
    // The host's apiKey and env values are not a sandbox's: only enabled and config carry over.
    const entry: SkillEntryConfig = {
      ...(host?.enabled === undefined ? {} : { enabled: host.enabled }),
      envNames: [],
      hasApiKey: false,
      config: host?.config ?? {},
    };
    const delivered = skillEnvFrom(m, probe.env, env, agent);
    const gating = evaluateGating({
      manifest: m,
      source: 'managed',
      entry,
      allowBundled: settings.allowBundled ?? undefined,
      config: settings.config,
      found,
      targetEnv: delivered.env,
      targetEnvFrom: delivered.from,
      platform: target.platform,
    });
    return { name: m.name, skillKey: m.skillKey, eligible: gating.eligible, reasons: sandboxReasons(gating, row.name, m.primaryEnv), gating };
  });
  return { configId: row.id, configName: row.name, image, imageId: probe.imageId, skills };
}
