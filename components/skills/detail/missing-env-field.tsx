'use client';

import { Save } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '@/components/error-message';
import { Button } from '../../ui/button';
import { Input, Label } from '../../ui/input';
import { Tip } from '../../ui/misc';
import { useCan } from '../../viewer';
import { useUpdateEntry } from '../queries';
import type { SkillDetailView } from '../view';

/**
 * One missing variable, settable right here: saved sealed into the skill's config entry (as its
 * apiKey when it is the skill's primaryEnv). The label is the variable's name.
 */
export function MissingEnvField({ skill: s, name }: { skill: SkillDetailView; name: string }) {
  const can = useCan('skills.write');
  const update = useUpdateEntry();
  const [value, setValue] = useState('');
  const id = `missing-env-${name}`;
  const isApiKey = s.manifest.primaryEnv === name;
  const save = (e: React.FormEvent) => {
    e.preventDefault();
    if (!value) return;
    update.mutate(isApiKey ? { skillKey: s.skillKey, apiKey: value } : { skillKey: s.skillKey, env: { [name]: value } }, {
      onSuccess: () => {
        setValue('');
        toast.success(`${name} saved`, { description: 'Stored encrypted; it is injected when agents run this skill.' });
      },
      onError: (err) => toast.error(`Could not save ${name}`, { description: errorMessage(err) }),
    });
  };
  return (
    <form onSubmit={save} className="grid gap-1.5" data-testid="missing-env" data-env={name}>
      <Label htmlFor={id} className="font-mono">
        {name}
      </Label>
      <div className="flex gap-2">
        <Input
          id={id}
          type="password"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          autoComplete="new-password"
          spellCheck={false}
          disabled={!can.allowed || update.isPending}
          placeholder={isApiKey ? 'API key' : 'value'}
        />
        <Tip content={can.why}>
          <Button type="submit" variant="outline" disabled={!can.allowed || !value || update.isPending}>
            <Save aria-hidden /> Save
          </Button>
        </Tip>
      </div>
      <p className="text-xs text-muted-foreground">
        {isApiKey ? 'The skill’s API key (its primaryEnv). ' : ''}Stored encrypted in the skill’s config entry
        {s.homepage && isApiKey ? '; get one from the skill’s homepage.' : '.'}
      </p>
    </form>
  );
}
