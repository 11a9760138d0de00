// The bench's egress proxy alone in its own process: prints its port, runs until SIGTERM.
import { benchProxy } from './network-proxy';

const proxy = benchProxy();
const port = await proxy.listen('127.0.0.1', 0);
process.stdout.write(`${port}\n`);
process.once('SIGTERM', () => void proxy.close().then(() => process.exit(0)));
