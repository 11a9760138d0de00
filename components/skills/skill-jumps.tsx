'use client';

import { useQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { listSkills, skillListKey } from './queries';
import { skillHref } from './view';

const ALL = { status: 'all', q: '', source: '' };

/** The command palette's "Skills" group: jump to any skill by name (loaded when the palette opens). */
export function SkillJumps({ onSelect, Item }: { onSelect: (href: string) => void; Item: React.ComponentType<React.ComponentProps<typeof Command.Item>> }) {
  const q = useQuery({ queryKey: skillListKey(ALL), queryFn: ({ signal }) => listSkills(ALL, signal), staleTime: 30_000 });
  const skills = q.data?.skills ?? [];
  if (!skills.length) return null;
  return (
    <Command.Group heading="Skills">
      {skills.map((s) => (
        <Item key={s.id} onSelect={() => onSelect(skillHref(s.id))} value={`skill ${s.name} ${s.skillKey} ${s.id}`}>
          <span aria-hidden className="w-5 text-center">
            {s.emoji || '🧩'}
          </span>
          {s.name}
          <span className="ml-auto text-xs text-muted-foreground">{s.sourceLabel}</span>
        </Item>
      ))}
    </Command.Group>
  );
}
