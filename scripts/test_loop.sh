#!/usr/bin/env bash
# test_loop.sh -- `make test` N times in a row while another job loads every
# core, for docs/reliability.md: prints each run's status and wall time and
# the names of the tests that failed, then a summary line.
#
#   scripts/test_loop.sh [N]       (default 10)
#
# The load is `stress-ng --cpu <cores>` when stress-ng is installed, else a
# loop that rebuilds the project from scratch in a scratch directory with
# `cmake --build -j <cores>` (a parallel compile).  Logs go to
# test-loop/run-K.log.
set -uo pipefail
cd "$(dirname "$0")/.."
N=${1:-10}
CORES=$(nproc 2>/dev/null || echo 2)
OUT=test-loop
mkdir -p "$OUT"

make build build-san >/dev/null || { echo "test_loop: the build failed" >&2; exit 1; }

set -m # the load runs in a process group of its own: it goes as a whole
if command -v stress-ng >/dev/null 2>&1; then
	LOAD="stress-ng --cpu $CORES"
	stress-ng --cpu "$CORES" --timeout 0 >/dev/null 2>&1 &
else
	LOAD="a parallel compile loop (cmake --build -j $CORES, from scratch)"
	(
		while :; do
			rm -rf "$OUT/load-build"
			cmake -S . -B "$OUT/load-build" -DSONDE_BUILD_TESTS=OFF >/dev/null 2>&1
			cmake --build "$OUT/load-build" -j "$CORES" >/dev/null 2>&1
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
	printf 'run %2d: %s, %d s (%s)%s\n' "$k" "$([ "$rc" -eq 0 ] && echo passed || echo FAILED)" "$dt" \
		"$(grep -E '^wall-clock time' "$OUT/run-$k.log" | sed 's/wall-clock time: /tests /')" \
		"${failed:+, failed: $failed}"
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n | tr '\n' ' ')
echo "summary: $((N - fails)) of $N runs passed; make test took $(echo "$sorted" | awk '{ print $1 }') to $(echo "$sorted" | awk '{ print $NF }') s (median $(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }') s) under $LOAD"
[ "$fails" -eq 0 ]
