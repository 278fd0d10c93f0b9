# Sonde -- the two commands of the README, and a few more.
#
#   make demo   install what is missing, build, run the demo, leave demo-out/
#   make test   install what is missing, build, run every test (also under
#               AddressSanitizer + UndefinedBehaviorSanitizer)
#   make bench  benchmarks; print figures
#   make build  just build (build/)

BUILD     ?= build
BUILD_SAN ?= build-san
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all deps build build-san test test-plain test-san demo bench clean

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
# output in its log only, so the reasons are printed after the run.
SKIPPED = grep -h '^SKIP:' $(1)/Testing/Temporary/LastTest.log 2>/dev/null | sort -u | sed 's/^SKIP: /skipped: /' || true

test-plain: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	@$(call SKIPPED,$(BUILD))

test-san: build-san
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ctest --test-dir $(BUILD_SAN) --output-on-failure -j $(JOBS)
	@$(call SKIPPED,$(BUILD_SAN))

test: test-plain test-san

demo: build
	@bash scripts/demo.sh $(BUILD)

bench: build
	@bash scripts/bench.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD_SAN) demo-out bench-out
