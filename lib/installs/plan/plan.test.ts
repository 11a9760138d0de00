import { describe, expect, it } from 'vitest';
import { RUNTIME_SETTINGS_DEFAULTS } from '../../settings/runtime-settings';
import { type InstallPlan, type PlanInput, planInstall } from './plan';
import { argvOf, codes, DEBIAN, expectSafeArgv, fixture, plan } from './plan.fixtures';

describe('planInstall on real skills', () => {
  it('nano-pdf: the uv installer runs through pip in the venv when the image has no uv, then nano-pdf is looked for', () => {
    const p = plan(fixture('openclaw/nano-pdf'));
    expect(p.problems).toEqual([]);
    expect(p.ok).toBe(true);
    expect(p.skillDir).toBe('/opt/skilldock/skills/nano-pdf');
    expect(p.steps.map((s) => s.stage)).toEqual(['copy', 'copy', 'deps', 'install-specs', 'verify', 'verify', 'cleanup']);
    expect(argvOf(p, 'install-specs')).toEqual([
      ['/opt/skilldock/python/bin/python3', '-m', 'pip', 'install', '--no-input', '--disable-pip-version-check', '--', 'nano-pdf'],
    ]);
    const find = p.steps.find((s) => s.check?.kind === 'bins');
    expect(find?.argv.slice(3)).toEqual(['skilldock-bins', 'nano-pdf']);
    expect(p.steps[1].upload).toEqual({ kind: 'skill-archive', path: '/tmp/skilldock-install/skill.tar' });
    expectSafeArgv(p);
  });

  it('nano-pdf with uv in the image uses uv pip install against the venv, with the index settings', () => {
    const p = plan(fixture('openclaw/nano-pdf'), {
      has: { uv: true },
      settings: { pipIndexUrl: 'http://10.9.0.2:8080/simple', pipFindLinks: ['/srv/wheels'] },
    });
    expect(argvOf(p, 'install-specs')).toEqual([
      [
        'uv',
        'pip',
        'install',
        '--python',
        '/opt/skilldock/python/bin/python3',
        '--index-url',
        'http://10.9.0.2:8080/simple',
        '--find-links',
        '/opt/skilldock/wheelhouse/0',
        '--',
        'nano-pdf',
      ],
    ]);
    expect(p.hostDirs).toEqual([{ hostPath: '/srv/wheels', sandboxPath: '/opt/skilldock/wheelhouse/0' }]);
  });

  it('coding-agent: both npm installers run into /opt/skilldock/node with the registry setting; one of the anyBins must exist', () => {
    const p = plan(fixture('openclaw/coding-agent'), { settings: { npmRegistry: 'http://10.9.0.2:4873/' } });
    expect(p.problems).toEqual([]);
    const npm = [
      'npm',
      'install',
      '--global',
      '--prefix',
      '/opt/skilldock/node',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
      '--registry',
      'http://10.9.0.2:4873/',
      '--',
    ];
    expect(argvOf(p, 'install-specs')).toEqual([
      [...npm, '@anthropic-ai/claude-code'],
      [...npm, '@openai/codex'],
    ]);
    expect(p.steps.find((s) => s.check?.kind === 'any-bins')?.argv.slice(4)).toEqual(['claude', 'codex', 'opencode']);
    expect(p.steps.find((s) => s.check?.kind === 'bins')?.argv.slice(4)).toEqual(['claude', 'codex']);
    expectSafeArgv(p);
  });

  it('coding-agent without npm in the image is refused with the missing tool', () => {
    const p = plan(fixture('openclaw/coding-agent'), { has: { npm: false } });
    expect(p.ok).toBe(false);
    expect(p.problems.map((x) => [x.code, 'requirement' in x ? x.requirement : ''])).toEqual([
      ['unresolved_precondition', 'npm'],
      ['unresolved_precondition', 'npm'],
    ]);
  });

  it('gifgrep: brew is skipped for the go alternative when go exists, and both fail without go', () => {
    const withGo = plan(fixture('openclaw/gifgrep'), { has: { go: true } });
    expect(withGo.problems).toEqual([]);
    expect(argvOf(withGo, 'install-specs')).toEqual([['go', 'install', 'github.com/steipete/gifgrep/cmd/gifgrep@latest']]);
    expect(withGo.steps.find((s) => s.argv[0] === 'go')?.env).toMatchObject({ GOBIN: '/opt/skilldock/go/bin', GOFLAGS: '-modcacherw', GOTOOLCHAIN: 'local' });
    expect(withGo.skipped).toEqual([{ index: 0, kind: 'brew', reason: 'installer 2 provides the same programs' }]);

    const noGo = plan(fixture('openclaw/gifgrep'));
    expect(codes(noGo)).toEqual(['unsupported_install', 'unresolved_precondition']);
    expect(noGo.problems[0]).toMatchObject({ kind: 'brew', value: 'steipete/tap/gifgrep' });
  });

  it('1password: brew on Linux is refused, unless op is already in the image', () => {
    const p = plan(fixture('openclaw/1password'));
    expect(p.ok).toBe(false);
    expect(p.problems).toEqual([expect.objectContaining({ code: 'unsupported_install', kind: 'brew' })]);
    const present = plan(fixture('openclaw/1password'), { presentBins: ['op'] });
    expect(present.problems).toEqual([]);
    expect(present.skipped).toEqual([{ index: 0, kind: 'brew', reason: 'op already in the image' }]);
    expect(present.steps.find((s) => s.check?.kind === 'bins')?.argv.slice(4)).toEqual(['op']);
  });

  it('sherpa-onnx-tts: the Linux runtime download is planned with its sha256; the model without sha256 is refused', () => {
    const p = plan(fixture('openclaw/sherpa-onnx-tts'));
    expect(p.problems).toEqual([expect.objectContaining({ code: 'download_unverified' })]);
    expect(p.problems[0]).toMatchObject({ value: expect.stringContaining('vits-piper-en_US-lessac-high.tar.bz2') });
    expect(p.skipped.map((s) => s.index)).toEqual([0, 2]);
    const [fetch, unpack] = p.steps.filter((s) => s.stage === 'install-specs');
    expect(fetch.argv.slice(3)).toEqual([
      'skilldock-fetch',
      'curl',
      'https://github.com/k2-fsa/sherpa-onnx/releases/download/v1.13.6/sherpa-onnx-v1.13.6-linux-x64-shared.tar.bz2',
      '/tmp/skilldock-install/download-1.tar.bz2',
      '58cc7d360fdedf9702954e8b585eb400bbee8668484bf25e4461d5d22ba439d8',
    ]);
    expect(unpack.argv.slice(3)).toEqual([
      'skilldock-extract',
      '/tmp/skilldock-install/download-1.tar.bz2',
      '/opt/skilldock/tools/sherpa-onnx-tts/runtime',
      '1',
      'tar.bz2',
    ]);
    expect(plan(fixture('openclaw/sherpa-onnx-tts'), { has: { curl: false } }).steps.find((s) => s.title.includes('download'))?.argv[4]).toBe('python3');
  });

  it('an Anthropic skill with a scanned script: the import found becomes a pip install and an import check', () => {
    const script = { path: 'scripts/fetch.py', content: '#!/usr/bin/env python3\nimport json\nimport requests\nfrom bs4 import BeautifulSoup\n' };
    const p = plan(fixture('anthropic/webapp-testing', { files: [script] }), { settings: { pipNoIndex: true, pipFindLinks: ['http://10.9.0.2/wheels/'] } });
    expect(p.problems).toEqual([]);
    const pip = p.steps.find((s) => s.argv.includes('pip'));
    expect(pip?.argv.slice(3)).toEqual([
      'install',
      '--no-input',
      '--disable-pip-version-check',
      '--no-index',
      '--find-links',
      'http://10.9.0.2/wheels/',
      '--trusted-host',
      '10.9.0.2',
      '--',
      'requests',
      'beautifulsoup4',
    ]);
    expect(p.steps.find((s) => s.check?.kind === 'imports')?.argv.slice(3)).toEqual(['requests', 'bs4']);
    expect(p.steps.find((s) => s.check?.kind === 'syntax')?.argv).toEqual([
      '/opt/skilldock/python/bin/python3',
      '-m',
      'py_compile',
      '/opt/skilldock/skills/webapp-testing/scripts/fetch.py',
    ]);
    const files = p.steps.find((s) => s.check?.kind === 'files');
    expect(files?.argv.slice(4, 8)).toEqual(['/opt/skilldock/skills/webapp-testing', expect.any(String), expect.stringMatching(/^\d+$/), '-']);
    expectSafeArgv(p);
  });

  it('a skill with no dependency list still gets its files checked and its scripts parsed', () => {
    const p = plan(fixture('anthropic/theme-factory', { files: [{ path: 'run.sh', content: '#!/bin/bash\necho hi\n' }] }));
    expect(p.problems).toEqual([]);
    expect(p.steps.filter((s) => s.stage === 'verify').map((s) => s.check?.kind)).toEqual(['syntax', 'files']);
    expect(p.steps.find((s) => s.check?.kind === 'syntax')?.argv).toEqual(['bash', '-n', '/opt/skilldock/skills/theme-factory/run.sh']);
  });

  it('system deps go through apt-get without recommends, or apk when the image has apk', () => {
    const skill = {
      ...fixture('openclaw/weather'),
      deps: [{ spec: { raw: 'system:ffmpeg', manager: 'system' as const, name: 'ffmpeg' }, source: 'declared' as const }],
    };
    const apt = plan(skill);
    expect(apt.steps.filter((s) => s.argv[0] === 'apt-get').map((s) => [s.argv, s.env])).toEqual([
      [['apt-get', 'update'], { DEBIAN_FRONTEND: 'noninteractive' }],
      [['apt-get', 'install', '-y', '--no-install-recommends', '-o', 'Dpkg::Options::=--force-confold', 'ffmpeg'], { DEBIAN_FRONTEND: 'noninteractive' }],
    ]);
    expect(plan(skill, { has: { apt: false, apk: true } }).steps.find((s) => s.argv[0] === 'apk')?.argv).toEqual(['apk', 'add', '--no-cache', 'ffmpeg']);
    expect(codes(plan(skill, { has: { apt: false } }))).toContain('unresolved_precondition');
  });
});

describe('planInstall refuses hostile input with a typed problem', () => {
  const base = () => fixture('anthropic/brand-guidelines');
  const run = (skill: ReturnType<typeof base>) => plan(skill);
  const allArgv = (p: InstallPlan) => p.steps.flatMap((s) => s.argv);

  it('a file named -rf and a file ../x.py', () => {
    const skill = base();
    skill.files = [...skill.files, { path: '-rf', size: 1 }, { path: '../x.py', size: 1 }, { path: 'a/./b.py', size: 1 }, { path: '/etc/passwd', size: 1 }];
    const p = run(skill);
    expect(p.ok).toBe(false);
    expect(p.problems.map((x) => [x.code, 'value' in x ? x.value : ''])).toEqual([
      ['invalid_path', '-rf'],
      ['invalid_path', '../x.py'],
      ['invalid_path', 'a/./b.py'],
      ['invalid_path', '/etc/passwd'],
    ]);
    expect(allArgv(p).some((a) => a === '-rf' || a.includes('..') || a.endsWith('/etc/passwd'))).toBe(false);
  });

  it('a module os;import x, a bin "a b", a package spec with a metachar', () => {
    const skill = base();
    skill.deps = [
      { spec: { raw: 'pip:requests', manager: 'pip', name: 'requests' }, source: 'declared', importName: 'os;import x' },
      { spec: { raw: 'pip:x;rm', manager: 'pip', name: 'x;rm' }, source: 'declared' },
    ];
    skill.manifest = { ...skill.manifest, requires: { ...skill.manifest.requires, bins: ['a b', 'ok-bin'], anyBins: ['$(id)'] } };
    const p = run(skill);
    expect(p.problems.map((x) => [x.code, 'field' in x ? x.field : ''])).toEqual([
      ['invalid_value', 'module'],
      ['invalid_value', 'deps'],
      ['invalid_value', 'bin'],
      ['invalid_value', 'bin'],
    ]);
    const argv = allArgv(p);
    for (const bad of ['os;import x', 'x;rm', 'a b', '$(id)']) expect(argv.some((a) => a.includes(bad))).toBe(false);
    expect(p.steps.find((s) => s.check?.kind === 'bins')?.argv.slice(4)).toEqual(['ok-bin']);
  });

  it('a skill name outside the catalog rule gets no steps at all', () => {
    const skill = { ...base(), name: '../../etc' };
    expect(run(skill)).toEqual({
      ok: false,
      skillDir: '',
      steps: [],
      problems: [expect.objectContaining({ code: 'invalid_name' })],
      skipped: [],
      hostDirs: [],
    });
  });

  it('a download without sha256, a brew spec on Linux, a non-Linux skill', () => {
    const skill = base();
    skill.manifest = {
      ...skill.manifest,
      os: ['darwin'],
      install: [
        { kind: 'download', bins: ['tool'], url: 'https://example.test/tool.tar.gz', extract: true },
        { kind: 'brew', bins: ['other'], formula: 'other' },
      ],
    };
    const p = run(skill);
    expect(codes(p)).toEqual(['unresolved_precondition', 'download_unverified', 'unsupported_install']);
    expect(allArgv(p).some((a) => a.includes('example.test'))).toBe(false);
  });

  it('env and config the sandbox config does not provide are unresolved preconditions (when known)', () => {
    const skill = fixture('openclaw/coding-agent');
    const input = (config: Record<string, unknown>): PlanInput => ({
      skill,
      deps: [],
      settings: RUNTIME_SETTINGS_DEFAULTS,
      target: { os: 'linux', has: DEBIAN, config },
    });
    expect(planInstall(input({ skills: { entries: { 'coding-agent': { enabled: true } } } })).problems).toEqual([]);
    expect(planInstall(input({ skills: { entries: {} } })).problems).toEqual([
      expect.objectContaining({ code: 'unresolved_precondition', requirement: 'config:skills.entries.coding-agent.enabled' }),
    ]);
    const sherpa = fixture('openclaw/sherpa-onnx-tts');
    const env = planInstall({
      skill: sherpa,
      deps: [],
      settings: RUNTIME_SETTINGS_DEFAULTS,
      target: { os: 'linux', has: DEBIAN, envNames: ['SHERPA_ONNX_MODEL_DIR'] },
    });
    expect(env.problems.filter((x) => x.code === 'unresolved_precondition')).toEqual([expect.objectContaining({ requirement: 'env:SHERPA_ONNX_RUNTIME_DIR' })]);
  });

  it('settings that are not URLs are refused rather than passed on', () => {
    const p = plan(fixture('openclaw/nano-pdf'), { settings: { pipFindLinks: ['--index-url=http://evil'] } });
    expect(p.problems).toEqual([expect.objectContaining({ code: 'invalid_setting', field: 'pip' })]);
  });
});
