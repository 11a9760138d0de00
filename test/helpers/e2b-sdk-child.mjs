// Runs the official `e2b` SDK against the loopback E2B server, in its own process because the
// test CA reaches Node's TLS only through NODE_EXTRA_CA_CERTS at start-up. The SDK insists on
// https and `{port}-{id}.{domain}` hosts; its `proxy` option tunnels both through the server's
// CONNECT port. Prints one JSON line with what it saw.
//
//   NODE_EXTRA_CA_CERTS=ca.pem node e2b-sdk-child.mjs '{"apiKey":…,"domain":…,"proxy":…,"suite":…}'
import { CommandExitError, Sandbox } from 'e2b';

const args = JSON.parse(process.argv[2] ?? '{}');
const opts = { apiKey: args.apiKey, domain: args.domain, proxy: args.proxy, requestTimeoutMs: 30_000 };
const out = {};
const sbx = await Sandbox.create('base', { ...opts, metadata: { suite: args.suite }, timeoutMs: 120_000 });
try {
  out.sandboxId = sbx.sandboxId;
  const run = await sbx.commands.run('echo "hello $WHO"; echo oops >&2', { envs: { WHO: 'sdk' } });
  out.run = { exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr };
  try {
    await sbx.commands.run('exit 7');
    out.exit = 'no error';
  } catch (e) {
    out.exit = e instanceof CommandExitError ? e.exitCode : String(e);
  }
  const whoami = await sbx.commands.run('id -un');
  out.user = whoami.stdout.trim();
  await sbx.files.write('/tmp/sdk/note.txt', args.content);
  out.read = await sbx.files.read('/tmp/sdk/note.txt');
  out.list = (await sbx.files.list('/tmp/sdk')).map((e) => ({ name: e.name, type: e.type }));
  const page = Sandbox.list({ ...opts, query: { metadata: { suite: args.suite } } });
  out.listed = (await page.nextItems()).map((s) => s.sandboxId);
  out.running = await sbx.isRunning();
} finally {
  await sbx.kill();
}
out.afterKill = (await Sandbox.list({ ...opts, query: { metadata: { suite: args.suite } } }).nextItems()).map((s) => s.sandboxId);
process.stdout.write(`${JSON.stringify(out)}\n`);
