'use client';

import { Layers } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { Skeleton } from '../ui/misc';
import { ConfigImage } from './config-image';
import { ConfigInstalls } from './config-installs';
import { humanBytes } from './format';
import { isBusy, useConfigImage, useConfigInstalls } from './queries';
import { StaleInstances } from './stale-instances';

const SHEET =
  'left-auto right-0 top-0 h-dvh w-full max-w-4xl translate-x-0 translate-y-0 content-start overflow-y-auto rounded-none border-y-0 border-r-0 sm:w-[min(56rem,100%)]';

/** On a config's card: a summary of its installed skills and image, and the panel that manages both. */
export function ConfigSkillsSection({ configId, configName }: { configId: string; configName: string }) {
  const installs = useConfigInstalls(configId);
  const busy = !!installs.data?.items.some(isBusy);
  const image = useConfigImage(configId, busy);
  const [open, setOpen] = useState(false);
  const items = installs.data?.items ?? [];
  const failed = items.filter((i) => i.state === 'failed').length;
  const running = items.filter(isBusy).length;
  const health = image.data?.health.state;
  return (
    <div className="grid gap-2 text-sm" data-slot="config-skills" data-config={configName}>
      <div className="flex flex-wrap items-center gap-1.5">
        {installs.isPending ? (
          <Skeleton className="h-5 w-40" />
        ) : (
          <>
            <span>
              {items.length} skill{items.length === 1 ? '' : 's'} installed
            </span>
            {running ? <Badge>{running} running</Badge> : null}
            {failed ? <Badge variant="destructive">{failed} failed</Badge> : null}
          </>
        )}
        {image.data?.active ? (
          <span className="text-xs text-muted-foreground">
            · image gen {image.data.active.generation}, {humanBytes(image.data.active.sizeBytes)}
          </span>
        ) : null}
        {health === 'missing' || health === 'layers_high' ? (
          <Badge variant={health === 'missing' ? 'destructive' : 'warning'}>{health === 'missing' ? 'image missing' : 'many layers'}</Badge>
        ) : null}
      </div>
      <div>
        <Button size="sm" variant="outline" onClick={() => setOpen(true)} aria-label={`Skills and image of ${configName}`} data-testid="config-skills-button">
          <Layers aria-hidden /> Skills & image
        </Button>
      </div>
      {open ? (
        <Dialog
          open
          onOpenChange={setOpen}
          title={`${configName}: skills and image`}
          description="The catalog skills installed into this config, and the snapshot image that holds them."
          className={SHEET}
        >
          <div className="grid gap-6">
            <ConfigInstalls configId={configId} configName={configName} query={installs} />
            <ConfigImage configId={configId} configName={configName} query={image} />
            <StaleInstances configId={configId} configName={configName} rollout={image.data?.rollout} />
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}
