// The Ed25519 key Skilldock pairs with remote OpenClaw gateways as one device (approved once on
// the gateway host with `openclaw devices approve`). Made once into the data dir, mode 0600.
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function gatewayDeviceKey(dataDir: string): { privateKeyPem: string } {
  const file = path.join(dataDir, 'gateway-device-key.pem');
  try {
    return { privateKeyPem: fs.readFileSync(file, 'utf8') };
  } catch {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    try {
      fs.writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
      return { privateKeyPem: pem };
    } catch {
      return { privateKeyPem: fs.readFileSync(file, 'utf8') }; // another process made it first
    }
  }
}
