import { beforeAll, describe, expect, it } from 'vitest';
import { createShellParser, type ShellParser } from './parser';
import { extractCommands } from './segments';
import { parseOptions, WRAPPERS } from './wrapper-specs';
import { MAX_DEPTH, type Reparse, type Segment, unwrap } from './wrappers';

let parser: ShellParser;
beforeAll(async () => {
  parser = await createShellParser();
});

const parse = (text: string) => {
  const p = parser.parse(text);
  if (!p.ok) throw new Error(p.reason);
  try {
    return extractCommands(p.tree.rootNode);
  } finally {
    p.tree.delete();
  }
};
const reparse: Reparse = (script) => parse(script);
const segs = (text: string): Segment[] => parse(text).commands.flatMap((c) => unwrap(c, reparse));
const view = (text: string) => segs(text).map((s) => ({ argv: s.argv, wrappers: s.wrappers, issues: s.issues.map((i) => i.rule) }));

describe('unwrap', () => {
  it('peels env with options and assignments, nice, nohup, timeout, stdbuf, command, exec', () => {
    expect(view('env -i -u X A=1 nice -n 5 nohup timeout -s KILL 5 stdbuf -oL command exec ls -la')).toEqual([
      { argv: ['ls', '-la'], wrappers: ['env', 'nice', 'nohup', 'timeout', 'stdbuf', 'command', 'exec'], issues: [] },
    ]);
    expect(segs('env A=1 B=2 ls')[0].assignments.map((a) => a.name)).toEqual(['A', 'B']);
  });

  it('peels launchers: flock, taskset, chrt, unbuffer, fakeroot, cross-env, uv run; parses watch, script -c and flock -c strings again', () => {
    expect(view('flock -n /tmp/l taskset -c 0 chrt -f 5 unbuffer fakeroot cross-env A=1 uv run ls -la')).toEqual([
      { argv: ['ls', '-la'], wrappers: ['flock', 'taskset', 'chrt', 'unbuffer', 'fakeroot', 'cross-env', 'uv'], issues: [] },
    ]);
    expect(view('watch -n 1 "ls; id"').map((s) => s.argv)).toEqual([['ls'], ['id']]);
    expect(view('script -q -c "id" /dev/null')[0]).toMatchObject({ argv: ['id'], wrappers: ['script -c'] });
    expect(view('flock /tmp/l -c "id"')[0]).toMatchObject({ argv: ['id'], wrappers: ['flock -c'] });
    expect(segs('coproc ls')[0]).toMatchObject({ argv: ['ls'], background: true });
    expect(segs('fakeroot')[0]).toMatchObject({ argv: ['sh'], readsStdin: true });
    expect(view('taskset --bogus 1 ls')[0].issues).toEqual(['wrapper_options']);
  });

  it('takes the busybox applet, and the command of sudo, doas and xargs', () => {
    expect(view('busybox rm -rf x')[0]).toMatchObject({ argv: ['rm', '-rf', 'x'], wrappers: ['busybox'] });
    expect(view('sudo -u root -E -- id -u')[0]).toMatchObject({ argv: ['id', '-u'], wrappers: ['sudo'] });
    expect(view('doas -u root id')[0]).toMatchObject({ argv: ['id'], wrappers: ['doas'] });
    expect(view('xargs -0 -n1 -I{} rm {}')[0]).toMatchObject({ argv: ['rm', '{}'], wrappers: ['xargs'] });
    expect(view('xargs')[0]).toMatchObject({ argv: ['echo'], wrappers: ['xargs'] });
    expect(view('sudo -s')[0]).toMatchObject({ argv: ['sh'], wrappers: ['sudo'] });
  });

  it('parses sh -c, bash -lc, eval and heredocs fed to a shell again', () => {
    expect(view('sh -c "a; b | c"').map((s) => s.argv[0])).toEqual(['a', 'b', 'c']);
    expect(view('bash -lc "env sudo id"')[0]).toMatchObject({ argv: ['id'], wrappers: ['bash -c', 'env', 'sudo'] });
    expect(view('eval "x y"')[0]).toMatchObject({ argv: ['x', 'y'], wrappers: ['eval'] });
    expect(view('sh <<EOF\nid\nEOF')[0]).toMatchObject({ argv: ['id'], wrappers: ['sh <<'] });
    expect(view('bash <<< "id -u"')[0]).toMatchObject({ argv: ['id', '-u'], wrappers: ['bash <<<'] });
  });

  it('keeps a shell running a script file as it is, and marks a shell reading stdin', () => {
    expect(view('bash -e scripts/x.sh arg')[0]).toMatchObject({ argv: ['bash', '-e', 'scripts/x.sh', 'arg'], wrappers: [] });
    expect(segs('cat x | sh')[1].readsStdin).toBe(true);
  });

  it('adds the commands find -exec runs', () => {
    expect(view('find . -name x -exec env sudo rm {} \\; -print').map((s) => [s.argv[0], s.wrappers])).toEqual([
      ['find', []],
      ['rm', ['find -exec', 'env', 'sudo']],
    ]);
  });

  it('refuses unknown wrapper options, env -S, run-time strings and deep nesting', () => {
    expect(view('timeout --bogus 5 ls')[0].issues).toEqual(['wrapper_options']);
    expect(view('env -S "sudo id"')[0].issues).toEqual(['wrapper_options']);
    expect(view('env -iS "sudo id"')[0].issues).toEqual(['wrapper_options']);
    expect(view('sh -c "$X"')[0].issues).toEqual(['deny_group:code_injection']);
    expect(view('eval "$X"')[0].issues).toEqual(['deny_group:code_injection']);
    let cmd = 'ls';
    for (let i = 0; i <= MAX_DEPTH; i++) cmd = `sh -c ${JSON.stringify(cmd)}`;
    expect(view(cmd).flatMap((s) => s.issues)).toContain('too_deep');
  });

  it('reads option clusters and values the way the tools do', () => {
    expect(parseOptions(['timeout', '-k5', '-s', 'TERM', '10', 'x'], 1, WRAPPERS.timeout)).toEqual({
      ok: true,
      rest: 4,
      seen: ['-k', '-s'],
      values: { '-k': '5', '-s': 'TERM' },
    });
    expect(parseOptions(['sudo', '--user=root', '-g', 'wheel', 'x'], 1, WRAPPERS.sudo)).toMatchObject({ values: { '--user': 'root', '-g': 'wheel' } });
    expect(parseOptions(['sudo', '--user=root', '-n', 'x'], 1, WRAPPERS.sudo)).toMatchObject({ ok: true, rest: 3 });
    expect(parseOptions(['nice', '-5', 'x'], 1, WRAPPERS.nice)).toMatchObject({ ok: true, rest: 2 });
    expect(parseOptions(['env', '--', 'x'], 1, WRAPPERS.env)).toMatchObject({ ok: true, rest: 2 });
    expect(parseOptions(['env', '-Z', 'x'], 1, WRAPPERS.env)).toMatchObject({ ok: false });
  });
});
