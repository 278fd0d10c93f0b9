#!/usr/bin/env bash
# test_freertos_mps2.sh -- the FreeRTOS example (examples/freertos-app) on
# the kernel's Cortex-M3 port in QEMU's mps2-an385 (examples/freertos-mps2),
# traced with Sonde over UART0 through the one include.
#
# Builds the firmware against the kernel tree in $FREERTOS_KERNEL_PATH in
# three configurations (-Os with PRIMASK critical sections, -O2 with BASEPRI
# at the kernel's syscall priority, -Os with tickless idle), runs each on
# the instruction-exact clock (-icount shift=0) and checks the capture: zero
# decode diagnostics, and decoded task switches, queue/semaphore/mutex
# operations and levels, priority inheritance, notifications, timer,
# resumptions, event bits, heap allocations, failures and frees by task,
# stack high-water marks and (tickless) the idle task's sleeps in low power
# equal the firmware's own counts; so do the queue set's signals and
# selects, the deferred calls (named from the ELF), the failed creations,
# the task deleted by another (vTaskDelete(other), which this port does and
# the POSIX port cannot) and, on V11, the API spans; and `sonde stats` (the
# heap's blocks still allocated, the leak among them) and the Chrome export
# agree with them (examples/freertos-app/check_freertos.py;
# the switch-out states are checked by the POSIX test, where the kernel can
# be asked for them).  Then live: UART0 on a TCP socket, `sonde live` on the
# other end and `sonde send info` through its control socket while the
# kernel runs: the reply announces every task and kernel object again with
# its kind and name, and that capture passes the same checks.  Last, the
# benchmark firmware runs every trace macro with real kernel objects; its
# instruction counts are printed, not asserted (docs/freertos.md has them);
# and built with SONDE_ENABLED 0, the firmware builds and every macro costs
# 0 instructions (asserted: exact, not a speed figure).
#
# Without FREERTOS_KERNEL_PATH, the cross compiler, QEMU or python3 the
# test is skipped (exit 77) and says why.
#
# It tests the firmware and the target library; `sonde` decoding a firmware's
# stream under the sanitizers is test_live_qemu.sh's part (and
# test_live_gdb_qemu.sh's, test_miniprof_qemu.sh's), so this runs in the
# plain build only (tests/CMakeLists.txt):
# sonde-test: once
set -euo pipefail

source "$(dirname "$0")/freertos_lib.sh"
source "$(dirname "$0")/test_live_lib.sh" # bg, wait_for, free_port, live_cleanup
EX=$SRC/examples/freertos-mps2
frtos_setup Cortex-M3 arm-none-eabi-gcc qemu-system-arm python3 make
trap live_cleanup EXIT # kills what bg started, removes $WORK

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
	timeout -k 5 "$HANG" "${QEMU[@]}" -serial "file:$build/trace.bin" -kernel "$build/fw.elf" </dev/null || rc=$?
	[ "$rc" -eq 0 ] || fail "$name: QEMU exited with status $rc (assertion, fault or hang)"
	rc=0
	# with the ELF: the deferred function is named (PEND_CALL's address)
	"$SONDE" decode "$build/trace.bin" --proto sonde --format jsonl --elf "$build/fw.elf" >"$build/trace.jsonl" \
		2>"$build/err" || rc=$?
	[ "$rc" -eq 0 ] && [ ! -s "$build/err" ] ||
		{ cat "$build/err"; fail "$name: sonde decode reported problems (status $rc)"; }
	frtos_check "$build/trace.bin" "$build/trace.jsonl" --pend-name pend_fn ${CHECK_OPTS:-} ||
		fail "$name: decoded trace, stats or export and the firmware's counts differ"
}

run primask-Os CRIT=primask OPT=-Os
run basepri-O2 CRIT=basepri OPT=-O2
# tickless idle: the port's SysTick-suppressing sleep, traced as low power
CHECK_OPTS=--tickless run tickless-Os CRIT=primask OPT=-Os TICKLESS=1

echo "== live over TCP, INFO while the kernel runs (real-time clock)"
port=$(free_port)
bg timeout -k 5 "$HANG" qemu-system-arm -M mps2-an385 -nographic -monitor none \
	-semihosting-config enable=on,target=native -serial "tcp:127.0.0.1:$port,server=on" \
	-kernel "$WORK/primask-Os/fw.elf" </dev/null >"$WORK/qemu-live.log" 2>&1
qemu=$!
# QEMU says so once it listens (connecting to check would take its one client slot)
wait_for -p "$qemu" has_text "$WORK/qemu-live.log" "waiting for connection" ||
	{ cat "$WORK/qemu-live.log"; fail "QEMU does not listen on $port"; }
bg timeout -k 5 "$HANG" "$SONDE" live "tcp://127.0.0.1:$port" --proto sonde -w "$WORK/live.bin" \
	--output "$WORK/live.txt" --control "$WORK/ctl" --reconnect-timeout 0 </dev/null 2>"$WORK/live.err"
live=$!
wait_for -p "$live" -l "$WORK/live.err" test -S "$WORK/ctl" || fail "no control socket"
wait_for -p "$live" -l "$WORK/live.err" size_at_least "$WORK/live.bin" 3000 || fail "no trace from QEMU"
"$SONDE" send --link "unix:$WORK/ctl" --timeout "$(scaled 30)" info >"$WORK/info.out" 2>&1 ||
	{ cat "$WORK/info.out"; fail "sonde send info failed"; }
cat "$WORK/info.out"
wait "$live" || true # it ends when the firmware does
"$SONDE" decode "$WORK/live.bin" --proto sonde --format jsonl >"$WORK/live.jsonl" 2>"$WORK/live-decode.err" ||
	{ cat "$WORK/live-decode.err"; fail "live capture: sonde decode reported problems"; }
python3 "$CHECK" "$WORK/live.jsonl" || fail "live capture: decoded trace and the firmware's counts differ"
# The INFO reply: a TARGET_INFO without the reset flag, then every task and
# object announced with its kind and its name, before its CMD_STATUS.
python3 - "$WORK/live.jsonl" <<'PY' || fail "the INFO reply did not announce the kernel objects"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
arg = lambda e, n: next((a["value"] for a in e.get("args", []) if a.get("name") == n), None)
start = next(i for i, e in enumerate(ev) if e.get("record") == "TARGET_INFO" and arg(e, "reset") is False)
end = next(i for i in range(start, len(ev)) if ev[i].get("record") == "CMD_STATUS")
assert arg(ev[end], "status") == 0, ev[end]
ann = {e["object"]: e.get("type_name") for e in ev[start:end] if e["kind"] == "object" and arg(e, "op") == "announced"}
named = {e["id"] for e in ev[start:end] if e["kind"] == "dict"}
kinds = sorted(ann.values())
print("INFO reply: %d objects announced (%s), %d names" % (len(ann), ", ".join(kinds), len(named)))
for k in ("idle task", "timer service task", "queue", "binary semaphore", "mutex", "event group", "timer"):
    assert k in kinds, k
assert kinds.count("task") >= 5 and set(ann) <= named, (ann, named)
PY

# bench NAME MAKE-OPTIONS...: the benchmark firmware (and fw.elf: it must
# build too) with -Os and PRIMASK, run instruction by instruction in QEMU;
# its instruction counts (insn_count.py) in $WORK/NAME.insns
bench() {
	local name=$1 rc=0
	shift
	make -s -C "$EX" BUILD="$WORK/$name" FREERTOS_KERNEL_PATH="$FREERTOS_KERNEL_PATH" CRIT=primask OPT=-Os \
		"$@" "$WORK/$name/fw.elf" "$WORK/$name/bench.elf" >"$WORK/$name.make.log" 2>&1 ||
		{ cat "$WORK/$name.make.log"; fail "$name: benchmark build failed"; }
	timeout -k 5 "$HANG" "${QEMU[@]}" -singlestep -d exec,nochain -D "$WORK/$name.exec" \
		-serial "file:$WORK/$name.txt" -kernel "$WORK/$name/bench.elf" </dev/null || rc=$?
	[ "$rc" -eq 0 ] && grep -q "^bench: done" "$WORK/$name.txt" ||
		{ cat "$WORK/$name.txt"; fail "$name: benchmark firmware did not finish (status $rc)"; }
	python3 "$SRC/examples/fw-common/insn_count.py" "$WORK/$name.exec" >"$WORK/$name.insns"
	rm -f "$WORK/$name.exec"
}

echo "== instructions per kernel event (-Os, PRIMASK)"
bench primask-Os
cat "$WORK/primask-Os.insns"

echo "== tracing compiled out (SONDE_ENABLED 0): the firmware builds, every macro costs nothing"
bench off TRACE_OPTS=-DSONDE_ENABLED=0
# each case's fast path against its base: 0 instructions, but the stack
# poll's loop, which makes two hook calls to its base's one (a call and a
# return: 2)
awk 'NR > 1 && $3 != ($1 == "b_gs_stack_poll" ? 2 : 0) { bad = 1; print "not free: " $0 }
     END { exit bad || NR < 20 }' "$WORK/off.insns" || { cat "$WORK/off.insns"; fail "a macro compiled out costs instructions"; }
echo "$(($(wc -l <"$WORK/off.insns") - 1)) cases, each 0 instructions with tracing compiled out"
echo "PASS"
