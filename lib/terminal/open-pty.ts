// Picks the terminal implementation for a sandbox backend. By its `kind` and the methods it has,
// never by class: route bundles and the custom server may each load their own copy of a class.
import { AppError } from '@/lib/core/errors';
import type { SandboxBackend } from '@/lib/sandbox/backend';
import { type DockerTerminalHost, openDockerPty } from './docker-pty';
import { type E2bTerminalHost, openE2bPty } from './e2b-pty';
import type { PtyOpenRequest, TerminalPty } from './pty';

type MaybeTerminalHost = SandboxBackend & Partial<Pick<DockerTerminalHost, 'openTerminal'> & Pick<E2bTerminalHost, 'envd'>>;

export async function openPtyFor(backend: SandboxBackend, req: PtyOpenRequest): Promise<TerminalPty> {
  const b = backend as MaybeTerminalHost;
  if (b.capabilities().tty) {
    if (b.kind === 'docker' && typeof b.openTerminal === 'function') return openDockerPty(b as DockerTerminalHost, req);
    if ((b.kind === 'e2b' || b.kind === 'cube') && typeof b.envd === 'function') return openE2bPty(b as E2bTerminalHost, req);
  }
  throw new AppError('invalid_state', 'This backend has no terminal.');
}
