'use client';

import { createContext, useContext } from 'react';
import { isPermission, minimumRole } from '@/lib/auth/permissions';

export interface Viewer {
  userId: string;
  email: string;
  role: string;
  permissions: string[];
}

const Ctx = createContext<Viewer | null>(null);

export function ViewerProvider({ viewer, children }: { viewer: Viewer; children: React.ReactNode }) {
  return <Ctx.Provider value={viewer}>{children}</Ctx.Provider>;
}

export function useViewer(): Viewer {
  const v = useContext(Ctx);
  if (!v) throw new Error('useViewer outside the console');
  return v;
}

/** Whether the viewer holds a permission, and the tooltip to show on a disabled control if not. */
export function useCan(permission: string): { allowed: boolean; why?: string } {
  const v = useViewer();
  const allowed = v.permissions.includes(permission);
  return allowed ? { allowed } : { allowed, why: `Needs the ${isPermission(permission) ? minimumRole(permission) : 'owner'} role (you are ${v.role}).` };
}
