// The platform's floor for the machine bench: a plain node:http server answering the bytes Skilldock
// answered (status, headers, body), read as one JSON line on stdin. A poll gets the whole answer; an
// event stream gets its head and first frames and stays open until the client leaves. Prints its port.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';

export interface Recorded {
  status: number;
  headers: [string, string][];
  body: string;
}
export interface ChildSpec {
  poll: Recorded;
  events: Recorded;
}

const spec = await new Promise<ChildSpec>((resolve) => createInterface({ input: process.stdin }).once('line', (l) => resolve(JSON.parse(l))));
const head = (r: Recorded) => r.headers.flat();
const server = http.createServer((req, res) => {
  if (req.url?.startsWith('/poll')) {
    res.writeHead(spec.poll.status, head(spec.poll)).end(spec.poll.body);
    return;
  }
  res.writeHead(spec.events.status, head(spec.events));
  res.write(spec.events.body);
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
process.once('SIGTERM', () => process.exit(0));
