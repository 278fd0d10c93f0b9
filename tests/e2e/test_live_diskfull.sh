#!/usr/bin/env bash
# test_live_diskfull.sh -- a full disk during a live capture: a 64 KiB tmpfs
# (mounted in a private mount namespace, `unshare -rm`, so no root is
# needed and nothing is left mounted) holds the raw file (-w), or the
# decoded output.  sonde live says which file and "No space left on
# device", stops with status 3, and what it wrote stays intact: the raw
# file is the first bytes the peer sent (its log) and decodes; the output
# is `sonde decode` of the raw file up to where the disk was full.
# Skipped (77) where no mount namespace can be made.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
command -v unshare >/dev/null 2>&1 || { echo "SKIP: unshare not found"; exit 77; }
live_setup
FT=$WORK/fake_target.py
mkdir "$WORK/small"

# full NAME SONDE-OPTIONS...: sonde live with $SMALL a 64 KiB tmpfs; what was
# written there is copied to $WORK/NAME.* afterwards; status in $RC
full() {
	local name=$1
	shift
	rm -f "$WORK/port"
	bg python3 "$FT" --listen "$WORK/port" --synth 0 --chunk 1000 --delay 0.0005 --log "$WORK/$name.sent"
	wait_for -p $! test -s "$WORK/port" || fail "$name: peer did not start"
	RC=0
	timeout -k 5 "$HANG" unshare -rm bash -c '
		mount -t tmpfs -o size=64k tmpfs "$SMALL" || exit 77
		rc=0
		"$@" || rc=$?
		cp -p "$SMALL"/* "$OUTDIR/" 2>/dev/null
		exit $rc' _ "$SONDE" live "tcp://127.0.0.1:$(cat "$WORK/port")" --proto sonde "$@" \
		</dev/null 2>"$WORK/$name.err" || RC=$?
	[ "$RC" -ne 77 ] || { echo "SKIP: cannot mount a tmpfs in a mount namespace"; exit 77; }
}
export SMALL=$WORK/small OUTDIR=$WORK/kept
mkdir "$OUTDIR"

# 1. the raw file fills the disk
full raw -w "$SMALL/raw.bin" --output "$WORK/raw.out"
[ "$RC" -eq 3 ] || { cat "$WORK/raw.err"; fail "raw: exit status $RC, expected 3"; }
n=$(file_size "$OUTDIR/raw.bin")
grep -q "^sonde live: $SMALL/raw.bin: write error: No space left on device; stopping (the $n bytes written are kept)$" \
	"$WORK/raw.err" || { cat "$WORK/raw.err"; fail "raw: the full disk is not reported"; }
grep -Eq "^raw capture +$SMALL/raw.bin, $n bytes \(then: No space left on device; [0-9]+ bytes received were not saved\)$" \
	"$WORK/raw.err" || { cat "$WORK/raw.err"; fail "raw: summary"; }
[ "$n" -gt 32768 ] && [ "$n" -le 65536 ] || fail "raw: $n bytes on a 64 KiB disk"
cmp -n "$n" "$OUTDIR/raw.bin" "$WORK/raw.sent" || fail "raw: the raw file is not what the peer sent"
rc=0
"$SONDE" decode "$OUTDIR/raw.bin" --proto sonde >"$WORK/raw.ref" 2>"$WORK/raw.ref.err" || rc=$?
[ "$rc" -le 1 ] && [ "$(grep -vc ': truncated: ' "$WORK/raw.ref.err")" -eq 0 ] ||
	{ cat "$WORK/raw.ref.err"; fail "raw: the raw file does not decode cleanly (a cut last frame at most)"; }
# the records of the saved bytes are the first records of the live output
head -n "$(($(wc -l <"$WORK/raw.ref") - 1))" "$WORK/raw.ref" | cmp -s - <(head -n "$(($(wc -l <"$WORK/raw.ref") - 1))" "$WORK/raw.out") ||
	fail "raw: the saved bytes decode to other records than the live output began with"
echo "raw file on a full disk: $n bytes kept, all what the peer sent first, $(wc -l <"$WORK/raw.ref") records decode"

# 2. the decoded output fills the disk; the raw file (elsewhere) is whole
full out -w "$WORK/out.raw" --output "$SMALL/out.txt"
[ "$RC" -eq 3 ] || { cat "$WORK/out.err"; fail "output: exit status $RC, expected 3"; }
grep -q "^sonde live: $SMALL/out.txt: write error: No space left on device$" "$WORK/out.err" ||
	{ cat "$WORK/out.err"; fail "output: the full disk is not reported"; }
m=$(file_size "$WORK/out.raw")
cmp -n "$m" "$WORK/out.raw" "$WORK/out.sent" || fail "output: the raw file is not what the peer sent"
grep -q "^raw capture  *$WORK/out.raw, $m bytes$" "$WORK/out.err" || fail "output: summary: raw capture"
"$SONDE" decode "$WORK/out.raw" --proto sonde >"$WORK/out.ref" 2>/dev/null || true
cmp -n "$(file_size "$OUTDIR/out.txt")" "$WORK/out.ref" "$OUTDIR/out.txt" ||
	fail "output: what was written is not 'sonde decode' of the raw file"
echo "output on a full disk: $(file_size "$OUTDIR/out.txt") bytes written, all right; raw file $m bytes, whole"
echo "PASS"
