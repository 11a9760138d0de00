import { beforeAll, describe, expect, it } from 'vitest';
import { presetRules } from '../profiles/presets';
import type { ProfileRules } from '../types';
import { createPolicyEngine, type PolicyEngine } from './engine';
import { STANDARD_PATH } from './judge';

let engine: PolicyEngine;
beforeAll(async () => {
  engine = await createPolicyEngine();
});

const balanced = presetRules('balanced');
const run = (command: string, written: string[], opts: { cwd?: string; rules?: ProfileRules; scanned?: string[] } = {}) =>
  engine.evaluate(command, opts.rules ?? balanced, {
    cwd: opts.cwd,
    writtenFiles: new Set(written),
    ...(opts.scanned ? { scannedClean: new Set(opts.scanned) } : {}),
  });

describe('write-then-run by command name', () => {
  it('a bare name counts as running a written file of any standard PATH folder', () => {
    for (const dir of STANDARD_PATH) {
      expect(run('timeout 5 ls', [`${dir}/timeout`]), dir).toMatchObject({ decision: 'approval', rule: 'write_then_run' });
      expect(run('ls -la', [`${dir}/ls`]), dir).toMatchObject({ decision: 'approval', rule: 'write_then_run' });
    }
    expect(run('timeout 5 ls', ['/usr/local/bin/timeout']).reason).toContain('/usr/local/bin/timeout');
    // The interpreter itself, and a shell a wrapper starts, are programs too.
    expect(run('python3 app.py', ['/usr/bin/python3'])).toMatchObject({ rule: 'write_then_run' });
    expect(run('sh -c "ls"', ['/bin/sh'])).toMatchObject({ rule: 'write_then_run' });
  });

  it('does not count a written file of another folder, nor another name', () => {
    expect(run('timeout 5 ls', ['/opt/x/timeout', '/workspace/timeout', '/usr/local/bin/timeout2']).decision).toBe('allow');
    expect(run('ls', ['/usr/local/lib/ls']).decision).toBe('allow');
  });

  it('finds a written script run through env, xargs, nohup and time', () => {
    expect(run('env ./job.sh', ['/workspace/job.sh'])).toMatchObject({ rule: 'write_then_run' });
    expect(run('env A=1 bash job.sh', ['/workspace/job.sh'])).toMatchObject({ rule: 'write_then_run' });
    expect(run('echo a | xargs ./job.sh', ['/workspace/job.sh'])).toMatchObject({ rule: 'write_then_run' });
    expect(run('time ./job.sh', ['/workspace/job.sh'])).toMatchObject({ rule: 'write_then_run' });
    expect(run('timeout 5 python3 job.py', ['/workspace/job.py'])).toMatchObject({ rule: 'write_then_run' });
    // nohup is refused as a daemoniser first, and the written file is found too.
    const nohup = run('nohup ./job.sh', ['/workspace/job.sh'], { rules: { ...balanced, denyGroups: { process_control: 'off' } } });
    expect(nohup).toMatchObject({ decision: 'approval', rule: 'write_then_run' });
  });

  it('reads relative and ./ paths from the working directory of the walk', () => {
    expect(run('python3 job.py', ['/workspace/src/job.py'], { cwd: 'src' })).toMatchObject({ rule: 'write_then_run' });
    expect(run('cd src && python3 ./job.py', ['/workspace/src/job.py'])).toMatchObject({ rule: 'write_then_run' });
    expect(run('cd src && ./job.sh', ['/workspace/src/job.sh'])).toMatchObject({ rule: 'write_then_run' });
    expect(run('cd src && sh ../job.sh', ['/workspace/job.sh'])).toMatchObject({ rule: 'write_then_run' });
    expect(run('python3 job.py', ['/workspace/src/job.py']).decision).toBe('allow');
  });

  it('scan mode runs a clean written program and refuses another; off ignores writes', () => {
    const scan = { ...balanced, writeThenRun: 'scan' as const };
    expect(run('timeout 5 ls', ['/usr/local/bin/timeout'], { rules: scan, scanned: ['/usr/local/bin/timeout'] }).decision).toBe('allow');
    expect(run('timeout 5 ls', ['/usr/local/bin/timeout'], { rules: scan })).toMatchObject({ decision: 'deny', rule: 'write_then_run' });
    expect(run('timeout 5 ls', ['/usr/local/bin/timeout'], { rules: { ...balanced, writeThenRun: 'off' } }).decision).toBe('allow');
  });
});

describe('named package installs and ordinary redirects', () => {
  it('balanced runs them, locked_down asks or refuses, unvetted sources ask', () => {
    for (const c of ['pip install requests', 'npm i lodash', 'npx cowsay hi', 'python3 -m pip install x', 'echo x > /tmp/a', 'cat < notes.md'])
      expect(engine.evaluate(c, balanced).decision, c).toBe('allow');
    for (const c of ['pip install requests', 'npm i lodash', 'npx cowsay hi', 'python3 -m pip install x', 'echo x > out.txt'])
      expect(engine.evaluate(c, presetRules('locked_down')).decision, c).not.toBe('allow');
    for (const c of ['pip install git+https://x.example/y', 'pip install --index-url https://x.example/simple y', 'npm install https://x.example/y.tgz'])
      expect(engine.evaluate(c, balanced), c).toMatchObject({ decision: 'approval', rule: 'deny_group:package_install' });
    for (const c of ['npm publish', 'twine upload dist/*']) expect(engine.evaluate(c, balanced).decision, c).toBe('deny');
  });
});
