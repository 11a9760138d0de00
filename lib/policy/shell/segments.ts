// From a parse tree to simple commands. Only node kinds listed here are understood; anything else
// (control flow, functions, arithmetic, test expressions, parse errors) makes the command
// unjudgeable, and an unjudgeable command is refused.
import type { Node } from 'web-tree-sitter';
import { literalWord, resolveWord, type Word, type WordEnv } from './words';

export interface Redirect {
  /** `>`, `>>`, `<`, `&>`, `>&`, `<&`, `>|`, `<<`, `<<-`, `<<<`. */
  op: string;
  fd: string | null;
  /** The file (or fd number) of a file redirect; the string of a here-string. */
  target: Word | null;
  /** The body of a heredoc or here-string: what the command reads on stdin. */
  body?: string;
  /** A heredoc whose body the outer shell expands (unquoted delimiter). */
  expanded?: boolean;
}

export interface SimpleCommand {
  /** The command as written (a slice of the script it came from). */
  text: string;
  words: Word[];
  assignments: { name: string; value: Word | null }[];
  redirects: Redirect[];
  background: boolean;
  /** Which pipeline the command is part of and where; commands outside a pipeline have their own id. */
  pipe: { id: number; index: number };
  /** How it was reached: top level, inside `$(…)`, a subshell, a heredoc fed to a shell, `sh -c`. */
  origin: string;
  /** A substitution's result is used in this command's words or assignments. */
  substitution: boolean;
}

export interface Issue {
  rule: 'unparseable';
  reason: string;
  text: string;
}

export interface Extraction {
  commands: SimpleCommand[];
  issues: Issue[];
  /** The next free pipeline id. */
  nextPipe: number;
}

// process-wide: a constant table, never written
const STATEMENTS = new Set([
  'command',
  'pipeline',
  'list',
  'subshell',
  'redirected_statement',
  'negated_command',
  'variable_assignment',
  'variable_assignments',
  'declaration_command',
  'unset_command',
  'test_command',
  'comment',
]);

/** Inside `[ … ]` / `[[ … ]]`: expressions are walked, patterns and regexes are data. */
// process-wide: a constant table, never written
const TEST_EXPRESSIONS = new Set(['unary_expression', 'binary_expression', 'parenthesized_expression']);
// process-wide: a constant table, never written
const TEST_DATA = new Set(['test_operator', 'regex', 'extglob_pattern']);

export interface ExtractOptions {
  home?: string;
  cwd?: string;
  origin?: string;
  /** First pipeline id to hand out, so commands parsed again (`sh -c`) get ids of their own. */
  pipeBase?: number;
}

/** A heredoc delimiter word as written: plain, or quoted whole (`'EOF'`, `"EOF"`, `\\EOF`). */
const DELIMITER = /^(?:([A-Za-z0-9_.-]{1,64})|'([A-Za-z0-9_.-]{1,64})'|"([A-Za-z0-9_.-]{1,64})"|\\([A-Za-z0-9_.-]{1,64}))$/;

/** The line that ends a heredoc, or null when the delimiter is one the shells read differently. */
export function heredocDelimiter(written: string): string | null {
  const m = DELIMITER.exec(written);
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4]) : null;
}

export function extractCommands(root: Node, opts: ExtractOptions = {}): Extraction {
  const commands: SimpleCommand[] = [];
  const issues: Issue[] = [];
  let nextPipe = opts.pipeBase ?? 0;
  const unknown = (n: Node, why: string) => issues.push({ rule: 'unparseable', reason: `Not understood: ${why}.`, text: n.text.slice(0, 200) });

  const wordEnv = (origin: string, inBacktick: boolean, mark: { substitution: boolean }): WordEnv => ({
    home: opts.home,
    cwd: opts.cwd,
    inBacktick,
    onUnknown: unknown,
    onSubstitution: (n) => {
      mark.substitution = true;
      const backtick = n.child(0)?.type === '`';
      const kind = n.type === 'process_substitution' ? 'process substitution' : 'command substitution';
      for (const c of n.namedChildren) if (c) statement(c, `${kind} in ${origin}`, null, backtick || inBacktick);
    },
  });

  function assignment(n: Node, env: WordEnv): { name: string; value: Word | null } {
    const name = n.childForFieldName('name');
    const value = n.childForFieldName('value');
    if (value?.type === 'array') {
      for (const c of value.namedChildren) if (c) resolveWord(c, env);
      return { name: name?.text ?? '', value: literalWord(value.text) };
    }
    return { name: name?.text ?? '', value: value ? resolveWord(value, env) : null };
  }

  function redirect(n: Node, env: WordEnv, cmd: SimpleCommand, origin: string, inBacktick: boolean): void {
    const op = n.children.find((c) => c && !c.isNamed && c.type !== 'ERROR')?.type ?? '';
    const fd = n.childForFieldName('descriptor')?.text ?? null;
    if (n.type === 'file_redirect') {
      // bash: stdout and stderr to a file; dash: `&` ends the command (it runs in the background)
      // and `>f` is a redirect of its own.
      if (op === '&>' || op === '&>>') unknown(n, `"${op}" (bash writes both outputs to the file, sh sends the command to the background); write ">file 2>&1"`);
      const dest = n.childForFieldName('destination');
      cmd.redirects.push({ op, fd, target: dest ? resolveWord(dest, env) : null });
    } else if (n.type === 'herestring_redirect') {
      const arg = n.namedChildren.find((c) => c && c.type !== 'file_descriptor');
      const target = arg ? resolveWord(arg, env) : null;
      cmd.redirects.push({ op, fd, target, body: target?.value ?? '' });
    } else if (n.type === 'heredoc_redirect') {
      const start = n.namedChildren.find((c) => c?.type === 'heredoc_start');
      const body = n.namedChildren.find((c) => c?.type === 'heredoc_body');
      const end = n.namedChildren.find((c) => c?.type === 'heredoc_end');
      const delimiter = heredocDelimiter(start?.text ?? '');
      if (delimiter === null)
        unknown(
          n,
          `the heredoc delimiter ${JSON.stringify(start?.text ?? '')} (sh ends a delimiter at a shell metacharacter, this parser at a blank; use letters, digits, "_", "." or "-", quoted or not)`,
        );
      else if (end?.text !== delimiter) unknown(n, `a heredoc whose end line ${JSON.stringify(delimiter)} is missing`);
      const expanded = !!start && !/["'\\]/.test(start.text);
      const text = body?.text ?? '';
      if (expanded && (text.includes('$(') || text.includes('`'))) unknown(n, 'a command substitution inside a heredoc');
      cmd.redirects.push({ op, fd, target: null, body: text, expanded });
      for (const c of n.namedChildren) {
        if (!c || c.type === 'heredoc_start' || c.type === 'heredoc_body' || c.type === 'heredoc_end') continue;
        if (c.type === 'file_redirect' || c.type === 'herestring_redirect') redirect(c, env, cmd, origin, inBacktick);
        // `cat <<EOF | sh`: the rest of the line hangs under the heredoc; its first command reads the pipe.
        else if (STATEMENTS.has(c.type)) statement(c, origin, { id: cmd.pipe.id, index: cmd.pipe.index + 1 }, inBacktick);
        else unknown(c, `${c.type} after a heredoc`);
      }
    } else unknown(n, n.type);
  }

  function simple(n: Node, origin: string, pipe: SimpleCommand['pipe'] | null, inBacktick: boolean): SimpleCommand {
    const cmd: SimpleCommand = {
      text: n.text,
      words: [],
      assignments: [],
      redirects: [],
      background: false,
      pipe: pipe ?? { id: nextPipe++, index: 0 },
      origin,
      substitution: false,
    };
    commands.push(cmd);
    const env = wordEnv(origin, inBacktick, cmd);
    if (n.type === 'variable_assignment') cmd.assignments.push(assignment(n, env));
    else if (n.type === 'variable_assignments') {
      for (const c of n.namedChildren) if (c) cmd.assignments.push(assignment(c, env));
    } else if (n.type === 'test_command') {
      // `[ -f x ]` runs nothing: its words are judged for substitutions and paths.
      const walk = (c: Node) => {
        if (!c.isNamed) cmd.words.push(literalWord(c.type));
        else if (TEST_EXPRESSIONS.has(c.type)) for (const k of c.children) k && walk(k);
        else if (TEST_DATA.has(c.type)) cmd.words.push(literalWord(c.text));
        else cmd.words.push(resolveWord(c, env));
      };
      for (const c of n.children) if (c) walk(c);
    } else if (n.type === 'declaration_command' || n.type === 'unset_command') {
      cmd.words.push(literalWord(n.child(0)?.type ?? ''));
      for (const c of n.namedChildren) {
        if (!c) continue;
        if (c.type === 'variable_assignment') {
          const a = assignment(c, env);
          cmd.assignments.push(a);
          cmd.words.push({ ...literalWord(c.text), value: `${a.name}=${a.value?.value ?? ''}`, dynamic: !!a.value?.dynamic });
        } else if (c.type === 'variable_name') cmd.words.push(literalWord(c.text));
        else cmd.words.push(resolveWord(c, env));
      }
    } else {
      for (const c of n.children) {
        if (!c) continue;
        if (c.type === 'variable_assignment') cmd.assignments.push(assignment(c, env));
        else if (c.type === 'command_name') {
          const w = c.namedChildren[0];
          if (w) cmd.words.push(resolveWord(w, env));
        } else if (c.type.endsWith('_redirect')) redirect(c, env, cmd, origin, inBacktick);
        else if (c.isNamed) cmd.words.push(resolveWord(c, env));
        else unknown(c, `the token "${c.type}" in a command`);
      }
    }
    return cmd;
  }

  /** The node a pending redirect belongs to, and where its commands start in `commands`. */
  let tailMark: { id: number; at: number } | null = null;

  function statement(n: Node, origin: string, pipe: SimpleCommand['pipe'] | null, inBacktick: boolean): void {
    if (tailMark && n.id === tailMark.id) tailMark.at = commands.length;
    switch (n.type) {
      case 'comment':
        return;
      case 'command':
      case 'variable_assignment':
      case 'variable_assignments':
      case 'declaration_command':
      case 'unset_command':
      case 'test_command':
        simple(n, origin, pipe, inBacktick);
        return;
      case 'negated_command':
        for (const c of n.namedChildren) if (c) statement(c, origin, pipe, inBacktick);
        return;
      case 'pipeline': {
        const id = pipe?.id ?? nextPipe++;
        let index = pipe?.index ?? 0;
        for (const c of n.namedChildren) if (c) statement(c, origin, { id, index: index++ }, inBacktick);
        return;
      }
      case 'list': {
        // `a && b`: only the first command of the list takes the pipe position it was given.
        let first = true;
        for (const c of n.namedChildren) {
          if (!c) continue;
          statement(c, origin, first ? pipe : null, inBacktick);
          first = false;
        }
        return;
      }
      case 'subshell':
        sequence(n, `subshell in ${origin}`, inBacktick);
        return;
      case 'redirected_statement': {
        const body = n.childForFieldName('body');
        // tree-sitter hangs `a && b | c > f` on the whole list; sh gives the redirect to the last
        // command of the list or pipeline (`c`), or to every command of a group or subshell there.
        let tail = body;
        while (tail && (tail.type === 'list' || tail.type === 'pipeline') && tail.lastNamedChild) tail = tail.lastNamedChild;
        const outer = tailMark;
        tailMark = tail ? { id: tail.id, at: commands.length } : null;
        if (body) statement(body, origin, pipe, inBacktick);
        const mine = commands.slice(tailMark?.at ?? commands.length);
        tailMark = outer;
        const target = mine[0] ?? simple(n, origin, pipe, inBacktick);
        for (const c of n.children) {
          if (!c || (body && c.id === body.id)) continue;
          if (c.type.endsWith('_redirect')) {
            const at = target.redirects.length;
            redirect(c, wordEnv(origin, inBacktick, target), target, origin, inBacktick);
            // `(a; b) > f`: every command of the group writes there.
            for (const other of mine.slice(1)) other.redirects.push(...target.redirects.slice(at));
          } else if (c.isNamed) unknown(c, c.type);
        }
        return;
      }
      default:
        unknown(n, n.isError || n.isMissing ? 'a syntax error' : n.type);
    }
  }

  /** Statements in order; a `&` after a statement sends all of its commands to the background. */
  function sequence(n: Node, origin: string, inBacktick: boolean): void {
    let since = commands.length;
    for (const c of n.children) {
      if (!c) continue;
      if (c.isNamed) {
        since = commands.length;
        statement(c, origin, null, inBacktick);
      } else if (c.type === '&') {
        for (const cmd of commands.slice(since)) cmd.background = true;
      } else if (![';', '\n', ';;', '(', ')', '&&', '||'].includes(c.type) && c.type.trim() !== '') unknown(c, `the token "${c.type}"`);
    }
  }

  if (root.type !== 'program') unknown(root, root.type);
  else sequence(root, opts.origin ?? 'the command', false);
  return { commands, issues, nextPipe };
}
