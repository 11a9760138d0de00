import type { sandboxConfigs } from '@/db/schema';
import type { SecretBox } from '../../secrets/crypto';
import { type AnyConfig, type SandboxBackend, type SandboxConfigView, SECRET_FIELDS, SECRET_MASK } from './schema';

export type ConfigRow = typeof sandboxConfigs.$inferSelect;

export const sealContext = (id: string) => `sandbox-config:${id}`;

/** The config's secret fields, opened; {} when none is set. */
export function openSecrets(secrets: SecretBox, row: Pick<ConfigRow, 'id' | 'secretsSealed'>): Record<string, string> {
  return row.secretsSealed ? (JSON.parse(secrets.open(row.secretsSealed, sealContext(row.id))) as Record<string, string>) : {};
}

/** Splits a parsed config into the stored fields and the secrets to seal (empty secrets are dropped). */
export function splitSecrets(backend: SandboxBackend, config: AnyConfig): { plain: Record<string, unknown>; secret: Record<string, string> } {
  const plain: Record<string, unknown> = { ...config };
  const secret: Record<string, string> = {};
  for (const f of SECRET_FIELDS[backend]) {
    const v = plain[f];
    delete plain[f];
    if (typeof v === 'string' && v !== '') secret[f] = v;
  }
  return { plain, secret };
}

export function sealSecrets(secrets: SecretBox, id: string, secret: Record<string, string>): { secretsSealed: string | null; secretNames: string[] } {
  const names = Object.keys(secret).sort();
  return { secretsSealed: names.length ? secrets.seal(JSON.stringify(secret), sealContext(id)) : null, secretNames: names };
}

/** What every response shows: secrets as "***" when set, "" when not. */
export function configView(row: ConfigRow, envCount: number, now = new Date()): SandboxConfigView {
  const config: Record<string, unknown> = { ...row.config };
  for (const f of SECRET_FIELDS[row.backend]) config[f] = row.secretNames.includes(f) ? SECRET_MASK : '';
  return {
    id: row.id,
    name: row.name,
    backend: row.backend,
    description: row.description,
    config,
    secretsConfigured: row.secretNames,
    enabled: row.enabled,
    lastCheckAt: row.lastCheckAt?.toISOString() ?? null,
    lastCheckPassedAt: row.lastCheckPassedAt?.toISOString() ?? null,
    lastCheckReport: row.lastCheckReport ?? null,
    lockedUntil: row.lockedUntil && row.lockedUntil > now ? row.lockedUntil.toISOString() : null,
    envCount,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  };
}

/** The audit form of a row: the view without timestamps that every write changes anyway. */
export function auditForm(row: ConfigRow) {
  const v = configView(row, 0);
  return { name: v.name, backend: v.backend, description: v.description, config: v.config, enabled: v.enabled };
}
