'use client';

import { Box, Boxes, FileArchive, Plus } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { PageHeader } from '../shell/shell';
import { Button, buttonVariants } from '../ui/button';
import { EmptyState, RetryableError, Skeleton, Tip } from '../ui/misc';
import { useCan } from '../viewer';
import { ConfigCard } from './config-card';
import { ConfigEditor } from './config-editor';
import { type ConfigCardView, useSandboxConfigs } from './queries';

/** Sandbox configs as cards; the editor opens for a new one or for the card's. */
export function SandboxesPage() {
  const list = useSandboxConfigs();
  const { allowed, why } = useCan('sandboxes.write');
  const [editing, setEditing] = useState<{ config: ConfigCardView | null } | null>(null);
  const newButton = (
    <Tip content={why}>
      <Button disabled={!allowed} onClick={() => setEditing({ config: null })}>
        <Plus aria-hidden /> New config
      </Button>
    </Tip>
  );
  return (
    <>
      <PageHeader
        title="Sandboxes"
        description="Where skills run: Docker engines, E2B and CubeSandbox clusters, with their limits and env."
        actions={
          <div className="flex flex-wrap gap-2">
            <Link className={buttonVariants({ variant: 'outline' })} href="/sandboxes/instances">
              <Box aria-hidden /> Instances
            </Link>
            <Link className={buttonVariants({ variant: 'outline' })} href="/sandboxes/artifacts">
              <FileArchive aria-hidden /> Artifacts
            </Link>
            {newButton}
          </div>
        }
      />
      {list.isPending ? (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-48 w-full" />
          ))}
        </div>
      ) : list.error ? (
        <RetryableError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <EmptyState icon={<Boxes />} title="No sandbox configs yet" action={newButton}>
          Create a config for a Docker engine (an image and limits) or an E2B/CubeSandbox cluster (URL, API key, template); it is enabled once its full check
          passes.
        </EmptyState>
      ) : (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {list.data.items.map((c) => (
            <ConfigCard key={c.id} config={c} canWrite={allowed} why={why} onEdit={() => setEditing({ config: c })} />
          ))}
        </div>
      )}
      {editing ? (
        <ConfigEditor key={editing.config?.id ?? 'new'} open onOpenChange={(o) => !o && setEditing(null)} config={editing.config} canWrite={allowed} />
      ) : null}
    </>
  );
}
