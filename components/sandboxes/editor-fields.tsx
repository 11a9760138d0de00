'use client';

import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { type SandboxBackend, SKILL_ROLLOUTS } from '@/lib/sandbox/config/schema';
import { CheckField, Field, Input, Select } from '../ui/input';
import { Textarea } from '../ui/textarea';

/** The editor's form: the create input's shape, with the backend's fields under `config`. */
export type EditorValues = { name: string; description: string; backend: SandboxBackend; config: Record<string, unknown> };

export interface FieldDef {
  key: string;
  label: string;
  kind: 'text' | 'number' | 'bool' | 'select' | 'secret' | 'textarea' | 'list';
  hint?: string;
  options?: readonly string[];
  placeholder?: string;
}

const privateEndpoints: FieldDef = {
  key: 'allowPrivateEndpoints',
  label: 'Allow private endpoints',
  kind: 'bool',
  hint: 'Lets Skilldock dial a private or loopback engine; link-local and metadata addresses stay refused.',
};
const remoteConnect: FieldDef[] = [
  { key: 'apiUrl', label: 'API URL', kind: 'text', placeholder: 'https://api.e2b.app' },
  { key: 'apiKey', label: 'API key', kind: 'secret' },
  { key: 'domain', label: 'Sandbox domain', kind: 'text', placeholder: 'e2b.app' },
  { key: 'proxyUrl', label: 'Proxy URL', kind: 'text', hint: 'Data-plane gateway that keeps the sandbox Host header (no wildcard DNS).' },
  { key: 'caCert', label: 'CA certificate (PEM)', kind: 'textarea', hint: 'For a self-hosted gateway with its own CA.' },
  { key: 'skipTlsVerify', label: 'Skip TLS verification', kind: 'bool', hint: 'Only for a lab gateway; the connection is then not authenticated.' },
  privateEndpoints,
];
const remoteRuntime: FieldDef[] = [
  { key: 'templateId', label: 'Template', kind: 'text', placeholder: 'base' },
  { key: 'sandboxTtlSeconds', label: 'Sandbox timeout (s)', kind: 'number' },
];
const common: FieldDef[] = [
  { key: 'defaultTimeoutSec', label: 'Command timeout (s)', kind: 'number' },
  { key: 'httpTimeoutSec', label: 'API call timeout (s)', kind: 'number' },
  { key: 'terminalIdleDisconnectSec', label: 'Terminal idle disconnect (s)', kind: 'number' },
  {
    key: 'skillRollout',
    label: 'Skill rollout',
    kind: 'select',
    options: SKILL_ROLLOUTS,
    hint: 'After a skill install changes the image: next_turn recycles a running sandbox at its next command (its /workspace is lost); new_session leaves running ones as they are.',
  },
];

export const CONNECT_FIELDS: Record<SandboxBackend, FieldDef[]> = {
  docker: [
    {
      key: 'host',
      label: 'Engine',
      kind: 'text',
      placeholder: 'unix:///var/run/docker.sock',
      hint: 'Empty = the engine Skilldock runs with (DOCKER_HOST, else the local socket); tcp://host:port needs a TLS folder.',
    },
    { key: 'tlsCertPath', label: 'TLS certificate folder', kind: 'text', hint: 'A folder inside the allowed roots holding ca.pem, cert.pem and key.pem.' },
    privateEndpoints,
  ],
  e2b: remoteConnect,
  cube: [...remoteConnect, { key: 'dnsServers', label: 'DNS servers', kind: 'list', hint: 'Comma-separated IP addresses (at most 4).' }],
};

/** The Docker connect fields naming the engine an empty host means, once the server has said which. */
export function connectFields(backend: SandboxBackend, serverEngine: string | undefined): FieldDef[] {
  if (backend !== 'docker' || !serverEngine) return CONNECT_FIELDS[backend];
  return CONNECT_FIELDS.docker.map((f) =>
    f.key === 'host'
      ? { ...f, placeholder: serverEngine, hint: `Empty = the engine Skilldock runs with: ${serverEngine}. tcp://host:port needs a TLS folder.` }
      : f,
  );
}

export const RUNTIME_FIELDS: Record<SandboxBackend, FieldDef[]> = {
  docker: [
    { key: 'image', label: 'Image', kind: 'text', placeholder: 'busybox:1.36', hint: 'Never pulled by Skilldock: the engine must already have it.' },
    { key: 'cpuLimit', label: 'CPUs', kind: 'number' },
    { key: 'memoryLimitMb', label: 'Memory (MB)', kind: 'number' },
    { key: 'pidsLimit', label: 'Processes', kind: 'number' },
    {
      key: 'runtime',
      label: 'OCI runtime',
      kind: 'text',
      placeholder: 'runsc',
      hint: 'Empty = the engine default. Test connection lists the runtimes this engine offers.',
    },
    { key: 'networkMode', label: 'Network', kind: 'select', options: ['bridge', 'none'] },
    { key: 'idleTtlSeconds', label: 'Idle TTL (s)', kind: 'number' },
    { key: 'workspaceMount', label: 'Workspace mount', kind: 'text', hint: 'Host folder mounted at /workspace; must be inside an allowed host root.' },
    { key: 'readOnlyRootfs', label: 'Read-only root filesystem', kind: 'bool', hint: '/tmp stays writable (tmpfs, noexec).' },
    ...common,
  ],
  e2b: [...remoteRuntime, ...common],
  cube: [...remoteRuntime, ...common],
};

type Errors = FieldErrors<{ config: Record<string, unknown> }>;

export function ConfigFields({
  fields,
  register,
  errors,
  disabled,
  secretsConfigured,
}: {
  fields: FieldDef[];
  register: UseFormRegister<EditorValues>;
  errors: Errors;
  disabled: boolean;
  secretsConfigured: readonly string[];
}) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {fields.map((f) => {
        const id = `sbx-${f.key}`;
        const name = `config.${f.key}` as const;
        const error = (errors.config as Record<string, { message?: string }> | undefined)?.[f.key]?.message;
        if (f.kind === 'bool')
          return (
            <CheckField key={f.key} id={id} label={f.label} hint={f.hint ?? ''} disabled={disabled} wrapperClassName="sm:col-span-2" {...register(name)} />
          );
        const configured = f.kind === 'secret' && secretsConfigured.includes(f.key);
        return (
          <div key={f.key} className={f.kind === 'textarea' ? 'sm:col-span-2' : undefined}>
            <Field label={f.label} htmlFor={id} error={error} hint={configured ? 'Configured — leave empty to keep.' : f.hint}>
              {f.kind === 'select' ? (
                <Select id={id} disabled={disabled} {...register(name)}>
                  {f.options?.map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </Select>
              ) : f.kind === 'textarea' ? (
                <Textarea id={id} rows={3} disabled={disabled} aria-invalid={!!error} {...register(name)} />
              ) : (
                <Input
                  id={id}
                  type={f.kind === 'number' ? 'number' : f.kind === 'secret' ? 'password' : 'text'}
                  step={f.kind === 'number' ? 'any' : undefined}
                  autoComplete={f.kind === 'secret' ? 'new-password' : 'off'}
                  placeholder={configured ? '•••••• (configured)' : f.placeholder}
                  disabled={disabled}
                  aria-invalid={!!error}
                  {...register(name, {
                    ...(f.kind === 'number' ? { valueAsNumber: true } : {}),
                    ...(f.kind === 'list'
                      ? {
                          setValueAs: (v: unknown) =>
                            Array.isArray(v)
                              ? v
                              : String(v ?? '')
                                  .split(',')
                                  .map((s) => s.trim())
                                  .filter(Boolean),
                        }
                      : {}),
                  })}
                />
              )}
            </Field>
          </div>
        );
      })}
    </div>
  );
}
