import { z } from 'zod';
import { auditQuery } from '../../audit/audit';
import { createTokenInput, createUserInput, resetPasswordInput, setupInput, updateUserInput } from '../../auth/schemas';
import { defineContract } from '../../http/contract';
import { auditOut, createdTokenOut, idParams, instanceOut, meOut, openapiOut, pageOf, tokenOut, userOut } from '../schemas';

/** Setup, the session, the instance, users, API tokens and the audit log. */
export const accessApi = {
  setupStatus: defineContract({
    method: 'GET',
    path: '/api/setup',
    tag: 'Setup',
    summary: 'Whether first-run setup is still needed',
    permission: null,
    response: z.object({ needed: z.boolean() }),
  }),
  setup: defineContract({
    method: 'POST',
    path: '/api/setup',
    tag: 'Setup',
    summary: 'Create the first owner (only while no user exists)',
    permission: null,
    body: setupInput,
    response: userOut,
    status: 201,
  }),

  me: defineContract({
    method: 'GET',
    path: '/api/v1/me',
    tag: 'Session',
    summary: 'The caller: user, role, effective permissions',
    permission: 'instance.read',
    response: meOut,
  }),
  instance: defineContract({
    method: 'GET',
    path: '/api/v1/instance',
    tag: 'Instance',
    summary: 'Version, database, data dir, Docker endpoint reachability',
    permission: 'instance.read',
    response: instanceOut,
  }),
  openapi: defineContract({
    method: 'GET',
    path: '/api/v1/openapi.json',
    tag: 'Instance',
    summary: 'This OpenAPI 3.1 document',
    permission: 'instance.read',
    response: openapiOut,
  }),

  listUsers: defineContract({
    method: 'GET',
    path: '/api/v1/users',
    tag: 'Users',
    summary: 'List users',
    permission: 'users.read',
    response: z.object({ items: z.array(userOut) }),
  }),
  createUser: defineContract({
    method: 'POST',
    path: '/api/v1/users',
    tag: 'Users',
    summary: 'Create a user',
    permission: 'users.manage',
    body: createUserInput,
    response: userOut,
    status: 201,
  }),
  updateUser: defineContract({
    method: 'PATCH',
    path: '/api/v1/users/{id}',
    tag: 'Users',
    summary: 'Change role, name, or disable/enable',
    permission: 'users.manage',
    params: idParams,
    body: updateUserInput,
    response: userOut,
  }),
  resetPassword: defineContract({
    method: 'POST',
    path: '/api/v1/users/{id}/password',
    tag: 'Users',
    summary: "Set a user's password (ends their sessions)",
    permission: 'users.manage',
    params: idParams,
    body: resetPasswordInput,
    status: 204,
  }),

  listTokens: defineContract({
    method: 'GET',
    path: '/api/v1/tokens',
    tag: 'API tokens',
    summary: "The caller's API tokens",
    permission: 'tokens.manage',
    response: z.object({ items: z.array(tokenOut) }),
  }),
  createToken: defineContract({
    method: 'POST',
    path: '/api/v1/tokens',
    tag: 'API tokens',
    summary: 'Create an API token (the secret is shown once)',
    permission: 'tokens.manage',
    body: createTokenInput,
    response: createdTokenOut,
    status: 201,
  }),
  revokeToken: defineContract({
    method: 'DELETE',
    path: '/api/v1/tokens/{id}',
    tag: 'API tokens',
    summary: 'Revoke an API token',
    permission: 'tokens.manage',
    params: idParams,
    response: tokenOut,
  }),

  listAudit: defineContract({
    method: 'GET',
    path: '/api/v1/audit',
    tag: 'Audit',
    summary: 'Audit log, newest first, with filters',
    permission: 'audit.read',
    query: auditQuery,
    response: pageOf(auditOut),
  }),
  auditActions: defineContract({
    method: 'GET',
    path: '/api/v1/audit/actions',
    tag: 'Audit',
    summary: 'Distinct audit actions (for filters)',
    permission: 'audit.read',
    response: z.object({ items: z.array(z.string()) }),
  }),
} as const;
