/**
 * Shapes the ClawHub client returns, and defensive readers that turn the registry's JSON (whose
 * fields vary between API revisions) into them. Nothing here trusts a field's type.
 */

export interface ClawhubDiscovery {
  apiBase: string;
  authBase?: string;
  minCliVersion?: string;
  registry?: string;
  /** False when the registry demands a newer client than `clientVersion`. */
  supported: boolean;
}

export interface ClawhubSearchHit {
  slug: string;
  displayName: string;
  summary: string | null;
  version: string | null;
  score: number;
  updatedAt: number | null;
  ownerHandle: string | null;
}

export interface ClawhubModeration {
  verdict: string;
  reasonCodes: string[];
  isMalwareBlocked: boolean;
  isSuspicious: boolean;
  evidence: unknown[];
}

export interface ClawhubSkill {
  slug: string;
  displayName: string;
  summary: string | null;
  latestVersion: string | null;
  ownerHandle: string | null;
  moderation: ClawhubModeration | null;
}

export interface ClawhubVersion {
  version: string;
  createdAt: number | null;
  changelog: string | null;
}

export interface ClawhubGithubSource {
  repo: string;
  path: string;
  commit: string;
  contentHash: string;
  sourceUrl: string;
}

export type ClawhubInstallPlan =
  | { installKind: 'archive'; slug: string; ownerHandle?: string; version: string; downloadUrl: string | null }
  | { installKind: 'github'; slug: string; ownerHandle?: string; version: string | null; github: ClawhubGithubSource };

export interface ClawhubVerdict {
  /** The registry's verify decision ("pass" / "fail"). */
  ok: boolean;
  decision: string;
  /** clean | suspicious | malicious | pending | unknown. */
  verdict: string;
  /** Moderation reason codes and verify reasons together, e.g. "malicious.exfiltration". */
  reasonCodes: string[];
  isMalwareBlocked: boolean;
  securityStatus: string | null;
}

export interface ClawhubHashResolution {
  match: { version: string } | null;
  latestVersion: { version: string } | null;
}

export interface ClawhubDownload {
  bytes: number;
  sha256: string;
  contentType: string;
}

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** `{moderation:{…}}` (API) or the flat `{verdict, reasonCodes, evidence}` (spec) form. */
export function readModeration(raw: unknown): ClawhubModeration | null {
  const outer = obj(raw);
  if ('moderation' in outer && !outer.moderation) return null;
  const m = 'moderation' in outer ? obj(outer.moderation) : outer;
  if (Object.keys(m).length === 0) return null;
  const verdict = str(m.verdict) ?? (m.isMalwareBlocked === true ? 'malicious' : m.isSuspicious === true ? 'suspicious' : 'clean');
  return {
    verdict,
    reasonCodes: strings(m.reasonCodes),
    isMalwareBlocked: m.isMalwareBlocked === true || verdict === 'malicious',
    isSuspicious: m.isSuspicious === true || verdict === 'suspicious',
    evidence: Array.isArray(m.evidence) ? m.evidence : [],
  };
}

export function readSearchHit(raw: unknown): ClawhubSearchHit | null {
  const r = obj(raw);
  const slug = str(r.slug);
  if (!slug) return null;
  return {
    slug,
    displayName: str(r.displayName) ?? slug,
    summary: str(r.summary),
    version: str(r.version),
    score: num(r.score) ?? 0,
    updatedAt: num(r.updatedAt),
    ownerHandle: str(r.ownerHandle) ?? str(obj(r.owner).handle),
  };
}

export function readSkill(raw: unknown, slug: string): ClawhubSkill {
  const r = obj(raw);
  const skill = obj(r.skill);
  const latest = r.latestVersion;
  return {
    slug: str(skill.slug) ?? slug,
    displayName: str(skill.displayName) ?? slug,
    summary: str(skill.summary),
    latestVersion: typeof latest === 'string' ? latest : str(obj(latest).version),
    ownerHandle: str(obj(r.owner).handle) ?? str(r.ownerHandle),
    moderation: r.moderation ? readModeration({ moderation: r.moderation }) : null,
  };
}

export function readVersion(raw: unknown): ClawhubVersion | null {
  const r = obj(raw);
  const version = str(r.version);
  return version ? { version, createdAt: num(r.createdAt), changelog: str(r.changelog) } : null;
}

/** `/.well-known/clawhub.json`. */
export function readDiscovery(raw: unknown, fallbackBase: string): Omit<ClawhubDiscovery, 'supported'> {
  const r = obj(raw);
  return {
    apiBase: str(r.apiBase) ?? fallbackBase,
    ...(str(r.authBase) ? { authBase: str(r.authBase)! } : {}),
    ...(str(r.minCliVersion) ? { minCliVersion: str(r.minCliVersion)! } : {}),
    ...(str(r.registry) ? { registry: str(r.registry)! } : {}),
  };
}
