// Asset choice on the real release asset lists of well-known projects.
// Each list is the complete asset list of one release as the project publishes it: every OS/arch
// variant, checksum and signature files, OS packages, SBOMs, installer scripts. The expected choices
// follow the picker's rules (hard filters, then score, then shortest name, then code-point order);
// they were written from those rules, not copied from the picker's output.
import { describe, expect, it } from 'vitest';
import { NoMatchingAssetError, pickAsset, type ReleaseAsset, rankAssets } from './picker';
import { TARGETS, type TargetKey } from './real-releases.fixtures';
import { PROJECTS_1 } from './real-releases-1.fixtures';
import { PROJECTS_2 } from './real-releases-2.fixtures';

const PROJECTS = [...PROJECTS_1, ...PROJECTS_2];

const asAssets = (names: string[]): ReleaseAsset[] => names.map((name, i) => ({ id: i + 1, name, size: 4_000_000, state: 'uploaded' }));
const toolOf = (repo: string) => repo.split('/')[1];

/** Names that never install, whatever the target: checksums, signatures, SBOMs, OS packages, metadata. */
const NEVER = /\.(sha256|sha512|sig|asc|pem|json|txt|deb|rpm|apk|msi|pkg|sum)$|^(checksums|SHA256SUMS)/i;

describe.each(PROJECTS)('$repo $tag', (p) => {
  const assets = asAssets(p.assets);
  const opts = { toolName: toolOf(p.repo), version: p.tag };

  it('the asset list has no duplicates', () => {
    expect(new Set(p.assets).size).toBe(p.assets.length);
  });

  it.each(Object.keys(TARGETS) as TargetKey[])('%s', (key) => {
    const target = TARGETS[key];
    const want = p.expect[key];
    if (want === null) {
      let err: unknown;
      try {
        pickAsset(assets, target, opts);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(NoMatchingAssetError);
      const e = err as NoMatchingAssetError;
      expect(e.code).toBe('no_matching_asset');
      // Every asset is listed with its reason.
      expect(e.candidates.map((c) => c.name).sort()).toEqual([...p.assets].sort());
      return;
    }
    const r = pickAsset(assets, target, opts);
    expect(r.chosen.asset.name).toBe(want);
    // Every asset is either ranked or rejected, never both, never lost.
    expect([...r.ranked.map((s) => s.asset.name), ...r.rejected.map((x) => x.name)].sort()).toEqual([...p.assets].sort());
    // The choice is for this OS and arch, and never a gnu build on a musl host.
    expect(r.chosen.reasons).toContain(`os linux`);
    if (target.libc === 'musl') expect(r.chosen.libc).not.toBe('gnu');
    // Nothing that is not an installable archive/binary is ever ranked.
    for (const s of r.ranked) expect(s.asset.name).not.toMatch(NEVER);
  });

  it('checksum, signature, package and foreign assets are rejected with the expected reasons (linux/amd64/glibc)', () => {
    const { rejected } = rankAssets(assets, TARGETS.amd64Glibc, opts);
    const reasons = Object.fromEntries(rejected.map((x) => [x.name, x.reason]));
    for (const [name, reason] of Object.entries(p.rejected)) {
      expect(p.assets, `${name} is in the list`).toContain(name);
      if (typeof reason === 'string') expect(reasons[name], name).toBe(reason);
      else expect(reasons[name], name).toMatch(reason);
    }
    // Every asset matching NEVER is rejected, on every target.
    for (const target of Object.values(TARGETS)) {
      const r = rankAssets(assets, target, opts);
      const rejectedNames = new Set(r.rejected.map((x) => x.name));
      for (const name of p.assets.filter((n) => NEVER.test(n))) expect(rejectedNames.has(name), `${name} rejected on ${JSON.stringify(target)}`).toBe(true);
    }
  });
});

describe('notable decisions, with their scores', () => {
  const find = (repo: string) => PROJECTS.find((p) => p.repo === repo)!;
  const rank = (repo: string, key: TargetKey) => {
    const p = find(repo);
    return rankAssets(asAssets(p.assets), TARGETS[key], { toolName: toolOf(p.repo), version: p.tag }).ranked.map((s) => [s.asset.name, s.score] as const);
  };

  it('eza: the .zip outranks the .tar.gz of the same build by the zip bonus (+5)', () => {
    expect(rank('eza-community/eza', 'amd64Glibc').slice(0, 4)).toEqual([
      ['eza_x86_64-unknown-linux-gnu.zip', 30 + 25 + 10 + 5 + 20],
      ['eza_x86_64-unknown-linux-gnu.tar.gz', 30 + 25 + 10 + 20],
      ['eza_x86_64-unknown-linux-musl.zip', 30 - 10 + 10 + 5 + 20],
      ['eza_x86_64-unknown-linux-musl.tar.gz', 30 - 10 + 10 + 20],
    ]);
  });

  it('bottom: the glibc 2.17 build ties and loses on length', () => {
    expect(rank('ClementTsang/bottom', 'amd64Glibc').slice(0, 2)).toEqual([
      ['bottom_x86_64-unknown-linux-gnu.tar.gz', 85],
      ['bottom_x86_64-unknown-linux-gnu-2-17.tar.gz', 85],
    ]);
  });

  it('hugo: the plain edition gets the stem bonus, extended and withdeploy do not; Linux-64bit is a weak match', () => {
    expect(rank('gohugoio/hugo', 'amd64Glibc')).toEqual([
      ['hugo_0.139.0_linux-amd64.tar.gz', 60],
      // Ties at 40 go to the shorter name.
      ['hugo_0.139.0_Linux-64bit.tar.gz', 40],
      ['hugo_extended_0.139.0_linux-amd64.tar.gz', 40],
      ['hugo_extended_withdeploy_0.139.0_linux-amd64.tar.gz', 40],
      ['hugo_extended_0.139.0_Linux-64bit.tar.gz', 20],
    ]);
  });

  it('mise: gnu build without a libc token beats musl on glibc; tar.gz/tar.xz/tar.zst/bare tie-break by length then code point', () => {
    expect(
      rank('jdx/mise', 'amd64Glibc')
        .map(([n]) => n)
        .slice(0, 4),
    ).toEqual(['mise-v2024.12.14-linux-x64.tar.gz', 'mise-v2024.12.14-linux-x64.tar.xz', 'mise-v2024.12.14-linux-x64.tar.zst', 'mise-v2024.12.14-linux-x64']);
  });

  it('nushell: assets named nu-… get no stem bonus under the repo name', () => {
    expect(rank('nushell/nushell', 'amd64Glibc')[0]).toEqual(['nu-0.100.0-x86_64-unknown-linux-gnu.tar.gz', 30 + 25 + 10]);
  });

  it('trivy: Linux-64bit is a weak amd64 match (+10), Linux-ARM64 a strong arm64 match', () => {
    expect(rank('aquasecurity/trivy', 'amd64Glibc')).toEqual([['trivy_0.58.0_Linux-64bit.tar.gz', 10 + 10 + 20]]);
    expect(rank('aquasecurity/trivy', 'arm64Glibc')).toEqual([['trivy_0.58.0_Linux-ARM64.tar.gz', 30 + 10 + 20]]);
  });
});
