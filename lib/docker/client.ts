import Docker from 'dockerode';
import { describeEngineProblem } from './errors';

export interface DockerStatus {
  endpoint: string;
  reachable: boolean;
  version?: string;
  apiVersion?: string;
  os?: string;
  arch?: string;
  error?: string;
}

/** The engine endpoint: DOCKER_HOST (unix:// or tcp:// with DOCKER_TLS_VERIFY/DOCKER_CERT_PATH) or the local socket. */
export function dockerEndpoint(env: Record<string, string | undefined> = process.env): string {
  return env.DOCKER_HOST || 'unix:///var/run/docker.sock';
}

export function createDocker(env: NodeJS.ProcessEnv = process.env): Docker {
  // dockerode reads DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH itself when given no options.
  return env.DOCKER_HOST ? new Docker() : new Docker({ socketPath: '/var/run/docker.sock' });
}

/** Asks the engine for its version, with a timeout; never throws. */
export async function dockerStatus(timeoutMs = 3000, env: NodeJS.ProcessEnv = process.env): Promise<DockerStatus> {
  const endpoint = dockerEndpoint(env);
  try {
    const docker = createDocker(env);
    const v = await Promise.race([
      docker.version(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref()),
    ]);
    return { endpoint, reachable: true, version: v.Version, apiVersion: v.ApiVersion, os: v.Os, arch: v.Arch };
  } catch (e) {
    return { endpoint, reachable: false, error: describeEngineProblem(e, endpoint).reason };
  }
}
