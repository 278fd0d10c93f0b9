#!/usr/bin/env bash
# run.sh [BUILD_DIR] [MB] -- build host/bench/bench_sonde.c against the
# built sonde_host library and run it; then stream 1 GB through
# `sonde stats -` to show that the tool's memory does not grow with the
# input.  (Not part of ctest: it measures, it does not assert.)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build}
mb=${2:-128}
out=$build/bench_sonde
# the libraries the sonde executable links (decoders and sinks add their own)
link=$build/host/CMakeFiles/sonde.dir/link.txt
[[ -f $link ]] || { echo "bench: $build is not a configured build directory" >&2; exit 1; }
libs=$(sed -e 's/.*libsonde_host\.a//' "$link")
cc -O2 -std=c11 -D_GNU_SOURCE -I"$src/host/src" -I"$src/host/src/core" -I"$src/target/include" \
	"$here/bench_sonde.c" "$build/host/libsonde_host.a" $libs -o "$out" ||
	{ echo "bench: cannot build (is $build built?)" >&2; exit 1; }
"$out" "$mb"
if [[ -x /usr/bin/time ]]; then
	"$out" --emit 1024 | /usr/bin/time -f "sonde stats - on 1 GiB from a pipe: %e s, peak RSS %M KiB" \
		"$build/host/sonde" stats -q - >/dev/null || true
else
	s=$(date +%s.%N)
	"$out" --emit 1024 | "$build/host/sonde" stats -q - >/dev/null || true
	echo "sonde stats - on 1 GiB from a pipe: $(echo "$(date +%s.%N) - $s" | bc) s"
fi
