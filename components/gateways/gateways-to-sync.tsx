'use client';

import Link from 'next/link';
import { useCan } from '../viewer';
import { useGateways } from './queries';
import type { Gateway } from './view';

/** The gateways a save of these agents syncs on its own: auto sync on and one of the agents linked. */
export function useGatewaysToSync(agentIds: string[]): Gateway[] {
  const read = useCan('gateways.read');
  const list = useGateways({ enabled: read.allowed });
  const set = new Set(agentIds);
  return (list.data?.items ?? []).filter((g) => g.autoSync && g.agentIds.some((a) => set.has(a)));
}

/** One line for the matrix's what-if: which gateways the save will write into. */
export function GatewaysToSyncNote({ gateways }: { gateways: Gateway[] }) {
  if (!gateways.length) return null;
  return (
    <p className="text-sm" data-testid="whatif-gateways">
      Saving syncs {gateways.length === 1 ? 'the gateway' : `${gateways.length} gateways`}{' '}
      {gateways.map((g, i) => (
        <span key={g.id}>
          {i ? ', ' : ''}
          <Link href={`/gateways/${encodeURIComponent(g.id)}`} className="font-medium text-primary hover:underline">
            {g.name}
          </Link>
        </span>
      ))}{' '}
      right after.
    </p>
  );
}
