#!/usr/bin/env bash
# test_qemu_trace.sh -- ARMv7-M: the Cortex-M3 example firmware
# (examples/fw-common on examples/qemu-mps2, mps2-an385) under QEMU: build
# it with arm-none-eabi-gcc, run 1 s of emulated time with the trace going
# from UART0 into a file, and check the raw capture with an independent
# checker (examples/fw-common/check_trace.py: framing, checksums,
# sequence continuity, time rebuilt from TIME_SYNC, ISR nesting, task
# switches, and the firmware's own FW_COUNTS record against the capture).
# When $SONDE runs, its JSONL decode is compared frame by frame too.  The
# clock test firmware (the port's 32-bit clock against a hardware timer,
# read from thread and ISRs around SysTick wraps) must pass.  The benchmark
# firmware must run to its end; its figures are printed, not asserted.
#
# Two builds cover the port's options: SysTick clock + UART TX interrupt
# drain + PRIMASK + the tick hook (SysTick's sonde_tick()) at -Os, and
# free-running timer clock + idle-task drain + BASEPRI + no tick hook at
# -O2.  QEMU runs with -icount shift=0,sleep=off: the emulated
# clock is instruction-exact and the run deterministic (and fast: idle time
# is skipped).
#
# Without the cross compiler, QEMU or python3 the test is skipped: exit 77
# (ctest reports it as skipped when the test has SKIP_RETURN_CODE 77).
#
# It tests the firmware; `sonde` decoding QEMU's stream under the
# sanitizers is test_live_qemu.sh's part, so this runs in the plain build
# only (tests/CMakeLists.txt):
# sonde-test: once
set -euo pipefail
. "$(dirname "$0")/qemu_fw_lib.sh"
fw_require "Cortex-M3" arm-none-eabi-gcc qemu-system-arm python3 make
fw_setup
QEMU=(qemu-system-arm -M mps2-an385 -nographic -monitor none -semihosting-config enable=on,target=native)

# run NAME MAKE-OPTIONS...
run() {
	local name=$1
	shift
	local build=$WORK/$name
	fw_build "$name" qemu-mps2 RUN_MS=1000 "$@" "$build/fw.elf" "$build/bench.elf" "$build/clocktest.elf"

	# SysTick (ISR 1) every 25000 ticks within 0.1 ms; the run spans
	# RUN_MS of trace time; no gap between records of 1.3 ms or more (a
	# clock that jumps back by a SysTick period shows up as one); TIMER1
	# nests into the longer TIMER0 handler.
	fw_run "$name" "$build/fw.elf" "${QEMU[@]}"
	fw_check "$name" --max-step 32768 --period 1:25000:2500 --expect-seconds 1.0:0.01 --min-nesting 2

	FW_SERIAL_OUT=$build/bench.txt fw_run "$name" "$build/bench.elf" "${QEMU[@]}"
	grep -q "^bench: done" "$build/bench.txt" ||
		{ cat "$build/bench.txt"; fail "$name: benchmark firmware did not finish"; }
	grep -E "^(sonde_isr_enter  |sonde_user_u32x2)" "$build/bench.txt"

	FW_SERIAL_OUT=$build/clock.txt fw_run "$name" "$build/clocktest.elf" "${QEMU[@]}"
	grep -q "^clock test: .*: ok$" "$build/clock.txt" ||
		{ cat "$build/clock.txt"; fail "$name: port clock test failed"; }
	cat "$build/clock.txt"
}

run systick-irq-primask-hook-Os TS=systick DRAIN=irq CRIT=primask TICK=hook OPT=-Os
run timer-idle-basepri-nohook-O2 TS=timer DRAIN=idle CRIT=basepri TICK=none OPT=-O2
echo "PASS"
