'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { setConfigNetworkAction, testConfigNetworkAction } from '@/app/(console)/sandboxes/actions';
import { get } from '@/components/api';
import { networkApi } from '@/lib/api/contracts/network';
import type { networkOut, networkTestOut, putNetworkOut } from '@/lib/network/policy/api-schema';
import type { NetworkPolicy } from '@/lib/network/policy/types';
import { useOperation } from '../../use-operation';

export type NetworkView = z.infer<typeof networkOut>;
export type NetworkSaved = z.infer<typeof putNetworkOut>;
export type NetworkTestResult = z.infer<typeof networkTestOut>;

/** The policy as the API returns it, typed as the editor holds it (the route's schema keeps the rule objects open). */
export const asPolicy = (p: NetworkView['policy']): NetworkPolicy => p as unknown as NetworkPolicy;

export const configNetworkKey = (id: string) => ['sandbox-configs', 'network', id] as const;

export function useConfigNetwork(id: string) {
  return useQuery({
    queryKey: configNetworkKey(id),
    queryFn: ({ signal }) => get(networkApi.getConfigNetwork, { params: { id }, signal }),
  });
}

/** Saves the policy; the answer (the stored policy, secrets masked) replaces the cached read. */
export function useSetConfigNetwork(id: string) {
  const qc = useQueryClient();
  return useOperation(setConfigNetworkAction, {
    input: (policy: NetworkPolicy) => ({ params: { id }, body: { policy } }),
    onSuccess: ({ sandboxes: _reached, ...view }) => qc.setQueryData(configNetworkKey(id), view),
  });
}

/** What the tester asks: a destination, and the draft policy when it tests unsaved rules (absent: the saved ones). */
export interface NetworkTestRequest {
  destination: string;
  policy?: NetworkPolicy;
}

export function useTestConfigNetwork(id: string) {
  return useOperation(testConfigNetworkAction, { input: (body: NetworkTestRequest) => ({ params: { id }, body }) });
}
