// The install-specs stage: the skill's own `metadata.openclaw.install[]` entries that apply here.
// Specs that provide the same programs are alternatives: the first one that can run is used.
import { GO_MODULE_RE } from '../../skills/manifest/install';
import type { InstallSpec } from '../../skills/types';
import { type IndexConfig, npmInstallStep, pythonInstallStep } from './deps';
import { EXTRACT_SCRIPT, FETCH_SCRIPT } from './scripts';
import { GO_PREFIX, INSTALL_TMP, type InstallStep, type PlanProblem, type PlanTarget, type SkippedSpec, TOOLS_ROOT } from './types';
import { checkPackageSpec, checkRelativePath, checkSha256, npmRequirement, pipRequirement } from './values';

const MIN = 60_000;

interface SpecContext {
  skill: string;
  target: PlanTarget;
  index: IndexConfig;
}

type Attempt = { steps: InstallStep[]; python?: boolean } | { problem: PlanProblem };

export interface SpecPlan {
  steps: InstallStep[];
  problems: PlanProblem[];
  skipped: SkippedSpec[];
  /** A chosen spec installs Python packages (the venv must exist first). */
  python: boolean;
}

export function planInstallSpecs(specs: readonly InstallSpec[], ctx: SpecContext): SpecPlan {
  const out: SpecPlan = { steps: [], problems: [], skipped: [], python: false };
  const groups = new Map<string, { index: number; spec: InstallSpec }[]>();
  specs.forEach((spec, index) => {
    if (spec.os?.length && !spec.os.includes('linux')) {
      out.skipped.push({ index, kind: spec.kind, reason: `for ${spec.os.join(', ')} only` });
      return;
    }
    const key = spec.bins.length ? [...spec.bins].sort().join('\0') : `#${index}`;
    groups.set(key, [...(groups.get(key) ?? []), { index, spec }]);
  });
  const present = new Set(ctx.target.presentBins ?? []);
  for (const group of groups.values()) {
    const bins = group[0].spec.bins;
    if (bins.length && bins.every((b) => present.has(b))) {
      for (const g of group) out.skipped.push({ index: g.index, kind: g.spec.kind, reason: `${bins.join(', ')} already in the image` });
      continue;
    }
    const failures: PlanProblem[] = [];
    let chosen = -1;
    for (const g of group) {
      const attempt = planSpec(g.spec, g.index, ctx);
      if ('problem' in attempt) {
        failures.push(attempt.problem);
        continue;
      }
      out.steps.push(...attempt.steps);
      out.python ||= !!attempt.python;
      chosen = g.index;
      break;
    }
    if (chosen === -1) out.problems.push(...failures);
    for (const g of group) {
      if (chosen !== -1 && g.index !== chosen)
        out.skipped.push({ index: g.index, kind: g.spec.kind, reason: `installer ${chosen + 1} provides the same programs` });
    }
  }
  return out;
}

function label(spec: InstallSpec, index: number): string {
  return spec.label ?? `installer ${index + 1} (${spec.kind})`;
}

function planSpec(spec: InstallSpec, index: number, ctx: SpecContext): Attempt {
  const { has } = ctx.target;
  const missing = (tool: string, why: string): Attempt => ({
    problem: { code: 'unresolved_precondition', requirement: tool, message: `${label(spec, index)} needs ${tool} in the image${why}` },
  });
  switch (spec.kind) {
    case 'brew':
      return {
        problem: {
          code: 'unsupported_install',
          kind: 'brew',
          value: spec.formula ?? '',
          message: `${label(spec, index)} uses Homebrew, which does not run in a Linux sandbox; install ${spec.bins.join(', ') || 'it'} into the image another way`,
        },
      };
    case 'node': {
      if (!has.npm) return missing('npm', '');
      const checked = checkPackageSpec(spec.packageSpec ?? `npm:${spec.package ?? ''}`, `install[${index}].package`);
      if (!checked.ok) return { problem: checked.problem };
      return { steps: [npmInstallStep([npmRequirement(checked.value)], ctx.index, 'install-specs', label(spec, index))] };
    }
    case 'uv': {
      if (!has.python3) return missing('python3', '');
      if (!has.uv && !has.pip) return missing('uv or pip', '');
      const checked = checkPackageSpec(spec.packageSpec ?? `pip:${spec.package ?? ''}`, `install[${index}].package`);
      if (!checked.ok) return { problem: checked.problem };
      const step = pythonInstallStep([pipRequirement(checked.value)], ctx.index, has.uv ? 'uv' : 'pip', label(spec, index));
      return { steps: [{ ...step, stage: 'install-specs' }], python: true };
    }
    case 'go':
      return planGo(spec, index, ctx, missing);
    default:
      return planDownload(spec, index, ctx, missing);
  }
}

function planGo(spec: InstallSpec, index: number, ctx: SpecContext, missing: (tool: string, why: string) => Attempt): Attempt {
  if (!ctx.target.has.go) return missing('go', ' (go install builds the program)');
  const mod = spec.module ?? '';
  if (!GO_MODULE_RE.test(mod) || mod.startsWith('-') || mod.split('/').includes('..')) {
    return {
      problem: {
        code: 'invalid_value',
        field: `install[${index}].module`,
        value: mod.slice(0, 120),
        message: `"${mod.slice(0, 120)}" is not a Go module path`,
      },
    };
  }
  const gopath = `${INSTALL_TMP}/gopath`;
  return {
    steps: [
      {
        stage: 'install-specs',
        title: label(spec, index),
        argv: ['go', 'install', mod.includes('@') ? mod : `${mod}@latest`],
        // The module cache stays in /tmp (wiped before the snapshot); -modcacherw lets the wipe delete it.
        env: { GOBIN: `${GO_PREFIX}/bin`, GOPATH: gopath, GOCACHE: `${INSTALL_TMP}/gocache`, GOFLAGS: '-modcacherw', GOTOOLCHAIN: 'local' },
        cwd: '/tmp',
        timeoutMs: 15 * MIN,
      },
    ],
  };
}

const ARCHIVE_SUFFIX: [string, 'tar.gz' | 'tar.bz2' | 'zip'][] = [
  ['.tar.gz', 'tar.gz'],
  ['.tgz', 'tar.gz'],
  ['.tar.bz2', 'tar.bz2'],
  ['.tbz2', 'tar.bz2'],
  ['.zip', 'zip'],
];

function planDownload(spec: InstallSpec, index: number, ctx: SpecContext, missing: (tool: string, why: string) => Attempt): Attempt {
  const { has } = ctx.target;
  const url = spec.url ?? '';
  const invalid = (field: string, value: string, message: string): Attempt => ({
    problem: { code: 'invalid_value', field: `install[${index}].${field}`, value: value.slice(0, 200), message },
  });
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.username || parsed.password || /[\s\0-\x1f]/.test(url)) {
    return invalid('url', url, `"${url.slice(0, 200)}" is not an http(s) URL without credentials`);
  }
  const sha256 = checkSha256(spec.sha256);
  if (!sha256) {
    return {
      problem: {
        code: 'download_unverified',
        value: url.slice(0, 200),
        message: `${label(spec, index)} has no sha256, so what it downloads cannot be checked; add the file's sha256 to the installer`,
      },
    };
  }
  const fetcher = has.curl ? 'curl' : has.wget ? 'wget' : has.python3 ? 'python3' : null;
  if (!fetcher) return missing('curl, wget or python3', ' to download');
  const dir = spec.targetDir ? checkRelativePath(spec.targetDir) : null;
  if (dir && !dir.ok) return { problem: dir.problem };
  const base = `${TOOLS_ROOT}/${ctx.skill}${dir ? `/${dir.value}` : ''}`;
  const pathname = parsed.pathname.toLowerCase();
  const format = spec.archive ?? ARCHIVE_SUFFIX.find(([suffix]) => pathname.endsWith(suffix))?.[1];
  const extract = spec.extract ?? !!spec.archive;
  const href = parsed.href;
  const fetch = (dest: string): InstallStep => ({
    stage: 'install-specs',
    title: `${label(spec, index)}: download and check sha256`,
    argv: ['sh', '-c', FETCH_SCRIPT, 'skilldock-fetch', fetcher, href, dest, sha256],
    timeoutMs: 15 * MIN,
  });
  if (!extract) {
    const name = checkRelativePath(decodeURIComponentSafe(parsed.pathname.split('/').pop() ?? ''));
    if (!name.ok || name.value.includes('/')) return invalid('url', url, `the URL of ${label(spec, index)} does not end in a usable file name`);
    return { steps: [fetch(`${base}/${name.value}`)] };
  }
  if (!format) return invalid('archive', '', `${label(spec, index)} extracts, but its archive type is unknown; set "archive" to tar.gz, tar.bz2 or zip`);
  const strip = spec.stripComponents ?? 0;
  let mode: string = format;
  if (format === 'zip') {
    if (strip > 0)
      return {
        problem: {
          code: 'unsupported_install',
          kind: 'download',
          value: url.slice(0, 200),
          message: `${label(spec, index)}: stripComponents is not supported for zip archives`,
        },
      };
    if (has.python3) mode = 'zip-python';
    else if (has.unzip) mode = 'zip-unzip';
    else return missing('python3 or unzip', ' to unpack a zip archive');
  }
  const archive = `${INSTALL_TMP}/download-${index}.${format}`;
  return {
    steps: [
      fetch(archive),
      {
        stage: 'install-specs',
        title: `${label(spec, index)}: unpack`,
        argv: ['sh', '-c', EXTRACT_SCRIPT, 'skilldock-extract', archive, base, String(strip), mode],
        timeoutMs: 10 * MIN,
      },
    ],
  };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return '';
  }
}
