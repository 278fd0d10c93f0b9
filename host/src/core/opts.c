/*
 * opts.c -- the -o key=value options handed to decoders and sinks.
 *
 * sonde_opt_get() is the pipeline contract (pipeline.h).  On top of it the
 * CLI can ask which options nobody looked at, to warn about typos: the
 * option array of the current run is registered with sonde_opt_track() and
 * every lookup marks the entries it matches.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
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

int sonde_opt_bad(const char *key, const char *val, const char *expected, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, expected);
	vsnprintf(what, sizeof(what), expected, ap);
	va_end(ap);
	sonde_err("-o %s=%s: expected %s", key, val ? val : "", what);
	return -1;
}

int sonde_opt_parse_uint(const char *s, uint64_t *v)
{
	int base = 10;
	char *end;
	unsigned long long x;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	/* strtoull alone would take blanks, a sign and an empty string */
	if (!(base == 16 ? isxdigit((unsigned char)*s) : *s >= '0' && *s <= '9'))
		return -1;
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

int sonde_opt_uint(sonde_opts opts, const char *key, uint64_t lo, uint64_t hi, uint64_t *out)
{
	const char *v = sonde_opt_get(opts, key);
	uint64_t x;

	if (!v)
		return 0;
	if (sonde_opt_parse_uint(v, &x) != 0 || x < lo || x > hi)
		return sonde_opt_bad(key, v, "a number from %" PRIu64 " to %" PRIu64, lo, hi);
	*out = x;
	return 0;
}

int sonde_opt_word(sonde_opts opts, const char *key, const char *const *words, int def)
{
	const char *v = sonde_opt_get(opts, key);
	char list[256];
	size_t n = 0, len = 0;

	if (!v)
		return def;
	for (; words[n]; n++)
		if (strcmp(v, words[n]) == 0)
			return (int)n;
	list[0] = '\0';
	for (size_t i = 0; i < n && len < sizeof(list); i++) {
		int k = snprintf(list + len, sizeof(list) - len, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
				 words[i]);
		len += k > 0 ? (size_t)k : 0;
	}
	return sonde_opt_bad(key, v, "%s", list);
}

int sonde_opt_bool(sonde_opts opts, const char *key, int def)
{
	static const char *const words[] = { "0", "1", "no", "yes", "off", "on", "false", "true", NULL };
	const char *v = sonde_opt_get(opts, key);

	if (!v)
		return def;
	for (int i = 0; words[i]; i++)
		if (strcmp(v, words[i]) == 0)
			return i & 1;
	return sonde_opt_bad(key, v, "1/0, yes/no, on/off or true/false");
}
