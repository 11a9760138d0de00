'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { sandboxArtifactsApi } from '@/lib/api/contracts/sandbox-artifacts';
import type { ArtifactCollection, ArtifactFile, ArtifactList } from '@/lib/sandbox/artifacts/schema';
import { get, pathOf } from '../../api';

export type { ArtifactCollection, ArtifactFile, ArtifactList };

export const artifactsKey = ['sandbox-artifacts'] as const;

/** Filters of a list, as the API takes them (empty strings are left out). */
export interface ArtifactFilters {
  configId?: string;
  sandbox?: string;
  session?: string;
  q?: string;
  sort?: string;
  offset?: number;
  limit?: number;
}

export function useArtifacts(f: ArtifactFilters) {
  return useQuery({
    queryKey: [...artifactsKey, f],
    queryFn: ({ signal }) => get(sandboxArtifactsApi.listSandboxArtifacts, { query: f, signal }),
    placeholderData: keepPreviousData,
  });
}

/** A download link (the browser saves the bytes; not a JSON read), built from the operation's contract. */
export const artifactUrl = (fileId: string) => pathOf(sandboxArtifactsApi.downloadSandboxArtifact.path, { fileId });

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1048576) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1048576).toFixed(1)} MiB`;
}
