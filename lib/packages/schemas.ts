import { valid as pep440Valid } from '@renovatebot/pep440';
import { valid as semverValid } from 'semver';
import { z } from 'zod';
import { isAppError } from '../core/errors';
import { githubOverridesInput } from '../github/schemas';
import { parsePackageSpec, type SpecContext } from '../runtime/spec';
import type { PackageSpec } from '../runtime/types';

export type PackageAction = 'install' | 'uninstall' | 'update';

const SPEC_HELP = 'A package spec such as pip:requests==2.32.3, npm:is-number@7.0.0 or a system package name (jq).';
const EXACT_VERSION = /^[A-Za-z0-9][A-Za-z0-9.+!_-]{0,63}$/;

/** Parses a spec for an action, or returns the message a person can act on. */
export function checkSpec(raw: string, action: PackageAction): { spec: PackageSpec } | { message: string } {
  // Update and uninstall name an installed package, so github: accepts the installed name there too.
  const context: SpecContext = action === 'install' ? 'install' : 'uninstall';
  try {
    const spec = parsePackageSpec(raw, { context });
    if (action !== 'install' && spec.version !== undefined) {
      const hint = action === 'update' ? 'give the target version as toVersion' : 'every installed version is removed';
      return { message: `${action === 'update' ? 'An update' : 'An uninstall'} names the package without a version (${spec.raw}); ${hint}.` };
    }
    if (action !== 'install' && spec.extras?.length) return { message: `Extras do not apply to ${action}; name the package alone (pip:${spec.name}).` };
    return { spec };
  } catch (e) {
    if (isAppError(e)) return { message: e.message };
    throw e;
  }
}

/** The `toVersion` of an update must be one exact version in the manager's own version syntax. */
function checkToVersion(spec: PackageSpec, toVersion: string): string | undefined {
  if (spec.manager === 'system' || spec.manager === 'apt' || spec.manager === 'apk') {
    return 'System packages update to the newest version their package lists offer; leave toVersion out.';
  }
  if (spec.manager === 'npm' && !semverValid(toVersion)) return `"${toVersion}" is not an exact semver version (e.g. 7.0.0).`;
  if (spec.manager === 'pip' && pep440Valid(toVersion) === null) return `"${toVersion}" is not an exact PEP 440 version (e.g. 2.32.3).`;
  return undefined;
}

const specField = z.string().min(1, 'Give a package spec').max(256, 'A package spec has at most 256 characters').describe(SPEC_HELP);

// Zod may run refinements after other issues; a spec that is not a usable string already has its issue.
const usable = (spec: unknown): spec is string => typeof spec === 'string' && spec.length > 0 && spec.length <= 256;

const withSpec = (action: PackageAction) => (v: { spec: string }, ctx: z.RefinementCtx) => {
  if (!usable(v.spec)) return;
  const r = checkSpec(v.spec, action);
  if ('message' in r) ctx.addIssue({ code: 'custom', path: ['spec'], message: r.message });
};

export const installPackageInput = z
  .strictObject({
    spec: specField,
    overrides: githubOverridesInput.optional().describe('github: only — how the asset and binaries are chosen, smoke-test arguments'),
    takeover: z.boolean().optional().describe('github: only — replace bin/ names owned by another package'),
  })
  .superRefine((v, ctx) => {
    withSpec('install')(v, ctx);
    if ((v.overrides || v.takeover !== undefined) && usable(v.spec) && !/^github:/i.test(v.spec.trim()))
      ctx.addIssue({ code: 'custom', path: ['overrides'], message: 'overrides and takeover apply to github: specs only' });
  });
export const uninstallPackageInput = z.strictObject({ spec: specField }).superRefine(withSpec('uninstall'));
export const updatePackageInput = z
  .strictObject({
    spec: specField,
    toVersion: z
      .string()
      .regex(EXACT_VERSION, 'An exact version: letters, digits and . + ! _ -')
      .optional()
      .describe('Exact target version; the newest when left out'),
  })
  .superRefine((v, ctx) => {
    if (!usable(v.spec)) return;
    const r = checkSpec(v.spec, 'update');
    if ('message' in r) return ctx.addIssue({ code: 'custom', path: ['spec'], message: r.message });
    const bad = typeof v.toVersion !== 'string' ? undefined : checkToVersion(r.spec, v.toVersion);
    if (bad) ctx.addIssue({ code: 'custom', path: ['toVersion'], message: bad });
  });

export type InstallPackageInput = z.infer<typeof installPackageInput>;
export type UninstallPackageInput = z.infer<typeof uninstallPackageInput>;
export type UpdatePackageInput = z.infer<typeof updatePackageInput>;

export const PACKAGE_MANAGER_FILTERS = ['pip', 'npm', 'system', 'apt', 'apk', 'github'] as const;

export const listPackagesQuery = z.strictObject({
  manager: z.enum(PACKAGE_MANAGER_FILTERS).optional().describe('system matches apt and apk'),
  managed: z.enum(['true', 'false']).optional().describe('true: installed through Skilldock; false: base packages of the host'),
  q: z.string().trim().max(200).optional().describe('Case-insensitive substring of the name or summary'),
});
export type ListPackagesQuery = z.infer<typeof listPackagesQuery>;

export const runtimesQuery = z.strictObject({
  refresh: z.enum(['true', 'false']).optional().describe('true: detect again instead of serving the cached report'),
});

/** The dependency check's input. */
const KIB = 1024;
/** A skill-relative path: forward slashes, no absolute path, no `..`, no NUL or control characters. */
const RELATIVE_PATH = /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[^\0-\x1f\\]{1,512}$/;

export const depsCheckInput = z
  .strictObject({
    skillMd: z
      .string()
      .max(256 * KIB, 'SKILL.md is limited to 256 KiB')
      .optional()
      .describe('The SKILL.md text: deps: and exclude_deps: are read from its front matter'),
    files: z
      .array(
        z.strictObject({
          path: z.string().regex(RELATIVE_PATH, 'A skill-relative path such as scripts/run.py (no leading /, no ..)'),
          content: z.string().max(512 * KIB, 'A script is limited to 512 KiB'),
        }),
      )
      .max(500, 'At most 500 files')
      .optional()
      .describe('The skill’s script files, scanned for imports, requires and shebangs'),
    deps: z.array(z.string().min(1).max(256)).max(200, 'At most 200 dependencies').optional().describe('Extra specs to check (pip:x, npm:y, system:z …)'),
  })
  .refine((v) => v.skillMd !== undefined || (v.files?.length ?? 0) > 0 || (v.deps?.length ?? 0) > 0, {
    message: 'Give a SKILL.md, script files or a list of deps',
  });
export type DepsCheckInput = z.infer<typeof depsCheckInput>;
