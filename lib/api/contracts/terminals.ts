import { z } from 'zod';
import { defineContract } from '../../http/contract';
import { instanceIdParams } from '../../sandbox/instances/schema';
import { terminalSettingsPatch, terminalSettingsSchema } from '../../settings/terminal-settings';
import {
  terminalSessionListOut,
  terminalSessionParams,
  terminalTicketInput,
  terminalTicketOut,
  terminalTranscriptListOut,
  terminalTranscriptParams,
} from '../../terminal/schema';

const tag = 'Terminals';

/** The browser terminal: tickets for the socket, the open sessions, the settings. */
export const terminalsApi = {
  openTerminal: defineContract({
    method: 'POST',
    path: '/api/v1/sandboxes/{id}/terminal',
    tag,
    summary: 'A single-use ticket for WS /ws/terminal into a running sandbox (naming a sessionId re-attaches to it)',
    description:
      'Needs sandboxes.exec, the same permission as the exec box (POST /api/v1/sandboxes/{id}/exec). Connect within a minute: `/ws/terminal?ticket=…&sandbox=<id>&cols=&rows=[&session=<sessionId>&offset=<bytes received>]`. Binary frames carry terminal bytes, JSON text frames control (`resize`, `ping`; `ready`, `exited`, `error`, `pong`). 409 when the sandbox is not running, 429 past the per-user or per-sandbox limit.',
    permission: 'sandboxes.exec',
    params: instanceIdParams,
    body: terminalTicketInput,
    response: terminalTicketOut,
  }),
  listTerminalSessions: defineContract({
    method: 'GET',
    path: '/api/v1/terminal-sessions',
    tag,
    summary: 'The terminal sessions open in this process: who, which sandbox, since, idle, bytes',
    permission: 'terminals.manage',
    response: terminalSessionListOut,
  }),
  closeTerminalSession: defineContract({
    method: 'DELETE',
    path: '/api/v1/terminal-sessions/{id}',
    tag,
    summary: 'End a terminal session: its socket closes with closed_by_admin and its shell’s processes end',
    permission: 'terminals.manage',
    params: terminalSessionParams,
    response: z.object({ closed: z.literal(true) }),
  }),
  listTerminalTranscripts: defineContract({
    method: 'GET',
    path: '/api/v1/terminal-transcripts',
    tag,
    summary: 'The recorded terminal transcripts of this process (recorded while recordTranscripts is on), newest first',
    permission: 'terminals.manage',
    response: terminalTranscriptListOut,
  }),
  downloadTerminalTranscript: defineContract({
    method: 'GET',
    path: '/api/v1/terminal-transcripts/{id}',
    tag,
    summary: 'Download one transcript (asciicast v2: a header line, then [seconds, "o"|"i"|"r"|"m", data] lines)',
    permission: 'terminals.manage',
    params: terminalTranscriptParams,
    produces: 'application/x-asciicast',
  }),
  deleteTerminalTranscript: defineContract({
    method: 'DELETE',
    path: '/api/v1/terminal-transcripts/{id}',
    tag,
    summary: 'Delete one transcript (409 while its session is still open)',
    permission: 'terminals.manage',
    params: terminalTranscriptParams,
    response: z.object({ deleted: z.literal(true) }),
  }),
  terminalSettings: defineContract({
    method: 'GET',
    path: '/api/v1/settings/terminal',
    tag: 'Settings',
    summary: 'Terminal limits, re-attach grace, the access re-check interval and transcript recording',
    permission: 'sandboxes.read',
    response: terminalSettingsSchema,
  }),
  updateTerminalSettings: defineContract({
    method: 'PUT',
    path: '/api/v1/settings/terminal',
    tag: 'Settings',
    summary: 'Change any of the terminal settings; the others keep their values',
    permission: 'terminals.manage',
    body: terminalSettingsPatch,
    response: terminalSettingsSchema,
  }),
} as const;
