'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ArtifactCollection, ArtifactFile, ArtifactList } from '@/lib/sandbox/artifacts/schema';
import { api } from '../../api';

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

export function artifactsQueryString(f: ArtifactFilters): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v !== undefined && v !== '' && v !== null) q.set(k, String(v));
  return q.toString();
}

export function useArtifacts(f: ArtifactFilters) {
  const qs = artifactsQueryString(f);
  return useQuery({
    queryKey: [...artifactsKey, qs],
    queryFn: ({ signal }) => api<ArtifactList>(`/api/v1/sandbox-artifacts${qs ? `?${qs}` : ''}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export const artifactUrl = (fileId: string) => `/api/v1/sandbox-artifacts/${encodeURIComponent(fileId)}/content`;

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1048576) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1048576).toFixed(1)} MiB`;
}
