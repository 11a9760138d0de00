'use client';

import { FlaskConical, Stethoscope } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '@/components/error-message';
import { Button } from '../ui/button';
import { Tip } from '../ui/misc';
import { useCan } from '../viewer';
import { SelftestDialog } from './selftest-dialog';
import { useStartJob } from './use-start-job';

/** The list page's primary actions; disabled with the reason for roles that may not run jobs. */
export function StartActions() {
  const can = useCan('jobs.run');
  const start = useStartJob();
  const [selftestOpen, setSelftestOpen] = useState(false);

  const runDiagnostics = () =>
    start.mutate({ kind: 'diagnostics' }, { onError: (e) => toast.error('Could not start diagnostics', { description: errorMessage(e) }) });

  return (
    <>
      <Tip content={can.why}>
        <Button variant="outline" disabled={!can.allowed} onClick={() => setSelftestOpen(true)}>
          <FlaskConical aria-hidden /> Log self-test
        </Button>
      </Tip>
      <Tip content={can.why}>
        <Button disabled={!can.allowed || (start.isPending && start.variables?.kind === 'diagnostics')} onClick={runDiagnostics}>
          <Stethoscope aria-hidden /> Run diagnostics
        </Button>
      </Tip>
      {can.allowed ? <SelftestDialog open={selftestOpen} onOpenChange={setSelftestOpen} /> : null}
    </>
  );
}
