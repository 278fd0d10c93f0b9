#!/usr/bin/env bash
# test_freertos_mps2.sh -- the FreeRTOS example (examples/freertos-app) on
# the kernel's Cortex-M3 port in QEMU's mps2-an385 (examples/freertos-mps2),
# traced with Sonde over UART0 through the one include.
#
# Builds the firmware against the kernel tree in $FREERTOS_KERNEL_PATH in
# two configurations (-Os with PRIMASK critical sections, -O2 with BASEPRI
# at the kernel's syscall priority), runs each on the instruction-exact
# clock (-icount shift=0) and checks the capture: zero decode diagnostics,
# and decoded task switches, queue/semaphore/mutex operations and levels,
# priority inheritance, notifications, timer, resumptions and event bits
# equal the firmware's own counts (examples/freertos-app/check_freertos.py;
# the switch-out states are checked by the POSIX test, where the kernel can
# be asked for them).  Then the benchmark firmware runs every trace macro
# with real kernel objects; its instruction counts are printed, not
# asserted (docs/freertos.md has them).
#
# Without FREERTOS_KERNEL_PATH, the cross compiler, QEMU or python3 the
# test is skipped (exit 77) and says why.
set -euo pipefail

source "$(dirname "$0")/freertos_lib.sh"
EX=$SRC/examples/freertos-mps2
frtos_setup Cortex-M3 arm-none-eabi-gcc qemu-system-arm python3 make

QEMU=(qemu-system-arm -M mps2-an385 -nographic -monitor none -semihosting-config enable=on,target=native
      -icount shift=0,sleep=off)

run() {
	local name=$1
	shift
	local build=$WORK/$name rc=0
	echo "== $name: make $*"
	make -s -C "$EX" BUILD="$build" FREERTOS_KERNEL_PATH="$FREERTOS_KERNEL_PATH" "$@" \
		"$build/fw.elf" >"$WORK/$name.make.log" 2>&1 ||
		{ cat "$WORK/$name.make.log"; fail "$name: build failed"; }
	timeout -k 5 120 "${QEMU[@]}" -serial "file:$build/trace.bin" -kernel "$build/fw.elf" </dev/null || rc=$?
	[ "$rc" -eq 0 ] || fail "$name: QEMU exited with status $rc (assertion, fault or hang)"
	rc=0
	"$SONDE" decode "$build/trace.bin" --proto sonde --format jsonl >"$build/trace.jsonl" 2>"$build/err" || rc=$?
	[ "$rc" -eq 0 ] && [ ! -s "$build/err" ] ||
		{ cat "$build/err"; fail "$name: sonde decode reported problems (status $rc)"; }
	python3 "$CHECK" "$build/trace.jsonl" || fail "$name: decoded trace and the firmware's counts differ"
}

run primask-Os CRIT=primask OPT=-Os
run basepri-O2 CRIT=basepri OPT=-O2

echo "== instructions per kernel event (-Os, PRIMASK)"
make -s -C "$EX" BUILD="$WORK/primask-Os" FREERTOS_KERNEL_PATH="$FREERTOS_KERNEL_PATH" CRIT=primask OPT=-Os \
	"$WORK/primask-Os/bench.elf" >"$WORK/bench.make.log" 2>&1 ||
	{ cat "$WORK/bench.make.log"; fail "benchmark build failed"; }
rc=0
timeout -k 5 120 "${QEMU[@]}" -singlestep -d exec,nochain -D "$WORK/exec.log" -serial "file:$WORK/bench.txt" \
	-kernel "$WORK/primask-Os/bench.elf" </dev/null || rc=$?
[ "$rc" -eq 0 ] && grep -q "^bench: done" "$WORK/bench.txt" ||
	{ cat "$WORK/bench.txt"; fail "benchmark firmware did not finish (status $rc)"; }
python3 "$SRC/examples/qemu-mps2/insn_count.py" "$WORK/exec.log"
echo "PASS"
