#!/usr/bin/env bash
# test_qspy_frontend.sh -- `sonde qspy` between a QS target model and a
# front-end (qspy_fake.py, both sides in one script): every packet kind of
# QSPY's UDP front-end interface (attach/detach, the target's records on the
# text and binary channels with QSPY's sequence numbers, each QS-RX record
# sent straight to the target, events/AO filters/current objects/commands/
# test probes named by the target's dictionaries and the errors for unknown
# names, notes, text and binary files, the front-end's sequence check, a
# second front-end refused, a target reset restarting the QS-RX sequence, a
# forced exit), and at the same time Sonde's own outputs: the raw bytes (-w)
# equal what the target sent, the screen shows the lines `sonde decode
# --format qspy` prints for them, the export (--format jsonl) has the
# records, and the summary accounts for every frame.  Then -f (a file for
# the target) and QSPY's option errors.
set -u
source "$(dirname "$0")/test_live_lib.sh"
live_setup
cp "$(dirname "$0")/qspy_fake.py" "$WORK/"
cd "$WORK" || fail "no $WORK"

udp_bound() { grep -q "^ *[0-9]*: 0100007F:$(printf '%04X' "$1") " /proc/net/udp; }

TCP=$(free_port)
UDP=$(free_port)
bg "$SONDE" qspy -u"$UDP" -t"$TCP" -k -w raw.bin --format jsonl --output out.jsonl >out.txt 2>err.txt
SPID=$!
wait_for -p $SPID -l err.txt listening "$TCP" || fail "sonde qspy does not listen on TCP $TCP"
wait_for -p $SPID -l err.txt udp_bound "$UDP" || fail "sonde qspy does not listen on UDP $UDP"
timeout "$HANG" python3 qspy_fake.py "$TCP" "$UDP" "$WORK" >fake.log 2>&1 || { cat fake.log; tail -30 out.txt err.txt; fail "qspy_fake.py"; }
cat fake.log
wait $SPID
rc=$?
[ $rc -eq 0 ] || { cat err.txt; fail "sonde qspy exit status $rc after a front-end's forced exit"; }

# the raw capture is every byte the target sent (over both of its connections)
cmp raw.bin target.bin || fail "raw.bin differs from what the target sent"
# the screen: QSPY's lines for the records, as sonde decode prints them ...
"$SONDE" decode --proto qs --format qspy target.bin >decoded.txt 2>decode.err
grep -v -e '^   <' -e '^a note from the front-end$' out.txt >records.txt
diff decoded.txt records.txt >diff.txt || { cat diff.txt; fail "the record lines differ from sonde decode's"; }
[ "$(wc -l <records.txt)" -ge 40 ] || fail "only $(wc -l <records.txt) record lines"
# ... and QSPY's own lines
for l in "   <F-END> Attached Chan=00000010" "   <COMMS> TCP-IP   Connected to Host=127.0.0.1,Port=[0-9]*" \
	"   <COMMS> TCP-IP   Disconn from Host=127.0.0.1,Port=[0-9]*" "a note from the front-end" \
	"   <F-END> ERROR    Signal Dictionary not found for Sig=NOPE_SIG" "   <F-END> WARN     UDP socket in use" \
	"   <F-END> Forced EXIT ###################################"; do
	grep -qx -- "$l" out.txt || { cat out.txt; fail "no line '$l'"; }
done
[ "$(grep -c 'TCP-IP   Connected' out.txt)" -eq 2 ] || fail "the target connects twice (before and after its reset)"
# QSPY's files, opened and closed by the front-end
txt=$(ls qspy*.txt 2>/dev/null)
bin=$(ls qspy*.bin 2>/dev/null)
[ -n "$txt" ] && [ -n "$bin" ] || fail "TEXT_OUT/BIN_OUT made no files: $(ls)"
grep -qx "0000000077 USER+000 9" "$txt" || { cat "$txt"; fail "the text file lacks the record"; }
grep -q "0000000078" "$txt" && fail "the text file was not closed by TEXT_OUT off"
[ -s "$bin" ] || fail "the binary file is empty"
# Sonde's export and the summary at the same time
[ "$(grep -c '"USER+000"' out.jsonl)" -eq 2 ] || fail "out.jsonl: $(grep -c USER out.jsonl) user records, want 2"
for f in "sequence gaps          0" "unexplained lost       0" "checksum errors        0"; do
	grep -q "^$f" err.txt || { cat err.txt; fail "summary: no '$f'"; }
done
grep -q "^front-ends .*UDP 127.0.0.1:$UDP, [0-9]* packets in" err.txt || { cat err.txt; fail "summary: no front-end figures"; }
grep -q "^target link .*connected 2 times" err.txt || { cat err.txt; fail "summary: target link"; }

# -f: the target's bytes from a file; the same lines, the end of the file ends it
"$SONDE" qspy -f target.bin -u0 >file.txt 2>file.err || { cat file.err; fail "sonde qspy -f"; }
grep -v '^   <' file.txt | diff decoded.txt - || fail "sonde qspy -f prints other lines"

# QSPY's option rules
"$SONDE" qspy -t -f x >/dev/null 2>opt.err && fail "-t with -f accepted"
grep -q "the -f option is incompatible with -t" opt.err || { cat opt.err; fail "-t -f message"; }
"$SONDE" qspy -m >/dev/null 2>opt.err; [ $? -eq 2 ] || fail "-m: want exit 2"
grep -q "not provided" opt.err || fail "-m message: $(cat opt.err)"
"$SONDE" qspy -t 6601 >/dev/null 2>opt.err; [ $? -eq 2 ] || fail "-t 6601 (detached value): want exit 2"
grep -q "attached" opt.err || fail "-t 6601 message: $(cat opt.err)"
echo "PASS"
