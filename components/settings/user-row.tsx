'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { updateUserAction } from '@/app/(console)/settings/actions';
import { errorMessage } from '@/components/error-message';
import { ROLES, type Role } from '@/lib/auth/permissions';
import { signOutHere } from '../shell/sign-out';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Confirm } from '../ui/dialog';
import { Select } from '../ui/input';
import { Tip } from '../ui/misc';
import { TD, TR } from '../ui/table';
import { RelativeTime } from '../ui/time';
import { useOperation } from '../use-operation';
import { RoleBadge } from './role-badge';
import type { UserOut } from './view';

type Patch = { role?: Role; disabled?: boolean };

/**
 * One user: role, status and the owner-only controls (change role, disable/enable, reset password).
 * While a dialog of this card is open the page behind it is aria-hidden, and the row selects drop
 * their "Role" label so the dialog's own Role field is the only one by that name.
 */
export function UserRow({
  user,
  isSelf,
  lastOwner = false,
  canManage,
  why,
  onResetPassword,
  dialogOpen,
}: {
  user: UserOut;
  isSelf: boolean;
  /** The only active owner: no role change and no Disable (there must always be one). */
  lastOwner?: boolean;
  canManage: boolean;
  why?: string;
  onResetPassword: (u: UserOut) => void;
  dialogOpen: boolean;
}) {
  const qc = useQueryClient();
  const [picked, setPicked] = useState<Role | null>(null);
  const role = picked ?? user.role;
  const [confirmDisable, setConfirmDisable] = useState(false);
  const update = useOperation(updateUserAction, {
    input: (body: Patch) => ({ params: { id: user.id }, body }),
    onSuccess: (u, body) => {
      setConfirmDisable(false);
      qc.setQueryData<{ items: UserOut[] }>(['users'], (old) => old && { items: old.items.map((x) => (x.id === u.id ? u : x)) });
      setPicked(null);
      toast.success(body.role ? `${u.email} is now ${u.role}` : u.disabled ? `Disabled ${u.email}` : `Enabled ${u.email}`);
      void qc.invalidateQueries({ queryKey: ['users'] });
      // Changing your own role or disabling yourself ends your session: sign in again.
      if (isSelf) void signOutHere();
    },
    onError: (e, body) => {
      setConfirmDisable(false);
      if (body.role) setPicked(null);
      toast.error(body.role ? `Could not change the role of ${user.email}` : `Could not ${body.disabled ? 'disable' : 'enable'} ${user.email}`, {
        description: errorMessage(e),
      });
    },
  });
  const rowId = `user-${user.id}`;
  const tip = canManage ? undefined : why;
  const ownerTip = tip ?? (lastOwner ? `${isSelf ? 'You are' : 'This is'} the only active owner: make another user an owner first.` : undefined);
  const ownerLocked = !canManage || lastOwner;
  const busy = update.isPending;
  return (
    <TR data-testid="user-row" data-email={user.email} className={user.disabled ? 'text-muted-foreground' : undefined}>
      <TD className="max-w-72">
        <div id={rowId} className="truncate font-medium" title={user.name}>
          {user.name}
          {isSelf ? <span className="ml-1.5 text-xs font-normal text-muted-foreground">(you)</span> : null}
        </div>
        <div className="truncate text-xs text-muted-foreground" title={user.email}>
          {user.email}
        </div>
      </TD>
      <TD>
        <RoleBadge role={user.role} />
      </TD>
      <TD>{user.disabled ? <Badge variant="destructive">disabled</Badge> : <Badge variant="success">active</Badge>}</TD>
      <TD>
        <RelativeTime iso={user.lastLoginAt} empty="never" />
      </TD>
      <TD>
        <RelativeTime iso={user.createdAt} />
      </TD>
      <TD>
        <div className="flex flex-wrap items-center justify-end gap-1.5">
          <div className="flex items-center gap-1.5">
            <Tip content={ownerTip}>
              <Select
                aria-label={dialogOpen ? undefined : 'Role'}
                aria-describedby={rowId}
                className="h-8 w-28"
                value={role}
                disabled={ownerLocked || busy}
                onChange={(e) => setPicked(e.target.value as Role)}
              >
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </Select>
            </Tip>
            <Tip content={ownerTip}>
              <Button
                size="sm"
                variant="outline"
                aria-describedby={rowId}
                disabled={ownerLocked || busy || role === user.role}
                onClick={() => update.mutate({ role })}
              >
                Save role
              </Button>
            </Tip>
          </div>
          <div className="flex items-center gap-1.5">
            <Tip content={user.disabled ? tip : ownerTip}>
              {user.disabled ? (
                <Button size="sm" variant="outline" aria-describedby={rowId} disabled={!canManage || busy} onClick={() => update.mutate({ disabled: false })}>
                  Enable
                </Button>
              ) : (
                <Button
                  size="sm"
                  variant="outline"
                  aria-describedby={rowId}
                  className="text-destructive hover:text-destructive"
                  disabled={ownerLocked || busy}
                  onClick={() => setConfirmDisable(true)}
                >
                  Disable
                </Button>
              )}
            </Tip>
            <Tip content={tip}>
              <Button size="sm" variant="ghost" aria-describedby={rowId} disabled={!canManage} onClick={() => onResetPassword(user)}>
                Reset password
              </Button>
            </Tip>
          </div>
        </div>
        <Confirm
          open={confirmDisable}
          onOpenChange={setConfirmDisable}
          title={`Disable ${user.email}?`}
          description={
            <>
              They are signed out at once and their API tokens stop working.
              {isSelf ? ' This is your own account: you will be signed out too.' : ''} You can enable the account again later.
            </>
          }
          confirmLabel="Disable"
          busy={busy}
          onConfirm={() => update.mutate({ disabled: true })}
        />
      </TD>
    </TR>
  );
}
