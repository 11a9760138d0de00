// @vitest-environment happy-dom
// The tester inside the rules editor: the saved rules while the form is clean, the rules as edited
// once it is not (and it says which), and an invalid draft stopped with the form's own message.
// The server action is the one part replaced: both its doors are tested on a real database in
// lib/network/tester-draft.int.test.ts; here it records what the tester asked and answers in the
// shape the contract's own schema checks.
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { networkOut, networkTestOut } from '@/lib/network/policy/api-schema';
import { ALWAYS_BLOCKED_V4, PRIVATE_V4 } from '@/lib/network/policy/ranges';
import { INSTALL_SOURCES } from '@/lib/network/policy/sources';
import { configListItem } from '@/test/helpers/config-views';
import { renderComponent } from '@/test/helpers/render-component';
import { NetworkPanel } from './network-dialog';
import { configNetworkKey } from './queries';

type TestCall = { params: { id: string }; body: { destination: string; policy?: { allowOut: string[] } } };
const asked: TestCall[] = [];

vi.mock('@/app/(console)/sandboxes/actions', () => ({
  setConfigNetworkAction: async () => ({ serverError: { code: 'internal', message: 'not in this test', status: 500 } }),
  testConfigNetworkAction: async (input: TestCall) => {
    asked.push(input);
    const draft = input.body.policy !== undefined;
    return {
      data: networkTestOut.parse({
        allowed: draft,
        basis: draft ? 'draft' : 'saved',
        rule: draft
          ? 'The allowOut entry api.example.com names api.example.com.'
          : 'No allowOut entry names api.example.com, and the policy denies by default.',
        kind: draft ? 'allow-domain' : 'default-deny',
        entry: draft ? 'api.example.com' : null,
        enforcedBy: 'host-firewall+proxy',
        caveat: null,
        destination: { host: 'api.example.com', port: 443, kind: 'domain' },
      }),
    };
  },
}));

const config = configListItem();
// What GET /api/v1/sandbox-configs/{id}/network answers, checked against the contract's own schema.
const view = networkOut.parse({
  policy: { denyEgressByDefault: true, allowOut: ['pypi.org'], denyOut: [], cubeRules: [], e2bHostRules: [] },
  enforcedBy: 'host-firewall+proxy',
  enforcement: 'Enforced by the host firewall and the egress proxy.',
  liveUpdate: true,
  backendGaps: [],
  alwaysBlocked: [...ALWAYS_BLOCKED_V4],
  privateRanges: [...PRIVATE_V4],
  installSources: INSTALL_SOURCES.map((s) => ({ manager: s.manager, label: s.label, entries: [...s.entries] })),
});

beforeEach(() => {
  asked.length = 0;
});

function open() {
  renderComponent(<NetworkPanel config={config} canWrite />, { queries: [[configNetworkKey(config.id), view]] });
  const tester = screen.getByRole('region', { name: 'Test a destination' });
  const destination = within(tester).getByRole('textbox', { name: 'Destination' });
  fireEvent.change(destination, { target: { value: 'https://api.example.com/' } });
  return { tester, destination, testButton: within(tester).getByRole('button', { name: 'Test' }) };
}

function addAllowEntry(value: string) {
  const input = screen.getByRole('textbox', { name: 'Allow' });
  fireEvent.change(input, { target: { value } });
  fireEvent.keyDown(input, { key: 'Enter' });
}

describe('the network tester', () => {
  it('tests the saved rules while nothing is edited, and says so', async () => {
    const { tester, destination } = open();
    expect(within(tester).getByText(/Tests the saved rules\./)).toBeTruthy();
    fireEvent.keyDown(destination, { key: 'Enter' });
    const result = await within(tester).findByRole('status', { name: 'Test result' });
    expect(asked).toEqual([{ params: { id: config.id }, body: { destination: 'https://api.example.com/' } }]);
    expect(within(result).getByText('denied')).toBeTruthy();
    expect(result.querySelector('[data-slot="network-test-basis"]')?.textContent).toBe('Tested against the saved rules');
  });

  it('tests the rules as edited once the form differs from the saved rules, and says so', async () => {
    const { tester, testButton } = open();
    fireEvent.click(testButton);
    await within(tester).findByText('Tested against the saved rules');
    addAllowEntry('api.example.com');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    expect(within(tester).getByText(/Tests the rules as you have edited them, before you save\./)).toBeTruthy();
    // The earlier answer was about other rules.
    expect(within(tester).getByText('The rules have changed since this test: test again.')).toBeTruthy();

    fireEvent.click(testButton);
    const basis = await within(tester).findByText('Tested against your unsaved changes');
    expect(asked[1].body.policy?.allowOut).toEqual(['pypi.org', 'api.example.com']);
    const result = basis.closest('output') as HTMLElement;
    expect(within(result).getByText('allowed')).toBeTruthy();
    expect(within(tester).queryByText(/The rules have changed since this test/)).toBeNull();
  });

  it('does not send an invalid draft: it shows the form’s own message instead', async () => {
    const { tester, testButton } = open();
    addAllowEntry('api.example.com');
    fireEvent.click(screen.getByRole('switch', { name: 'Deny by default' }));
    const formIssue = screen.getByText(/is a domain, and a domain allowlist needs deny-all/, { selector: '[data-slot="network-issues"] li' });

    fireEvent.click(testButton);
    const note = within(tester).getByRole('alert');
    expect(note.textContent).toBe(`Your unsaved rules cannot be tested until they are valid: ${formIssue.textContent}`);
    expect(asked).toEqual([]);
    expect(within(tester).queryByRole('status', { name: 'Test result' })).toBeNull();

    // Fixed, the draft is tested again.
    fireEvent.click(screen.getByRole('switch', { name: 'Deny by default' }));
    expect(within(tester).queryByRole('alert')).toBeNull();
    fireEvent.click(testButton);
    await within(tester).findByText('Tested against your unsaved changes');
    expect(asked).toHaveLength(1);
    expect(asked[0].body.policy).toMatchObject({ denyEgressByDefault: true, allowOut: ['pypi.org', 'api.example.com'] });
  });
});
