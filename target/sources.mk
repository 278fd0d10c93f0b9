# sources.mk -- the Sonde target library for Makefile-based firmware.
#
#   SONDE_DIR := path/to/sonde/target
#   include $(SONDE_DIR)/sources.mk
#   SRCS    += $(SONDE_SRCS) my_port/sonde_port_mine.c
#   CFLAGS  += $(SONDE_INCLUDES) -Imy_port
#
# SONDE_SRCS is the core only (C99, freestanding, no port code).  Add the
# port: its folder on the include path (it holds sonde_port_cfg.h) and its C
# files to the sources -- e.g. the shipped $(SONDE_DIR)/ports/cortex-m.
# Configuration: -DSONDE_CONFIG_FILE='"my_sonde_cfg.h"' or single -D options
# (see include/sonde_config.h).

SONDE_DIR ?= $(dir $(lastword $(MAKEFILE_LIST)))

SONDE_SRCS := \
	$(SONDE_DIR)/src/sonde_build.c \
	$(SONDE_DIR)/src/sonde_cmd.c \
	$(SONDE_DIR)/src/sonde_filter.c \
	$(SONDE_DIR)/src/sonde_frame.c \
	$(SONDE_DIR)/src/sonde_record.c \
	$(SONDE_DIR)/src/sonde_ring.c \
	$(SONDE_DIR)/src/sonde_rx.c \
	$(SONDE_DIR)/src/sonde_session.c \
	$(SONDE_DIR)/src/sonde_write.c

SONDE_INCLUDES := -I$(SONDE_DIR)/include
