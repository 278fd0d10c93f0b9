#!/usr/bin/env bash
# test_loop.sh -- `make test` N times in a row while another job loads every
# core, for docs/reliability.md: prints each run's status and wall time and
# the names of the tests that failed, then a summary line.
#
#   scripts/test_loop.sh [--load W] [N]     (N runs, default 10)
#
# The load is `stress-ng --cpu W`: W busy workers (default: one per core;
# scripts/deps.sh installs stress-ng), else, without stress-ng, a loop that
# rebuilds the project from scratch in a scratch directory with `cmake
# --build -j W` (a parallel compile).  Each run's line gives the 1-minute
# load average at its end.  Logs go to test-loop/run-K.log.
set -uo pipefail
cd "$(dirname "$0")/.."
CORES=$(nproc 2>/dev/null || echo 2)
W=$CORES
if [ "${1:-}" = --load ]; then
	W=${2:?--load needs a number of workers}
	shift 2
fi
N=${1:-10}
OUT=test-loop
mkdir -p "$OUT"

make build build-san >/dev/null || { echo "test_loop: the build failed" >&2; exit 1; }

set -m # the load runs in a process group of its own: it goes as a whole
if command -v stress-ng >/dev/null 2>&1; then
	LOAD="stress-ng --cpu $W"
	stress-ng --cpu "$W" --timeout 0 >/dev/null 2>&1 &
else
	LOAD="a parallel compile loop (cmake --build -j $W, from scratch)"
	(
		while :; do
			rm -rf "$OUT/load-build"
			cmake -S . -B "$OUT/load-build" -DSONDE_BUILD_TESTS=OFF >/dev/null 2>&1
			cmake --build "$OUT/load-build" -j "$W" >/dev/null 2>&1
		done
	) &
fi
load_pid=$!
set +m
trap 'kill -- -$load_pid 2>/dev/null; wait $load_pid 2>/dev/null' EXIT

echo "make test, $N runs, $CORES cores, load: $LOAD"
fails=0
times=()
for ((k = 1; k <= N; k++)); do
	t0=$(date +%s)
	make test >"$OUT/run-$k.log" 2>&1
	rc=$?
	dt=$(($(date +%s) - t0))
	times+=("$dt")
	failed=$(grep -E '^  FAILED ' "$OUT/run-$k.log" | awk '{ print $NF }' | tr '\n' ' ')
	[ "$rc" -eq 0 ] || fails=$((fails + 1))
	printf 'run %2d: %s, %d s (%s, load %s)%s\n' "$k" "$([ "$rc" -eq 0 ] && echo passed || echo FAILED)" "$dt" \
		"$(grep -E '^wall-clock time' "$OUT/run-$k.log" | sed 's/wall-clock time: /tests /')" \
		"$(cut -d' ' -f1 /proc/loadavg)" \
		"${failed:+, failed: $failed}"
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n | tr '\n' ' ')
echo "summary: $((N - fails)) of $N runs passed; make test took $(echo "$sorted" | awk '{ print $1 }') to $(echo "$sorted" | awk '{ print $NF }') s (median $(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }') s) under $LOAD"
[ "$fails" -eq 0 ]
