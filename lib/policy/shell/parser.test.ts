import { beforeAll, describe, expect, it } from 'vitest';
import { createShellParser, firstError, MAX_COMMAND_BYTES, type ShellParser, uncoveredText } from './parser';

let parser: ShellParser;
beforeAll(async () => {
  parser = await createShellParser();
});

function withTree<T>(text: string, f: (p: Extract<ReturnType<ShellParser['parse']>, { ok: true }>) => T): T {
  const p = parser.parse(text);
  if (!p.ok) throw new Error(p.reason);
  try {
    return f(p);
  } finally {
    p.tree.delete();
  }
}

describe('the shell parser', () => {
  it('loads the grammar and parses bash', () => {
    withTree('ls -la | sort && echo "x"', (p) => {
      expect(p.tree.rootNode.type).toBe('program');
      expect(firstError(p.tree.rootNode)).toBeNull();
      expect(p.tree.rootNode.child(0)?.type).toBe('list');
    });
  });

  it('a second parser shares the loaded grammar', async () => {
    const other = await createShellParser();
    const p = other.parse('echo hi');
    expect(p.ok).toBe(true);
    if (p.ok) p.tree.delete();
  });

  it('finds syntax errors and missing tokens', () => {
    withTree('echo "unterminated', (p) => expect(firstError(p.tree.rootNode)).not.toBeNull());
    withTree('ls )', (p) => expect(firstError(p.tree.rootNode)).not.toBeNull());
    withTree('if true; then ls', (p) => expect(firstError(p.tree.rootNode)).not.toBeNull());
  });

  it('reports text the tree skipped without an error node', () => {
    withTree('python3 - <<EOF\nprint(1)\nEOF', (p) => {
      expect(p.tree.rootNode.hasError).toBe(false);
      expect(uncoveredText(p.tree.rootNode, 'python3 - <<EOF\nprint(1)\nEOF')).toBe('-');
    });
    withTree('ls \\\n  -la  # note', (p) => expect(uncoveredText(p.tree.rootNode, 'ls \\\n  -la  # note')).toBeNull());
  });

  it('refuses input over 64 KiB before parsing', () => {
    const p = parser.parse(`echo ${'a'.repeat(MAX_COMMAND_BYTES)}`);
    expect(p).toMatchObject({ ok: false, rule: 'too_long' });
    // Bytes count, not characters: 22,000 three-byte characters are over the limit.
    expect(parser.parse(`echo ${'中'.repeat(22_000)}`)).toMatchObject({ ok: false, rule: 'too_long' });
  });

  it('cancels a parse that runs out of its time budget, and parses normally afterwards', () => {
    const big = Array.from({ length: 1000 }, (_, i) => `echo "${i}" | grep -c x && ls -la dir${i}`).join('\n');
    expect(parser.parse(big, 0)).toMatchObject({ ok: false, rule: 'unparseable' });
    withTree('echo after', (p) => expect(p.tree.rootNode.text).toBe('echo after'));
  });
});
