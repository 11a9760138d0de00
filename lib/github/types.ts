import type { ChecksumRecordSource } from './checksums/checksums';

/** Per-package choices: how the asset and the binaries are found, how the smoke test runs. */
export interface GithubOverrides {
  matching?: string;
  matchingRegex?: string;
  assetPattern?: string;
  binaryName?: string;
  binaryPath?: string;
  smokeArgs?: string[];
  /** false skips the smoke test; the install is then shown as "not run-tested". */
  smokeTest?: boolean;
}

export interface InstalledBinary {
  name: string;
  /** Path inside the release archive it came from. */
  source: string;
  libc: string;
  interp: string | null;
  machine: string;
  size: number;
}

/** What one installed version is; written to `<version>/.install.json` and mirrored in the database. */
export interface InstallManifest {
  name: string;
  repo: string;
  tag: string;
  version: string;
  channel: 'stable' | 'prerelease';
  releaseId: number | null;
  publishedAt: string | null;
  prerelease: boolean;
  assetId: number | null;
  assetName: string;
  assetUrl: string;
  assetSize: number;
  sha256: string;
  checksumSource: ChecksumRecordSource;
  binaries: InstalledBinary[];
  overrides: GithubOverrides;
  smokeOutput: string | null;
  installedAt: string;
  installedBy: string;
}

export interface RetainedVersion {
  version: string;
  tag: string;
  installedAt: string;
  sha256: string;
  checksumSource: string;
}
