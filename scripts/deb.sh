#!/usr/bin/env bash
# deb.sh [OUTDIR] -- `make deb`: the Debian package (dpkg-buildpackage -us
# -uc -b, from debian/), built in a copy of the source tree so that neither
# the tree nor its parent directory is touched; lintian checks it; the .deb
# files end up in OUTDIR (default deb-out/).  The copy holds the files git
# knows (with their edits) and the untracked ones it does not ignore;
# `sonde --version` names the commit of this tree.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$SRC/deb-out}
W=$(mktemp -d /tmp/sonde-deb.XXXXXX)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/sonde" "$OUT"
git -C "$SRC" ls-files -z --cached --others --exclude-standard |
	tar -C "$SRC" --null --ignore-failed-read -T - -cf - | tar -C "$W/sonde" -xf -
commit=$(git -C "$SRC" describe --always --dirty --abbrev=12 2>/dev/null || true)
echo "deb: building in $W (log: $OUT/build.log)"
(cd "$W/sonde" && SONDE_COMMIT=$commit dpkg-buildpackage -us -uc -b) >"$OUT/build.log" 2>&1 ||
	{ tail -n 30 "$OUT/build.log"; echo "deb: dpkg-buildpackage failed"; exit 1; }
cp "$W"/*.deb "$OUT"/
if command -v lintian >/dev/null; then
	# debian/lintian-overrides explains what remains
	lintian --info "$W"/*.changes >"$OUT/lintian.txt" 2>&1 || true
	echo "deb: lintian: $(grep -c -E '^[EW]: ' "$OUT/lintian.txt" || true) errors and warnings ($OUT/lintian.txt)"
fi
ls -1 "$OUT"/*.deb
