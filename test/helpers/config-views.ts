// Sandbox configs as the API answers them, for component tests. `configListItem` is parsed with the
// list route's own output schema, so a fixture that drifts from the contract fails there.
import { sandboxConfigListOut } from '@/lib/sandbox/config/schema';

/** A Docker config's fields shared by the list and the detail answers: checked and passed at `at`. */
export function configRecord(overrides: Record<string, unknown> = {}, at = '2026-12-01T10:00:00.000Z') {
  return {
    id: 'cfg_docker_1',
    name: 'python-sandbox',
    backend: 'docker' as const,
    description: '',
    config: { image: 'skilldock/python:3.12', host: '' },
    secretsConfigured: [],
    enabled: true,
    lastCheckAt: at,
    lastCheckPassedAt: at,
    lastCheckReport: null,
    lockedUntil: null,
    envCount: 0,
    createdAt: at,
    createdBy: 'owner@example.test',
    updatedAt: at,
    updatedBy: 'owner@example.test',
    ...overrides,
  };
}

/** One item of GET /api/v1/sandbox-configs. */
export function configListItem(overrides: Record<string, unknown> = {}, at?: string) {
  return sandboxConfigListOut.parse({ items: [{ ...configRecord(overrides, at), instances: 0 }] }).items[0];
}
