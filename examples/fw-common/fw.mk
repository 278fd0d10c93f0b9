# fw.mk -- the build and run rules every example board shares.  A board's
# Makefile (examples/qemu-*/Makefile) sets the variables below, then
# includes this file:
#
#   BOARD_DIR    the board's folder (its board_cfg.h, board.c, link script)
#   ARCH_DIR     fw-common/cortex-m or fw-common/riscv (arch.h, the
#                scheduler's context switch, start-up)
#   CROSS        toolchain prefix; ARCH_FLAGS its CPU flags (compile, link)
#   LIBC_SPECS   the C library's specs (newlib-nano, picolibc)
#   PORT_DIR, PORT_SRCS   the Sonde port (folder, C files)
#   BOARD_SRCS   the board's and the CPU's sources every image links (file
#                names; found in BOARD_DIR and ARCH_DIR)
#   SCHED_SRCS   the scheduler's CPU part (context switch), fw.elf only
#   SONDE_DEFS   settings of the core and the port (library, port and
#                firmware see the same)
#   BENCH_DEFS   the benchmark's trace clock: a variable read like the real
#                one, so that each case can set any gap
#   LINK_LD      linker script; BOARD_LDFLAGS anything else the link needs
#   QEMU_RUN     QEMU up to -serial/-kernel (machine, semihosting, ...)
#   CHECK_OPTS   check_trace.py options that hold on the exact clock
#
# Targets: all (fw.elf, bench.elf, size report), size-min, stack, run,
# bench, insns, disasm, clean.  Common options: OPT=-Os|-O2, DRAIN=irq|idle,
# RUN_MS, ICOUNT=1, BUILD=dir, V=1 (see the board's Makefile for its own).

COMMON_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
SONDE_ROOT := $(abspath $(COMMON_DIR)/../..)
SONDE_DIR := $(SONDE_ROOT)/target
include $(SONDE_DIR)/sources.mk
ifeq ($(strip $(SONDE_SRCS)),)
$(error $(SONDE_DIR)/sources.mk does not define SONDE_SRCS)
endif

CC := $(CROSS)gcc
SIZE := $(CROSS)size
OBJDUMP := $(CROSS)objdump
PYTHON ?= python3

BUILD ?= build
OPT ?= -Os
DRAIN ?= irq
RUN_MS ?= 2000
ICOUNT ?= 0
V ?= 0
ifeq ($(V),1)
Q :=
else
Q := @
endif

ifeq ($(DRAIN),irq)
FW_DEFS += -DFW_DRAIN_IRQ=1
else ifeq ($(DRAIN),idle)
FW_DEFS += -DFW_DRAIN_IRQ=0
else
$(error DRAIN must be irq or idle)
endif
FW_DEFS += -DFW_RUN_MS=$(RUN_MS)u

CFLAGS := $(ARCH_FLAGS) $(OPT) -g -std=c99 -pedantic -Wall -Wextra -Werror \
	  -ffreestanding -ffunction-sections -fdata-sections -MMD -MP $(EXTRA_CFLAGS)
CPPFLAGS := -I$(BOARD_DIR) -I$(COMMON_DIR) -I$(ARCH_DIR) $(SONDE_INCLUDES) -I$(PORT_DIR) \
	    $(SONDE_DEFS) $(FW_DEFS)
LDFLAGS := $(ARCH_FLAGS) -L$(ARCH_DIR) -T $(LINK_LD) -nostartfiles $(LIBC_SPECS) -Wl,--gc-sections $(BOARD_LDFLAGS)
# The tracer's objects also say what each function keeps on the stack and
# whom it calls (stack_depth.py adds them up along the record path).
TRACER_CFLAGS := -fstack-usage -fcallgraph-info=su

TRACER_SRCS := $(SONDE_SRCS) $(PORT_SRCS)
TRACER_OBJS := $(patsubst %.c,$(BUILD)/sonde/%.o,$(notdir $(TRACER_SRCS)))
BOARD_OBJS := $(addprefix $(BUILD)/,$(addsuffix .o,$(basename $(BOARD_SRCS) board_text.c)))
SCHED_OBJS := $(addprefix $(BUILD)/,$(addsuffix .o,$(basename $(SCHED_SRCS))))
FW_OBJS := $(BOARD_OBJS) $(SCHED_OBJS) $(BUILD)/sched.o $(BUILD)/fw_trace.o $(BUILD)/app.o
BENCH_OBJS := $(BOARD_OBJS) $(BUILD)/bench.o
BENCH_TRACER_OBJS := $(patsubst %.c,$(BUILD)/bench-sonde/%.o,$(notdir $(TRACER_SRCS)))

ifeq ($(ICOUNT),1)
QEMU_RUN_OPTS := -icount shift=0,sleep=off
endif

.PHONY: all size size-min stack run bench insns disasm clean FORCE

all: $(BUILD)/fw.elf $(BUILD)/bench.elf size $(EXTRA_ALL)

vpath %.c $(BOARD_DIR) $(COMMON_DIR) $(ARCH_DIR) $(sort $(dir $(SONDE_SRCS))) $(PORT_DIR)
vpath %.S $(BOARD_DIR) $(ARCH_DIR)
vpath %.h $(BOARD_DIR) $(COMMON_DIR) $(ARCH_DIR)

# Rebuild everything when the options change.
$(BUILD)/flags: FORCE
	@mkdir -p $(BUILD)/sonde
	@echo '$(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS)' | cmp -s - $@ || \
	 echo '$(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS)' > $@

$(BUILD)/sonde/%.o: %.c $(BUILD)/flags
	@echo "  CC      $(notdir $<)"
	$(Q)$(CC) $(CFLAGS) $(TRACER_CFLAGS) $(CPPFLAGS) -c $< -o $@

$(BUILD)/bench-sonde/%.o: %.c $(BUILD)/flags
	@mkdir -p $(BUILD)/bench-sonde
	@echo "  CC      $(notdir $<) (bench clock)"
	$(Q)$(CC) $(CFLAGS) $(CPPFLAGS) $(BENCH_DEFS) -c $< -o $@

$(BUILD)/%.o: %.c $(BUILD)/flags
	@echo "  CC      $(notdir $<)"
	$(Q)$(CC) $(CFLAGS) $(CPPFLAGS) -c $< -o $@

$(BUILD)/%.o: %.S $(BUILD)/flags
	@echo "  AS      $(notdir $<)"
	$(Q)$(CC) $(ARCH_FLAGS) $(CPPFLAGS) -c $< -o $@

$(BUILD)/fw.elf: $(FW_OBJS) $(TRACER_OBJS) $(LINK_LD)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -Wl,-Map=$(BUILD)/fw.map $(FW_OBJS) $(TRACER_OBJS) -o $@

$(BUILD)/bench.o: bench.c bench_mix.h $(BUILD)/flags
	@echo "  CC      $(notdir $<)"
	$(Q)$(CC) $(CFLAGS) $(CPPFLAGS) $(BENCH_DEFS) -c $< -o $@

$(BUILD)/bench.elf: $(BENCH_OBJS) $(BENCH_TRACER_OBJS) $(LINK_LD)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -Wl,-Map=$(BUILD)/bench.map $(BENCH_OBJS) $(BENCH_TRACER_OBJS) -o $@

$(BUILD)/bench_small.o: bench.c bench_mix.h $(BUILD)/flags
	@echo "  CC      $(notdir $<) (short run)"
	$(Q)$(CC) $(CFLAGS) $(CPPFLAGS) $(BENCH_DEFS) -DBENCH_N=128u -DBENCH_N_LONG=8u -DCAL_N=1000u -c $< -o $@

$(BUILD)/bench-small.elf: $(BOARD_OBJS) $(BUILD)/bench_small.o $(BENCH_TRACER_OBJS) $(LINK_LD)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) $(BOARD_OBJS) $(BUILD)/bench_small.o $(BENCH_TRACER_OBJS) -o $@

# The tracer code in the smallest image using the whole record path
# (size_min.c; SIZE_DEFS=-DSIZE_BUILDER etc. adds optional parts).
SIZE_DEFS ?=
$(BUILD)/size_min.o: size_min.c $(BUILD)/flags
	@echo "  CC      $(notdir $<) $(SIZE_DEFS)"
	$(Q)$(CC) $(CFLAGS) $(CPPFLAGS) $(SIZE_DEFS) -c $< -o $@

$(BUILD)/size-min.elf: $(BOARD_OBJS) $(BUILD)/size_min.o $(TRACER_OBJS) $(LINK_LD)
	$(Q)$(CC) $(LDFLAGS) -Wl,-Map=$(BUILD)/size-min.map $(BOARD_OBJS) $(BUILD)/size_min.o $(TRACER_OBJS) -o $@

size-min: FORCE
	@rm -f $(BUILD)/size_min.o
	@$(MAKE) --no-print-directory $(BUILD)/size-min.elf
	@echo "== tracer linked into a minimal image ($(BOARD_LABEL), $(OPT)) $(SIZE_DEFS)"
	@$(PYTHON) $(COMMON_DIR)/size_report.py $(BUILD)/size-min.map

# Worst-case stack depth of the record path, from -fstack-usage and the
# call graph (-fcallgraph-info) of the tracer objects.
stack: $(TRACER_OBJS)
	@echo "== stack depth of the record path ($(BOARD_LABEL), $(OPT))"
	@$(PYTHON) $(COMMON_DIR)/stack_depth.py $(BUILD)/sonde

size: $(BUILD)/fw.elf
	@echo "== firmware ($(BOARD_LABEL), $(OPT), DRAIN=$(DRAIN))"
	@$(SIZE) $(BUILD)/fw.elf
	@echo "== tracer objects alone (core + port, before --gc-sections)"
	@$(SIZE) -t $(TRACER_OBJS)

run: $(BUILD)/fw.elf
	rm -f $(BUILD)/trace.bin
	$(QEMU_RUN) $(QEMU_RUN_OPTS) -serial file:$(BUILD)/trace.bin -kernel $(BUILD)/fw.elf
	$(PYTHON) $(COMMON_DIR)/check_trace.py $(BUILD)/trace.bin $(if $(filter 1,$(ICOUNT)),$(CHECK_OPTS))

bench: $(BUILD)/bench.elf
	$(QEMU_RUN) -icount shift=0,sleep=off -serial stdio -kernel $(BUILD)/bench.elf

insns: $(BUILD)/bench-small.elf
	$(QEMU_RUN) -icount shift=0,sleep=off -singlestep -d exec,nochain -D $(BUILD)/exec.log -serial null \
		-kernel $(BUILD)/bench-small.elf
	$(PYTHON) $(COMMON_DIR)/insn_count.py $(BUILD)/exec.log $(COMMON_DIR)/bench_mix.h
	rm -f $(BUILD)/exec.log

disasm: $(TRACER_OBJS)
	$(OBJDUMP) -d $(TRACER_OBJS) > $(BUILD)/sonde.lst
	@echo "wrote $(BUILD)/sonde.lst"

clean:
	rm -rf $(BUILD)

-include $(wildcard $(BUILD)/*.d $(BUILD)/sonde/*.d $(BUILD)/bench-sonde/*.d)
