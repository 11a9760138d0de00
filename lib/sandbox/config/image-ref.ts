// A Docker image reference checked part by part with anchored, linear patterns: only the grammar
// of `[registry[:port]/]path[:tag][@sha256:digest]` passes, so nothing shell- or flag-like does.
const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const REGISTRY = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*(?::[0-9]{1,5})?$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

/** Why `ref` is not a valid image reference, or null when it is. */
export function imageRefProblem(ref: string): string | null {
  if (ref.length === 0) return 'Enter an image, e.g. busybox:1.36 or registry.example.com/team/tools:2.1.';
  if (ref.length > 255) return 'An image reference is at most 255 characters.';
  let rest = ref;
  const at = rest.indexOf('@');
  if (at >= 0) {
    if (!DIGEST.test(rest.slice(at + 1))) return 'A digest must be @sha256: followed by 64 lower-case hex digits.';
    rest = rest.slice(0, at);
  }
  const slash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > slash) {
    if (!TAG.test(rest.slice(colon + 1))) return 'A tag has letters, digits, "_", "." and "-" only (at most 128, not starting with "." or "-").';
    rest = rest.slice(0, colon);
  }
  const parts = rest.split('/');
  if (parts.length > 1 && /[.:]|^localhost$/.test(parts[0])) {
    if (!REGISTRY.test(parts[0])) return `"${parts[0].slice(0, 80)}" is not a registry host name.`;
    parts.shift();
  }
  if (parts.length === 0 || parts.some((p) => !COMPONENT.test(p)))
    return 'An image name has lower-case letters and digits, separated by ".", "_", "__", "-" or "/" (no spaces or shell characters).';
  return null;
}
