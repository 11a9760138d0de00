// The full check's network probe, run inside the sandbox it created: the DNS forwarder on the
// gateway answers; the egress proxy answers when the policy has domain rules and is refused when it
// has none; and a listener this probe opens on the gateway for the purpose is refused (the INPUT
// rules are in place). All of them are Skilldock's own: nothing leaves the host.
import net from 'node:net';
import type { FullCheckInput } from '../check/full-check';
import { CONFIG_LABEL } from '../config/in-use';
import type { NetworkEnforcement } from './enforcement';

/** A listener on the gateway that only the rules keep the sandbox from: if it answers, they are missing. */
async function canary(host: string): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer((s) => s.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise((r) => server.close(() => r())) };
}

// Tries python3, then nc, then bash's /dev/tcp; prints "<dns exit> <proxy exit> <canary exit>" or "none".
const SCRIPT = `
try() {
  if command -v python3 >/dev/null 2>&1; then python3 -c 'import socket,sys; socket.create_connection((sys.argv[1], int(sys.argv[2])), 3).close()' "$1" "$2" 2>/dev/null
  elif command -v nc >/dev/null 2>&1; then
    # busybox nc has no -z: connect with nothing to send; a peer that keeps the line open is cut by timeout (connected too).
    timeout 4 nc -w 3 "$1" "$2" </dev/null >/dev/null 2>&1; r=$?
    if [ "$r" = 124 ] || [ "$r" = 143 ]; then return 0; fi
    return "$r"
  elif command -v bash >/dev/null 2>&1; then bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$1" "$2" 2>/dev/null
  else return 99; fi
}
try "$1" "$2"; a=$?
try "$1" "$3"; p=$?
try "$1" "$4"; d=$?
if [ "$a" = 99 ]; then echo none; else echo "$a $p $d"; fi
`;

export function networkCheckProbes(network: NetworkEnforcement): NonNullable<FullCheckInput['extraProbes']> {
  return [
    {
      name: 'network',
      run: async (backend, sandbox) => {
        if (backend.kind !== 'docker')
          return { status: 'skipped', reason: `${backend.kind === 'e2b' ? 'E2B' : 'CubeSandbox'} enforces the network policy itself.` };
        const control = network.control;
        const configId = sandbox.labels[CONFIG_LABEL];
        // Asked of the replica that holds the enforcement, wherever this check runs.
        const described = control && configId ? await control.describe(configId) : null;
        const bridge = described?.network;
        if (!control || !bridge) return { status: 'skipped', reason: 'Skilldock does not enforce this sandbox’s network on this host.' };
        const host = await canary(bridge.gateway4);
        const { dnsPort, proxyPort } = control;
        const r = await backend
          .exec(sandbox.id, {
            argv: ['sh', '-c', SCRIPT, 'sh', bridge.gateway4, String(dnsPort), String(proxyPort), String(host.port)],
            timeoutMs: 20_000,
            maxOutputBytes: 1024,
          })
          .finally(host.close);
        const out = r.stdout.trim();
        if (out === 'none') return { status: 'skipped', reason: 'The image has none of python3, nc or bash to open a connection with.' };
        const [dns, proxy, denied] = out.split(' ').map(Number);
        const byName = described.domainRules;
        const detail = { gateway: bridge.gateway4, dnsPort, proxyPort, proxyOpen: byName, network: bridge.name };
        if (dns !== 0) return { status: 'fail', reason: `The DNS forwarder on ${bridge.gateway4}:${dnsPort} did not answer from inside the sandbox.`, detail };
        if (byName && proxy !== 0)
          return { status: 'fail', reason: `The egress proxy on ${bridge.gateway4}:${proxyPort} did not answer from inside the sandbox.`, detail };
        if (!byName && proxy === 0)
          return {
            status: 'fail',
            reason: `The egress proxy port ${bridge.gateway4}:${proxyPort} answered although the policy has no domain rules: the firewall rules are not in place.`,
            detail,
          };
        if (denied === 0)
          return { status: 'fail', reason: `The host answered on ${bridge.gateway4}:${host.port}: the firewall rules are not in place.`, detail };
        return { status: 'pass', detail };
      },
    },
  ];
}
