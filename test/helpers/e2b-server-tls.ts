// A throwaway CA and a wildcard server certificate for the test sandbox domains, made with the
// openssl CLI once per process (argument arrays, a private temp dir removed at exit).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestCertificates {
  ca: string;
  caFile: string;
  key: string;
  cert: string;
}

let made: TestCertificates | undefined;
const NAMES = ['e2b.test', 'cube.test'];

export async function testCertificates(): Promise<TestCertificates> {
  if (made) return made;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-e2b-tls-'));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const f = (n: string) => path.join(dir, n);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const run = (args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  run([
    'req',
    '-x509',
    ...ec,
    '-keyout',
    f('ca.key'),
    '-out',
    f('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=skilldock test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  run(['req', '-new', ...ec, '-keyout', f('leaf.key'), '-out', f('leaf.csr'), '-subj', '/CN=e2b.test']);
  const san = NAMES.flatMap((n) => [`DNS:${n}`, `DNS:*.${n}`]).join(',');
  fs.writeFileSync(f('ext.cnf'), `subjectAltName=${san}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`);
  run([
    'x509',
    '-req',
    '-in',
    f('leaf.csr'),
    '-CA',
    f('ca.pem'),
    '-CAkey',
    f('ca.key'),
    '-CAcreateserial',
    '-out',
    f('leaf.pem'),
    '-days',
    '2',
    '-extfile',
    f('ext.cnf'),
  ]);
  made = {
    ca: fs.readFileSync(f('ca.pem'), 'utf8'),
    caFile: f('ca.pem'),
    key: fs.readFileSync(f('leaf.key'), 'utf8'),
    cert: fs.readFileSync(f('leaf.pem'), 'utf8'),
  };
  return made;
}
