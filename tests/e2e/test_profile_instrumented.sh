#!/usr/bin/env bash
# test_profile_instrumented.sh -- the profiling workflow of docs/profiling.md,
# end to end: a program built here with -finstrument-functions records
# FUNC_ENTER_A/FUNC_EXIT through the Sonde target library (POSIX port, with a
# clock the program drives, so every time is exact), `sonde` decodes the
# trace with -o elf=<the program> and prints the profile and folded stacks.
# A second run sends Cortex-M (Thumb) addresses, named from an ARM ELF built
# with arm-none-eabi-gcc.  Expected numbers are worked out in the comments.
set -euo pipefail
: "${SONDE:?}" "${SONDE_SRC:?}"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
T=$SONDE_SRC/target
CC=${CC:-gcc}
fail() { echo "FAIL: $*" >&2; exit 1; }

# ---- the target library, not instrumented --------------------------------
for f in "$T"/src/*.c "$T"/ports/posix/*.c; do
  $CC -std=c11 -D_GNU_SOURCE -O1 -I"$T/include" -I"$T/ports/posix" -c "$f" \
    -o "$W/lib_$(basename "$f" .c).o"
done

# ---- the instrumented program ----------------------------------------------
cat > "$W/prog.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include "sonde.h"
#include "sonde_posix.h"

#define NOINSTR __attribute__((no_instrument_function))

static uint8_t buf[8192];
static uint32_t now; /* the trace clock: each function advances it */

NOINSTR static uint32_t clock_fn(void) { return now; }

NOINSTR void __cyg_profile_func_enter(void *fn, void *site) { (void)site; sonde_func_enter_addr(fn); }
NOINSTR void __cyg_profile_func_exit(void *fn, void *site) { (void)fn; (void)site; sonde_func_exit(); }

static void leaf(void) { now += 10; }
static void work(void) { now += 5; leaf(); now += 5; leaf(); }
static unsigned fib(unsigned n) { now += 1; return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static void busy(void)
{
	now += 20;
	sonde_isr_enter(7); /* an "interrupt" in the middle of busy() */
	now += 8;
	sonde_isr_exit(7);
	now += 20;
}

NOINSTR static void thumb(void)
{
	/* what a Cortex-M build would send: Thumb function pointers */
	sonde_func_enter_addr((const void *)0x08000101); now += 10; /* work */
	sonde_func_enter_addr((const void *)0x08000201); now += 4;  /* helper */
	sonde_func_exit(); now += 10;
	sonde_func_exit();
	sonde_func_enter_addr((const void *)0x08000301); now += 3;  /* SysTick_Handler = Default_Handler */
	sonde_func_exit();
}

NOINSTR int main(int argc, char **argv)
{
	uint8_t out[256];
	size_t n;

	sonde_posix_set_clock(clock_fn);
	now = 1000;
	sonde_init(buf, sizeof(buf), SONDE_MODE_DROP_NEW);
	if (argc > 1 && strcmp(argv[1], "thumb") == 0) {
		thumb();
	} else {
		work();
		if (fib(3) != 2)
			return 1;
		busy();
	}
	while ((n = sonde_drain(out, sizeof(out))) > 0)
		fwrite(out, 1, n, stdout);
	return 0;
}
EOF
# -no-pie: the addresses the program sends are then the ELF's addresses
$CC -std=c11 -D_GNU_SOURCE -O0 -g -fno-pie -no-pie -finstrument-functions \
  -I"$T/include" -I"$T/ports/posix" "$W/prog.c" "$W"/lib_*.o -lpthread -o "$W/prog"
"$W/prog" > "$W/trace.bin"
"$W/prog" thumb > "$W/thumb.bin"

# ---- profile -----------------------------------------------------------------
# work 1000..1030: leaf 1005..1015 and 1020..1030 -> work incl 30, self 10
# fib(3) 1030..1035: 5 calls (3, 2, 1, 0, 1), activations 5, 3, 1, 1, 1
# busy 1035..1083 with the ISR 1055..1063 -> busy 40, isr#7 8; total 83
"$SONDE" decode "$W/trace.bin" --format profile -o elf="$W/prog" > "$W/profile.txt"
cat > "$W/expected.txt" <<'EOF'
Profile: 83 ticks traced = 83.000 us at 1000000 Hz

Functions (4, sorted by self):
function  calls  incl[t]  self[t]  self%  mean[t]  min[t]  max[t]  incl[us]  self[us]  mean[us]  min[us]  max[us]
busy          1       40       40  48.19     40.0      40      40    40.000    40.000    40.000   40.000   40.000
leaf          2       20       20  24.10     10.0      10      10    20.000    20.000    10.000   10.000   10.000
work          1       30       10  12.05     30.0      30      30    30.000    10.000    30.000   30.000   30.000
fib           5        5        5   6.02      2.2       1       5     5.000     5.000     2.200    1.000    5.000

Tasks (CPU time outside ISRs):
task     switches  run[t]   cpu%  run[us]
No task         0      75  90.36   75.000

ISRs (CPU time without nested ISRs):
isr    count  total[t]  cpu%  mean[t]  max[t]  total[us]  mean[us]  max[us]
isr#7      1         8  9.64      8.0       8      8.000     8.000    8.000
EOF
diff -u "$W/expected.txt" "$W/profile.txt" || fail "profile differs"

# ---- folded --------------------------------------------------------------------
"$SONDE" decode "$W/trace.bin" --format folded -o elf="$W/prog" > "$W/folded.txt"
cat > "$W/expected.txt" <<'EOF'
No task;busy 40
No task;fib 1
No task;fib;fib 2
No task;fib;fib;fib 2
No task;work 10
No task;work;leaf 20
isr:isr#7 8
EOF
diff -u "$W/expected.txt" "$W/folded.txt" || fail "folded differs"
# the stacks add up to the traced time
[ "$(awk '{ s += $NF } END { print s }' "$W/folded.txt")" = 83 ] || fail "folded total"

# ---- ELF names in every format (--elf), timelines included ------------------------
"$SONDE" decode "$W/trace.bin" --format chrome --elf "$W/prog" > "$W/trace.json"
python3 - "$W/trace.json" <<'PY' || fail "chrome: function slices not named from the ELF file"
import collections, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
got = collections.Counter(e["name"] for e in ev if e.get("cat") == "func" and e["ph"] == "B")
assert got == {"fib": 5, "leaf": 2, "work": 1, "busy": 1}, got
# every E event names the slice it ends
assert all(e.get("name") for e in ev if e["ph"] == "E"), "an unnamed E event"
PY
# (into files, not `| grep -q`: with pipefail, grep leaving early makes sonde's
# next write a SIGPIPE and the pipeline fail now and then)
"$SONDE" decode "$W/trace.bin" --format text --elf "$W/prog" >"$W/named.txt"
grep -q "FUNC_ENTER_A func=0x[0-9a-f]*(busy)" "$W/named.txt" || fail "text: FUNC_ENTER_A not named from the ELF file"
"$SONDE" decode "$W/trace.bin" --format jsonl -o elf="$W/prog" >"$W/named.jsonl"
grep -q '"func_name":"leaf"' "$W/named.jsonl" || fail "jsonl: not named from the ELF file (-o elf=)"

# ---- Thumb addresses named from an ARM ELF -----------------------------------------
cat > "$W/arm.c" <<'EOF'
volatile int sink;
int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += i * sink; return s; }
static __attribute__((noinline)) int helper(int x) { sink = x; return x + sink; }
void Default_Handler(void) { for (;;) sink++; }
void SysTick_Handler(void) __attribute__((weak, alias("Default_Handler")));
void _start(void) { sink = work(helper(3)); Default_Handler(); }
EOF
cat > "$W/arm.ld" <<'EOF'
ENTRY(_start)
SECTIONS {
  .text.work 0x08000100 : { *(.text.work) }
  .text.helper 0x08000200 : { *(.text.helper) }
  .text.dh 0x08000300 : { *(.text.Default_Handler) }
  .text 0x08000400 : { *(.text*) }
  .bss 0x20000000 : { *(.bss*) *(COMMON) }
}
EOF
arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -O1 -ffunction-sections -nostdlib \
  -T "$W/arm.ld" -o "$W/arm.elf" "$W/arm.c"
# work 1000..1024 with helper 1010..1014; Default_Handler 1024..1027
"$SONDE" decode "$W/thumb.bin" --format folded -o elf="$W/arm.elf" > "$W/thumb.txt"
cat > "$W/expected.txt" <<'EOF'
No task;Default_Handler 3
No task;work 20
No task;work;helper 4
EOF
diff -u "$W/expected.txt" "$W/thumb.txt" || fail "thumb folded differs"
# without the ELF the addresses are printed as numbers
"$SONDE" decode "$W/thumb.bin" --format folded > "$W/thumb.txt"
grep -qx 'No task;0x8000101;0x8000201 4' "$W/thumb.txt" || fail "unnamed addresses"
# ---- broken input -----------------------------------------------------------------
# Prefixes of the trace (a capture cut anywhere) and the trace with one byte
# damaged: sonde must not crash or trip a sanitizer, and whatever it decodes,
# the folded stacks must add up to the traced time of the profile.
check_run() { # $1 = input file, $2 = what it is; fails on crashes and sanitizer reports
  local rc=0 err line traced folded=0
  "$SONDE" decode "$1" --proto sonde --format folded -o elf="$W/prog" > "$W/f.txt" 2> "$W/err.txt" || rc=$?
  "$SONDE" decode "$1" --proto sonde --format profile -o elf="$W/prog" > "$W/p.txt" 2>> "$W/err.txt" || rc=$((rc > $? ? rc : $?))
  # builtins only from here: this runs a few hundred times
  err=; read -r -d '' err < "$W/err.txt" || true
  if [ $rc -gt 1 ] || [[ $err == *Sanitizer* || $err == *"runtime error"* ]]; then
    printf '%s\n' "$err" >&2
    fail "$2: exit $rc"
  fi
  read -r line < "$W/p.txt"
  traced=${line#Profile: }
  traced=${traced%% *}
  while read -r line; do folded=$((folded + ${line##* })); done < "$W/f.txt"
  [ "$traced" = "$folded" ] || fail "$2: folded total $folded, traced $traced"
}
size=$(stat -c %s "$W/trace.bin")
# every cut in the first 64 bytes (info, time sync, first calls), then every
# third: frames are 6 to 15 bytes long, so every kind of frame is cut.  The
# sanitizer suite takes one cut in 4 and one damaged byte in 3 of those (a
# sanitized run costs 20 times a plain one): its part is memory safety,
# which the fuzzers of the profile and folded sinks also try (fuzz_sinks);
# the sums are checked on every input in the plain suite.
first=1 step=3 dstep=5
if [ "${SONDE_SANITIZED:-0}" = 1 ]; then first=4 step=12 dstep=15; fi
for n in $(seq 1 "$first" 63) $(seq 64 "$step" "$size"); do
  head -c "$n" "$W/trace.bin" > "$W/cut.bin"
  check_run "$W/cut.bin" "the first $n bytes"
done
for n in $(seq 0 "$dstep" $((size - 1))); do
  { head -c "$n" "$W/trace.bin"; printf '\x5a'; tail -c +$((n + 2)) "$W/trace.bin"; } > "$W/bad.bin"
  check_run "$W/bad.bin" "byte $n damaged"
done
echo "ok"
