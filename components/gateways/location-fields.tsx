'use client';

import type { FieldErrors, RegisterOptions, UseFormRegisterReturn } from 'react-hook-form';
import { useSandboxConfigs } from '../sandboxes/queries';
import { Field, Input, Select } from '../ui/input';
import { LOCATION_LABELS, type LocationType } from './view';

export type LocationForm =
  | { type: 'local'; stateDir: string; cli?: string; home?: string; write?: 'auto' | 'cli' | 'file' }
  | { type: 'docker'; container: string; stateDir: string; host?: string; configId?: string; cli?: string }
  | { type: 'remote'; url: string; token: string };

export const EMPTY_LOCATION: Record<LocationType, LocationForm> = {
  local: { type: 'local', stateDir: '' },
  docker: { type: 'docker', container: '', stateDir: '/root/.openclaw' },
  remote: { type: 'remote', url: '', token: '' },
};

/** Empty optional fields are left out (the schema refuses an empty program name or path). */
const optional = { setValueAs: (v: unknown) => (v === '' || v === null ? undefined : v) };

type Register = (name: string, opts?: RegisterOptions) => UseFormRegisterReturn;

/**
 * The fields of one location type, under `location.*` of the caller's form. `tokenKept`: the stored
 * token stays unless a new one is typed (the form holds "***").
 */
export function LocationFields({
  idPrefix,
  type,
  onType,
  register,
  errors,
  roots,
  tokenKept,
}: {
  idPrefix: string;
  type: LocationType;
  onType: (t: LocationType) => void;
  register: Register;
  errors: FieldErrors;
  roots: string[];
  tokenKept?: boolean;
}) {
  const configs = useSandboxConfigs();
  const err = (k: string) => ((errors.location as Record<string, { message?: string }> | undefined)?.[k]?.message ?? undefined) as string | undefined;
  const id = (k: string) => `${idPrefix}-${k}`;
  return (
    <fieldset className="grid gap-3 rounded-md border p-3">
      <legend className="px-1 text-sm font-medium">Where it lives</legend>
      <div role="radiogroup" aria-label="Location type" className="grid grid-cols-3 gap-1 rounded-md bg-muted p-1">
        {(Object.keys(LOCATION_LABELS) as LocationType[]).map((t) => (
          <button
            key={t}
            type="button"
            role="radio"
            aria-checked={type === t}
            onClick={() => onType(t)}
            className="rounded px-2 py-1.5 text-xs font-medium text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring aria-checked:bg-background aria-checked:text-foreground aria-checked:shadow-xs"
          >
            {LOCATION_LABELS[t]}
          </button>
        ))}
      </div>
      {type === 'local' ? (
        <>
          <Field
            label="State folder"
            htmlFor={id('state')}
            error={err('stateDir')}
            hint={roots.length ? `Inside ${roots.join(' or ')} (SKILLDOCK_GATEWAY_ROOTS).` : 'SKILLDOCK_GATEWAY_ROOTS is not set: no local folder is allowed.'}
          >
            <Input
              id={id('state')}
              list={id('roots')}
              className="font-mono"
              autoComplete="off"
              aria-invalid={!!err('stateDir')}
              {...register('location.stateDir')}
            />
          </Field>
          <datalist id={id('roots')}>
            {roots.map((r) => (
              <option key={r} value={`${r.replace(/\/$/, '')}/`} />
            ))}
          </datalist>
          <Field label="OpenClaw CLI" htmlFor={id('cli')} error={err('cli')} hint="A path or a program on the server's PATH; empty: openclaw.">
            <Input id={id('cli')} className="font-mono" autoComplete="off" placeholder="openclaw" {...register('location.cli', optional)} />
          </Field>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="Home folder" htmlFor={id('home')} error={err('home')} hint="Its HOME (personal skills); empty: the server's.">
              <Input id={id('home')} className="font-mono" autoComplete="off" {...register('location.home', optional)} />
            </Field>
            <Field label="Write mode" htmlFor={id('write')} hint="auto: the CLI when it runs, else the file.">
              <Select id={id('write')} {...register('location.write', optional)}>
                <option value="">auto</option>
                <option value="cli">through the CLI (validated)</option>
                <option value="file">the config file (fastest)</option>
              </Select>
            </Field>
          </div>
        </>
      ) : type === 'docker' ? (
        <>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="Container" htmlFor={id('container')} error={err('container')} hint="Its name or id.">
              <Input id={id('container')} className="font-mono" autoComplete="off" aria-invalid={!!err('container')} {...register('location.container')} />
            </Field>
            <Field label="State folder in the container" htmlFor={id('cstate')} error={err('stateDir')}>
              <Input id={id('cstate')} className="font-mono" autoComplete="off" aria-invalid={!!err('stateDir')} {...register('location.stateDir')} />
            </Field>
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="Docker engine of a sandbox config" htmlFor={id('config')} error={err('configId')} hint="Or name a Docker host; empty: this server's.">
              <Select id={id('config')} {...register('location.configId', optional)}>
                <option value="">None</option>
                {(configs.data?.items ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Docker host" htmlFor={id('host')} error={err('host')} hint="unix:///path or tcp://host:port">
              <Input id={id('host')} className="font-mono" autoComplete="off" {...register('location.host', optional)} />
            </Field>
          </div>
          <Field label="OpenClaw CLI in the container" htmlFor={id('dcli')} error={err('cli')}>
            <Input id={id('dcli')} className="font-mono" autoComplete="off" placeholder="openclaw" {...register('location.cli', optional)} />
          </Field>
        </>
      ) : (
        <>
          <Field label="Gateway URL" htmlFor={id('url')} error={err('url')} hint="ws://host:port of the running gateway (wss:// or http(s):// too).">
            <Input
              id={id('url')}
              className="font-mono"
              autoComplete="off"
              placeholder="ws://127.0.0.1:18789"
              aria-invalid={!!err('url')}
              {...register('location.url')}
            />
          </Field>
          <Field
            label="Gateway token"
            htmlFor={id('token')}
            error={err('token')}
            hint={tokenKept ? 'Configured — leave as it is to keep it.' : 'Stored encrypted, never shown again.'}
          >
            <Input id={id('token')} type="password" autoComplete="off" aria-invalid={!!err('token')} {...register('location.token')} />
          </Field>
        </>
      )}
    </fieldset>
  );
}
