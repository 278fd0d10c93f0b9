/*
 * trackmap_opts.c -- the options shared by the trackmap-based exporters
 * (Perfetto, Chrome JSON): "<prefix>.name", "<prefix>.max_tracks",
 * "<prefix>.max_depth" and yes/no switches, checked and reported here once.
 */
#include "trackmap.h"
#include "core/msg.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tmap_opt_u32(sonde_opts opts, const char *prefix, const char *key,
			uint32_t lo, uint32_t hi, uint32_t *out)
{
	char full[96];
	const char *v;
	char *end;
	unsigned long long x;

	snprintf(full, sizeof(full), "%s.%s", prefix, key);
	v = sonde_opt_get(opts, full);
	if (!v)
		return 0;
	errno = 0;
	x = strtoull(v, &end, 0);
	if (errno || end == v || *end || x < lo || x > hi || v[0] == '-') {
		sonde_err("-o %s=%s: expected a number from %" PRIu32 " to %" PRIu32,
			full, v, lo, hi);
		return -1;
	}
	*out = (uint32_t)x;
	return 0;
}

int tmap_opt_bool(sonde_opts opts, const char *key, int def)
{
	const char *v = sonde_opt_get(opts, key);
	static const char *const yes[] = { "1", "yes", "on", "true" }, *const no[] = { "0", "no", "off", "false" };

	if (!v)
		return def;
	for (size_t i = 0; i < 4; i++) {
		if (strcmp(v, yes[i]) == 0)
			return 1;
		if (strcmp(v, no[i]) == 0)
			return 0;
	}
	sonde_err("-o %s=%s: expected 1/0, yes/no, on/off or true/false", key, v);
	return -1;
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
