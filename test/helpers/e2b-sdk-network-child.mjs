// Runs the official `e2b` SDK's network options against the loopback E2B server: a create with
// `allowInternetAccess` and `network`, then `updateNetwork` with the given update, then kill.
// Prints one JSON line with the sandbox id. (NODE_EXTRA_CA_CERTS must name the test CA.)
//
//   node e2b-sdk-network-child.mjs '{"apiKey":…,"domain":…,"proxy":…,"create":{…},"update":{…}}'
import { Sandbox } from 'e2b';

const args = JSON.parse(process.argv[2] ?? '{}');
const opts = { apiKey: args.apiKey, domain: args.domain, proxy: args.proxy, requestTimeoutMs: 30_000 };
const sbx = await Sandbox.create('base', { ...opts, ...args.create, timeoutMs: 120_000 });
try {
  await sbx.updateNetwork(args.update);
} finally {
  await sbx.kill();
}
process.stdout.write(`${JSON.stringify({ sandboxId: sbx.sandboxId })}\n`);
