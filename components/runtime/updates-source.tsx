import { cn } from '../ui/cn';

/** One colour per update source, light and dark (github is reserved for GitHub-release binaries). */
const SOURCE_LOOK: Record<string, string> = {
  pip: 'border-sky-500/30 bg-sky-500/10 text-sky-700 dark:text-sky-300',
  npm: 'border-rose-500/30 bg-rose-500/10 text-rose-700 dark:text-rose-300',
  apt: 'border-amber-500/30 bg-amber-500/10 text-amber-800 dark:text-amber-300',
  apk: 'border-teal-500/30 bg-teal-500/10 text-teal-700 dark:text-teal-300',
  github: 'border-violet-500/30 bg-violet-500/10 text-violet-700 dark:text-violet-300',
};

export const SOURCE_LABEL: Record<string, string> = { pip: 'pip', npm: 'npm', apt: 'apt', apk: 'apk', github: 'GitHub' };

/** A small coloured pill naming a source, optionally with a count. */
export function SourcePill({ source, count, className }: { source: string; count?: number; className?: string }) {
  return (
    <span
      data-source={source}
      className={cn(
        'inline-flex items-center gap-1 rounded-full border px-2 py-0.5 font-mono text-xs font-medium whitespace-nowrap',
        SOURCE_LOOK[source] ?? 'border-border bg-muted text-foreground',
        className,
      )}
    >
      {SOURCE_LABEL[source] ?? source}
      {count !== undefined ? <span style={{ fontVariantNumeric: 'tabular-nums' }}>{count}</span> : null}
    </span>
  );
}
