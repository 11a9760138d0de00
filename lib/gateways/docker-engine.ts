// Which Docker engine a gateway in a container is reached on: a sandbox config's engine (its host
// and TLS folder), a host given on the gateway, or the server's own (DOCKER_HOST, else the socket).
import type { AppDb } from '@/db/client';
import type { StoredGatewayLocation } from '@/db/schema';
import { AppError } from '../core/errors';
import { loadRow } from '../sandbox/config/store';
import { type DockerClients, dockerConnection } from '../sandbox/docker/connection';
import type { GatewayAccess } from './access';
import { DockerOpenClawAccess } from './openclaw/docker-access';

export function dockerGatewayAccess(db: AppDb, defaultHost: string | undefined, clients?: DockerClients) {
  return async (loc: Extract<StoredGatewayLocation, { type: 'docker' }>): Promise<GatewayAccess> => {
    let host = loc.host || defaultHost;
    let tlsCertPath: string | undefined;
    if (loc.configId) {
      const row = await loadRow(db, loc.configId);
      if (row.backend !== 'docker')
        throw new AppError('validation', `Sandbox config ${row.name} is not a Docker config.`, {
          issues: [{ path: 'location.configId', message: 'Pick a Docker config.' }],
        });
      const c = row.config as { host?: string; tlsCertPath?: string };
      host = c.host || defaultHost;
      tlsCertPath = c.tlsCertPath || undefined;
    }
    const conn = dockerConnection({ ...(host ? { host } : {}), ...(tlsCertPath ? { tlsCertPath } : {}), clients });
    return new DockerOpenClawAccess({ type: 'docker', container: loc.container, stateDir: loc.stateDir, ...(loc.cli ? { cli: loc.cli } : {}) }, conn);
  };
}
