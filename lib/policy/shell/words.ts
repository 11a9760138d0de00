// One shell word as the shell would see it after quote removal: `"su"do` → `sudo`, `s\udo` →
// `sudo`. What cannot be known before the command runs (a variable, a command
// substitution, a glob) is marked, never guessed.
import type { Node } from 'web-tree-sitter';
import { escapePattern } from './globs';

export interface Word {
  /** The word as written. */
  text: string;
  /** The resolved value; unknown parts keep their written text (`$X`). */
  value: string;
  /** Some part is only known at run time (a variable, a substitution). */
  dynamic: boolean;
  /** Expands to other words: an unquoted glob or brace expansion. */
  expands: boolean;
  /** Names of the variables referenced (`HOME`, `@`, `1`). */
  vars: string[];
  /** The variables expanded outside double quotes (split into words and globbed by the shell). */
  bareVars: string[];
  /** A `$(…)`, backtick or process substitution is part of the word. */
  substitution: boolean;
  /** A `${x@P}`-style transformation or another parameter operator. */
  operators: string[];
  /** For a word that expands: the glob as bash matches it, quoted characters escaped (`"a*"*` → `a\**`). */
  pattern?: string;
}

/** Variables whose value is harmless to pass as an argument; HOME and PWD resolve from the context. */
// process-wide: a constant table, never written
export const SAFE_VARS = new Set(['HOME', 'PWD', 'OLDPWD', 'USER', 'LOGNAME', 'TMPDIR', 'LANG', 'SKILLDOCK_SKILLS_DIR']);
export const isSafeVar = (name: string) => SAFE_VARS.has(name) || name.startsWith('SKILLDOCK_SKILL_DIR');

export interface WordEnv {
  home?: string;
  cwd?: string;
  /** Called for each `$(…)`, backtick or `<(…)` met inside a word: its commands are judged too. */
  onSubstitution(node: Node): void;
  /** Called for a node kind the resolver does not know: the command is refused. */
  onUnknown(node: Node, why: string): void;
  inBacktick: boolean;
}

const GLOB = /[*?[]/;

/** Backslash removal in an unquoted word: `\x` → `x`, a backslash-newline disappears. */
export function unescapeUnquoted(s: string): string {
  if (!s.includes('\\')) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length) {
      i++;
      if (s[i] !== '\n') out += s[i];
    } else out += s[i];
  }
  return out;
}

/** Inside double quotes a backslash escapes only `$`, a backtick, `"`, `\` and newline. */
function unescapeDouble(s: string): string {
  if (!s.includes('\\')) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const n = s[i + 1];
    if (s[i] === '\\' && n !== undefined && '$`"\\\n'.includes(n)) {
      i++;
      if (n !== '\n') out += n;
    } else out += s[i];
  }
  return out;
}

function variable(node: Node, env: WordEnv, w: Word, quoted: boolean): string {
  let name = '';
  for (const c of node.namedChildren) {
    if (!c) continue;
    if (c.type === 'variable_name' || c.type === 'special_variable_name') name ||= c.text;
    else if (c.type === 'command_substitution' || c.type === 'process_substitution') {
      w.substitution = true;
      env.onSubstitution(c);
    } else if (
      c.type !== 'word' &&
      c.type !== 'string' &&
      c.type !== 'raw_string' &&
      c.type !== 'number' &&
      c.type !== 'simple_expansion' &&
      c.type !== 'expansion'
    ) {
      env.onUnknown(c, `${c.type} inside a parameter expansion`);
    }
  }
  // Anything but `$NAME` / `${NAME}` (an operator, a default, a transformation) is dynamic.
  const operators = node.children.filter((c) => c && !c.isNamed && !['$', '${', '}'].includes(c.type)).map((c) => c!.type);
  // `${X:-text}` with a literal default is still one plain value; any other operator is recorded.
  const literalDefault =
    operators.length > 0 &&
    operators.every((o) => o === ':-' || o === '-') &&
    node.namedChildren.every((c) => !c || c.type === 'variable_name' || c.type === 'raw_string' || (c.type === 'word' && !/[$`\\]/.test(c.text)));
  if (operators.length && !literalDefault) w.operators.push(...operators);
  w.vars.push(name || node.text);
  if (!quoted) w.bareVars.push(name || node.text);
  if (!operators.length && name === 'HOME' && env.home) return env.home;
  if (!operators.length && name === 'PWD' && env.cwd) return env.cwd;
  w.dynamic = true;
  return node.text;
}

function part(node: Node, env: WordEnv, w: Word, quoted: boolean, pat: string[]): string {
  const lit = (s: string) => {
    pat.push(escapePattern(s));
    return s;
  };
  switch (node.type) {
    case 'word':
      if (env.inBacktick && node.text.includes('\\`')) env.onUnknown(node, 'a nested backtick substitution');
      if (!quoted && GLOB.test(node.text.replace(/\\./g, ''))) w.expands = true;
      if (!quoted && (node.text === '{' || node.text === '}')) w.expands = true;
      if (quoted) return lit(node.text);
      pat.push(node.text.replaceAll('\\\n', ''));
      return unescapeUnquoted(node.text);
    case 'number':
    case 'heredoc_content':
      return lit(node.text);
    case 'string_content':
      return lit(unescapeDouble(node.text));
    case 'raw_string':
      return lit(node.text.slice(1, -1));
    case 'ansi_c_string':
      // bash decodes the escapes of `$'…'`; dash reads a `$` and a quoted string: which one runs
      // depends on the sandbox's sh, so the word is not judged at all.
      env.onUnknown(node, `the ANSI-C string ${node.text.slice(0, 40)} (bash decodes its escapes, sh reads it as "$" and a quoted string)`);
      w.dynamic = true;
      return lit(node.text);
    case 'string':
    case 'translated_string': {
      let s = '';
      for (const c of node.namedChildren) if (c) s += part(c, env, w, true, pat);
      return s;
    }
    case 'concatenation': {
      let s = '';
      for (const c of node.children) {
        if (!c) continue;
        if (!c.isNamed) {
          // `$"…"` (a translated string) shows up as a bare `$` token: refuse rather than guess.
          env.onUnknown(c, `the token "${c.type}" inside a word`);
          continue;
        }
        s += part(c, env, w, quoted, pat);
      }
      return s;
    }
    case 'simple_expansion':
    case 'expansion':
      return lit(variable(node, env, w, quoted));
    case 'command_substitution':
    case 'process_substitution':
      w.substitution = true;
      w.dynamic = true;
      env.onSubstitution(node);
      return lit(node.text);
    case 'brace_expression':
      // `{1..3}`, `{a..z}`: a sequence of names without a `/`, so `*` stands for all of them.
      w.expands = true;
      pat.push('*');
      return node.text;
    default:
      env.onUnknown(node, `${node.type} in a word`);
      w.dynamic = true;
      return lit(node.text);
  }
}

export function resolveWord(node: Node, env: WordEnv): Word {
  const w: Word = { text: node.text, value: '', dynamic: false, expands: false, vars: [], bareVars: [], substitution: false, operators: [] };
  const pat: string[] = [];
  w.value = part(node, env, w, false, pat);
  if (w.expands) w.pattern = pat.join('');
  return w;
}

export const literalWord = (text: string): Word => ({
  text,
  value: text,
  dynamic: false,
  expands: false,
  vars: [],
  bareVars: [],
  substitution: false,
  operators: [],
});
