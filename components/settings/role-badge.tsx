import { Badge } from '../ui/badge';

const VARIANT = { owner: 'default', admin: 'warning', operator: 'secondary', viewer: 'outline' } as const;

export function RoleBadge({ role }: { role: string }) {
  return <Badge variant={VARIANT[role as keyof typeof VARIANT] ?? 'outline'}>{role}</Badge>;
}
