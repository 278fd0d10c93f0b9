/*
 * select.c -- host-side selection of events before the sinks (select.h).
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_desc.h"
#include "select.h"

void sonde_select_init(struct sonde_select *s)
{
	memset(s, 0, sizeof(*s));
}

void sonde_select_free(struct sonde_select *s)
{
	for (size_t i = 0; i < s->nfilt; i++)
		free(s->filt[i].globs);
	sonde_select_init(s);
}

/* "1.5", "1.5s", "250ms", "10us", "100ns" -> ns; "123t" -> ticks.  The
 * decimal part is read digit by digit, so "0.000000001" is exactly 1 ns. */
int sonde_select_parse_time(const char *val, struct sel_bound *b)
{
	const char *p = val;
	uint64_t whole = 0, frac = 0, fdiv = 1;
	int digits = 0, rel = *p == '+';

	p += rel;
	while (*p >= '0' && *p <= '9') {
		if (whole > (UINT64_MAX - 9) / 10)
			return -1;
		whole = whole * 10 + (uint64_t)(*p++ - '0');
		digits++;
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			if (fdiv < 1000000000000000000ull) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				fdiv *= 10;
			}
			p++;
			digits++;
		}
	}
	if (!digits)
		return -1;
	memset(b, 0, sizeof(*b));
	b->set = 1;
	b->rel = rel;
	if (strcmp(p, "t") == 0) {
		if (fdiv != 1)
			return -1; /* ticks are whole */
		b->ticks = 1;
		b->v = whole;
		return 0;
	}
	uint64_t unit;
	if (!*p || strcmp(p, "s") == 0)
		unit = 1000000000u;
	else if (strcmp(p, "ms") == 0)
		unit = 1000000u;
	else if (strcmp(p, "us") == 0)
		unit = 1000u;
	else if (strcmp(p, "ns") == 0)
		unit = 1u;
	else
		return -1;
	if (whole > UINT64_MAX / unit)
		return -1;
	b->v = whole * unit + (uint64_t)((unsigned __int128)frac * unit / fdiv);
	return 0;
}

static int parse_u32(const char *s, const char **end, uint32_t *v)
{
	char *e;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long x = strtoull(s, &e, 10);
	if (errno || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	*end = e;
	return 0;
}

static int parse_cores(struct sonde_select *s, const char *val)
{
	const char *p = val;
	for (;;) {
		uint32_t lo, hi;
		if (parse_u32(p, &p, &lo) != 0)
			return -1;
		hi = lo;
		if (*p == '-' && parse_u32(p + 1, &p, &hi) != 0)
			return -1;
		if (hi < lo || s->ncores == SONDE_SELECT_MAX_CORES)
			return -1;
		s->core_lo[s->ncores] = lo;
		s->core_hi[s->ncores] = hi;
		s->ncores++;
		if (!*p)
			return 0;
		if (*p++ != ',')
			return -1;
	}
}

static int parse_filter(struct sonde_select *s, const char *val, char *err, size_t errlen)
{
	struct sel_filter f = { 0 };
	const char *p = val, *eq;
	if (*p == '!') {
		f.negate = 1;
		p++;
	}
	eq = strchr(p, '=');
	if (!eq || !eq[1]) {
		snprintf(err, errlen, "expected [!]kind|name|obj=GLOB[,GLOB...], got '%s'", val);
		return -1;
	}
	size_t flen = (size_t)(eq - p);
	if (flen == 4 && strncmp(p, "kind", 4) == 0)
		f.field = SEL_KIND;
	else if (flen == 4 && strncmp(p, "name", 4) == 0)
		f.field = SEL_NAME;
	else if (flen == 3 && strncmp(p, "obj", 3) == 0)
		f.field = SEL_OBJ;
	else {
		snprintf(err, errlen, "unknown field '%.*s' (kind, name or obj)", (int)flen, p);
		return -1;
	}
	if (s->nfilt == SONDE_SELECT_MAX_FILTERS) {
		snprintf(err, errlen, "at most %d filters", SONDE_SELECT_MAX_FILTERS);
		return -1;
	}
	size_t n = strlen(eq + 1);
	f.globs = malloc(n + 2);
	if (!f.globs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(f.globs, eq + 1, n + 1);
	f.globs[n + 1] = '\0';
	for (char *c = f.globs; *c; c++)
		if (*c == ',')
			*c = '\0';
	s->filt[s->nfilt++] = f;
	return 0;
}

int sonde_select_option(struct sonde_select *s, const char *name, const char *val, char *err, size_t errlen)
{
	int rc = 0;
	if (strcmp(name, "from") == 0 || strcmp(name, "to") == 0) {
		struct sel_bound *b = name[0] == 'f' ? &s->from : &s->to;
		rc = sonde_select_parse_time(val, b);
		if (rc)
			snprintf(err, errlen, "expected a time: the target's seconds as printed (1017.5, 250ms, "
					      "10us, 100ns), ticks (12345t), or +T from the first record (+1.5), got '%s'",
				 val);
		/* two ends in one unit can be compared now; others after the run */
		else if (s->from.set && s->to.set && s->from.ticks == s->to.ticks && s->from.rel == s->to.rel &&
			 s->to.v < s->from.v) {
			snprintf(err, errlen, "the window ends before it begins (--to is before --from)");
			rc = -1;
		}
	} else if (strcmp(name, "core") == 0) {
		rc = parse_cores(s, val);
		if (rc)
			snprintf(err, errlen, "expected core numbers such as 0, 0,2 or 1-3, got '%s'", val);
	} else if (strcmp(name, "filter") == 0) {
		rc = parse_filter(s, val, err, errlen);
	} else {
		snprintf(err, errlen, "unknown selection '%s'", name);
		rc = -1;
	}
	if (rc == 0)
		s->active = 1;
	return rc;
}

static int glob_any(const char *globs, const char *text)
{
	if (!text)
		return 0;
	for (const char *g = globs; *g; g += strlen(g) + 1)
		if (fnmatch(g, text, 0) == 0)
			return 1;
	return 0;
}

void sonde_select_fields(const struct sonde_event *ev, struct sel_fields *x)
{
	memset(x, 0, sizeof(*x));
	x->text[SEL_KIND][0] = sonde_ev_desc(ev->kind)->name;
	x->text[SEL_NAME][0] = ev->rec_name;
	if (ev->kind == SONDE_EV_LOG)
		x->text[SEL_NAME][1] = ev->text;
	if (sonde_ev_desc(ev->kind)->obj_key && !(ev->flags & SONDE_EVF_NO_OBJ)) {
		snprintf(x->num, sizeof(x->num), "%" PRIu64, ev->obj);
		x->text[SEL_OBJ][0] = x->num;
		x->text[SEL_OBJ][1] = ev->obj_name;
		if (ev->flags & SONDE_EVF_ADDR) {
			snprintf(x->hex, sizeof(x->hex), "0x%" PRIx64, ev->obj);
			x->text[SEL_OBJ][2] = x->hex;
		}
	}
}

static int filter_holds(const struct sel_filter *f, const struct sel_fields *x)
{
	int m = 0;
	for (int i = 0; i < SEL_FIELD_TEXTS && !m; i++)
		m = glob_any(f->globs, x->text[f->field][i]);
	return f->negate ? !m : m;
}

/* Is the time of ev on the right side of b?  after: ev >= b, else ev <= b. */
static int time_ok(const struct sel_bound *b, int after, const struct sonde_event *ev,
		   const struct sonde_session *ss)
{
	if (!b->set || !(ev->ts_flags & SONDE_TS_VALID))
		return 1;
	uint64_t t = ev->ts;
	if (b->rel)
		t = ss->have_origin && t > ss->origin ? t - ss->origin : 0;
	if (!b->ticks) /* ticks of an unknown clock are taken as ns, as the timelines do */
		t = (uint64_t)((unsigned __int128)t * 1000000000u / (ss->ts_freq ? ss->ts_freq : 1000000000u));
	return after ? t >= b->v : t <= b->v;
}

int sonde_select_accept(struct sonde_select *s, const struct sonde_event *ev, const struct sonde_session *ss)
{
	int ok = 1;
	if (!s->active)
		return 1;
	if (s->ncores) {
		ok = 0;
		for (size_t i = 0; i < s->ncores && !ok; i++)
			ok = ev->core >= s->core_lo[i] && ev->core <= s->core_hi[i];
	}
	if ((s->from.set || s->to.set) && (ev->ts_flags & SONDE_TS_VALID)) {
		int in = time_ok(&s->from, 1, ev, ss) && time_ok(&s->to, 0, ev, ss);
		if (!s->timed++ || ev->ts < s->ts_min)
			s->ts_min = ev->ts;
		if (s->timed == 1 || ev->ts > s->ts_max)
			s->ts_max = ev->ts;
		s->freq = ss->ts_freq;
		s->origin = ss->have_origin ? ss->origin : 0;
		s->timed_in += (uint64_t)in;
		ok = ok && in;
	}
	if (ok && s->nfilt) {
		struct sel_fields x;
		sonde_select_fields(ev, &x);
		for (size_t i = 0; ok && i < s->nfilt; i++)
			ok = filter_holds(&s->filt[i], &x);
	}
	if (ok)
		s->passed++;
	else
		s->rejected++;
	return ok;
}

/* ts in seconds, as sink_text prints them (9 decimals) */
static void secs(char *buf, size_t len, uint64_t ticks, uint64_t freq)
{
	uint64_t f = freq ? freq : 1000000000u;
	snprintf(buf, len, "%" PRIu64 ".%09" PRIu64, ticks / f,
		 (uint64_t)((unsigned __int128)(ticks % f) * 1000000000u / f));
}

int sonde_select_window_empty(const struct sonde_select *s, char *msg, size_t len)
{
	if (!(s->from.set || s->to.set) || !s->timed || s->timed_in)
		return 0;
	char a[48], b[48], ra[48], rb[48];
	uint64_t o = s->origin <= s->ts_min ? s->origin : s->ts_min;
	secs(a, sizeof(a), s->ts_min, s->freq);
	secs(b, sizeof(b), s->ts_max, s->freq);
	secs(ra, sizeof(ra), s->ts_min - o, s->freq);
	secs(rb, sizeof(rb), s->ts_max - o, s->freq);
	snprintf(msg, len,
		 "no record of the trace is inside the window: the trace runs from %s to %s s "
		 "(+%s to +%s s from its first record; ticks %" PRIu64 "t to %" PRIu64 "t)",
		 a, b, ra, rb, s->ts_min, s->ts_max);
	return 1;
}
