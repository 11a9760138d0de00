// The host a replica runs on, as host-bound jobs name it: the machine (or container) whose
// runtimes and files a job changes. Replicas in separate containers are separate hosts, each with
// its own runtimes, which is what host-bound work needs.
import os from 'node:os';

export const thisHost = (): string => os.hostname();
