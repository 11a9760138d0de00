import { z } from 'zod';
import type { DockerStatus } from '../../docker/client';
import { defineJobKind, type JobHandler, type JobKind } from '../kind';

interface Check {
  name: string;
  ok: boolean;
  version?: string;
  detail?: string;
  durationMs: number;
}

const PROGRAMS: { name: string; command: string; args: string[]; parse: (out: string) => string }[] = [
  { name: 'node', command: process.execPath, args: ['--version'], parse: (o) => o.trim().replace(/^v/, '') },
  { name: 'npm', command: 'npm', args: ['--version'], parse: (o) => o.trim() },
  { name: 'python3', command: 'python3', args: ['--version'], parse: (o) => o.replace(/^Python\s+/i, '').trim() },
  { name: 'pip', command: 'python3', args: ['-m', 'pip', '--version'], parse: (o) => /^pip\s+(\S+)/.exec(o)?.[1] ?? o.trim() },
  { name: 'git', command: 'git', args: ['--version'], parse: (o) => /version\s+(\S+)/.exec(o)?.[1] ?? o.trim() },
];

/** What the container engine answered (or why it did not), as the Docker client reports it. */
export type EngineStatus = DockerStatus;

export interface DiagnosticsResult {
  checks: Check[];
  ok: boolean;
}

/** Runs the real tools the runtime depends on and reports their versions, or why each is unusable. */
export const diagnosticsJob: JobKind<Record<string, never>, DiagnosticsResult> = defineJobKind({
  name: 'diagnostics',
  title: () => 'Diagnostics: runtime tools and Docker engine',
  params: z.strictObject({}),
  startPermission: 'jobs.run',
  concurrency: 2,
  maxAttempts: 2,
  resumable: true,
});

/** The handler, given how to ask the container engine for its status. */
export function diagnosticsHandler(deps: { engineStatus: () => Promise<EngineStatus> }): JobHandler<Record<string, never>, DiagnosticsResult> {
  return async (ctx) => {
    const checks: Check[] = [];
    const steps = PROGRAMS.length + 1;
    for (const [i, p] of PROGRAMS.entries()) {
      ctx.progress((i / steps) * 100, `checking ${p.name}`);
      ctx.log(`$ ${p.name === 'node' ? 'node' : p.command} ${p.args.join(' ')}`);
      const started = Date.now();
      try {
        const r = await ctx.run(p.command, p.args, { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 });
        const out = (r.stdout || r.stderr).trim();
        const ok = r.code === 0;
        checks.push({
          name: p.name,
          ok,
          version: ok ? p.parse(out) : undefined,
          detail: ok ? undefined : r.timedOut ? 'timed out' : out || `exit code ${r.code}`,
          durationMs: Date.now() - started,
        });
      } catch (e) {
        checks.push({ name: p.name, ok: false, detail: (e as Error).message, durationMs: Date.now() - started });
        ctx.log(`${p.name}: ${(e as Error).message}`, 'stderr');
      }
      if (ctx.signal.aborted) throw new Error('canceled');
    }
    ctx.progress((PROGRAMS.length / steps) * 100, 'checking Docker engine');
    const started = Date.now();
    const d = await deps.engineStatus();
    ctx.log(
      d.reachable
        ? `Docker engine ${d.version} (API ${d.apiVersion}, ${d.os}/${d.arch}) at ${d.endpoint}`
        : `Docker engine at ${d.endpoint} unreachable: ${d.error}`,
      d.reachable ? 'info' : 'stderr',
    );
    checks.push({
      name: 'docker',
      ok: d.reachable,
      version: d.version,
      detail: d.reachable ? d.endpoint : `${d.endpoint}: ${d.error}`,
      durationMs: Date.now() - started,
    });
    for (const c of checks) ctx.log(`${c.ok ? '✓' : '✗'} ${c.name.padEnd(8)} ${c.ok ? c.version : c.detail}`);
    ctx.progress(100, 'done');
    return { checks, ok: checks.every((c) => c.ok) };
  };
}
