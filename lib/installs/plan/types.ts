import type { ResolvedDep } from '../../runtime/deps/types';
import type { RuntimeSettings } from '../../settings/runtime-settings';
import type { InstallKind, SkillManifest } from '../../skills/types';

/** Where everything Skilldock installs lives inside a sandbox image. */
export const SKILLDOCK_ROOT = '/opt/skilldock';
export const SKILLS_ROOT = `${SKILLDOCK_ROOT}/skills`;
/**
 * Python packages go into a venv made with `--system-site-packages --without-pip` and driven by the
 * image's own pip: the image's python3 is usually externally managed (PEP 668), so pip into the system
 * site-packages would need --break-system-packages and could overwrite dpkg's files, while a venv is
 * never externally managed, keeps pip's resolver seeing every installed package (unlike --target,
 * which ignores them and skips existing dirs), and makes `python3` on PATH the one with the packages.
 */
export const PYTHON_PREFIX = `${SKILLDOCK_ROOT}/python`;
export const VENV_PYTHON = `${PYTHON_PREFIX}/bin/python3`;
export const NODE_PREFIX = `${SKILLDOCK_ROOT}/node`;
export const GO_PREFIX = `${SKILLDOCK_ROOT}/go`;
/** Download targets, one folder per skill. */
export const TOOLS_ROOT = `${SKILLDOCK_ROOT}/tools`;
/** Host find-links folders are copied here (the host path means nothing inside the sandbox). */
export const WHEELHOUSE_ROOT = `${SKILLDOCK_ROOT}/wheelhouse`;
/** Scratch space of the install; wiped with /tmp before the snapshot. */
export const INSTALL_TMP = '/tmp/skilldock-install';

/** The environment a sandbox built from the snapshot needs so skills find what was installed. */
export const SANDBOX_RUNTIME_ENV: Readonly<Record<string, string>> = {
  PATH: `${PYTHON_PREFIX}/bin:${NODE_PREFIX}/bin:${GO_PREFIX}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`,
  NODE_PATH: `${NODE_PREFIX}/lib/node_modules`,
  SKILLDOCK_SKILLS_DIR: SKILLS_ROOT,
};

export type InstallStage = 'copy' | 'deps' | 'install-specs' | 'verify' | 'cleanup';

/** What a verify step checks, so its failure maps to a typed reason. */
export type VerifyCheck =
  | { kind: 'syntax'; file: string; interpreter: 'python' | 'node' | 'sh' | 'bash' }
  | { kind: 'imports'; modules: string[] }
  | { kind: 'bins'; bins: string[] }
  | { kind: 'any-bins'; bins: string[] }
  | { kind: 'files'; files: string[] };

export interface InstallStep {
  stage: InstallStage;
  title: string;
  /** Run as is (no shell); where a shell runs, argv[2] is a constant script and data follows as $1… */
  argv: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Before argv runs, the runner writes the tar of the skill's files (the validated list) here. */
  upload?: { kind: 'skill-archive'; path: string };
  timeoutMs: number;
  /** Every step is required: a failure fails the install. */
  optional?: false;
  check?: VerifyCheck;
}

export type PlanProblem =
  | { code: 'invalid_name'; value: string; message: string }
  | { code: 'invalid_path'; value: string; message: string }
  | { code: 'invalid_value'; field: string; value: string; message: string }
  | { code: 'invalid_setting'; field: string; message: string }
  | { code: 'unresolved_precondition'; requirement: string; message: string }
  | { code: 'unsupported_install'; kind: InstallKind | 'dep'; value: string; message: string }
  | { code: 'download_unverified'; value: string; message: string };

export interface PlanSkillFile {
  /** Relative to the skill folder, forward slashes. */
  path: string;
  size: number;
  sha256?: string;
  /** The first line (for a shebang), when the caller read the file. */
  firstLine?: string;
}

export interface TargetTools {
  python3: boolean;
  pip: boolean;
  node: boolean;
  npm: boolean;
  apt: boolean;
  apk?: boolean;
  uv?: boolean;
  go?: boolean;
  curl?: boolean;
  wget?: boolean;
  bash?: boolean;
  unzip?: boolean;
}

export interface PlanTarget {
  os: 'linux';
  has: TargetTools;
  /** Programs already on the image's PATH (probed beforehand): install specs providing only these are skipped. */
  presentBins?: readonly string[];
  /** Env names the sandbox config provides; when given, `requires.env` is checked against it. */
  envNames?: readonly string[];
  /** The skill's config entry; when given, `requires.config` paths must be truthy in it. */
  config?: Readonly<Record<string, unknown>>;
}

export interface PlanInput {
  skill: { name: string; files: readonly PlanSkillFile[]; manifest: SkillManifest };
  /** The resolved dependency list (declared `deps:` or the script scan, after `exclude_deps:`). */
  deps: readonly ResolvedDep[];
  settings: RuntimeSettings;
  target: PlanTarget;
}

export interface SkippedSpec {
  index: number;
  kind: InstallKind;
  reason: string;
}

export interface InstallPlan {
  /** False when `problems` is non-empty: nothing may run. */
  ok: boolean;
  skillDir: string;
  steps: InstallStep[];
  problems: PlanProblem[];
  /** Install specs that do not run here, and why. */
  skipped: SkippedSpec[];
  /** Host folders (pip find-links) the runner copies into the sandbox before the deps stage. */
  hostDirs: { hostPath: string; sandboxPath: string }[];
}
