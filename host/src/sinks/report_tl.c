/*
 * report_tl.c -- the report's timeline: overview bins and thinned detail
 * (report_tl.h), fed by the track model as a tmap writer.
 *
 * The track model puts all ISRs of a core on one "ISRs" thread, nested; the
 * report gives each ISR a lane of its own (kind "isr", the ISR's name): the
 * ISRs track gets no lane, its slices are routed by a per-core stack of the
 * open slices (struct rtl_isrt) saying which ISR lane each is in.
 */
#include "report_tl.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
#include "namepool.h"

struct rtl_open {
	uint64_t t0;
	int64_t value;         /* ISR activations: the nesting level */
	uint32_t name, args;
	uint8_t cat;
};

/* The ISRs track of one core: the lane each open slice on it is in. */
struct rtl_isrt {
	uint32_t core;
	uint32_t lane[RTL_MAX_DEPTH];
	uint8_t is_isr[RTL_MAX_DEPTH];
	uint32_t depth, hidden;
	uint32_t fallback;     /* lane + 1 of "ISRs", for what is outside any ISR */
};

#define RTL_ISRT 0x80000000u   /* in by_uuid: an index into r->isrt */

struct rtl_lane {
	uint64_t uuid;
	char *name;
	const char *kind;
	uint32_t core;
	int32_t tid;
	struct rtl_open stk[RTL_MAX_DEPTH];
	uint32_t depth, hidden;
	uint64_t *busy;        /* RTL_BINS: ns covered by depth-0 slices */
	uint32_t *count;       /* RTL_BINS: slices and instants that start there */
	uint64_t items;        /* all items of the lane, kept or not */
	uint32_t isr_key;      /* an ISR's lane: 1 + its name's id in r->names; else 0 */
};

struct rtl {
	uint32_t max_items;
	int live;              /* live mode: it[] is a ring, nothing is thinned */
	uint64_t seq;          /* live: items ever added; item seq s is it[s % max_items] */
	uint64_t session;      /* live: target sessions seen (rtl_live_reset) */
	uint64_t repools;      /* live: the name pools rebuilt (rtl_repool) */
	struct rtl_item *it;
	uint32_t n, cap;
	uint64_t spacing;      /* detail windows start every `spacing` ns */
	uint64_t dropped;
	struct rtl_lane *lane;
	uint32_t nlanes, caplanes;
	uint32_t *by_uuid;     /* uuid -> lane + 1 (0 = none), or RTL_ISRT | isrt */
	struct rtl_isrt *isrt;
	uint32_t nisrt;
	uint64_t nuuid;
	uint64_t lanes_over;   /* tracks beyond RTL_MAX_LANES */
	uint64_t bin;          /* overview bin width, ns */
	uint32_t nbins;        /* bins in use */
	struct namepool *names, *args;
	char argbuf[1024];
};

struct rtl *rtl_new(uint32_t max_items)
{
	struct rtl *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->max_items = max_items ? max_items : RTL_DEFAULT_MAX_ITEMS;
	r->spacing = RTL_WINDOW_NS;
	r->bin = 1000;
	r->names = namepool_new(65536, (size_t)8 << 20);
	r->args = namepool_new(1u << 20, (size_t)32 << 20);
	if (!r->names || !r->args) {
		rtl_free(r);
		return NULL;
	}
	return r;
}

static struct namepool *rtl_live_pool(const struct rtl *r);

struct rtl *rtl_new_live(uint32_t ring)
{
	struct rtl *r = rtl_new(ring);
	if (!r)
		return NULL;
	r->live = 1;
	r->it = calloc(r->max_items, sizeof(*r->it));
	namepool_free(r->names);
	namepool_free(r->args);
	r->names = rtl_live_pool(r);
	r->args = rtl_live_pool(r);
	if (!r->it || !r->names || !r->args) {
		rtl_free(r);
		return NULL;
	}
	r->cap = r->max_items;
	return r;
}

void rtl_live_reset(struct rtl *r)
{
	r->n = 0;
	r->session++;
	r->bin = 1000;
	r->nbins = 0;
	for (uint32_t i = 0; i < r->nlanes; i++) {
		struct rtl_lane *l = &r->lane[i];
		l->depth = l->hidden = 0;
		if (l->busy) {
			memset(l->busy, 0, RTL_BINS * sizeof(*l->busy));
			memset(l->count, 0, RTL_BINS * sizeof(*l->count));
		}
	}
	for (uint32_t i = 0; i < r->nisrt; i++)
		r->isrt[i].depth = r->isrt[i].hidden = 0;
}

uint64_t rtl_seq(const struct rtl *r)
{
	return r->seq;
}

uint64_t rtl_session(const struct rtl *r)
{
	return r->session;
}

void rtl_free(struct rtl *r)
{
	if (!r)
		return;
	for (uint32_t i = 0; i < r->nlanes; i++) {
		free(r->lane[i].name);
		free(r->lane[i].busy);
		free(r->lane[i].count);
	}
	free(r->lane);
	free(r->by_uuid);
	free(r->isrt);
	free(r->it);
	namepool_free(r->names);
	namepool_free(r->args);
	free(r);
}

uint64_t rtl_items(const struct rtl *r)
{
	return r->n;
}

uint64_t rtl_dropped(const struct rtl *r)
{
	return r->dropped;
}

/* ---- lanes --------------------------------------------------------------- */

static struct rtl_lane *rtl_lane(struct rtl *r, const struct tmap_track *t)
{
	if (t->uuid < r->nuuid && r->by_uuid[t->uuid] && !(r->by_uuid[t->uuid] & RTL_ISRT))
		return &r->lane[r->by_uuid[t->uuid] - 1];
	return NULL;
}

static struct rtl_isrt *rtl_isrt(struct rtl *r, const struct tmap_track *t)
{
	if (t->uuid < r->nuuid && (r->by_uuid[t->uuid] & RTL_ISRT))
		return &r->isrt[r->by_uuid[t->uuid] & ~RTL_ISRT];
	return NULL;
}

/* A new lane (NULL past RTL_MAX_LANES or out of memory). */
static struct rtl_lane *rtl_lane_new(struct rtl *r, const char *name, const char *kind, uint32_t core)
{
	if (r->nlanes >= RTL_MAX_LANES) {
		r->lanes_over++;
		return NULL;
	}
	if (r->nlanes == r->caplanes) {
		uint32_t nc = r->caplanes ? r->caplanes * 2 : 32;
		struct rtl_lane *p = realloc(r->lane, nc * sizeof(*p));
		if (!p)
			return NULL;
		r->lane = p;
		r->caplanes = nc;
	}
	struct rtl_lane *l = &r->lane[r->nlanes];
	memset(l, 0, sizeof(*l));
	l->name = strdup(name);
	if (!l->name)
		return NULL;
	l->kind = kind;
	l->core = core;
	r->nlanes++;
	return l;
}

static int rtl_uuid_room(struct rtl *r, uint64_t uuid)
{
	if (uuid < r->nuuid)
		return 0;
	uint64_t nn = r->nuuid ? r->nuuid : 64;
	while (nn <= uuid)
		nn *= 2;
	uint32_t *p = realloc(r->by_uuid, nn * sizeof(*p));
	if (!p)
		return -1;
	memset(p + r->nuuid, 0, (nn - r->nuuid) * sizeof(*p));
	r->by_uuid = p;
	r->nuuid = nn;
	return 0;
}

/* The ISRs track of a core: no lane of its own, a routing stack. */
static void rtl_isr_track(struct rtl *r, const struct tmap_track *t)
{
	if (rtl_isrt(r, t) || rtl_uuid_room(r, t->uuid) != 0)
		return;
	struct rtl_isrt *p = realloc(r->isrt, (r->nisrt + 1) * sizeof(*p));
	if (!p)
		return;
	r->isrt = p;
	memset(&p[r->nisrt], 0, sizeof(*p));
	p[r->nisrt].core = t->core;
	r->by_uuid[t->uuid] = RTL_ISRT | r->nisrt++;
}

static void rtl_track(void *w, const struct tmap_track *t)
{
	struct rtl *r = w;
	struct rtl_lane *l;
	if (t->kind == TMAP_PROCESS)
		return;
	if (strcmp(tmap_lane(t), "isr") == 0) {
		rtl_isr_track(r, t);
		return;
	}
	l = rtl_lane(r, t);
	if (!l) {
		if (rtl_uuid_room(r, t->uuid) != 0)
			return;
		l = rtl_lane_new(r, t->name, tmap_lane(t), t->core);
		if (!l)
			return;
		r->by_uuid[t->uuid] = r->nlanes;
		l->uuid = t->uuid;
		l->tid = t->tid;
		return;
	}
	char *c = strdup(t->name);
	if (c) {
		free(l->name);
		l->name = c;
	}
}

/* The lane + 1 of ISR `name` (an id in r->names, 0 if the pool is full) on
 * core, made on first use; 0 if there is no room. */
static uint32_t rtl_isr_lane(struct rtl *r, uint32_t core, uint32_t name)
{
	for (uint32_t i = 0; i < r->nlanes; i++)
		if (r->lane[i].isr_key == name + 1 && r->lane[i].core == core)
			return i + 1;
	struct rtl_lane *l = rtl_lane_new(r, name ? namepool_str(r->names, name) : "ISR", "isr", core);
	if (!l)
		return 0;
	l->isr_key = name + 1;
	return r->nlanes;
}

/* ---- overview --------------------------------------------------------------- */

static void rtl_rebin(struct rtl *r, uint64_t t)
{
	while (t >= (uint64_t)RTL_BINS * r->bin) {
		for (uint32_t i = 0; i < r->nlanes; i++) {
			struct rtl_lane *l = &r->lane[i];
			if (!l->busy)
				continue;
			for (uint32_t k = 0; k < RTL_BINS / 2; k++) {
				l->busy[k] = l->busy[2 * k] + l->busy[2 * k + 1];
				l->count[k] = l->count[2 * k] + l->count[2 * k + 1];
			}
			memset(l->busy + RTL_BINS / 2, 0, RTL_BINS / 2 * sizeof(*l->busy));
			memset(l->count + RTL_BINS / 2, 0, RTL_BINS / 2 * sizeof(*l->count));
		}
		r->bin *= 2;
		r->nbins = (r->nbins + 1) / 2;
	}
}

static int rtl_bins(struct rtl_lane *l)
{
	if (l->busy)
		return 0;
	l->busy = calloc(RTL_BINS, sizeof(*l->busy));
	l->count = calloc(RTL_BINS, sizeof(*l->count));
	return l->busy && l->count ? 0 : -1;
}

static void rtl_overview(struct rtl *r, struct rtl_lane *l, uint64_t t0, uint64_t t1, int busy)
{
	rtl_rebin(r, t1);
	if (rtl_bins(l) != 0)
		return;
	uint32_t b0 = (uint32_t)(t0 / r->bin);
	l->count[b0]++;
	if (b0 + 1 > r->nbins)
		r->nbins = b0 + 1;
	if (t1 / r->bin + 1 > r->nbins)
		r->nbins = (uint32_t)(t1 / r->bin) + 1;
	while (busy && t0 < t1) {
		uint64_t b = t0 / r->bin, end = (b + 1) * r->bin;
		uint64_t part = (t1 < end ? t1 : end) - t0;
		l->busy[b] += part;
		t0 += part;
	}
}

/* ---- detail ------------------------------------------------------------------- */

static int rtl_kept(const struct rtl *r, uint64_t t0)
{
	return t0 % r->spacing < RTL_WINDOW_NS;
}

static void rtl_thin(struct rtl *r)
{
	r->spacing *= 2;
	uint32_t k = 0;
	for (uint32_t i = 0; i < r->n; i++)
		if (rtl_kept(r, r->it[i].t0))
			r->it[k++] = r->it[i];
	r->dropped += r->n - k;
	r->n = k;
}

static void rtl_repool(struct rtl *r, struct rtl_item *x);

static void rtl_add(struct rtl *r, const struct rtl_item *x)
{
	if (r->live) {
		struct rtl_item y = *x; /* its ids are the pools' of now: moved with the rest */
		if ((r->seq & 0xFFF) == 0)
			rtl_repool(r, &y);
		r->it[r->seq++ % r->max_items] = y;
		if (r->n < r->max_items)
			r->n++;
		else
			r->dropped++;
		return;
	}
	if (!rtl_kept(r, x->t0)) {
		r->dropped++;
		return;
	}
	if (r->n >= r->max_items) {
		rtl_thin(r);
		if (!rtl_kept(r, x->t0)) {
			r->dropped++;
			return;
		}
	}
	if (r->n == r->cap) {
		uint32_t nc = r->cap ? r->cap * 2 : 4096;
		if (nc > r->max_items + 1)
			nc = r->max_items + 1;
		struct rtl_item *p = realloc(r->it, (size_t)nc * sizeof(*p));
		if (!p) {
			r->dropped++;
			return;
		}
		r->it = p;
		r->cap = nc;
	}
	r->it[r->n++] = *x;
}

/* The annotations as "key=value key=value", interned. */
static uint32_t rtl_args(struct rtl *r, const struct sonde_arg *a, size_t n)
{
	size_t k = 0, cap = sizeof(r->argbuf);
	char nb[24];
	int added;
	for (size_t i = 0; i < n && k + 64 < cap; i++) {
		const struct sonde_arg *x = &a[i];
		int w = snprintf(r->argbuf + k, cap - k, "%s%s=", k ? " " : "", tmap_arg_name(x, i, nb));
		k += w > 0 ? (size_t)w : 0;
		if (k >= cap)
			break;
		switch (x->type) {
		case SONDE_A_U8: case SONDE_A_U16: case SONDE_A_U32: case SONDE_A_U64:
			w = snprintf(r->argbuf + k, cap - k, "%" PRIu64, x->v.u);
			break;
		case SONDE_A_I8: case SONDE_A_I16: case SONDE_A_I32: case SONDE_A_I64:
			w = snprintf(r->argbuf + k, cap - k, "%" PRId64, x->v.i);
			break;
		case SONDE_A_F32: case SONDE_A_F64: {
			char t[NUMFMT_FLOAT_MAX];
			numfmt_float(t, x->v.f, x->type == SONDE_A_F32);
			w = snprintf(r->argbuf + k, cap - k, "%s", t);
			break;
		}
		case SONDE_A_STR:
			w = snprintf(r->argbuf + k, cap - k, "\"%.*s\"", (int)(x->v.mem.n > 200 ? 200 : x->v.mem.n),
				     x->v.mem.p ? (const char *)x->v.mem.p : "");
			break;
		case SONDE_A_MEM:
			w = snprintf(r->argbuf + k, cap - k, "<%zu bytes>", x->v.mem.n);
			break;
		case SONDE_A_BOOL:
			w = snprintf(r->argbuf + k, cap - k, "%s", x->v.u ? "true" : "false");
			break;
		default:
			if (x->resolved)
				w = snprintf(r->argbuf + k, cap - k, "%s", x->resolved);
			else
				w = snprintf(r->argbuf + k, cap - k, "0x%" PRIx64, x->v.u);
		}
		k += w > 0 ? (size_t)w : 0;
	}
	if (k >= cap)
		k = cap - 1;
	return k ? namepool_intern(r->args, r->argbuf, k, &added) : 0;
}

/* What the page's data says once, and its scripts read by name (the
 * page's 00_util.js): the fields of an item in "items" (written in
 * rtl_write_json and rtl_write_delta in this order), the names of the
 * item types (enum rtl_type) and of the categories (an item's "cat"). */
static const char *const rtl_fields[] = { "lane", "type", "t", "dur", "depth", "name", "args", "cat", "value" };
static const char *const rtl_types[] = { "slice", "instant", "counter" };
static const char *const rtl_cats[] = { "", "sched", "state", "isr", "func", "mark", "log", "record", "info",
					"diag", "drops" };
#define RTL_CAT_ISR 3 /* "isr" in rtl_cats */
_Static_assert(sizeof(rtl_types) / sizeof(rtl_types[0]) == RTL_COUNTER + 1, "a name for each enum rtl_type");

static uint8_t rtl_cat(const char *cat)
{
	for (uint8_t i = 1; cat && i < sizeof(rtl_cats) / sizeof(rtl_cats[0]); i++)
		if (strcmp(cat, rtl_cats[i]) == 0)
			return i;
	return 0;
}

static void rtl_json_names(FILE *out, const char *key, const char *const *v, size_t n)
{
	fprintf(out, "\"%s\":[", key);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s\"%s\"", i ? "," : "", v[i]);
	fputs("],", out);
}

/* "fields", "types" and "cats": the layout of "items", written before them */
static void rtl_json_layout(FILE *out)
{
	rtl_json_names(out, "fields", rtl_fields, sizeof(rtl_fields) / sizeof(rtl_fields[0]));
	rtl_json_names(out, "types", rtl_types, sizeof(rtl_types) / sizeof(rtl_types[0]));
	rtl_json_names(out, "cats", rtl_cats, sizeof(rtl_cats) / sizeof(rtl_cats[0]));
	fputc('\n', out);
}

/* A slice begin, end or instant on lane l; value annotates a begin (an ISR
 * activation's nesting level). */
static void rtl_lane_slice(struct rtl *r, struct rtl_lane *l, enum tmap_type type, uint64_t ns,
			   const struct tmap_slice *s, int64_t value)
{
	int added;
	if (type == TMAP_BEGIN) {
		if (l->depth == RTL_MAX_DEPTH) {
			l->hidden++;
			return;
		}
		struct rtl_open *o = &l->stk[l->depth++];
		o->t0 = ns;
		o->value = value;
		o->name = s->name ? namepool_intern_str(r->names, s->name, &added) : 0;
		o->args = rtl_args(r, s->args, s->nargs);
		o->cat = rtl_cat(s->cat);
		return;
	}
	if (type == TMAP_END) {
		if (l->hidden) {
			l->hidden--;
			return;
		}
		if (!l->depth)
			return;
		struct rtl_open *o = &l->stk[--l->depth];
		uint32_t args = o->args;
		if (s->nargs) {
			uint32_t more = rtl_args(r, s->args, s->nargs);
			if (more && !args)
				args = more;
		}
		struct rtl_item x = { o->t0, ns >= o->t0 ? ns : o->t0, (uint32_t)(l - r->lane), o->name, args,
				      (uint16_t)l->depth, RTL_SLICE, o->cat, o->value };
		l->items++;
		rtl_overview(r, l, x.t0, x.t1, l->depth == 0);
		rtl_add(r, &x);
		return;
	}
	struct rtl_item x = { ns, ns, (uint32_t)(l - r->lane),
			      s->name ? namepool_intern(r->names, s->name, s->name_is_text && strlen(s->name) > 200 ? 200 : strlen(s->name), &added) : 0,
			      rtl_args(r, s->args, s->nargs), (uint16_t)l->depth, RTL_INSTANT, rtl_cat(s->cat), 0 };
	l->items++;
	rtl_overview(r, l, ns, ns, 0);
	rtl_add(r, &x);
}

/* A slice on a core's ISRs track, routed to the lane of the ISR it is in:
 * an ISR activation to its own lane (depth 0 there, value = its nesting
 * level), anything else to the innermost open ISR's lane; what comes
 * outside any ISR (an unmatched exit) to a lane "ISRs". */
static void rtl_isr_slice(struct rtl *r, struct rtl_isrt *q, enum tmap_type type, uint64_t ns,
			  const struct tmap_slice *s)
{
	uint32_t lane = 0;
	int64_t level = 0;
	if (type == TMAP_END) {
		if (q->hidden) {
			q->hidden--;
			return;
		}
		if (!q->depth)
			return;
		lane = q->lane[--q->depth];
	} else if (type == TMAP_BEGIN && rtl_cat(s->cat) == RTL_CAT_ISR) {
		int added;
		if (q->depth == RTL_MAX_DEPTH) {
			q->hidden++;
			return;
		}
		lane = rtl_isr_lane(r, q->core, s->name ? namepool_intern_str(r->names, s->name, &added) : 0);
		for (uint32_t i = 0; i < q->depth; i++)
			level += q->is_isr[i];
		level++;
	} else if (q->depth) {
		lane = q->lane[q->depth - 1];
	} else {
		if (!q->fallback) {
			struct rtl_lane *l = rtl_lane_new(r, "ISRs", "isr", q->core);
			q->fallback = l ? r->nlanes : 0;
		}
		lane = q->fallback;
	}
	if (type == TMAP_BEGIN) {
		if (q->depth == RTL_MAX_DEPTH) {
			q->hidden++;
			return;
		}
		q->is_isr[q->depth] = level > 0;
		q->lane[q->depth++] = lane;
	}
	if (lane)
		rtl_lane_slice(r, &r->lane[lane - 1], type, ns, s, level);
}

static void rtl_slice(void *w, enum tmap_type type, uint64_t ns, const struct tmap_track *t,
		      const struct tmap_slice *s)
{
	struct rtl *r = w;
	struct rtl_lane *l = rtl_lane(r, t);
	struct rtl_isrt *q;
	if (l)
		rtl_lane_slice(r, l, type, ns, s, 0);
	else if ((q = rtl_isrt(r, t)) != NULL)
		rtl_isr_slice(r, q, type, ns, s);
}

static void rtl_counter(void *w, uint64_t ns, const struct tmap_track *t, int64_t value)
{
	struct rtl *r = w;
	struct rtl_lane *l = rtl_lane(r, t);
	if (!l)
		return;
	struct rtl_item x = { ns, ns, (uint32_t)(l - r->lane), 0, 0, 0, RTL_COUNTER, 0, value };
	l->items++;
	rtl_overview(r, l, ns, ns, 0);
	rtl_add(r, &x);
}

const struct tmap_writer_ops rtl_ops = {
	.track = rtl_track,
	.slice = rtl_slice,
	.counter = rtl_counter,
	.task_state = NULL,
};

/* ---- live: bounded name pools ---------------------------------------------- */

static uint32_t rtl_move(struct namepool *to, const struct namepool *from, uint32_t id)
{
	int added;
	return id ? namepool_intern_str(to, namepool_str(from, id), &added) : 0;
}

/* In live mode the pools would grow with every new text (log messages,
 * argument values) over hours: past a few times what the ring can use
 * they are rebuilt with only the strings still in use -- by the ring's
 * items, the item x being added, the open slices and the ISR lanes' keys. */
static uint32_t rtl_pool_limit(const struct rtl *r)
{
	return 2 * r->max_items + 4096; /* an item uses two strings at most */
}

/* A pool for live mode: room for twice the limit, rebuilt at the limit. */
static struct namepool *rtl_live_pool(const struct rtl *r)
{
	return namepool_new(2 * rtl_pool_limit(r), (size_t)64 << 20);
}

static void rtl_repool(struct rtl *r, struct rtl_item *x)
{
	uint32_t limit = rtl_pool_limit(r);
	if (namepool_count(r->names) < limit && namepool_count(r->args) < limit)
		return;
	struct namepool *nn = rtl_live_pool(r), *na = rtl_live_pool(r);
	if (!nn || !na) {
		namepool_free(nn);
		namepool_free(na);
		return;
	}
	for (uint32_t i = 0; i < r->n; i++) {
		struct rtl_item *x = &r->it[(r->seq - r->n + i) % r->max_items];
		x->name = rtl_move(nn, r->names, x->name);
		x->args = rtl_move(na, r->args, x->args);
	}
	x->name = rtl_move(nn, r->names, x->name); /* the item being added */
	x->args = rtl_move(na, r->args, x->args);
	for (uint32_t i = 0; i < r->nlanes; i++) {
		struct rtl_lane *l = &r->lane[i];
		for (uint32_t d = 0; d < l->depth; d++) {
			l->stk[d].name = rtl_move(nn, r->names, l->stk[d].name);
			l->stk[d].args = rtl_move(na, r->args, l->stk[d].args);
		}
		if (l->isr_key > 1)
			l->isr_key = rtl_move(nn, r->names, l->isr_key - 1) + 1;
	}
	namepool_free(r->names);
	namepool_free(r->args);
	r->names = nn;
	r->args = na;
	r->repools++;
}

/* ---- JSON ------------------------------------------------------------------------ */

static int item_cmp(const void *a, const void *b)
{
	const struct rtl_item *x = a, *y = b;
	if (x->lane != y->lane)
		return x->lane < y->lane ? -1 : 1;
	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

/* Only the strings that kept items use go out (thinning drops items, not
 * pool entries): map[id] becomes the new id, written in that order. */
static void pool_json(FILE *out, const struct namepool *np, uint32_t *map,
		      void (*jstr)(FILE *, const char *, size_t))
{
	uint32_t n = namepool_count(np), k = 0;
	fputs("[\"\"", out);
	for (uint32_t i = 1; i <= n; i++) {
		if (!map[i])
			continue;
		map[i] = ++k;
		const char *s = namepool_str(np, i);
		fputc(',', out);
		jstr(out, s, strlen(s));
	}
	fputc(']', out);
}

/* "lanes" and "overview" (the bins from b0 on: a live delta sends the
 * bins that may have changed). */
static void rtl_json_lanes(const struct rtl *r, FILE *out, void (*jstr)(FILE *, const char *, size_t), uint32_t b0)
{
	fputs("\"lanes\":[", out);
	for (uint32_t i = 0; i < r->nlanes; i++) {
		const struct rtl_lane *l = &r->lane[i];
		fprintf(out, "%s{\"name\":", i ? "," : "");
		jstr(out, l->name ? l->name : "", l->name ? strlen(l->name) : 0);
		fprintf(out, ",\"kind\":\"%s\",\"core\":%" PRIu32 ",\"items\":%" PRIu64 "}", l->kind, l->core, l->items);
	}
	fprintf(out, "],\n\"overview\":{\"bin\":%" PRIu64 ",\"n\":%" PRIu32 ",\"from\":%" PRIu32 ",\"busy\":[",
		r->bin, r->nbins, b0);
	for (uint32_t i = 0; i < r->nlanes; i++) {
		const struct rtl_lane *l = &r->lane[i];
		fputs(i ? ",[" : "[", out);
		for (uint32_t k = b0; l->busy && k < r->nbins; k++)
			fprintf(out, "%s%" PRIu64, k > b0 ? "," : "", l->busy[k]);
		fputc(']', out);
	}
	fputs("],\"count\":[", out);
	for (uint32_t i = 0; i < r->nlanes; i++) {
		const struct rtl_lane *l = &r->lane[i];
		fputs(i ? ",[" : "[", out);
		for (uint32_t k = b0; l->count && k < r->nbins; k++)
			fprintf(out, "%s%" PRIu32, k > b0 ? "," : "", l->count[k]);
		fputc(']', out);
	}
	fputs("]},\n", out);
}

void rtl_write_json(struct rtl *r, FILE *out, void (*jstr)(FILE *, const char *, size_t))
{
	/* live: the ring's items, sorted in a copy (the ring keeps arrival order) */
	struct rtl_item *it = r->it;
	if (r->live && r->n) {
		it = malloc((size_t)r->n * sizeof(*it));
		if (!it)
			r->n = 0;
		for (uint32_t i = 0; it && i < r->n; i++)
			it[i] = r->it[(r->seq - r->n + i) % r->max_items];
	}
	rtl_json_lanes(r, out, jstr, 0);
	uint32_t *nmap = calloc((size_t)namepool_count(r->names) + 1, sizeof(*nmap));
	uint32_t *amap = calloc((size_t)namepool_count(r->args) + 1, sizeof(*amap));
	for (uint32_t i = 0; nmap && amap && i < r->n; i++) {
		nmap[it[i].name] = 1;
		amap[it[i].args] = 1;
	}
	if (nmap)
		nmap[0] = 0; /* id 0 is "none": always written as 0 */
	if (amap)
		amap[0] = 0;
	fputs("\"names\":", out);
	if (nmap)
		pool_json(out, r->names, nmap, jstr);
	else
		fputs("[\"\"]", out);
	fputs(",\n\"args\":", out);
	if (amap)
		pool_json(out, r->args, amap, jstr);
	else
		fputs("[\"\"]", out);
	fputs(",\n", out);
	rtl_json_layout(out);
	fputs("\"items\":[", out);
	if (r->n) /* it is NULL while empty; qsort's pointer must not be */
		qsort(it, r->n, sizeof(*it), item_cmp);
	for (uint32_t i = 0; i < r->n; i++) {
		const struct rtl_item *x = &it[i];
		fprintf(out, "%s[%" PRIu32 ",%u,%" PRIu64 ",%" PRIu64 ",%u,%" PRIu32 ",%" PRIu32 ",%u,%" PRId64 "]",
			i ? (i % 8 ? "," : ",\n") : "", x->lane, x->type, x->t0, x->t1 - x->t0, x->depth,
			nmap ? nmap[x->name] : 0, amap ? amap[x->args] : 0, x->cat, x->value);
	}
	fputc(']', out);
	if (it != r->it)
		free(it);
	free(nmap);
	free(amap);
	fprintf(out, ",\n\"detail\":{\"spacing\":%" PRIu64 ",\"window\":%u,\"dropped\":%" PRIu64
		     ",\"max_items\":%" PRIu32 ",\"lanes_over\":%" PRIu64 "},\n",
		r->live ? 0 : r->spacing, RTL_WINDOW_NS, r->live ? 0 : r->dropped, r->max_items, r->lanes_over);
}

void rtl_write_delta(struct rtl *r, FILE *out, uint64_t since, uint64_t bin, uint32_t nbins,
		     void (*jstr)(FILE *, const char *, size_t))
{
	uint64_t first = r->seq - r->n;
	/* the bins from the viewer's last one on, all of them when they were
	 * merged (the width doubled) or the session changed */
	uint32_t b0 = bin == r->bin && nbins && nbins <= r->nbins ? nbins - 1 : 0;
	rtl_json_lanes(r, out, jstr, b0);
	rtl_json_layout(out);
	fprintf(out, "\"seq\":%" PRIu64 ",\"session\":%" PRIu64 ",\"missed\":%" PRIu64 ",\n\"items\":[",
		r->seq, r->session, since < first ? first - since : 0);
	if (since < first)
		since = first;
	for (uint64_t s = since; s < r->seq; s++) {
		const struct rtl_item *x = &r->it[s % r->max_items];
		const char *nm = x->name ? namepool_str(r->names, x->name) : "";
		const char *ar = x->args ? namepool_str(r->args, x->args) : "";
		fprintf(out, "%s[%" PRIu32 ",%u,%" PRIu64 ",%" PRIu64 ",%u,", s > since ? (s % 8 ? "," : ",\n") : "",
			x->lane, x->type, x->t0, x->t1 - x->t0, x->depth);
		jstr(out, nm, strlen(nm));
		fputc(',', out);
		jstr(out, ar, strlen(ar));
		fprintf(out, ",%u,%" PRId64 "]", x->cat, x->value);
	}
	fputs("]", out);
}
