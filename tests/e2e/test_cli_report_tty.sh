#!/usr/bin/env bash
# test_cli_report_tty.sh -- `sonde report` without -o on a terminal (a
# pseudo-terminal from script(1)) writes no HTML to it: the report goes to
# the input's name with .html in the current directory, and stderr says
# so; standard input (no name) is refused with status 2; a pipe still gets
# the page on standard output, and -o still names the file.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup

{
	session 1000000
	tsync 5000 0xffffffff
	tf 0x0c 6000 1
} >"$TMP/trace.bin"
mkdir "$TMP/cwd" "$TMP/in"
cp "$TMP/trace.bin" "$TMP/in/my.trace.bin"
# on_tty CMD: run CMD in $TMP/cwd with stdin, stdout and stderr on a pty
on_tty() { (cd "$TMP/cwd" && script -qec "$1" /dev/null) >"$OUT" 2>&1; }

on_tty "'$SONDE' report -q '$TMP/in/my.trace.bin@core=1'" || fail "tty: status $?: $(cat "$OUT")"
expect_has "$OUT" "sonde report: standard output is a terminal: writing the report to 'my.trace.html'"
grep -qi "<html\|<!DOCTYPE" "$OUT" && fail "HTML written to the terminal"
head -c 15 "$TMP/cwd/my.trace.html" | grep -qi "<!DOCTYPE html>" || fail "no report in my.trace.html"
[[ $(ls "$TMP/cwd") == my.trace.html ]] || fail "files: $(ls "$TMP/cwd")"

# standard input has no name
rc=0
on_tty "'$SONDE' report - <'$TMP/trace.bin'" || rc=$?
[[ $rc -eq 2 ]] || fail "stdin on a tty: status $rc: $(cat "$OUT")"
expect_has "$OUT" "give -o FILE.html"

# -o on a tty; a pipe
on_tty "'$SONDE' report -q '$TMP/trace.bin' -o r.html" || fail "-o: $(cat "$OUT")"
[[ -s $TMP/cwd/r.html && ! -e $TMP/cwd/trace.html ]] || fail "-o on a tty: $(ls "$TMP/cwd")"
"$SONDE" report -q "$TMP/trace.bin" | head -c 15 | grep -qi "<!DOCTYPE html>" || fail "pipe: no HTML"
echo "PASS"
