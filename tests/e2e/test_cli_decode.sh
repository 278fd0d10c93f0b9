#!/usr/bin/env bash
# test_cli_decode.sh -- `sonde decode` end to end: the three formats on a
# small generated stream in protocol versions 2 and 1 (text byte for byte),
# a stream joined mid-way (-o version=1 for an old one), stdin and
# --output, help and version, and the exit status of every kind of wrong
# usage and I/O error.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup

head_part() {
	session 1000000
	sf 4 3 $(le32 5) $(strz 'UART~rx')                 # DICT ISR 5
	sf 4 7 $(le32 1) $(strz 'speed=%d %s')             # DICT FORMAT 1
	tsync 0x7e7d 0xffffffff                            # TIME_SYNC, nothing before it
}
stream() {
	head_part
	tf 5 0x7e7d 5                                      # ISR_ENTER 5
	tf 0x13 0x7e90 3 $(le16 1) 7 $(le32 0xfffffa24) 11 $(strz 'fast')
	tf 0x40 0x7ea0 3 $(le32 0x7e7d) 13 5 12 2 0x7e 0x7d
	tf 6 0x7eb0                                        # ISR_EXIT
}
# text, byte for byte: the same in both versions but for TARGET_INFO
want() {
	cat <<TXT
           -               - EMPTY
           -               - TARGET_INFO version=$1 big_endian=false reset=true addr_size=4 mode="overwrite" core=0 ts_size=$(( $1 == 1 ? 2 : 0 )) ts_freq=1000000 buffer_size=4096 build_id=0x12345678
TXT
	cat <<'TXT'
           -               - DICT id=5 dict_kind=ISR name="UART~rx"
           -               - DICT id=1 dict_kind=FORMAT name="speed=%d %s"
       32381     0.032381000 TIME_SYNC since_prev="unknown"
       32381     0.032381000 ISR_ENTER isr=5(UART~rx) depth=1
       32400     0.032400000 LOG level=info msg="speed=-1500 fast"
       32416     0.032416000 USER_0x40 32381 5(UART~rx) <7e 7d>
       32432     0.032432000 ISR_EXIT isr=5(UART~rx) depth=1
TXT
}
for VER in 1 2; do
	stream >"$TMP/s$VER.bin"
	want $VER >"$TMP/want$VER"
	expect_rc 0 "$SONDE" decode "$TMP/s$VER.bin"
	cmp "$OUT" "$TMP/want$VER" || { diff "$OUT" "$TMP/want$VER"; fail "text output, version $VER"; }
	[[ -s $ERR ]] && fail "unexpected stderr: $(cat "$ERR")"
	expect_rc 0 "$SONDE" stats "$TMP/s$VER.bin"
	expect_line "$OUT" "protocol               sonde v$VER"
done
# version 1's ISR_ENTER as version 1 wrote it, timestamp first; version 2's
# with its 1-byte timestamp field last
at=$(head_part | wc -c)
[[ $(od -An -tx1 -j $at -N 9 "$TMP/s1.bin") == " 05 05 7d 5d 7d 5e 05 $(printf %02x $(( ~(5 + 5 + 0x7d + 0x7e + 5) & 255 ))) 7e" ]] ||
	fail "v1 ISR_ENTER bytes: $(od -An -tx1 -j $at -N 9 "$TMP/s1.bin")"
[[ $(od -An -tx1 -j $at -N 6 "$TMP/s2.bin") == " 05 05 05 00 $(printf %02x $(( ~(5 + 5 + 5) & 255 ))) 7e" ]] ||
	fail "v2 ISR_ENTER bytes: $(od -An -tx1 -j $at -N 6 "$TMP/s2.bin")"

# joined mid-way, after TARGET_INFO: version 2 unless -o version=1 says 1
for VER in 1 2; do
	cut=$(( $(session 1000000 | wc -c) + 1 ))
	tail -c +$cut "$TMP/s$VER.bin" >"$TMP/j$VER.bin"
	opt=(--proto sonde -o ts_freq=1000000)
	(( VER == 1 )) && opt+=(-o version=1)
	expect_rc 0 "$SONDE" decode "${opt[@]}" "$TMP/j$VER.bin"
	tail -n +3 "$TMP/want$VER" | cmp - "$OUT" || { tail -n +3 "$TMP/want$VER" | diff "$OUT" -; fail "joined, version $VER"; }
	expect_rc 0 "$SONDE" stats "${opt[@]}" "$TMP/j$VER.bin"
done
expect_line "$OUT" "protocol               sonde v3 (no TARGET_INFO: assumed)"
expect_rc 0 "$SONDE" stats --proto sonde -o version=1 "$TMP/j1.bin"
expect_line "$OUT" "protocol               sonde v1 (no TARGET_INFO: -o version=1)"
# a version-1 stream taken for version 2: its records do not fit (status 1)
expect_rc 1 "$SONDE" decode --proto sonde "$TMP/j1.bin"
expect_has "$ERR" "malformed: ISR_ENTER: 2 data bytes before its 1-byte timestamp, expected 1"
# a TARGET_INFO wins over -o version
expect_rc 0 "$SONDE" decode -o version=1 "$TMP/s2.bin"
cmp "$OUT" "$TMP/want2" || fail "-o version=1 with a version-2 TARGET_INFO"
expect_rc 2 "$SONDE" decode -o version=4 "$TMP/s2.bin"
expect_has "$ERR" "-o version=4: expected a number from 1 to 3"

# the rest on the version-2 stream
cp "$TMP/s2.bin" "$TMP/s.bin"
cp "$TMP/want2" "$TMP/want"
expect_rc 0 "$SONDE" decode "$TMP/s.bin"
cmp "$OUT" "$TMP/want" || { diff "$OUT" "$TMP/want"; fail "text output"; }

# stdin, '-', --output give the same
expect_rc 0 "$SONDE" decode - <"$TMP/s.bin"
cmp "$OUT" "$TMP/want" || fail "decode - < file"
cat "$TMP/s.bin" | "$SONDE" decode >"$OUT" 2>"$ERR" || fail "decode from a pipe"
cmp "$OUT" "$TMP/want" || fail "decode from a pipe"
expect_rc 0 "$SONDE" decode "$TMP/s.bin" --output "$TMP/o.txt" --proto sonde --format text
[[ -s $OUT ]] && fail "--output: stdout not empty"
cmp "$TMP/o.txt" "$TMP/want" || fail "--output"

# ---- jsonl ----
expect_rc 0 "$SONDE" decode -f jsonl "$TMP/s.bin"
[[ $(wc -l <"$OUT") == 9 ]] || fail "jsonl: 9 lines expected"
expect_line "$OUT" '{"offset":0,"frame":0,"seq":0,"ts":null,"seconds":null,"estimated":false,"core":0,"kind":"info","rec_id":0,"record":"EMPTY"}'
expect_has "$OUT" '"kind":"time_sync","rec_id":2,"record":"TIME_SYNC","args":[{"name":"since_prev","type":"str","value":"unknown"}]}'
expect_has "$OUT" '"kind":"log","rec_id":19,"record":"LOG","level":3,"level_name":"info","msg":"speed=-1500 fast","args":[{"type":"i32","value":-1500},{"type":"str","value":"fast"}]}'
expect_has "$OUT" '"args":[{"type":"u32","value":32381},{"type":"obj","value":5,"resolved":"UART~rx"},{"type":"mem","value":"7e7d"}]}'
if command -v python3 >/dev/null; then
	python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$OUT" || fail "jsonl: invalid JSON"
fi

# ---- csv ----
expect_rc 0 "$SONDE" decode --format=csv "$TMP/s.bin"
[[ $(head -1 "$OUT") == $'offset,frame,seq,ts,seconds,estimated,core,kind,rec_id,record,obj,obj_name,obj2,obj2_name,value,level,text,args\r' ]] || fail "csv header"
[[ $(wc -l <"$OUT") == 10 ]] || fail "csv: 10 lines expected"
grep -q $',isr_enter,5,ISR_ENTER,5,UART~rx,,,1,,,\r$' "$OUT" || fail "csv ISR_ENTER row"
grep -q $',log,19,LOG,,,,,,3,speed=-1500 fast,"-1500 ""fast"""\r$' "$OUT" || fail "csv LOG row"

# ---- help and version ----
expect_rc 0 "$SONDE" --version
grep -qE '^sonde [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-zA-Z._-]+\)$' "$OUT" || fail "--version: $(cat "$OUT")"
# the commit is the source tree's (its name without "-dirty": a file edited
# since the build does not make the binary wrong)
if commit=$(git -C "$SONDE_SRC" describe --always --abbrev=12 2>/dev/null); then
  grep -qF "(commit $commit" "$OUT" || fail "--version names '$(cat "$OUT")', the tree is at $commit"
fi
expect_rc 0 "$SONDE" --help
expect_has "$OUT" "usage: sonde <command>"
expect_has "$OUT" "  decode "
expect_has "$OUT" "  stats "
expect_rc 0 "$SONDE" help decode
for w in "--proto NAME" "--format NAME" "-o KEY=VALUE" "--output FILE" "  sonde " "  text " "  jsonl " "  csv " "exit status"; do
	expect_has "$OUT" "$w"
done
expect_rc 0 "$SONDE" decode --help
expect_has "$OUT" "usage: sonde decode"
expect_rc 0 "$SONDE" help stats
expect_has "$OUT" "usage: sonde stats"

# ---- usage errors: status 2, the option named ----
expect_rc 2 "$SONDE"
expect_has "$ERR" "usage: sonde"
expect_rc 2 "$SONDE" frobnicate
expect_has "$ERR" "sonde: unknown command 'frobnicate'"
expect_rc 2 "$SONDE" --frob
expect_has "$ERR" "sonde: unknown option '--frob'"
expect_rc 2 "$SONDE" decode --frmat csv "$TMP/s.bin"
expect_has "$ERR" "sonde decode: unknown option '--frmat'"
expect_rc 2 "$SONDE" decode -x "$TMP/s.bin"
expect_has "$ERR" "sonde decode: unknown option '-x'"
expect_rc 2 "$SONDE" decode --format nosuch "$TMP/s.bin"
expect_has "$ERR" "unknown format 'nosuch' for option '--format'"
expect_rc 2 "$SONDE" decode --proto nosuch "$TMP/s.bin"
expect_has "$ERR" "unknown protocol 'nosuch'"
expect_rc 2 "$SONDE" decode "$TMP/s.bin" --proto
expect_has "$ERR" "option '--proto' needs a value"
expect_rc 2 "$SONDE" decode -o novalue "$TMP/s.bin"
expect_has "$ERR" "option '-o' expects KEY=VALUE, got 'novalue'"
expect_rc 2 "$SONDE" decode --quiet=yes "$TMP/s.bin"
expect_has "$ERR" "option '--quiet' takes no value"
expect_rc 2 "$SONDE" decode $(for i in $(seq 17); do echo "$TMP/s.bin"; done)
expect_has "$ERR" "too many inputs (at most 16)"
expect_rc 2 "$SONDE" decode --max-diags many "$TMP/s.bin"
expect_has "$ERR" "option '--max-diags' expects a number"
expect_rc 2 "$SONDE" decode -o ts_freq=fast "$TMP/s.bin"
expect_has "$ERR" "-o ts_freq=fast: expected a number"
expect_rc 2 "$SONDE" help nosuch
expect_has "$ERR" "unknown command 'nosuch'"
# an empty trace as an HTML page: no timeline items (sorting none was
# undefined behaviour, qsort(NULL, 0); the sanitizer build reports it;
# found by fuzz_sinks, tests/fuzz/regress/sinks/)
: >"$TMP/empty.bin"
expect_rc 0 "$SONDE" decode -p sonde -f html "$TMP/empty.bin"
expect_has "$OUT" '"items":[]'
# sonde live refusing its command line after a --filter, or showing its
# help: the selection is freed (a leak LeakSanitizer reports in the
# sanitizer build, found by fuzz_cli; tests/fuzz/regress/cli/)
expect_rc 0 "$SONDE" live --filter kind=isr_enter --help
expect_has "$OUT" "usage: sonde live"
expect_rc 2 "$SONDE" live --filter kind=isr_enter --format nosuch -
expect_has "$ERR" "unknown format 'nosuch' for option '--format'"
expect_rc 2 "$SONDE" live --filter kind=isr_enter --proto nosuch -
expect_has "$ERR" "unknown protocol 'nosuch'"
# an option nobody reads is a warning, not an error
expect_rc 0 "$SONDE" decode -o colour=blue "$TMP/s.bin"
expect_has "$ERR" "warning: option '-o colour=blue' was not used"

# ---- I/O errors: status 3 ----
expect_rc 3 "$SONDE" decode "$TMP/missing.bin"
expect_has "$ERR" "cannot open '$TMP/missing.bin'"
expect_rc 3 "$SONDE" decode "$TMP"
expect_has "$ERR" "read error at offset 0"
expect_rc 3 "$SONDE" decode "$TMP/s.bin" --output "$TMP/nodir/x"
expect_has "$ERR" "cannot create '$TMP/nodir/x'"
# A full disk is said as such (strerror of the write's own errno), once,
# naming the output, whatever the command and however late stdio notices
# (docs/cli.md section 3).  Before: "write error: write failed" for live,
# "write error" alone for --help.
if [[ -w /dev/full ]]; then
	ENOSPC="write error: No space left on device"
	full() { # STATUS LINE CMD...: CMD >/dev/full says exactly LINE on stderr
		local want=$1 line=$2 rc
		shift 2
		"$@" >/dev/full 2>"$ERR"; rc=$?
		[[ $rc == "$want" ]] || { cat "$ERR"; fail "$* >/dev/full: status $rc, expected $want"; }
		[[ $(grep -c "write error" "$ERR") == 1 ]] && grep -qx -- "$line" "$ERR" ||
			{ cat "$ERR"; fail "$* >/dev/full: expected the one line '$line'"; }
	}
	for f in text jsonl csv perfetto chrome profile folded; do
		full 3 "sonde decode: <stdout>: $ENOSPC" "$SONDE" decode -f $f "$TMP/s.bin"
	done
	full 3 "sonde decode: /dev/full: $ENOSPC" "$SONDE" decode "$TMP/s.bin" --output /dev/full
	full 3 "sonde stats: <stdout>: $ENOSPC" "$SONDE" stats "$TMP/s.bin"
	full 3 "sonde: <stdout>: $ENOSPC" "$SONDE" --help
	full 3 "sonde help: <stdout>: $ENOSPC" "$SONDE" help live
	head -c 60 "$TMP/s.bin" >"$TMP/small.bin" # nothing written before the end
	full 3 "sonde live: <stdout>: $ENOSPC" "$SONDE" live "file:$TMP/small.bin" --proto sonde -q
	full 3 "sonde live: <stdout>: $ENOSPC" "$SONDE" live "file:$TMP/s.bin" --proto sonde -q
fi
echo ok
