/*
 * test_sonde_helpers.h -- shared by the Sonde decoder tests: building
 * streams frame by frame with hdlc_encode, in protocol version 2 or 1 (the
 * test-side encoder of both: the target library writes version 2 only),
 * running the decoder over them in
 * chunks of any size, and recording what it reports (events deep-copied, so
 * they can be compared after the callbacks returned).  Header-only so that
 * each test stays one file.
 */
#ifndef TEST_SONDE_HELPERS_H
#define TEST_SONDE_HELPERS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framers/framer_hdlc.h"
#include "pipeline.h"
#include "sonde_proto.h"

extern const struct sonde_decoder_ops sonde_decoder_sonde;

/* ---- a growing byte buffer, and a stream built from frames -------------- */

struct tbuf {
	uint8_t *p;
	size_t n, cap;
};

static inline void tb_put(struct tbuf *b, const void *d, size_t n)
{
	if (b->n + n > b->cap) {
		size_t ncap = b->cap ? b->cap : 1024;
		while (ncap < b->n + n)
			ncap *= 2;
		b->p = realloc(b->p, ncap);
		b->cap = ncap;
	}
	memcpy(b->p + b->n, d, n);
	b->n += n;
}

static inline void tb_u8(struct tbuf *b, uint64_t v) { uint8_t x = (uint8_t)v; tb_put(b, &x, 1); }
static inline void tb_le(struct tbuf *b, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		tb_u8(b, v >> (8 * i));
}
static inline void tb_u16(struct tbuf *b, uint64_t v) { tb_le(b, v, 2); }
static inline void tb_u32(struct tbuf *b, uint64_t v) { tb_le(b, v, 4); }
static inline void tb_u64(struct tbuf *b, uint64_t v) { tb_le(b, v, 8); }
static inline void tb_strz(struct tbuf *b, const char *s) { tb_put(b, s, strlen(s) + 1); }
static inline void tb_free(struct tbuf *b) { free(b->p); memset(b, 0, sizeof(*b)); }

/* A stream in one protocol version.  Timed records are given their
 * absolute time; the stream writes the timestamp field the version has
 * (v1: the time's low 16 bits first; v2: the delta since the previous timed
 * frame written, last, in the narrowest width). */
struct tstream {
	struct tbuf wire;
	unsigned version;
	uint64_t last_t;       /* time of the previous timed frame (v2 deltas) */
	uint8_t seq;
	uint32_t fno;          /* the target's frame number of the next frame (v3 DROPS) */
	size_t nframes;
	uint64_t starts[4096]; /* offset of each frame, for the tests' expectations */
	size_t lens[4096];     /* its wire length */
};

static inline void ts_init_v(struct tstream *s, uint8_t first_seq, unsigned version)
{
	memset(s, 0, sizeof(*s));
	s->seq = first_seq;
	s->version = version;
}

/* The target's version. */
static inline void ts_init(struct tstream *s, uint8_t first_seq)
{
	ts_init_v(s, first_seq, SONDE_PROTO_VERSION);
}

/* The DATA index of a timed record's own fields. */
static inline size_t ts_fields_at(const struct tstream *s)
{
	return s->version == 1 ? SONDE_TS_BYTES_V1 : 0;
}

/* A version-2 timestamp field for delta in width w (1..4) bytes; returns w.
 * w = 0: the narrowest, as the target writes it. */
static inline size_t ts_field_v2(uint32_t delta, size_t w, uint8_t *out)
{
	static const uint32_t tags[5] = { 0, 0, SONDE_TS_TAG2, SONDE_TS_TAG3, SONDE_TS_TAG4 };
	if (!w)
		w = delta < SONDE_TS_LIMIT1 ? 1 : delta < SONDE_TS_LIMIT2 ? 2 : delta < SONDE_TS_LIMIT3 ? 3 : 4;
	if (delta >= (1u << (7 * w))) {
		fprintf(stderr, "test bug: delta 0x%x does not fit a %zu-byte field\n", (unsigned)delta, w);
		abort();
	}
	uint32_t v = delta | tags[w];
	for (size_t i = 0; i < w; i++)
		out[i] = (uint8_t)(v >> (8 * i));
	return w;
}

/* Append a frame with the next sequence number; returns its index. */
static inline size_t ts_frame(struct tstream *s, uint8_t id, const void *data, size_t n)
{
	uint8_t *tmp = malloc(2 * (n + 3) + 1);
	size_t k = hdlc_encode(s->seq++, id, data, n, tmp);
	s->fno++;
	size_t idx = s->nframes++;
	if (idx < 4096) {
		s->starts[idx] = s->wire.n;
		s->lens[idx] = k;
	}
	tb_put(&s->wire, tmp, k);
	free(tmp);
	return idx;
}

static inline size_t ts_frame_b(struct tstream *s, uint8_t id, const struct tbuf *pl)
{
	return ts_frame(s, id, pl->p, pl->n);
}

/* A frame with no payload builder: the data bytes as arguments. */
static inline void ts_skip_seq(struct tstream *s, unsigned n)
{
	s->seq = (uint8_t)(s->seq + n);
	s->fno += n;
}

/* EMPTY + TARGET_INFO (the stream's version, reset) at the start of a
 * session. */
static inline void ts_session(struct tstream *s, uint32_t freq, uint8_t addr_size)
{
	struct tbuf p = { 0 };
	s->fno = 0; /* sonde_init(): frame numbers start again */
	ts_frame(s, SONDE_REC_EMPTY, NULL, 0);
	tb_u8(&p, s->version);
	tb_u8(&p, SONDE_INFO_F_RESET);
	tb_u8(&p, addr_size);
	tb_u8(&p, SONDE_MODE_OVERWRITE);
	tb_u8(&p, 0);
	tb_u8(&p, s->version == 1 ? SONDE_TS_BYTES_V1 : SONDE_INFO_TS_VARIABLE);
	tb_u32(&p, freq);
	tb_u32(&p, 4096);
	tb_u32(&p, 0xB01DFACE);
	ts_frame_b(s, SONDE_REC_TARGET_INFO, &p);
	tb_free(&p);
}

static inline void ts_dict(struct tstream *s, uint8_t kind, uint32_t id, const char *name)
{
	struct tbuf p = { 0 };
	tb_u8(&p, kind);
	tb_u32(&p, id);
	tb_strz(&p, name);
	ts_frame_b(s, SONDE_REC_DICT, &p);
	tb_free(&p);
}

/* since_prev of a TIME_SYNC with no timed record before it to count from. */
#define TS_UNKNOWN SONDE_SYNC_SINCE_UNKNOWN

/* TIME_SYNC at t, since_prev ticks after the previous timed record. */
static inline void ts_sync(struct tstream *s, uint64_t t, uint32_t since_prev)
{
	struct tbuf p = { 0 };
	tb_u64(&p, t);
	tb_u32(&p, since_prev);
	ts_frame_b(s, SONDE_REC_TIME_SYNC, &p);
	tb_free(&p);
	s->last_t = t;
}

/* A timed record at time t with the fields given; v2: the timestamp field
 * in width w (0: the narrowest). */
static inline size_t ts_timed_w(struct tstream *s, uint8_t id, uint64_t t, size_t w, const void *fields, size_t n)
{
	struct tbuf p = { 0 };
	if (s->version == 1)
		tb_u16(&p, t);
	if (n)
		tb_put(&p, fields, n);
	if (s->version != 1) {
		uint8_t f[4];
		if (t < s->last_t || t - s->last_t >= SONDE_TS_LIMIT4) {
			fprintf(stderr, "test bug: t %llu is not 0..2^28 ticks after %llu\n", (unsigned long long)t,
				(unsigned long long)s->last_t);
			abort();
		}
		tb_put(&p, f, ts_field_v2((uint32_t)(t - s->last_t), w, f));
	}
	s->last_t = t;
	size_t idx = ts_frame_b(s, id, &p);
	tb_free(&p);
	return idx;
}

static inline size_t ts_timed(struct tstream *s, uint8_t id, uint64_t t, const void *fields, size_t n)
{
	return ts_timed_w(s, id, t, 0, fields, n);
}

static inline size_t ts_timed_b(struct tstream *s, uint8_t id, uint64_t t, const struct tbuf *fields)
{
	return ts_timed(s, id, t, fields->p, fields->n);
}

/* ---- recording what the decoder reports ---------------------------------- */

struct targ {
	enum sonde_arg_type type;
	char name[64];
	int has_name;
	char resolved[300];
	int has_resolved;
	uint32_t group;
	uint64_t u;
	int64_t i;
	double f;
	uint8_t mem[1100];
	size_t memn;
};

struct tev {
	struct sonde_event ev; /* pointers cleared */
	char rec_name[300];
	char obj_name[300];
	int has_obj_name;
	char obj2_name[64];
	int has_obj2_name;
	char ref_name[300];
	int has_ref_name;
	char text[1100];
	int has_text;
	size_t nargs;
	struct targ *args;
};

struct tdiag {
	enum sonde_diag_code code;
	uint64_t offset, frame, count;
	char msg[400];
};

/* One entry of the combined output, in order: an event or a diagnostic. */
struct titem {
	int is_diag;
	size_t idx;
};

struct trec {
	struct tev *ev;
	size_t nev, capev;
	struct tdiag *dg;
	size_t ndg, capdg;
	struct titem *order;
	size_t norder, caporder;
	struct sonde_session session;
};

static inline void trec_order(struct trec *r, int is_diag, size_t idx)
{
	if (r->norder == r->caporder) {
		r->caporder = r->caporder ? 2 * r->caporder : 64;
		r->order = realloc(r->order, r->caporder * sizeof(*r->order));
	}
	r->order[r->norder].is_diag = is_diag;
	r->order[r->norder].idx = idx;
	r->norder++;
}

static inline void copy_str(char *dst, size_t cap, const char *s, int *has)
{
	if (has)
		*has = s != NULL;
	snprintf(dst, cap, "%s", s ? s : "");
}

static inline void trec_event(void *ctx, const struct sonde_event *ev)
{
	struct trec *r = ctx;
	if (r->nev == r->capev) {
		r->capev = r->capev ? 2 * r->capev : 64;
		r->ev = realloc(r->ev, r->capev * sizeof(*r->ev));
	}
	struct tev *t = &r->ev[r->nev];
	memset(t, 0, sizeof(*t));
	t->ev = *ev;
	copy_str(t->rec_name, sizeof(t->rec_name), ev->rec_name, NULL);
	copy_str(t->obj_name, sizeof(t->obj_name), ev->obj_name, &t->has_obj_name);
	copy_str(t->obj2_name, sizeof(t->obj2_name), ev->obj2_name, &t->has_obj2_name);
	copy_str(t->text, sizeof(t->text), ev->text, &t->has_text);
	copy_str(t->ref_name, sizeof(t->ref_name), ev->ref_name, &t->has_ref_name);
	t->ev.rec_name = t->ev.obj_name = t->ev.obj2_name = t->ev.text = t->ev.native = t->ev.ref_name = NULL;
	t->ev.args = NULL;
	t->nargs = ev->nargs;
	t->args = calloc(ev->nargs ? ev->nargs : 1, sizeof(*t->args));
	for (size_t i = 0; i < ev->nargs; i++) {
		const struct sonde_arg *a = &ev->args[i];
		struct targ *x = &t->args[i];
		x->type = a->type;
		copy_str(x->name, sizeof(x->name), a->name, &x->has_name);
		copy_str(x->resolved, sizeof(x->resolved), a->resolved, &x->has_resolved);
		x->group = a->group;
		if (a->type == SONDE_A_STR || a->type == SONDE_A_MEM) {
			x->memn = a->v.mem.n < sizeof(x->mem) ? a->v.mem.n : sizeof(x->mem);
			memcpy(x->mem, a->v.mem.p, x->memn);
		} else if (a->type == SONDE_A_F32 || a->type == SONDE_A_F64) {
			x->f = a->v.f;
		} else {
			x->u = a->v.u;
			x->i = a->v.i;
		}
	}
	trec_order(r, 0, r->nev);
	r->nev++;
}

static inline void trec_diag(void *ctx, const struct sonde_diag *d)
{
	struct trec *r = ctx;
	if (r->ndg == r->capdg) {
		r->capdg = r->capdg ? 2 * r->capdg : 64;
		r->dg = realloc(r->dg, r->capdg * sizeof(*r->dg));
	}
	struct tdiag *t = &r->dg[r->ndg];
	t->code = d->code;
	t->offset = d->offset;
	t->frame = d->frame;
	t->count = d->count;
	snprintf(t->msg, sizeof(t->msg), "%s", d->msg ? d->msg : "");
	trec_order(r, 1, r->ndg);
	r->ndg++;
}

static inline void trec_free(struct trec *r)
{
	for (size_t i = 0; i < r->nev; i++)
		free(r->ev[i].args);
	free(r->ev);
	free(r->dg);
	free(r->order);
	memset(r, 0, sizeof(*r));
}

/* How to cut the input into feed() calls. */
enum tchunks { T_WHOLE, T_BYTES, T_RANDOM };

static inline uint32_t t_rand(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*state >> 33);
}

/* Decode buf with the Sonde decoder into r (zeroed first). */
static inline void t_decode_opts(const uint8_t *buf, size_t n, enum tchunks how, uint64_t seed, struct trec *r,
				 sonde_opts opts)
{
	memset(r, 0, sizeof(*r));
	r->session.addr_size = 4;
	r->session.buffer_mode = -1;
	r->session.proto = "sonde";
	struct sonde_out out = { .event = trec_event, .diag = trec_diag, .ctx = r, .session = &r->session };
	void *d = sonde_decoder_sonde.create(&out, opts);
	if (!d) {
		fprintf(stderr, "decoder create failed\n");
		abort();
	}
	size_t i = 0;
	while (i < n) {
		size_t k = n - i;
		if (how == T_BYTES)
			k = 1;
		else if (how == T_RANDOM)
			k = 1 + t_rand(&seed) % 97;
		if (k > n - i)
			k = n - i;
		sonde_decoder_sonde.feed(d, buf + i, k);
		i += k;
	}
	sonde_decoder_sonde.finish(d);
	sonde_decoder_sonde.destroy(d);
}

static inline void t_decode(const uint8_t *buf, size_t n, enum tchunks how, struct trec *r)
{
	t_decode_opts(buf, n, how, 12345, r, NULL);
}

/* The options that make the decoder take a stream without TARGET_INFO
 * (joined mid-way) as version 1 or 2: NULL for version 3, the default. */
static const char *const t_v1_opts[] = { "version=1", NULL };
static const char *const t_v2_opts[] = { "version=2", NULL };
static inline sonde_opts t_opts_for(unsigned version)
{
	return version == 1 ? t_v1_opts : version == 2 ? t_v2_opts : NULL;
}

/* 1 if two recordings are identical, field by field and in order. */
static inline int trec_equal(const struct trec *a, const struct trec *b)
{
	if (a->nev != b->nev || a->ndg != b->ndg || a->norder != b->norder)
		return 0;
	for (size_t i = 0; i < a->norder; i++)
		if (a->order[i].is_diag != b->order[i].is_diag || a->order[i].idx != b->order[i].idx)
			return 0;
	for (size_t i = 0; i < a->ndg; i++) {
		const struct tdiag *x = &a->dg[i], *y = &b->dg[i];
		if (x->code != y->code || x->offset != y->offset || x->frame != y->frame || x->count != y->count ||
		    strcmp(x->msg, y->msg) != 0)
			return 0;
	}
	for (size_t i = 0; i < a->nev; i++) {
		const struct tev *x = &a->ev[i], *y = &b->ev[i];
		const struct sonde_event *e = &x->ev, *f = &y->ev;
		if (e->kind != f->kind || e->flags != f->flags || e->ts != f->ts || e->ts_flags != f->ts_flags ||
		    e->core != f->core || e->rec_id != f->rec_id || e->obj != f->obj || e->obj2 != f->obj2 ||
		    e->value != f->value || e->level != f->level || e->nargs != f->nargs ||
		    e->offset != f->offset || e->frame != f->frame || e->seq != f->seq)
			return 0;
		if (strcmp(x->rec_name, y->rec_name) ||
		    strcmp(x->obj_name, y->obj_name) || strcmp(x->obj2_name, y->obj2_name) ||
		    strcmp(x->text, y->text) || x->nargs != y->nargs)
			return 0;
		for (size_t k = 0; k < x->nargs; k++) {
			const struct targ *p = &x->args[k], *q = &y->args[k];
			if (p->type != q->type || strcmp(p->name, q->name) || strcmp(p->resolved, q->resolved) ||
			    p->group != q->group || p->u != q->u || p->memn != q->memn ||
			    memcmp(p->mem, q->mem, p->memn) != 0 || memcmp(&p->f, &q->f, sizeof(double)) != 0)
				return 0;
		}
	}
	return 1;
}

/* The first event of a kind at or after index from, or NULL. */
static inline const struct tev *t_find(const struct trec *r, enum sonde_ev_kind kind, size_t from)
{
	for (size_t i = from; i < r->nev; i++)
		if (r->ev[i].ev.kind == kind)
			return &r->ev[i];
	return NULL;
}

static inline size_t t_count_diags(const struct trec *r, enum sonde_diag_code code)
{
	size_t n = 0;
	for (size_t i = 0; i < r->ndg; i++)
		n += r->dg[i].code == code;
	return n;
}

#endif /* TEST_SONDE_HELPERS_H */
