'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { PendingApprovalsCount } from '../policy/pending-approvals-count';
import { cn } from '../ui/cn';
import { useViewer } from '../viewer';
import { NAV } from './nav';

export function isActive(pathname: string, href: string): boolean {
  return pathname === href || pathname.startsWith(`${href}/`);
}

/** The sections the viewer may open, with labels and the current one marked. */
export function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const viewer = useViewer();
  const pathname = usePathname() ?? '';
  const shown = NAV.filter((n) => viewer.permissions.includes(n.permission));
  // /sandboxes/terminals is inside /sandboxes: only the most specific matching section is current.
  const current = shown.filter((n) => isActive(pathname, n.href)).sort((a, b) => b.href.length - a.href.length)[0]?.href;
  return shown.map((n) => {
    const active = n.href === current;
    return (
      <Link
        key={n.href}
        href={n.href}
        onClick={onNavigate}
        aria-current={active ? 'page' : undefined}
        className={cn(
          'flex items-center gap-2 rounded-md px-3 py-2 text-sm text-muted-foreground hover:bg-accent hover:text-accent-foreground',
          active && 'bg-accent font-medium text-accent-foreground',
        )}
      >
        <n.icon aria-hidden className="size-4" /> {n.label}
        {n.href === '/policy' ? <PendingApprovalsCount className="ml-auto" /> : null}
      </Link>
    );
  });
}
