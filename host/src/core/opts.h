/*
 * opts.h -- helpers around the -o key=value options (sonde_opt_get itself
 * is declared in pipeline.h).
 */
#ifndef SONDE_OPTS_H
#define SONDE_OPTS_H

#include <stddef.h>

#include "pipeline.h"

/* Remember which entries of opts are looked up from now on (one array at a
 * time; the CLI registers the array of the run). */
void sonde_opt_track(sonde_opts opts);
/* 1 if entry i of the tracked array was looked up by sonde_opt_get. */
int sonde_opt_was_used(sonde_opts opts, size_t i);

#endif /* SONDE_OPTS_H */
