'use client';

import { Menu, Terminal, X } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { Dialog } from 'radix-ui';
import { useEffect, useState } from 'react';
import { Button } from '../ui/button';
import { NavLinks } from './nav-links';

/** Below the md breakpoint the sidebar is a drawer opened from the header. */
export function MobileNav() {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a navigation (also back/forward) closes the drawer
  useEffect(() => setOpen(false), [pathname]);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open navigation">
          <Menu aria-hidden />
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40 md:hidden" />
        <Dialog.Content className="fixed inset-y-0 left-0 z-50 flex w-64 max-w-[85vw] flex-col border-r bg-card shadow-xl md:hidden">
          <div className="flex h-14 items-center justify-between border-b px-4">
            <Dialog.Title asChild>
              <Link href="/overview" className="flex items-center gap-2 font-semibold" onClick={() => setOpen(false)}>
                <Terminal aria-hidden className="size-5 text-primary" /> Skilldock
              </Link>
            </Dialog.Title>
            <Dialog.Close asChild>
              <Button variant="ghost" size="icon" aria-label="Close navigation">
                <X aria-hidden />
              </Button>
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">Console sections</Dialog.Description>
          <nav aria-label="Sections" className="flex flex-col gap-0.5 overflow-y-auto p-2">
            <NavLinks onNavigate={() => setOpen(false)} />
          </nav>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
