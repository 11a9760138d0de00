/**
 * The skills API's shapes, taken from the contracts' schemas (type-only: nothing of the server is
 * bundled), and the view helpers of the skills pages.
 */
import type { z } from 'zod';
import type { depsInstallOut, depsReportOut } from '@/lib/api/package-schemas';
import type {
  clawhubHitOut,
  copyOut,
  findingOut,
  highlightOut,
  rootWarningOut,
  SKILL_STATUSES,
  SOURCE_KINDS,
  skillDetailOut,
  skillEntryOut,
  skillFileOut,
  skillListOut,
  skillRootOut,
  uploadOut,
  versionDiffOut,
  versionInfoOut,
} from '@/lib/api/skill-schemas';

export type SourceKind = (typeof SOURCE_KINDS)[number];
export type SkillStatus = (typeof SKILL_STATUSES)[number];
export type SkillList = z.output<typeof skillListOut>;
export type SkillSummary = SkillList['skills'][number];
export type SkillRootView = z.output<typeof skillRootOut>;
export type RootWarningView = z.output<typeof rootWarningOut>;
export type SkillDetailView = z.output<typeof skillDetailOut>;
export type CopyView = z.output<typeof copyOut>;
export type ShadowedCopy = SkillDetailView['shadowed'][number];
export type ManagedView = NonNullable<SkillDetailView['managed']>;
export type VersionInfo = z.output<typeof versionInfoOut>;
export type SkillEntryView = z.output<typeof skillEntryOut>;
export type SkillFileContent = z.output<typeof skillFileOut>;
export type VersionDiffView = z.output<typeof versionDiffOut>;
export type UploadRecord = z.output<typeof uploadOut>;
export type ClawhubHit = z.output<typeof clawhubHitOut>;
export type ScanFinding = z.output<typeof findingOut>;
export type ScanVerdict = SkillSummary['verdict'];
export type Highlight = z.output<typeof highlightOut>;
export type SkillDepsView = z.output<typeof depsReportOut> & { installSpecs: InstallSpecView[] };
export type InstallSpecView = { kind: string; label: string | null; bins: string[]; spec: string };
export type DepsInstallResponse = z.output<typeof depsInstallOut>;

export const STATUS_TABS = [
  { id: 'all', label: 'All' },
  { id: 'ready', label: 'Ready' },
  { id: 'needs-setup', label: 'Needs setup' },
  { id: 'disabled', label: 'Disabled' },
  { id: 'invalid', label: 'Invalid' },
  { id: 'blocked', label: 'Blocked' },
] as const;
export type StatusTab = (typeof STATUS_TABS)[number]['id'];

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

/**
 * What a finished import job holds in `result` (success) or, for a scanner block, `{blocked: true, …}`;
 * job results are not part of the job's contract (`result` is any JSON), so the view reads them defensively.
 */
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

export const skillHref = (id: string) => `/skills/${id}`;
