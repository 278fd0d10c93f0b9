#!/usr/bin/env bash
# test_deb.sh -- the Debian package (make deb: dpkg-buildpackage -us -uc from
# debian/, in a copy of the tree): it builds, lintian reports no error and
# no warning, and unpacked into a scratch root its sonde runs and names its
# commit, its manual page renders with `man -l`, and it holds the
# completions and the target library with its CMake and pkg-config files.
# A minute or more of building: a long test (make check-long).
set -euo pipefail
: "${SONDE_SRC:?}"
command -v dpkg-buildpackage >/dev/null || { echo "SKIP: no dpkg-buildpackage (dpkg-dev)"; exit 77; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

bash "$SONDE_SRC/scripts/deb.sh" "$W/out" >"$W/deb.log" 2>&1 || fail "make deb: $(tail -20 "$W/deb.log")"
deb=$(ls "$W"/out/sonde_*.deb)
if [ -f "$W/out/lintian.txt" ]; then
  ! grep -E '^[EW]: ' "$W/out/lintian.txt" || fail "lintian: errors or warnings"
fi
dpkg-deb -x "$deb" "$W/root"
"$W/root/usr/bin/sonde" --version >"$W/version" || fail "sonde --version: exit status $?"
grep -qE '^sonde [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-zA-Z._+~-]+\)$' "$W/version" || fail "version: $(cat "$W/version")"
if commit=$(git -C "$SONDE_SRC" describe --always --abbrev=12 2>/dev/null); then
  grep -qF "(commit $commit" "$W/version" || fail "version names '$(cat "$W/version")', the tree is at $commit"
fi
MANPAGER=cat man -l "$W/root/usr/share/man/man1/sonde.1.gz" >"$W/man.txt" 2>"$W/man.err" ||
  fail "man -l: $(cat "$W/man.err")"
grep -q "^   sonde decode" "$W/man.txt" || fail "the manual page has no sonde decode"
for f in usr/share/bash-completion/completions/sonde usr/share/zsh/vendor-completions/_sonde \
         usr/include/sonde/sonde.h usr/share/sonde/target/sources.mk usr/share/sonde/target/CMakeLists.txt \
         usr/share/cmake/Sonde/SondeConfig.cmake usr/share/pkgconfig/sonde.pc; do
  [ -e "$W/root/$f" ] || fail "the package has no /$f"
done
[ -f "$W/root/usr/share/sonde/target/include/sonde.h" ] || fail "share/sonde/target/include does not lead to the headers"
echo "ok: $(basename "$deb"): lintian clean, $(cat "$W/version"), man -l renders, completions and target library in place"
