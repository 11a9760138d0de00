/**
 * Inputs whose scan results are pinned (verdicts.fixture.json): every real published skill of
 * test/fixtures/skills-real and every case of the malicious corpus.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROSE_AND_SHELL_CASES } from './corpus-cases';
import { CODE_CASES } from './corpus-cases-code';
import type { ScanInputFile } from './scan';

const REAL = path.resolve(__dirname, '../../../test/fixtures/skills-real');

function readAll(dir: string, rel = ''): ScanInputFile[] {
  return fs
    .readdirSync(path.join(dir, rel), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => {
      const p = rel ? `${rel}/${e.name}` : e.name;
      return e.isDirectory() ? readAll(dir, p) : [{ path: p, content: fs.readFileSync(path.join(dir, p)) }];
    });
}

export function verdictInputs(): { name: string; files: ScanInputFile[] }[] {
  const real = fs
    .readdirSync(REAL, { withFileTypes: true })
    .filter((v) => v.isDirectory())
    .flatMap((v) =>
      fs
        .readdirSync(path.join(REAL, v.name), { withFileTypes: true })
        .filter((s) => s.isDirectory())
        .map((s) => `${v.name}/${s.name}`),
    )
    .sort()
    .map((name) => ({ name, files: readAll(path.join(REAL, name)) }));
  const corpus = [...PROSE_AND_SHELL_CASES, ...CODE_CASES].map((c) => ({
    name: `corpus: ${c.name}`,
    files: [{ path: c.file, content: Buffer.from(c.content) }],
  }));
  return [...real, ...corpus];
}
