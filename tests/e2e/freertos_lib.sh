#!/usr/bin/env bash
# freertos_lib.sh -- what the FreeRTOS example tests (test_freertos_*.sh)
# share: the skip rules (no kernel tree in $FREERTOS_KERNEL_PATH, a tool
# missing: exit 77 with the reason), the host tool, a work directory, fail.
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
