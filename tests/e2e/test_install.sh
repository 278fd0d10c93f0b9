#!/usr/bin/env bash
# sonde-test: once
# test_install.sh -- `cmake --install` into a scratch root (DESTDIR, prefix
# /usr, as a package does): the installed sonde runs and names its commit,
# its manual page renders without a groff warning and has every command, the
# bash completion completes commands, options and formats from the installed
# program, the zsh completion parses, and a firmware-style project finds the
# target library with find_package(Sonde) (sonde::target) and with
# pkg-config, builds it and records a trace with it.
set -euo pipefail
: "${SONDE_BUILD:?}" "${SONDE_SRC:?}"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
ROOT=$W/root

DESTDIR=$ROOT cmake --install "$SONDE_BUILD" --prefix /usr >"$W/install.log" ||
  fail "cmake --install: $(tail -5 "$W/install.log")"
S=$ROOT/usr/bin/sonde
[ -x "$S" ] || fail "no $S"

# ---- the program ----------------------------------------------------------
"$S" --version >"$W/version" || fail "sonde --version: exit status $?"
grep -qE '^sonde [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-zA-Z._-]+\)$' "$W/version" ||
  fail "sonde --version: $(cat "$W/version")"
echo "ok: $(cat "$W/version")"

# ---- the manual page --------------------------------------------------------
M=$ROOT/usr/share/man/man1/sonde.1
[ -f "$M" ] || fail "no $M"
MANPAGER=cat MANWIDTH=100 man -l "$M" >"$W/man.txt" 2>"$W/man.err" || fail "man -l: $(cat "$W/man.err")"
[ ! -s "$W/man.err" ] || fail "man -l: $(cat "$W/man.err")"
groff -man -Tutf8 -ww -z "$M" 2>"$W/groff.err" || fail "groff: $(cat "$W/groff.err")"
[ ! -s "$W/groff.err" ] || fail "groff warnings: $(head -5 "$W/groff.err")"
for section in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" EXAMPLES FILES; do
  grep -q "^$section" "$W/man.txt" || fail "manual page: no section $section"
done
"$S" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && !/^  / { exit }' >"$W/cmds"
[ "$(wc -l <"$W/cmds")" -ge 5 ] || fail "sonde --help lists $(wc -l <"$W/cmds") commands"
while read -r c; do
  [ "$c" = help ] && continue
  grep -q "^   sonde $c\$" "$W/man.txt" || fail "manual page: no command $c"
  grep -q "usage: sonde $c" "$W/man.txt" || fail "manual page: no usage of $c"
done <"$W/cmds"
echo "ok: man -l renders $(wc -l <"$W/man.txt") lines, every command, no groff warning"

# ---- completion -------------------------------------------------------------
B=$ROOT/usr/share/bash-completion/completions/sonde
[ -f "$B" ] || fail "no $B"
formats=$("$S" help decode | awk '/^formats/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && !/^  / { exit }' | sort | tr '\n' ' ')
PATH=$ROOT/usr/bin:$PATH bash -c '
  source "$1"
  t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _sonde; printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "; echo; }
  t sonde ""
  t sonde decode --for
  t sonde decode --format ""
  t sonde stats --proto s' _ "$B" >"$W/compl"
sed -n 1p "$W/compl" | grep -q 'decode .*stats' || fail "bash completion of commands: $(sed -n 1p "$W/compl")"
[ "$(sed -n 2p "$W/compl")" = "--format " ] || fail "bash completion of --for: $(sed -n 2p "$W/compl")"
[ "$(sed -n 3p "$W/compl")" = "$formats" ] || fail "bash completion of formats: '$(sed -n 3p "$W/compl")', want '$formats'"
[ "$(sed -n 4p "$W/compl")" = "sonde stp syst " ] || fail "bash completion of protocols: $(sed -n 4p "$W/compl")"
Z=$ROOT/usr/share/zsh/site-functions/_sonde
[ -f "$Z" ] || fail "no $Z"
if command -v zsh >/dev/null; then
  zsh -n "$Z" || fail "zsh completion does not parse"
fi
echo "ok: bash completion (commands, options, formats, protocols)$(command -v zsh >/dev/null && echo ', zsh completion parses')"

# ---- the target library for firmware ------------------------------------------
mkdir -p "$W/app"
cat >"$W/app/main.c" <<'C'
#include <stdio.h>
#include "sonde.h"
static uint8_t buf[1024];
int main(void)
{
	int b;
	size_t n = 0;
	sonde_init(buf, sizeof buf, SONDE_MODE_OVERWRITE);
	sonde_isr_enter(3);
	sonde_isr_exit(3);
	while ((b = sonde_drain_byte()) >= 0) {
		putchar(b);
		n++;
	}
	return n == 0;
}
C
cat >"$W/app/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.13)
project(app C)
find_package(Sonde REQUIRED)
add_executable(app main.c)
target_link_libraries(app PRIVATE sonde::target)
CM
cmake -S "$W/app" -B "$W/app/build" -DCMAKE_PREFIX_PATH="$ROOT/usr" >"$W/app.log" 2>&1 ||
  fail "find_package(Sonde): $(tail -5 "$W/app.log")"
cmake --build "$W/app/build" >>"$W/app.log" 2>&1 || fail "building against sonde::target: $(tail -5 "$W/app.log")"
# its trace, decoded by the installed sonde: the two records it wrote
records() { "$S" decode --proto sonde --format text - <"$1" | awk '{ print $3, $4 }' | grep ISR_ | tr '\n' ' '; }
"$W/app/build/app" >"$W/app.trace" || fail "the app's trace is empty"
want="ISR_ENTER isr=3 ISR_EXIT isr=3 "
[ "$(records "$W/app.trace")" = "$want" ] || fail "the app's trace: '$(records "$W/app.trace")'"
echo "ok: find_package(Sonde) -> sonde::target builds; the app's trace decodes: $want"

PC="env PKG_CONFIG_PATH=$ROOT/usr/share/pkgconfig pkg-config" # sonde.pc is relocatable
cflags=$($PC --cflags sonde) || fail "pkg-config --cflags sonde"
mk=$($PC --variable=sonde_mk sonde)
ports=$($PC --variable=ports sonde)
[ -f "$mk" ] || fail "pkg-config sonde_mk: $mk missing"
cat >"$W/app/Makefile" <<MK
SONDE_DIR := $(dirname "$mk")
include \$(SONDE_DIR)/sources.mk
app-mk: main.c \$(SONDE_SRCS) $ports/posix/sonde_port_posix.c
	cc -std=c11 -o \$@ $cflags -I$ports/posix \$^ -lpthread
MK
make -s -C "$W/app" app-mk >>"$W/app.log" 2>&1 || fail "Makefile build with pkg-config: $(tail -5 "$W/app.log")"
"$W/app/app-mk" >"$W/app-mk.trace" || fail "the Makefile build's trace is empty"
[ "$(records "$W/app-mk.trace")" = "$want" ] || fail "the Makefile build's trace: '$(records "$W/app-mk.trace")'"
echo "ok: pkg-config sonde ($cflags) and sources.mk build the same program"
