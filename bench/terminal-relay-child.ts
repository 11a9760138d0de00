// The floor for any WebSocket terminal relay: a bare `ws` server in its own process that pipes each
// socket to a dockerode TTY exec in the container named on the command line, with no session, ring,
// queue or back-pressure. Sends {"type":"ready"} once the exec is attached; prints REPLY + its port.
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import Docker from 'dockerode';
import { WebSocketServer } from 'ws';
import { COLS, REPLY, ROWS, SHELL } from './terminal-ends';

const containerId = process.argv[2];
const docker = new Docker();
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
wss.on('connection', async (ws) => {
  const exec = await docker.getContainer(containerId).exec({
    Cmd: SHELL,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: true,
    Env: ['TERM=xterm-256color', 'LANG=C.UTF-8'],
  });
  const stream = (await exec.start({ hijack: true, stdin: true, Tty: true })) as unknown as Duplex;
  await exec.resize({ w: COLS, h: ROWS });
  stream.on('data', (b: Buffer) => ws.send(b, { binary: true }));
  ws.on('message', (data) => stream.write(data as Buffer));
  ws.on('close', () => stream.destroy());
  ws.send(JSON.stringify({ type: 'ready' }));
});
wss.once('listening', () => process.stdout.write(`${REPLY}${(wss.address() as AddressInfo).port}\n`));
process.stdin.resume();
process.stdin.once('end', () => wss.close(() => process.exit(0)));
process.once('SIGTERM', () => process.exit(0));
