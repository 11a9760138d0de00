import type { Role } from '@/lib/auth/permissions';

/** One line per role, shown under role pickers (mirrors ROLE_PERMISSIONS in lib/auth/permissions.ts). */
export const ROLE_SUMMARY: Record<Role, string> = {
  owner: 'Everything, including users and roles.',
  admin: 'All writes, plus the audit log and the user list.',
  operator: 'Runs configured jobs and opens terminals; otherwise read only.',
  viewer: 'Read only.',
};
