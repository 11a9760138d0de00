import { beforeAll, describe, expect, it } from 'vitest';
import { createShellParser, type ShellParser } from './parser';
import { type Extraction, extractCommands } from './segments';

let parser: ShellParser;
beforeAll(async () => {
  parser = await createShellParser();
});

function extract(text: string, opts = {}): Extraction {
  const p = parser.parse(text);
  if (!p.ok) throw new Error(p.reason);
  try {
    return extractCommands(p.tree.rootNode, opts);
  } finally {
    p.tree.delete();
  }
}
const argvs = (x: Extraction) => x.commands.map((c) => c.words.map((w) => w.value));

describe('extractCommands', () => {
  it('splits across ; && || | & and newlines, keeping pipeline positions', () => {
    const x = extract('a 1; b && c || d | e\nf & g');
    expect(x.issues).toEqual([]);
    expect(argvs(x)).toEqual([['a', '1'], ['b'], ['c'], ['d'], ['e'], ['f'], ['g']]);
    const [, , , d, e, f, g] = x.commands;
    expect(d.pipe.id).toBe(e.pipe.id);
    expect([d.pipe.index, e.pipe.index]).toEqual([0, 1]);
    expect(f.background).toBe(true);
    expect(g.background).toBe(false);
  });

  it('descends into subshells, $(…), backticks and process substitution', () => {
    const x = extract('(a; b) && echo $(c `d`) <(e)');
    expect(argvs(x).map((a) => a[0])).toEqual(['a', 'b', 'echo', 'c', 'd', 'e']);
    expect(x.commands.find((c) => c.words[0].value === 'echo')?.substitution).toBe(true);
    expect(x.commands.find((c) => c.words[0].value === 'd')?.origin).toMatch(/command substitution in command substitution/);
  });

  it('resolves quoting: double, single, concatenation, escapes', () => {
    const x = extract(`"su"do 'a b' s\\udo "x\\"y" ab"c"'d'`);
    expect(argvs(x)).toEqual([['sudo', 'a b', 'sudo', 'x"y', 'abcd']]);
    expect(x.commands[0].words.every((w) => !w.dynamic)).toBe(true);
  });

  it('refuses ANSI-C strings, which bash decodes and dash does not', () => {
    for (const t of [`echo $'\\x41'`, `$'\\x73udo' ls`, `cat $'a'`]) {
      expect(extract(t).issues[0]?.reason, t).toMatch(/ANSI-C string/);
    }
  });

  it('marks variables, substitutions and globs, and resolves HOME and PWD from the context', () => {
    const x = extract('ls $HOME "$PWD/x" $X ${Y:=z} *.txt {a,b}', { home: '/home/u', cwd: '/w' });
    const [, home, pwd, xv, y, glob, brace] = x.commands[0].words;
    expect([home.value, home.dynamic]).toEqual(['/home/u', false]);
    expect([pwd.value, pwd.dynamic]).toEqual(['/w/x', false]);
    expect([xv.dynamic, xv.vars]).toEqual([true, ['X']]);
    expect(y.operators.length).toBeGreaterThan(0);
    expect(glob.expands).toBe(true);
    expect(brace.expands).toBe(true);
  });

  it('keeps the glob pattern of an expanding word, quoted characters escaped', () => {
    const x = extract(`cat "/etc/"* /pr""oc/1/env* "a*"? '[x]'[y] /p/{1..3}/e $HOME/* '/lit*'`, { home: '/h' });
    const pats = x.commands[0].words.slice(1).map((w) => (w.expands ? w.pattern : null));
    expect(pats).toEqual(['/etc/*', '/proc/1/env*', 'a\\*?', '\\[x\\][y]', '/p/*/e', '/h/*', null]);
  });

  it('records leading assignments, export, and redirects with their targets', () => {
    const x = extract('A=1 B="two" cmd x 2>&1 >out; export C=3 D; cat <<<"s"');
    expect(x.issues).toEqual([]);
    const [cmd, exp, cat] = x.commands;
    expect(cat.redirects.map((r) => [r.op, r.body])).toEqual([['<<<', 's']]);
    expect(cmd.assignments.map((a) => [a.name, a.value?.value])).toEqual([
      ['A', '1'],
      ['B', 'two'],
    ]);
    expect(cmd.redirects.map((r) => [r.op, r.fd, r.target?.value])).toEqual([
      ['>&', '2', '1'],
      ['>', null, 'out'],
    ]);
    expect(exp.words.map((w) => w.value)).toEqual(['export', 'C=3', 'D']);
    expect(exp.assignments.map((a) => a.name)).toEqual(['C']);
  });

  it('keeps heredoc bodies and the pipeline that follows a heredoc', () => {
    const x = extract("cat <<'EOF' | sh\nrm -rf /\nEOF");
    expect(argvs(x)).toEqual([['cat'], ['sh']]);
    expect(x.commands[0].redirects[0]).toMatchObject({ op: '<<', body: 'rm -rf /\n', expanded: false });
    expect(x.commands[1].pipe).toEqual({ id: x.commands[0].pipe.id, index: 1 });
  });

  it('refuses node kinds outside the known set', () => {
    for (const text of [
      'for i in 1; do ls; done',
      'if a; then b; fi',
      'while true; do :; done',
      'f() { ls; }',
      '{ ls; }',
      '(( n++ ))',
      'echo $((1+2))',
      'case x in a) ls;; esac',
    ]) {
      expect(extract(text).issues.length, text).toBeGreaterThan(0);
    }
  });

  it('reads [ … ] and [[ … ]] as commands whose words are data', () => {
    const x = extract('[ ! -f "a b" ] && [[ $x == y* && -d /etc ]]');
    expect(x.issues).toEqual([]);
    expect(argvs(x)).toEqual([
      ['[', '!', '-f', 'a b', ']'],
      ['[[', '$x', '==', 'y*', '&&', '-d', '/etc', ']]'],
    ]);
    const sub = extract('[ -z "$(id)" ]');
    expect(sub.commands.map((c) => c.words[0]?.value)).toEqual(['[', 'id']);
  });

  it('refuses a substitution inside an expanded heredoc and a nested backtick', () => {
    expect(extract('cat <<EOF\n$(id)\nEOF').issues.length).toBeGreaterThan(0);
    expect(extract("cat <<'EOF'\n$(id)\nEOF").issues).toEqual([]);
    expect(extract('echo `echo \\`id\\``').issues.length).toBeGreaterThan(0);
  });
});
