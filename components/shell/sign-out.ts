'use client';

import { signOut } from 'next-auth/react';

/**
 * Signs out and stays on the origin the operator is using. next-auth would redirect to its
 * configured base URL (SKILLDOCK_PUBLIC_URL), which is another origin when the console was opened
 * as 127.0.0.1 or by a LAN name; a relative navigation keeps the host.
 */
export async function signOutHere(to = '/login'): Promise<void> {
  await signOut({ redirect: false });
  window.location.assign(to);
}
