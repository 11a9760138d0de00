'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cn } from '../ui/cn';
import { PendingApprovalsCount } from './pending-approvals-count';

const TABS = [
  { href: '/policy', label: 'Profiles' },
  { href: '/policy/tester', label: 'Tester' },
  { href: '/policy/approvals', label: 'Approvals' },
  { href: '/policy/exec-log', label: 'Exec log' },
] as const;

/** The exec policy's pages as one segmented bar; Approvals counts what is waiting. */
export function PolicyTabs() {
  const pathname = usePathname() ?? '';
  const current = pathname.startsWith('/policy/profiles') || pathname === '/policy/new' ? '/policy' : pathname;
  return (
    <nav aria-label="Exec policy" className="mb-4 inline-flex flex-wrap items-center gap-0.5 rounded-md border bg-muted/40 p-0.5">
      {TABS.map((t) => (
        <Link
          key={t.href}
          href={t.href}
          aria-current={current === t.href ? 'page' : undefined}
          className={cn(
            'inline-flex items-center gap-1.5 rounded px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
            current === t.href && 'bg-background text-foreground shadow-xs',
          )}
        >
          {t.label}
          {t.href === '/policy/approvals' ? <PendingApprovalsCount /> : null}
        </Link>
      ))}
    </nav>
  );
}
