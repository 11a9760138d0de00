'use client';

import { Search, Terminal } from 'lucide-react';
import Link from 'next/link';
import { Button } from '../ui/button';
import { AccountMenu } from './account-menu';
import { CommandPalette } from './command-palette';
import { MobileNav } from './mobile-nav';
import { NavLinks } from './nav-links';
import { ThemeToggle } from './theme-toggle';

export function Shell({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-screen">
      <aside className="sticky top-0 hidden h-screen w-56 shrink-0 flex-col border-r bg-card md:flex">
        <Link href="/overview" className="flex h-14 items-center gap-2 border-b px-4 font-semibold">
          <Terminal aria-hidden className="size-5 text-primary" /> Skilldock
        </Link>
        <nav aria-label="Sections" className="flex flex-1 flex-col gap-0.5 p-2">
          <NavLinks />
        </nav>
        <div className="border-t p-3 text-xs text-muted-foreground">
          Press <kbd className="rounded border px-1">Ctrl</kbd>+<kbd className="rounded border px-1">K</kbd> to jump
        </div>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-1 border-b bg-background/90 px-2 backdrop-blur sm:gap-2 sm:px-4">
          <MobileNav />
          <Link href="/overview" aria-label="Skilldock overview" className="flex items-center gap-2 font-semibold md:hidden">
            <Terminal aria-hidden className="size-5 text-primary" />
            <span className="hidden min-[420px]:inline">Skilldock</span>
          </Link>
          <Button
            variant="outline"
            size="sm"
            className="ml-auto h-9 w-9 justify-center px-0 text-muted-foreground sm:w-48 sm:justify-start sm:px-3"
            onClick={() => window.dispatchEvent(new Event('skilldock:palette'))}
          >
            <Search aria-hidden /> <span className="sr-only sm:not-sr-only">Search…</span>
          </Button>
          <ThemeToggle />
          <AccountMenu />
        </header>
        <main className="mx-auto w-full min-w-0 max-w-7xl flex-1 p-4 md:p-6">{children}</main>
      </div>
      <CommandPalette />
    </div>
  );
}

/** Page header: title, a short description, and the page's primary action. */
export function PageHeader({ title, description, actions }: { title: string; description?: string; actions?: React.ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description ? <p className="mt-1 text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}
