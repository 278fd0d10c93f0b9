#!/usr/bin/env bash
# test_live_stop.sh -- SIGTERM and SIGINT end `sonde live` promptly on every
# kind of link, even when the host has fallen behind: the target sends as
# fast as it can and the decoded output goes into a pipe whose reader has
# stopped reading, so sonde is blocked writing.  Before the fix in
# core/stop.c the signal stayed pending (blocked outside ppoll) and sonde
# had to be killed.
#
# Each case checks: sonde ends (the time is printed; the safety bound is
# LIMIT s times TEST_TIME_SCALE, the requirement 1 s -- docs/reliability.md
# has the figures);
# exit status 3 with the output named and the bytes the reader did not
# take; the summary counts exactly the bytes of the raw file (-w); the raw
# file is the first bytes of what the target sent (its log; not for UDP,
# which drops datagrams while sonde is blocked); what the reader got is the
# first bytes of `sonde decode` of the raw file.  Then a reader that is
# slow but keeps reading, and links with nothing on them.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
command -v socat >/dev/null 2>&1 || { echo "SKIP: socat not found"; exit 77; }
live_setup
FT=$WORK/fake_target.py
LIMIT=5
FAST=(--synth 0 --chunk 4096 --delay 0.0005)

# start_reader NAME: a stalled reader on a new FIFO $W_OUT; output in $W_GOT
start_reader() {
	W_OUT=$WORK/$1.fifo
	W_GOT=$WORK/$1.got
	rm -f "$W_OUT"
	mkfifo "$W_OUT"
	stalled_reader "$W_OUT" "$W_GOT" 20000
}

# live NAME LINK [OPTIONS]: sonde live into the reader's FIFO; pid in $LIVE
live() {
	local name=$1
	shift
	bg "$SONDE" live "$@" --proto sonde -w "$WORK/$name.raw" </dev/null >"$W_OUT" 2>"$WORK/$name.err"
	LIVE=$!
}

# stopped NAME SIGNAL SENT_LOG: stop $LIVE once the reader has stopped and
# sonde is blocked writing to it, check what is left behind
stopped() {
	local name=$1 sig=$2 sent=$3 n
	wait_for -p "$LIVE" size_at_least "$W_GOT" 20000 || { cat "$WORK/$name.err"; fail "$name: no output"; }
	wait_for -p "$LIVE" writing "$LIVE" 1 || { cat "$WORK/$name.err"; fail "$name: sonde is not held up by its reader"; }
	stop_within "$sig" "$LIVE" "$LIMIT"
	local err=$WORK/$name.err raw=$WORK/$name.raw
	[ "$STOP_RC" -eq 3 ] || { cat "$err"; fail "$name: exit status $STOP_RC, expected 3 (output cut short)"; }
	grep -q "^sonde live: <stdout>: write error: the reader did not take the last [0-9]* bytes within 0.4 s of the stop$" "$err" ||
		{ cat "$err"; fail "$name: the cut output is not reported"; }
	n=$(file_size "$raw")
	grep -q "^bytes  *$n$" "$err" || { cat "$err"; fail "$name: summary does not count the $n bytes of the raw file"; }
	grep -q "^raw capture .*, $n bytes$" "$err" || fail "$name: summary: raw capture"
	if [ -n "$sent" ]; then
		cmp -n "$n" "$raw" "$sent" || fail "$name: raw file is not what the target sent"
		[ "$(file_size "$sent")" -ge "$n" ] || fail "$name: raw file longer than what was sent"
	fi
	"$SONDE" decode "$raw" >"$WORK/$name.ref" 2>/dev/null || true
	cmp -n "$(file_size "$W_GOT")" "$W_GOT" "$WORK/$name.ref" || fail "$name: output is not 'sonde decode' of the raw file"
	echo "$name: SIG$sig ended sonde live in $STOP_MS ms (raw file $n bytes)"
}

# 1. TCP client
start_reader tcp
bg python3 "$FT" --listen "$WORK/tcp.port" "${FAST[@]}" --log "$WORK/tcp.sent"
wait_for -p $! test -s "$WORK/tcp.port" || fail "tcp: target did not start"
live tcp "tcp://127.0.0.1:$(cat "$WORK/tcp.port")"
stopped tcp TERM "$WORK/tcp.sent"

# 2. TCP server (--listen): the target connects
start_reader listen
port=$(free_port)
live listen "$port" --listen
bg python3 "$FT" --connect "$port" "${FAST[@]}" --log "$WORK/listen.sent"
stopped listen INT "$WORK/listen.sent"

# 3. UDP
start_reader udp
port=$(free_port)
live udp "udp://127.0.0.1:$port"
udp_bound() { ! python3 -c "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).bind(('127.0.0.1', $1))" 2>/dev/null; }
wait_for -p "$LIVE" udp_bound "$port" || fail "udp: sonde does not listen"
bg python3 "$FT" --udp "$port" --synth 0 --chunk 1024 --delay 0.0005
stopped udp TERM ""

# 4. serial: a pty pair
start_reader serial
bg socat pty,raw,echo=0,link="$WORK/ttyA" pty,raw,echo=0,link="$WORK/ttyB"
wait_for -p $! test -e "$WORK/ttyA" -a -e "$WORK/ttyB" || fail "socat made no pty pair"
live serial "serial:$WORK/ttyA:921600"
bg python3 "$FT" --tty "$WORK/ttyB" "${FAST[@]}" --log "$WORK/serial.sent"
stopped serial INT "$WORK/serial.sent"

# 5. a followed file that keeps growing
start_reader follow
python3 "$FT" --append "$WORK/grow.bin" --synth 2000 --chunk 65536 --delay 0
bg python3 "$FT" --append "$WORK/grow.bin" --synth 200000 --chunk 4096 --delay 0.001
live follow "file:$WORK/grow.bin" --follow
stopped follow TERM "$WORK/grow.bin"

# 6. standard input
start_reader stdin
mkfifo "$WORK/in.fifo"
bg python3 "$FT" --append "$WORK/in.fifo" "${FAST[@]}" --log "$WORK/stdin.sent"
# (not through bg: a background command's stdin is /dev/null unless redirected on it)
"$SONDE" live - --proto sonde -w "$WORK/stdin.raw" <"$WORK/in.fifo" >"$W_OUT" 2>"$WORK/stdin.err" &
LIVE=$!
LIVE_PIDS+=("$LIVE")
stopped stdin INT "$WORK/stdin.sent"

# 7. a slow reader that keeps reading: what it got is still a prefix of the
#    decode, and sonde ends within the bound, cut short or not
mkfifo "$WORK/slow.fifo"
slow_reader "$WORK/slow.fifo" "$WORK/slow.got"
reader=$!
bg python3 "$FT" --listen "$WORK/slow.port" "${FAST[@]}" --log "$WORK/slow.sent"
wait_for -p $! test -s "$WORK/slow.port" || fail "slow: target did not start"
bg "$SONDE" live "tcp://127.0.0.1:$(cat "$WORK/slow.port")" --proto sonde -w "$WORK/slow.raw" </dev/null \
	>"$WORK/slow.fifo" 2>"$WORK/slow.err"
LIVE=$!
wait_for -p "$LIVE" -l "$WORK/slow.err" size_at_least "$WORK/slow.got" 30000 || fail "slow: no output"
stop_within TERM "$LIVE" "$LIMIT"
[ "$STOP_RC" -le 1 ] || { [ "$STOP_RC" -eq 3 ] && grep -q "the reader did not take" "$WORK/slow.err"; } ||
	{ cat "$WORK/slow.err"; fail "slow: exit status $STOP_RC"; }
n=$(file_size "$WORK/slow.raw")
cmp -n "$n" "$WORK/slow.raw" "$WORK/slow.sent" || fail "slow: raw file is not what the target sent"
wait_for gone "$reader" || fail "slow: the reader did not get to the end of its pipe"
"$SONDE" decode "$WORK/slow.raw" >"$WORK/slow.ref" 2>/dev/null || true
cmp -n "$(file_size "$WORK/slow.got")" "$WORK/slow.got" "$WORK/slow.ref" || fail "slow: output is not 'sonde decode' of the raw file"
echo "slow reader: SIGTERM ended sonde live in $STOP_MS ms, status $STOP_RC"

# 8. nothing on the link: a server waiting for its first client, a client
#    whose server says nothing
port=$(free_port)
bg "$SONDE" live "$port" --listen --proto sonde </dev/null >/dev/null 2>"$WORK/idle1.err"
LIVE=$!
wait_for -p "$LIVE" has_text "$WORK/idle1.err" "waiting for a client" || { cat "$WORK/idle1.err"; fail "idle listen: not waiting"; }
stop_within INT "$LIVE" "$LIMIT"
[ "$STOP_RC" -eq 0 ] || { cat "$WORK/idle1.err"; fail "idle listen: exit status $STOP_RC"; }
echo "idle tcp-listen: SIGINT ended sonde live in $STOP_MS ms"
bg python3 "$FT" --listen "$WORK/mute.port" --synth 1 --hold "$HANG"
wait_for -p $! test -s "$WORK/mute.port" || fail "mute: target did not start"
bg "$SONDE" live "tcp://127.0.0.1:$(cat "$WORK/mute.port")" --proto sonde -w "$WORK/mute.raw" </dev/null >/dev/null \
	2>"$WORK/idle2.err"
LIVE=$!
wait_for -p "$LIVE" size_at_least "$WORK/mute.raw" 1 || { cat "$WORK/idle2.err"; fail "mute: nothing received"; }
stop_within TERM "$LIVE" "$LIMIT"
[ "$STOP_RC" -le 1 ] || { cat "$WORK/idle2.err"; fail "idle tcp: exit status $STOP_RC"; }
grep -q "^records  *[0-9]" "$WORK/idle2.err" || { cat "$WORK/idle2.err"; fail "idle tcp: no summary"; }
echo "silent tcp peer: SIGTERM ended sonde live in $STOP_MS ms"
echo "PASS"
