#!/usr/bin/env bash
# freertos_lib.sh -- what the FreeRTOS example tests (test_freertos_*.sh)
# share: the skip rules (no kernel tree in $FREERTOS_KERNEL_PATH, a tool
# missing: exit 77 with the reason), the host tool, a work directory, fail,
# and frtos_check: the checker with every export it compares.
# Sourced, not a test of its own.

SRC=${SONDE_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
CHECK=$SRC/examples/freertos-app/check_freertos.py
source "$(dirname "${BASH_SOURCE[0]}")/wait_lib.sh" # $HANG

fail() {
	echo "FAIL: $*"
	exit 1
}

# frtos_setup WHAT TOOL...: skip unless a kernel tree and the tools are
# there; then WORK is a fresh directory, removed at exit.
frtos_setup() {
	local what=$1 tool
	shift
	if [ -z "${FREERTOS_KERNEL_PATH:-}" ]; then
		echo "SKIP: FREERTOS_KERNEL_PATH not set: the FreeRTOS $what example was not built or tested" \
		     "(set it to a FreeRTOS-Kernel tree, see docs/freertos.md)"
		exit 77
	fi
	[ -f "$FREERTOS_KERNEL_PATH/tasks.c" ] ||
		fail "FREERTOS_KERNEL_PATH=$FREERTOS_KERNEL_PATH is not a FreeRTOS-Kernel tree (no tasks.c)"
	for tool in "$@"; do
		if ! command -v "$tool" >/dev/null 2>&1; then
			echo "SKIP: $tool not found (needed to build and check the FreeRTOS $what example)"
			exit 77
		fi
	done
	[ -n "${SONDE:-}" ] && [ -x "$SONDE" ] || fail "\$SONDE (the host tool) not set or not executable"
	WORK=$(mktemp -d)
	trap 'rm -rf "$WORK"' EXIT
	echo "== kernel: $FREERTOS_KERNEL_PATH"
}

# How the kernel's timer service task waits for commands: on its command
# queue when the kernel has the V11 API hooks around that wait
# (traceENTER/RETURN_vQueueWaitForMessageRestricted), else as a delay.
frtos_timer_wait() {
	if grep -q traceRETURN_vQueueWaitForMessageRestricted "$FREERTOS_KERNEL_PATH/include/FreeRTOS.h"; then
		echo receive
	else
		echo delayed
	fi
}

# Whether the kernel has V11's API entry and exit hooks, which the example
# turns into API spans (SONDE_FRTOS_API): "yes" or "no" (V10: none may
# appear).
frtos_api() {
	if grep -q traceENTER_xQueueSemaphoreTake "$FREERTOS_KERNEL_PATH/include/FreeRTOS.h"; then
		echo yes
	else
		echo "note: API spans (SONDE_FRTOS_API): this kernel has no traceENTER_/traceRETURN_ hooks (V11 has)," \
		     "checked that none appear" >&2
		echo no
	fi
}

# frtos_check CAPTURE JSONL CHECKER-OPTIONS...: the checker on the decoded
# trace, `sonde stats` and the Chrome JSON export of the capture.
frtos_check() {
	local bin=$1 jsonl=$2
	shift 2
	"$SONDE" stats "$bin" >"$bin.stats" 2>&1 || { cat "$bin.stats"; fail "sonde stats failed"; }
	"$SONDE" decode "$bin" --proto sonde --format chrome >"$bin.json" || fail "Chrome JSON export failed"
	python3 "$CHECK" "$jsonl" --stats "$bin.stats" --chrome "$bin.json" --timer-wait "$(frtos_timer_wait)" \
		--api "$(frtos_api)" "$@"
}
