// Docker for integration / e2e tests. `npm test` exports DOCKER_HOST (an engine that answered
// /_ping, or a private dockerd it started), or SKILLDOCK_TEST_DOCKER_ERROR when none could run.
//
//   describeDocker('sandbox backend', () => { ... });   // skipped, with the reason printed, without Docker
import { describe } from 'vitest';

export const dockerHost: string | undefined = process.env.DOCKER_HOST || undefined;

/** Why Docker tests cannot run here, or undefined when an engine is available. */
export const dockerUnavailable: string | undefined =
  process.env.SKILLDOCK_TEST_DOCKER_ERROR || (dockerHost ? undefined : 'DOCKER_HOST is not set: run the tests with `npm test`, which starts an engine');

let warned = false;

/** `describe` that is skipped, with the reason printed once per file, when no engine is available. */
export function describeDocker(name: string, fn: () => void): void {
  if (dockerUnavailable) {
    if (!warned) {
      warned = true;
      console.warn(`[docker] skipping Docker tests: ${dockerUnavailable}`);
    }
    describe.skip(`${name} (skipped: ${dockerUnavailable})`, fn);
    return;
  }
  describe(name, fn);
}
