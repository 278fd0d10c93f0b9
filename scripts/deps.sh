#!/usr/bin/env bash
# deps.sh -- install the Debian packages Sonde needs, if any are missing.
#
# Called by `make demo`, `make test` and CI.  As root it runs apt-get (after
# apt-get update); otherwise it prints the exact command to run.  The package
# list is the one place that says what the project depends on.
set -euo pipefail

PKGS=(
  build-essential cmake pkg-config          # toolchain
  libcmocka-dev                             # unit tests
  libserialport-dev                         # serial links (sonde live)
  libmicrohttpd-dev                         # sonde live --serve: the page over HTTP
  libelf-dev libdw-dev                      # ELF symbols for profiles
  libsqlite3-dev                            # SQLite export
  sqlite3                                   # tests: the SQL of docs/sql.md on an export
  babeltrace2                               # tests: reads the CTF export
  libexpat1-dev                             # SyS-T collateral XML
  libprotobuf-c-dev protobuf-c-compiler     # Perfetto export
  protobuf-compiler                         # tests: protoc --decode of Perfetto traces
  socat                                     # pseudo-terminal pairs in tests
  tmux                                      # tests: what sonde live shows on a terminal
  python3                                   # tests: JSON validation
  time                                      # GNU time: peak RSS in the bulk tests and make bench
  chromium                                  # tests: the HTML report in a real browser
  nodejs                                    # tests: drives chromium over the DevTools protocol
  gcc-arm-none-eabi libnewlib-arm-none-eabi # Cortex-M firmware
  qemu-system-arm                           # runs the firmware
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf  # RISC-V firmware
  qemu-system-misc                          # runs it (qemu-system-riscv32)
  clang libclang-rt-14-dev                  # fuzzing: libFuzzer, ASan, UBSan (make fuzz, test-fuzz)
  libjson-c-dev                             # fuzzing: checks the JSON the sinks write
  stress-ng                                 # scripts/test_loop.sh: the load the suite must bear
)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# npm (for the browser tests' lock file when Node has no WebSocket of its
# own): Debian's package, unless a Node that bundles npm is installed.
command -v npm >/dev/null 2>&1 || missing+=(npm)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  echo "deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "deps: missing packages: ${missing[*]}" >&2
  echo "deps: run: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
