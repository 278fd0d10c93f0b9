#!/usr/bin/env bash
# test_live_gdb_qemu.sh -- the debug-probe transport end to end, no UART:
# the Cortex-M3 firmware (examples/qemu-mps2, LINK=rtt) puts its trace in
# the RTT up buffer of sonde_rtt.h, QEMU's gdbstub (-gdb) is the probe, and
# `sonde live gdb://` reads it (docs/live.md).  QEMU starts halted (-S):
# sonde finds the control block from the ELF's symbol and lets it run.
#
# 1. Counts and commands: 1.5 s of emulated time with a 128 KiB up buffer; the
#    capture passes the independent checker (check_trace.py: framing,
#    sequence, time, FW_COUNTS against the capture id by id, and sonde's
#    live JSONL frame by frame).  Meanwhile `sonde send` goes through the
#    session's --control socket into the RTT down buffer: PEEK of fw_status,
#    APP 1 changing the blink period, PEEK again.
# 2. A host that polls too slowly (poll=1000 ms; a 4 KiB up buffer and the
#    8 KiB ring hold 0.07 s of this trace, and a poll takes at most 4 KiB:
#    the 1.5 s of trace cannot get through unless QEMU runs some 20 times
#    slower than the host's clock): the target drops, and the
#    drops are counted exactly -- the
#    frames that arrived plus the target's overwritten count equal the
#    frames it wrote, and sonde's total of the DROPS reports equals the
#    firmware's own count; the link budget names the bottleneck.
# 3. The GDB server goes away: sonde reaches QEMU through a TCP proxy that
#    is killed mid-run and started again; sonde reconnects, and every frame
#    the firmware wrote arrived or is counted as dropped on the target, in
#    the capture and in sonde's summary (link-lost 0, unexplained 0).
# Skipped (77) without arm-none-eabi-gcc, qemu-system-arm or python3.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
. "$(dirname "$0")/gdb_qemu_lib.sh"
live_setup

build() { # NAME MAKE-OPTIONS...
	gdb_fw_build "$@"
}

build fw RUN_MS=1500 EXTRA_CFLAGS=-DSONDE_RTT_UP_SIZE=16384u
# part 2 must drop whatever the machine's load: with a 16 KiB up buffer a
# loaded host's QEMU ran so slowly against the host's clock that 1 s polls
# carried the whole trace (44709 frames, 0 overwritten, at a load of 21)
build fw2 RUN_MS=1500 EXTRA_CFLAGS=-DSONDE_RTT_UP_SIZE=4096u
# part 1 wants no loss: an up buffer of 128 KiB holds 0.8 s of this trace,
# room for a sonde slowed down by the sanitizers on a loaded machine (16
# KiB and the 8 KiB ring hold 0.14 s: a missed poll or two was a loss)
build fw1 RUN_MS=1500 EXTRA_CFLAGS=-DSONDE_RTT_UP_SIZE=131072u

# ---- 1. counts and commands ------------------------------------------------
port=$(free_port)
qemu_gdb "$WORK/fw1/fw.elf" "$port"
bg timeout -k 5 "$HANG" "$SONDE" live "gdb://127.0.0.1:$port" --elf "$WORK/fw1/fw.elf" --proto sonde -w "$WORK/raw1.bin" \
	--format jsonl --output "$WORK/live1.jsonl" --control "$WORK/ctl" --reconnect-timeout 0 </dev/null 2>"$WORK/live1.err"
live=$!
wait_for -p "$live" test -S "$WORK/ctl" || { cat "$WORK/live1.err"; fail "no control socket"; }
wait_for -p "$live" size_at_least "$WORK/raw1.bin" 2000 || { cat "$WORK/live1.err"; fail "no trace through the gdbstub"; }
status=$(arm-none-eabi-nm "$WORK/fw1/fw.elf" | awk '$3 == "fw_status" { print "0x" $1 }')
[ -n "$status" ] || fail "no fw_status symbol"
send() { # ARGS...: must succeed
	"$SONDE" send --link "unix:$WORK/ctl" --timeout 3 "$@" >"$WORK/out" 2>"$WORK/err" ||
		{ cat "$WORK/out" "$WORK/err"; fail "sonde send $*: exit status $?"; }
	cat "$WORK/out"
}
send peek "$status" 12
grep -q "^PEEK_DATA addr=$(printf '0x%08x' "$status") n=12: 53 4f 4e 44 .. .. .. .. f4 01 00 00$" "$WORK/out" ||
	fail "peek through the down buffer: magic 'SOND' and blink period 500 expected"
send app 1 100
send peek $(( status + 8 )) 4
grep -q "n=4: 64 00 00 00$" "$WORK/out" || fail "peek after APP 1 100: blink period 100 expected"
rc=0
wait "$live" || rc=$?
[ "$rc" -eq 0 ] || { cat "$WORK/live1.err"; fail "counts: sonde live exit status $rc"; }
wait "$QEMU" || fail "counts: QEMU exit status $? (firmware fault?)"
grep -q "control block sonde_rtt_cb at 0x" "$WORK/live1.err" || fail "counts: the control block was not found by its symbol"
python3 "$CHECK" "$WORK/raw1.bin" --decoded "$WORK/live1.jsonl" >"$WORK/check1.log" ||
	{ cat "$WORK/check1.log"; fail "counts: the capture or sonde's decoding of it does not check"; }
grep -E "^(FW_COUNTS|decoded|check_trace)" "$WORK/check1.log"
grep -Eq "^link budget +RTT via GDB \(131072-B up buffer, [0-9]+ reads/s, full at [0-9]+/[0-9]+ polls\) carries ~[0-9.]+ kB/s; the link ran at [0-9.]+ kB/s on average \([0-9]+%\); 0 records dropped on the target$" \
	"$WORK/live1.err" || { cat "$WORK/live1.err"; fail "counts: no link budget line"; }

# ---- 2. a host that polls too slowly -----------------------------------------
port=$(free_port)
qemu_gdb "$WORK/fw2/fw.elf" "$port"
rc=0
timeout -k 5 "$HANG" "$SONDE" live "gdb://127.0.0.1:$port?poll=1000" --elf "$WORK/fw2/fw.elf" --proto sonde \
	-w "$WORK/raw2.bin" --output /dev/null --reconnect-timeout 0 </dev/null 2>"$WORK/live2.err" || rc=$?
[ "$rc" -le 1 ] || { cat "$WORK/live2.err"; fail "drops: sonde live exit status $rc"; }
wait "$QEMU" || fail "drops: QEMU exit status $?"
python3 "$CHECK" "$WORK/raw2.bin" >"$WORK/check2.log" || true # it refuses a capture with losses: the figures are checked here
read -r R O F N <<<"$(fw_figures "$WORK/check2.log")"
[ -n "${N:-}" ] || { cat "$WORK/check2.log"; fail "drops: no FW_COUNTS in the capture"; }
echo "drops: firmware wrote $R frames, overwrote $O, refused $F; the capture has $N"
[ "$O" -gt 0 ] || fail "drops: a host polling every second was expected to make the target drop"
# refused records were never written: they have no frame
[ $(( N + O )) -eq "$R" ] || fail "drops: $N received + $O overwritten != $R written"
grep -Eq "^target drops +$O overwritten, $F refused$" "$WORK/live2.err" ||
	{ grep "target drops" "$WORK/live2.err"; fail "drops: sonde's total of the DROPS reports is not the firmware's $O"; }
grep -Eq "^link budget( warning)? +RTT via GDB \(4096-B up buffer, .*\): the link is the bottleneck$" "$WORK/live2.err" ||
	{ cat "$WORK/live2.err"; fail "drops: the link budget does not name the bottleneck"; }

# ---- 3. the GDB server goes away ---------------------------------------------
gdb_proxy_write "$WORK/proxy.py"
port=$(free_port)
pport=$(free_port)
qemu_gdb "$WORK/fw/fw.elf" "$port"
bg python3 "$WORK/proxy.py" "$pport" "$port"
proxy=$!
wait_for -p "$proxy" listening "$pport" || fail "reconnect: the proxy does not listen"
bg timeout -k 5 "$HANG" "$SONDE" live "gdb://127.0.0.1:$pport" --elf "$WORK/fw/fw.elf" --proto sonde -w "$WORK/raw3.bin" \
	--output /dev/null --reconnect-timeout 20 </dev/null 2>"$WORK/live3.err"
live=$!
wait_for -p "$live" size_at_least "$WORK/raw3.bin" 20000 || { cat "$WORK/live3.err"; fail "reconnect: no trace"; }
kill "$proxy"
wait "$proxy" 2>/dev/null || true
wait_for -p "$live" has_text "$WORK/live3.err" "reconnecting" || { cat "$WORK/live3.err"; fail "reconnect: the lost server was not noticed"; }
bg python3 "$WORK/proxy.py" "$pport" "$port"
wait_for -p "$live" has_text "$WORK/live3.err" "reconnected after" || { cat "$WORK/live3.err"; fail "reconnect: no reconnection"; }
wait "$QEMU" || fail "reconnect: QEMU exit status $?"
wait_for 5 has_text "$WORK/live3.err" "^link " || kill -TERM "$live" 2>/dev/null || true
rc=0
wait "$live" || rc=$?
[ "$rc" -le 1 ] || { cat "$WORK/live3.err"; fail "reconnect: sonde live exit status $rc"; }
# two connections at least: a poll that times out on a loaded machine
# drops the link too, and the figures below must hold all the same
grep -Eq "^link +gdb://127.0.0.1:$pport, [0-9.]+ s, connected ([2-9]|[1-9][0-9]+) times$" "$WORK/live3.err" ||
	{ cat "$WORK/live3.err"; fail "reconnect: the summary does not show two connections"; }
python3 "$CHECK" "$WORK/raw3.bin" >"$WORK/check3.log" || true
read -r R O F N <<<"$(fw_figures "$WORK/check3.log")"
[ -n "${N:-}" ] || { cat "$WORK/check3.log"; fail "reconnect: no FW_COUNTS in the capture"; }
echo "reconnect: firmware wrote $R frames, overwrote $O, refused $F; the capture has $N"
[ $(( N + O )) -eq "$R" ] || fail "reconnect: $N received + $O overwritten != $R written"
# and sonde blames nothing on the link: the frame numbers of the reports
# bridge the reconnection (docs/protocol.md section 4)
for line in "target drops           $O overwritten, $F refused" "link-lost frames       0" "unexplained lost       0"; do
	grep -qxF "$line" "$WORK/live3.err" || { cat "$WORK/live3.err"; fail "reconnect: summary: '$line' expected"; }
done
echo "PASS"
