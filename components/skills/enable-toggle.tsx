'use client';

import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '@/components/error-message';
import { Tip } from '../ui/misc';
import { Switch } from '../ui/switch';
import { useCan } from '../viewer';
import { useUpdateEntry } from './queries';

/**
 * Turns a skill on or off through its config entry (PUT /skills/entry {enabled}). The switch moves
 * at once and goes back if the write fails; viewers see it disabled with the role it needs.
 */
export function EnableToggle({ name, skillKey, enabled, size = 'default' }: { name: string; skillKey: string; enabled: boolean; size?: 'default' | 'sm' }) {
  const can = useCan('skills.write');
  const update = useUpdateEntry();
  const [pending, setPending] = useState<boolean | null>(null);
  const checked = pending ?? enabled;
  // Hold the new position until the refetched catalog agrees (no flicker back in between).
  useEffect(() => {
    if (pending !== null && pending === enabled) setPending(null);
  }, [pending, enabled]);
  const onChange = (on: boolean) => {
    setPending(on);
    update.mutate(
      { skillKey, enabled: on },
      {
        onSuccess: () =>
          toast.success(`${name} ${on ? 'enabled' : 'disabled'}`, {
            description: on ? 'Agents can use it again once its requirements are met.' : 'Agents no longer see it.',
          }),
        onError: (e) => {
          setPending(null);
          toast.error(`Could not ${on ? 'enable' : 'disable'} ${name}`, { description: errorMessage(e) });
        },
      },
    );
  };
  return (
    <Tip content={can.why}>
      <Switch
        checked={checked}
        onCheckedChange={onChange}
        disabled={!can.allowed || update.isPending}
        aria-label={`Enable ${name}`}
        data-testid="enable-toggle"
        className={size === 'sm' ? 'scale-90' : undefined}
      />
    </Tip>
  );
}
