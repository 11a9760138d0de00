'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Lock, Plus } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { revokeTokenAction } from '@/app/(console)/settings/actions';
import { get } from '@/components/api';
import { errorMessage } from '@/components/error-message';
import { accessApi } from '@/lib/api/contracts/access';
import { SettingsCardHeader } from '../forms/settings-form-card';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { Confirm } from '../ui/dialog';
import { EmptyState, ErrorNote, Tip } from '../ui/misc';
import { ColumnHeads, SkeletonRows, Table, TBody, TD, TR } from '../ui/table';
import { RelativeTime, useNow } from '../ui/time';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { type CreatedToken, CreateTokenDialog } from './create-token-dialog';
import { TokenSecretDialog } from './token-secret-dialog';
import { type TokenOut, tokenStatus } from './view';

const STATUS_VARIANT = { active: 'success', expired: 'warning', revoked: 'destructive' } as const;

export function TokensCard() {
  const can = useCan('tokens.manage');
  const qc = useQueryClient();
  const now = useNow();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [revoking, setRevoking] = useState<TokenOut | null>(null);
  const q = useQuery({ queryKey: ['tokens'], queryFn: ({ signal }) => get(accessApi.listTokens, { signal }), enabled: can.allowed });
  const revoke = useOperation(revokeTokenAction, {
    input: (t: TokenOut) => ({ params: { id: t.id } }),
    onSuccess: (t) => {
      toast.success(`Revoked “${t.name}”`);
      void qc.invalidateQueries({ queryKey: ['tokens'] });
    },
    onError: (e, t) => toast.error(`Could not revoke “${t.name}”`, { description: errorMessage(e) }),
  });
  const items = q.data?.items ?? [];
  return (
    <Card>
      <SettingsCardHeader
        title="API tokens"
        description={
          <>
            Your tokens for scripts and agent gateways. Send one as <code className="font-mono text-xs">Authorization: Bearer sdk_…</code>; it acts as you,
            limited to its scopes.
          </>
        }
      >
        <Tip content={can.why}>
          <Button onClick={() => setCreating(true)} disabled={!can.allowed}>
            <Plus /> Create token
          </Button>
        </Tip>
      </SettingsCardHeader>
      <CardContent>
        {!can.allowed ? (
          <EmptyState icon={<Lock />} title="API tokens are not available to you">
            {can.why}
          </EmptyState>
        ) : q.error ? (
          <ErrorNote error={q.error} />
        ) : q.data && items.length === 0 ? (
          <EmptyState icon={<KeyRound />} title="No API tokens yet">
            Use “Create token” to make one and call the REST API from a script or an agent gateway. The API reference lists every route.
          </EmptyState>
        ) : (
          <Table aria-label="API tokens">
            <ColumnHeads columns={['Name', 'Token', 'Scopes', 'Created', 'Expires', 'Last used', 'Status']} />
            <TBody>
              {q.isPending ? (
                <SkeletonRows rows={2} cols={8} className="h-4 w-full max-w-24" />
              ) : (
                items.map((t) => {
                  const status = tokenStatus(t, now);
                  return (
                    <TR key={t.id} data-testid="token-row" data-name={t.name} className={status !== 'active' ? 'text-muted-foreground' : undefined}>
                      <TD className="max-w-56 truncate font-medium whitespace-nowrap" id={`token-${t.id}`} title={t.name}>
                        {t.name}
                      </TD>
                      <TD className="font-mono text-xs whitespace-nowrap">{t.prefix}…</TD>
                      <TD>
                        <div className="flex max-w-80 flex-wrap gap-1">
                          {t.permissions.map((p) => (
                            <Badge key={p} variant="secondary" className="px-1.5 font-mono text-[11px] font-normal">
                              {p}
                            </Badge>
                          ))}
                        </div>
                      </TD>
                      <TD>
                        <RelativeTime iso={t.createdAt} />
                      </TD>
                      <TD>
                        <RelativeTime iso={t.expiresAt} empty="never" />
                      </TD>
                      <TD>
                        <RelativeTime iso={t.lastUsedAt} empty="never" />
                      </TD>
                      <TD>
                        <Badge variant={STATUS_VARIANT[status]}>{status}</Badge>
                      </TD>
                      <TD className="text-right">
                        {status !== 'revoked' ? (
                          <Button
                            size="sm"
                            variant="outline"
                            className="text-destructive hover:text-destructive"
                            aria-describedby={`token-${t.id}`}
                            disabled={revoke.isPending && revoke.variables?.id === t.id}
                            onClick={() => setRevoking(t)}
                          >
                            Revoke
                          </Button>
                        ) : null}
                      </TD>
                    </TR>
                  );
                })
              )}
            </TBody>
          </Table>
        )}
      </CardContent>
      <CreateTokenDialog open={creating} onOpenChange={setCreating} onCreated={setCreated} />
      <TokenSecretDialog created={created} onClose={() => setCreated(null)} />
      <Confirm
        open={!!revoking}
        onOpenChange={(o) => !o && setRevoking(null)}
        title={revoking ? `Revoke “${revoking.name}”?` : 'Revoke token?'}
        description="Scripts using it will get 401 at once. A revoked token cannot be restored; create a new one if it is still needed."
        confirmLabel="Revoke"
        onConfirm={() => {
          if (revoking) revoke.mutate(revoking);
          setRevoking(null);
        }}
      />
    </Card>
  );
}
