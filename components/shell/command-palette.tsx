'use client';

import { Command } from 'cmdk';
import { useRouter } from 'next/navigation';
import { Dialog } from 'radix-ui';
import { useEffect, useState } from 'react';
import { HELP_INDEX, HELP_PAGES, helpHref } from '@/lib/docs/pages';
import { SkillJumps } from '../skills/skill-jumps';
import { useViewer } from '../viewer';
import { NAV } from './nav';
import { PaletteActions, useRunDiagnostics } from './palette-actions';
import { PaletteJobs } from './palette-jobs';

/** ⌘K / Ctrl+K: jump to any section, skill or job (by title or pasted id), or start a common action. */
export function CommandPalette() {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const router = useRouter();
  const viewer = useViewer();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() === 'k' && (e.metaKey || e.ctrlKey)) {
        e.preventDefault();
        setOpen((o) => !o);
      }
    };
    const onOpen = () => setOpen(true);
    window.addEventListener('keydown', onKey);
    window.addEventListener('skilldock:palette', onOpen);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('skilldock:palette', onOpen);
    };
  }, []);
  const startDiagnostics = useRunDiagnostics();
  const close = () => {
    setOpen(false);
    setQuery('');
  };
  const go = (href: string) => {
    close();
    router.push(href);
  };
  const isId = /^[0-9a-f-]{36}$/.test(query.trim());
  const items = NAV.filter((n) => viewer.permissions.includes(n.permission));
  const extra = [
    { href: '/settings#users', label: 'Users', show: viewer.permissions.includes('users.read') },
    { href: '/settings#tokens', label: 'API tokens', show: true },
    { href: '/settings#packages', label: 'Package sources', show: true },
    { href: '/settings#github', label: 'GitHub settings', show: true },
    { href: '/runtime?tab=github', label: 'GitHub packages', show: true },
    { href: '/skills?status=needs-setup', label: 'Skills that need setup', show: viewer.permissions.includes('skills.read') },
    { href: '/skills?status=blocked', label: 'Blocked skills', show: viewer.permissions.includes('skills.read') },
    { href: '/settings#skills', label: 'Skills settings', show: viewer.permissions.includes('skills.read') },
    { href: '/settings#terminal', label: 'Terminal settings', show: viewer.permissions.includes('sandboxes.read') },
    { href: '/sandboxes/artifacts', label: 'Collected sandbox artifacts', show: viewer.permissions.includes('sandboxes.read') },
    { href: '/policy/tester', label: 'Exec policy tester', show: viewer.permissions.includes('policy.read') },
    { href: '/policy/approvals', label: 'Exec approvals', show: viewer.permissions.includes('policy.read') },
    { href: '/policy/exec-log', label: 'Agent exec log', show: viewer.permissions.includes('policy.read') },
    { href: '/policy/new', label: 'New exec profile', show: viewer.permissions.includes('policy.write') },
    { href: '/agents/matrix', label: 'Allowlist matrix (agents × skills)', show: viewer.permissions.includes('agents.read') },
    { href: '/jobs?state=running', label: 'Running jobs', show: true },
    { href: '/jobs?state=failed', label: 'Failed jobs', show: true },
  ].filter((x) => x.show);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content className="fixed left-1/2 top-[20%] z-50 w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 overflow-hidden rounded-lg border bg-card shadow-xl">
          <Dialog.Title className="sr-only">Command palette</Dialog.Title>
          <Dialog.Description className="sr-only">Type to jump to a page, skill or job, or to run an action</Dialog.Description>
          <Command
            label="Command palette"
            className="[&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:text-muted-foreground"
          >
            <Command.Input
              value={query}
              onValueChange={setQuery}
              placeholder="Go to or do… (or paste a job id)"
              className="h-11 w-full border-b bg-transparent px-3 text-sm outline-none"
            />
            <Command.List className="max-h-80 overflow-y-auto p-1">
              <Command.Empty className="p-4 text-sm text-muted-foreground">Nothing matches.</Command.Empty>
              {isId ? (
                <Command.Group heading="Job">
                  <Item onSelect={() => go(`/jobs/${query.trim()}`)} value={query}>
                    Open job {query.trim().slice(0, 8)}…
                  </Item>
                </Command.Group>
              ) : null}
              {open ? (
                <PaletteActions
                  onSelect={go}
                  runDiagnostics={() => {
                    close();
                    startDiagnostics();
                  }}
                  Item={Item}
                />
              ) : null}
              <Command.Group heading="Pages">
                {items.map((n) => (
                  <Item key={n.href} onSelect={() => go(n.href)} value={`${n.label} ${n.description}`}>
                    <n.icon className="size-4 text-muted-foreground" /> {n.label}
                    <span className="ml-auto text-xs text-muted-foreground">{n.description}</span>
                  </Item>
                ))}
                {extra.map((x) => (
                  <Item key={x.href} onSelect={() => go(x.href)} value={x.label}>
                    {x.label}
                  </Item>
                ))}
              </Command.Group>
              {query.trim() ? (
                <Command.Group heading="Help">
                  {HELP_PAGES.filter((p) => p.name !== HELP_INDEX).map((p) => (
                    <Item key={p.name} onSelect={() => go(helpHref(p.name))} value={`Help ${p.title} ${p.summary}`}>
                      Help: {p.title}
                      <span className="ml-auto text-xs text-muted-foreground">{p.summary}</span>
                    </Item>
                  ))}
                </Command.Group>
              ) : null}
              {open && viewer.permissions.includes('skills.read') ? <SkillJumps onSelect={go} Item={Item} /> : null}
              {open ? <PaletteJobs query={query} onSelect={go} Item={Item} /> : null}
            </Command.List>
          </Command>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function Item(props: React.ComponentProps<typeof Command.Item>) {
  return (
    <Command.Item
      {...props}
      className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm aria-selected:bg-accent aria-selected:text-accent-foreground data-[disabled=true]:cursor-not-allowed data-[disabled=true]:opacity-60"
    />
  );
}
