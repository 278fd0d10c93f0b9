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

# What the package build needs beyond scripts/deps.sh: debian/control's
# Build-Depends (debhelper-compat, ...; apt-get build-dep reads them from
# the tree) and lintian, installed as root the way deps.sh does, or named.
build_deps_met() { (cd "$SRC" && dpkg-checkbuilddeps) >/dev/null 2>&1 && command -v lintian >/dev/null; }
if ! build_deps_met; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "deb: missing build dependencies or lintian:" >&2
		(cd "$SRC" && dpkg-checkbuilddeps) || true
		echo "deb: run: sudo apt-get build-dep -y '$SRC' && sudo apt-get install -y lintian" >&2
		exit 1
	fi
	echo "deb: installing the build dependencies of debian/control and lintian"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get build-dep -y -qq --no-install-recommends "$SRC" >/dev/null
	apt-get install -y -qq --no-install-recommends lintian >/dev/null
	build_deps_met || { (cd "$SRC" && dpkg-checkbuilddeps) || true; echo "deb: still missing, see above" >&2; exit 1; }
fi
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
# lintian always runs (installed above); an error fails the build,
# warnings are counted (debian/sonde.lintian-overrides explains what remains)
lrc=0
lintian --info "$W"/*.changes >"$OUT/lintian.txt" 2>&1 || lrc=$?
errors=$(grep -c -E '^E: ' "$OUT/lintian.txt" || true)
warnings=$(grep -c -E '^W: ' "$OUT/lintian.txt" || true)
echo "deb: lintian: $errors errors, $warnings warnings ($OUT/lintian.txt)"
if [ "$errors" -ne 0 ] || [ "$lrc" -ge 2 ]; then  # 1: tags at the fail-on level, 2: lintian failed
	grep -E '^E: ' "$OUT/lintian.txt" || tail -n 20 "$OUT/lintian.txt"
	echo "deb: lintian failed (status $lrc)"
	exit 1
fi
ls -1 "$OUT"/*.deb
