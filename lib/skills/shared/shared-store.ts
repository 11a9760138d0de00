/**
 * The managed skill store shared by every replica: the database holds each slug's versions (their
 * folders as content-addressed blobs), which is active and whether it is pinned; each replica's
 * store folder is a cache of that, rebuilt at boot and brought up to date whenever the rows changed.
 * Every write takes the slug's database lock, brings this replica's copy up to date, changes it
 * here and records the change (which tells the other replicas).
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '@/db/client';
import { AppError, isAppError } from '@/lib/core/errors';
import { type BlobStore, DbBlobStore } from '../../cluster/blob-store';
import { TMP_PREFIX } from '../../core/atomic-fs';
import { lockKeyOf } from '../../core/lock-key';
import { logger } from '../../core/logger';
import { type ManagedStore, managedStore } from '../service/roots';
import {
  activateVersion,
  type ClawhubLockEntry,
  type InstalledVersion,
  type InstallVersionInput,
  installVersion,
  readLock,
  removeSkill,
  setPinned,
  validateSlug,
} from '../store';
import { withKeyLock } from '../store/key-lock';
import { findVersion, readManifest, SLUG_RE } from '../store/manifest';
import { packVersion } from '../store/version-pack';
import { migrateLocalStore } from './migrate';
import { deleteUnusedBlobs, readRows, recordActive, recordInstall, recordPinned, recordRemoval, storeGeneration } from './rows';
import { inSync, syncSlug } from './sync';

/**
 * What other domains hold of a managed skill (a sandbox config's installs), given to the store by
 * the composition root: told when a version becomes the active one, asked before a skill is removed.
 */
export interface SkillUses {
  activated(slug: string, contentHash: string): Promise<unknown>;
  assertRemovable(slug: string): Promise<void>;
}

export interface SharedStoreDeps {
  database: Pick<Database, 'db' | 'withLock'>;
  dataDir: string;
  blobs?: BlobStore;
  uses: SkillUses;
}

export interface SyncReport {
  changed: string[];
  failed: { slug: string; version?: string; error: string }[];
}

/** Advisory lock of the boot migration (uploading a store that predates the shared one). */
const MIGRATION_LOCK = lockKeyOf('skill-store:migrate');

export class SharedSkillStore {
  readonly store: ManagedStore;
  readonly blobs: BlobStore;
  /** The rows' generation this replica's store last matched (null: not yet, or a slug failed). */
  private applied: string | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private pending: Promise<boolean> | null = null;
  private lastFailures = '[]';
  private closed = false;

  constructor(private readonly deps: SharedStoreDeps) {
    this.store = managedStore(deps.dataDir);
    this.blobs = deps.blobs ?? new DbBlobStore(deps.database.db);
  }

  get dataDir(): string {
    return this.deps.dataDir;
  }

  get uses(): SkillUses {
    return this.deps.uses;
  }

  /** This replica's changes of one slug never interleave with each other or with a sync of it. */
  private local<T>(slug: string, fn: () => Promise<T>): Promise<T> {
    return withKeyLock(`shared-store\0${path.resolve(this.store.storeDir)}\0${slug}`, fn);
  }

  /** The slug for every replica (database lock), then for this process. */
  private locked<T>(slug: string, fn: () => Promise<T>): Promise<T> {
    return this.deps.database.withLock(lockKeyOf(`skill-store:${slug}`), () => this.local(slug, fn));
  }

  /**
   * Brings the slug to the database's record; inside `local`. A change made on top of a copy that
   * lacks a recorded version could reuse its number: `strict` refuses it.
   */
  private async apply(slug: string, strict = true): Promise<void> {
    const rows = await readRows(this.deps.database.db, slug);
    const r = await syncSlug(this.store, this.blobs, slug, rows.slugs.get(slug) ?? null, rows.versions.get(slug) ?? []);
    if (!r.failed.length) return;
    logger.warn('skill store: versions could not be brought from the database', { slug, failed: r.failed });
    if (strict)
      throw new AppError(
        'conflict',
        `This replica could not bring ${slug} from the database (${r.failed.map((f) => `${f.version}: ${f.error}`).join('; ')}); remove the skill and import it again.`,
        { details: { slug, failed: r.failed } },
      );
  }

  /** Restores this replica's copy of the slug after a change the database did not take. */
  private async undo(slug: string, e: unknown): Promise<never> {
    await this.apply(slug, false).catch((err) => logger.warn('skill store: could not restore a slug after a failed write', { slug, error: String(err) }));
    throw isAppError(e) ? e : new AppError('internal', `Recording the change of ${slug} in the database failed: ${(e as Error).message}`, { cause: e });
  }

  async install(input: InstallVersionInput): Promise<InstalledVersion> {
    const slug = validateSlug(input.slug);
    return this.locked(slug, async () => {
      await this.apply(slug);
      const installed = await installVersion(this.store, input);
      if (installed.unchanged) return installed;
      try {
        const record = findVersion(await readManifest(this.store.storeDir, slug), installed.version);
        if (!record) throw new AppError('internal', `The manifest of ${slug} lost ${installed.version}.`);
        const blob = await this.blobs.put(await packVersion(installed.dir));
        await recordInstall(this.deps.database.db, {
          slug,
          version: installed.version,
          contentHash: installed.contentHash,
          blobSha256: blob.sha256,
          blobSize: blob.size,
          record,
        });
      } catch (e) {
        return this.undo(slug, e);
      }
      return installed;
    });
  }

  /** Makes a stored version the active one (rollback or roll forward) on every replica. */
  async activate(slug: string, version: string): Promise<{ version: string; previous: string | null; lockEntry: ClawhubLockEntry }> {
    validateSlug(slug);
    return this.locked(slug, async () => {
      await this.apply(slug);
      const out = await activateVersion(this.store, slug, version);
      try {
        await recordActive(this.deps.database.db, slug, version);
      } catch (e) {
        return this.undo(slug, e);
      }
      return out;
    });
  }

  async setPinned(slug: string, pinned: boolean, reason?: string): Promise<ClawhubLockEntry> {
    validateSlug(slug);
    return this.locked(slug, async () => {
      await this.apply(slug);
      const entry = await setPinned(this.store, slug, pinned, reason);
      try {
        await recordPinned(this.deps.database.db, slug, pinned, reason ?? null);
      } catch (e) {
        return this.undo(slug, e);
      }
      return entry;
    });
  }

  /** Removes the skill everywhere: its rows (the slug's row stays as a tombstone), its blobs no one else names, this replica's copy. */
  async remove(slug: string): Promise<{ removedVersions: string[] }> {
    validateSlug(slug);
    return this.locked(slug, async () => {
      await this.apply(slug, false);
      const rows = await readRows(this.deps.database.db, slug);
      const row = rows.slugs.get(slug);
      const recorded = (rows.versions.get(slug) ?? []).map((v) => v.version);
      if (!row || row.removed) throw new AppError('not_found', `Skill ${slug} is not installed in the managed store.`, { details: { slug } });
      const shas = await recordRemoval(this.deps.database.db, slug);
      await removeSkill(this.store, slug).catch((e) => {
        if (!(isAppError(e) && e.code === 'not_found')) throw e;
      });
      await deleteUnusedBlobs(this.deps.database.db, this.blobs, shas).catch((e) =>
        logger.warn('skill store: blobs of a removed skill stay until the next removal', { slug, error: String(e) }),
      );
      return { removedVersions: recorded };
    });
  }

  /**
   * Brings this replica's store up to date when the rows changed since it last matched them (one
   * small query when nothing did). Checks run one at a time; a call made during one waits for the next.
   * Answers whether the store changed.
   */
  fresh(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (this.pending) return this.pending;
    const p: Promise<boolean> = this.tail.then(() => {
      if (this.pending === p) this.pending = null;
      return this.check();
    });
    this.pending = p;
    this.tail = p.catch(() => undefined);
    return p;
  }

  private async check(): Promise<boolean> {
    const generation = await storeGeneration(this.deps.database.db);
    if (generation === this.applied) return false;
    const report = await this.syncAll();
    this.applied = report.failed.length ? null : generation;
    this.reportFailures(report);
    return report.changed.length > 0;
  }

  /** Failures are retried at every check; each is logged when it first appears. */
  private reportFailures(report: SyncReport): void {
    const key = JSON.stringify(report.failed);
    if (report.failed.length && key !== this.lastFailures)
      logger.warn('skill store: some skills could not be brought from the database; this replica serves them as they were', { failed: report.failed });
    this.lastFailures = key;
  }

  /** Applies every slug's record to this replica's store. */
  async syncAll(): Promise<SyncReport> {
    const report: SyncReport = { changed: [], failed: [] };
    const rows = await readRows(this.deps.database.db);
    const names = await fsp.readdir(this.store.storeDir).catch(() => [] as string[]);
    const local = names.filter((n) => !n.startsWith(TMP_PREFIX) && n.length <= 64 && SLUG_RE.test(n));
    const lock = await readLock(this.store.managedRoot);
    for (const slug of new Set([...rows.slugs.keys(), ...local])) {
      try {
        await this.local(slug, async () => {
          const row = rows.slugs.get(slug) ?? null;
          if (await inSync(this.store, slug, row, rows.versions.get(slug) ?? [], lock)) return;
          // The rows read above may predate a write this process finished meanwhile: read them again under the lock.
          const now = await readRows(this.deps.database.db, slug);
          const r = await syncSlug(this.store, this.blobs, slug, now.slugs.get(slug) ?? null, now.versions.get(slug) ?? []);
          if (r.changed) report.changed.push(slug);
          for (const f of r.failed) report.failed.push({ slug, ...f });
        });
      } catch (e) {
        report.failed.push({ slug, error: e instanceof Error ? e.message : String(e) });
      }
    }
    return report;
  }

  /**
   * At boot: a store that predates the shared one is recorded (under a lock every replica respects,
   * so two replicas never both upload), then this replica's store is brought to the database's record.
   */
  async boot(): Promise<SyncReport> {
    await this.deps.database.withLock(MIGRATION_LOCK, () =>
      migrateLocalStore({ store: this.store, blobs: this.blobs, db: this.deps.database.db, locked: (slug, fn) => this.locked(slug, fn) }),
    );
    const report = await this.syncAll();
    this.reportFailures(report);
    return report;
  }

  /** No check starts after this; resolves once the running one ended (before the database closes). */
  async close(): Promise<void> {
    this.closed = true;
    await this.tail;
  }

  /** The active version the database records for every replica (null: not installed, or removed). */
  async active(slug: string): Promise<string | null> {
    validateSlug(slug);
    const row = (await readRows(this.deps.database.db, slug)).slugs.get(slug);
    return row && !row.removed ? row.active : null;
  }
}
