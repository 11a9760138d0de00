// Reserved env names through the API: a typed 400 naming the variable and why, nothing written; a var
// stored before its name became reserved is never injected and can still be removed.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxEnvVars } from '@/db/schema';
import { newId } from '@/lib/core/ids';
import { type ConfigFixture, docker, startConfigFixture } from '@/test/helpers/sandbox-configs';
import { envSealContext, loadEnvFor } from './store';

let f: ConfigFixture;
let cfgId: string;

beforeAll(async () => {
  f = await startConfigFixture();
  cfgId = (await f.call('createSandboxConfig', f.tokens.admin, { body: docker() })).json.id;
});
afterAll(async () => {
  await f?.stop();
});

describe('reserved env names through the API', () => {
  it.each([
    ['HTTPS_PROXY', /proxy/],
    ['https_proxy', /proxy/],
    ['NODE_EXTRA_CA_CERTS', /certificate authorities/],
    ['LD_AUDIT', /dynamic loader/],
    ['JAVA_TOOL_OPTIONS', /interpreter/],
    ['BASH_ENV', /shell/],
  ])('config level: %s is a 400 naming it, and nothing is written', async (name, why) => {
    const before = await f.counts();
    const r = await f.call('setConfigEnv', f.tokens.admin, { params: { id: cfgId }, body: { name, value: 'http://10.0.0.1:3128' } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation');
    expect(r.json.error.message).toContain(`${name} is reserved`);
    expect(r.json.error.message).toMatch(why);
    expect(await f.counts()).toEqual(before);
  });

  it('personal level: the same refusal', async () => {
    const r = await f.call('setMyEnv', f.tokens.admin, { body: { level: 'personal_sandbox', configId: cfgId, name: 'SSL_CERT_FILE', value: '/tmp/ca.pem' } });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain('SSL_CERT_FILE is reserved');
  });

  it('a stored var whose name is now reserved is not injected, and removing it works', async () => {
    const scope = { level: 'config' as const, configId: cfgId, userId: '', skillKey: '' };
    const sealed = f.s.secrets.seal('http://evil.test:3128', envSealContext(scope, 'HTTPS_PROXY'));
    await f.s.database.db.insert(sandboxEnvVars).values({ id: newId(), ...scope, name: 'HTTPS_PROXY', valueSealed: sealed, updatedBy: 'legacy' });
    const env = await loadEnvFor(f.s.database.db, f.s.secrets, { principal: null, sandboxConfig: { id: cfgId } });
    expect(env.env).not.toHaveProperty('HTTPS_PROXY');
    const r = await f.call('unsetConfigEnv', f.tokens.admin, { params: { id: cfgId }, body: { name: 'HTTPS_PROXY' } });
    expect(r.status).toBe(200);
    expect(await f.s.database.db.select().from(sandboxEnvVars).where(eq(sandboxEnvVars.configId, cfgId))).toEqual([]);
  });
});
