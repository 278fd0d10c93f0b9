#!/usr/bin/env bash
# test.sh -- the test run of `make test`: the plain and the sanitizer
# (ASan + UBSan) suites at the same time, each with ctest -j, and the fuzz
# smoke step beside them when there is one.  Most end-to-end tests spend
# their time waiting on a link or a process, so on a 2-core machine two
# suites side by side take about as long as the longer one alone.  Every
# output line is prefixed with its suite; at the end come the failures, the
# slowest tests of each suite and the wall-clock time.
#
#   scripts/test.sh [BUILD [BUILD_SAN]]     (both built already: make test does it)
#
# Environment: TEST_JOBS (ctest -j for each suite; default: cores + 1),
# CTEST_ARGS (more ctest options, e.g. "-R live"), FUZZ_SMOKE (the fuzz
# smoke script, default scripts/fuzz_smoke.sh if it exists: it gets the
# plain build directory and should take about a minute), LONG=1 (run the
# soak tests, label "long", instead of the others: `make check-long`).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
BUILD_SAN=${2:-build-san}
CORES=$(nproc 2>/dev/null || echo 2)
TEST_JOBS=${TEST_JOBS:-$((CORES + 1))}
FUZZ_SMOKE=${FUZZ_SMOKE:-scripts/fuzz_smoke.sh}
if [ "${LONG:-0}" = 1 ]; then
	SELECT=(-L long)
else
	SELECT=(-LE long)
fi
read -r -a EXTRA <<<"${CTEST_ARGS:-}"

t0=$(date +%s.%N)
pids=()
names=()

# suite NAME DIR [ENV=VALUE...]: ctest in DIR, in the background
suite() {
	local name=$1 dir=$2
	shift 2
	(
		env "$@" ctest --test-dir "$dir" -j "$TEST_JOBS" --output-on-failure --output-junit junit.xml \
			"${SELECT[@]}" "${EXTRA[@]}" 2>&1
		echo $? >"$dir/ctest.rc"
	) | sed -u "s/^/[$name] /" &
	pids+=($!)
	names+=("$name:$dir")
}

rm -f "$BUILD/ctest.rc" "$BUILD_SAN/ctest.rc"
suite plain "$BUILD"
if [ -d "$BUILD_SAN" ]; then
	suite san "$BUILD_SAN" ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
if [ "${LONG:-0}" != 1 ] && [ -x "$FUZZ_SMOKE" ]; then
	(
		"$FUZZ_SMOKE" "$BUILD" 2>&1
		echo $? >"$BUILD/fuzz-smoke.rc"
	) | sed -u "s/^/[fuzz] /" &
	pids+=($!)
	names+=("fuzz:$BUILD")
fi
for p in "${pids[@]}"; do
	wait "$p"
done
t1=$(date +%s.%N)

rc=0
echo
for n in "${names[@]}"; do
	name=${n%%:*}
	dir=${n#*:}
	if [ "$name" = fuzz ]; then
		r=$(cat "$dir/fuzz-smoke.rc" 2>/dev/null || echo 1)
		echo "fuzz smoke: $([ "$r" -eq 0 ] && echo passed || echo "FAILED (status $r)")"
		[ "$r" -eq 0 ] || rc=1
		continue
	fi
	r=$(cat "$dir/ctest.rc" 2>/dev/null || echo 1)
	[ "$r" -eq 0 ] || rc=1
	python3 - "$name" "$dir/junit.xml" "$r" <<'PY'
import sys, xml.etree.ElementTree as ET
name, path, rc = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    cases = ET.parse(path).getroot().iter("testcase")
except (OSError, ET.ParseError) as e:
    print("%s: no results (%s)" % (name, e)); sys.exit(0)
rows = []
for c in cases:
    st = c.get("status", "run")
    if c.find("failure") is not None: st = "FAILED"
    elif c.find("skipped") is not None or st == "notrun": st = "skipped"
    else: st = "passed"
    rows.append((float(c.get("time", 0)), c.get("name"), st))
failed = [r for r in rows if r[2] == "FAILED"]
print("%s: %d tests, %d failed, %d skipped, %.0f s of test time (status %d)" % (
    name, len(rows), len(failed), sum(r[2] == "skipped" for r in rows), sum(r[0] for r in rows), rc))
for t, n, st in failed:
    print("  FAILED  %7.2f s  %s" % (t, n))
print("  slowest: " + ", ".join("%s %.1f s" % (n, t) for t, n, st in sorted(rows, reverse=True)[:8]))
PY
	# a skipped test says why on a line "SKIP: ..." (ctest keeps it in its log)
	grep -h '^SKIP:' "$dir/Testing/Temporary/LastTest.log" 2>/dev/null | sort -u | sed 's/^SKIP: /  skipped: /'
done
printf 'wall-clock time: %.0f s\n' "$(echo "$t1 - $t0" | bc)"
exit $rc
