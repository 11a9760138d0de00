// pip in the install plan: plain-http index hosts trusted on pip's command line (never https ones,
// never for uv), and an image without pip or python3 refused at the plan, naming what is missing.
import { describe, expect, it } from 'vitest';
import { pipIndexSettings } from '../../runtime/managers/pip/cmd';
import { trustedHostFlags } from './deps';
import { argvOf, codes, fixture, plan } from './plan.fixtures';

const debugpy = () => fixture('../skills-real-pip/python-debugpy');
const pipStep = (p: ReturnType<typeof plan>) => argvOf(p, 'deps').find((a) => a.includes('pip') && a.includes('install'));

describe('trustedHostFlags', () => {
  it('trusts each plain-http host once, with its port when the URL names one', () => {
    const s = pipIndexSettings({
      pipIndexUrl: 'http://10.213.4.2/simple/',
      pipExtraIndexUrl: 'https://pypi.example/simple http://Mirror.Example:8080/simple http://10.213.4.2/other/',
      pipFindLinks: '/srv/wheels http://[fd00::2]:81/wheels/',
    });
    expect(trustedHostFlags(s)).toEqual(['--trusted-host', '10.213.4.2', '--trusted-host', 'mirror.example:8080', '--trusted-host', '[fd00::2]:81']);
  });

  it('adds nothing for https or folders, and only find-links hosts under --no-index', () => {
    expect(trustedHostFlags(pipIndexSettings({ pipIndexUrl: 'https://pypi.example/simple', pipFindLinks: '/srv/wheels' }))).toEqual([]);
    expect(trustedHostFlags(pipIndexSettings({ pipIndexUrl: 'http://a.example/simple', pipNoIndex: '1', pipFindLinks: 'http://b.example/w/' }))).toEqual([
      '--trusted-host',
      'b.example',
    ]);
  });

  it('refuses a host pip could not be told to trust', () => {
    expect(() => trustedHostFlags(pipIndexSettings({ pipIndexUrl: 'http://under_score.example/simple' }))).toThrow(/cannot be told to trust/);
  });
});

describe('the pip install step of python-debugpy', () => {
  it('passes the http index and trusts its host, after the index flags and before the requirements', () => {
    const p = plan(debugpy(), { settings: { pipIndexUrl: 'http://10.213.4.2/simple/' } });
    expect(p.problems).toEqual([]);
    expect(pipStep(p)).toEqual([
      '/opt/skilldock/python/bin/python3',
      '-m',
      'pip',
      'install',
      '--no-input',
      '--disable-pip-version-check',
      '--index-url',
      'http://10.213.4.2/simple/',
      '--trusted-host',
      '10.213.4.2',
      '--',
      'debugpy',
    ]);
  });

  it('does not trust an https index host (certificates stay checked)', () => {
    const p = plan(debugpy(), { settings: { pipIndexUrl: 'https://pypi.example/simple/' } });
    expect(pipStep(p)).not.toContain('--trusted-host');
    expect(pipStep(p)).toContain('https://pypi.example/simple/');
  });

  it('refuses an image without pip, naming pip and what to use instead', () => {
    const p = plan(debugpy(), { has: { pip: false } });
    expect(p.ok).toBe(false);
    expect(codes(p)).toEqual(['unresolved_precondition']);
    expect(p.problems[0]).toMatchObject({ requirement: 'pip' });
    expect(p.problems[0].message).toContain('the image has no pip; use an image with python3-pip');
    expect(p.problems[0].message).toContain('debugpy');
    expect(pipStep(p)).toBeUndefined();
  });

  it('refuses an image without python3, naming python3', () => {
    const p = plan(debugpy(), { has: { python3: false, pip: false } });
    expect(p.ok).toBe(false);
    const missing = p.problems.find((x) => x.code === 'unresolved_precondition' && x.requirement === 'python3' && x.message.includes('debugpy'));
    expect(missing?.message).toContain('the image has no python3; use an image with python3 and python3-pip');
  });
});
