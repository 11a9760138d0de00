/** The catalog operations behind the routes: list, detail, files, versions, rollback, removal, acknowledgement. */
import { createHash } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { skillInstalls } from '@/db/schema';
import { AppError } from '@/lib/core/errors';
import { recordAudit } from '../../audit/audit';
import type { Actor } from '../../auth/actor';
import { readContainedFile } from '../contained-read';
import type { SharedSkillStore } from '../shared/shared-store';
import { activeVersion, detectDrift, diffVersions, listVersions, readVersionFile } from '../store';
import type { SkillCopy } from '../types';
import type { CatalogSkill, SkillCatalog, SkillStatus } from './catalog';
import { acknowledgeScan, getEntryView } from './entries';
import { managedStore } from './roots';
import { copyView, countsOf, rootsView, summaryView } from './views';

export interface ListQuery {
  q?: string;
  status?: SkillStatus[];
  source?: SkillCopy['source'][];
  eligible?: boolean;
}

/**
 * The catalog's skills that the query matches. `counts` counts, per status, what the search and the
 * source and eligibility filters match, whatever the status filter, so each status tab's count is the
 * number of rows that tab shows.
 */
export async function listSkills(catalog: SkillCatalog, query: ListQuery) {
  const snap = await catalog.snapshot();
  const filtered = snap.skills.filter(
    (s) => (!query.source?.length || query.source.includes(s.copy.source)) && (query.eligible === undefined || s.gating.eligible === query.eligible),
  );
  let matched = filtered.map((s) => ({ s, score: null as number | null, terms: [] as string[], highlights: [] as unknown[] }));
  if (query.q) {
    const hits = await catalog.searchSkills(query.q, { source: query.source, eligible: query.eligible }, 200);
    const byId = new Map(filtered.map((s) => [s.id, s]));
    matched = hits.flatMap((h) => {
      const s = byId.get(h.id);
      return s ? [{ s, score: h.score, terms: h.terms, highlights: h.highlights as unknown[] }] : [];
    });
  }
  const skills = matched
    .filter(({ s }) => !query.status?.length || query.status.includes(s.status))
    .map(({ s, score, terms, highlights }) => ({ ...summaryView(s), score, terms, highlights }));
  return {
    version: snap.version,
    builtAt: snap.builtAt.toISOString(),
    target: snap.target,
    counts: countsOf(matched.map((m) => m.s)),
    roots: rootsView(snap),
    warnings: snap.warnings,
    skills,
  };
}

/** The skill whose winning copy — or one of whose shadowed copies — has this id. */
export async function findSkill(catalog: SkillCatalog, id: string): Promise<{ skill: CatalogSkill; copy: SkillCopy }> {
  const snap = await catalog.snapshot();
  for (const s of snap.skills) {
    if (s.id === id) return { skill: s, copy: s.copy };
    const c = s.shadowed.find((x) => x.id === id);
    if (c) return { skill: s, copy: c };
  }
  throw new AppError('not_found', 'No skill with this id (the catalog may have changed: reload the list).');
}

/** The managed slug of a copy in the managed root, else null. */
export const managedSlugOf = (copy: SkillCopy): string | null => (copy.source === 'managed' ? copy.relDir.split('/').pop()! : null);

function changedFiles(a: SkillCopy, b: SkillCopy) {
  const bm = new Map(b.files.map((f) => [f.path, f.sha256]));
  const am = new Map(a.files.map((f) => [f.path, f.sha256]));
  return {
    added: b.files.filter((f) => !am.has(f.path)).map((f) => f.path),
    removed: a.files.filter((f) => !bm.has(f.path)).map((f) => f.path),
    modified: a.files.filter((f) => bm.has(f.path) && bm.get(f.path) !== f.sha256).map((f) => f.path),
  };
}

export async function skillDetail(catalog: SkillCatalog, db: AppDb, dataDir: string, id: string) {
  const { skill, copy } = await findSkill(catalog, id);
  const store = managedStore(dataDir);
  const slug = managedSlugOf(skill.copy);
  const versions = slug ? await listVersions(store, slug).catch(() => []) : [];
  const active = slug ? await activeVersion(store, slug).catch(() => null) : null;
  const drift = slug && active ? await detectDrift(store, slug).catch(() => null) : null;
  const installs = slug ? await db.select().from(skillInstalls).where(eq(skillInstalls.slug, slug)).orderBy(desc(skillInstalls.installedAt)) : [];
  const m = copy.parsed.manifest;
  return {
    ...summaryView(skill),
    copy: copyView(copy),
    isWinner: copy.id === skill.id,
    manifest: m,
    diagnostics: copy.parsed.diagnostics,
    files: copy.files,
    gating: skill.gating,
    scan: skill.scan,
    ack: skill.ack ? { ...skill.ack, acknowledgedAt: skill.ack.acknowledgedAt.toISOString() } : null,
    winner: copyView(skill.copy),
    shadowed: skill.shadowed.map((c) => ({ ...copyView(c), sameContent: c.contentHash === skill.copy.contentHash, changes: changedFiles(skill.copy, c) })),
    entry: await getEntryView(db, m.skillKey),
    managed: slug
      ? {
          slug,
          active,
          versions,
          drift,
          installs: installs.map((r) => ({
            version: r.version,
            contentHash: r.contentHash,
            source: r.source,
            verdict: r.verdict,
            installedBy: r.installedBy,
            installedAt: r.installedAt.toISOString(),
            jobId: r.jobId,
            registryVerdict: r.registryVerdict,
          })),
        }
      : null,
  };
}

const MAX_VIEW = 2 * 1024 * 1024;

function fileView(rel: string, buf: Buffer) {
  const binary = buf.subarray(0, 8192).includes(0);
  return { path: rel, size: buf.length, sha256: createHash('sha256').update(buf).digest('hex'), binary, content: binary ? null : buf.toString('utf8') };
}

/** A file of a skill copy (or of a managed version) as text, contained in the skill folder. */
export async function readSkillFile(catalog: SkillCatalog, dataDir: string, id: string, rel: string, version?: string) {
  const { copy } = await findSkill(catalog, id);
  if (version) {
    const slug = managedSlugOf(copy);
    if (!slug) throw new AppError('validation', 'Versions exist only for managed skills.');
    const buf = await readVersionFile(managedStore(dataDir), slug, version, rel);
    return fileView(rel, buf);
  }
  const f = copy.files.find((x) => x.path === rel);
  if (!f) throw new AppError('not_found', `${rel} is not a file of this skill.`);
  if (f.size > MAX_VIEW) throw new AppError('validation', `${rel} is ${f.size} bytes; the viewer shows files up to 2 MiB.`);
  return fileView(rel, await readContainedFile(copy.dir, f.path, MAX_VIEW));
}

export async function rollbackSkill(catalog: SkillCatalog, db: AppDb, shared: SharedSkillStore, actor: Actor, input: { slug: string; version: string }) {
  const store = shared.store;
  const before = await shared.active(input.slug);
  if (!before) throw new AppError('not_found', `${input.slug} is not a managed skill.`);
  await shared.activate(input.slug, input.version);
  // Sandbox installs of any other content become updatable to the version the catalog serves now.
  const now = (await listVersions(store, input.slug)).find((v) => v.version === input.version);
  if (now) await shared.uses.activated(input.slug, now.contentHash);
  await recordAudit(db, actor, {
    action: 'skill.rollback',
    targetType: 'skill',
    targetId: input.slug,
    before: { version: before },
    after: { version: input.version },
  });
  await catalog.changed();
  return { slug: input.slug, version: input.version, previous: before };
}

export async function uninstallSkill(catalog: SkillCatalog, db: AppDb, shared: SharedSkillStore, actor: Actor, input: { slug: string }) {
  const before = await shared.active(input.slug);
  if (!before) throw new AppError('not_found', `${input.slug} is not a managed skill.`);
  await shared.uses.assertRemovable(input.slug);
  await shared.remove(input.slug);
  await recordAudit(db, actor, { action: 'skill.uninstall', targetType: 'skill', targetId: input.slug, before: { version: before } });
  await catalog.changed();
  return { slug: input.slug, removed: before };
}

export async function diffSkillVersions(shared: SharedSkillStore, input: { slug: string; a: string; b: string }) {
  await shared.fresh();
  return diffVersions(shared.store, input.slug, input.a, input.b);
}

export async function acknowledgeSkill(catalog: SkillCatalog, db: AppDb, actor: Actor, input: { id: string; reason: string }) {
  const { skill, copy } = await findSkill(catalog, input.id);
  // Only the winning copy is scanned and gated: acknowledging a shadowed copy would record findings it was never checked for.
  if (copy.id !== skill.id)
    throw new AppError('conflict', `This is a shadowed copy of ${skill.name}; only the winning copy (${skill.copy.source}) can be acknowledged.`, {
      details: { winnerId: skill.id },
    });
  const critical = skill.scan.findings.filter((f) => f.severity === 'critical').length;
  if (skill.scan.verdict !== 'critical' && skill.scan.verdict !== 'error')
    throw new AppError('conflict', `${skill.name} has no critical finding to acknowledge.`);
  await acknowledgeScan(db, actor, { contentHash: copy.contentHash, reason: input.reason, skill: skill.name, findings: critical });
  await catalog.changed();
  return { id: skill.id, contentHash: copy.contentHash, acknowledged: true };
}
