import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { isAppError } from '@/lib/core/errors';
import { type FakeClawhub, startFakeClawhub } from '../../../test/helpers/clawhub-server';
import { contentHash, listSkillFiles } from '../files';
import { type ClawhubClient, createClawhubClient, isBlockedVerdict } from './clawhub';

const REAL = path.resolve(__dirname, '../../../test/fixtures/skills-real/openclaw');
const notionMd = fs.readFileSync(path.join(REAL, 'notion/SKILL.md'), 'utf8');
const goplacesMd = fs.readFileSync(path.join(REAL, 'goplaces/SKILL.md'), 'utf8');

let fake: FakeClawhub;
let client: ClawhubClient;
let tmp: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-clawhub-'));
  fake = await startFakeClawhub({
    minCliVersion: '0.5.0',
    skills: [
      {
        slug: 'notion',
        owner: 'openclaw',
        summary: 'Notion CLI/API',
        versions: [
          { version: '1.0.0', files: { 'SKILL.md': notionMd, 'scripts/page.sh': '#!/bin/sh\necho page\n' } },
          { version: '1.1.0', files: { 'SKILL.md': `${notionMd}\nMore.\n`, 'scripts/page.sh': '#!/bin/sh\necho page2\n' } },
          { version: '1.2.0', files: { 'SKILL.md': notionMd }, deleted: true },
        ],
      },
      { slug: 'calendar', owner: 'alice', versions: [{ version: '2.0.0', files: { 'SKILL.md': goplacesMd } }] },
      { slug: 'calendar', owner: 'bob', versions: [{ version: '1.0.0', files: { 'SKILL.md': goplacesMd } }] },
      {
        slug: 'free-money',
        owner: 'mallory',
        versions: [
          {
            version: '0.1.0',
            files: { 'SKILL.md': '---\nname: free-money\ndescription: x\n---\n' },
            moderation: { verdict: 'malicious', reasonCodes: ['malicious.exfiltration'] },
          },
        ],
      },
      {
        slug: 'sketchy',
        owner: 'eve',
        versions: [
          {
            version: '1.0.0',
            files: { 'SKILL.md': '---\nname: sketchy\ndescription: x\n---\n' },
            moderation: { verdict: 'suspicious', reasonCodes: ['suspicious.network'] },
          },
        ],
      },
    ],
  });
  client = createClawhubClient({ baseUrl: fake.url });
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string; details: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return { code: e.code, message: e.message, details: e.details ?? {} };
    return { code: `unexpected: ${(e as Error).message}`, message: '', details: {} };
  }
  throw new Error('expected a failure');
}

function readZip(file: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: Record<string, string> = {};
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out[entry.fileName] = Buffer.concat(chunks).toString('utf8');
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

describe('ClawHub client', () => {
  it('reads the discovery document and honours minCliVersion', async () => {
    expect(await client.discover()).toEqual({ apiBase: fake.url, authBase: fake.url, registry: fake.url, minCliVersion: '0.5.0', supported: true });
    expect((await createClawhubClient({ baseUrl: fake.url, clientVersion: '0.4.9' }).discover()).supported).toBe(false);
  });

  it('searches', async () => {
    const hits = await client.search('notion', 5);
    expect(hits).toEqual([
      { slug: 'notion', displayName: 'notion', summary: 'Notion CLI/API', version: '1.1.0', score: 10, updatedAt: 1_700_000_000_000, ownerHandle: 'openclaw' },
    ]);
    const before = fake.requests.length;
    expect(await client.search('   ')).toEqual([]);
    expect(fake.requests.length).toBe(before);
  });

  it('reads a skill and its versions (deleted ones left out)', async () => {
    expect(await client.getSkill('Notion')).toMatchObject({ slug: 'notion', latestVersion: '1.1.0', ownerHandle: 'openclaw', moderation: null });
    expect((await client.versions('notion')).map((v) => v.version)).toEqual(['1.1.0', '1.0.0']);
    expect((await client.getSkill('calendar', 'bob')).ownerHandle).toBe('bob');
    expect((await failure(client.getSkill('no-such-skill'))).code).toBe('not_found');
  });

  it('resolves slug, @owner/slug and @owner/slug@version to exact versions', async () => {
    expect(await client.resolveInstall('notion')).toEqual({
      installKind: 'archive',
      slug: 'notion',
      version: '1.1.0',
      downloadUrl: `${fake.url}/api/v1/download?slug=notion&version=1.1.0`,
    });
    expect(await client.resolveInstall('@openclaw/notion')).toMatchObject({ ownerHandle: 'openclaw', version: '1.1.0' });
    expect(await client.resolveInstall('@openclaw/notion@1.0.0')).toMatchObject({ ownerHandle: 'openclaw', version: '1.0.0' });
    expect(fake.requests).toContain('/api/v1/skills/notion/install?ownerHandle=openclaw&version=1.0.0');
    expect(await client.resolveInstall('@bob/calendar')).toMatchObject({ ownerHandle: 'bob', version: '1.0.0' });
  });

  it('lists the owners of an ambiguous slug for the picker', async () => {
    const f = await failure(client.resolveInstall('calendar'));
    expect(f.code).toBe('ambiguous_slug');
    expect(f.details).toMatchObject({ status: 409, owners: ['alice', 'bob'], refs: ['@alice/calendar', '@bob/calendar'] });
    const g = await failure(client.getSkill('calendar'));
    expect(g.details.owners).toEqual(['alice', 'bob']);
  });

  it('maps deleted, unknown and malicious versions', async () => {
    const gone = await failure(client.resolveInstall('@openclaw/notion@1.2.0'));
    expect(gone).toMatchObject({ code: 'not_found', details: { status: 410, gone: true } });
    const missing = await failure(client.resolveInstall('notion@9.9.9'));
    expect(missing.code).toBe('not_found');
    expect(missing.details.gone).toBeUndefined();
    expect((await failure(client.resolveInstall('free-money'))).code).toBe('registry_blocked');
  });

  it('refuses malformed references before any request', async () => {
    const before = fake.requests.length;
    for (const ref of ['../etc', '@bad owner/x', 'notion@latest', '@o/', 'a/b', '', '@-x/notion', 'notion@1.0']) {
      expect(['validation', 'invalid_slug'], ref).toContain((await failure(client.resolveInstall(ref))).code);
    }
    expect(fake.requests.length).toBe(before);
  });

  it('downloads the exact version as the served ZIP', async () => {
    const dest = path.join(tmp, 'notion-1.0.0.zip');
    const r = await client.download('notion', '1.0.0', dest, 1024 * 1024);
    const served = fake.zipOf('notion', '1.0.0');
    expect(fs.readFileSync(dest).equals(served)).toBe(true);
    expect(r.bytes).toBe(served.length);
    expect(r.contentType).toBe('application/zip');
    expect(fake.requests.at(-1)).toBe('/api/v1/download?slug=notion&version=1.0.0');
    const entries = await readZip(dest);
    expect(entries['SKILL.md']).toBe(notionMd);
    expect(entries['scripts/page.sh']).toContain('echo page');
  });

  it('refuses an oversized download and leaves no file', async () => {
    const dest = path.join(tmp, 'small.zip');
    expect((await failure(client.download('notion', '1.1.0', dest, 100))).code).toBe('archive_too_large');
    expect(fs.existsSync(dest)).toBe(false);
    expect(fs.readdirSync(tmp).filter((f) => f.includes('small'))).toEqual([]);
  });

  it('maps download errors: ambiguous (text body), malicious, deleted', async () => {
    const dest = path.join(tmp, 'x.zip');
    const amb = await failure(client.download('calendar', '1.0.0', dest, 1 << 20));
    expect(amb).toMatchObject({ code: 'ambiguous_slug', details: { owners: ['alice', 'bob'] } });
    expect((await client.download('calendar', '1.0.0', dest, 1 << 20, 'bob')).bytes).toBe(fake.zipOf('calendar', '1.0.0', 'bob').length);
    expect((await failure(client.download('free-money', '0.1.0', path.join(tmp, 'm.zip'), 1 << 20))).code).toBe('registry_blocked');
    expect((await failure(client.download('notion', '1.2.0', path.join(tmp, 'd.zip'), 1 << 20))).details).toMatchObject({ gone: true });
    expect(fs.existsSync(path.join(tmp, 'm.zip'))).toBe(false);
  });

  it('resolves a content hash computed from files on disk', async () => {
    const dir = path.join(tmp, 'unpacked');
    const zipFile = path.join(tmp, 'served-1.0.0.zip');
    fs.writeFileSync(zipFile, fake.zipOf('notion', '1.0.0'));
    const entries = await readZip(zipFile);
    expect(Object.keys(entries).sort()).toEqual(['SKILL.md', 'scripts/page.sh']);
    for (const [rel, text] of Object.entries(entries)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
    const hash = contentHash(await listSkillFiles(dir));
    expect(hash).toBe(fake.hashOf('notion', '1.0.0'));
    expect(await client.resolveHash('notion', hash)).toEqual({ match: { version: '1.0.0' }, latestVersion: { version: '1.1.0' } });
    expect(await client.resolveHash('notion', 'a'.repeat(64))).toEqual({ match: null, latestVersion: { version: '1.1.0' } });
    expect((await failure(client.resolveHash('notion', 'xyz'))).code).toBe('validation');
  });

  it('verifies versions and flags malicious ones', async () => {
    const clean = await client.verify('notion', '1.1.0');
    expect(clean).toEqual({ ok: true, decision: 'pass', verdict: 'clean', reasonCodes: [], isMalwareBlocked: false, securityStatus: 'clean' });
    expect(isBlockedVerdict(clean)).toBe(false);
    const bad = await client.verify('free-money', '0.1.0');
    expect(bad).toMatchObject({ ok: false, decision: 'fail', verdict: 'malicious', isMalwareBlocked: true });
    expect(bad.reasonCodes).toEqual(['malicious.exfiltration', 'malware.blocked']);
    expect(isBlockedVerdict(bad)).toBe(true);
    const sus = await client.verify('sketchy', '1.0.0');
    expect(sus).toMatchObject({ ok: false, verdict: 'suspicious', reasonCodes: ['suspicious.network', 'security.suspicious'] });
    expect(isBlockedVerdict(sus)).toBe(false);
    expect(await client.moderation('notion')).toBeNull();
    expect(await client.moderation('free-money')).toMatchObject({ verdict: 'malicious', isMalwareBlocked: true, reasonCodes: ['malicious.exfiltration'] });
    expect(isBlockedVerdict({ verdict: 'unknown', reasonCodes: ['malicious.crypto-miner'], isMalwareBlocked: false })).toBe(true);
  });

  it('surfaces 429 Retry-After as rate_limited', async () => {
    fake.limitNext(1, 42);
    const f = await failure(client.search('notion'));
    expect(f).toMatchObject({ code: 'rate_limited', details: { status: 429, retryAfterSeconds: 42 } });
    expect((await client.search('notion')).length).toBe(1);
  });

  it('follows same-origin redirects and refuses redirects to another origin', async () => {
    fake.redirect('/api/v1/skills/old-notion', '/api/v1/skills/notion');
    expect((await client.getSkill('old-notion')).slug).toBe('notion');
    const hits: string[] = [];
    const other = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('{}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    try {
      fake.redirect('/api/v1/skills/moved', `http://127.0.0.1:${(other.address() as AddressInfo).port}/api/v1/skills/notion`);
      const f = await failure(client.getSkill('moved'));
      expect(f.code).toBe('registry_error');
      expect(f.message).toMatch(/another origin/);
      expect(hits).toEqual([]);
    } finally {
      await new Promise<void>((r) => other.close(() => r()));
    }
  });
});
