/**
 * Every real published skill in test/fixtures/skills-real (OpenClaw and Anthropic) is scanned with
 * all its files: none may come out critical or fail — a false critical blocks a real install.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ScanInputFile, scanSkill } from './index';

const ROOT = path.resolve(__dirname, '../../../test/fixtures/skills-real');

function readAll(dir: string, rel = ''): ScanInputFile[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? readAll(dir, p) : [{ path: p, content: fs.readFileSync(path.join(dir, p)) }];
  });
}

const skills = fs
  .readdirSync(ROOT, { withFileTypes: true })
  .filter((v) => v.isDirectory())
  .flatMap((v) =>
    fs
      .readdirSync(path.join(ROOT, v.name), { withFileTypes: true })
      .filter((s) => s.isDirectory())
      .map((s) => `${v.name}/${s.name}`),
  );

describe('real published skills', () => {
  it('are all present (both vendors)', () => {
    expect(skills.filter((s) => s.startsWith('anthropic/')).length).toBeGreaterThanOrEqual(10);
    expect(skills.filter((s) => s.startsWith('openclaw/')).length).toBeGreaterThanOrEqual(20);
  });

  it.each(skills)('%s has no critical finding', (skill) => {
    const files = readAll(path.join(ROOT, skill));
    const result = scanSkill(files, { env: [], bins: [] });
    const critical = result.findings.filter((f) => f.severity === 'critical');
    expect(critical, JSON.stringify(critical, null, 1)).toEqual([]);
    expect(result.verdict).not.toBe('critical');
    expect(result.verdict).not.toBe('error');
    expect(result.error).toBeUndefined();
    expect(result.filesScanned).toBe(files.length);
  });
});
