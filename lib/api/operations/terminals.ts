import 'server-only';
import { defineOperation } from '../../http/operation';
import { getTerminalSettings, updateTerminalSettings } from '../../settings';
import { api } from '../contracts';

/** The browser terminal's tickets, open sessions and settings. */
export const terminalOps = {
  openTerminal: defineOperation(api.openTerminal, async ({ services, actor, params, body, meta }) =>
    services.terminals.issueTicket(actor, params.id, { sessionId: body.sessionId, origin: meta.origin ?? null }),
  ),
  listTerminalSessions: defineOperation(api.listTerminalSessions, async ({ services }) => ({ items: services.terminals.list() })),
  closeTerminalSession: defineOperation(api.closeTerminalSession, async ({ services, actor, params }) => services.terminals.close(actor, params.id)),
  terminalSettings: defineOperation(api.terminalSettings, async ({ services }) => getTerminalSettings(services.database.db)),
  updateTerminalSettings: defineOperation(api.updateTerminalSettings, async ({ services, actor, body }) =>
    updateTerminalSettings(services.database.db, actor, body),
  ),
};
