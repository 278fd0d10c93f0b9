/*
 * an_plugins.c -- the analyses that plug into the timing model (an.h):
 * one line each.  None yet beyond the model's own figures; an RTOS-specific
 * analysis (blocking time per object, ...) adds its ops here.
 */
#include <stddef.h>

#include "an.h"

const struct an_plugin_ops *const an_plugins[] = {
	NULL
};
