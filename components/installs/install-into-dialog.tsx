'use client';

import type { InstallOut } from '@/lib/installs/schema';
import { useSandboxConfigs } from '../sandboxes/queries';
import { ver } from './format';
import { InstallEffects } from './install-effects';
import { announceStarted, PickDialog, plural } from './pick-dialog';
import { isBusy, useInstallIntoConfigs } from './queries';

/** Pick sandbox configs for one catalog skill: one parent job installs it into all of them. */
export function InstallIntoDialog({
  skillKey,
  skillName,
  installs,
  onClose,
}: {
  skillKey: string;
  skillName: string;
  installs: InstallOut[];
  onClose: () => void;
}) {
  const configs = useSandboxConfigs();
  const op = useInstallIntoConfigs();
  const have = new Map(installs.map((i) => [i.configId, i]));
  const items = configs.data?.items.map((c) => {
    const current = have.get(c.id);
    const busy = !!current && isBusy(current);
    return {
      value: c.id,
      label: c.name,
      note: busy ? `${current.state} now` : current ? `${current.state} ${ver(current.version)}` : c.enabled ? '' : 'config disabled',
      disabled: busy,
    };
  });
  return (
    <PickDialog
      title={`Install ${skillName} into…`}
      description="One job installs it into every config you pick; each config gets a new snapshot image."
      legend="Sandbox configs"
      list={{ items, isPending: configs.isPending, error: configs.error }}
      empty={() => 'There are no sandbox configs yet; create one on the Sandboxes page.'}
      notesId={`notes-into-${skillKey}`}
      submitLabel={(n) => (n ? `Install into ${plural(n, 'config')}` : 'Choose configs')}
      pending={op.isPending}
      error={op.error}
      onClose={onClose}
      aside={(ids) => <InstallEffects configs={(configs.data?.items ?? []).filter((c) => ids.includes(c.id))} />}
      onSubmit={(configIds, notes) =>
        op.mutate(
          { skillKey, configIds, notes },
          {
            onSuccess: (r) => {
              announceStarted(r, `Installing ${skillName} into ${r.installs.length} config(s)`);
              onClose();
            },
          },
        )
      }
    />
  );
}
