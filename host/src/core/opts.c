/*
 * opts.c -- the -o key=value options handed to decoders and sinks.
 *
 * sonde_opt_get() is the pipeline contract (pipeline.h).  On top of it the
 * CLI can ask which options nobody looked at, to warn about typos: the
 * option array of the current run is registered with sonde_opt_track() and
 * every lookup marks the entries it matches.
 */
#include <string.h>

#include "opts.h"

#define OPT_TRACK_MAX 64

static sonde_opts tracked;
static unsigned char tracked_used[OPT_TRACK_MAX];

const char *sonde_opt_get(sonde_opts opts, const char *key)
{
	if (!opts || !key)
		return NULL;
	size_t klen = strlen(key);
	const char *val = NULL;
	for (size_t i = 0; opts[i]; i++) {
		if (strncmp(opts[i], key, klen) != 0 || opts[i][klen] != '=')
			continue;
		val = opts[i] + klen + 1; /* the last occurrence wins */
		if (opts == tracked && i < OPT_TRACK_MAX)
			tracked_used[i] = 1;
	}
	return val;
}

void sonde_opt_track(sonde_opts opts)
{
	tracked = opts;
	memset(tracked_used, 0, sizeof(tracked_used));
}

int sonde_opt_was_used(sonde_opts opts, size_t i)
{
	if (opts != tracked || i >= OPT_TRACK_MAX)
		return 1; /* not tracked: assume used, never warn wrongly */
	return tracked_used[i];
}
