import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasCode } from '@/lib/core/errors';
import { SKILLS_SETTINGS_DEFAULTS } from '../../settings/skills-settings';
import { assertFileTypesAllowed, extensionOf, type FileTypePolicy, judgeFile } from './file-policy';

const DEFAULTS: FileTypePolicy = SKILLS_SETTINGS_DEFAULTS;
const ELF = fs.readFileSync('/bin/true');
const REAL = path.resolve(__dirname, '../../../test/fixtures/skills-real');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'file-policy-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function tree(name: string, files: Record<string, string | Buffer>): string {
  const root = path.join(tmp, name);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}

async function refusal(root: string, policy: FileTypePolicy = DEFAULTS) {
  try {
    await assertFileTypesAllowed(root, policy);
  } catch (e) {
    if (!hasCode(e, 'file_type_not_allowed')) throw e;
    return { message: e.message, hint: e.hint, files: (e.details as { files: { path: string; reason: string; setting: string | null }[] }).files };
  }
  return null;
}

describe('extensions', () => {
  it('are the lower-cased last suffix; names without one and dotfiles have none', () => {
    expect(extensionOf('README.MD')).toBe('md');
    expect(extensionOf('dist/app.tar.gz')).toBe('gz');
    expect(extensionOf('LICENSE')).toBeNull();
    expect(extensionOf('scripts/Makefile')).toBeNull();
    expect(extensionOf('.gitignore')).toBeNull();
    expect(extensionOf('conf/.env.local')).toBeNull();
    expect(extensionOf('trailing.')).toBeNull();
  });
});

describe('judging a file', () => {
  const text = { kind: 'text' } as const;
  const png = { kind: 'binary', what: 'a PNG image' } as const;
  const elf = { kind: 'executable', what: 'an ELF executable or library' } as const;

  it('admits text of a known type and text without an extension, refuses text of an unknown type', () => {
    expect(judgeFile('scripts/run.py', text, DEFAULTS)).toBeNull();
    expect(judgeFile('LICENSE', text, DEFAULTS)).toBeNull();
    expect(judgeFile('data/x.weird', text, DEFAULTS)).toEqual({
      path: 'data/x.weird',
      reason: '.weird is not an allowed file type',
      setting: 'allowedFileTypes',
    });
    expect(judgeFile('data/x.weird', text, { ...DEFAULTS, allowedFileTypes: ['weird'] })).toBeNull();
  });

  it('refuses binaries by content whatever their name, and admits a listed binary type unless it is an executable', () => {
    expect(judgeFile('notes.md', elf, DEFAULTS)).toMatchObject({ reason: 'an ELF executable or library', setting: 'allowBinaryFiles' });
    expect(judgeFile('logo.png', png, DEFAULTS)).toMatchObject({ reason: 'a PNG image; .png is not an allowed file type', setting: 'allowedBinaryFileTypes' });
    expect(judgeFile('notes.md', png, DEFAULTS)).toMatchObject({ reason: 'a PNG image', setting: 'allowedBinaryFileTypes' });
    expect(judgeFile('blob', png, DEFAULTS)).toMatchObject({ setting: 'allowBinaryFiles' });
    const images = { ...DEFAULTS, allowedBinaryFileTypes: ['png'] };
    expect(judgeFile('logo.png', png, images)).toBeNull();
    expect(judgeFile('logo.png', elf, images)).toMatchObject({ setting: 'allowBinaryFiles' });
    expect(judgeFile('tool', elf, { ...DEFAULTS, allowBinaryFiles: true })).toBeNull();
  });
});

describe('a staged skill folder', () => {
  it('passes with text files of the default types, extension-less text and dotfiles', async () => {
    const root = tree('clean', {
      'SKILL.md': '---\nname: clean\ndescription: x\n---\n# Clean\n',
      'scripts/run.py': '#!/usr/bin/env python3\nprint("hi")\n',
      'scripts/tool.sh': '#!/bin/sh\necho hi\n',
      LICENSE: 'MIT\n',
      Makefile: 'all:\n\techo ok\n',
      '.gitignore': '*.pyc\n',
      'config/schema.json': '{}\n',
    });
    expect(await refusal(root)).toBeNull();
  });

  it('refuses an ELF renamed .md, binaries hidden under node_modules, and names the settings that would admit them', async () => {
    const root = tree('hostile', {
      'SKILL.md': '---\nname: hostile\ndescription: x\n---\n',
      'docs/notes.md': ELF,
      'node_modules/pkg/addon.node': ELF,
      'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      'data/table.md': Buffer.from('| a | b |\n\0'),
    });
    const r = await refusal(root);
    expect(r?.files.map((f) => f.path)).toEqual(['assets/logo.png', 'data/table.md', 'docs/notes.md', 'node_modules/pkg/addon.node']);
    expect(r?.message).toContain('docs/notes.md (an ELF executable or library)');
    expect(r?.message).toContain('Nothing was installed');
    expect(r?.hint).toContain('allowBinaryFiles');
    expect(r?.hint).toContain('allowedBinaryFileTypes');
    // Images allowed: the ELF files and the NUL-laden .md are still refused.
    const images = await refusal(root, { ...DEFAULTS, allowedBinaryFileTypes: ['png'] });
    expect(images?.files.map((f) => f.path)).toEqual(['data/table.md', 'docs/notes.md', 'node_modules/pkg/addon.node']);
    expect(await refusal(root, { ...DEFAULTS, allowBinaryFiles: true })).toBeNull();
  });

  it('reads a file larger than the bytes handed in from disk, to its end', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 'text line\n');
    big[big.length - 2] = 0;
    const root = tree('big', { 'SKILL.md': '---\nname: big\n---\n', 'data/big.txt': big });
    const r = await refusal(root);
    expect(r?.files).toEqual([{ path: 'data/big.txt', reason: `binary data (a NUL byte at offset ${big.length - 2})`, setting: 'allowedBinaryFileTypes' }]);
    // Handed bytes are trusted as the file's content (the import read them once for hashing).
    expect(await assertFileTypesAllowed(root, DEFAULTS, { contents: new Map([['data/big.txt', Buffer.from('clean\n')]]) })).toEqual({ files: 2 });
  });

  it('refuses a symbolic link whatever the settings (no setting admits it)', async () => {
    const root = tree('link', { 'SKILL.md': '---\nname: link\n---\n' });
    fs.symlinkSync('/etc/passwd', path.join(root, 'passwd.txt'));
    for (const policy of [DEFAULTS, { ...DEFAULTS, allowBinaryFiles: true }]) {
      const r = await refusal(root, policy);
      expect(r?.files).toEqual([{ path: 'passwd.txt', reason: 'a symbolic link', setting: null }]);
      expect(r?.hint).toContain('regular files');
    }
  });

  it('admits every file of the real published skills with the default settings', async () => {
    let skills = 0;
    for (const vendor of fs.readdirSync(REAL, { withFileTypes: true }).filter((d) => d.isDirectory())) {
      for (const s of fs.readdirSync(path.join(REAL, vendor.name))) {
        expect(await refusal(path.join(REAL, vendor.name, s)), `${vendor.name}/${s}`).toBeNull();
        skills++;
      }
    }
    expect(skills).toBeGreaterThan(20);
  });
});
