// Package installs the engine can vet: named packages from the default registry, put into the
// agent's own sandbox by pip (pip3, python -m pip, uv pip), npm or npx. Such an install changes the
// sandbox's package tree like any other medium-risk verb; an install whose source the engine cannot
// see (a URL, a VCS spec, a local archive or folder, another index, a requirements file, the
// project's manifest, a global prefix) stays with the package_install group.
import { baseName } from '../shell/wrappers';

/** PEP 508 name, optional extras, optional version specifiers (`pkg[extra]>=1,<2`). */
const PIP_NAME =
  /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,100}[A-Za-z0-9])?(?:\[[A-Za-z0-9._,-]{1,100}\])?(?:(?:===|==|~=|!=|<=|>=|<|>)[A-Za-z0-9.*+!_-]{1,64}(?:,(?:===|==|~=|!=|<=|>=|<|>)[A-Za-z0-9.*+!_-]{1,64}){0,8})?$/;
/** File names pip reads as a local archive rather than a name. */
const ARCHIVE = /\.(?:whl|zip|tar|tgz|tar\.gz|tar\.bz2|tbz|tar\.xz|txz|egg)$/i;
/** `[@scope/]name[@version-or-range-or-tag]`, nothing that names a URL, a path, git or an alias. */
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]{0,100}\/)?[a-z0-9][a-z0-9._~-]{0,100}(?:@[A-Za-z0-9.^~<>=|*+-]{1,64})?$/;

// process-wide: a constant table, never written
const PIP_FLAGS = new Set([
  '-U',
  '--upgrade',
  '-q',
  '--quiet',
  '-qq',
  '-v',
  '--verbose',
  '--user',
  '--no-cache-dir',
  '--pre',
  '--no-deps',
  '--force-reinstall',
  '-I',
  '--ignore-installed',
  '--break-system-packages',
  '--no-input',
  '--disable-pip-version-check',
  '--prefer-binary',
  '--no-warn-script-location',
  '--upgrade-strategy=only-if-needed',
  '--upgrade-strategy=eager',
  '-y',
  '--yes',
]);
// process-wide: a constant table, never written
const NPM_FLAGS = new Set([
  '-D',
  '--save-dev',
  '-S',
  '--save',
  '-P',
  '--save-prod',
  '-E',
  '--save-exact',
  '-O',
  '--save-optional',
  '--save-peer',
  '--no-save',
  '--no-audit',
  '--no-fund',
  '--silent',
  '-s',
  '--quiet',
  '-q',
  '--prefer-offline',
  '--prefer-online',
  '--legacy-peer-deps',
  '--ignore-scripts',
  '--no-package-lock',
]);
// process-wide: a constant table, never written
const NPM_VERBS = new Set(['install', 'i', 'in', 'add', 'uninstall', 'un', 'remove', 'rm', 'r']);
const PYTHON = /^(?:python|pypy)(?:\d+(?:\.\d+)?)?$/;

export interface RegistryInstall {
  tool: 'pip' | 'npm' | 'npx';
  packages: string[];
}

function named(args: readonly string[], flags: ReadonlySet<string>, isName: (a: string) => boolean): string[] | null {
  const packages: string[] = [];
  for (const a of args) {
    if (a.startsWith('-')) {
      if (!flags.has(a)) return null;
    } else if (isName(a)) packages.push(a);
    else return null;
  }
  return packages.length ? packages : null;
}

/** The name part of a requirement (`flask>=2` → `flask`). */
const requirementName = (a: string) => {
  const at = a.search(/[<>=!~]/);
  return at < 0 ? a : a.slice(0, at);
};
const pipName = (a: string) => PIP_NAME.test(a) && !ARCHIVE.test(requirementName(a));

function pip(args: readonly string[]): RegistryInstall | null {
  if (args[0] !== 'install' && args[0] !== 'uninstall') return null;
  const packages = named(args.slice(1), PIP_FLAGS, pipName);
  return packages ? { tool: 'pip', packages } : null;
}

/** The pip arguments of `python -m pip …` / `python -mpip …` (no other python option before it). */
function pythonPipArgs(argv: readonly string[]): readonly string[] | null {
  if (argv[1] === '-m' && argv[2] === 'pip') return argv.slice(3);
  if (argv[1] === '-mpip') return argv.slice(2);
  return null;
}

/** `npx [-y] pkg [args…]`: the arguments after the package are its own (data to that program). */
function npx(args: readonly string[]): RegistryInstall | null {
  let i = 0;
  while (i < args.length && (args[i] === '-y' || args[i] === '--yes' || args[i] === '-q' || args[i] === '--quiet')) i++;
  const pkg = args[i];
  if (pkg === undefined || !NPM_NAME.test(pkg)) return null;
  return { tool: 'npx', packages: [pkg] };
}

/** A segment that installs or removes named registry packages only, or null. */
export function registryInstall(argv: readonly string[]): RegistryInstall | null {
  if (!argv.length) return null;
  const name = baseName(argv[0]);
  if (/^pip\d?(?:\.\d+)?$/.test(name)) return pip(argv.slice(1));
  if (name === 'uv' && argv[1] === 'pip') return pip(argv.slice(2));
  if (PYTHON.test(name)) {
    const rest = pythonPipArgs(argv);
    return rest ? pip(rest) : null;
  }
  if (name === 'npm') {
    if (!NPM_VERBS.has(argv[1] ?? '')) return null;
    const packages = named(argv.slice(2), NPM_FLAGS, (a) => NPM_NAME.test(a));
    return packages ? { tool: 'npm', packages } : null;
  }
  if (name === 'npx') return npx(argv.slice(1));
  return null;
}
