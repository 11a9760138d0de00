'use client';

import { Hammer, HardDrive } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { ConfigImageOut } from '@/lib/installs/schema';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Confirm } from '../ui/dialog';
import { ErrorNote, RetryableError, Skeleton, Tip } from '../ui/misc';
import { RelativeTime } from '../ui/time';
import { useCan } from '../viewer';
import { humanBytes } from './format';
import { useRebuildImage } from './queries';

type Health = ConfigImageOut['health']['state'];
const HEALTH: Record<Health, { label: string; variant: 'success' | 'destructive' | 'warning' | 'secondary' }> = {
  ok: { label: 'healthy', variant: 'success' },
  missing: { label: 'image missing', variant: 'destructive' },
  no_snapshot: { label: 'no snapshot yet', variant: 'secondary' },
  bundle: { label: 'installed at start', variant: 'secondary' },
  layers_high: { label: 'many layers', variant: 'warning' },
};

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="truncate">{children}</dd>
    </div>
  );
}

/** "4 generations · 7.3 MB on disk, 4.1 MB of it the base image they share": each layer counted once. */
export function diskSummary(disk: ConfigImageOut['disk']): string {
  const n = `${disk.generations} generation${disk.generations === 1 ? '' : 's'}`;
  if (disk.bytes === null) return `${n} · disk use unknown: the engine could not be asked (${disk.error ?? 'no answer'})`;
  const total = `${disk.exact ? '' : 'at most '}${humanBytes(disk.bytes)} on disk`;
  const base = disk.baseBytes ? `, ${humanBytes(disk.baseBytes)} of it the base image they share` : '';
  return `${n} · ${total}${base}`;
}

/** Each generation's own layers (what it adds over the image it stands on) as a bar against the largest, newest first; the active one marked. */
function Generations({ image }: { image: ConfigImageOut }) {
  const gens = [...image.generations].sort((a, b) => b.generation - a.generation);
  if (!gens.length) return null;
  const own = new Map(image.disk.perGeneration.map((g) => [g.generation, g.ownBytes]));
  const max = Math.max(1, ...own.values());
  return (
    <div className="grid gap-1.5">
      <h4 className="text-xs font-medium text-muted-foreground" data-testid="image-disk">
        {diskSummary(image.disk)}
      </h4>
      <ul className="grid gap-1 text-xs" aria-label="Generations, with what each adds on disk">
        {gens.map((g) => {
          const bytes = own.get(g.generation);
          return (
            <li
              key={g.id}
              className="grid grid-cols-[3.5rem_1fr_4.5rem] items-center gap-2 sm:grid-cols-[3.5rem_1fr_4.5rem_6rem]"
              data-generation={g.generation}
              data-state={g.state}
            >
              <span className={g.state === 'active' ? 'font-medium' : 'text-muted-foreground'}>gen {g.generation}</span>
              <span className="h-2 overflow-hidden rounded-full bg-muted" aria-hidden>
                <span
                  className={g.state === 'active' ? 'block h-full bg-primary' : 'block h-full bg-muted-foreground/50'}
                  style={{ width: `${Math.round(((bytes ?? 0) / max) * 100)}%` }}
                />
              </span>
              <span
                className="text-right"
                style={{ fontVariantNumeric: 'tabular-nums' }}
                data-testid="generation-own"
                title={g.sizeBytes !== null ? `The image is ${humanBytes(g.sizeBytes)} with every layer under it` : undefined}
              >
                {bytes === undefined ? '—' : `+${humanBytes(bytes)}`}
              </span>
              <span className="hidden text-muted-foreground sm:block">{g.state}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The config's snapshot image: the active generation, its health, the way out when it is broken, and its history. */
export function ConfigImage({
  configId,
  configName,
  query,
}: {
  configId: string;
  configName: string;
  query: { data?: ConfigImageOut; isPending: boolean; error: unknown; refetch: () => unknown };
}) {
  const { allowed, why } = useCan('sandboxes.write');
  const [confirm, setConfirm] = useState(false);
  const rebuild = useRebuildImage();
  const img = query.data;
  return (
    <section className="grid gap-3" data-testid="config-image" data-health={img?.health.state} aria-labelledby={`image-${configId}`}>
      <h3 id={`image-${configId}`} className="flex items-center gap-2 font-medium">
        <HardDrive aria-hidden className="size-4" /> Image
      </h3>
      {query.error && !img ? (
        <RetryableError error={query.error} onRetry={() => void query.refetch()} />
      ) : !img ? (
        <Skeleton className="h-24 w-full" />
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <Badge variant={HEALTH[img.health.state].variant} data-testid="image-health">
              {HEALTH[img.health.state].label}
            </Badge>
            <span className="text-muted-foreground">{img.health.message}</span>
          </div>
          <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
            <Fact label="Active generation">{img.active ? img.active.generation : 'none (base image)'}</Fact>
            <Fact label="Built">{img.active ? <RelativeTime iso={img.active.createdAt} /> : '—'}</Fact>
            <Fact label="Size">{img.active ? humanBytes(img.active.sizeBytes) : '—'}</Fact>
            <Fact label="Layers">{img.active?.layers != null ? `${img.active.layers} of ${img.health.layerLimit}` : '—'}</Fact>
          </dl>
          {img.baseImage ? <p className="truncate text-xs text-muted-foreground">Base image: {img.baseImage}</p> : null}
          {img.health.state === 'missing' || img.health.state === 'layers_high' ? (
            <div>
              <Tip content={why}>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={!allowed || rebuild.isPending}
                  onClick={() => setConfirm(true)}
                  data-testid="image-rebuild-button"
                >
                  <Hammer aria-hidden /> Rebuild from base and reinstall all
                </Button>
              </Tip>
            </div>
          ) : null}
          {rebuild.error ? <ErrorNote error={rebuild.error} /> : null}
          <Generations image={img} />
        </>
      )}
      <Confirm
        open={confirm}
        onOpenChange={setConfirm}
        title={`Rebuild the image of ${configName}?`}
        description={
          <>
            A job builds a new image from the base {img?.baseImage ? <code>{img.baseImage}</code> : 'image'} and installs every installed skill again; the
            result becomes the next generation.
          </>
        }
        confirmLabel="Rebuild image"
        destructive={false}
        busy={rebuild.isPending}
        onConfirm={() =>
          rebuild.mutate(
            { id: configId, reason: img?.health.state },
            {
              onSuccess: () => toast.success(`Rebuilding the image of ${configName}`),
              onError: (e) => toast.error('Could not start the rebuild', { description: e.message }),
            },
          )
        }
      />
    </section>
  );
}
