'use client';

import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { closeTerminalSessionAction, deleteTerminalTranscriptAction } from '@/app/(console)/sandboxes/actions';
import type { terminalSessionListOut, terminalSessionOut, terminalTranscriptListOut, terminalTranscriptOut } from '@/lib/terminal/schema';
import { api } from '../../api';
import { useOperation } from '../../use-operation';

export type TerminalSession = z.output<typeof terminalSessionOut>;
export type Transcript = z.output<typeof terminalTranscriptOut>;

export const terminalSessionsKey = ['terminal-sessions'] as const;
export const transcriptsKey = ['terminal-transcripts'] as const;
const invalidate = (qc: QueryClient) => {
  void qc.invalidateQueries({ queryKey: terminalSessionsKey });
  void qc.invalidateQueries({ queryKey: transcriptsKey });
};

export const transcriptUrl = (id: string) => `/api/v1/terminal-transcripts/${encodeURIComponent(id)}`;

/** The open sessions, polled every 5 s while the page is visible. */
export function useTerminalSessions(enabled: boolean) {
  return useQuery({
    queryKey: terminalSessionsKey,
    enabled,
    queryFn: ({ signal }) => api<z.output<typeof terminalSessionListOut>>('/api/v1/terminal-sessions', { signal }),
    refetchInterval: 5000,
    refetchIntervalInBackground: false,
  });
}

export function useTranscripts(enabled: boolean) {
  return useQuery({
    queryKey: transcriptsKey,
    enabled,
    queryFn: ({ signal }) => api<z.output<typeof terminalTranscriptListOut>>('/api/v1/terminal-transcripts', { signal }),
    refetchInterval: 30_000,
    refetchIntervalInBackground: false,
  });
}

export function useCloseTerminalSession() {
  const qc = useQueryClient();
  return useOperation(closeTerminalSessionAction, { input: (id: string) => ({ params: { id } }), onSettled: () => invalidate(qc) });
}

export function useDeleteTranscript() {
  const qc = useQueryClient();
  return useOperation(deleteTerminalTranscriptAction, { input: (id: string) => ({ params: { id } }), onSettled: () => invalidate(qc) });
}
