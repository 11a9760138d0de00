/**
 * Eligibility of one skill with an explain trace. The steps run in
 * a fixed order; the outcome is the same as OpenClaw's first-exclusion rule, but every step is
 * still evaluated and traced (except steps 5–8 under `always`), so the UI can show everything a
 * disabled or wrong-platform skill would still need.
 */
import type { GateStep, GatingResult, Os, SkillEntryConfig, SkillManifest, SourceKind } from '../types';

export interface GatingInput {
  manifest: SkillManifest;
  source: SourceKind;
  entry?: SkillEntryConfig;
  /** Bundled allowlist; undefined = every bundled skill allowed, [] = none. */
  allowBundled?: string[];
  /** App config for `requires.config` dotted paths. */
  config: Record<string, unknown>;
  /** bin → resolved path (null = missing), from GatingTarget.which(collectBins(...)). */
  found: Record<string, string | null>;
  targetEnv: Record<string, string | undefined>;
  /** Where each target env name comes from, said in the trace; absent: "set in the environment". */
  targetEnvFrom?: Record<string, string>;
  platform: Os;
  /** path → exists, from GatingTarget.exists(collectFiles(...)); absent: the target cannot check files (the step is skipped, saying so). */
  files?: Record<string, boolean>;
}

/** Config paths that count as true when nobody set them (OpenClaw's defaults). */
// process-wide: a constant table, never written
const CONFIG_DEFAULT_TRUE: ReadonlySet<string> = new Set(['browser.enabled', 'browser.evaluateEnabled']);

/** Every bin and anyBin the manifests need, deduplicated and sorted: probe them in one which() call. */
export function collectBins(manifests: Iterable<Pick<SkillManifest, 'requires'>>): string[] {
  const bins = new Set<string>();
  for (const m of manifests) for (const b of [...m.requires.bins, ...m.requires.anyBins]) bins.add(b);
  return [...bins].sort();
}

/** Every file the manifests require (PulseBot's `requires.configs`), deduplicated and sorted: check them in one exists() call. */
export function collectFiles(manifests: Iterable<Pick<SkillManifest, 'requires'>>): string[] {
  const files = new Set<string>();
  for (const m of manifests) for (const f of m.requires.files ?? []) files.add(f);
  return [...files].sort();
}

export function getDotted(obj: unknown, dotted: string): unknown {
  let cur: unknown = obj;
  for (const key of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** App config first, then the skill's own config entry, then the defaults. */
function configValue(dotted: string, config: Record<string, unknown>, entry?: SkillEntryConfig): unknown {
  const fromApp = getDotted(config, dotted);
  if (fromApp !== undefined) return fromApp;
  const fromEntry = entry ? getDotted(entry.config, dotted) : undefined;
  if (fromEntry !== undefined) return fromEntry;
  return CONFIG_DEFAULT_TRUE.has(dotted) ? true : undefined;
}

function hasEnv(name: string, input: GatingInput): 'target' | 'entry' | 'apiKey' | null {
  const v = input.targetEnv[name];
  if (typeof v === 'string' && v !== '') return 'target';
  if (input.entry?.envNames.includes(name)) return 'entry';
  if (input.entry?.hasApiKey && name === input.manifest.primaryEnv) return 'apiKey';
  return null;
}

function list(items: readonly string[]): string {
  return items.join(', ');
}

export function evaluateGating(input: GatingInput): GatingResult {
  const { manifest: m, entry } = input;
  const trace: GateStep[] = [];
  const reasons: string[] = [];
  const missing: GatingResult['missing'] = { bins: [], anyBins: [], env: [], config: [], os: [] };
  const step: StepFn = (s, pass, detail, reason) => {
    trace.push({ step: s, pass, detail });
    if (!pass && reason !== undefined) reasons.push(...(Array.isArray(reason) ? reason : [reason]));
  };
  const skip = (s: GateStep['step'], detail: string) => trace.push({ step: s, pass: true, skipped: true, detail });

  // 1. enabled
  const disabled = entry?.enabled === false;
  step('enabled', !disabled, disabled ? 'skills.entries.' + m.skillKey + '.enabled is false' : 'not disabled in config', 'disabled in config');

  // 2. allowBundled
  let blockedByAllowlist = false;
  if (input.source !== 'bundled') skip('allowBundled', `applies to bundled skills only (source ${input.source})`);
  else if (input.allowBundled === undefined) skip('allowBundled', 'no allowBundled list: every bundled skill is allowed');
  else {
    blockedByAllowlist = !input.allowBundled.includes(m.skillKey) && !input.allowBundled.includes(m.name);
    step(
      'allowBundled',
      !blockedByAllowlist,
      blockedByAllowlist ? `neither ${m.skillKey} nor ${m.name} is in allowBundled` : 'listed in allowBundled',
      'bundled skill not in allowBundled',
    );
  }

  // 3. os
  if (m.os.length === 0) step('os', true, 'runs on every platform');
  else {
    const ok = m.os.includes(input.platform);
    if (!ok) missing.os = [...m.os];
    step('os', ok, `${input.platform}; skill supports ${list(m.os)}`, `not available on ${input.platform} (skill supports ${list(m.os)})`);
  }

  // 4. always
  if (m.always) {
    step('always', true, 'always: true — requirements (bins, anyBins, env, config) are not checked');
    for (const s of ['bins', 'anyBins', 'env', 'config'] as const) skip(s, 'skipped: always is true');
    if (m.requires.files?.length) skip('files', 'skipped: always is true');
  } else {
    skip('always', 'always is not set');
    evaluateRequirements(input, missing, step, skip);
  }

  const eligible = trace.every((t) => t.pass);
  return { eligible, disabled, blockedByAllowlist, missing, reasons, trace };
}

type StepFn = (s: GateStep['step'], pass: boolean, detail: string, reason?: string | string[]) => void;
type SkipFn = (s: GateStep['step'], detail: string) => void;

function evaluateRequirements(input: GatingInput, missing: GatingResult['missing'], step: StepFn, skip: SkipFn): void {
  const { manifest: m, entry } = input;
  const where = (b: string) => `${b} (${input.found[b]})`;

  // 5. bins: all of them
  const { bins, anyBins, env, config } = m.requires;
  missing.bins = bins.filter((b) => !input.found[b]);
  if (bins.length === 0) step('bins', true, 'no bins required');
  else if (missing.bins.length === 0) step('bins', true, `found ${list(bins.map(where))}`);
  else
    step(
      'bins',
      false,
      `missing ${list(missing.bins)}`,
      missing.bins.map((b) => `missing bin ${b}`),
    );

  // 6. anyBins: at least one
  const anyFound = anyBins.filter((b) => input.found[b]);
  if (anyBins.length === 0) step('anyBins', true, 'no anyBins required');
  else if (anyFound.length > 0) step('anyBins', true, `found ${list(anyFound.map(where))}`);
  else {
    missing.anyBins = [...anyBins];
    step('anyBins', false, `none of ${list(anyBins)} found`, `needs one of: ${list(anyBins)}`);
  }

  // 7. env: target env, configured env entries, or the API key for primaryEnv
  const envDetails: string[] = [];
  for (const name of env) {
    const via = hasEnv(name, input);
    if (via)
      envDetails.push(
        `${name} (${via === 'target' ? (input.targetEnvFrom?.[name] ?? 'set in the environment') : via === 'entry' ? 'configured env' : 'configured apiKey'})`,
      );
    else missing.env.push(name);
  }
  if (env.length === 0) step('env', true, 'no env required');
  else if (missing.env.length === 0) step('env', true, `present: ${list(envDetails)}`);
  else {
    const hint = (name: string) =>
      name === m.primaryEnv ? " — set it in the skill's config (primaryEnv)" : " — set it in the environment or the skill's env config";
    step(
      'env',
      false,
      `missing ${list(missing.env)}`,
      missing.env.map((name) => `missing env ${name}${hint(name)}`),
    );
  }

  // 8. config: dotted paths truthy
  const configFails: string[] = [];
  for (const dotted of config) {
    const value = configValue(dotted, input.config, entry);
    if (value) continue;
    missing.config.push(dotted);
    configFails.push(value === undefined ? `config ${dotted} is not set` : `config ${dotted} is ${JSON.stringify(value)}`);
  }
  if (config.length === 0) step('config', true, 'no config required');
  else if (configFails.length === 0) step('config', true, `truthy: ${list(config)}`);
  else step('config', false, list(configFails), configFails);

  // 9. files: PulseBot's requires.configs, files that must exist on the target (only traced when required)
  const files = m.requires.files ?? [];
  if (files.length === 0) return;
  // A target that cannot look (a sandbox image: such files are written at run time) does not block:
  // a requirement it could never see met would keep the skill out for good. The trace says so.
  if (!input.files) {
    missing.files = [];
    skip('files', `not checked on this target (it cannot look for files): ${list(files)}`);
    return;
  }
  missing.files = files.filter((f) => !input.files?.[f]);
  if (missing.files.length === 0) step('files', true, `exist: ${list(files)}`);
  else
    step(
      'files',
      false,
      `missing ${list(missing.files)}`,
      missing.files.map((f) => `missing config file ${f}`),
    );
}
