// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { agentSummariesOut } from '@/lib/api/agent-view-schemas';
import { agentSummaries, agentSummary } from '@/test/helpers/agent-views';
import { renderComponent } from '@/test/helpers/render-component';
import { AgentsTable } from './agents-table';

// GET /api/v1/agents/allowlists/summary, checked against its contract.
const summary = agentSummariesOut.parse(agentSummaries([agentSummary('writer', 'Writer', 12)]));

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
