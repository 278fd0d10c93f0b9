#!/usr/bin/env bash
# test_qemu_armv7em.sh -- ARMv7E-M: the example firmware (examples/fw-common
# on the MPS2 board, examples/qemu-mps2) on a Cortex-M4 with its
# single-precision FPU (mps2-an386) and a Cortex-M7 with its double-precision
# FPU (mps2-an500), hard-float: the context switch saves the FPU registers
# of the tasks that use them (the firmware checks its floating-point sums
# after every switch and exits with a fault status if one was lost).  Each
# is built once and runs 0.5 s of emulated time; the capture must check
# (qemu_fw_lib.sh) with the firmware's own counts equal to the capture's.
# The two builds also cover the port's other options: BASEPRI and the
# free-running timer on the M4, PRIMASK, SysTick as the trace clock, the
# idle-task drain and -O2 on the M7.
#
# It tests the firmware and the target library; `sonde` decoding a firmware's
# stream under the sanitizers is test_live_qemu.sh's part (and
# test_live_gdb_qemu.sh's, test_miniprof_qemu.sh's), so this runs in the
# plain build only (tests/CMakeLists.txt):
# sonde-test: once
set -euo pipefail
. "$(dirname "$0")/qemu_fw_lib.sh"
fw_require "Cortex-M4/M7" arm-none-eabi-gcc qemu-system-arm python3 make
fw_setup
QEMU=(qemu-system-arm -nographic -monitor none -semihosting-config enable=on,target=native)
fw_family m4-basepri-timer-irq-Os qemu-mps2 25000000 "${QEMU[@]}" -M mps2-an386 -- \
	MACHINE=an386 CRIT=basepri TS=timer DRAIN=irq OPT=-Os
fw_family m7-primask-systick-idle-O2 qemu-mps2 25000000 "${QEMU[@]}" -M mps2-an500 -- \
	MACHINE=an500 CRIT=primask TS=systick DRAIN=idle OPT=-O2
echo "PASS"
