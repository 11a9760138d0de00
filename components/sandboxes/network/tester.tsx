'use client';

import { Radar } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Input, Label } from '../../ui/input';
import { ErrorNote } from '../../ui/misc';
import { ENFORCED_LABEL } from './enforcement';
import { type NetworkTestResult, useTestConfigNetwork } from './queries';

/** Whether a sandbox of this config may reach a destination under the SAVED rules; no traffic is sent. */
export function NetworkTester({ configId, unsaved }: { configId: string; unsaved: boolean }) {
  const [destination, setDestination] = useState('');
  const [result, setResult] = useState<NetworkTestResult | null>(null);
  const test = useTestConfigNetwork(configId);
  const run = () => {
    setResult(null);
    test.mutate(destination, { onSuccess: setResult });
  };
  const issue = test.error?.issues.find((i) => i.path === 'destination')?.message;

  return (
    <section className="grid gap-2 rounded-md border px-3 py-3" aria-labelledby="net-tester-title" data-slot="network-tester">
      <h3 id="net-tester-title" className="flex items-center gap-2 text-sm font-medium">
        <Radar aria-hidden className="size-4" /> Test a destination
      </h3>
      <p className="text-xs text-muted-foreground">
        Asks the saved rules, not the ones being edited{unsaved ? ' — save first to test your changes' : ''}. Nothing is sent to the destination.
      </p>
      {/* No <form>: the panel also sits inside the config editor's form. */}
      <div className="flex gap-2">
        <Label htmlFor="net-test-destination" className="sr-only">
          Destination
        </Label>
        <Input
          id="net-test-destination"
          className="font-mono"
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
      {issue ? (
        <p role="alert" className="text-xs text-destructive">
          {issue}
        </p>
      ) : test.error ? (
        <ErrorNote error={test.error} />
      ) : null}
      {result ? (
        <output className="grid gap-1 text-sm" aria-label="Test result" data-allowed={result.allowed}>
          <span className="flex flex-wrap items-center gap-2">
            <Badge variant={result.allowed ? 'success' : 'destructive'}>{result.allowed ? 'allowed' : 'denied'}</Badge>
            <span className="font-mono text-xs">
              {result.destination.host}:{result.destination.port}
            </span>
            <span className="text-xs text-muted-foreground">enforced {ENFORCED_LABEL[result.enforcedBy]}</span>
          </span>
          <span data-slot="network-test-rule">{result.rule}</span>
          {result.caveat ? (
            <span className="text-xs text-foreground" data-slot="network-test-caveat">
              <strong>Not enforced as shown:</strong> {result.caveat}
            </span>
          ) : null}
        </output>
      ) : null}
    </section>
  );
}
