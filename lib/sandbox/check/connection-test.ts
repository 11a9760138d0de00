import type { AppDb } from '@/db/client';
import { AppError } from '../../core/errors';
import { type AnyConfig, SECRET_FIELDS, SECRET_MASK } from '../config/schema';
import { assertSecretStaysHome } from '../config/secret-endpoint';
import { loadRow, parseConfig } from '../config/store';
import { type ValidateContext, validateOnServer } from '../config/validate';
import { openSecrets, sealSecrets, splitSecrets } from '../config/view';
import { type BackendFactoryDeps, backendForConfig, sandboxSpecFor } from '../factory';
import { type ProbeResult, runFullCheck } from './full-check';
import type { ConnectionTestInput } from './schema';

export interface ConnectionTestDeps extends BackendFactoryDeps {
  db: AppDb;
  validate: ValidateContext;
}

/** Stands in for an image not entered yet: valid for the schema, never asked of the engine. */
const NO_IMAGE = 'skilldock-no-image-yet';

/** The id the throwaway backend is built under (its secrets are sealed to it and never stored). */
const TEST_ID = 'connection-test';

/** The secrets of the tested values: "***" replaced by the stored ones, every required one present. */
async function secretsFor(
  deps: ConnectionTestDeps,
  input: ConnectionTestInput,
  tested: AnyConfig,
  secret: Record<string, string>,
): Promise<Record<string, string>> {
  const masked = Object.entries(secret).filter(([, v]) => v === SECRET_MASK);
  let stored: Record<string, string> = {};
  if (masked.length) {
    if (!input.id)
      throw new AppError('validation', 'There is no stored secret to use yet; enter it.', {
        issues: masked.map(([f]) => ({ path: `config.${f}`, message: `Enter the ${f}.` })),
      });
    const row = await loadRow(deps.db, input.id);
    if (row.backend !== input.backend)
      throw new AppError('validation', `The stored config is a ${row.backend} config; enter the secrets for ${input.backend}.`, {
        issues: masked.map(([f]) => ({ path: `config.${f}`, message: `Enter the ${f}.` })),
      });
    assertSecretStaysHome(
      input.backend,
      row.config as Record<string, unknown>,
      tested,
      masked.map(([f]) => f),
      'test against a new endpoint',
    );
    stored = openSecrets(deps.secrets, row);
  }
  const out: Record<string, string> = {};
  for (const [f, v] of Object.entries(secret)) out[f] = v === SECRET_MASK ? (stored[f] ?? '') : v;
  const missing = SECRET_FIELDS[input.backend].filter((f) => !out[f]);
  if (missing.length)
    throw new AppError('validation', `Enter the ${missing.join(', ')}.`, { issues: missing.map((f) => ({ path: `config.${f}`, message: `Enter the ${f}.` })) });
  return out;
}

/** Validates the values like a save would (4xx otherwise), then runs the probes that create nothing. */
export async function testConnection(deps: ConnectionTestDeps, input: ConnectionTestInput): Promise<{ probes: ProbeResult[] }> {
  // The image is entered after the connection: without one the engine is still tested, the image probe skipped.
  const imageless = input.backend === 'docker' && (input.config.image === undefined || input.config.image === '');
  const config = parseConfig(input.backend, imageless ? { ...input.config, image: NO_IMAGE } : input.config);
  const { plain, secret } = splitSecrets(input.backend, config);
  const secrets = await secretsFor(deps, input, config, secret);
  await validateOnServer(input.backend, { ...config, ...secrets } as AnyConfig, deps.validate);
  const sealed = sealSecrets(deps.secrets, TEST_ID, secrets).secretsSealed;
  const row = { id: TEST_ID, backend: input.backend, config: plain, secretsSealed: sealed };
  const timeoutMs = (config as { httpTimeoutSec: number }).httpTimeoutSec * 1000;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error(`no answer within the config's HTTP timeout (${timeoutMs / 1000} s)`)), timeoutMs);
  try {
    const r = await runFullCheck({
      backend: () => backendForConfig(row, deps),
      spec: sandboxSpecFor(row),
      connectionOnly: true,
      ...(imageless ? { skipImage: 'no image entered yet: enter one (Runtime) to check that the engine has it' } : {}),
      signal: deadline.signal,
    });
    return { probes: r.probes };
  } finally {
    clearTimeout(timer);
  }
}
