'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PlugZap, RefreshCw, ScanSearch } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { toast } from 'sonner';
import { syncGatewayAction, testGatewayAction } from '@/app/(console)/gateways/actions';
import { get } from '@/components/api';
import { gatewaysApi } from '@/lib/api/contracts/gateways';
import { jobHref } from '../jobs/view';
import { Button } from '../ui/button';
import { Tip } from '../ui/misc';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { gatewayKey, gatewaysKey, invalidateGateways } from './queries';
import { type Gateway, STATUS_LABELS, statusKey } from './view';

/** The header's Test connection, Sync now and Check drift; a started sync is followed in the log drawer (`onJob`). */
export function GatewayActions({ gateway, onJob }: { gateway: Gateway; onJob: (jobId: string) => void }) {
  const can = useCan('gateways.write');
  const read = useCan('gateways.read');
  const qc = useQueryClient();
  const router = useRouter();
  const params = { params: { id: gateway.id } };
  const test = useOperation(testGatewayAction, {
    input: () => params,
    onSuccess: (s) => {
      invalidateGateways(qc);
      const key = statusKey(s);
      if (key === 'reachable' || key === 'read-only')
        toast.success(`${gateway.name} is ${STATUS_LABELS[key]}`, { description: s?.version ? `OpenClaw ${s.version}` : undefined });
      else toast.error(`${gateway.name}: ${STATUS_LABELS[key]}`, { description: s?.error ?? undefined });
    },
    onError: (e) => toast.error('Could not test the connection', { description: e.message }),
  });
  const sync = useOperation(syncGatewayAction, {
    input: () => params,
    onSuccess: (r) => {
      if (r.dryRun) return;
      toast.success(r.coalesced ? 'A sync was already queued' : 'Sync started', {
        id: `job-end-${r.jobId}`,
        description: gateway.name,
        action: { label: 'Open job', onClick: () => router.push(jobHref(r.jobId)) },
      });
      void qc.invalidateQueries({ queryKey: [...gatewaysKey, 'jobs', gateway.id] });
      onJob(r.jobId);
    },
    onError: (e) => toast.error('Could not start the sync', { description: e.message }),
  });
  const drift = useMutation({
    mutationFn: () => get(gatewaysApi.gatewayDrift, { params: { id: gateway.id } }),
    onSuccess: (d) => {
      qc.setQueryData<Gateway>(gatewayKey(gateway.id), (g) => (g ? { ...g, drift: d } : g));
      invalidateGateways(qc);
      if (d.count) toast.warning(`${d.count} difference${d.count === 1 ? '' : 's'} found`, { description: 'See the Agents tab.' });
      else toast.success('Every linked agent is in sync');
    },
    onError: (e) => toast.error('Could not check drift', { description: e.message }),
  });
  return (
    <>
      <Tip content={can.why}>
        <Button variant="outline" disabled={!can.allowed || test.isPending} onClick={() => test.mutate()} data-testid="gateway-test">
          <PlugZap aria-hidden /> {test.isPending ? 'Testing…' : 'Test connection'}
        </Button>
      </Tip>
      <Tip content={read.why}>
        <Button variant="outline" disabled={!read.allowed || drift.isPending} onClick={() => drift.mutate()} data-testid="gateway-check-drift">
          <ScanSearch aria-hidden /> {drift.isPending ? 'Asking the gateway…' : 'Check drift'}
        </Button>
      </Tip>
      <Tip content={can.why ?? (gateway.agentIds.length ? undefined : 'Adopt or link agents first: a sync writes only linked agents.')}>
        <Button disabled={!can.allowed || sync.isPending || !gateway.agentIds.length} onClick={() => sync.mutate()} data-testid="gateway-sync">
          <RefreshCw aria-hidden /> Sync now
        </Button>
      </Tip>
    </>
  );
}
