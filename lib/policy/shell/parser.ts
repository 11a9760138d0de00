// The shell parser: tree-sitter-bash compiled to WASM, run by web-tree-sitter. The WASM runtime and
// the grammar load once per process (async); after that every parse is synchronous, bounded in
// input size and in time.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Language, type Node, Parser, type Tree } from 'web-tree-sitter';

/** Commands longer than this (UTF-8 bytes) are refused before parsing. */
export const MAX_COMMAND_BYTES = 64 * 1024;
/**
 * Wall-clock budget of one parse: a parse still running after it is cancelled (and the command
 * refused). tree-sitter's error recovery is superlinear on some inputs (`)` repeated thousands of
 * times takes seconds), while ordinary commands parse in well under a millisecond; the budget
 * grows with the input so a long legitimate script on a busy machine still fits.
 */
export const parseBudgetMs = (bytes: number) => 250 + Math.ceil((20 * bytes) / 1024);

export type ParseResult = { ok: true; tree: Tree } | { ok: false; rule: 'too_long' | 'unparseable'; reason: string };

export interface ShellParser {
  /** Parses one script. The caller must `tree.delete()` a returned tree (WASM memory). */
  parse(text: string, budgetMs?: number): ParseResult;
}

function resolveFile(spec: string, fallback: string): string {
  const local = path.join(process.cwd(), 'node_modules', fallback);
  if (fs.existsSync(local)) return local;
  return createRequire(import.meta.url).resolve(spec);
}

// process-wide: the bash grammar, loaded once from the package and never written
let loaded: Promise<Language> | undefined;

/** Loads the runtime and the grammar once; a failed load is retried on the next call. */
function loadLanguage(): Promise<Language> {
  loaded ??= (async () => {
    const runtimeWasm = resolveFile('web-tree-sitter/tree-sitter.wasm', 'web-tree-sitter/tree-sitter.wasm');
    await Parser.init({ locateFile: () => runtimeWasm });
    const grammar = fs.readFileSync(resolveFile('tree-sitter-bash/tree-sitter-bash.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm'));
    const language = await Language.load(grammar);
    // Let the compile of the grammar finish its last step on the event loop before the first parse:
    // a parse that runs first makes V8 do several hundred milliseconds of work on this thread
    // afterwards, which a worker's first command then pays inside its budget.
    await new Promise((resolve) => setTimeout(resolve, 0));
    return language;
  })().catch((e: unknown) => {
    loaded = undefined;
    throw e;
  });
  return loaded;
}

export async function createShellParser(): Promise<ShellParser> {
  const language = await loadLanguage();
  const parser = new Parser();
  parser.setLanguage(language);
  // The first parse compiles the grammar's hot paths; do it here, not inside a request's budget.
  parser.parse('ls -la | grep "x" && echo $(id) > /dev/null')?.delete();
  return {
    parse(text, budget) {
      const bytes = Buffer.byteLength(text, 'utf8');
      const budgetMs = budget ?? parseBudgetMs(bytes);
      if (bytes > MAX_COMMAND_BYTES) {
        return { ok: false, rule: 'too_long', reason: `The command is longer than ${MAX_COMMAND_BYTES / 1024} KiB.` };
      }
      const deadline = performance.now() + budgetMs;
      let cancelled = false;
      parser.reset();
      const tree = parser.parse(text, null, {
        // Returning true cancels the parse (the declared type says void; the runtime reads the result).
        progressCallback: (() => {
          if (performance.now() > deadline) cancelled = true;
          return cancelled;
        }) as () => void,
      });
      if (!tree || cancelled) {
        tree?.delete();
        parser.reset();
        return { ok: false, rule: 'unparseable', reason: `Parsing took longer than ${budgetMs} ms.` };
      }
      return { ok: true, tree };
    },
  };
}

/** The first node (pre-order) that is an error or a missing token, or null. */
export function firstError(root: Node): Node | null {
  if (!root.hasError) return null;
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.isError || n.isMissing) return n;
    if (!n.hasError) continue;
    for (let i = n.childCount - 1; i >= 0; i--) {
      const c = n.child(i);
      if (c) stack.push(c);
    }
  }
  return root;
}

/**
 * Text the tree does not account for: tree-sitter's error recovery can skip a token without an
 * error node (`python3 - <<EOF` loses the `-`). Every character outside the leaves must be
 * blank or a line continuation, or the tree is not what bash will run. Returns the first such
 * text, or null.
 */
export function uncoveredText(root: Node, text: string): string | null {
  let at = root.startIndex;
  const gap = (from: number, to: number): string | null => {
    const g = text.slice(from, to).replace(/\\\n/g, '');
    return /\S/.test(g) ? g.trim() : null;
  };
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    // A heredoc body is one piece of text; its children do not always cover it.
    if (n.childCount === 0 || n.type === 'heredoc_body') {
      if (n.startIndex > at) {
        const g = gap(at, n.startIndex);
        if (g) return g;
      }
      at = Math.max(at, n.endIndex);
      continue;
    }
    for (let i = n.childCount - 1; i >= 0; i--) {
      const c = n.child(i);
      if (c) stack.push(c);
    }
  }
  return gap(at, text.length);
}
