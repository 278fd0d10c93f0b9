#!/usr/bin/env bash
# test_qemu_riscv.sh -- RISC-V RV32: the example firmware (examples/fw-common
# on examples/qemu-riscv) on QEMU's `virt` machine in machine mode, with the
# RISC-V port (target/ports/riscv): mtime as the trace clock, mstatus.MIE as
# the critical section, byte stores for the unaligned frame words.  The trap
# handler nests the machine timer (tick), the machine software interrupt
# (work) and the goldfish RTC through the PLIC (sample) in software priority
# order; the scheduler switches tasks at the end of the outermost trap.
# Built once, 0.5 s of emulated time; the capture must check
# (qemu_fw_lib.sh) with the firmware's own counts equal to the capture's.
#
# It tests the firmware and the target library; `sonde` decoding a firmware's
# stream under the sanitizers is test_live_qemu.sh's part (and
# test_live_gdb_qemu.sh's, test_miniprof_qemu.sh's), so this runs in the
# plain build only (tests/CMakeLists.txt):
# sonde-test: once
set -euo pipefail
. "$(dirname "$0")/qemu_fw_lib.sh"
fw_require "RISC-V" riscv64-unknown-elf-gcc qemu-system-riscv32 python3 make
fw_setup
fw_family rv32-virt-mtime-irq qemu-riscv 10000000 \
	qemu-system-riscv32 -M virt -bios none -nographic -monitor none -rtc clock=vm -- \
	TS=mtime DRAIN=irq OPT=-Os
echo "PASS"
