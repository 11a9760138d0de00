'use client';

import type { InstallOut } from '@/lib/installs/schema';
import { useSandboxConfigs } from '../sandboxes/queries';
import { useSkillList } from '../skills/queries';
import { ver } from './format';
import { InstallEffects } from './install-effects';
import { announceStarted, PickDialog, plural } from './pick-dialog';
import { isBusy, useBulkInstall } from './queries';

const CATALOG = { status: 'all', q: '', source: 'managed' };

/** Pick catalog skills for one config: one job, one maintenance sandbox, one new snapshot. */
export function BulkInstallDialog({
  configId,
  configName,
  installs,
  onClose,
}: {
  configId: string;
  configName: string;
  installs: InstallOut[];
  onClose: () => void;
}) {
  const list = useSkillList(CATALOG);
  const config = useSandboxConfigs().data?.items.find((c) => c.id === configId);
  const op = useBulkInstall();
  const have = new Map(installs.map((i) => [i.skillKey, i]));
  const items = list.data?.skills.map((s) => {
    const current = have.get(s.skillKey);
    return {
      value: s.skillKey,
      label: s.name,
      key: s.skillKey,
      note: current ? `${current.state} ${ver(current.version)}` : '',
      disabled: !!current && isBusy(current),
    };
  });
  return (
    <PickDialog
      title={`Install skills into ${configName}`}
      description="One job installs every skill you pick into one new snapshot image."
      legend="Catalog skills"
      list={{ items, isPending: list.isPending, error: list.error }}
      empty={(filtered) => (filtered ? 'No catalog skill matches.' : 'The catalog is empty; import a skill on the Skills page first.')}
      filterLabel="Filter catalog skills"
      notesId={`notes-bulk-${configId}`}
      submitLabel={(n) => (n ? `Install ${plural(n, 'skill')}` : 'Choose skills')}
      pending={op.isPending}
      error={op.error}
      onClose={onClose}
      aside={(keys) => (keys.length && config ? <InstallEffects configs={[config]} /> : null)}
      onSubmit={(skillKeys, notes) =>
        op.mutate(
          { id: configId, skillKeys, notes },
          {
            onSuccess: (r) => {
              announceStarted(r, `Installing ${r.installs.length} skill(s) into ${configName}`);
              onClose();
            },
          },
        )
      }
    />
  );
}
