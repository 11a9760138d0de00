// What the Python install step leaves in the snapshot: neither pip's HTTP cache nor bytecode of pip's own modules.
import { describe, expect, it } from 'vitest';
import { RUNTIME_SETTINGS_DEFAULTS } from '../../settings/runtime-settings';
import { indexConfig, pythonInstallStep } from './deps';
import type { PlanProblem } from './types';

describe('pythonInstallStep', () => {
  it('runs pip without its cache dir and without writing bytecode', () => {
    const problems: PlanProblem[] = [];
    const step = pythonInstallStep(['requests==2.32.3'], indexConfig(RUNTIME_SETTINGS_DEFAULTS, problems), 'pip', 'Install Python packages');
    expect(problems).toEqual([]);
    expect(step.argv.slice(1, 4)).toEqual(['-m', 'pip', 'install']);
    expect(step.env).toMatchObject({ PIP_NO_CACHE_DIR: '1', PYTHONDONTWRITEBYTECODE: '1' });
  });
});
