'use client';

import { Radar } from 'lucide-react';
import { useState } from 'react';
import type { NetworkPolicy, PolicyIssue } from '@/lib/network/policy/types';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Input, Label } from '../../ui/input';
import { ErrorNote } from '../../ui/misc';
import { ENFORCED_LABEL } from './enforcement';
import { type NetworkTestResult, useTestConfigNetwork } from './queries';

export const BASIS_LABEL: Record<NetworkTestResult['basis'], string> = {
  draft: 'Tested against your unsaved changes',
  saved: 'Tested against the saved rules',
};

/**
 * Whether a sandbox of this config may reach a destination; no traffic is sent. With a `draft` (the
 * form differs from the saved rules) it tests the rules as edited, since a save puts them in force
 * at once; an invalid draft is not sent, the form's own message says what to fix.
 */
export function NetworkTester({ configId, draft, draftIssues }: { configId: string; draft: NetworkPolicy | null; draftIssues: PolicyIssue[] }) {
  const [destination, setDestination] = useState('');
  const [tested, setTested] = useState<{ result: NetworkTestResult; rules: string } | null>(null);
  const [blocked, setBlocked] = useState(false);
  const test = useTestConfigNetwork(configId);
  const rules = draft ? JSON.stringify(draft) : 'saved';
  const draftInvalid = draft !== null && draftIssues.length > 0;
  const run = () => {
    setTested(null);
    test.reset();
    setBlocked(draftInvalid);
    if (draftInvalid) return;
    test.mutate({ destination, ...(draft ? { policy: draft } : {}) }, { onSuccess: (result) => setTested({ result, rules }) });
  };
  const issue = test.error?.issues.find((i) => i.path === 'destination')?.message;

  return (
    <section className="grid gap-2 rounded-md border px-3 py-3" aria-labelledby="net-tester-title" data-slot="network-tester">
      <h3 id="net-tester-title" className="flex items-center gap-2 text-sm font-medium">
        <Radar aria-hidden className="size-4" /> Test a destination
      </h3>
      <p className="text-xs text-muted-foreground" data-slot="network-tester-hint">
        {draft ? 'Tests the rules as you have edited them, before you save.' : 'Tests the saved rules.'} Nothing is sent to the destination.
      </p>
      {/* No <form>: the panel also sits inside the config editor's form. */}
      <div className="flex gap-2">
        <Label htmlFor="net-test-destination" className="sr-only">
          Destination
        </Label>
        <Input
          id="net-test-destination"
          className="min-w-0 font-mono"
          autoComplete="off"
          spellCheck={false}
          placeholder="host:port, IP or URL"
          value={destination}
          aria-invalid={!!issue}
          onChange={(e) => setDestination(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              run();
            }
          }}
        />
        <Button type="button" variant="outline" disabled={test.isPending} onClick={run}>
          {test.isPending ? 'Testing…' : 'Test'}
        </Button>
      </div>
      {blocked && draftInvalid ? (
        <p role="alert" className="text-xs text-destructive" data-slot="network-test-draft-invalid">
          Your unsaved rules cannot be tested until they are valid: {draftIssues[0].message}
          {draftIssues.length > 1 ? ` (and ${draftIssues.length - 1} more in the rules)` : ''}
        </p>
      ) : issue ? (
        <p role="alert" className="text-xs text-destructive">
          {issue}
        </p>
      ) : test.error ? (
        <ErrorNote error={test.error} />
      ) : null}
      {tested ? <TestAnswer result={tested.result} stale={tested.rules !== rules} /> : null}
    </section>
  );
}

/** One answer of the tester: the decision, which rules it was judged against, the rule that decided. */
function TestAnswer({ result, stale }: { result: NetworkTestResult; stale: boolean }) {
  return (
    <output className="grid gap-1 text-sm" aria-label="Test result" data-allowed={result.allowed} data-basis={result.basis}>
      <span className="flex flex-wrap items-center gap-2">
        <Badge variant={result.allowed ? 'success' : 'destructive'}>{result.allowed ? 'allowed' : 'denied'}</Badge>
        <span className="font-mono text-xs break-all">
          {result.destination.host}:{result.destination.port}
        </span>
        <span className="text-xs text-muted-foreground">enforced {ENFORCED_LABEL[result.enforcedBy]}</span>
      </span>
      <span className="text-xs font-medium" data-slot="network-test-basis">
        {BASIS_LABEL[result.basis]}
      </span>
      <span data-slot="network-test-rule">{result.rule}</span>
      {result.caveat ? (
        <span className="text-xs text-foreground" data-slot="network-test-caveat">
          <strong>Not enforced as shown:</strong> {result.caveat}
        </span>
      ) : null}
      {stale ? (
        <span className="text-xs text-muted-foreground" data-slot="network-test-stale">
          The rules have changed since this test: test again.
        </span>
      ) : null}
    </output>
  );
}
