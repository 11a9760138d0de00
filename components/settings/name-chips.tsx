import { Badge } from '../ui/badge';
import { cn } from '../ui/cn';

/** The names typed into a list field, one chip each, invalid ones in red. */
export function NameChips({
  id,
  label,
  names,
  valid,
  invalidTitle,
  empty,
  className,
}: {
  id: string;
  label: string;
  names: string[];
  valid: (name: string) => boolean;
  invalidTitle?: string;
  empty: string;
  className?: string;
}) {
  return (
    <ul id={id} aria-label={label} className={cn('flex flex-wrap gap-1.5', className)}>
      {names.length ? (
        names.map((n, i) => (
          <li key={`${n}-${i}`}>
            <Badge variant={valid(n) ? 'secondary' : 'destructive'} className="font-mono" title={valid(n) ? undefined : invalidTitle}>
              {n}
            </Badge>
          </li>
        ))
      ) : (
        <li className="text-xs text-muted-foreground">{empty}</li>
      )}
    </ul>
  );
}
