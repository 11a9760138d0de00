// A sandbox config's network policy at rest: the normalised policy in `network_policy` with its
// secrets blanked, the secrets sealed apart (keyed by rule name, so reordering keeps them), every
// change audited with the secrets masked.
import { eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxConfigs } from '@/db/schema';
import { recordAudit } from '../audit/audit';
import type { Actor } from '../auth/actor';
import { AppError } from '../core/errors';
import type { SecretBox } from '../secrets/crypto';
import { storedPolicy } from './policy/open';
import { maskPolicy, mergePolicySecrets, splitPolicySecrets } from './policy/secrets';
import type { NetworkPolicy, PolicyIssue } from './policy/types';
import { validatePolicy } from './policy/validate';

type Row = typeof sandboxConfigs.$inferSelect;
type Backend = Row['backend'];

const sealContext = (id: string) => `sandbox-network:${id}`;

/** The policy as responses show it: secrets "***" where set. */
export function maskedPolicy(row: Pick<Row, 'networkPolicy' | 'networkSecretNames'>): NetworkPolicy {
  return maskPolicy(storedPolicy(row), row.networkSecretNames);
}

/** The opened secrets of the policy (for the E2B/Cube wire form only). */
export function policySecrets(secrets: SecretBox, row: Pick<Row, 'id' | 'networkSecretsSealed'>): Record<string, string> {
  return row.networkSecretsSealed ? (JSON.parse(secrets.open(row.networkSecretsSealed, sealContext(row.id))) as Record<string, string>) : {};
}

function prefixed(issues: PolicyIssue[], prefix: string): PolicyIssue[] {
  return issues.map((i) => ({ path: prefix ? `${prefix}.${i.path}` : i.path, message: i.message }));
}

export interface PreparedPolicy {
  networkPolicy: Record<string, unknown>;
  networkSecretsSealed: string | null;
  networkSecretNames: string[];
  policy: NetworkPolicy;
}

/**
 * Validates a policy for a backend as a save does, "***" taking the `stored` secret: the policy with
 * its secrets in place, or one `validation` error with every issue (paths under `prefix`, e.g.
 * "network" on the config routes).
 */
export function checkPolicy(backend: Backend, input: unknown, stored: Record<string, string>, prefix = ''): NetworkPolicy {
  const r = validatePolicy(backend, input);
  if (!r.policy) {
    const issues = prefixed(r.issues, prefix);
    throw new AppError('validation', issues[0]?.message ?? 'The network policy is not valid.', { issues });
  }
  const merged = mergePolicySecrets(r.policy, stored);
  if (merged.issues.length) {
    const issues = prefixed(merged.issues, prefix);
    throw new AppError('validation', issues[0].message, { issues });
  }
  return merged.policy;
}

/** A draft of a config's policy, validated exactly as saving it would be; nothing is written. */
export function draftPolicy(secrets: SecretBox, row: Row, input: unknown): NetworkPolicy {
  return checkPolicy(row.backend, input, policySecrets(secrets, row));
}

/** Validates a policy (see checkPolicy) and prepares its columns, the secrets sealed apart. */
export function preparePolicy(secrets: SecretBox, id: string, backend: Backend, input: unknown, stored: Record<string, string>, prefix = ''): PreparedPolicy {
  const { plain, secrets: secretMap } = splitPolicySecrets(checkPolicy(backend, input, stored, prefix));
  const names = Object.keys(secretMap).sort();
  return {
    networkPolicy: plain as unknown as Record<string, unknown>,
    networkSecretsSealed: names.length ? secrets.seal(JSON.stringify(secretMap), sealContext(id)) : null,
    networkSecretNames: names,
    policy: plain,
  };
}

/**
 * Replaces the policy of a config; the caller re-applies it to running sandboxes. `beforeSave` gets
 * the row as it will be once the validated policy is in place, before anything is written: when it
 * throws (the firewall refused the rules), nothing is saved.
 */
export async function savePolicy(
  db: AppDb,
  secrets: SecretBox,
  actor: Actor,
  row: Row,
  input: unknown,
  beforeSave?: (next: Row) => Promise<void>,
): Promise<Row> {
  const prepared = preparePolicy(secrets, row.id, row.backend, input, policySecrets(secrets, row));
  await beforeSave?.({
    ...row,
    networkPolicy: prepared.networkPolicy,
    networkSecretsSealed: prepared.networkSecretsSealed,
    networkSecretNames: prepared.networkSecretNames,
  });
  return db.transaction(async (tx) => {
    const [after] = await tx
      .update(sandboxConfigs)
      .set({
        networkPolicy: prepared.networkPolicy,
        networkSecretsSealed: prepared.networkSecretsSealed,
        networkSecretNames: prepared.networkSecretNames,
        updatedAt: new Date(),
        updatedBy: actor.label,
      })
      .where(eq(sandboxConfigs.id, row.id))
      .returning();
    await recordAudit(tx, actor, {
      action: 'sandbox.network.update',
      targetType: 'sandbox_config',
      targetId: row.id,
      before: { name: row.name, network: maskedPolicy(row) },
      after: { name: after.name, network: maskedPolicy(after) },
    });
    return after;
  });
}

/** The policy columns of a copy of `row` under another id: the same policy, its secrets re-sealed for the copy. */
export function clonePolicyColumns(secrets: SecretBox, row: Row, id: string) {
  const opened = policySecrets(secrets, row);
  return {
    networkPolicy: row.networkPolicy,
    networkSecretsSealed: row.networkSecretNames.length ? secrets.seal(JSON.stringify(opened), sealContext(id)) : null,
    networkSecretNames: row.networkSecretNames,
  };
}
