/*
 * trackmap_opts.c -- the options shared by the trackmap-based exporters
 * (Perfetto, Chrome JSON): "<prefix>.name", "<prefix>.max_tracks",
 * "<prefix>.max_depth", checked and reported here once.
 */
#include "trackmap.h"
#include "core/opts.h"

#include <stdio.h>
#include <string.h>

static int tmap_opt_u32(sonde_opts opts, const char *prefix, const char *key,
			uint32_t lo, uint32_t hi, uint32_t *out)
{
	char full[96];
	uint64_t v = *out;

	snprintf(full, sizeof(full), "%s.%s", prefix, key);
	if (sonde_opt_uint(opts, full, lo, hi, &v) < 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int tmap_config_from_opts(struct tmap_config *cfg, sonde_opts opts, const char *prefix)
{
	char full[96];

	memset(cfg, 0, sizeof(*cfg));
	snprintf(full, sizeof(full), "%s.name", prefix);
	cfg->name = sonde_opt_get(opts, full);
	if (tmap_opt_u32(opts, prefix, "max_tracks", 8, 1000000, &cfg->max_tracks) < 0 ||
	    tmap_opt_u32(opts, prefix, "max_depth", 1, 65536, &cfg->max_depth) < 0)
		return -1;
	return 0;
}
