'use client';

import { PlugZap } from 'lucide-react';
import { testSandboxConnectionAction } from '@/app/(console)/sandboxes/actions';
import { type SandboxBackend, SECRET_FIELDS, SECRET_MASK } from '@/lib/sandbox/config/schema';
import { Button } from '../ui/button';
import { ErrorNote, Tip } from '../ui/misc';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { ProbeList, type ProbeView } from './check-report';

export interface ConnectionTestProps {
  configId: string | null;
  backend?: string;
  /** The values being edited, read when the button is pressed. */
  values?: () => unknown;
  /** Secrets the stored config has: an empty field then means "keep the stored one". */
  secretsConfigured?: readonly string[];
}

/** "Test connection": the probes that create nothing, run on the unsaved values. */
export function ConnectionTest({ configId, backend, values, secretsConfigured = [] }: ConnectionTestProps) {
  const { allowed, why } = useCan('sandboxes.write');
  const test = useOperation(testSandboxConnectionAction, {
    input: () => {
      const b = (backend ?? 'docker') as SandboxBackend;
      const cfg: Record<string, unknown> = { ...((values?.() as Record<string, unknown>) ?? {}) };
      for (const f of SECRET_FIELDS[b]) if (cfg[f] === '' && secretsConfigured.includes(f)) cfg[f] = SECRET_MASK;
      return { body: { backend: b, config: cfg, ...(configId ? { id: configId } : {}) } };
    },
  });
  return (
    <div data-slot="sandbox-connection-test" className="grid gap-2">
      <div>
        <Tip content={why}>
          <Button type="button" size="sm" variant="outline" disabled={!allowed || !values || test.isPending} onClick={() => test.mutate()}>
            <PlugZap aria-hidden /> {test.isPending ? 'Testing…' : 'Test connection'}
          </Button>
        </Tip>
      </div>
      {test.data ? <ProbeList probes={test.data.probes as ProbeView[]} label="Connection test" /> : null}
      {test.error ? <ErrorNote error={test.error} /> : null}
    </div>
  );
}
