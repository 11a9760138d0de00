/**
 * Client-side shapes of the skills API (mirrors lib/skills/service/views.ts and operations.ts).
 * Only type imports from lib: nothing of the server reaches the browser bundle.
 */
import type { Highlight } from '@/lib/skills/search/highlight';
import type { GatingResult, ScanFinding, ScanVerdict, SkillDiagnostic, SkillFile, SkillManifest, SourceKind } from '@/lib/skills/types';
import type { Job } from '../jobs/types';

export type { Highlight, ScanFinding, ScanVerdict, SourceKind };

export const STATUS_TABS = [
  { id: 'all', label: 'All' },
  { id: 'ready', label: 'Ready' },
  { id: 'needs-setup', label: 'Needs setup' },
  { id: 'disabled', label: 'Disabled' },
  { id: 'invalid', label: 'Invalid' },
  { id: 'blocked', label: 'Blocked' },
] as const;
export type StatusTab = (typeof STATUS_TABS)[number]['id'];
export type SkillStatus = Exclude<StatusTab, 'all'>;

export const SOURCE_LABELS: Record<SourceKind, string> = {
  workspace: 'Workspace',
  project: 'Project',
  personal: 'Personal',
  managed: 'Managed',
  bundled: 'Bundled',
  extra: 'Extra',
};
/** Highest precedence first, as the catalog resolves them. */
export const SOURCE_ORDER: SourceKind[] = ['workspace', 'project', 'personal', 'managed', 'bundled', 'extra'];

export interface SkillSummary {
  id: string;
  name: string;
  skillKey: string;
  description: string;
  emoji: string | null;
  homepage: string | null;
  source: SourceKind;
  sourceLabel: string;
  group: string | null;
  dir: string;
  status: SkillStatus;
  eligible: boolean;
  disabled: boolean;
  reasons: string[];
  missing: GatingResult['missing'];
  verdict: ScanVerdict;
  findingCounts: { critical: number; warn: number; info: number };
  acknowledged: boolean;
  diagnostics: number;
  shadowedCount: number;
  contentHash: string;
  primaryEnv: string | null;
  userInvocable: boolean;
  disableModelInvocation: boolean;
  score?: number | null;
  terms?: string[];
  highlights?: Highlight[];
}

export interface SkillRootView {
  kind: SourceKind;
  label: string;
  path: string;
  precedence: number;
  skills: number;
}

export interface RootWarningView {
  root: string;
  path: string;
  code: string;
  message: string;
}

export interface SkillList {
  version: number;
  builtAt: string;
  target: { id: string; label: string; platform: string };
  counts: Record<StatusTab, number>;
  roots: SkillRootView[];
  warnings: RootWarningView[];
  skills: SkillSummary[];
}

export interface CopyView {
  id: string;
  source: SourceKind;
  sourceLabel: string;
  root: string;
  relDir: string;
  dir: string;
  group: string | null;
  contentHash: string;
  valid: boolean;
}

export interface SkillEntryView {
  skillKey: string;
  enabled: boolean | null;
  env: Record<string, string>;
  apiKey: string | null;
  config: Record<string, unknown>;
  updatedAt: string | null;
  updatedBy: string | null;
}

export interface VersionInfo {
  version: string;
  contentHash: string;
  /** Epoch milliseconds. */
  installedAt: number;
  fileCount: number;
  bytes: number;
  lock: { version: string; ownerHandle?: string; sourceRef?: string; canonicalRef?: string; registry?: string };
  active: boolean;
  present: boolean;
}

export interface InstallRecord {
  version: string;
  contentHash: string;
  source: unknown;
  verdict: string;
  installedBy: string;
  installedAt: string;
  jobId: string | null;
  registryVerdict?: unknown;
}

export interface ManagedView {
  slug: string;
  active: string | null;
  versions: VersionInfo[];
  drift: { version: string; drifted: boolean; changed: string[]; diskHash: string | null; recordedHash: string } | null;
  installs: InstallRecord[];
}

export interface ShadowedCopy extends CopyView {
  sameContent: boolean;
  changes: { added: string[]; removed: string[]; modified: string[] };
}

/** One skill as GET /skills/{id} returns it; `diagnostics` is the full list here (the summary's is a count). */
export interface SkillDetailView extends Omit<SkillSummary, 'diagnostics'> {
  copy: CopyView;
  isWinner: boolean;
  manifest: SkillManifest;
  diagnostics: SkillDiagnostic[];
  files: SkillFile[];
  gating: GatingResult;
  scan: { verdict: ScanVerdict; findings: ScanFinding[]; filesScanned: number; error?: string };
  ack: { reason: string; acknowledgedBy: string; acknowledgedAt: string } | null;
  winner: CopyView;
  shadowed: ShadowedCopy[];
  entry: SkillEntryView;
  managed: ManagedView | null;
}

export interface SkillFileContent {
  path: string;
  size: number;
  binary: boolean;
  content: string | null;
}

export interface InstallSpecView {
  kind: string;
  label: string | null;
  bins: string[];
  spec: string;
}

export interface VersionDiffView {
  a: string;
  b: string;
  files: { path: string; status: 'added' | 'removed' | 'modified' | 'unchanged'; sizeA?: number; sizeB?: number }[];
  textDiffs: ({ path: string; patch: string } | { path: string; binary: true } | { path: string; tooLarge: true })[];
}

export interface UploadRecord {
  uploadId: string;
  size: number;
  sha256: string;
  filename: string | null;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
}

/** What a finished import job holds in `result` (success) or, for a scanner block, `{blocked: true, …}`. */
export interface ImportJobResult {
  slug?: string;
  version?: string;
  unchanged?: boolean;
  previous?: string | null;
  verdict?: ScanVerdict;
  findings?: ScanFinding[];
  blocked?: boolean;
  /** A failed job's error code (e.g. `scan_blocked`, `ambiguous_slug`), its hint and details. */
  code?: string;
  hint?: string;
  /** For `ambiguous_slug`: `owners`, the publishers to choose from. */
  details?: { owners?: string[]; [k: string]: unknown };
  owners?: string[];
}

export interface DepsInstallResponse {
  job: Job;
  children: Job[];
}

export interface ClawhubHit {
  slug: string;
  displayName: string;
  summary: string | null;
  version: string | null;
  score: number;
  updatedAt: number | null;
  ownerHandle: string | null;
}

export const skillHref = (id: string) => `/skills/${id}`;
