// The stored GitHub token is bound to the API origin it was entered for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, systemActor } from '@/lib/auth/actor';
import { ROLE_PERMISSIONS } from '@/lib/auth/permissions';
import { getGithubSettings, publicGithubSettings, updateGithubSettings } from '@/lib/settings';
import { startTestServices, type TestServices } from '@/test/helpers/services';

let t: TestServices;
const admin: Actor = { ...systemActor, kind: 'user', userId: null, label: 'gh-admin@example.com', role: 'admin', permissions: ROLE_PERMISSIONS.admin };

beforeAll(async () => {
  t = await startTestServices({ worker: false });
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

const db = () => t.services.database.db;
const update = (patch: Parameters<typeof updateGithubSettings>[3]) => updateGithubSettings(db(), t.services.secrets, admin, patch);

describe('GitHub token binding', () => {
  it('changing the API base without a new token drops the stored token; a new token binds to the new base', async () => {
    await update({ apiBaseUrl: 'https://ghe-one.example.com/api/v3', token: 'ghp_first' });
    expect((await getGithubSettings(db(), t.services.secrets)).token).toBe('ghp_first');

    const moved = await update({ apiBaseUrl: 'https://ghe-two.example.com/api/v3' });
    expect(moved.token).toBeNull();
    expect((await getGithubSettings(db(), t.services.secrets)).token).toBeNull();

    await update({ apiBaseUrl: 'https://ghe-two.example.com/api/v3', token: 'ghp_second' });
    expect((await getGithubSettings(db(), t.services.secrets)).token).toBe('ghp_second');
    // "***" keeps the token only while the origin stays the same (a path change is the same origin).
    await update({ apiBaseUrl: 'https://ghe-two.example.com/api/v4', token: '***' });
    expect((await getGithubSettings(db(), t.services.secrets)).token).toBe('ghp_second');
    await update({ apiBaseUrl: 'https://ghe-three.example.com/api/v3', token: '***' });
    expect((await getGithubSettings(db(), t.services.secrets)).token).toBeNull();
  });

  it('refuses to store a token for a plain-http base that is not loopback; loopback http is allowed', async () => {
    await expect(update({ apiBaseUrl: 'http://mirror.example.com/api/v3', token: 'ghp_plain' })).rejects.toMatchObject({ code: 'validation' });
    expect((await getGithubSettings(db(), t.services.secrets)).apiBaseUrl).not.toBe('http://mirror.example.com/api/v3');
    await update({ apiBaseUrl: 'http://127.0.0.1:9/api', token: 'ghp_loop' });
    expect((await getGithubSettings(db(), t.services.secrets)).token).toBe('ghp_loop');
  });

  it('the env token counts only for the default base', async () => {
    await update({ apiBaseUrl: 'https://ghe-four.example.com/api/v3', token: '' });
    expect((await publicGithubSettings(db(), { GITHUB_TOKEN: 'g' })).tokenSource).toBe('none');
    await update({ apiBaseUrl: 'https://api.github.com' });
    expect((await publicGithubSettings(db(), { GITHUB_TOKEN: 'g' })).tokenSource).toBe('GITHUB_TOKEN');
  });
});
