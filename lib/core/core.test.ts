import { describe, expect, it } from 'vitest';
import { maskSecrets } from '../audit/audit';
import { hashPassword, verifyPassword } from '../auth/password';
import { minimumRole, ROLE_PERMISSIONS, ROLES } from '../auth/permissions';
import { loadConfig } from './config';
import { runProcess } from './process';

describe('config', () => {
  it('applies defaults and names every bad variable', () => {
    const c = loadConfig({ SKILLDOCK_DATA_DIR: '/tmp/x' });
    expect(c.PORT).toBe(3000);
    expect(c.databaseKind).toBe('pglite');
    expect(c.pgliteDir).toBe('/tmp/x/pglite');
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).databaseKind).toBe('postgres');
    expect(() => loadConfig({ PORT: '70000', DATABASE_URL: 'mysql://x' })).toThrow(/PORT[\s\S]*DATABASE_URL must start with postgres/);
  });
});

describe('roles', () => {
  it('is a strict hierarchy viewer ⊂ operator ⊂ admin ⊂ owner', () => {
    const order = [...ROLES].reverse();
    for (let i = 1; i < order.length; i++) {
      for (const p of ROLE_PERMISSIONS[order[i - 1]]) expect(ROLE_PERMISSIONS[order[i]].has(p)).toBe(true);
      expect(ROLE_PERMISSIONS[order[i]].size).toBeGreaterThan(ROLE_PERMISSIONS[order[i - 1]].size);
    }
    expect(minimumRole('jobs.run')).toBe('operator');
    expect(minimumRole('users.manage')).toBe('owner');
  });
});

describe('secrets', () => {
  it('masks secret-looking keys at any depth', () => {
    expect(maskSecrets({ name: 'n', password: 'p', nested: [{ apiKey: 'k', token_hash: 'h', ok: 1 }], disabled: false })).toEqual({
      name: 'n',
      password: '***',
      nested: [{ apiKey: '***', token_hash: '***', ok: 1 }],
      disabled: false,
    });
  });
  it('hashes passwords with scrypt and verifies them', async () => {
    const h = await hashPassword('correct horse battery');
    expect(h).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('correct horse battery', h)).toBe(true);
    expect(await verifyPassword('correct horse batterY', h)).toBe(false);
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
  });
});

describe('processes', () => {
  it('runs an argument array, never a shell', async () => {
    const r = await runProcess('echo', ['$(id)', ';', 'rm -rf /']);
    expect(r.stdout).toBe('$(id) ; rm -rf /\n');
    await expect(runProcess('sh -c id', [])).rejects.toMatchObject({ code: 'validation' });
    await expect(runProcess('definitely-not-a-program', [])).rejects.toMatchObject({ code: 'not_found' });
  });
  it('stops the whole process group on timeout and caps output', async () => {
    const r = await runProcess('sh', ['-c', 'sleep 30 & yes | head -c 100000; wait'], { timeoutMs: 300, maxOutputBytes: 1000, killGraceMs: 200 });
    expect(r.timedOut).toBe(true);
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBe(1000);
  });
});
