import { beforeAll, describe, expect, it } from 'vitest';
import { formatSpec } from '../spec';
import { importNameForPip, pipImportName, validateAliasOverrides } from './aliases';
import { localModulesOf, parseShebang, scanSkillFiles, scriptLanguage } from './scan';
import { extractPythonImports } from './scan-python';
import { fallbackPythonStdlib, pythonStdlib, pythonStdlibModules } from './stdlib';
import type { ScannedDep } from './types';

const names = (deps: ScannedDep[]) => deps.map((d) => formatSpec(d.spec));

const PY_MAIN = `#!/usr/bin/env -S python3 -u
"""Fetches pages.

import notamodule_in_docstring
"""
from __future__ import annotations
import os, sys
import json as j, requests
import numpy.linalg as la, pandas
from urllib.parse import urlparse
from . import sibling
from .helpers import thing
from helpers import util        # local module: scripts/helpers.py
import mypkg.sub                # local package dir: scripts/mypkg/
# import commented_out
x = "import in_a_string"
y = '''
import in_a_triple_string
'''

def main():
    try:
        import cv2
    except ImportError:
        cv2 = None
    if True: import yaml
    from PIL import Image; import psycopg
    from bs4 import (
        BeautifulSoup,
    )
    import \\
        dateutil
`;

const TS_MAIN = `import type { Foo } from 'types-only-pkg';
import { type A, type B } from 'also-types-only';
import fs from 'node:fs';
import path from 'path';
import { readFile } from 'fs/promises';
import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod/v4';
import './side-effect-local';
import 'dotenv/config';
export { helper } from './helper';
export * from 'lodash-es';
export type { T } from 'exported-types-only';
// import nope from 'commented';
/* require('also-commented') */
const chalk = await import('chalk');
const rel = await import('./rel.js');
`;

const CJS = `#!/usr/bin/env node
const { Command } = require('commander');
const local = require('../lib/local');
const abs = require('/opt/abs');
const child = require('child_process');
const yargs = require("yargs/yargs");
`;

describe('extractPythonImports', () => {
  it('finds indented, comma, dotted, aliased and one-line imports; skips relative, __future__, comments and strings', () => {
    const got = extractPythonImports(PY_MAIN);
    expect(got.map((i) => i.module)).toEqual([
      'os',
      'sys',
      'json',
      'requests',
      'numpy',
      'pandas',
      'urllib',
      'helpers',
      'mypkg',
      'cv2',
      'yaml',
      'PIL',
      'psycopg',
      'bs4',
      'dateutil',
    ]);
    expect(got.find((i) => i.module === 'cv2')!.line).toBe(23);
    expect(got.find((i) => i.module === 'dateutil')!.line).toBe(31);
    expect(got.find((i) => i.module === 'psycopg')!.line).toBe(27);
  });
});

describe('parseShebang and scriptLanguage', () => {
  it.each([
    ['#!/usr/bin/env -S python3 -u', 'python3'],
    ['#!/usr/bin/env python3', 'python3'],
    ['#!/bin/bash', 'bash'],
    ['#! /usr/bin/python3.11 -O', 'python3.11'],
    ['#!/usr/bin/env -S PYTHONUNBUFFERED=1 python3', 'python3'],
    ['#!/usr/bin/env -u LANG node', 'node'],
    ['#!/usr/bin/env -Snode --experimental', 'node'],
  ])('%s → %s', (line, interpreter) => {
    expect(parseShebang(line)).toEqual({ interpreter });
  });

  it('no shebang, or env with no program', () => {
    expect(parseShebang('# comment')).toBeNull();
    expect(parseShebang('#!/usr/bin/env -i')).toBeNull();
  });

  it('classifies by extension, else by shebang', () => {
    expect(scriptLanguage('scripts/run', '#!/usr/bin/env python3\nimport x\n')).toBe('python');
    expect(scriptLanguage('scripts/run', '#!/usr/bin/env node\n')).toBe('js');
    expect(scriptLanguage('scripts/run', '#!/bin/sh\n')).toBe('other');
    expect(scriptLanguage('scripts/x.cts', '')).toBe('js');
    expect(scriptLanguage('scripts/x.txt', '#!/usr/bin/env python3\n')).toBe('other');
  });
});

describe('scanSkillFiles', () => {
  let stdlib: ReadonlySet<string>;
  beforeAll(async () => {
    stdlib = await pythonStdlibModules();
  });

  it('Python: maps imports through the alias table, skips the stdlib (real interpreter) and local modules', () => {
    const r = scanSkillFiles(
      [
        { path: 'scripts/main.py', content: PY_MAIN },
        { path: 'scripts/helpers.py', content: 'import requests\n' },
        { path: 'scripts/mypkg/__init__.py', content: '' },
      ],
      { pythonStdlib: stdlib },
    );
    expect(r.diagnostics).toEqual([]);
    expect(names(r.deps)).toEqual([
      'system:python3',
      'pip:requests',
      'pip:numpy',
      'pip:pandas',
      'pip:opencv-python',
      'pip:pyyaml',
      'pip:Pillow',
      'pip:psycopg[binary]',
      'pip:beautifulsoup4',
      'pip:python-dateutil',
    ]);
    const byName = new Map(r.deps.map((d) => [d.spec.name, d]));
    expect(byName.get('opencv-python')).toMatchObject({
      kind: 'pip',
      importName: 'cv2',
      alias: { from: 'cv2', to: 'opencv-python' },
      file: 'scripts/main.py',
      line: 23,
    });
    expect(byName.get('opencv-python')!.alias!.hint).toContain('libgl1');
    expect(byName.get('psycopg')!.spec.extras).toEqual(['binary']);
    expect(byName.get('psycopg')!.alias).toEqual({ from: 'psycopg', to: 'psycopg[binary]' });
    expect(byName.get('requests')!.alias).toBeUndefined();
    expect(byName.get('requests')!.where).toEqual([
      { file: 'scripts/main.py', line: 8 },
      { file: 'scripts/helpers.py', line: 1 },
    ]);
    expect(byName.get('python3')).toMatchObject({ kind: 'binary', file: 'scripts/main.py', line: 1 });
  });

  it('JS/TS: packages from import/require/dynamic import/export-from; skips type-only, relative, absolute, node: and core modules', () => {
    const r = scanSkillFiles([
      { path: 'scripts/server.ts', content: TS_MAIN },
      { path: 'scripts/cli.cjs', content: CJS },
      { path: 'scripts/tool', content: "#!/usr/bin/env node\nrequire('commander');\nrequire('left-pad');\n" },
    ]);
    expect(r.diagnostics).toEqual([]);
    expect(names(r.deps)).toEqual([
      'npm:express',
      'npm:@modelcontextprotocol/sdk',
      'npm:zod',
      'npm:dotenv',
      'npm:lodash-es',
      'npm:chalk',
      'system:node',
      'npm:commander',
      'npm:yargs',
      'npm:left-pad',
    ]);
    const commander = r.deps.find((d) => d.spec.name === 'commander')!;
    expect(commander.where).toEqual([
      { file: 'scripts/cli.cjs', line: 2 },
      { file: 'scripts/tool', line: 2 },
    ]);
    expect(r.deps.find((d) => d.spec.name === 'node')!.where).toHaveLength(2);
  });

  it('invalid names become scan diagnostics, not deps', () => {
    const r = scanSkillFiles([
      { path: 'scripts/a.py', content: 'import _private_thing\n' },
      { path: 'scripts/b.js', content: "require('BadUpper');\n" },
      { path: 'scripts/c', content: '#!/usr/local/bin/MyInterp\n' },
    ]);
    expect(r.deps).toEqual([]);
    expect(r.diagnostics.map((d) => [d.file, d.line, d.raw])).toEqual([
      ['scripts/a.py', 1, '_private_thing'],
      ['scripts/b.js', 1, 'BadUpper'],
      ['scripts/c', 1, 'MyInterp'],
    ]);
  });

  it('admin alias overrides apply and are validated', () => {
    const r = scanSkillFiles([{ path: 'x.py', content: 'import foo_lib\nimport cv2\n' }], {
      aliasOverrides: { foo_lib: 'pip:foo-library[fast]', cv2: 'opencv-python-headless' },
    });
    expect(names(r.deps)).toEqual(['pip:foo-library[fast]', 'pip:opencv-python-headless']);
    expect(() => validateAliasOverrides({ 'not-an-ident': 'x' })).toThrow(/not a Python import name/);
    expect(() => validateAliasOverrides({ ok: 'x;rm' })).toThrow(/shell metacharacter/);
    expect(() => validateAliasOverrides({ ok: 'x==1.0' })).toThrow(/has a version/);
    expect(validateAliasOverrides({ ok: 'pip:x[a]' })).toEqual({ ok: 'x[a]' });
  });

  it('local modules come from file paths and the extra list', () => {
    expect([...localModulesOf(['scripts/a/b.py', 'scripts/c.so', 'docs/readme.md', 'lib/'])].sort()).toEqual(['a', 'b', 'c', 'docs', 'lib', 'scripts']);
    const r = scanSkillFiles([{ path: 'x.py', content: 'import mine\nimport theirs\n' }], { localModules: ['mine'] });
    expect(names(r.deps)).toEqual(['pip:theirs']);
  });
});

describe('aliases', () => {
  it('reverse lookup and the checker import name', () => {
    expect(importNameForPip('beautifulsoup4')).toBe('bs4');
    expect(importNameForPip('PyYAML')).toBe('yaml');
    expect(importNameForPip('psycopg')).toBe('psycopg');
    expect(importNameForPip('requests')).toBeUndefined();
    expect(pipImportName({ raw: '', manager: 'pip', name: 'Typing.Extensions' })).toBe('typing_extensions');
    expect(pipImportName({ raw: '', manager: 'pip', name: 'beautifulsoup4' }, 'custom')).toBe('custom');
  });
});

describe('Python stdlib', () => {
  it('comes from the real interpreter, memoised; falls back to the embedded list', async () => {
    const a = await pythonStdlib();
    expect(a.source).toBe('interpreter');
    expect(a.modules.has('asyncio')).toBe(true);
    expect(a.modules.has('requests')).toBe(false);
    expect(pythonStdlib()).toBe(pythonStdlib());
    const none = await pythonStdlib('definitely-not-a-python-xyz');
    expect(none.source).toBe('fallback');
    expect(none.modules).toBe(fallbackPythonStdlib());
    expect(none.modules.has('tomllib')).toBe(true);
    expect(none.modules.size).toBeGreaterThan(250);
  });
});
