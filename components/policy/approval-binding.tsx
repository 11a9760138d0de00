'use client';

import type { ApprovalView } from './queries';

const short = (digest: string) => `${digest.slice(0, 12)}…`;

/**
 * The rest of the request an approval binds, shown to the approver: working directory, timeout,
 * stdin (by its sha256) and the content digest of every script the command runs.
 */
export function ApprovalBinding({ approval: a }: { approval: Pick<ApprovalView, 'cwd' | 'timeoutMs' | 'stdinSha256' | 'scripts'> }) {
  return (
    <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs text-muted-foreground" data-testid="approval-binding">
      <dt>cwd</dt>
      <dd className="font-mono">{a.cwd ?? 'sandbox default'}</dd>
      <dt>timeout</dt>
      <dd>{a.timeoutMs === null ? 'default' : `${a.timeoutMs / 1000} s`}</dd>
      <dt>stdin</dt>
      <dd className="font-mono" title={a.stdinSha256 ?? undefined} data-testid="approval-stdin">
        {a.stdinSha256 ? `sha256 ${short(a.stdinSha256)}` : 'none'}
      </dd>
      <dt>scripts</dt>
      <dd data-testid="approval-scripts">
        {a.scripts === null ? (
          'not known'
        ) : a.scripts.length === 0 ? (
          'none'
        ) : (
          <ul>
            {a.scripts.map((s) => (
              <li key={s.path} className="font-mono" title={s.sha256}>
                {s.path} · sha256 {short(s.sha256)}
              </li>
            ))}
          </ul>
        )}
      </dd>
    </dl>
  );
}
