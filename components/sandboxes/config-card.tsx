'use client';

import { Copy, Eye, FileArchive, Network, Pencil, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { toast } from 'sonner';
import type { ApiError } from '../api';
import { ConfigSkillsSection } from '../installs/config-skills-section';
import { Badge } from '../ui/badge';
import { Button, buttonVariants } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Confirm, Dialog } from '../ui/dialog';
import { Field, Input } from '../ui/input';
import { ErrorNote, Tip } from '../ui/misc';
import { CheckReportSlot } from './check-slot';
import { DeleteConfigDialog } from './delete-config-dialog';
import { NetworkDialog } from './network/network-dialog';
import { type ConfigCardView, useCloneConfig, useDeleteConfig } from './queries';

export const BACKEND_LABEL = { docker: 'Docker', e2b: 'E2B', cube: 'CubeSandbox' } as const;

function target(c: ConfigCardView): string {
  const cfg = c.config as Record<string, string | undefined>;
  if (c.backend === 'docker') return `${cfg.image ?? ''} on ${cfg.host || 'the local socket'}`;
  return `${cfg.templateId ?? ''} at ${cfg.apiUrl ?? ''}`;
}

function endpoint(c: ConfigCardView): string {
  const cfg = c.config as Record<string, string | undefined>;
  return c.backend === 'docker' ? cfg.host || 'The local Docker engine' : cfg.apiUrl || `The ${BACKEND_LABEL[c.backend]} API`;
}

/** A refused delete: the server's message (it counts what uses the config) and the agents it names. */
export function usageText(e: ApiError): string {
  const agents = (e.details as { agents?: { name: string }[] } | undefined)?.agents ?? [];
  return agents.length ? `${e.message} Agents: ${agents.map((a) => a.name).join(', ')}.` : e.message;
}

export function ConfigCard({ config, canWrite, why, onEdit }: { config: ConfigCardView; canWrite: boolean; why?: string; onEdit: () => void }) {
  const [confirmDelete, setConfirmDelete] = useState(false);
  // Offered after a delete failed because the engine could not be reached to list what uses the config.
  const [offerForce, setOfferForce] = useState(false);
  const [cloning, setCloning] = useState(false);
  const [network, setNetwork] = useState(false);
  const [cloneName, setCloneName] = useState('');
  const del = useDeleteConfig();
  const clone = useCloneConfig();
  return (
    <Card>
      <CardHeader className="gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="truncate">{config.name}</CardTitle>
          <div className="flex gap-1">
            <Badge variant="outline">{BACKEND_LABEL[config.backend]}</Badge>
            <Badge variant={config.enabled ? 'success' : 'warning'}>{config.enabled ? 'enabled' : 'disabled'}</Badge>
          </div>
        </div>
        <CardDescription className="truncate">{config.description || target(config)}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <dl className="grid grid-cols-3 gap-2 text-sm">
          <div>
            <dt className="text-xs text-muted-foreground">Instances</dt>
            <dd>{config.instances ?? 'unknown'}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Env vars</dt>
            <dd>{config.envCount}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Secrets</dt>
            <dd>{config.secretsConfigured.length ? 'configured' : 'none'}</dd>
          </div>
        </dl>
        <CheckReportSlot config={config} />
        <ConfigSkillsSection configId={config.id} configName={config.name} />
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={onEdit}>
            {canWrite ? <Pencil aria-hidden /> : <Eye aria-hidden />} {canWrite ? 'Edit' : 'View'}
          </Button>
          <Button size="sm" variant="outline" onClick={() => setNetwork(true)} aria-label={`Network rules of ${config.name}`}>
            <Network aria-hidden /> Network
          </Button>
          <Link
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
            href={`/sandboxes/artifacts?config=${encodeURIComponent(config.id)}`}
            aria-label={`Collected artifacts of ${config.name}`}
          >
            <FileArchive aria-hidden /> Artifacts
          </Link>
          <Tip content={why}>
            <Button
              size="sm"
              variant="outline"
              disabled={!canWrite}
              onClick={() => {
                setCloneName(`${config.name}-copy`.slice(0, 63));
                setCloning(true);
              }}
            >
              <Copy aria-hidden /> Clone
            </Button>
          </Tip>
          <Tip content={why}>
            <Button size="sm" variant="outline" disabled={!canWrite} onClick={() => setConfirmDelete(true)}>
              <Trash2 aria-hidden /> Delete
            </Button>
          </Tip>
        </div>
      </CardContent>
      <DeleteConfigDialog
        config={config}
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        busy={del.isPending}
        onConfirm={() =>
          del.mutate(
            { id: config.id },
            {
              onSuccess: () => toast.success(`Deleted ${config.name}`),
              onError: (e) => {
                toast.error(`Could not delete ${config.name}`, { description: usageText(e) });
                if (e.code === 'inventory_unverifiable') setOfferForce(true);
              },
            },
          )
        }
      />
      <Confirm
        open={offerForce}
        onOpenChange={setOfferForce}
        title={`Delete ${config.name} without reaching its engine?`}
        description={
          <div className="grid gap-2" data-testid="force-delete-warning">
            <p>
              {endpoint(config)} does not answer, so Skilldock cannot see what runs there. Deleting anyway removes the config and its variables here, but may
              leave on that engine: sandboxes started from this config (labelled <code className="font-mono">skilldock.config={config.id}</code>), their
              networks and volumes. Remove them there by hand.
            </p>
          </div>
        }
        confirmLabel="Delete anyway"
        busy={del.isPending}
        onConfirm={() =>
          del.mutate(
            { id: config.id, force: true },
            {
              onSuccess: (r) => {
                setOfferForce(false);
                toast.warning(`Deleted ${config.name}`, { description: r?.warning });
              },
              onError: (e) => toast.error(`Could not delete ${config.name}`, { description: usageText(e) }),
            },
          )
        }
      />
      {network ? <NetworkDialog open onOpenChange={setNetwork} config={config} canWrite={canWrite} why={why} /> : null}
      <Dialog
        open={cloning}
        onOpenChange={setCloning}
        title={`Clone ${config.name}`}
        description="A copy with the same fields, secrets and env, disabled until its own full check passes. Change the copy's endpoint freely."
      >
        <form
          className="grid gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            const done = (name: string) => {
              toast.success(`Created ${name}`);
              setCloning(false);
              clone.reset();
            };
            clone.mutate({ id: config.id, name: cloneName }, { onSuccess: (out) => done(out.name) });
          }}
        >
          <Field label="Name of the copy" htmlFor={`clone-${config.id}`} error={clone.error?.issues.find((i) => i.path === 'name')?.message}>
            <Input id={`clone-${config.id}`} value={cloneName} onChange={(e) => setCloneName(e.target.value)} />
          </Field>
          {clone.error && !clone.error.issues.length ? <ErrorNote error={clone.error} /> : null}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => setCloning(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={clone.isPending}>
              {clone.isPending ? 'Cloning…' : 'Clone'}
            </Button>
          </div>
        </form>
      </Dialog>
    </Card>
  );
}
