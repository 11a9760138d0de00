import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../../core/errors';
import { ensureRuntimeDir } from '../../dir';
import { describePipArgs, pipCommonFlags, pipIndexFlags, pipInstallFlags } from './cmd';
import {
  parsePipIndexVersions,
  parsePipMetadataHeaders,
  parsePipRecord,
  pipIndexSettings,
  pipList,
  pipRecordPaths,
  pipVersionFromFilename,
  resolvePipRecordPath,
} from './pip';

describe('RECORD CSV', () => {
  it('parses plain, quoted, escaped and multi-line fields', () => {
    const text = [
      'pkg/__init__.py,sha256=abc,12',
      '"pkg/with,comma.py",sha256=def,3',
      '"pkg/say ""hi"".txt",,',
      '"pkg/two\nlines.txt",,0',
      '',
      'pkg-1.0.dist-info/RECORD,,',
    ].join('\r\n');
    expect(parsePipRecord(text)).toEqual([
      ['pkg/__init__.py', 'sha256=abc', '12'],
      ['pkg/with,comma.py', 'sha256=def', '3'],
      ['pkg/say "hi".txt', '', ''],
      ['pkg/two\nlines.txt', '', '0'],
      ['pkg-1.0.dist-info/RECORD', '', ''],
    ]);
  });

  it('handles a last row without a newline and empty quoted fields', () => {
    expect(parsePipRecord('a,"",1\nb,,')).toEqual([
      ['a', '', '1'],
      ['b', '', ''],
    ]);
    expect(pipRecordPaths('a,,\n"",x,\nb,,\n')).toEqual(['a', 'b']);
  });

  it('keeps paths inside the target and maps console scripts to its bin/', () => {
    const t = '/rt/pip';
    expect(resolvePipRecordPath(t, 'pkg/mod.py')).toBe('/rt/pip/pkg/mod.py');
    expect(resolvePipRecordPath(t, '../../bin/tool')).toBe('/rt/pip/bin/tool');
    expect(resolvePipRecordPath(t, '../../share/man/tool.1')).toBe('/rt/pip/share/man/tool.1');
    for (const bad of ['../../evil', '../x', '/etc/passwd', 'pkg/../../x', '../../bin/../../../x', 'C:\\x', '.', 'a\0b']) {
      let err: unknown;
      try {
        resolvePipRecordPath(t, bad);
      } catch (e) {
        err = e;
      }
      expect(isAppError(err) && err.code, bad).toBe('invalid_state');
    }
  });
});

describe('metadata and index helpers', () => {
  it('reads only the header block, folding continuation lines', () => {
    const text = 'Metadata-Version: 2.1\nName: Foo.Bar\nVersion: 1.0\nSummary: first\n  second\nName: ignored\n\nName: body\nVersion: 9\n';
    expect(parsePipMetadataHeaders(text)).toEqual({ name: 'Foo.Bar', version: '1.0', summary: 'first second' });
    expect(parsePipMetadataHeaders('Name: x\r\nVersion: 2\r\n\r\nSummary: body')).toEqual({ name: 'x', version: '2' });
  });

  it('reads versions from wheel and sdist file names', () => {
    expect(pipVersionFromFilename('skd_demo-1.1.0-py3-none-any.whl', 'skd-demo')).toBe('1.1.0');
    expect(pipVersionFromFilename('Skd.Demo-2.0rc1-1-py3-none-any.whl', 'skd_demo')).toBe('2.0rc1');
    expect(pipVersionFromFilename('skd-demo-1.2.tar.gz', 'skd-demo')).toBe('1.2');
    expect(pipVersionFromFilename('skd-demo-extra-1.2.tar.gz', 'skd-demo')).toBeUndefined();
    expect(pipVersionFromFilename('skd_demo_extra-1.2-py3-none-any.whl', 'skd-demo')).toBeUndefined();
    expect(pipVersionFromFilename('skd_demo-latest-py3-none-any.whl', 'skd-demo')).toBeUndefined();
    expect(parsePipIndexVersions('skd (1.1)\nAvailable versions: 1.1, 1.0, 0.9\n')).toEqual(['1.1', '1.0', '0.9']);
  });

  it('validates index settings and builds flags', () => {
    const s = pipIndexSettings({
      pipIndexUrl: 'https://pypi.example/simple',
      pipExtraIndexUrl: 'http://a.example/simple http://b.example/simple',
      pipFindLinks: '/srv/wheels',
    });
    expect(pipIndexFlags(s)).toEqual([
      '--index-url',
      'https://pypi.example/simple',
      '--extra-index-url',
      'http://a.example/simple',
      '--extra-index-url',
      'http://b.example/simple',
      '--find-links',
      '/srv/wheels',
    ]);
    expect(pipIndexFlags(pipIndexSettings({ pipNoIndex: 'true', pipFindLinks: '/w' }))).toEqual(['--no-index', '--find-links', '/w']);
    for (const bad of [
      { pipIndexUrl: '--index-url=x' },
      { pipIndexUrl: 'ftp://x/simple' },
      { pipFindLinks: 'relative/dir' },
      { pipExtraIndexUrl: 'https://' },
      { pipIndexUrl: 'http://a http://b' },
    ]) {
      let err: unknown;
      try {
        pipIndexSettings(bad);
      } catch (e) {
        err = e;
      }
      expect(isAppError(err) && err.code, JSON.stringify(bad)).toBe('validation');
    }
    expect(describePipArgs(['--index-url', 'https://user:pw@host/simple'])).toBe('--index-url https://***@host/simple');
  });

  it('passes old pip versions only the flags they know', () => {
    const v = (major: number, minor: number) => ({ major, minor, text: `${major}.${minor}` });
    expect(pipCommonFlags(v(9, 0))).toEqual(['--disable-pip-version-check']);
    expect(pipInstallFlags(v(9, 0))).toEqual([]);
    expect(pipCommonFlags(v(23, 2))).toContain('--no-input');
    expect(pipInstallFlags(v(23, 2))).toContain('--no-warn-script-location');
    for (const flags of [pipCommonFlags(v(24, 0)), pipInstallFlags(v(24, 0))]) expect(flags).not.toContain('--break-system-packages');
  });
});

describe('pipList over many dist-infos', () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'skd-piplist-'));
    const { pip } = ensureRuntimeDir(root);
    for (let i = 0; i < 300; i++) {
      const dir = path.join(pip, `pkg_${i}-1.${i}.0.dist-info`);
      fs.mkdirSync(dir);
      const body = `Metadata-Version: 2.1\nName: pkg-${i}\nVersion: 1.${i}.0\nSummary: package ${i}\n${'Classifier: x\n'.repeat(i % 7 === 0 ? 500 : 1)}\n${'long description\n'.repeat(200)}`;
      fs.writeFileSync(path.join(dir, 'METADATA'), body);
    }
    // No METADATA: name and version come from the directory name.
    fs.mkdirSync(path.join(pip, 'bare_pkg-0.1.dist-info'));
    fs.mkdirSync(path.join(pip, 'not_a_dist'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('lists every managed distribution with its headers', async () => {
    const list = await pipList({ runtimeDir: root });
    const managed = list.filter((p) => p.managed);
    expect(managed).toHaveLength(301);
    const byName = new Map(managed.map((p) => [p.name, p]));
    expect(byName.get('pkg-0')).toMatchObject({ version: '1.0.0', summary: 'package 0', manager: 'pip' });
    expect(byName.get('pkg-299')).toMatchObject({ version: '1.299.0', summary: 'package 299' });
    expect(byName.get('bare_pkg')).toMatchObject({ version: '0.1' });
    expect(managed.every((p) => p.location?.startsWith(path.join(root, 'pip')))).toBe(true);
  });
});
