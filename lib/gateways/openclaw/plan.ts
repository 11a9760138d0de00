// The plan of a sync into an OpenClaw gateway: the smallest config merge patch that makes the keys
// Skilldock owns hold what it wants (every other key untouched), the paths whose arrays it shortens,
// where apiKeys go (a secrets file, or the gateway's own secret store), and the skill folders to
// write or prune. Also the diff a person reads.
import { createHash } from 'node:crypto';
import type { FolderMarker } from '../access';
import type { Desired } from '../desired';
import type { OpenClawModel } from './config-model';

export const SECRETS_PROVIDER = 'skilldock';
export const SECRETS_FILE = 'skilldock-secrets.json';

export interface OwnedKeys {
  entries: string[];
  defaults: boolean;
  /** Entries of the gateway's secret store Skilldock set: name → the value, sealed (the store never gives values back). */
  storeSecrets?: Record<string, string>;
}

/** Where a gateway's apiKeys go: a secrets file at this path on the gateway, its own secret store, or nowhere. */
export type SecretsSink = { file: string } | { store: true } | null;

/**
 * The secret-store name Skilldock gives a skill's apiKey: the store's grammar (upper case, digits,
 * `_`), the key readable in it, and a digest of the exact key so two keys never share a name.
 */
export function storeSecretName(skillKey: string): string {
  const words = skillKey
    .toUpperCase()
    .split(/[^A-Z0-9]/)
    .filter(Boolean);
  const readable = words.join('_').slice(0, 64);
  const digest = createHash('sha256').update(skillKey).digest('hex').slice(0, 8).toUpperCase();
  return `SKILLDOCK_${readable ? `${readable}_` : ''}${digest}`;
}

export interface FolderOp {
  op: 'write' | 'remove';
  name: string;
  why: string;
}

export interface SyncPlan {
  patch: Record<string, unknown>;
  replacePaths: string[];
  /** One line per changed config path: `path: before → after` (secrets masked). */
  configChanges: string[];
  folders: FolderOp[];
  /** Managed folders of the same name Skilldock did not write: left alone. */
  conflicts: string[];
  /** apiKeys to deliver (skill key → value) to the secrets file or the secret store; null when none is wanted. */
  secrets: Record<string, string> | null;
  /** The entry keys and defaults Skilldock owns after this sync. */
  owned: OwnedKeys;
  notes: string[];
}

const jsonEq = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const show = (v: unknown) => (v === undefined || v === null ? '(absent)' : JSON.stringify(v));
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A plaintext apiKey is shown as *** (a SecretRef names no secret and is shown). */
const maskKey = (v: unknown) => (typeof v === 'string' ? '***' : v);
/** An entry as the diff shows it: env values and a plaintext apiKey masked. */
function maskEntry(v: unknown): unknown {
  if (!isObj(v)) return v;
  const out: Record<string, unknown> = { ...v };
  if (isObj(v.env)) out.env = Object.fromEntries(Object.keys(v.env).map((k) => [k, '***']));
  if ('apiKey' in v) out.apiKey = maskKey(v.apiKey);
  return out;
}

/** The patch as job logs and results show it (readers of jobs see it): every skill entry's env values and plaintext apiKey masked. */
export function maskedPatch(patch: Record<string, unknown>): Record<string, unknown> {
  const skills = patch.skills;
  if (!isObj(skills) || !isObj(skills.entries)) return patch;
  const entries = Object.fromEntries(Object.entries(skills.entries).map(([k, v]) => [k, maskEntry(v)]));
  return { ...patch, skills: { ...skills, entries } };
}

/** Escapes one JSON-pointer segment. */
const pointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

function setPath(root: Record<string, unknown>, keys: string[], value: unknown) {
  let o = root;
  for (const k of keys.slice(0, -1)) {
    if (!isObj(o[k])) o[k] = {};
    o = o[k] as Record<string, unknown>;
  }
  o[keys[keys.length - 1] as string] = value;
}

function get(config: Record<string, unknown>, keys: string[]): unknown {
  let v: unknown = config;
  for (const k of keys) v = isObj(v) ? v[k] : undefined;
  return v;
}

const STORE_REF = { source: 'store', provider: 'default' };
/** How a gateway's RPC shows every SecretRef id it returns (config.get never reveals them). */
const REDACTED_ID = '__OPENCLAW_REDACTED__';

/**
 * Whether the config's apiKey of `key` is the store reference Skilldock writes. Read through the RPC
 * the id is redacted: a store reference there counts as Skilldock's when Skilldock set that key's
 * store entry (it cannot tell a hand edit that kept the source and provider but changed the id).
 */
function isOurStoreRef(ref: unknown, key: string, owned: OwnedKeys): boolean {
  if (!isObj(ref) || ref.source !== STORE_REF.source || ref.provider !== STORE_REF.provider) return false;
  const name = storeSecretName(key);
  return ref.id === name || (ref.id === REDACTED_ID && !!owned.storeSecrets && name in owned.storeSecrets);
}

export interface PlanInput {
  config: Record<string, unknown>;
  model: OpenClawModel;
  desired: Desired;
  owned: OwnedKeys;
  /** The managed folder's state: Skilldock's folders with their markers, and names it did not write. */
  folders: { ours: Map<string, FolderMarker>; foreign: Set<string> };
  /** Where apiKeys go; null when the gateway can hold them nowhere (they are then not delivered). */
  secrets: SecretsSink;
}

export function planSync(input: PlanInput): SyncPlan {
  const { config, model, desired } = input;
  const patch: Record<string, unknown> = {};
  const replacePaths: string[] = [];
  const configChanges: string[] = [];
  const notes: string[] = [];
  // `masked`: what the diff shows for both sides of a secret value; `redact`: how it shows an old value that may hold one.
  const change = (keys: string[], next: unknown, masked?: unknown, redact?: (before: unknown) => unknown) => {
    const before = get(config, keys);
    const same = next === null ? before === undefined : jsonEq(before, next);
    if (same) return;
    setPath(patch, keys, next);
    if (Array.isArray(before) && (next === null || (Array.isArray(next) && before.some((x) => !next.includes(x))))) replacePaths.push(keys.join('.'));
    const shownBefore = masked !== undefined ? '***' : redact ? redact(before) : before;
    configChanges.push(`${keys.join('.')}: ${show(shownBefore)} → ${show(masked === undefined ? next : masked)}`);
  };

  change(['agents', 'defaults', 'skills'], desired.defaults);
  const known = new Set(model.agents.map((a) => a.id));
  for (const a of desired.agents) {
    if (!a.exists) notes.push(`Agent ${a.id} is linked but no longer exists in Skilldock: its list in the gateway is left as it is.`);
    else if (!known.has(a.id)) notes.push(`Agent ${a.id} is not an agent of this gateway: add it to the gateway's config first.`);
    else change(['agents', 'entries', a.id, 'skills'], a.skills);
  }

  const secrets: Record<string, string> = {};
  for (const [key, e] of desired.entries) {
    const base = ['skills', 'entries', key];
    change([...base, 'enabled'], e.enabled);
    const now = isObj(get(config, [...base, 'env'])) ? (get(config, [...base, 'env']) as Record<string, unknown>) : {};
    for (const name of Object.keys(now)) if (!(name in e.env) && input.owned.entries.includes(key)) change([...base, 'env', name], null);
    for (const [name, value] of Object.entries(e.env)) change([...base, 'env', name], value, '***');
    const nowKey = get(config, [...base, 'apiKey']);
    if (e.apiKey === null) {
      // Only a reference Skilldock wrote is removed; a key the gateway holds itself (plain, or its own ref) stays.
      const ours = isObj(nowKey) && (nowKey.provider === SECRETS_PROVIDER || isOurStoreRef(nowKey, key, input.owned));
      if (ours) change([...base, 'apiKey'], null);
    } else if (input.secrets) {
      secrets[key] = e.apiKey;
      if ('file' in input.secrets)
        change([...base, 'apiKey'], { source: 'file', provider: SECRETS_PROVIDER, id: `/skills/${pointer(key)}/apiKey` }, undefined, maskKey);
      else if (!isOurStoreRef(nowKey, key, input.owned)) change([...base, 'apiKey'], { ...STORE_REF, id: storeSecretName(key) }, undefined, maskKey);
    } else notes.push(`The apiKey of ${key} is not delivered: this gateway's location cannot hold Skilldock's secrets file.`);
  }
  for (const key of input.owned.entries)
    if (!desired.entries.has(key) && get(config, ['skills', 'entries', key]) !== undefined) change(['skills', 'entries', key], null, undefined, maskEntry);
  const wantsSecrets = Object.keys(secrets).length > 0;
  if (wantsSecrets && input.secrets && 'file' in input.secrets)
    change(['secrets', 'providers', SECRETS_PROVIDER], { source: 'file', path: input.secrets.file, mode: 'json' });

  const folders: FolderOp[] = [];
  const conflicts: string[] = [];
  for (const [name, s] of desired.skills) {
    if (input.folders.foreign.has(name)) {
      conflicts.push(name);
      continue;
    }
    const marker = input.folders.ours.get(name);
    if (!marker) folders.push({ op: 'write', name, why: 'new' });
    else if (marker.digest !== s.copy.contentHash) folders.push({ op: 'write', name, why: 'changed' });
  }
  for (const name of input.folders.ours.keys())
    if (!desired.skills.has(name))
      folders.push({
        op: 'remove',
        name,
        why: desired.blocked.includes(name)
          ? 'blocked by the scanner'
          : desired.hidden?.includes(name)
            ? 'no linked agent may use it'
            : 'no longer in Skilldock',
      });
  for (const name of desired.blocked) notes.push(`${name} is blocked by the scanner and is never written to a gateway.`);
  if (model.problems.length) notes.push(...model.problems.map((p) => `Unreadable in the gateway's config (left alone): ${p}`));

  return {
    patch,
    replacePaths,
    configChanges,
    folders: folders.sort((a, b) => (a.name < b.name ? -1 : 1)),
    conflicts: conflicts.sort(),
    secrets: wantsSecrets ? { ...secrets } : null,
    owned: { entries: [...desired.entries.keys()].sort(), defaults: true, ...(input.owned.storeSecrets ? { storeSecrets: input.owned.storeSecrets } : {}) },
    notes,
  };
}

export const planChanges = (p: SyncPlan) => p.configChanges.length + p.folders.length;
