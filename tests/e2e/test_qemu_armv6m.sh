#!/usr/bin/env bash
# test_qemu_armv6m.sh -- ARMv6-M: the example firmware (examples/fw-common
# on examples/qemu-microbit) on the micro:bit's nRF51822, a Cortex-M0: no
# unaligned access (the record path's word stores become byte stores), no
# BASEPRI (PRIMASK), a Thumb-1-only context switch, the nRF51's own UART (one
# interrupt for both directions) and TIMERs (the trace clock is TIMER0 at
# 8 MHz read through a capture register; the tick, work and sample
# interrupts are TIMER1, TIMER0's compare and TIMER2, nesting on the M0's
# four priority levels).  Built once, 0.5 s of emulated time; the capture
# must check (qemu_fw_lib.sh) with the firmware's own counts equal to the
# capture's.
#
# It tests the firmware and the target library; `sonde` decoding a firmware's
# stream under the sanitizers is test_live_qemu.sh's part (and
# test_live_gdb_qemu.sh's, test_miniprof_qemu.sh's), so this runs in the
# plain build only (tests/CMakeLists.txt):
# sonde-test: once
set -euo pipefail
. "$(dirname "$0")/qemu_fw_lib.sh"
fw_require "Cortex-M0" arm-none-eabi-gcc qemu-system-arm python3 make
fw_setup
fw_family m0-nrf51-capture-irq qemu-microbit 8000000 \
	qemu-system-arm -nographic -monitor none -semihosting-config enable=on,target=native -M microbit -- \
	DRAIN=irq OPT=-Os
echo "PASS"
