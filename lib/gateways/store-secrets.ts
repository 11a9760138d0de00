// apiKeys kept in a gateway's own secret store (a remote OpenClaw's shared store): which entries a
// sync sets and removes. The store never gives a value back, so Skilldock remembers each value it
// set, sealed, and sets an entry again only when the wanted value differs (or cannot be opened).
import type { SecretBox } from '../secrets/crypto';
import { type OwnedKeys, storeSecretName } from './openclaw/plan';

export interface StoreSecretsWork {
  /** Entries to set before the config names them: [name, value]. */
  set: [string, string][];
  /** Entries Skilldock set that no reference needs any more, removed after the config dropped them. */
  remove: string[];
  /** What Skilldock will have set once the work is done: name → sealed value. */
  owned: Record<string, string>;
}

const context = (name: string) => `gateway-store:${name}`;

function opened(box: SecretBox, sealed: string | undefined, name: string): string | null {
  if (!sealed) return null;
  try {
    return box.open(sealed, context(name));
  } catch {
    return null;
  }
}

/** The work that makes the store hold `wanted` (skill key → apiKey), given what Skilldock set before. */
export function storeSecretsWork(wanted: Record<string, string> | null, owned: OwnedKeys, box: SecretBox): StoreSecretsWork {
  const before = owned.storeSecrets ?? {};
  const work: StoreSecretsWork = { set: [], remove: [], owned: {} };
  for (const [key, value] of Object.entries(wanted ?? {})) {
    const name = storeSecretName(key);
    if (opened(box, before[name], name) === value) work.owned[name] = before[name] as string;
    else {
      work.set.push([name, value]);
      work.owned[name] = box.seal(value, context(name));
    }
  }
  for (const name of Object.keys(before)) if (!(name in work.owned)) work.remove.push(name);
  return work;
}
