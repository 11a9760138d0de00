'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { useEffect, useState } from 'react';
import { get } from '@/components/api';
import { jobsApi } from '@/lib/api/contracts/jobs';
import { StateChip } from '../jobs/state-chip';
import { jobHref } from '../jobs/view';

type ItemType = React.ComponentType<React.ComponentProps<typeof Command.Item>>;

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** The palette's "Jobs" group: the newest jobs, or those whose title matches what is typed (searched on the server). */
export function PaletteJobs({ query, onSelect, Item }: { query: string; onSelect: (href: string) => void; Item: ItemType }) {
  const q = useDebounced(query.trim(), 200);
  const jobs = useQuery({
    queryKey: ['jobs', { view: 'palette', q }],
    queryFn: ({ signal }) => get(jobsApi.listJobs, { query: { q, limit: 8, sort: 'created_desc' }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const items = jobs.data?.items ?? [];
  if (!items.length) return null;
  return (
    <Command.Group heading="Jobs">
      {items.map((j) => (
        // The query words are part of the value so cmdk keeps what the server matched.
        <Item key={j.id} onSelect={() => onSelect(jobHref(j.id))} value={`job ${j.title} ${j.kind} ${j.id} ${q}`}>
          <span className="min-w-0 flex-1 truncate">{j.title}</span>
          <StateChip state={j.state} />
        </Item>
      ))}
    </Command.Group>
  );
}
