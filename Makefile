# Sonde -- the two commands of the README, and a few more.
#
#   make demo        install what is missing, build, run the demo, leave demo-out/
#   make test        install what is missing, build, run every test (plain and
#                    under AddressSanitizer + UndefinedBehaviorSanitizer, the two
#                    suites side by side: scripts/test.sh)
#   make check-long  the soak tests (tests/long: gigabytes through every decoder
#                    and export, long captures) and each fuzz harness for
#                    FUZZ_LONG_TIME seconds (default 600); minutes to hours
#   make bench       benchmarks; print figures
#   make fuzz        run each libFuzzer harness for FUZZ_TIME seconds (default 60;
#                    build-fuzz/, clang); docs/fuzzing.md
#   make build       just build (build/)
#   make install [PREFIX=/usr/local] [DESTDIR=...]   install sonde, its manual
#                    page, completions and the target library (cmake --install)
#   make deb         a Debian package (dpkg-buildpackage -us -uc -b, lintian: deb-out/)

BUILD     ?= build
BUILD_SAN ?= build-san
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

PREFIX    ?= /usr/local

.PHONY: all deps build build-san test test-plain test-san check-long demo bench install deb clean
.PHONY: build-fuzz test-fuzz fuzz fuzz-long

all: build

deps:
	@bash scripts/deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

build-san: deps
	cmake -S . -B $(BUILD_SAN) -DCMAKE_BUILD_TYPE=Debug -DSONDE_SANITIZE=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD_SAN) -j $(JOBS)

# Skipped tests (exit 77) say why on a line "SKIP: ..."; ctest keeps their
# output in its log only, so the reasons are printed after the run
# (scripts/test.sh does the same for `make test`).
SKIPPED = grep -h '^SKIP:' $(1)/Testing/Temporary/LastTest.log 2>/dev/null | sort -u | sed 's/^SKIP: /skipped: /' || true

# One suite alone (the soak tests left out).
test-plain: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -LE long
	@$(call SKIPPED,$(BUILD))

test-san: build-san
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ctest --test-dir $(BUILD_SAN) --output-on-failure -j $(JOBS) -LE long
	@$(call SKIPPED,$(BUILD_SAN))

# Both suites at once, and the fuzz smoke step (scripts/fuzz_smoke.sh) when
# there is one.
test: build build-san
	@bash scripts/test.sh $(BUILD) $(BUILD_SAN)

check-long: build
	@LONG=1 bash scripts/test.sh $(BUILD) none

demo: deps
	@CMAKE_FLAGS="$(CMAKE_FLAGS)" JOBS=$(JOBS) bash scripts/demo.sh $(BUILD)

bench: build
	@bash scripts/bench.sh $(BUILD)

# The build's paths (manual page, package files) follow PREFIX.
install: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)
	cmake --install $(BUILD) --prefix $(PREFIX)

deb: deps
	@bash scripts/deb.sh deb-out

# ---- fuzzing (docs/fuzzing.md): clang + libFuzzer + ASan/UBSan in build-fuzz/.
# test-fuzz (scripts/fuzz_smoke.sh, part of make test) runs every harness
# over its seeds and regression inputs, then fuzzes each for
# FUZZ_SMOKE_TIME seconds (ctest, JOBS at a time); the long runs are in
# check-long.
BUILD_FUZZ      ?= build-fuzz
FUZZ_TIME       ?= 60
FUZZ_SMOKE_TIME ?= 5
FUZZ_LONG_TIME  ?= 600

build-fuzz: deps
	cmake -S . -B $(BUILD_FUZZ) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DSONDE_FUZZ=ON -DSONDE_BUILD_TESTS=OFF -DFUZZ_SMOKE_TIME=$(FUZZ_SMOKE_TIME) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD_FUZZ) -j $(JOBS) --target fuzz_all

test-fuzz:
	@BUILD_FUZZ=$(BUILD_FUZZ) FUZZ_SMOKE_TIME=$(FUZZ_SMOKE_TIME) JOBS=$(JOBS) CMAKE_FLAGS="$(CMAKE_FLAGS)" \
	  bash scripts/fuzz_smoke.sh

fuzz: build-fuzz
	@bash tests/fuzz/run.sh fuzz $(BUILD_FUZZ) $(FUZZ_TIME)

fuzz-long: build-fuzz
	@bash tests/fuzz/run.sh fuzz $(BUILD_FUZZ) $(FUZZ_LONG_TIME)

# Rules without recipes, beside the ones above: make test builds the
# harnesses before its suites start (scripts/test.sh runs
# scripts/fuzz_smoke.sh beside them, which then only runs them), and
# check-long runs the long fuzz runs before the soak tests.
test: build-fuzz
check-long: fuzz-long

clean:
	rm -rf $(BUILD) $(BUILD_SAN) $(BUILD_FUZZ) demo-out bench-out deb-out
