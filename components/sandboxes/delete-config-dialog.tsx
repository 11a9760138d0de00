'use client';

import Link from 'next/link';
import { Confirm } from '../ui/dialog';
import { ErrorNote } from '../ui/misc';
import { instanceHref } from './instances/instance-actions';
import { type ConfigCardView, type ConfigUsageView, useConfigDetail } from './queries';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What stops a delete, said once with its count: "2 agents and 1 sandbox use it", or null when nothing does. */
export function usageSentence(u: Pick<ConfigUsageView, 'instances' | 'agents'>): string | null {
  const parts = [
    ...(u.agents.length ? [plural(u.agents.length, 'agent', 'agents')] : []),
    ...(u.instances.length ? [plural(u.instances.length, 'sandbox', 'sandboxes')] : []),
  ];
  if (!parts.length) return null;
  return `${parts.join(' and ')} ${u.agents.length + u.instances.length === 1 ? 'uses' : 'use'} this config`;
}

/** The agents and sandboxes that use the config, each named and linked, under one sentence that counts them. */
export function ConfigUsageNote({ usage }: { usage: ConfigUsageView }) {
  const sentence = usageSentence(usage);
  if (!sentence) return null;
  return (
    <div role="status" data-testid="config-in-use" className="grid gap-1.5 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-foreground">
      <p>{sentence}, so it cannot be deleted. Unbind the agents and stop the sandboxes first, or clone the config and change the clone.</p>
      {usage.agents.length ? (
        <p>
          Agents:{' '}
          {usage.agents.map((a, i) => (
            <span key={a.id}>
              {i ? ', ' : ''}
              <Link className="font-medium underline" href={`/agents/${encodeURIComponent(a.id)}`}>
                {a.name}
              </Link>
            </span>
          ))}
        </p>
      ) : null}
      {usage.instances.length ? (
        <p>
          Sandboxes:{' '}
          {usage.instances.map((s, i) => (
            <span key={s.id}>
              {i ? ', ' : ''}
              <Link className="font-mono underline" href={instanceHref(s.id)}>
                {s.id.slice(0, 12)}
              </Link>{' '}
              ({s.state})
            </span>
          ))}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The delete confirmation of a config. It reads what uses the config as it opens: a config in use
 * names its agents and sandboxes and cannot be confirmed. The server refuses such a delete all the
 * same (what uses it may change between this read and the click).
 */
export function DeleteConfigDialog({
  config,
  open,
  onOpenChange,
  busy,
  onConfirm,
}: {
  config: ConfigCardView;
  open: boolean;
  onOpenChange: (o: boolean) => void;
  busy: boolean;
  onConfirm: () => void;
}) {
  const detail = useConfigDetail(config.id, open);
  const usage = detail.data?.usage;
  const inUse = usage ? usageSentence(usage) !== null : false;
  return (
    <Confirm
      open={open}
      onOpenChange={onOpenChange}
      title={`Delete ${config.name}?`}
      description={
        <div className="grid gap-2">
          <p>
            The config, its {config.envCount} env var(s), {config.secretsConfigured.length ? 'its stored API key, ' : ''}and everyone’s personal variables for
            it are deleted for good.
          </p>
          {detail.isPending ? <p data-testid="config-usage-loading">Checking what uses this config…</p> : null}
          {detail.error ? <ErrorNote error={detail.error} /> : null}
          {usage ? <ConfigUsageNote usage={usage} /> : null}
          {usage && !usage.verified && !inUse ? (
            <p data-testid="config-usage-unverified">
              Its engine did not answer, so the sandboxes running there could not be listed; deleting then asks whether to go ahead without reaching it.
            </p>
          ) : null}
        </div>
      }
      confirmLabel="Delete config"
      busy={busy}
      disabled={detail.isPending || inUse}
      onConfirm={onConfirm}
    />
  );
}
