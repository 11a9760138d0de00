import { Ban, CircleCheck, CircleX, LoaderCircle, Trash2 } from 'lucide-react';
import type { InstallOut } from '@/lib/installs/schema';
import { Badge } from '../ui/badge';
import { cn } from '../ui/cn';
import { servedNote, ver } from './format';

type State = InstallOut['state'];

const LOOK: Record<State, { variant: 'default' | 'success' | 'destructive' | 'warning' | 'secondary'; icon: React.ComponentType<{ className?: string }> }> = {
  installing: { variant: 'default', icon: LoaderCircle },
  ready: { variant: 'success', icon: CircleCheck },
  failed: { variant: 'destructive', icon: CircleX },
  removing: { variant: 'warning', icon: Trash2 },
  disabled: { variant: 'secondary', icon: Ban },
};

/** An install's state word with its colour, then "updatable" and what agents get while it differs. */
export function InstallChips({ install }: { install: Pick<InstallOut, 'state' | 'version' | 'served' | 'updatable' | 'catalogVersion'> }) {
  const look = LOOK[install.state];
  const Icon = look.icon;
  const spin = install.state === 'installing' || install.state === 'removing';
  const served = servedNote(install);
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Badge variant={look.variant} data-testid="install-state">
        <Icon aria-hidden className={cn('size-3.5', spin && 'animate-spin motion-reduce:animate-none')} />
        {install.state}
      </Badge>
      {install.updatable ? (
        <Badge variant="outline" title={install.catalogVersion ? `The catalog has ${ver(install.catalogVersion)}` : undefined}>
          updatable{install.catalogVersion ? ` to ${ver(install.catalogVersion)}` : ''}
        </Badge>
      ) : null}
      {served ? <Badge variant="warning">{served}</Badge> : null}
    </span>
  );
}
