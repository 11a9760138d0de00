import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSpec } from '../spec';
import { readSkillFiles } from './read';
import { scanSkillFiles } from './scan';
import type { ScannedDep } from './types';

const names = (deps: ScannedDep[]) => deps.map((d) => formatSpec(d.spec));

describe('readSkillFiles', () => {
  let dir: string;
  let outside: string;
  beforeAll(() => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-deps-read-'));
    dir = path.join(tmp, 'skill');
    outside = path.join(tmp, 'outside');
    const w = (rel: string, content: string | Buffer) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), content);
    };
    w('SKILL.md', '---\nname: s\n---\n');
    w('run.py', 'import toplevel_dep\n');
    w('tool', '#!/bin/bash\necho hi\n');
    w('notes.txt', 'import nothing\n');
    w('scripts/a.py', 'import requests\nimport localmod\n');
    w('scripts/localmod/__init__.py', '');
    w('scripts/1/2/3/4/deep.py', 'import deep_ok\n');
    w('scripts/1/2/3/4/5/too_deep.py', 'import deep_too_far\n');
    w('scripts/node_modules/x/index.js', "require('inside-node-modules')\n");
    w('scripts/__pycache__/a.py', 'import cached\n');
    w('scripts/big.py', `import big_dep\n${'#'.repeat(600 * 1024)}\n`);
    w('scripts/blob.js', Buffer.from([0x72, 0, 0x71]));
    w('scripts/plain', 'no shebang\nimport x\n');
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, 'evil.py'), 'import outside_dep\n');
    fs.symlinkSync(path.join(outside, 'evil.py'), path.join(dir, 'scripts', 'evil.py'));
    fs.symlinkSync(path.join(dir, 'scripts', 'a.py'), path.join(dir, 'scripts', 'inside-link.py'));
    fs.symlinkSync(path.join(dir, 'scripts'), path.join(dir, 'scripts', 'loop'));
  });
  afterAll(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

  it('reads scripts/ to depth 4 plus top-level scripts, with caps and symlink rules', async () => {
    const r = await readSkillFiles(dir);
    expect(r.files.map((f) => f.path).sort()).toEqual([
      'run.py',
      'scripts/1/2/3/4/deep.py',
      'scripts/a.py',
      'scripts/inside-link.py',
      'scripts/localmod/__init__.py',
      'tool',
    ]);
    expect(r.diagnostics.map((d) => d.file).sort()).toEqual(['scripts/big.py', 'scripts/evil.py']);
    expect(r.localModules).toContain('localmod');
    const scan = scanSkillFiles(r.files, { localModules: r.localModules });
    expect(names(scan.deps).sort()).toEqual(['pip:deep_ok', 'pip:requests', 'pip:toplevel_dep', 'system:bash']);
  });

  it('maxFiles caps the read with one diagnostic', async () => {
    const r = await readSkillFiles(dir, { maxFiles: 2 });
    expect(r.files).toHaveLength(2);
    expect(r.diagnostics.filter((d) => d.message.includes('more than 2'))).toHaveLength(1);
  });
});
