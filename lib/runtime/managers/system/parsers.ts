/** Parsers for the system package databases and tool outputs; pure functions over text. */

export interface SystemDbPackage {
  package: string;
  version: string;
  arch?: string;
  summary?: string;
}

/**
 * Installed packages from `/var/lib/dpkg/status`: stanzas of `Field: value` with continuation lines.
 * Only packages whose status word is `installed` count (held packages included; removed ones with
 * leftover config files, half-installed and not-installed ones do not).
 */
export function parseDpkgStatus(text: string): SystemDbPackage[] {
  const out: SystemDbPackage[] = [];
  let cur: Record<string, string> = {};
  const flush = () => {
    const status = cur.status?.trim().split(/\s+/);
    if (cur.package && cur.version && status?.length === 3 && status[1] === 'ok' && status[2] === 'installed') {
      out.push({
        package: cur.package,
        version: cur.version,
        ...(cur.architecture ? { arch: cur.architecture } : {}),
        ...(cur.description ? { summary: cur.description } : {}),
      });
    }
    cur = {};
  };
  for (const line of text.split('\n')) {
    if (line === '' || line === '\r') {
      flush();
      continue;
    }
    if (line[0] === ' ' || line[0] === '\t') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).toLowerCase();
    if (key === 'package' || key === 'status' || key === 'version' || key === 'architecture' || key === 'description') {
      cur[key] = line.slice(colon + 1).trim();
    }
  }
  flush();
  return out;
}

/** Installed packages from apk's `/lib/apk/db/installed`: blank-line separated records of `X:value` lines. */
export function parseApkInstalled(text: string): SystemDbPackage[] {
  const out: SystemDbPackage[] = [];
  let p = '';
  let v = '';
  let t = '';
  let a = '';
  const flush = () => {
    if (p && v) out.push({ package: p, version: v, ...(a ? { arch: a } : {}), ...(t ? { summary: t } : {}) });
    p = v = t = a = '';
  };
  for (const line of text.split('\n')) {
    if (line === '' || line === '\r') {
      flush();
      continue;
    }
    if (line[1] !== ':') continue;
    const value = line.slice(2).trim();
    if (line[0] === 'P') p = value;
    else if (line[0] === 'V') v = value;
    else if (line[0] === 'T') t = value;
    else if (line[0] === 'A') a = value;
  }
  flush();
  return out;
}

/** `apt-cache policy a b …` (LC_ALL=C): Installed and Candidate per package. "(none)" becomes undefined. */
export function parseAptPolicy(text: string): Map<string, { installed?: string; candidate?: string }> {
  const out = new Map<string, { installed?: string; candidate?: string }>();
  let cur: { installed?: string; candidate?: string } | undefined;
  for (const line of text.split('\n')) {
    const head = /^(\S+):\s*$/.exec(line);
    if (head) {
      cur = {};
      out.set(head[1].replace(/:[a-z0-9]+$/, ''), cur);
      continue;
    }
    const field = /^\s+(Installed|Candidate):\s*(\S+)/.exec(line);
    if (cur && field) {
      const value = field[2] === '(none)' ? undefined : field[2];
      if (field[1] === 'Installed') cur.installed = value;
      else cur.candidate = value;
    }
  }
  return out;
}

/** `apk version -l '<'`: lines like `musl-1.2.4-r1   < 1.2.4-r2` (name and version are joined by `-`). */
export function parseApkVersionOutput(text: string): { package: string; current: string; latest: string }[] {
  const out: { package: string; current: string; latest: string }[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\S+?)-(\d[^-\s]*-r\d+)\s+<\s+(\S+)/.exec(line.trim());
    if (m) out.push({ package: m[1], current: m[2], latest: m[3] });
  }
  return out;
}
