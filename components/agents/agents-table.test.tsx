// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { agentSummariesOut } from '@/lib/api/agent-view-schemas';
import { renderComponent } from '@/test/helpers/render-component';
import { AgentsTable } from './agents-table';

const at = '2026-12-01T10:00:00.000Z';
// GET /api/v1/agents/allowlists/summary, checked against its contract.
const summary = agentSummariesOut.parse({
  defaults: { skills: null, unrestricted: true, budget: null, revision: 0, warnings: [], updatedAt: null, updatedBy: null },
  builtinBudget: { maxSkills: 150, maxChars: 30000 },
  catalogSkills: 12,
  items: [
    {
      id: 'writer',
      name: 'Writer',
      description: '',
      sandboxConfigId: null,
      skills: null,
      inheritsDefaults: true,
      denySkills: [],
      budget: null,
      riskProfile: null,
      policyOverrides: null,
      revision: 1,
      warnings: [],
      createdAt: at,
      createdBy: 'admin@example.test',
      updatedAt: at,
      updatedBy: 'admin@example.test',
      scope: { kind: 'inherits' },
      denyCount: 0,
      target: { kind: 'host', configId: null, label: 'this host' },
      effective: { count: 12, chars: 2400, tokens: 600, form: 'full', truncated: false, version: 'v1' },
    },
  ],
});

const table = () => <AgentsTable rows={summary.items} loading={false} defaults={summary.defaults} sort="id" onSort={() => {}} />;

describe('the agents table', () => {
  it('opens an agent with a pencil for a role that can edit it', () => {
    renderComponent(table(), { role: 'admin' });
    expect(screen.getByRole('link', { name: 'Edit writer' }).querySelector('.lucide-pencil')).not.toBeNull();
  });

  it('opens it with an eye, never a pencil, for a read-only role', () => {
    renderComponent(table(), { role: 'viewer' });
    expect(screen.getByRole('link', { name: 'View writer' }).querySelector('.lucide-eye')).not.toBeNull();
    expect(document.querySelector('.lucide-pencil')).toBeNull();
  });
});
