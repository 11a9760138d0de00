'use client';

import { LogOut, Search, Terminal } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { signOut } from 'next-auth/react';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { useViewer } from '../viewer';
import { CommandPalette } from './command-palette';
import { NAV } from './nav';
import { ThemeToggle } from './theme-toggle';

export function Shell({ children }: { children: React.ReactNode }) {
  const viewer = useViewer();
  const pathname = usePathname();
  const items = NAV.filter((n) => viewer.permissions.includes(n.permission));
  return (
    <div className="flex min-h-screen">
      <aside className="sticky top-0 hidden h-screen w-56 shrink-0 flex-col border-r bg-card md:flex">
        <Link href="/" className="flex h-14 items-center gap-2 border-b px-4 font-semibold">
          <Terminal className="size-5 text-primary" /> Skilldock
        </Link>
        <nav aria-label="Sections" className="flex flex-1 flex-col gap-0.5 p-2">
          {items.map((n) => {
            const active = pathname === n.href || pathname.startsWith(n.href + '/');
            return (
              <Link
                key={n.href}
                href={n.href}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'flex items-center gap-2 rounded-md px-3 py-2 text-sm text-muted-foreground hover:bg-accent hover:text-accent-foreground',
                  active && 'bg-accent font-medium text-accent-foreground',
                )}
              >
                <n.icon className="size-4" /> {n.label}
              </Link>
            );
          })}
        </nav>
        <div className="border-t p-3 text-xs text-muted-foreground">
          Press <kbd className="rounded border px-1">Ctrl</kbd>+<kbd className="rounded border px-1">K</kbd> to jump
        </div>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background/90 px-4 backdrop-blur">
          <nav aria-label="Sections (mobile)" className="flex gap-1 md:hidden">
            {items.map((n) => (
              <Link key={n.href} href={n.href} aria-label={n.label} className="rounded-md p-2 hover:bg-accent">
                <n.icon className="size-4" />
              </Link>
            ))}
          </nav>
          <Button
            variant="outline"
            size="sm"
            className="ml-auto w-48 justify-start text-muted-foreground"
            onClick={() => window.dispatchEvent(new Event('skilldock:palette'))}
          >
            <Search /> Search…
          </Button>
          <ThemeToggle />
          <div className="flex items-center gap-2 text-sm" data-testid="current-user">
            <span className="hidden sm:inline">{viewer.email}</span>
            <Badge variant="secondary" data-testid="current-role">
              {viewer.role}
            </Badge>
          </div>
          <Button variant="ghost" size="icon" aria-label="Sign out" onClick={() => void signOut({ callbackUrl: '/login' })}>
            <LogOut />
          </Button>
        </header>
        <main className="mx-auto w-full max-w-7xl flex-1 p-4 md:p-6">{children}</main>
      </div>
      <CommandPalette />
    </div>
  );
}

/** Page header: title, a short description, and the page's primary action. */
export function PageHeader({ title, description, actions }: { title: string; description?: string; actions?: React.ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-3">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description ? <p className="mt-1 text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}
