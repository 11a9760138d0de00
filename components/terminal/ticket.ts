'use client';

import { openTerminalAction } from '@/app/(console)/sandboxes/actions';
import { callAction } from '../use-operation';
import type { Ticket } from './protocol';

/**
 * A terminal ticket from the server action (it carries the page's Origin, which the ticket is bound
 * to). `sessionId` asks to re-attach; `shared` attaches to a sandbox that is not the viewer's own on
 * purpose. Failures are ApiErrors, a 404 meaning that session has ended.
 */
export function requestTerminalTicket(instanceId: string, sessionId?: string, shared = false): Promise<Ticket> {
  return callAction(openTerminalAction, {
    params: { id: instanceId },
    body: { ...(sessionId ? { sessionId } : {}), ...(shared ? { shared: true as const } : {}) },
  });
}
