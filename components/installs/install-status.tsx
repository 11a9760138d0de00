import type { InstallOut } from '@/lib/installs/schema';
import { Progress } from '../ui/misc';
import { InstallChips } from './install-chip';

/** A row's state in full: the chips, the progress and stage while it runs, the reason it failed, and its notes. */
export function InstallStatus({ install }: { install: InstallOut }) {
  const running = install.state === 'installing' || install.state === 'removing';
  return (
    <div className="grid min-w-0 gap-1.5">
      <InstallChips install={install} />
      {running ? (
        <div className="flex items-center gap-2" data-testid="install-stage" data-stage={install.stage ?? ''}>
          <Progress value={install.percent} label={`Progress of ${install.skillName} in ${install.configName}`} className="max-w-48" />
          <span className="truncate text-xs text-muted-foreground" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {install.percent}% · {install.stage ?? 'queued'}
          </span>
        </div>
      ) : null}
      {install.state === 'failed' && install.error ? (
        <p role="alert" className="text-xs text-destructive">
          {install.error.stage ? `${install.error.stage}: ` : ''}
          {install.error.message}
        </p>
      ) : null}
      {install.notes ? (
        <p className="line-clamp-3 whitespace-pre-wrap break-words text-xs text-muted-foreground" title={install.notes}>
          Notes: {install.notes}
        </p>
      ) : null}
    </div>
  );
}
