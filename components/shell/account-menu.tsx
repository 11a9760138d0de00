'use client';

import { ChevronDown, LogOut, UserRound } from 'lucide-react';
import { DropdownMenu as M } from 'radix-ui';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { useViewer } from '../viewer';
import { signOutHere } from './sign-out';

/** Who is signed in, with which role, and Sign out: one menu that fits any width. */
export function AccountMenu() {
  const viewer = useViewer();
  return (
    <M.Root>
      <M.Trigger asChild>
        <Button variant="ghost" className="h-9 gap-1.5 px-2" data-testid="current-user">
          <span className="sr-only">Account menu:</span>
          <UserRound aria-hidden className="hidden sm:block" />
          <span className="sr-only max-w-48 truncate sm:not-sr-only">{viewer.email}</span>
          <Badge variant="secondary" data-testid="current-role">
            {viewer.role}
          </Badge>
          <ChevronDown aria-hidden className="text-muted-foreground" />
        </Button>
      </M.Trigger>
      <M.Portal>
        <M.Content align="end" sideOffset={6} className="z-50 min-w-56 max-w-[calc(100vw-1rem)] rounded-md border bg-card p-1 text-card-foreground shadow-lg">
          <M.Label className="px-2 py-1.5 text-sm">
            <span className="block truncate font-medium">{viewer.email}</span>
            <span className="text-xs text-muted-foreground">Signed in as {viewer.role}</span>
          </M.Label>
          <M.Separator className="my-1 h-px bg-border" />
          <M.Item
            onSelect={() => void signOutHere()}
            className="flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground [&_svg]:size-4"
          >
            <LogOut aria-hidden /> Sign out
          </M.Item>
        </M.Content>
      </M.Portal>
    </M.Root>
  );
}
