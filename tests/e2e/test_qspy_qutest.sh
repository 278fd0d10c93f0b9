#!/usr/bin/env bash
# sonde-test: once
# test_qspy_qutest.sh -- the real thing: QP/C's own QUTest example suites,
# built for the host (POSIX port) with QP/C's Makefiles, run by qtools'
# qutest.py against QSPY and then against `sonde qspy` in its place; every
# test that passes against QSPY passes against Sonde.
#
# Neither QP/C nor qtools is part of Sonde: without QPC_PATH (QP/C 7.x
# sources with examples/qutest and ports/posix-qutest) and QTOOLS_PATH
# (qtools with qutest/qutest.py and qspy/), or without make, gcc or
# python3, the test is skipped (exit 77) and says why.  QSPY is built from
# $QTOOLS_PATH/qspy and everything is built in a temporary directory.
# Runs in the plain build only ("once"): qutest.py's targets always connect
# to TCP port 6601, which the sanitizer suite running side by side would
# want at the same time; `sonde qspy` under the sanitizers is checked by
# test_qspy_frontend.sh.
set -uo pipefail
source "$(dirname "$0")/wait_lib.sh"
: "${SONDE:?}"

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -n "${QPC_PATH:-}" ] && [ -n "${QTOOLS_PATH:-}" ] ||
	skip "set QPC_PATH (QP/C 7.x sources) and QTOOLS_PATH (qtools with qutest/ and qspy/) to run QP/C's QUTest suites against sonde qspy"
for t in make gcc python3; do command -v $t >/dev/null || skip "$t is not installed"; done
[ -d "$QPC_PATH/examples/qutest" ] && [ -d "$QPC_PATH/ports/posix-qutest" ] || skip "$QPC_PATH has no examples/qutest or ports/posix-qutest"
[ -f "$QTOOLS_PATH/qutest/qutest.py" ] && [ -d "$QTOOLS_PATH/qspy/posix" ] || skip "$QTOOLS_PATH has no qutest/qutest.py or qspy/posix"

WORK=$(mktemp -d)
SERVER=
cleanup() {
	[ -n "$SERVER" ] && kill -TERM "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

# ---- QSPY, built outside the source trees ----------------------------------------
mkdir -p "$WORK/qtools/bin"
cp -r "$QTOOLS_PATH/qspy" "$WORK/qtools/qspy"
make -C "$WORK/qtools/qspy/posix" CONF=rel >"$WORK/qspy-build.log" 2>&1 || { tail -20 "$WORK/qspy-build.log"; fail "QSPY does not build"; }
QSPY=$WORK/qtools/qspy/posix/rel/qspy

# ---- the suites: QP/C's qutest examples (Makefiles that run QUTEST, with scripts) --
cp -r "$QPC_PATH/examples/qutest" "$WORK/ex"
suites=()
for mk in "$WORK"/ex/*/*/Makefile; do
	d=$(dirname "$mk")
	grep -q 'QUTEST' "$mk" && compgen -G "$d/*.py" >/dev/null && suites+=("$d")
done
[ ${#suites[@]} -gt 0 ] || fail "no QUTest suites in $QPC_PATH/examples/qutest"
built=()
for d in "${suites[@]}"; do
	if make -C "$d" QPC="$QPC_PATH" QTOOLS="$QTOOLS_PATH" norun >"$d/build.log" 2>&1; then
		built+=("$d")
	else
		echo "note: ${d#$WORK/ex/} does not build for the host (skipped): $(grep -m1 -i error "$d/build.log")"
	fi
done

# listening: QSPY's ports are in use (UDP 7701 bound, TCP 6601 listening);
# free_ports: neither is
udp_on() { awk -v p=":1E15$" '$2 ~ p' /proc/net/udp | grep -q .; }
tcp_on() { awk -v p=":19C9$" '$2 ~ p && $4 == "0A"' /proc/net/tcp | grep -q .; }
listening() { udp_on && tcp_on; }
free_ports() { ! udp_on && ! tcp_on; }

# QSPY reads its keyboard even with -k (select on fd 0): a stdin at its end
# would keep it busy, so it gets a FIFO that is open but silent.
mkfifo "$WORK/stdin"
exec 9<>"$WORK/stdin"

# run SERVER-NAME: every suite against it; results in $WORK/NAME.results
# (lines "suite test-number PASS|FAIL|SKIP")
run_all() {
	local name=$1 d
	shift
	: >"$WORK/$name.results"
	for d in "${built[@]}"; do
		wait_for free_ports || fail "ports 7701/6601 stay in use"
		mkdir -p "$WORK/run-$name"
		(cd "$WORK/run-$name" && exec "$@" <"$WORK/stdin") >"$WORK/$name.server.log" 2>&1 &
		SERVER=$!
		wait_for -p $SERVER -l "$WORK/$name.server.log" listening || fail "$name does not listen on 7701/6601"
		(cd "$d" && timeout "$HANG" make QPC="$QPC_PATH" QTOOLS="$QTOOLS_PATH" run) >"$d/$name.log" 2>&1
		kill -TERM $SERVER 2>/dev/null
		wait $SERVER 2>/dev/null
		SERVER=
		cat "$WORK/$name.server.log" >>"$WORK/$name.servers.log"
		sed 's/\x1b\[[0-9;]*[A-Za-z]//g' "$d/$name.log" | awk -v s="${d#$WORK/ex/}" '
			/^\[ *[0-9]+\][-^ ]/ { n = $0; sub(/^\[ */, "", n); sub(/\].*/, "", n) }
			/\[ PASS/ { print s, n, "PASS" } /\[ FAIL/ { print s, n, "FAIL" } /\[ SKIPPED \]/ { print s, n, "SKIP" }' >>"$WORK/$name.results"
	done
}

run_all qspy "$QSPY" -k -u -t
run_all sonde "$SONDE" qspy -k -u -t

pass_q=$(grep -c ' PASS$' "$WORK/qspy.results")
pass_s=$(grep -c ' PASS$' "$WORK/sonde.results")
[ "$pass_q" -gt 0 ] || { cat "$WORK/qspy.servers.log" | tail -40; fail "no test passes against QSPY: the harness is broken"; }
missing=$(grep ' PASS$' "$WORK/qspy.results" | while read -r s n _; do
	grep -qx "$s $n PASS" "$WORK/sonde.results" || echo "$s#$n"
done)
echo "QP/C $(grep -o 'QP_VERSION_STR *"[^"]*"' "$QPC_PATH/include/qpc.h" "$QPC_PATH/include/qp.h" 2>/dev/null | head -1 | grep -o '"[^"]*"'), qutest.py $(python3 "$QTOOLS_PATH/qutest/qutest.py" -v 2>/dev/null | tail -1 | awk '{print $4}')"
echo "suites: ${#built[@]} of ${#suites[@]} built: $(for d in "${built[@]}"; do printf '%s ' "${d#$WORK/ex/}"; done)"
echo "tests passing against QSPY: $pass_q, against sonde qspy: $pass_s"
for s in $(awk '{print $1}' "$WORK/qspy.results" | sort -u); do
	echo "  $s: QSPY $(grep -c "^$s .* PASS$" "$WORK/qspy.results")/$(grep -c "^$s " "$WORK/qspy.results") passed," \
		"sonde $(grep -c "^$s .* PASS$" "$WORK/sonde.results")/$(grep -c "^$s " "$WORK/sonde.results")$(
		for r in qspy sonde; do
			f=$(awk -v s="$s" '$1 == s && $3 == "FAIL" { printf " %s", $2 }' "$WORK/$r.results")
			[ -n "$f" ] && printf '; failing against %s:%s' "$r" "$f"
		done)"
done
if [ -n "$missing" ]; then
	for m in $missing; do
		s=${m%#*}
		echo "--- $s (against sonde qspy)"
		sed 's/\x1b\[[0-9;]*[A-Za-z]//g' "$WORK/ex/$s/sonde.log" | grep -B3 -A6 'FAIL' | head -40
	done
	tail -30 "$WORK/sonde.servers.log"
	fail "tests that pass against QSPY fail against sonde qspy: $missing"
fi
echo "sonde qspy's loss accounting over the runs: $(grep -E '^(sequence gaps|unexplained lost)' "$WORK/sonde.servers.log" | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
echo "PASS: every QUTest test that passes against QSPY passes against sonde qspy"
