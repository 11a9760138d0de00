import { describe, expect, it } from 'vitest';
import { formatSpec } from '../spec';
import { parseSkillDeps } from './frontmatter';
import { resolveSkillDeps } from './resolve';
import { scanSkillFiles } from './scan';

const files = [
  { path: 'scripts/run.py', content: '#!/usr/bin/env python3\nimport requests\nimport cv2\nimport my_local_helper\nfrom bs4 import BeautifulSoup\n' },
  { path: 'scripts/app.mjs', content: "import express from 'express';\n" },
];
const scanned = scanSkillFiles(files).deps;
const fm = (body: string) => parseSkillDeps(`---\nname: s\n${body}---\n`);
const specs = (deps: { spec: Parameters<typeof formatSpec>[0] }[]) => deps.map((d) => formatSpec(d.spec));

describe('resolveSkillDeps: the precedence table', () => {
  it('row 1 — deps absent, exclude_deps absent: the scan result is used', () => {
    const p = fm('');
    const r = resolveSkillDeps({ ...p, scanned });
    expect(specs(r.deps)).toEqual(['system:python3', 'pip:requests', 'pip:opencv-python', 'pip:my_local_helper', 'pip:beautifulsoup4', 'npm:express']);
    expect(r.deps.every((d) => d.source === 'scanned')).toBe(true);
    const cv = r.deps.find((d) => d.spec.name === 'opencv-python')!;
    expect(cv.importName).toBe('cv2');
    expect(cv.alias).toMatchObject({ from: 'cv2', to: 'opencv-python' });
    expect(cv.where).toEqual([{ file: 'scripts/run.py', line: 3 }]);
    expect(r.excludedScanned).toEqual([]);
    expect(r.excludesIgnored).toBe(false);
  });

  it('row 2 — deps absent, exclude_deps present: scan minus excludes (normalised name, import name, system family)', () => {
    const p = fm('exclude_deps:\n  - pip:My-Local.Helper\n  - pip:cv2\n  - python3\n  - npm:not-scanned\n');
    expect(p.diagnostics).toEqual([]);
    const r = resolveSkillDeps({ ...p, scanned });
    expect(specs(r.deps)).toEqual(['pip:requests', 'pip:beautifulsoup4', 'npm:express']);
    expect(specs(r.excludedScanned)).toEqual(['system:python3', 'pip:opencv-python', 'pip:my_local_helper']);
    expect(r.unusedExcludes.map((e) => e.raw)).toEqual(['npm:not-scanned']);
  });

  it('row 3 — deps present: declared as-is, excludes ignored, scan only advisory', () => {
    const p = fm('deps:\n  - pip:requests>=2.31\n  - pip:beautifulsoup4\n  - pip:lxml#lxml\n  - github:cli/cli@v2.40.0\nexclude_deps:\n  - pip:requests\n');
    const r = resolveSkillDeps({ ...p, scanned });
    expect(specs(r.deps)).toEqual(['pip:requests>=2.31', 'pip:beautifulsoup4', 'pip:lxml', 'github:cli/cli@v2.40.0']);
    expect(r.deps.every((d) => d.source === 'declared')).toBe(true);
    expect(r.deps.map((d) => d.line)).toEqual([4, 5, 6, 7]);
    // reverse alias lookup and the explicit #override
    expect(r.deps[1].importName).toBe('bs4');
    expect(r.deps[2].importName).toBe('lxml');
    expect(r.deps[0].importName).toBeUndefined();
    // the scan saw requests: its occurrences are attached
    expect(r.deps[0].where).toEqual([{ file: 'scripts/run.py', line: 2 }]);
    expect(r.excludesIgnored).toBe(true);
    expect(r.excludedScanned).toEqual([]);
    expect(specs(r.undeclaredScanned)).toEqual(['system:python3', 'pip:opencv-python', 'pip:my_local_helper', 'npm:express']);
  });

  it('deps: [] is authoritative too: nothing is installed', () => {
    const r = resolveSkillDeps({ ...fm('deps: []\n'), scanned });
    expect(r.deps).toEqual([]);
    expect(r.undeclaredScanned).toHaveLength(scanned.length);
  });
});
