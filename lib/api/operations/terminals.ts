import 'server-only';
import { Readable } from 'node:stream';
import { defineOperation } from '../../http/operation';
import type { Services } from '../../services';
import { getTerminalSettings, updateTerminalSettings } from '../../settings';
import { transcriptsDir } from '../../terminal/transcript';
import { deleteTranscript, listTranscripts, openTranscript } from '../../terminal/transcript-store';
import { api } from '../contracts';

const isOpen = (services: Services) => (id: string) => services.terminals.manager.list().some((s) => s.id === id);

/** The browser terminal's tickets, open sessions, transcripts and settings. */
export const terminalOps = {
  openTerminal: defineOperation(api.openTerminal, async ({ services, actor, params, body, meta }) =>
    services.terminals.issueTicket(actor, params.id, { sessionId: body.sessionId, origin: meta.origin ?? null, shared: body.shared }),
  ),
  listTerminalSessions: defineOperation(api.listTerminalSessions, async ({ services }) => ({ items: await services.terminals.listAll() })),
  closeTerminalSession: defineOperation(api.closeTerminalSession, async ({ services, actor, params }) => services.terminals.close(actor, params.id)),
  listTerminalTranscripts: defineOperation(api.listTerminalTranscripts, async ({ services }) => ({
    items: await listTranscripts(transcriptsDir(services.config.dataDir)),
  })),
  downloadTerminalTranscript: defineOperation(
    api.downloadTerminalTranscript,
    async ({ services, params }) => {
      const { view, stream } = await openTranscript(transcriptsDir(services.config.dataDir), params.id);
      return new Response(Readable.toWeb(stream) as ReadableStream, {
        headers: {
          'content-type': 'application/x-asciicast',
          'content-disposition': `attachment; filename="terminal-${view.id}.cast"`,
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        },
      });
    },
    { restOnly: true },
  ),
  deleteTerminalTranscript: defineOperation(api.deleteTerminalTranscript, async ({ services, actor, params }) =>
    deleteTranscript(services.database.db, transcriptsDir(services.config.dataDir), actor, params.id, isOpen(services)),
  ),
  terminalSettings: defineOperation(api.terminalSettings, async ({ services }) => getTerminalSettings(services.database.db)),
  updateTerminalSettings: defineOperation(api.updateTerminalSettings, async ({ services, actor, body }) =>
    updateTerminalSettings(services.database.db, actor, body),
  ),
};
