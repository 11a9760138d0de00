// A stored secret goes only where it is stored to go. Whoever keeps a stored secret ("***" or no
// value) while changing where it is sent or whom the connection trusts — an edit or a connection
// test — is asked to type the secret again, so no one can hand a key to a server of their choosing.
import { AppError } from '../../core/errors';
import { type AnyConfig, CONFIG_SCHEMAS, IDENTITY_FIELDS, type SandboxBackend, SECRET_FIELDS } from './schema';

/** Fields that decide whom the connection trusts. */
const TRUST_FIELDS = ['skipTlsVerify', 'caCert'];

/** The endpoint and trust fields (secrets aside) that differ between the stored config and the new values. */
export function endpointChanges(backend: SandboxBackend, storedPlain: Record<string, unknown>, next: AnyConfig | Record<string, unknown>): string[] {
  // Parsed like the new values, so defaults and normalisation compare alike.
  const parsed = CONFIG_SCHEMAS[backend].safeParse(storedPlain);
  const stored = (parsed.success ? parsed.data : storedPlain) as Record<string, unknown>;
  const now = next as Record<string, unknown>;
  const secretFields = SECRET_FIELDS[backend];
  const fields = [...IDENTITY_FIELDS[backend], ...TRUST_FIELDS].filter((f) => !secretFields.includes(f) && (f in stored || f in now));
  return fields.filter((f) => JSON.stringify(now[f] ?? null) !== JSON.stringify(stored[f] ?? null));
}

/** Refuses keeping the `kept` stored secrets when the endpoint changed; `what` says what was attempted. */
export function assertSecretStaysHome(
  backend: SandboxBackend,
  storedPlain: Record<string, unknown>,
  next: AnyConfig | Record<string, unknown>,
  kept: string[],
  what: string,
): void {
  if (!kept.length) return;
  const changed = endpointChanges(backend, storedPlain, next);
  if (!changed.length) return;
  throw new AppError(
    'validation',
    `Type the ${kept.join(', ')} again to ${what}: ${changed.join(', ')} differ from the stored config, and a stored secret is only sent to the stored endpoint.`,
    {
      issues: kept.map((f) => ({ path: `config.${f}`, message: `Type the ${f} again: ${changed.join(', ')} changed.` })),
      details: { changed },
    },
  );
}
