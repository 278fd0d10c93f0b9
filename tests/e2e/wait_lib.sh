#!/usr/bin/env bash
# wait_lib.sh -- waiting on progress, not on the clock, for the end-to-end
# tests (sourced by test_live_lib.sh, test_miniprof_lib.sh,
# exports/inputs.sh and the tests that start helpers).
#
# On the 2-core machine at a load of 15 a helper can take tens of seconds
# to start, and a fixed budget of 10 s then fails a correct product.  So a
# wait lasts as long as the processes it depends on are alive, fails at
# once -- with their log -- when one of them ends first, and gives up at a
# ceiling only as a last resort against a hang: $HANG seconds (300 times
# TEST_TIME_SCALE, default 1; raise it on a machine slower still).  ctest's
# TIMEOUT for a test (tests/CMakeLists.txt) is well above it, so that a
# hang is reported by the wait that saw it.

TEST_TIME_SCALE=${TEST_TIME_SCALE:-1}

# scaled SECONDS: SECONDS times TEST_TIME_SCALE, a whole number
scaled() { awk -v s="$1" -v k="$TEST_TIME_SCALE" 'BEGIN { printf "%d\n", s * k + 0.999 }'; }

# The ceiling of a wait, and the `timeout` that guards a product under test
# against a hang (never one that a slow machine can reach).
HANG=$(scaled 300)
export TEST_TIME_SCALE # fake_target.py and cdp_page.js scale theirs too

# gone PID: the process has ended (or is a zombie waiting to be reaped)
gone() { [ ! -e "/proc/$1" ] || grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null; }

# wait_for [-p PID]... [-l LOG]... [SECONDS] CMD...: until CMD succeeds.
#   -p PID  CMD waits on PID (a helper, the product): when PID has ended
#           and CMD still fails, the wait fails at once
#   -l LOG  printed (its last 40 lines) when the wait fails
#   SECONDS the ceiling is SECONDS times TEST_TIME_SCALE instead of $HANG:
#           only for a wait whose length is the product's promise, or an
#           optional one (the tests that still give one)
wait_for() {
	local pids=() logs=() limit=$HANG p l
	while :; do
		case $1 in
		-p) pids+=("$2"); shift 2 ;;
		-l) logs+=("$2"); shift 2 ;;
		*) break ;;
		esac
	done
	[[ $1 =~ ^[0-9]+$ ]] && { limit=$(scaled "$1"); shift; }
	local end=$((SECONDS + limit + 1)) why=""
	while :; do
		"$@" && return 0
		for p in "${pids[@]}"; do
			if gone "$p"; then
				"$@" && return 0 # it got there on its way out
				why="process $p ($(wait_name "$p")) ended first"
				break 2
			fi
		done
		[ "$SECONDS" -lt "$end" ] || { why="nothing after ${limit} s (a hang?)"; break; }
		sleep 0.05
	done
	echo "wait_for: $why: $*" >&2
	for l in "${logs[@]}"; do
		echo "--- $l (last lines)" >&2
		tail -n 40 "$l" >&2 2>/dev/null
	done
	return 1
}

# wait_name PID: what the process ran, for messages (empty once reaped)
wait_name() { tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | cut -c1-80; }
