// An OpenClaw gateway whose state folder is on this host. Config writes go through the gateway's
// own CLI (`config patch --stdin`: validated, migrated, hot-reloaded) when it runs and the location
// allows it, else into the file itself: comments, key order and every other key kept, the whole
// file renamed into place. Skills go into its managed folder `<state>/skills`.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../core/atomic-fs';
import { AppError } from '../../core/errors';
import { ConfigChangedError, type GatewayAccess, type GatewayAgentSkills, type GatewayConfigRead, type SkillFolder } from '../access';
import { listManagedFolders, putSkillFolder, recoverLeftovers, removeSkillFolder } from '../folder/materialise';
import { CLI_TIMEOUT_MS, cliAgentSkills, cliError, cliValidate, cliVersion, type OpenClawCli, resolveCli, runCli } from './cli';
import { applyMergePatch, parseJson5Located } from './json5-edit';
import { SECRETS_FILE } from './plan';
import { CONFIG_FILE, MAX_CONFIG_BYTES } from './state-dir';

export interface LocalLocation {
  stateDir: string;
  cli?: string;
  home?: string;
  write?: 'auto' | 'cli' | 'file';
  readOnly?: boolean;
}

export const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

/** How many `skills list` CLI runs go at once (each one is a whole gateway start). */
const LIST_PARALLEL = 2;

export class LocalOpenClawAccess implements GatewayAccess {
  readonly configPath: string;
  readonly managedDir: string;
  readonly cli: OpenClawCli | null;
  private recovered = false;

  constructor(
    readonly loc: LocalLocation,
    opts: { home: string; timeoutMs?: number },
  ) {
    this.configPath = path.join(loc.stateDir, CONFIG_FILE);
    this.managedDir = path.join(loc.stateDir, 'skills');
    const command = resolveCli(loc.cli);
    this.cli = command ? { command, stateDir: loc.stateDir, home: loc.home ?? opts.home, timeoutMs: opts.timeoutMs ?? CLI_TIMEOUT_MS } : null;
  }

  /** How config writes go: through the CLI, or into the file. */
  get writeVia(): 'cli' | 'file' {
    if (this.loc.write === 'file') return 'file';
    if (this.loc.write === 'cli' || this.cli) return 'cli';
    return 'file';
  }

  private needCli(what: string): OpenClawCli {
    if (!this.cli)
      throw new AppError('unavailable', `${what} needs the gateway's CLI, and ${this.loc.cli ?? 'openclaw'} was not found on this host.`, {
        hint: "Set the gateway's CLI to the path of its `openclaw` command.",
      });
    return this.cli;
  }

  version() {
    return cliVersion(this.needCli("Reading the gateway's version"));
  }

  async readConfig(): Promise<GatewayConfigRead> {
    const st = await fs.lstat(this.configPath).catch(() => null);
    if (!st?.isFile()) throw new AppError('not_found', `The gateway's config ${this.configPath} is gone or is not a regular file.`);
    if (st.size > MAX_CONFIG_BYTES) throw new AppError('payload_too_large', `The gateway's config is over ${MAX_CONFIG_BYTES / 1024 / 1024} MiB.`);
    const raw = await fs.readFile(this.configPath, 'utf8');
    const value = parseJson5Located(raw).value;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new AppError('validation', `The gateway's config ${this.configPath} is not an object.`);
    return { path: this.configPath, raw, value: value as Record<string, unknown>, hash: sha256(raw), writable: !this.loc.readOnly };
  }

  async patchConfig(patch: Record<string, unknown>, baseHash: string) {
    const now = await this.readConfig();
    if (now.hash !== baseHash) throw new ConfigChangedError(baseHash);
    if (this.writeVia === 'cli') {
      const cli = this.needCli('Writing the config through the CLI');
      const r = await runCli(cli, ['config', 'patch', '--stdin'], JSON.stringify(patch));
      if (r.code !== 0) throw new AppError('validation', `The gateway refused the change: ${cliError(r)}`);
    } else {
      const next = applyMergePatch(now.raw as string, patch);
      // Same bytes back when the check above raced a hand edit: compare again just before the rename.
      const again = await fs.readFile(this.configPath, 'utf8');
      if (sha256(again) !== baseHash) throw new ConfigChangedError(baseHash);
      await writeFileAtomic(this.configPath, next, 0o600);
      return { hash: sha256(next) };
    }
    return { hash: (await this.readConfig()).hash };
  }

  async agentSkills(agentIds: string[]): Promise<GatewayAgentSkills[]> {
    const cli = this.needCli('Asking the gateway which skills its agents see');
    const out: GatewayAgentSkills[] = new Array(agentIds.length);
    let next = 0;
    const worker = async () => {
      while (next < agentIds.length) {
        const i = next++;
        out[i] = await cliAgentSkills(cli, agentIds[i] as string);
      }
    };
    await Promise.all(Array.from({ length: Math.min(LIST_PARALLEL, agentIds.length) }, worker));
    return out;
  }

  private async ready() {
    await fs.mkdir(this.managedDir, { recursive: true, mode: 0o755 });
    if (!this.recovered) {
      await recoverLeftovers(this.managedDir);
      this.recovered = true;
    }
  }

  async managedFolders() {
    await this.ready();
    return listManagedFolders(this.managedDir);
  }

  async putSkill(folder: SkillFolder) {
    await this.ready();
    await putSkillFolder(this.managedDir, folder);
  }

  async removeSkill(name: string) {
    await this.ready();
    await removeSkillFolder(this.managedDir, name);
  }

  /** The file the apiKey SecretRefs point at, beside the config (mode 0600, whole file renamed into place). */
  secretsFile() {
    const file = path.join(this.loc.stateDir, SECRETS_FILE);
    return {
      path: file,
      read: () => fs.readFile(file, 'utf8').catch(() => null),
      write: (text: string) => writeFileAtomic(file, text, 0o600),
    };
  }

  async close() {}
}

/** `config validate --json` through the CLI, when there is one. */
export async function validateLocal(a: LocalOpenClawAccess): Promise<{ valid: boolean; message: string | null } | null> {
  return a.cli ? cliValidate(a.cli) : null;
}
