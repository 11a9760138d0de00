'use client';

import Link from 'next/link';
import { useState } from 'react';
import { buttonVariants } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { ArtifactsTable, CollectionsSummary, type Sort, sessionHref } from './artifacts-table';
import { useArtifacts } from './queries';

/** On a sandbox's page: what earlier sandboxes of its session (before recycles) left in /workspace/output. */
export function SessionArtifacts({ instanceId }: { instanceId: string }) {
  const [sort, setSort] = useState<Sort>('-collectedAt');
  const [offset, setOffset] = useState(0);
  const list = useArtifacts({ session: instanceId, sort, offset, limit: 20 });
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div>
          <CardTitle>Collected artifacts</CardTitle>
          <CardDescription>
            Kept from /workspace/output before this sandbox’s earlier recycles (its session); search them on the artifacts page.
          </CardDescription>
        </div>
        <Link className={buttonVariants({ variant: 'outline', size: 'sm' })} href={sessionHref(instanceId)}>
          Open in Artifacts
        </Link>
      </CardHeader>
      <CardContent className="grid gap-3">
        <ArtifactsTable
          data={list.data}
          pending={list.isPending}
          error={list.error}
          sort={sort}
          onSort={(s) => {
            setSort(s);
            setOffset(0);
          }}
          onPage={setOffset}
          filtered={false}
        />
        {list.data?.collections.length ? <CollectionsSummary collections={list.data.collections} /> : null}
      </CardContent>
    </Card>
  );
}
