#!/usr/bin/env bash
# fuzz_smoke.sh -- the fuzzing part of `make test` (docs/fuzzing.md): build
# the libFuzzer harnesses (clang, in build-fuzz/) and run their ctest tests:
# every seed and regression input once, then FUZZ_SMOKE_TIME seconds
# (default 5) of fuzzing per harness, JOBS harnesses at a time.  About a
# minute on 2 cores once built.  The long runs are `make fuzz` and
# `make check-long`.
#
#   scripts/fuzz_smoke.sh [BUILD]
#
# BUILD (the plain build, given by scripts/test.sh) is not used: the
# harnesses need their own clang build.  Environment: BUILD_FUZZ (default
# build-fuzz), FUZZ_SMOKE_TIME, JOBS, CMAKE_FLAGS.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_FUZZ=${BUILD_FUZZ:-build-fuzz}
FUZZ_SMOKE_TIME=${FUZZ_SMOKE_TIME:-5}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# One build recipe, the Makefile's (make fuzz uses it too).
make --no-print-directory -s build-fuzz BUILD_FUZZ="$BUILD_FUZZ" FUZZ_SMOKE_TIME="$FUZZ_SMOKE_TIME" \
	JOBS="$JOBS" CMAKE_FLAGS="${CMAKE_FLAGS:-}"
ctest --test-dir "$BUILD_FUZZ" --output-on-failure -j "$JOBS"
