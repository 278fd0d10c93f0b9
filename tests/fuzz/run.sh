#!/usr/bin/env bash
# run.sh -- run the libFuzzer harnesses of tests/fuzz (docs/fuzzing.md).
#
#   run.sh seeds EXE NAME           run every seed (corpus/NAME) and every
#                                   regression input (regress/NAME) once
#   run.sh smoke EXE NAME SECONDS   fuzz for SECONDS from them, in a scratch
#                                   corpus; a finding is kept as an artifact
#   run.sh fuzz BUILD SECONDS [NAME...]
#                                   `make fuzz`: every harness (or the NAMEs)
#                                   for SECONDS, FUZZ_JOBS (default 2) at a
#                                   time, each with a corpus that persists in
#                                   BUILD/fuzz/corpus/NAME; then a table of
#                                   executions, coverage and findings
#
# The seeds and regression inputs in the source tree are never written to.
# The harnesses' own output (decoded text, help texts, error messages) is
# closed off (-close_fd_mask=3); libFuzzer and the sanitizers still report.
# An input that takes over 10 s is a finding (a hang), and so is a single
# allocation over 256 MB (host memory must stay bounded, whatever the input).
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
FLAGS=(-close_fd_mask=3 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 -print_final_stats=1)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

# The input folders of harness $1 that exist.
inputs() {
	local d
	for d in "$HERE/corpus/$1" "$HERE/regress/$1"; do
		[[ -d $d ]] && echo "$d"
	done
}

# The last "cov: N ft: M" of a libFuzzer log, and a stat:: value.
cov_of() { grep -oE 'cov: [0-9]+ ft: [0-9]+' "$1" | tail -n 1; }
stat_of() { sed -n "s/^stat::$2: *//p" "$1" | tail -n 1; }

# Show the end of a failed run's log.
show_failure() {
	echo "---- last lines of $1"
	tail -n 60 "$1"
}

work_dir() {
	local w=${FUZZ_WORK:-${TMPDIR:-/tmp}}
	mkdir -p "$w" && echo "$w"
}

cmd_seeds() {
	local exe=$1 name=$2 work scratch log rc n=0 d
	work=$(work_dir)
	scratch=$(mktemp -d "$work/$name.seeds.XXXXXX")
	log=$scratch.log
	mapfile -t dirs < <(inputs "$name")
	for d in "${dirs[@]}"; do n=$(( n + $(find "$d" -type f | wc -l) )); done
	"$exe" "${FLAGS[@]}" -runs=0 "$scratch" "${dirs[@]}" >"$log" 2>&1
	rc=$?
	rm -rf "$scratch"
	if [[ $rc != 0 ]]; then
		show_failure "$log"
		echo "fuzz $name: an input of ${dirs[*]} fails (exit $rc)"
		return 1
	fi
	echo "fuzz $name: $n seed and regression inputs pass; $(cov_of "$log")"
	rm -f "$log"
}

cmd_smoke() {
	local exe=$1 name=$2 secs=$3 work scratch log rc
	work=$(work_dir)
	scratch=$(mktemp -d "$work/$name.smoke.XXXXXX")
	log=$scratch.log
	mkdir -p "$work/artifacts"
	mapfile -t dirs < <(inputs "$name")
	"$exe" "${FLAGS[@]}" -max_total_time="$secs" -artifact_prefix="$work/artifacts/$name-" \
		"$scratch" "${dirs[@]}" >"$log" 2>&1
	rc=$?
	rm -rf "$scratch"
	if [[ $rc != 0 ]]; then
		show_failure "$log"
		echo "fuzz $name: FINDING after fuzzing (exit $rc); the input is in $work/artifacts/$name-*"
		echo "  reproduce: $exe $work/artifacts/$name-<file>"
		return 1
	fi
	echo "fuzz $name: ${secs}s, $(stat_of "$log" number_of_executed_units) executions, $(cov_of "$log"), no finding"
	rm -f "$log"
}

cmd_fuzz() {
	local build=$1 secs=$2 out names=()
	shift 2
	out=$build/fuzz
	if [[ $# -gt 0 ]]; then
		names=("$@")
	else
		local f
		for f in "$HERE"/fuzz_*.c; do
			f=${f##*/fuzz_}
			[[ $f == util.c ]] || names+=("${f%.c}")
		done
	fi
	mkdir -p "$out"
	echo "fuzzing ${#names[@]} harnesses for ${secs}s each, ${FUZZ_JOBS:-2} at a time (logs: $out/NAME.log)"
	export -f cmd_one inputs
	export HERE out secs build
	export FLAGS_STR="${FLAGS[*]}"
	printf '%s\n' "${names[@]}" | xargs -P "${FUZZ_JOBS:-2}" -I{} bash -c 'cmd_one {}'
	local rc=0 name log cov
	printf '\n%-10s %8s %12s %9s %8s %8s %7s  %s\n' harness time executions exec/s cov ft corpus findings
	for name in "${names[@]}"; do
		log=$out/$name.log
		cov=$(cov_of "$log")
		local found
		found=$(find "$out/artifacts/$name" -type f 2>/dev/null | sed 's|.*/||' | tr '\n' ' ')
		[[ -n $found ]] && rc=1
		printf '%-10s %7ss %12s %9s %8s %8s %7s  %s\n' "$name" "$(cat "$out/$name.time" 2>/dev/null)" \
			"$(stat_of "$log" number_of_executed_units)" "$(stat_of "$log" average_exec_per_sec)" \
			"$(echo "$cov" | awk '{print $2}')" "$(echo "$cov" | awk '{print $4}')" \
			"$(find "$out/corpus/$name" -type f | wc -l)" "${found:-none}"
	done
	return $rc
}

# One harness of `make fuzz` (run by xargs in its own bash).
cmd_one() {
	local name=$1 exe=$build/tests/fuzz/fuzz_$1
	mkdir -p "$out/corpus/$name" "$out/artifacts/$name"
	mapfile -t dirs < <(inputs "$name")
	local t0=$SECONDS rc
	# shellcheck disable=SC2086
	"$exe" $FLAGS_STR -max_total_time="$secs" -artifact_prefix="$out/artifacts/$name/" \
		"$out/corpus/$name" "${dirs[@]}" >"$out/$name.log" 2>&1
	rc=$?
	echo $(( SECONDS - t0 )) >"$out/$name.time"
	echo "  $name: exit $rc ($(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$out/$name.log" | tail -n 1))"
}

case ${1:-} in
seeds) shift; cmd_seeds "$@" ;;
smoke) shift; cmd_smoke "$@" ;;
fuzz) shift; cmd_fuzz "$@" ;;
*) sed -n '2,20s/^# \{0,1\}//p' "$0"; exit 2 ;;
esac
