#!/usr/bin/env bash
# test_freertos_posix.sh -- the FreeRTOS example (examples/freertos-app) on
# the kernel's POSIX simulator port (examples/freertos-posix), traced with
# Sonde through the one include (target/rtos/freertos/sonde_freertos.h).
#
# Builds the example against the kernel tree in $FREERTOS_KERNEL_PATH, runs
# it three times and checks each capture with `sonde` and the independent
# checker examples/freertos-app/check_freertos.py:
#   1. lossless (64 KiB buffer, drained whenever idle): zero decode
#      diagnostics; decoded task switches, the state each switch-out left
#      the task in, queue/semaphore/mutex operations and levels (a mutex's
#      give inside its creation is no give), inheritance (the waiter takes
#      the mutex), notifications by action and value, timer commands and
#      expiries, resumptions and event bits equal the application's own
#      counts, and so do the heap's allocations, failures and frees by
#      task and the stacks' high-water marks; `sonde stats` agrees
#      (objects' puts and gets; IDLE's runs and CPU in the Tasks table, the
#      RTOS table and the Cores line; the heap table, the blocks still
#      allocated with the one leaked on purpose, stack min); the
#      Chrome export names the holder track after the mutex; the timer
#      task waits on its command queue (V11) or is delayed (V10); the
#      queue set's signals and selects (the selecting task waits on the
#      set), deferred calls from a task and from the ISR (some fail), the
#      failed creations and, on V11, the API spans (calls and return
#      values, in `sonde stats` too) equal the application's counts (V10:
#      no API span; no vTaskDelete(other) here: docs/freertos.md); the
#      target's records and bytes equal the decoded ones;
#   2. overflow, overwrite mode (1 KiB buffer drained every 100 ms): the
#      decoder's loss totals equal the target's, nothing lost on the link,
#      nothing unexplained;
#   3. overflow, drop-newest mode: the same for refused records.
#
# The kernel is not part of Sonde: without FREERTOS_KERNEL_PATH (or
# without cmake, a C compiler or python3) the test is skipped (exit 77) and
# says why.  docs/freertos.md says where to get a kernel.
set -euo pipefail

source "$(dirname "$0")/freertos_lib.sh"
EX=$SRC/examples/freertos-posix
frtos_setup POSIX cmake cc python3

# Sanitizer flags of the surrounding build stay out: the kernel's port
# switches tasks from a signal handler, which is not what this test checks.
env -u CFLAGS cmake -S "$EX" -B "$WORK/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DFREERTOS_KERNEL_PATH="$FREERTOS_KERNEL_PATH" >"$WORK/cmake.log" 2>&1 ||
	{ cat "$WORK/cmake.log"; fail "configure failed"; }
cmake --build "$WORK/build" -j 2 >"$WORK/build.log" 2>&1 ||
	{ cat "$WORK/build.log"; fail "build failed"; }
APP=$WORK/build/freertos-posix

# run NAME ARGS...: run the example (it ends by itself; timeout guards
# against a hang), decode to JSONL.
run() {
	local name=$1
	shift
	local rc=0
	timeout -k 5 "$HANG" "$APP" -o "$WORK/$name.bin" "$@" 2>"$WORK/$name.log" || rc=$?
	cat "$WORK/$name.log"
	[ "$rc" -eq 0 ] || fail "$name: the example exited with status $rc"
	rc=0
	"$SONDE" decode "$WORK/$name.bin" --proto sonde --format jsonl >"$WORK/$name.jsonl" \
		2>"$WORK/$name.err" || rc=$?
	DECODE_RC=$rc
}

echo "== 1. lossless"
run lossless
[ "$DECODE_RC" -eq 0 ] && [ ! -s "$WORK/lossless.err" ] ||
	{ cat "$WORK/lossless.err"; fail "lossless: sonde decode reported problems (status $DECODE_RC)"; }
frtos_check "$WORK/lossless.bin" "$WORK/lossless.jsonl" --states ||
	fail "lossless: decoded trace, stats or export and the example's counts differ"
grep -Eq "^diagnostics +0$" "$WORK/lossless.bin.stats" || { cat "$WORK/lossless.bin.stats"; fail "lossless: diagnostics"; }

# lossy NAME MODE FIELD: the example's buffer overflows; the loss totals
# must be exact and all of them the target's.
lossy() {
	local name=$1 mode=$2
	echo "== $name"
	run "$name" -b 1024 -d 100 -c 60 -m "$mode"
	python3 "$CHECK" "$WORK/$name.jsonl" --lossy || fail "$name: loss totals differ"
	"$SONDE" stats "$WORK/$name.bin" >"$WORK/$name.stats" 2>/dev/null || true
	grep -E "^(target drops|link-lost|unexplained)" "$WORK/$name.stats"
	grep -Eq "^link-lost frames +0$" "$WORK/$name.stats" &&
		grep -Eq "^unexplained lost +0$" "$WORK/$name.stats" ||
		{ cat "$WORK/$name.stats"; fail "$name: frames lost that the target's DROPS do not explain"; }
}
lossy "2. overflow, overwrite" overwrite
lossy "3. overflow, drop-newest" drop
echo "PASS"
