'use client';

import { GitBranch, KeyRound, Package, Puzzle, Server, SquareTerminal, UserRound, Users, Variable } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { cn } from '../ui/cn';

export const SETTINGS_SECTIONS = [
  { id: 'instance', label: 'Instance', icon: Server },
  { id: 'packages', label: 'Package sources', icon: Package },
  { id: 'github', label: 'GitHub', icon: GitBranch },
  { id: 'skills', label: 'Skills', icon: Puzzle },
  { id: 'terminal', label: 'Terminal', icon: SquareTerminal },
  { id: 'users', label: 'Users', icon: Users },
  { id: 'account', label: 'Your account', icon: UserRound },
  { id: 'variables', label: 'Your variables', icon: Variable },
  { id: 'tokens', label: 'API tokens', icon: KeyRound },
] as const;

/** In-page tab bar: each tab is an anchor (#instance, #packages, #github, #skills, #terminal, #users, #account, #tokens); the tab of the section in view is marked. */
export function SettingsNav() {
  const [active, setActive] = useState<string>('instance');
  const clicked = useRef(0);
  useEffect(() => {
    const fromHash = () => {
      const h = window.location.hash.slice(1);
      if (SETTINGS_SECTIONS.some((s) => s.id === h)) setActive(h);
    };
    // Scroll-spy: the last section whose top has passed the line just under the sticky bars.
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        // Right after a tab is clicked, the scroll it causes must not move the mark elsewhere.
        if (Date.now() - clicked.current < 1000) return;
        const atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 4;
        let current: string = SETTINGS_SECTIONS[0].id;
        for (const s of SETTINGS_SECTIONS) {
          const el = document.getElementById(s.id);
          if (el && el.getBoundingClientRect().top <= 160) current = s.id;
        }
        setActive(atBottom && window.scrollY > 0 ? SETTINGS_SECTIONS[SETTINGS_SECTIONS.length - 1].id : current);
      });
    };
    fromHash();
    window.addEventListener('hashchange', fromHash);
    // A deep link (/settings#tokens) must land on its section even though the cards above it grow
    // as their data arrives: follow the layout for a moment, until the user scrolls by hand.
    const target = document.getElementById(window.location.hash.slice(1));
    let follow = !!target && SETTINGS_SECTIONS.some((s) => s.id === target.id);
    const stop = () => {
      follow = false;
    };
    const land = () => {
      if (follow && target) {
        clicked.current = Date.now();
        target.scrollIntoView({ block: 'start' });
      }
    };
    const ro = new ResizeObserver(land);
    if (follow) {
      ro.observe(document.body);
      land();
      for (const ev of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) window.addEventListener(ev, stop, { passive: true });
    }
    const done = setTimeout(() => ro.disconnect(), 3000);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(done);
      ro.disconnect();
      for (const ev of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) window.removeEventListener(ev, stop);
      window.removeEventListener('hashchange', fromHash);
      window.removeEventListener('scroll', onScroll);
    };
  }, []);
  return (
    <nav aria-label="Settings sections" className="sticky top-14 z-20 -mx-4 mb-6 border-b bg-background/90 px-4 backdrop-blur md:-mx-6 md:px-6">
      <ul className="flex gap-1 overflow-x-auto [scrollbar-width:thin]">
        {SETTINGS_SECTIONS.map((s) => (
          <li key={s.id}>
            <a
              href={`#${s.id}`}
              aria-current={active === s.id ? 'location' : undefined}
              onClick={() => {
                clicked.current = Date.now();
                setActive(s.id);
              }}
              className={cn(
                '-mb-px inline-flex items-center gap-2 border-b-2 border-transparent px-3 py-2.5 text-sm text-muted-foreground transition-colors hover:text-foreground',
                active === s.id && 'border-primary font-medium text-foreground',
              )}
            >
              <s.icon className="size-4" aria-hidden /> {s.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
