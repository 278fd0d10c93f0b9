#!/usr/bin/env bash
# test_qemu_armv8m.sh -- ARMv8-M Mainline: the example firmware
# (examples/fw-common on the MPS2 board, examples/qemu-mps2 MACHINE=an505)
# on a Cortex-M33 (mps2-an505, the IoT kit's memory map at 20 MHz), in the
# secure world where reset leaves it, with its FPU (hard-float context
# switch), BASEPRI as Sonde's critical section and the secure SysTick
# extended to 32 bits as the trace clock.  Built once, 0.5 s of emulated
# time; the capture must check (qemu_fw_lib.sh) with the firmware's own
# counts equal to the capture's.
#
# It tests the firmware and the target library; `sonde` decoding a firmware's
# stream under the sanitizers is test_live_qemu.sh's part (and
# test_live_gdb_qemu.sh's, test_miniprof_qemu.sh's), so this runs in the
# plain build only (tests/CMakeLists.txt):
# sonde-test: once
set -euo pipefail
. "$(dirname "$0")/qemu_fw_lib.sh"
fw_require "Cortex-M33" arm-none-eabi-gcc qemu-system-arm python3 make
fw_setup
fw_family m33-secure-basepri-systick qemu-mps2 20000000 \
	qemu-system-arm -nographic -monitor none -semihosting-config enable=on,target=native -M mps2-an505 -- \
	MACHINE=an505 CRIT=basepri TS=systick DRAIN=irq OPT=-Os
echo "PASS"
