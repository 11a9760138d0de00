'use client';

import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { closeTerminalSessionAction, deleteTerminalTranscriptAction } from '@/app/(console)/sandboxes/actions';
import { terminalsApi } from '@/lib/api/contracts/terminals';
import type { terminalSessionOut, terminalTranscriptOut } from '@/lib/terminal/schema';
import { get, pathOf } from '../../api';
import { useOperation } from '../../use-operation';

export type TerminalSession = z.output<typeof terminalSessionOut>;
export type Transcript = z.output<typeof terminalTranscriptOut>;

export const terminalSessionsKey = ['terminal-sessions'] as const;
export const transcriptsKey = ['terminal-transcripts'] as const;
const invalidate = (qc: QueryClient) => {
  void qc.invalidateQueries({ queryKey: terminalSessionsKey });
  void qc.invalidateQueries({ queryKey: transcriptsKey });
};

/** A download link (an asciicast file, not a JSON read), built from the operation's contract. */
export const transcriptUrl = (id: string) => pathOf(terminalsApi.downloadTerminalTranscript.path, { id });

/** The open sessions, polled every 5 s while the page is visible. */
export function useTerminalSessions(enabled: boolean) {
  return useQuery({
    queryKey: terminalSessionsKey,
    enabled,
    queryFn: ({ signal }) => get(terminalsApi.listTerminalSessions, { signal }),
    refetchInterval: 5000,
    refetchIntervalInBackground: false,
  });
}

export function useTranscripts(enabled: boolean) {
  return useQuery({
    queryKey: transcriptsKey,
    enabled,
    queryFn: ({ signal }) => get(terminalsApi.listTerminalTranscripts, { signal }),
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
