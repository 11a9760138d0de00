// One sync of Skilldock into a gateway: read its config, plan, then write skill folders, the
// secrets file (or the gateway's secret store) and one config patch named by the hash it read. A
// config the gateway changed in between is read again and planned again, never overwritten. A
// read-only gateway gets the patch to apply through its deployment system instead.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { AppError } from '../core/errors';
import type { SecretBox } from '../secrets/crypto';
import { readContainedFile } from '../skills/contained-read';
import type { CatalogSkill } from '../skills/service/build';
import { ConfigChangedError, type GatewayAccess, type GatewayConfigRead, type SecretsFile, type SkillFolder } from './access';
import { type Desired, type DesiredDeps, desiredState } from './desired';
import { readOpenClawModel } from './openclaw/config-model';
import { maskedPatch, type OwnedKeys, planChanges, planSync, type SecretsSink, type SyncPlan } from './openclaw/plan';
import { storeSecretsWork } from './store-secrets';

export interface SyncTarget {
  access: GatewayAccess;
  agentIds: string[];
  owned: OwnedKeys;
  /** For `~` and default workspaces in the gateway's config. */
  stateDir: string;
  home: string;
  /** The secrets file on the gateway and how to read and write it; null when the location cannot hold one. */
  secrets: SecretsFile | null;
  /** Config writes go through the gateway's CLI, which drops JSON5 comments and migrates legacy keys. */
  writesViaCli: boolean;
  /** Seals what Skilldock set in a gateway's secret store (needed for a location with a store and no file). */
  box?: SecretBox;
}

/** The gateway's secret store and the key that seals what Skilldock set there, when apiKeys go there (no secrets file). */
function storeOf(t: SyncTarget) {
  return !t.secrets && t.access.secretStore && t.box ? { api: t.access.secretStore, box: t.box } : null;
}

/** Where this target's apiKeys go: the secrets file, else the gateway's secret store, else nowhere. */
export function secretsSinkOf(t: SyncTarget): SecretsSink {
  if (t.secrets) return { file: t.secrets.path };
  return storeOf(t) ? { store: true } : null;
}

export interface SyncOutcome {
  plan: SyncPlan;
  /** The config as read (for the hash) — the plan was made from it. */
  baseHash: string;
  written: boolean;
  readOnly: boolean;
  /** The patch as JSON5-compatible JSON, for a read-only gateway's deployment system (values in; an admin's dry run only). */
  patchText: string;
  /** The same with env values and plaintext keys masked: what job logs and results show. */
  maskedPatchText: string;
  changes: number;
  secretsChanged: boolean;
}

const MAX_SKILL_FILE = 16 * 1024 * 1024;
const MAX_REPLANS = 3;

/** The folder Skilldock puts into a gateway for one catalog skill, read and checked against the catalog's hashes. */
export async function skillFolderOf(s: CatalogSkill): Promise<SkillFolder> {
  const files: SkillFolder['files'] = [];
  for (const f of s.copy.files) {
    const data = await readContainedFile(s.copy.dir, f.path, MAX_SKILL_FILE);
    if (createHash('sha256').update(data).digest('hex') !== f.sha256)
      throw new AppError('conflict', `${s.name}/${f.path} changed since the catalog read it; the next sync writes the new version.`);
    files.push({ path: f.path, mode: f.mode & 0o777, data });
  }
  return { name: s.name, digest: s.copy.contentHash, files };
}

const secretsText = (secrets: Record<string, string>) =>
  `${JSON.stringify({ skills: Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k, { apiKey: v }])) }, null, 2)}\n`;
const NO_SECRETS = secretsText({});

export function commentNote(read: GatewayConfigRead, viaCli: boolean): string | null {
  if (!viaCli || read.raw === null) return null;
  return /\/\/|\/\*/.test(read.raw)
    ? "The gateway's CLI writes this change: it drops the config file's JSON5 comments and migrates legacy keys (OpenClaw's own behaviour)."
    : null;
}

export async function planFor(deps: DesiredDeps, t: SyncTarget): Promise<{ read: GatewayConfigRead; desired: Desired; plan: SyncPlan }> {
  const places = t.access.placesSkills !== false;
  const [read, desired, folders] = await Promise.all([
    t.access.readConfig(),
    desiredState(deps, t.agentIds),
    places ? t.access.managedFolders() : { ours: new Map(), foreign: new Set<string>() },
  ]);
  const model = readOpenClawModel(read.value, { stateDir: t.stateDir, home: t.home });
  // A location that cannot place folders gets the config alone: plan as if no skill were wanted there.
  const wanted = places ? desired : { ...desired, skills: new Map(), blocked: [] };
  const plan = planSync({ config: read.value, model, desired: wanted, owned: t.owned, folders, secrets: secretsSinkOf(t) });
  if (!places && desired.skills.size)
    plan.notes.push(
      `${desired.skills.size} managed skill(s) are not written: this gateway is reached through its RPC, which cannot place skill folders. Install them on the gateway host, or connect its state folder (local or Docker).`,
    );
  const note = commentNote(read, t.writesViaCli);
  if (note && Object.keys(plan.patch).length) plan.notes.unshift(note);
  return { read, desired, plan };
}

export async function runSync(
  deps: DesiredDeps,
  t: SyncTarget,
  opts: { dryRun?: boolean; log?: (line: string) => void; signal?: AbortSignal } = {},
): Promise<SyncOutcome> {
  const log = opts.log ?? (() => {});
  for (let attempt = 1; ; attempt++) {
    const { read, desired, plan } = await planFor(deps, t);
    const now = t.secrets ? await t.secrets.read() : null;
    // No key wanted any more: a file that still holds keys is emptied (after the config drops its refs).
    const clearing = !plan.secrets && now !== null && now !== NO_SECRETS;
    const wanted = plan.secrets ? secretsText(plan.secrets) : clearing ? NO_SECRETS : null;
    const sink = storeOf(t);
    const store = sink ? { api: sink.api, work: storeSecretsWork(plan.secrets, t.owned, sink.box) } : null;
    const storeChanges = store ? store.work.set.length + store.work.remove.length : 0;
    const secretsChanged = !!(t.secrets && wanted !== null && now !== wanted) || storeChanges > 0;
    const outcome: SyncOutcome = {
      plan,
      baseHash: read.hash,
      written: false,
      readOnly: !read.writable,
      patchText: JSON.stringify(plan.patch, null, 2),
      maskedPatchText: JSON.stringify(maskedPatch(plan.patch), null, 2),
      changes: planChanges(plan) + (t.secrets && secretsChanged ? 1 : 0) + storeChanges,
      secretsChanged,
    };
    if (store) plan.owned.storeSecrets = store.work.owned;
    if (opts.dryRun) return outcome;
    for (const c of plan.conflicts) log(`conflict: ${c} exists in the managed folder and was not written by Skilldock; left alone`);
    for (const n of plan.notes) log(`note: ${n}`);
    for (const f of plan.folders.filter((x) => x.op === 'write')) {
      opts.signal?.throwIfAborted();
      await t.access.putSkill(await skillFolderOf(desired.skills.get(f.name) as CatalogSkill));
      log(`wrote skill ${f.name} (${f.why})`);
    }
    const writeSecrets = async () => {
      if (!secretsChanged || !t.secrets || wanted === null) return;
      await t.secrets.write(wanted);
      log(`${clearing ? 'emptied' : 'wrote'} the secrets file ${path.basename(t.secrets.path)} (mode 0600)`);
    };
    if (!clearing) await writeSecrets();
    // Values first, so the references the patch adds resolve as soon as the gateway reloads.
    for (const [name, value] of store?.work.set ?? []) {
      await store?.api.set(name, value);
      log(`stored an apiKey in the gateway's secret store as ${name}`);
    }
    if (Object.keys(plan.patch).length) {
      if (!read.writable) {
        log('the gateway forbids config writes (OPENCLAW_CONFIG_READONLY=1): apply this patch through your deployment system');
        log('(env values and keys show as ***: an admin gets the patch with its values from POST /api/v1/gateways/{id}/sync?dryRun=true):');
        for (const l of outcome.maskedPatchText.split('\n')) log(l);
      } else {
        try {
          await t.access.patchConfig(plan.patch, read.hash, plan.replacePaths);
        } catch (e) {
          if (e instanceof ConfigChangedError && attempt < MAX_REPLANS) {
            log('the gateway config changed after it was read: reading it again and planning again');
            continue;
          }
          if (e instanceof ConfigChangedError)
            throw new AppError(
              'conflict',
              `The gateway's config kept changing while Skilldock wrote it (${MAX_REPLANS} tries); nothing of the config was overwritten.`,
            );
          throw e;
        }
        for (const c of plan.configChanges) log(`config ${c}`);
      }
    }
    // A read-only gateway keeps its refs until the operator applies the patch: the keys stay until then.
    const refsGone = read.writable || !Object.keys(plan.patch).length;
    if (clearing && refsGone) await writeSecrets();
    for (const name of store?.work.remove ?? []) {
      const previous = t.owned.storeSecrets?.[name];
      // Kept (and still owned) until the operator applies the patch that drops its reference.
      if (!refsGone && previous && store) store.work.owned[name] = previous;
      else {
        await store?.api.remove(name);
        log(`removed ${name} from the gateway's secret store`);
      }
    }
    for (const f of plan.folders.filter((x) => x.op === 'remove')) {
      await t.access.removeSkill(f.name);
      log(`removed skill ${f.name} (${f.why})`);
    }
    outcome.written = true;
    return outcome;
  }
}
