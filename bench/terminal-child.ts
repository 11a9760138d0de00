// Skilldock's terminal server alone in its own process, as in the console (apart from the client):
// the test harness's real Services and /ws/terminal on loopback, with one running busybox sandbox.
// Prints one JSON line (port, instance id, container id, cookie); each "ticket" line read on stdin is
// answered with a fresh ticket's JSON line. Replies start with REPLY, as the server's logs share
// stdout. Runs until stdin closes or SIGTERM.
import { createInterface } from 'node:readline';
import { ORIGIN, startTerminalHarness } from '../test/helpers/terminal-harness';
import { REPLY } from './terminal-ends';

const h = await startTerminalHarness();
const user = h.users.admin;
const containerId = h.instanceId.slice(h.instanceId.indexOf('~') + 1);
process.stdout.write(`${REPLY}${JSON.stringify({ port: h.port, instanceId: h.instanceId, containerId, cookie: user.cookie, origin: ORIGIN })}\n`);

let stopping: Promise<void> | undefined;
const stop = () => {
  stopping ??= h.stop().then(() => process.exit(0));
  return stopping;
};
const lines = createInterface({ input: process.stdin });
lines.on('line', (l) => {
  if (l.trim() !== 'ticket') return;
  void h.ticket(user).then((t) => process.stdout.write(`${REPLY}${JSON.stringify(t)}\n`));
});
lines.once('close', () => void stop());
process.once('SIGTERM', () => void stop());
