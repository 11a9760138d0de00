// The dispatch from a sandbox backend to its terminal, by kind and methods (never by class).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { BackendCapabilities, SandboxBackend, SandboxBackendKind } from '@/lib/sandbox/backend';
import type { ProcessEvent } from '@/lib/sandbox/e2b/envd';
import { openPtyFor } from './open-pty';
import type { PtyOpenRequest } from './pty';

const req: PtyOpenRequest = { sessionId: 's1', userId: 'u', sandboxId: 'sb', cols: 80, rows: 24, env: {} };
const caps = (tty: boolean): BackendCapabilities => ({ networkUpdate: false, egressDomains: false, snapshots: false, tty, stats: false });

function fake(kind: SandboxBackendKind, tty: boolean, extra: Record<string, unknown>): SandboxBackend {
  return { kind, capabilities: () => caps(tty), ...extra } as unknown as SandboxBackend;
}

function dockerParts(opened: string[]) {
  return {
    openTerminal: async (id: string) => {
      opened.push(`docker:${id}`);
      return { execId: 'x', stream: new PassThrough(), resize: async () => {}, exitCode: async () => null };
    },
  };
}

function e2bParts(opened: string[]) {
  return {
    envd: async (id: string) => {
      opened.push(`envd:${id}`);
      return {
        async *start(): AsyncGenerator<ProcessEvent> {
          yield { type: 'start', pid: 1 };
        },
        sendInput: async () => ({}),
        resize: async () => ({}),
        sendSignal: async () => ({}),
      };
    },
  };
}

describe('openPtyFor', () => {
  it('opens a Docker terminal for the Docker backend and an envd PTY for E2B and Cube', async () => {
    const opened: string[] = [];
    await openPtyFor(fake('docker', true, dockerParts(opened)), req);
    await openPtyFor(fake('e2b', true, e2bParts(opened)), req);
    await openPtyFor(fake('cube', true, e2bParts(opened)), req);
    expect(opened).toEqual(['docker:sb', 'envd:sb', 'envd:sb']);
  });

  it.each([
    ['docker without openTerminal', fake('docker', true, e2bParts([]))],
    ['e2b without envd', fake('e2b', true, dockerParts([]))],
    ['a backend without tty capability', fake('e2b', false, e2bParts([]))],
  ])('refuses %s', async (_name, backend) => {
    await expect(openPtyFor(backend, req)).rejects.toMatchObject({ code: 'invalid_state', message: 'This backend has no terminal.' });
  });
});
