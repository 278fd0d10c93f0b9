#!/usr/bin/env bash
# test_miniprof_cli.sh -- `sonde miniprof` against the device simulator on a
# pty: every command and its exact output, -w saving the raw answer, a
# NACK, a device that does not answer, a socat pty pair, a non-standard baud
# rate, and the usage and I/O errors.
set -u
. "$(dirname "$0")/test_miniprof_lib.sh"
mp_setup

META='METADATA mcu_clock_hz=168000000 timer_freq=1000000 elf_build_id=0xdeadbeef fw_version="v1.0.0"'

# ---- every command --------------------------------------------------------------
mp_sim_start
expect_rc 0 "$SONDE" miniprof --link "$PTY" metadata
expect_line "$OUT" "$META"
expect_lines "$OUT" 1
expect_empty "$ERR"

expect_rc 0 "$SONDE" miniprof --link "$PTY:921600" status
expect_line "$OUT" 'STATUS is_profiling=0 buffer_overflows=0 records_captured=0 buffer_usage_percent=0'
expect_lines "$OUT" 1
expect_empty "$ERR"

expect_rc 0 "$SONDE" miniprof --link "$PTY" start
expect_line "$OUT" 'ACK START_PROFILING'
expect_lines "$OUT" 1
expect_empty "$ERR"

# the burst that followed the ACK was left unread; the next command drops it
expect_rc 0 "$SONDE" miniprof --link "$PTY" status
expect_line "$OUT" 'STATUS is_profiling=1 buffer_overflows=0 records_captured=80 buffer_usage_percent=12'
expect_empty "$ERR"

expect_rc 0 "$SONDE" miniprof -l "$PTY" stop
expect_line "$OUT" 'ACK STOP_PROFILING'
expect_rc 0 "$SONDE" miniprof --link "$PTY" reset
expect_line "$OUT" 'ACK RESET_BUFFERS'
expect_rc 0 "$SONDE" miniprof --link "$PTY" status
expect_line "$OUT" 'STATUS is_profiling=0 buffer_overflows=0 records_captured=0 buffer_usage_percent=0'

# -w keeps the raw answer: a 36-byte METADATA packet with a good CRC
expect_rc 0 "$SONDE" miniprof --link "$PTY" metadata -w "$W/meta.bin"
[[ $(stat -c %s "$W/meta.bin") == 36 ]] || mp_fail "meta.bin has $(stat -c %s "$W/meta.bin") bytes, expected 36"
[[ $(mp_hex "$W/meta.bin" 0 5) == "aa 55 03 1c 00" ]] || mp_fail "meta.bin header: $(mp_hex "$W/meta.bin" 0 5)"
[[ $(mp_le16 "$W/meta.bin" 33) == $(mp_crc16 "$W/meta.bin" 0 33) ]] || mp_fail "meta.bin CRC"
# line settings are accepted (a pty ignores them)
expect_rc 0 "$SONDE" miniprof --link "$PTY:1234567:7E2" --flow rtscts --parity odd --stop-bits 1 metadata
expect_line "$OUT" "$META"
echo "ok: metadata, status, start, stop, reset, -w, line settings"
mp_sim_stop

# ---- a NACK, and no answer -------------------------------------------------------
mp_sim_start --nack reset --mute status
expect_rc 1 "$SONDE" miniprof --link "$PTY" reset
expect_line "$OUT" 'NACK RESET_BUFFERS'
expect_line "$ERR" 'sonde miniprof: the device refused RESET_BUFFERS (NACK)'
expect_rc 3 "$SONDE" miniprof --link "$PTY" status --timeout 300
expect_empty "$OUT"
expect_line "$ERR" "sonde miniprof: no answer to GET_STATUS from $PTY within 300 ms"
# the device still answers the rest
expect_rc 0 "$SONDE" miniprof --link "$PTY" metadata
expect_line "$OUT" "$META"
echo "ok: NACK and timeout"
mp_sim_stop

# ---- the buffer-overflow status ----------------------------------------------------
mp_sim_start --overflows 3
expect_rc 0 "$SONDE" miniprof --link "$PTY" start
expect_rc 0 "$SONDE" miniprof --link "$PTY" status
expect_line "$OUT" 'STATUS is_profiling=1 buffer_overflows=3 records_captured=80 buffer_usage_percent=100'
expect_line "$ERR" 'sonde miniprof: warning: the device reports 3 buffer overflows: profile records were lost (raise the baud rate or instrument fewer functions)'
echo "ok: overflow warning"
mp_sim_stop

# ---- a socat pty pair: the simulator on one end, sonde on the other ----------------
if command -v socat >/dev/null; then
	socat pty,raw,echo=0,link="$W/dev-a" pty,raw,echo=0,link="$W/dev-b" 2>"$W/socat.err" &
	MP_PIDS+=("$!")
	wait_for -p $! -l "$W/socat.err" test -e "$W/dev-a" -a -e "$W/dev-b" || mp_fail "socat made no pty pair"
	mp_sim_start --tty "$W/dev-a"
	expect_rc 0 "$SONDE" miniprof --link "$W/dev-b:460800" metadata
	expect_line "$OUT" "$META"
	expect_rc 0 "$SONDE" miniprof --link "$W/dev-b" status
	expect_line "$OUT" 'STATUS is_profiling=0 buffer_overflows=0 records_captured=0 buffer_usage_percent=0'
	echo "ok: through a socat pty pair"
	mp_sim_stop
else
	mp_fail "socat is not installed (scripts/deps.sh installs it)"
fi

# ---- usage and I/O errors ------------------------------------------------------------
expect_rc 2 "$SONDE" miniprof --link /dev/null
expect_line "$ERR" "sonde miniprof: no command given (metadata, status, start, stop, reset or capture; see 'sonde help miniprof')"
expect_rc 2 "$SONDE" miniprof status
expect_line "$ERR" "sonde miniprof: option '--link DEV[:BAUD]' is required"
expect_rc 2 "$SONDE" miniprof --link /dev/null reboot
expect_line "$ERR" "sonde miniprof: unknown command 'reboot' (metadata, status, start, stop, reset or capture)"
expect_rc 2 "$SONDE" miniprof --link /dev/null status stop
expect_line "$ERR" "sonde miniprof: one command at most (got 'status' and 'stop')"
expect_rc 2 "$SONDE" miniprof --link /dev/null status --format jsonl
expect_line "$ERR" "sonde miniprof: options '--format', '--output' and '--duration' are for 'capture'"
expect_rc 2 "$SONDE" miniprof --link /dev/ttyS0:20000000 status
expect_line "$ERR" "sonde miniprof: --link: baud rate '20000000': expected a number from 1 to 12000000"
expect_rc 2 "$SONDE" miniprof --link /dev/ttyS0 --parity even7 status
expect_line "$ERR" "sonde miniprof: --link: parity 'even7': expected none, odd, even, mark or space"
expect_rc 2 "$SONDE" miniprof --link /dev/ttyS0 --timeout 0 status
expect_line "$ERR" "sonde miniprof: option '--timeout' expects milliseconds (1 to 3600000), got '0'"
expect_rc 2 "$SONDE" miniprof --link /dev/ttyS0 capture --format nope
grep -qx "sonde miniprof: unknown format 'nope' for option '--format' (known:.* text.*)" "$ERR" \
	|| mp_fail "unknown format message: $(cat "$ERR")"
expect_rc 2 "$SONDE" miniprof --link /dev/ttyS0 -o miniprof.crc=middle status
expect_line "$ERR" "sonde miniprof: -o miniprof.crc=middle: expected le or be"
expect_rc 3 "$SONDE" miniprof --link "$W/no-such-tty" status
grep -qx "sonde miniprof: no such device '$W/no-such-tty' (serial ports found: .*)" "$ERR" ||
	mp_fail "missing device message: $(cat "$ERR")"
expect_rc 3 "$SONDE" miniprof --link "$W/meta.bin" status
expect_line "$ERR" "sonde miniprof: '$W/meta.bin' is not a serial port (not a character device)"
expect_rc 0 "$SONDE" help miniprof
expect_line "$OUT" "usage: sonde miniprof --link DEV[:BAUD[:FRAME]] COMMAND [options]"
echo "ok: usage and I/O errors"
