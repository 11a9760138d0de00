// The handle of one maintenance container, shared by the build, copy and step modules.
import type Docker from 'dockerode';
import type { SandboxActivity } from '@/lib/sandbox/docker/activity';
import type { DockerConnection } from '@/lib/sandbox/docker/connection';

export type ImageConfig = NonNullable<Docker.ImageInspectInfo['Config']>;

export interface Maintenance {
  readonly containerId: string;
  readonly configId: string;
  readonly runId: string;
  readonly conn: DockerConnection;
  /** The engine id of the image the container was started from: the new snapshot's parent. */
  readonly parentImageId: string;
  readonly parentConfig: ImageConfig;
  /** Lets the idle sweep see the container again. */
  readonly releaseLease: () => Promise<void>;
  readonly activity: SandboxActivity;
  closed: boolean;
}
