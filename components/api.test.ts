import { describe, expect, it } from 'vitest';
import { githubApi } from '@/lib/api/contracts/github';
import { jobsApi } from '@/lib/api/contracts/jobs';
import { packagesApi } from '@/lib/api/contracts/packages';
import { pathOf, urlOf } from './api';

describe('typed read URLs from contracts', () => {
  it('fills each {name} of the path, encoded', () => {
    expect(pathOf(jobsApi.getJob.path, { id: 'a/b c' })).toBe('/api/v1/jobs/a%2Fb%20c');
    expect(() => pathOf(jobsApi.getJob.path, {})).toThrow(/needs its id/);
    expect(() => pathOf(jobsApi.getJob.path, { id: '' })).toThrow(/needs its id/);
  });

  it('adds the query, leaving absent, null and empty values out', () => {
    expect(urlOf(packagesApi.listPackages.path, undefined, { manager: 'pip' })).toBe('/api/v1/packages?manager=pip');
    expect(urlOf(packagesApi.packageRuntimes.path, undefined, { refresh: true })).toBe('/api/v1/packages/runtimes?refresh=true');
    expect(urlOf(githubApi.githubReleases.path, undefined, { repo: 'cli/cli', limit: 10, assetPattern: undefined })).toBe(
      '/api/v1/packages/github-releases?repo=cli%2Fcli&limit=10',
    );
    expect(urlOf(packagesApi.packageUpdates.path, undefined, { x: null, y: '' })).toBe('/api/v1/packages/updates');
  });

  it("builds URLs the contracts' own query schemas accept", () => {
    const url = new URL(urlOf(githubApi.githubReleases.path, undefined, { repo: 'cli/cli', limit: 10 }), 'http://x');
    expect(githubApi.githubReleases.query.parse(Object.fromEntries(url.searchParams))).toMatchObject({ repo: 'cli/cli', limit: 10 });
  });
});
