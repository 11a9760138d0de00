// Job titles name their subject, so jobs of one kind can be told apart in the list and searched for.
import { describe, expect, it } from 'vitest';
import { packageInstallJob, updateAllJob, updateCheckJob } from './job-kinds';

const batch = (specs: string[]) => ({ items: specs.map((spec) => ({ spec, from: '1.0.0', to: '2.0.0' })) });

describe('package job titles', () => {
  it('an update check names the sources it covers', () => {
    expect(updateCheckJob.title(updateCheckJob.params.parse({ sources: ['pip', 'npm', 'apt'] }))).toBe('Check pip, npm and apt for updates');
    expect(updateCheckJob.title(updateCheckJob.params.parse({ sources: ['pip', 'npm', 'apt', 'github'] }))).toBe(
      'Check pip, npm, apt and GitHub releases for updates',
    );
    // Jobs queued before the sources were recorded still parse.
    expect(updateCheckJob.title(updateCheckJob.params.parse({}))).toBe('Check for package updates');
  });

  it('Update All names its packages, up to three', () => {
    expect(updateAllJob.title(batch(['npm:is-number']))).toBe('Update all: npm:is-number');
    expect(updateAllJob.title(batch(['npm:a', 'pip:b', 'system:jq']))).toBe('Update all: npm:a, pip:b and system:jq');
    expect(updateAllJob.title(batch(['npm:a', 'pip:b', 'system:jq', 'npm:c', 'npm:d']))).toBe('Update all: npm:a, pip:b and 3 more');
  });

  it('an install names its spec', () => {
    expect(packageInstallJob.title({ spec: 'npm:is-number@6.0.0' })).toBe('Install npm:is-number@6.0.0');
  });
});
