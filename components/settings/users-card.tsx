'use client';

import { useQuery } from '@tanstack/react-query';
import { Lock, UserPlus, Users } from 'lucide-react';
import { useState } from 'react';
import { get } from '@/components/api';
import { accessApi } from '@/lib/api/contracts/access';
import { SettingsCardHeader } from '../forms/settings-form-card';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { EmptyState, ErrorNote, Tip } from '../ui/misc';
import { ColumnHeads, SkeletonRows, Table, TBody } from '../ui/table';
import { useCan, useViewer } from '../viewer';
import { AddUserDialog } from './add-user-dialog';
import { ResetPasswordDialog } from './reset-password-dialog';
import { UserRow } from './user-row';
import type { UserOut } from './view';

/** The only active owner: the server refuses to disable them or change their role, so the row does not offer it. */
function isLastOwner(users: UserOut[], u: UserOut): boolean {
  return u.role === 'owner' && !u.disabled && users.filter((x) => x.role === 'owner' && !x.disabled).length === 1;
}

export function UsersCard() {
  const read = useCan('users.read');
  const manage = useCan('users.manage');
  const viewer = useViewer();
  const [adding, setAdding] = useState(false);
  const [resetFor, setResetFor] = useState<UserOut | null>(null);
  const q = useQuery({
    queryKey: ['users'],
    queryFn: ({ signal }) => get(accessApi.listUsers, { signal }),
    enabled: read.allowed,
  });
  return (
    <Card>
      <SettingsCardHeader title="Users" description="People who can sign in to this console, and their roles. Owners manage users.">
        {read.allowed ? (
          <Tip content={manage.why}>
            <Button onClick={() => setAdding(true)} disabled={!manage.allowed}>
              <UserPlus /> Add user
            </Button>
          </Tip>
        ) : null}
      </SettingsCardHeader>
      <CardContent>
        {!read.allowed ? (
          <EmptyState icon={<Lock />} title="The user list is hidden">
            {read.why} Admins and owners see who can sign in; ask an owner if you need access.
          </EmptyState>
        ) : q.error ? (
          <ErrorNote error={q.error} />
        ) : (
          <Table aria-label="Users">
            <ColumnHeads columns={['User', 'Role', 'Status', 'Last login', 'Created']} />
            <TBody>
              {q.isPending ? (
                <SkeletonRows rows={3} cols={6} className="h-4 w-full max-w-28" />
              ) : (
                q.data.items.map((u) => (
                  <UserRow
                    key={u.id}
                    user={u}
                    isSelf={u.id === viewer.userId}
                    lastOwner={isLastOwner(q.data.items, u)}
                    canManage={manage.allowed}
                    why={manage.why}
                    onResetPassword={setResetFor}
                    dialogOpen={adding || !!resetFor}
                  />
                ))
              )}
            </TBody>
          </Table>
        )}
        {read.allowed && q.data && q.data.items.length === 0 ? (
          <EmptyState icon={<Users />} title="No users yet">
            Add the people who operate this instance.
          </EmptyState>
        ) : null}
      </CardContent>
      <AddUserDialog open={adding} onOpenChange={setAdding} />
      <ResetPasswordDialog user={resetFor} onOpenChange={(o) => !o && setResetFor(null)} />
    </Card>
  );
}
