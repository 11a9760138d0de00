/**
 * Malicious-snippet corpus: each case must be flagged with the named rule and severity, in the
 * file it was put in. Snippets sit in SKILL.md prose, Markdown fenced blocks and scripts of every
 * language, many of them in the shapes the ClawHavoc campaign used.
 */
import { describe, expect, it } from 'vitest';
import { PROSE_AND_SHELL_CASES } from './corpus-cases';
import { CODE_CASES } from './corpus-cases-code';
import { scanSkill } from './index';

const CASES = [...PROSE_AND_SHELL_CASES, ...CODE_CASES];
describe('malicious corpus', () => {
  it('has at least 30 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(CASES)('$name → $rule ($severity)', (c) => {
    const result = scanSkill([{ path: c.file, content: Buffer.from(c.content) }], { env: [], bins: [] });
    const hit = result.findings.find((f) => f.rule === c.rule && f.severity === c.severity && f.file === c.file);
    expect(hit, JSON.stringify(result.findings, null, 1)).toBeDefined();
    if (c.line !== undefined) expect(hit!.line).toBe(c.line);
    expect(result.verdict).toBe(result.findings.some((f) => f.severity === 'critical') ? 'critical' : 'warn');
  });
});
