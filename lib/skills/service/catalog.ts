/**
 * The live skill catalog of this process: discovery over the six roots, scanner verdicts (memoised
 * by content hash), gating against the target runtime, status and search. Rebuilt when an import
 * lands, and re-gated when packages or config entries change, so no result goes stale; a change the
 * watcher sees inside a skill folder reloads that folder only. Every build reuses what kept its stat
 * identity, and the search index follows each snapshot by document. `version` grows with every change.
 */
import type { AppDb } from '@/db/client';
import { publishChange } from '../../cluster/invalidation';
import { logger } from '../../core/logger';
import { runtimeLayout } from '../../runtime/dir';
import type { SkillsSettings } from '../../settings/skills-settings';
import { getSkillsSettings } from '../../settings/store';
import { CopyCache, type SkillRootsWatcher, type WatchMark, watchSkillRoots } from '../catalog';
import { createHostTarget } from '../gating';
import { createSkillSearch } from '../search';
import type { GatingTarget, MetadataKey, RootWarning, ScanResult } from '../types';
import { type BuildInput, type BuiltCatalog, buildCatalog, type CatalogSkill, searchDocs, updateCatalog } from './build';
import { loadAcks, loadEntryConfigs } from './entries';
import { type ResolvedRoot, resolveRoots } from './roots';
import { loadScanResults, saveScanResults } from './scan-store';

export type { CatalogSkill, SkillStatus } from './build';

export interface CatalogSnapshot {
  version: number;
  builtAt: Date;
  roots: ResolvedRoot[];
  warnings: RootWarning[];
  skills: CatalogSkill[];
  target: { id: string; label: string; platform: string };
  /** The metadata blocks SKILL.md was read with (the skills setting): other readers of a SKILL.md use the same. */
  metadataKeys?: readonly MetadataKey[];
}

export interface CatalogDeps {
  db: AppDb;
  dataDir: string;
  runtimeDir: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
  /** How recent a file's times may be for its stat identity not to be trusted (CopyCache; default 3 s). */
  racyMs?: number;
  /**
   * A snapshot is rebuilt after this long even when no change was heard of (default 10 s): the
   * bound on serving a change another replica announced in a notice this one lost.
   */
  maxAgeMs?: number;
  /**
   * Runs before each full build: brings what the roots are built from up to date (the shared skill
   * store), answering whether it changed anything, in which case every file is looked at again.
   */
  beforeBuild?: () => Promise<boolean>;
}

export const CATALOG_MAX_AGE_MS = 10_000;

export class SkillCatalog {
  private current: CatalogSnapshot | null = null;
  private building: Promise<CatalogSnapshot> | null = null;
  private dirty = true;
  /** Something other than files inside known skill folders changed: discover everything again. */
  private full = true;
  /** Paths the watcher reported since the last build. */
  private changedPaths: string[] = [];
  private built: BuiltCatalog | null = null;
  private lastInput: BuildInput | null = null;
  private roots: ResolvedRoot[] = [];
  private copies: CopyCache;
  /** The metadataKeys setting the kept copies were parsed with: another order parses every SKILL.md again. */
  private parsedWith = '';
  private readonly keyOwners = new Map<string, string>();
  /** The search index brought to the latest snapshot; queries wait for it. */
  private searchSynced: Promise<void> = Promise.resolve();
  private version = 0;
  private readonly scans = new Map<string, ScanResult>();
  private readonly search = createSkillSearch();
  private readonly target: GatingTarget & { invalidate(): void };
  private watcher: SkillRootsWatcher | null = null;
  /** The watcher's mark taken as the last full build began; null after a failed build. */
  private watchMark: WatchMark | null = null;
  /** The next full build stats every file whatever the watcher says (an explicit refresh). */
  private statAll = true;
  /** Full builds done, and those that took the watcher's word for the roots (diagnostics, tests). */
  readonly builds = { full: 0, quiet: 0 };
  private watchedKey = '';
  private scansLoaded = false;
  private readonly persisted = new Set<string>();

  constructor(private readonly deps: CatalogDeps) {
    this.copies = new CopyCache({ racyMs: deps.racyMs });
    const layout = runtimeLayout(deps.runtimeDir);
    this.target = createHostTarget({ extraDirs: [layout.npmBin, layout.pipBin, layout.bin], env: deps.env ?? process.env });
  }

  /** The current snapshot, rebuilt first when something changed. */
  async snapshot(): Promise<CatalogSnapshot> {
    // A build in flight may have read the roots before the latest change: wait for it, and build
    // again while something changed meanwhile, so no caller gets a snapshot older than its call.
    for (let round = 0; round < 4; round++) {
      if (this.building) {
        const snap = await this.building;
        if (!this.dirty) return snap;
        continue;
      }
      if (!this.dirty && this.current) {
        if (Date.now() - this.current.builtAt.getTime() < (this.deps.maxAgeMs ?? CATALOG_MAX_AGE_MS)) return this.current;
        this.invalidate();
      }
      this.building = this.rebuild().finally(() => (this.building = null));
    }
    return this.building ?? this.current!;
  }

  /** Rediscover everything (roots changed, an import landed, settings changed). */
  invalidate(): void {
    this.dirty = true;
    this.full = true;
  }

  /** A write changed what the catalog is built from: rediscover here, and tell every other replica. */
  async changed(): Promise<void> {
    this.invalidate();
    await publishChange(this.deps.db, 'skills');
  }

  /** Files changed under the roots (the watcher): folders of known skills are reloaded alone. */
  pathsChanged(paths: readonly string[]): void {
    this.changedPaths.push(...paths);
    this.dirty = true;
  }

  /**
   * Packages changed on the target: bins must be looked up again (never a stale "missing"). Called
   * by the package runtime (installs in this process, before their job ends) and for jobs that
   * ended on other replicas.
   */
  packagesChanged(): void {
    this.target.invalidate();
    this.invalidate();
  }

  async refresh(): Promise<CatalogSnapshot> {
    this.statAll = true;
    this.invalidate();
    await this.building?.catch(() => undefined);
    return this.snapshot();
  }

  /** Once per process: the verdicts a previous run stored (a restart does not rescan every skill). */
  private async loadStoredScans(): Promise<void> {
    if (this.scansLoaded) return;
    for (const [hash, result] of await loadScanResults(this.deps.db)) {
      if (!this.scans.has(hash)) this.scans.set(hash, result);
      this.persisted.add(hash);
    }
    this.scansLoaded = true;
  }

  private async storeNewScans(): Promise<void> {
    const fresh = [...this.scans].filter(([hash]) => !this.persisted.has(hash));
    if (!fresh.length) return;
    try {
      await saveScanResults(this.deps.db, fresh);
      for (const [hash] of fresh) this.persisted.add(hash);
    } catch (e) {
      logger.warn('scanner verdicts could not be stored; they will be computed again after a restart', { error: String(e) });
    }
  }

  private async rebuild(): Promise<CatalogSnapshot> {
    this.dirty = false;
    const paths = this.changedPaths;
    this.changedPaths = [];
    const full = this.full;
    this.full = false;
    try {
      const prev = this.built;
      const input = this.lastInput;
      const partial = !full && prev && input ? await updateCatalog(prev, paths, input) : null;
      const built = partial ?? (await this.buildAll());
      return this.publish(built);
    } catch (e) {
      this.full = true;
      this.watchMark = null; // the caches may hold a half-done round
      throw e;
    }
  }

  private async buildAll(): Promise<BuiltCatalog> {
    const settings = await getSkillsSettings(this.deps.db);
    const roots = resolveRoots(settings, this.deps.dataDir, this.deps.home);
    if (await this.syncBeforeBuild()) this.statAll = true;
    this.ensureWatcher(settings, roots);
    // While the watcher saw nothing since the last full build began, the files it covers are as that build left them.
    const watcher = this.watcher;
    await watcher?.settle();
    const quiet = !this.statAll && !!watcher?.quietSince(this.watchMark);
    this.builds.full++;
    if (quiet) this.builds.quiet++;
    const mark = watcher?.mark() ?? null;
    this.statAll = false;
    this.watchMark = null;
    const parsedWith = settings.metadataKeys.join(',');
    if (parsedWith !== this.parsedWith) {
      if (this.parsedWith) {
        this.copies = new CopyCache({ racyMs: this.deps.racyMs });
        this.built = null;
      }
      this.parsedWith = parsedWith;
    }
    const [entries, acks] = await Promise.all([loadEntryConfigs(this.deps.db), loadAcks(this.deps.db), this.loadStoredScans()]);
    const input: BuildInput = {
      roots,
      discover: {
        allowSymlinkTargets: settings.allowSymlinkTargets,
        maxCandidatesPerRoot: settings.maxCandidatesPerRoot,
        maxSkillFileBytes: settings.maxSkillFileBytes,
        groupDepth: 1,
      },
      metadataKeys: settings.metadataKeys,
      allowBundled: settings.allowBundled ?? undefined,
      config: settings.config,
      entries,
      acks,
      target: this.target,
      scans: this.scans,
      cache: this.copies,
      quietRoots: quiet ? new Set(roots.map((r) => r.path)) : undefined,
      keyOwners: this.keyOwners,
    };
    const built = await buildCatalog(input, this.built);
    this.watchMark = mark;
    this.lastInput = input;
    this.roots = roots;
    return built;
  }

  private async publish(built: BuiltCatalog): Promise<CatalogSnapshot> {
    this.built = built;
    await this.storeNewScans();
    this.version += 1;
    this.current = {
      version: this.version,
      builtAt: new Date(),
      roots: this.roots,
      warnings: built.warnings,
      skills: built.skills,
      target: { id: this.target.id, label: this.target.label, platform: this.target.platform },
      metadataKeys: this.lastInput?.metadataKeys,
    };
    const docs = searchDocs(built.skills);
    // One sync after the other, each from the snapshot it was made for.
    this.searchSynced = this.searchSynced
      .then(() => this.search.sync(docs))
      .catch((e) => logger.warn('skill search index update failed', { error: String(e) }));
    return this.current;
  }

  private async syncBeforeBuild(): Promise<boolean> {
    try {
      return (await this.deps.beforeBuild?.()) ?? false;
    } catch (e) {
      // the build goes on from what this replica has; the next build tries again
      logger.warn('the skill store could not be brought up to date before a catalog build', { error: String(e) });
      return false;
    }
  }

  private ensureWatcher(settings: SkillsSettings, roots: ResolvedRoot[]): void {
    const key = settings.watch ? `${settings.watchDebounceMs}|${roots.map((r) => r.path).join('|')}` : '';
    if (key === this.watchedKey) return;
    this.watchedKey = key;
    const old = this.watcher;
    this.watcher = null;
    void old?.close();
    if (!key) return;
    try {
      const watcher = watchSkillRoots(
        roots.map((r) => r.path),
        {
          debounceMs: settings.watchDebounceMs,
          onChange: (paths) => this.pathsChanged(paths),
          onError: (e) => logger.warn('skill watcher error', { error: String(e) }),
        },
      );
      this.watcher = watcher;
      // Changes made while the watcher's initial scan ran produce no event: rediscover once it is ready.
      watcher.ready.then(
        () => {
          if (this.watcher === watcher) this.invalidate();
        },
        () => undefined,
      );
    } catch (e) {
      logger.warn('skill watcher could not start; changes are picked up on refresh', { error: String(e) });
    }
  }

  /** Resolves once the watcher started by the last full build has done its initial scan (at once without one). */
  async watching(): Promise<void> {
    await this.watcher?.ready;
  }

  /** Searches the current snapshot, once the index has caught up with it. */
  async searchSkills(query: string, filters: Parameters<ReturnType<typeof createSkillSearch>['search']>[1], limit?: number) {
    await this.searchSynced;
    return this.search.search(query, filters, limit);
  }

  async close(): Promise<void> {
    await this.watcher?.close();
    this.watcher = null;
  }
}
