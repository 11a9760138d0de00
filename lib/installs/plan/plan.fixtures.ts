// Shared by the install-plan tests: real fixture skills read from disk, and the argv safety check.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { parseSkillDeps } from '../../runtime/deps/frontmatter';
import { resolveSkillDeps } from '../../runtime/deps/resolve';
import { scanSkillFiles } from '../../runtime/deps/scan';
import type { FileToScan, ResolvedDep } from '../../runtime/deps/types';
import { RUNTIME_SETTINGS_DEFAULTS, type RuntimeSettings } from '../../settings/runtime-settings';
import { parseSkillMd } from '../../skills/manifest';
import { type InstallPlan, type PlanInput, type PlanSkillFile, planInstall, type TargetTools } from './plan';
import * as scripts from './scripts';

export const ROOT = path.resolve(__dirname, '../../../test/fixtures/skills-real');
export const DEBIAN: TargetTools = { python3: true, pip: true, node: true, npm: true, apt: true, bash: true, curl: true };
export const CONSTANT_SCRIPTS = new Set<string>(Object.values(scripts));
/** Programs a plan may start; everything after them is data or a fixed flag. */
export const PROGRAMS = new Set(['sh', 'mkdir', 'apt-get', 'apk', 'npm', 'uv', 'go', 'node', 'bash', '/opt/skilldock/python/bin/python3']);

export function walk(dir: string, rel = ''): PlanSkillFile[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? walk(dir, p) : [{ path: p, size: fs.statSync(path.join(dir, p)).size }];
  });
}

/** A real fixture read from disk with the repo's manifest parser and dependency resolution. */
export function fixture(key: string, extra: { files?: FileToScan[] } = {}): PlanInput['skill'] & { deps: ResolvedDep[] } {
  const dir = path.join(ROOT, key);
  const text = fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8');
  const parsed = parseSkillMd(text, { dirName: path.basename(dir) });
  expect(parsed.valid).toBe(true);
  const declared = parseSkillDeps(text);
  const scanned = scanSkillFiles(extra.files ?? []).deps;
  const deps = resolveSkillDeps({ declared: declared.declared, excluded: declared.excluded, scanned }).deps;
  const files = [...walk(dir), ...(extra.files ?? []).map((f) => ({ path: f.path, size: Buffer.byteLength(f.content), firstLine: f.content.split('\n')[0] }))];
  return { name: parsed.manifest.name, manifest: parsed.manifest, files, deps };
}

export function plan(
  skill: ReturnType<typeof fixture>,
  opts: { has?: Partial<TargetTools>; settings?: Partial<RuntimeSettings>; presentBins?: string[] } = {},
): InstallPlan {
  return planInstall({
    skill: { name: skill.name, files: skill.files, manifest: skill.manifest },
    deps: skill.deps,
    settings: { ...RUNTIME_SETTINGS_DEFAULTS, ...opts.settings },
    target: { os: 'linux', has: { ...DEBIAN, ...opts.has }, presentBins: opts.presentBins },
  });
}

/** No data in a program or shell-script position: argv[0] is a known program, sh -c runs a constant. */
export function expectSafeArgv(p: InstallPlan) {
  for (const step of p.steps) {
    expect(PROGRAMS.has(step.argv[0]), step.argv[0]).toBe(true);
    if (step.argv[0] === 'sh' && step.argv[1] === '-c') {
      expect(CONSTANT_SCRIPTS.has(step.argv[2]), step.title).toBe(true);
      expect(step.argv[3]).toMatch(/^skilldock-[a-z-]+$/);
    }
    if (step.argv[1] === '-c' && step.argv[0].endsWith('python3')) expect(CONSTANT_SCRIPTS.has(step.argv[2])).toBe(true);
  }
}

export const argvOf = (p: InstallPlan, stage: string) => p.steps.filter((s) => s.stage === stage).map((s) => s.argv);
export const codes = (p: InstallPlan) => p.problems.map((x) => x.code);
