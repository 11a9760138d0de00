import { z } from 'zod';
import { auditQuery } from '../audit/audit';
import { createTokenInput, createUserInput, resetPasswordInput, setupInput, updateUserInput } from '../auth/schemas';
import { defineContract } from '../http/contract';
import { jobLogsQuery, listJobsQuery, startJobInput } from '../jobs/queue';
import { installPackageInput, listPackagesQuery, runtimesQuery, uninstallPackageInput, updatePackageInput } from '../packages/schemas';
import { githubChannelInput } from '../github/updates/channel';
import { githubReleasesQuery, githubRollbackParams } from '../github/schemas';
import { depsCheckInput } from '../packages/deps';
import { githubSettingsOut, githubSettingsPatch } from '../settings/github-settings';
import { applyAllInput, pinInput } from '../packages/update-schemas';
import { runtimeSettingsPatch, runtimeSettingsSchema } from '../settings/runtime-settings';
import { applyAllOut, depsInstallOut, depsReportOut, githubOverviewOut, githubReleasesOut, historyOut, historyQuery, pinOut, refreshOut, updatesOut } from './package-schemas';
import { skillsApi } from './skill-contracts';
import { auditOut, createdTokenOut, idParams, instanceOut, jobKindsOut, jobOut, logLineOut, meOut, openapiOut, packageListOut, runtimesOut, tokenOut, userOut } from './schemas';

const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), nextBefore: z.union([z.string(), z.number()]).nullable() });

/** Every API contract. lib/api/operations implements each one (route and server action come from it); the OpenAPI document is built from this list. */
export const api = {
  setupStatus: defineContract({ method: 'GET', path: '/api/setup', tag: 'Setup', summary: 'Whether first-run setup is still needed', permission: null, response: z.object({ needed: z.boolean() }) }),
  setup: defineContract({ method: 'POST', path: '/api/setup', tag: 'Setup', summary: 'Create the first owner (only while no user exists)', permission: null, body: setupInput, response: userOut, status: 201 }),

  me: defineContract({ method: 'GET', path: '/api/v1/me', tag: 'Session', summary: 'The caller: user, role, effective permissions', permission: 'instance.read', response: meOut }),
  instance: defineContract({ method: 'GET', path: '/api/v1/instance', tag: 'Instance', summary: 'Version, database, data dir, Docker endpoint reachability', permission: 'instance.read', response: instanceOut }),
  openapi: defineContract({ method: 'GET', path: '/api/v1/openapi.json', tag: 'Instance', summary: 'This OpenAPI 3.1 document', permission: 'instance.read', response: openapiOut }),

  listUsers: defineContract({ method: 'GET', path: '/api/v1/users', tag: 'Users', summary: 'List users', permission: 'users.read', response: z.object({ items: z.array(userOut) }) }),
  createUser: defineContract({ method: 'POST', path: '/api/v1/users', tag: 'Users', summary: 'Create a user', permission: 'users.manage', body: createUserInput, response: userOut, status: 201 }),
  updateUser: defineContract({ method: 'PATCH', path: '/api/v1/users/{id}', tag: 'Users', summary: 'Change role, name, or disable/enable', permission: 'users.manage', params: idParams, body: updateUserInput, response: userOut }),
  resetPassword: defineContract({ method: 'POST', path: '/api/v1/users/{id}/password', tag: 'Users', summary: "Set a user's password (ends their sessions)", permission: 'users.manage', params: idParams, body: resetPasswordInput, status: 204 }),

  listTokens: defineContract({ method: 'GET', path: '/api/v1/tokens', tag: 'API tokens', summary: "The caller's API tokens", permission: 'tokens.manage', response: z.object({ items: z.array(tokenOut) }) }),
  createToken: defineContract({ method: 'POST', path: '/api/v1/tokens', tag: 'API tokens', summary: 'Create an API token (the secret is shown once)', permission: 'tokens.manage', body: createTokenInput, response: createdTokenOut, status: 201 }),
  revokeToken: defineContract({ method: 'DELETE', path: '/api/v1/tokens/{id}', tag: 'API tokens', summary: 'Revoke an API token', permission: 'tokens.manage', params: idParams, response: tokenOut }),

  listAudit: defineContract({ method: 'GET', path: '/api/v1/audit', tag: 'Audit', summary: 'Audit log, newest first, with filters', permission: 'audit.read', query: auditQuery, response: page(auditOut) }),
  auditActions: defineContract({ method: 'GET', path: '/api/v1/audit/actions', tag: 'Audit', summary: 'Distinct audit actions (for filters)', permission: 'audit.read', response: z.object({ items: z.array(z.string()) }) }),

  listJobs: defineContract({ method: 'GET', path: '/api/v1/jobs', tag: 'Jobs', summary: 'List jobs with filters', permission: 'jobs.read', query: listJobsQuery, response: page(jobOut) }),
  jobKinds: defineContract({ method: 'GET', path: '/api/v1/jobs/kinds', tag: 'Jobs', summary: 'Job kinds and who may start them', permission: 'jobs.read', response: jobKindsOut }),
  startJob: defineContract({ method: 'POST', path: '/api/v1/jobs', tag: 'Jobs', summary: 'Start a job of a startable kind', permission: 'jobs.run', body: startJobInput, response: jobOut, status: 202 }),
  getJob: defineContract({ method: 'GET', path: '/api/v1/jobs/{id}', tag: 'Jobs', summary: 'One job', permission: 'jobs.read', params: idParams, response: jobOut }),
  cancelJob: defineContract({ method: 'POST', path: '/api/v1/jobs/{id}/cancel', tag: 'Jobs', summary: 'Cancel a queued or running job', permission: 'jobs.cancel', params: idParams, response: jobOut, status: 202 }),
  retryJob: defineContract({ method: 'POST', path: '/api/v1/jobs/{id}/retry', tag: 'Jobs', summary: 'Run a failed or canceled job again as a new job', permission: 'jobs.run', params: idParams, response: jobOut, status: 202 }),
  jobLogs: defineContract({ method: 'GET', path: '/api/v1/jobs/{id}/logs', tag: 'Jobs', summary: 'Log lines after a sequence number (JSON), or the whole log as text with ?format=text', permission: 'jobs.read', params: idParams, query: jobLogsQuery.extend({ format: z.enum(['json', 'text']).default('json') }), response: z.object({ items: z.array(logLineOut) }) }),
  listPackages: defineContract({ method: 'GET', path: '/api/v1/packages', tag: 'Packages', summary: 'Installed pip, npm and system packages, managed and base, with filters', permission: 'packages.read', query: listPackagesQuery, response: packageListOut }),
  installPackage: defineContract({ method: 'POST', path: '/api/v1/packages/install', tag: 'Packages', summary: 'Install a package (pip:, npm: or a system package) as a job', permission: 'packages.write', body: installPackageInput, response: jobOut, status: 202 }),
  uninstallPackage: defineContract({ method: 'POST', path: '/api/v1/packages/uninstall', tag: 'Packages', summary: 'Uninstall a package Skilldock installed, as a job', permission: 'packages.write', body: uninstallPackageInput, response: jobOut, status: 202 }),
  updatePackage: defineContract({ method: 'POST', path: '/api/v1/packages/update', tag: 'Packages', summary: 'Update a managed package to toVersion or the newest, as a job', permission: 'packages.write', body: updatePackageInput, response: jobOut, status: 202 }),
  packageUpdates: defineContract({ method: 'GET', path: '/api/v1/packages/updates', tag: 'Packages', summary: 'Pending updates of managed packages (merged across checks), pins and each source’s freshness; a stale read starts a background check', permission: 'packages.read', response: updatesOut }),
  refreshUpdates: defineContract({ method: 'POST', path: '/api/v1/packages/updates/refresh', tag: 'Packages', summary: 'Check pip, npm and system packages for updates now, as a job (single flight)', permission: 'packages.write', response: refreshOut, status: 202 }),
  applyAllUpdates: defineContract({ method: 'POST', path: '/api/v1/packages/updates/apply-all', tag: 'Packages', summary: 'Update All: one parent job with one update job per package; failures never stop the others', permission: 'packages.write', body: applyAllInput, response: applyAllOut, status: 202 }),
  pinPackage: defineContract({ method: 'POST', path: '/api/v1/packages/pins', tag: 'Packages', summary: 'Hold (pin) or release a package: held packages are checked but never offered by Update All', permission: 'packages.write', body: pinInput, response: pinOut }),
  packageHistory: defineContract({ method: 'GET', path: '/api/v1/packages/history', tag: 'Packages', summary: 'Recent install, update and uninstall jobs with durations', permission: 'packages.read', query: historyQuery, response: historyOut }),
  checkDeps: defineContract({ method: 'POST', path: '/api/v1/packages/deps/check', tag: 'Packages', summary: 'A skill’s dependencies (SKILL.md deps:/exclude_deps: and a scan of its scripts), each satisfied or missing in this runtime', permission: 'packages.write', body: depsCheckInput, response: depsReportOut, maxBodyBytes: 8 * 1024 * 1024 }),
  installDeps: defineContract({ method: 'POST', path: '/api/v1/packages/deps/install', tag: 'Packages', summary: 'Install a skill’s missing dependencies: one parent job with an install job per package', permission: 'packages.write', body: depsCheckInput, response: depsInstallOut, status: 202, maxBodyBytes: 8 * 1024 * 1024 }),
  githubPackages: defineContract({ method: 'GET', path: '/api/v1/packages/github', tag: 'GitHub releases', summary: 'Installed GitHub-release packages (binaries with libc, verification, kept versions), this host’s target and the GitHub rate limit', permission: 'packages.read', response: githubOverviewOut }),
  githubReleases: defineContract({ method: 'GET', path: '/api/v1/packages/github-releases', tag: 'GitHub releases', summary: 'Releases of a repository with the asset this host would install, why it won and why the others lost (404 outside the owner allowlist)', permission: 'packages.read', query: githubReleasesQuery, response: githubReleasesOut }),
  githubRollback: defineContract({ method: 'POST', path: '/api/v1/packages/github/rollback', tag: 'GitHub releases', summary: 'Switch a package back to a kept version (smoke-tested first), as a job', permission: 'packages.write', body: githubRollbackParams, response: jobOut, status: 202 }),
  githubChannel: defineContract({ method: 'POST', path: '/api/v1/packages/github/channel', tag: 'GitHub releases', summary: 'Opt a package in or out of pre-releases for its update checks', permission: 'packages.write', body: githubChannelInput, response: githubChannelInput }),
  githubRepair: defineContract({ method: 'POST', path: '/api/v1/packages/github/repair', tag: 'GitHub releases', summary: 'Reconcile the GitHub install folders, bin/ links and records after a crash, as a job', permission: 'packages.write', response: jobOut, status: 202 }),
  githubSettings: defineContract({ method: 'GET', path: '/api/v1/settings/github', tag: 'Settings', summary: 'GitHub API base, token (masked), owner allowlist and install policies', permission: 'packages.read', response: githubSettingsOut }),
  updateGithubSettings: defineContract({ method: 'PUT', path: '/api/v1/settings/github', tag: 'Settings', summary: 'Change GitHub settings; the token is sealed, "***" keeps it and "" removes it', permission: 'packages.write', body: githubSettingsPatch, response: githubSettingsOut }),
  runtimeSettings: defineContract({ method: 'GET', path: '/api/v1/settings/runtime', tag: 'Settings', summary: 'Package sources (pip indexes, npm registry), detected binaries and update-check settings', permission: 'packages.read', response: runtimeSettingsSchema }),
  updateRuntimeSettings: defineContract({ method: 'PUT', path: '/api/v1/settings/runtime', tag: 'Settings', summary: 'Change any of the runtime settings; the others keep their values', permission: 'packages.write', body: runtimeSettingsPatch, response: runtimeSettingsSchema }),
  packageRuntimes: defineContract({ method: 'GET', path: '/api/v1/packages/runtimes', tag: 'Packages', summary: 'Detected runtimes, managers and the skill process environment (cached; ?refresh=true detects again)', permission: 'packages.read', query: runtimesQuery, response: runtimesOut }),
  jobEvents: defineContract({ method: 'GET', path: '/api/v1/jobs/{id}/events', tag: 'Jobs', summary: 'Server-sent events: state, progress and log lines, resumable with Last-Event-ID', permission: 'jobs.read', params: idParams, produces: 'text/event-stream' }),
  ...skillsApi,
} as const;

export type ApiName = keyof typeof api;
