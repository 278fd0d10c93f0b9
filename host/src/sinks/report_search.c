/*
 * report_search.c -- the report's search index (report_search.h): records
 * counted by their --filter texts, with the earliest times and a sparse
 * histogram per key.
 *
 * A key is the texts of sel_fields serialized into one byte string (the
 * kind as a byte, then per text a presence byte, the text and a NUL) and
 * interned in a bounded namepool: its id indexes the keys' data, and a
 * full pool sends the record to "other" of its kind.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/event_desc.h"
#include "core/select.h"
#include "namepool.h"
#include "report_search.h"
#include "trackmap.h"

#define RS_CACHE 512u /* recent keys by their event's fields (a power of 2) */

struct rs_bin {
	uint32_t bin;
	uint32_t count;
};

struct rs_key {
	uint64_t count;
	uint64_t *first;       /* the earliest times, ascending, at most r->first */
	uint32_t nfirst, capfirst;
	struct rs_bin *bins;   /* ascending by bin, counts > 0 */
	uint32_t nbins, capbins;
};

/* The key of an event whose texts are names the decoder vouches for
 * (session names_gen): the same pointers under the same generation are the
 * same texts, so the same key, found without building it. */
struct rs_cached {
	uint64_t gen;          /* 0: empty */
	uint64_t obj;
	const char *rec_name, *obj_name;
	uint32_t kind, flags;
	uint32_t id;           /* 0: "other" */
};

struct rsearch {
	uint32_t max_keys, first;
	struct namepool *pool;
	struct rs_key *key;    /* key[id - 1] */
	uint32_t nkeys, capkeys;
	struct rs_key other[SONDE_EV_KIND_COUNT]; /* records past the cap, by kind */
	uint64_t nother;
	uint64_t total;
	uint64_t last_ns;      /* the time of the latest timed record */
	uint64_t end_ns;       /* the latest time of any record */
	uint64_t bin;          /* bin width, ns */
	uint32_t nbins;        /* bins in use */
	char *kb;              /* the key being built */
	size_t kblen, kbcap;
	struct rs_cached cache[RS_CACHE];
};

struct rsearch *rsearch_new(uint32_t max_keys, uint32_t first)
{
	struct rsearch *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->max_keys = max_keys ? max_keys : RSEARCH_DEFAULT_KEYS;
	r->first = first ? first : RSEARCH_DEFAULT_FIRST;
	r->bin = RSEARCH_FIRST_BIN_NS;
	r->pool = namepool_new(r->max_keys, RSEARCH_KEY_BYTES);
	if (!r->pool) {
		free(r);
		return NULL;
	}
	return r;
}

static void rs_key_free(struct rs_key *k)
{
	free(k->first);
	free(k->bins);
}

void rsearch_free(struct rsearch *r)
{
	if (!r)
		return;
	for (uint32_t i = 0; i < r->nkeys; i++)
		rs_key_free(&r->key[i]);
	for (int i = 0; i < SONDE_EV_KIND_COUNT; i++)
		rs_key_free(&r->other[i]);
	free(r->key);
	namepool_free(r->pool);
	free(r->kb);
	free(r);
}

/* Grow *p (of *cap elements of size sz) to hold n; 0 or -1. */
static int rs_reserve(void **p, uint32_t *cap, uint32_t n, size_t sz)
{
	if (n <= *cap)
		return 0;
	uint32_t c = *cap ? *cap * 2 : 8;
	while (c < n)
		c *= 2;
	void *q = realloc(*p, (size_t)c * sz);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static int rs_put(struct rsearch *r, const void *s, size_t n)
{
	if (r->kblen + n > r->kbcap) {
		size_t c = r->kbcap ? r->kbcap : 256;
		while (c < r->kblen + n)
			c *= 2;
		char *q = realloc(r->kb, c);
		if (!q)
			return -1;
		r->kb = q;
		r->kbcap = c;
	}
	memcpy(r->kb + r->kblen, s, n);
	r->kblen += n;
	return 0;
}

/* The key of ev in r->kb; 0 or -1 (out of memory). */
static int rs_build_key(struct rsearch *r, const struct sonde_event *ev)
{
	struct sel_fields x;
	uint8_t kind = (uint8_t)ev->kind;
	int rc = 0;

	sonde_select_fields(ev, &x);
	r->kblen = 0;
	rc |= rs_put(r, &kind, 1);
	for (int f = SEL_NAME; f <= SEL_OBJ; f++)
		for (int i = 0; i < SEL_FIELD_TEXTS; i++) {
			const char *t = x.text[f][i];
			rc |= rs_put(r, t ? "+" : "-", 1);
			rc |= rs_put(r, t ? t : "", t ? strlen(t) + 1 : 1);
		}
	return rc;
}

/* Halve the resolution of one histogram: bin b goes to b / 2. */
static void rs_halve(struct rs_key *k)
{
	uint32_t o = 0;
	for (uint32_t i = 0; i < k->nbins; i++) {
		uint32_t b = k->bins[i].bin / 2;
		if (o && k->bins[o - 1].bin == b)
			k->bins[o - 1].count += k->bins[i].count;
		else
			k->bins[o++] = (struct rs_bin){ b, k->bins[i].count };
	}
	k->nbins = o;
}

static void rs_rebin(struct rsearch *r, uint64_t t)
{
	while (t >= (uint64_t)RSEARCH_BINS * r->bin) {
		for (uint32_t i = 0; i < r->nkeys; i++)
			rs_halve(&r->key[i]);
		for (int i = 0; i < SONDE_EV_KIND_COUNT; i++)
			rs_halve(&r->other[i]);
		r->bin *= 2;
		r->nbins = (r->nbins + 1) / 2;
	}
}

/* Count one record in bin b of k (records come mostly in time order: the
 * last bin is looked at first). */
static void rs_count_bin(struct rs_key *k, uint32_t b)
{
	uint32_t lo = 0, hi = k->nbins;
	if (hi && k->bins[hi - 1].bin <= b)
		lo = hi - 1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (k->bins[mid].bin < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < k->nbins && k->bins[lo].bin == b) {
		k->bins[lo].count++;
		return;
	}
	if (rs_reserve((void **)&k->bins, &k->capbins, k->nbins + 1, sizeof(*k->bins)) != 0)
		return; /* out of memory: the count stays exact, the histogram short */
	memmove(&k->bins[lo + 1], &k->bins[lo], (k->nbins - lo) * sizeof(*k->bins));
	k->bins[lo] = (struct rs_bin){ b, 1 };
	k->nbins++;
}

/* Keep t if it is among the earliest r->first times of k. */
static void rs_first(struct rsearch *r, struct rs_key *k, uint64_t t)
{
	uint32_t n = k->nfirst;
	if (n == r->first && t >= k->first[n - 1])
		return;
	if (n < r->first && rs_reserve((void **)&k->first, &k->capfirst, n + 1, sizeof(*k->first)) != 0)
		return;
	uint32_t i = n < r->first ? n : n - 1; /* the slot freed: the end, or the latest */
	while (i > 0 && k->first[i - 1] > t) {
		k->first[i] = k->first[i - 1];
		i--;
	}
	k->first[i] = t;
	if (n < r->first)
		k->nfirst++;
}

/* The key id of ev (0: "other"), through the cache when its names allow. */
static uint32_t rs_key_id(struct rsearch *r, const struct sonde_event *ev, const struct sonde_session *ss)
{
	const uint32_t fl = SONDE_EVF_ADDR | SONDE_EVF_NO_OBJ; /* the flags sel_fields reads */
	uint64_t gen = ss ? ss->names_gen : 0;
	struct rs_cached *c = NULL;
	int added;

	if (gen && ev->kind != SONDE_EV_LOG) { /* a log's text is not a name */
		uint64_t h = (ev->obj ^ (uint64_t)(uintptr_t)ev->rec_name ^ ((uint64_t)(uintptr_t)ev->obj_name << 7) ^
			      ((uint64_t)ev->kind << 3)) * 0x9E3779B97F4A7C15ull;
		c = &r->cache[h >> 55 & (RS_CACHE - 1)];
		if (c->gen == gen && c->obj == ev->obj && c->rec_name == ev->rec_name && c->obj_name == ev->obj_name &&
		    c->kind == (uint32_t)ev->kind && c->flags == (ev->flags & fl))
			return c->id;
	}
	uint32_t id = rs_build_key(r, ev) == 0 ? namepool_intern(r->pool, r->kb, r->kblen, &added) : 0;
	if (c)
		*c = (struct rs_cached){ gen, ev->obj, ev->rec_name, ev->obj_name, (uint32_t)ev->kind, ev->flags & fl, id };
	return id;
}

void rsearch_event(struct rsearch *r, const struct sonde_event *ev, const struct sonde_session *ss)
{
	if (ev->ts_flags & SONDE_TS_VALID) {
		uint64_t origin = ss && ss->have_origin ? ss->origin : 0;
		r->last_ns = tmap_ticks_to_ns(ev->ts > origin ? ev->ts - origin : 0, ss ? ss->ts_freq : 0);
	}
	uint64_t t = r->last_ns;
	struct rs_key *k = NULL;
	uint32_t id = rs_key_id(r, ev, ss);

	r->total++;
	if (t > r->end_ns)
		r->end_ns = t;
	if (id > r->nkeys && rs_reserve((void **)&r->key, &r->capkeys, id, sizeof(*r->key)) == 0) {
		memset(&r->key[r->nkeys], 0, (id - r->nkeys) * sizeof(*r->key));
		r->nkeys = id;
	}
	if (id && id <= r->nkeys) {
		k = &r->key[id - 1];
		rs_first(r, k, t);
	} else {
		k = &r->other[ev->kind < SONDE_EV_KIND_COUNT ? ev->kind : SONDE_EV_RECORD];
		r->nother++;
	}
	k->count++;
	rs_rebin(r, t);
	uint32_t b = (uint32_t)(t / r->bin);
	if (b + 1 > r->nbins)
		r->nbins = b + 1;
	rs_count_bin(k, b);
}

static void rs_write_bins(const struct rs_key *k, FILE *out)
{
	fputc('[', out);
	for (uint32_t i = 0; i < k->nbins; i++)
		fprintf(out, "%s%" PRIu32 ",%" PRIu32, i ? "," : "", k->bins[i].bin, k->bins[i].count);
	fputc(']', out);
}

/* The texts of a stored key s (rs_build_key's layout) as JSON arrays. */
static void rs_write_texts(const char *s, FILE *out, void (*jstr)(FILE *, const char *, size_t))
{
	s++; /* the kind */
	for (int f = 0; f < 2; f++) {
		int n = 0;
		fputs(",[", out);
		for (int i = 0; i < SEL_FIELD_TEXTS; i++) {
			size_t len = strlen(s + 1);
			if (s[0] == '+') {
				fputs(n++ ? "," : "", out);
				jstr(out, s + 1, len);
			}
			s += len + 2;
		}
		fputc(']', out);
	}
}

void rsearch_write_json(const struct rsearch *r, FILE *out, void (*jstr)(FILE *, const char *, size_t))
{
	fprintf(out,
		"\"search\":{\"bin\":%" PRIu64 ",\"n\":%" PRIu32 ",\"end\":%" PRIu64 ",\"first\":%" PRIu32
		",\"total\":%" PRIu64 ",\"other\":%" PRIu64 ",\"others\":[",
		r->bin, r->nbins, r->end_ns, r->first, r->total, r->nother);
	for (int i = 0, n = 0; i < SONDE_EV_KIND_COUNT; i++) {
		const char *kind = sonde_ev_desc((enum sonde_ev_kind)i)->name;
		if (!r->other[i].count)
			continue;
		fputs(n++ ? ",[" : "[", out);
		jstr(out, kind, strlen(kind));
		fprintf(out, ",%" PRIu64 ",", r->other[i].count);
		rs_write_bins(&r->other[i], out);
		fputc(']', out);
	}
	fputs("],\"keys\":[", out);
	for (uint32_t i = 0; i < r->nkeys; i++) {
		const struct rs_key *k = &r->key[i];
		const char *s = namepool_str(r->pool, i + 1);
		const char *kind = sonde_ev_desc((enum sonde_ev_kind)(uint8_t)s[0])->name;
		fputs(i ? ",\n[" : "\n[", out);
		jstr(out, kind, strlen(kind));
		rs_write_texts(s, out, jstr);
		fprintf(out, ",%" PRIu64 ",[", k->count);
		for (uint32_t j = 0; j < k->nfirst; j++)
			fprintf(out, "%s%" PRIu64, j ? "," : "", k->first[j]);
		fputs("],", out);
		rs_write_bins(k, out);
		fputc(']', out);
	}
	fputs("]},\n", out);
}

uint64_t rsearch_total(const struct rsearch *r)
{
	return r->total;
}

uint64_t rsearch_other(const struct rsearch *r)
{
	return r->nother;
}

uint32_t rsearch_keys(const struct rsearch *r)
{
	return r->nkeys;
}
