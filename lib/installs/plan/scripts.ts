// Constant scripts of the install plan. Values are never spliced into them: each is run as
// `sh -c SCRIPT <name> value…` (or `python3 -c SCRIPT value…`) and reads its values as $1… / sys.argv.

/** $1 archive, $2 staging folder, $3 final skill folder: unpack next to it, then swap it in. */
export const UNPACK_SCRIPT = `set -eu
archive=$1 staging=$2 final=$3
rm -rf -- "$staging"
mkdir -p -- "$staging"
tar -x -o -f "$archive" -C "$staging"
rm -rf -- "$final"
mv -- "$staging" "$final"
rm -f -- "$archive"
`;

/** $1 the venv folder: created once (with the image's site-packages visible), kept afterwards. */
export const VENV_SCRIPT = `set -eu
[ -x "$1/bin/python3" ] || python3 -m venv --without-pip --system-site-packages "$1"
`;

/**
 * $1 fetcher (curl, wget or python3), $2 URL, $3 destination file, $4 expected sha256. Downloads to a
 * temporary file next to the destination, checks the hash, then moves it into place. Never runs it.
 */
export const FETCH_SCRIPT = `set -eu
fetcher=$1 url=$2 dest=$3 want=$4
tmp="$dest.part"
rm -f -- "$tmp"
mkdir -p -- "$(dirname -- "$dest")"
case "$fetcher" in
  curl) curl -fsSL --proto '=https,http' --max-redirs 5 --retry 2 -o "$tmp" "$url" ;;
  wget) wget -q -O "$tmp" "$url" ;;
  python3) python3 -c 'import shutil, sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=60) as r, open(sys.argv[2], "wb") as f:
    shutil.copyfileobj(r, f)' "$url" "$tmp" ;;
  *) echo "unknown fetcher: $fetcher" >&2; exit 2 ;;
esac
if command -v sha256sum >/dev/null 2>&1; then
  got=$(sha256sum < "$tmp" | cut -d' ' -f1)
else
  got=$(python3 -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$tmp")
fi
if [ "$got" != "$want" ]; then
  rm -f -- "$tmp"
  echo "sha256_mismatch: expected $want, got $got" >&2
  exit 1
fi
mv -f -- "$tmp" "$dest"
`;

/** $1 archive, $2 folder, $3 strip components (tar only), $4 format: unpack, then drop the archive. */
export const EXTRACT_SCRIPT = `set -eu
archive=$1 dir=$2 strip=$3 format=$4
mkdir -p -- "$dir"
case "$format" in
  tar.gz) tar -x -o -z -f "$archive" -C "$dir" --strip-components="$strip" ;;
  tar.bz2) tar -x -o -j -f "$archive" -C "$dir" --strip-components="$strip" ;;
  zip-python) python3 -m zipfile -e "$archive" "$dir" ;;
  zip-unzip) unzip -q -o "$archive" -d "$dir" ;;
  *) echo "unknown archive format: $format" >&2; exit 2 ;;
esac
rm -f -- "$archive"
`;

/** $@ folders whose content is removed (the folders stay). */
export const WIPE_SCRIPT = `for d; do
  [ -d "$d" ] || continue
  find "$d" -mindepth 1 -maxdepth 1 -exec rm -rf -- {} + 2>/dev/null || true
done
`;

/** $@ program names: each must be on PATH. */
export const BINS_SCRIPT = `for b; do command -v "$b" >/dev/null 2>&1 || { echo "missing: $b"; exit 1; }; done`;

/** $@ program names: at least one must be on PATH. */
export const ANY_BINS_SCRIPT = `for b; do command -v "$b" >/dev/null 2>&1 && exit 0; done; echo "missing any of: $*"; exit 1`;

/** $1 skill folder, then triples path size sha256|-: every file is still there with its size and hash. */
export const FILES_SCRIPT = `dir=$1; shift
while [ $# -ge 3 ]; do
  f=$1 size=$2 hash=$3; shift 3
  [ -f "$dir/$f" ] || { echo "file_missing: $f"; exit 1; }
  got=$(wc -c < "$dir/$f" | tr -d ' ')
  [ "$got" = "$size" ] || { echo "file_changed: $f"; exit 1; }
  if [ "$hash" != - ] && command -v sha256sum >/dev/null 2>&1; then
    got=$(sha256sum < "$dir/$f" | cut -d' ' -f1)
    [ "$got" = "$hash" ] || { echo "file_changed: $f"; exit 1; }
  fi
done
`;

/** sys.argv[1:] module names: each imports; a failure prints `import_failed: <module>: <error>`. */
export const IMPORTS_SCRIPT = `import importlib, sys
failed = 0
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except BaseException as e:
        failed += 1
        print("import_failed: %s: %s: %s" % (name, type(e).__name__, str(e).splitlines()[0] if str(e) else ""))
sys.exit(1 if failed else 0)
`;
