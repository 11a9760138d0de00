/**
 * Shared types of the skill catalog. Each module of lib/skills works on these;
 * none of them imports Next or React.
 */

export type Os = 'darwin' | 'linux' | 'win32';

/** A parse or validation problem of one skill: never dropped silently. */
export interface SkillDiagnostic {
  /** Path relative to the skill folder, e.g. "SKILL.md". */
  file: string;
  /** 1-based line in that file, when known. */
  line?: number;
  /** Stable machine code, e.g. "name.invalid", "description.missing", "install.dropped", "key.unknown". */
  code: string;
  severity: 'error' | 'warning';
  message: string;
}

export type InstallKind = 'brew' | 'node' | 'go' | 'uv' | 'download';

/** One validated `metadata.openclaw.install[]` entry. */
export interface InstallSpec {
  id?: string;
  kind: InstallKind;
  label?: string;
  bins: string[];
  os?: Os[];
  formula?: string;
  package?: string;
  module?: string;
  url?: string;
  sha256?: string;
  archive?: 'tar.gz' | 'tar.bz2' | 'zip';
  extract?: boolean;
  stripComponents?: number;
  targetDir?: string;
  /** Our package spec for this installer when one maps: "pip:x", "npm:x", "github:owner/repo"; else absent. */
  packageSpec?: string;
}

export interface SkillRequires {
  bins: string[];
  anyBins: string[];
  env: string[];
  /** Dotted config paths that must be truthy. */
  config: string[];
  /**
   * Files that must exist (PulseBot's `requires.configs`), absolute or under the target's home ("~/");
   * absent when the skill names none.
   */
  files?: string[];
}

/** The metadata blocks Skilldock knows: OpenClaw's, Nodmix's and their legacy names. */
export type MetadataKey = 'openclaw' | 'nodmix' | 'clawdbot' | 'clawdis' | 'moltbot';

/** Everything SKILL.md declares, defaults applied. Present even for invalid skills (best effort). */
export interface SkillManifest {
  /** The frontmatter name when valid, else the folder name. */
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  allowedTools: string[];
  userInvocable: boolean;
  disableModelInvocation: boolean;
  commandDispatch?: 'tool';
  commandTool?: string;
  commandArgMode: 'raw';
  homepage?: string;
  /** The whole `metadata` map as parsed (JSON-safe). */
  metadata: Record<string, unknown>;
  /** Which metadata block was used (the first present of the configured order, by default openclaw, nodmix, clawdbot, clawdis, moltbot). */
  metadataKey?: MetadataKey;
  always: boolean;
  emoji?: string;
  /** Empty = every platform. */
  os: Os[];
  requires: SkillRequires;
  primaryEnv?: string;
  /** Key under the per-skill config entries; defaults to name. */
  skillKey: string;
  install: InstallSpec[];
  /** The Markdown after the frontmatter. */
  body: string;
  /** 1-based SKILL.md line where the body starts. */
  bodyLine: number;
}

export interface ParsedSkill {
  manifest: SkillManifest;
  diagnostics: SkillDiagnostic[];
  /** False when any diagnostic has severity error. */
  valid: boolean;
}

/** One file of a skill folder. */
export interface SkillFile {
  /** Relative, forward slashes. */
  path: string;
  size: number;
  sha256: string;
  mode: number;
}

// ---------- scanner ----------

export type FindingSeverity = 'critical' | 'warn' | 'info';

export interface ScanFinding {
  /** e.g. "dangerous-exec", "remote-pipe-shell", "reverse-shell", "env-harvesting", "crypto-mining", "prompt-injection", "undeclared-env", "undeclared-network", "encoded-payload", "obfuscated-code", "dynamic-code-execution", "potential-exfiltration", "suspicious-network", "destructive-delete", "binary-file", "symlink". */
  rule: string;
  severity: FindingSeverity;
  file: string;
  line: number;
  message: string;
  /** The offending line (trimmed, at most 200 chars); for decoded payloads, the decoded text. */
  excerpt: string;
}

export type ScanVerdict = 'clean' | 'warn' | 'critical' | 'error';

export interface ScanResult {
  verdict: ScanVerdict;
  findings: ScanFinding[];
  filesScanned: number;
  /** Set when the verdict is "error" (the scan could not complete: it blocks). */
  error?: string;
  /** The scan ran out of its time budget: not a final verdict (never stored; the next build scans again). */
  timedOut?: boolean;
}

// ---------- sources, discovery ----------

export type SourceKind = 'workspace' | 'project' | 'personal' | 'managed' | 'bundled' | 'extra';

/** Highest precedence first. */
export const SOURCE_ORDER: readonly SourceKind[] = ['workspace', 'project', 'personal', 'managed', 'bundled', 'extra'];

export interface SkillRoot {
  kind: SourceKind;
  /** Absolute path of the root folder. */
  path: string;
  /** 0 = highest. Extra dirs share kind "extra" and come last in configured order. */
  precedence: number;
}

export type ContainmentWarning = 'symlink-escape' | 'path-escape' | 'bundled-symlink-escape' | 'bundled-root-escape';

export interface RootWarning {
  root: string;
  path: string;
  code: ContainmentWarning | 'limit-candidates' | 'file-too-large' | 'unreadable';
  message: string;
}

/** One copy of a skill found under one root. */
export interface SkillCopy {
  /** Stable id: sha256 of `${source}:${root}:${relDir}` (first 16 hex). */
  id: string;
  source: SourceKind;
  root: string;
  /** Folder path relative to the root ("group/name" with a grouping level). */
  relDir: string;
  dir: string;
  group?: string;
  parsed: ParsedSkill;
  files: SkillFile[];
  /** sha256 over the sorted `path:sha256` lines joined by "\n" (ClawHub's resolve hash). */
  contentHash: string;
}

// ---------- gating ----------

/** Where skills run: the host now; sandbox images later, through the same interface. */
export interface GatingTarget {
  id: string;
  label: string;
  platform: Os;
  /** Which of `names` resolve to a regular executable file on this target's PATH. */
  which(names: string[]): Promise<Record<string, string | null>>;
  /** The target's environment (names only matter for gating). */
  env: Record<string, string | undefined>;
  /** Which of `paths` (absolute or "~/…", PulseBot's `requires.configs`) exist on this target; absent: files are not checked there (the step is skipped). */
  exists?(paths: string[]): Promise<Record<string, boolean>>;
}

export interface SkillEntryConfig {
  enabled?: boolean;
  /** Names of env values that are configured (values are sealed and never reach gating). */
  envNames: string[];
  hasApiKey: boolean;
  config: Record<string, unknown>;
}

export interface GateStep {
  step: 'enabled' | 'allowBundled' | 'os' | 'always' | 'bins' | 'anyBins' | 'env' | 'config' | 'files';
  pass: boolean;
  skipped?: boolean;
  detail: string;
}

export interface GatingResult {
  eligible: boolean;
  disabled: boolean;
  blockedByAllowlist: boolean;
  /** `files` only when the skill requires files (PulseBot's `requires.configs`). */
  missing: { bins: string[]; anyBins: string[]; env: string[]; config: string[]; os: Os[]; files?: string[] };
  /** Human-readable reasons, e.g. "missing bin rg", "missing env GEMINI_API_KEY". */
  reasons: string[];
  trace: GateStep[];
}
