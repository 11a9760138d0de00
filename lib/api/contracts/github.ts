import { githubChannelInput, githubReleasesQuery, githubRollbackParams } from '../../github/schemas';
import { defineContract } from '../../http/contract';
import { githubSettingsOut, githubSettingsPatch } from '../../settings/github-settings';
import { githubOverviewOut, githubReleasesOut } from '../package-schemas';
import { jobOut } from '../schemas';

/** GitHub-release binaries and their settings. */
export const githubApi = {
  githubPackages: defineContract({
    method: 'GET',
    path: '/api/v1/packages/github',
    tag: 'GitHub releases',
    summary: 'Installed GitHub-release packages (binaries with libc, verification, kept versions), this host’s target and the GitHub rate limit',
    permission: 'packages.read',
    response: githubOverviewOut,
  }),
  githubReleases: defineContract({
    method: 'GET',
    path: '/api/v1/packages/github-releases',
    tag: 'GitHub releases',
    summary: 'Releases of a repository with the asset this host would install, why it won and why the others lost (404 outside the owner allowlist)',
    permission: 'packages.read',
    query: githubReleasesQuery,
    response: githubReleasesOut,
  }),
  githubRollback: defineContract({
    method: 'POST',
    path: '/api/v1/packages/github/rollback',
    tag: 'GitHub releases',
    summary: 'Switch a package back to a kept version (smoke-tested first), as a job',
    permission: 'packages.write',
    body: githubRollbackParams,
    response: jobOut,
    status: 202,
  }),
  githubChannel: defineContract({
    method: 'POST',
    path: '/api/v1/packages/github/channel',
    tag: 'GitHub releases',
    summary: 'Opt a package in or out of pre-releases for its update checks',
    permission: 'packages.write',
    body: githubChannelInput,
    response: githubChannelInput,
  }),
  githubRepair: defineContract({
    method: 'POST',
    path: '/api/v1/packages/github/repair',
    tag: 'GitHub releases',
    summary: 'Reconcile the GitHub install folders, bin/ links and records after a crash, as a job',
    permission: 'packages.write',
    response: jobOut,
    status: 202,
  }),
  githubSettings: defineContract({
    method: 'GET',
    path: '/api/v1/settings/github',
    tag: 'Settings',
    summary: 'GitHub API base, token (masked), owner allowlist and install policies',
    permission: 'packages.read',
    response: githubSettingsOut,
  }),
  updateGithubSettings: defineContract({
    method: 'PUT',
    path: '/api/v1/settings/github',
    tag: 'Settings',
    summary: 'Change GitHub settings; the token is sealed, "***" keeps it and "" removes it',
    permission: 'packages.write',
    body: githubSettingsPatch,
    response: githubSettingsOut,
  }),
} as const;
