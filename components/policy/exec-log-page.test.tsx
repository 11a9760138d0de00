// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { agentListOut } from '@/lib/api/agent-schemas';
import { execLogListOut } from '@/lib/api/policy-schemas';
import { agentRecord } from '@/test/helpers/agent-views';
import { renderComponent } from '@/test/helpers/render-component';
import { ExecLogPage } from './exec-log-page';

const at = (min: number) => new Date(Date.UTC(2026, 11, 7, 5, min)).toISOString();
const agent = (id: string, name: string) => agentRecord(id, name, { at: at(0), sandboxConfigId: 'cfg_docker_1' });
type Row = { decision: 'allow' | 'deny' | 'approval'; outcome: string; approvalState?: 'pending' | 'approved' | 'rejected' | 'expired' };
const exec = (id: string, agentId: string, min: number, r: Row) => ({
  id,
  agentId,
  sessionId: null,
  profile: 'balanced',
  command: r.decision === 'allow' ? 'git status' : 'pip install -r requirements.txt',
  decision: r.decision,
  rule: r.decision === 'allow' ? 'allowed' : 'deny_group:package_install',
  segment: null,
  reason: '',
  outcome: r.outcome,
  exitCode: r.outcome === 'ran' ? 0 : null,
  durationMs: r.outcome === 'ran' ? 120 : null,
  stdoutTruncated: false,
  stderrTruncated: false,
  approvalId: r.approvalState ? `apr_${id}` : null,
  approvalState: r.approvalState ?? null,
  at: at(min),
  by: `agent:${agentId}`,
});

// What GET /api/v1/agents and GET /api/v1/exec-log answer, checked against their contracts.
const agents = agentListOut.parse({ items: [agent('alpha', 'Alpha'), agent('beta', 'Beta')] });
const log = execLogListOut.parse({
  items: [
    exec('x5', 'beta', 6, { decision: 'approval', outcome: 'pending', approvalState: 'pending' }),
    exec('x4', 'beta', 5, { decision: 'approval', outcome: 'pending', approvalState: 'expired' }),
    exec('x3', 'beta', 4, { decision: 'approval', outcome: 'rejected', approvalState: 'rejected' }),
    exec('x2', 'alpha', 3, { decision: 'approval', outcome: 'ran', approvalState: 'approved' }),
    exec('x1', 'alpha', 1, { decision: 'allow', outcome: 'ran' }),
  ],
});

function renderPage(url: string) {
  return renderComponent(<ExecLogPage />, {
    role: 'operator',
    url,
    queries: [
      [['agents'], agents],
      [['exec-policy', 'exec-log', '*', 500], log],
    ],
  });
}

/** The badges of a row's decision cell, in order. */
const decisionOf = (id: string) =>
  [...(document.querySelector(`tr[data-exec="${id}"] [data-slot="decision"]`)?.children ?? [])].map((b) => b.textContent?.trim());

describe('the exec log page', () => {
  it("opens on every agent's log, with an agent column", () => {
    renderPage('/policy/exec-log');
    expect((screen.getByLabelText('Agent') as HTMLSelectElement).value).toBe('');
    expect(screen.getByRole('option', { name: 'All agents' })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Exec log' });
    expect(within(table).getByRole('columnheader', { name: 'Agent' })).toBeTruthy();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => [r.dataset.exec, within(r).getByRole('link').textContent])).toEqual([
      ['x5', 'beta'],
      ['x4', 'beta'],
      ['x3', 'beta'],
      ['x2', 'alpha'],
      ['x1', 'alpha'],
    ]);
  });

  it('shows how a command that needed approval ended, and "Needs approval" only while it waits', () => {
    renderPage('/policy/exec-log');
    expect(decisionOf('x2')).toEqual(['Approved']);
    expect(decisionOf('x3')).toEqual(['Denied']);
    expect(decisionOf('x4')).toEqual(['Expired']);
    expect(decisionOf('x5')).toEqual(['Needs approval', 'pending']);
    expect(decisionOf('x1')).toEqual(['Allowed']);
  });
});
