'use client';

import { PackagePlus, Puzzle } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import type { InstallOut } from '@/lib/installs/schema';
import { Button } from '../ui/button';
import { EmptyState, RetryableError, Tip } from '../ui/misc';
import { ColumnHeads, SkeletonRows, Table, TBody, TD, TR } from '../ui/table';
import { RelativeTime } from '../ui/time';
import { useCan } from '../viewer';
import { BulkInstallDialog } from './bulk-install-dialog';
import { ver } from './format';
import { InstallActions } from './install-row-actions';
import { InstallStatus } from './install-status';

const COLUMNS = ['Skill', 'Version', 'State', 'Generation', 'Updated'];

/** A config's installed skills: one row each, with the same actions as the skill page, and a bulk install. */
export function ConfigInstalls({
  configId,
  configName,
  query,
}: {
  configId: string;
  configName: string;
  query: { data?: { items: InstallOut[] }; isPending: boolean; error: unknown; refetch: () => unknown };
}) {
  const { allowed, why } = useCan('sandboxes.write');
  const [picking, setPicking] = useState(false);
  const items = query.data?.items ?? [];
  return (
    <section className="grid gap-3" data-testid="config-installs" aria-labelledby={`installs-${configId}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`installs-${configId}`} className="font-medium">
          Installed skills
        </h3>
        <Tip content={why}>
          <Button size="sm" disabled={!allowed} onClick={() => setPicking(true)} data-testid="bulk-install-button">
            <PackagePlus aria-hidden /> Install skills…
          </Button>
        </Tip>
      </div>
      {query.error && !query.data ? (
        <RetryableError error={query.error} onRetry={() => void query.refetch()} />
      ) : !query.isPending && items.length === 0 ? (
        <EmptyState icon={<Puzzle />} title="No skills installed">
          Install catalog skills into this config; its sandboxes then start from a snapshot image that holds them.
        </EmptyState>
      ) : (
        <Table>
          <ColumnHeads columns={COLUMNS} />
          <TBody>
            {query.isPending ? (
              <SkeletonRows rows={2} cols={COLUMNS.length + 1} />
            ) : (
              items.map((i) => (
                <TR key={i.id} data-testid={`config-install-row-${i.skillKey}`} data-state={i.state}>
                  <TD className="max-w-48">
                    <Link href={`/skills?q=${encodeURIComponent(i.skillKey)}`} className="block truncate font-medium hover:underline">
                      {i.skillName}
                    </Link>
                    <span className="block truncate text-xs text-muted-foreground">{i.skillKey}</span>
                  </TD>
                  <TD className="whitespace-nowrap">{ver(i.version)}</TD>
                  <TD className="min-w-48">
                    <InstallStatus install={i} />
                  </TD>
                  <TD>{i.imageGeneration ?? '—'}</TD>
                  <TD className="whitespace-nowrap text-xs">
                    <RelativeTime iso={i.updatedAt} />
                  </TD>
                  <TD>
                    <InstallActions install={i} />
                  </TD>
                </TR>
              ))
            )}
          </TBody>
        </Table>
      )}
      {picking ? <BulkInstallDialog configId={configId} configName={configName} installs={items} onClose={() => setPicking(false)} /> : null}
    </section>
  );
}
