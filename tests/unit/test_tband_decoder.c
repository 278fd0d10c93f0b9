/*
 * test_tband_decoder.c -- the tband decoder driven through its
 * sonde_decoder_ops with synthetic streams: the mapping onto the event model
 * (ISRs, markers, counters, tasks and their switch-out reasons, queues,
 * drops, ns timestamps, cores), the options, every kind of stream error with
 * its byte offset and frame number, chunking (1 byte at a time gives the
 * same result), bounded memory and robustness against garbage.
 *
 * Streams are built with a small COBS/varlen encoder written here from the
 * format description (notes/tband.md §2-§4).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pipeline.h"
#include "sonde_proto.h"
#include "core/msg.h"

extern const struct sonde_decoder_ops sonde_decoder_tband;

#define TASKLOCAL(task, id) ((1ull << 63) | ((uint64_t)(task) << 32) | (id))

/* ---- stream builder ---------------------------------------------------------- */

struct stream {
	uint8_t b[1 << 17];
	size_t n;
};

static void put_varlen(uint8_t *p, size_t *n, uint64_t v)
{
	do {
		uint8_t c = v & 0x7F;

		v >>= 7;
		p[(*n)++] = c | (v ? 0x80 : 0);
	} while (v);
}

/* COBS-encode p[0..n) and append it with its 0x00 delimiter. */
static void put_cobs(struct stream *s, const uint8_t *p, size_t n)
{
	size_t code_at = s->n++;
	uint8_t code = 1;

	for (size_t i = 0; i < n; i++) {
		if (p[i] == 0) {
			s->b[code_at] = code;
			code_at = s->n++;
			code = 1;
			continue;
		}
		s->b[s->n++] = p[i];
		if (++code == 0xFF) {
			s->b[code_at] = code;
			code_at = s->n++;
			code = 1;
		}
	}
	s->b[code_at] = code;
	s->b[s->n++] = 0;
}

/* Append one frame: the id, then one field per fmt character:
 * 'u' unsigned varlen (unsigned long long), 'i' sign-magnitude (long long),
 * 'b' raw byte (int), 's' string (const char *), 'r' raw bytes
 * (const char *, size_t).  Returns the frame's offset. */
static size_t frame(struct stream *s, unsigned id, const char *fmt, ...)
{
	uint8_t p[512];
	size_t n = 0, at = s->n;
	va_list ap;

	p[n++] = (uint8_t)id;
	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		long long i;
		const char *str;
		size_t len;

		switch (*fmt) {
		case 'u':
			put_varlen(p, &n, va_arg(ap, unsigned long long));
			break;
		case 'i':
			i = va_arg(ap, long long);
			put_varlen(p, &n, i < 0 ? ((uint64_t)-(i + 1) + 1) << 1 | 1 : (uint64_t)i << 1);
			break;
		case 'b':
			p[n++] = (uint8_t)va_arg(ap, int);
			break;
		case 's':
			str = va_arg(ap, const char *);
			memcpy(p + n, str, strlen(str));
			n += strlen(str);
			break;
		case 'r':
			str = va_arg(ap, const char *);
			len = va_arg(ap, size_t);
			memcpy(p + n, str, len);
			n += len;
			break;
		}
	}
	va_end(ap);
	put_cobs(s, p, n);
	return at;
}

/* Append raw bytes as they are.  Returns their offset. */
static size_t raw(struct stream *s, const void *p, size_t n)
{
	size_t at = s->n;

	memcpy(s->b + s->n, p, n);
	s->n += n;
	return at;
}

/* ---- collector --------------------------------------------------------------- */

struct ev {
	struct sonde_event e;       /* pointers cleared; copies below */
	char rec_name[40], obj_name[64], obj2_name[32], text[64], native[256], ref_name[64];
	int has_obj_name, has_obj2_name, has_text, has_native, has_ref_name;
	struct sonde_arg arg0;
	char arg0_resolved[64];
};

struct dg {
	struct sonde_diag d;
	char msg[256];
};

#define MAX_EV 4096
#define MAX_DG 64

struct log {
	struct ev ev[MAX_EV];
	size_t nev;                 /* all events, also beyond MAX_EV */
	struct dg dg[MAX_DG];
	size_t ndg;
	struct sonde_session session;
	FILE *mem;                  /* every event and diag as a text line */
	char *text;
	size_t text_len;
	uint64_t input_len;         /* for range checks */
};

static void copy_str(char *dst, size_t cap, const char *src, int *has)
{
	if (has)
		*has = src != NULL;
	snprintf(dst, cap, "%s", src ? src : "");
}

/* The session's promise about names (struct sonde_session names_gen): the
 * text behind a name's pointer changes only together with names_gen.  Every
 * name an event hands out is checked against what the same pointer showed
 * before under the same names_gen. */
#define MAX_SEEN 256
static struct seen {
	const char *p;
	uint64_t gen;
	char text[600];
} seen[MAX_SEEN];
static size_t nseen;

static void check_name(const char *p, uint64_t gen)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < nseen && seen[i].p != p; i++)
		;
	if (i < nseen && gen && seen[i].gen == gen && strcmp(seen[i].text, p) != 0)
		fail_msg("name at %p changed from \"%s\" to \"%s\" under names_gen %llu", (const void *)p,
			 seen[i].text, p, (unsigned long long)gen);
	if (i == nseen) {
		if (nseen == MAX_SEEN)
			return;
		nseen++;
	}
	seen[i].p = p;
	seen[i].gen = gen;
	snprintf(seen[i].text, sizeof(seen[i].text), "%s", p);
}

static void log_event(void *ctx, const struct sonde_event *e)
{
	struct log *l = ctx;

	check_name(e->rec_name, l->session.names_gen);
	check_name(e->obj_name, l->session.names_gen);
	check_name(e->obj2_name, l->session.names_gen);
	check_name(e->ref_name, l->session.names_gen);
	for (size_t i = 0; i < e->nargs; i++)
		check_name(e->args[i].resolved, l->session.names_gen);

	fprintf(l->mem, "E k%d f%u ts%llu/%u c%u id%u %s o%llx(%s) o2=%llu(%s) v%lld t=%s off%llu fr%llu n%zu %s\n",
		e->kind, e->flags, (unsigned long long)e->ts, e->ts_flags, e->core, e->rec_id,
		e->rec_name, (unsigned long long)e->obj, e->obj_name ? e->obj_name : "-",
		(unsigned long long)e->obj2, e->obj2_name ? e->obj2_name : "-",
		(long long)e->value, e->text ? e->text : "-",
		(unsigned long long)e->offset, (unsigned long long)e->frame, e->nargs,
		e->native ? e->native : "-");
	assert_true(e->offset < l->input_len);
	if (l->nev < MAX_EV) {
		struct ev *c = &l->ev[l->nev];

		c->e = *e;
		copy_str(c->rec_name, sizeof(c->rec_name), e->rec_name, NULL);
		copy_str(c->obj_name, sizeof(c->obj_name), e->obj_name, &c->has_obj_name);
		copy_str(c->obj2_name, sizeof(c->obj2_name), e->obj2_name, &c->has_obj2_name);
		copy_str(c->text, sizeof(c->text), e->text, &c->has_text);
		copy_str(c->native, sizeof(c->native), e->native, &c->has_native);
		copy_str(c->ref_name, sizeof(c->ref_name), e->ref_name, &c->has_ref_name);
		if (e->nargs) {
			c->arg0 = e->args[0];
			copy_str(c->arg0_resolved, sizeof(c->arg0_resolved), e->args[0].resolved, NULL);
		}
		c->e.rec_name = c->e.obj_name = c->e.obj2_name = c->e.text = c->e.native = c->e.ref_name = NULL;
		c->e.args = NULL;
	}
	l->nev++;
}

static void log_diag(void *ctx, const struct sonde_diag *d)
{
	struct log *l = ctx;

	fprintf(l->mem, "D %d off%llu fr%llu n%llu %s\n", d->code,
		(unsigned long long)d->offset, (unsigned long long)d->frame,
		(unsigned long long)d->count, d->msg);
	assert_true(d->offset <= l->input_len);
	if (l->ndg < MAX_DG) {
		l->dg[l->ndg].d = *d;
		snprintf(l->dg[l->ndg].msg, sizeof(l->dg[l->ndg].msg), "%s", d->msg);
		l->dg[l->ndg].d.msg = NULL;
	}
	l->ndg++;
}

static uint32_t rng_state;

static uint32_t rng(void)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return rng_state >> 8;
}

/* Decode p[0..n) in chunks of 'chunk' bytes (0: random sizes 1..64). */
static struct log *decode(const uint8_t *p, size_t n, const char *const *opts, size_t chunk)
{
	struct log *l = calloc(1, sizeof(*l));
	struct sonde_out out = { .event = log_event, .diag = log_diag, .ctx = NULL, .session = NULL };
	void *dec;

	assert_non_null(l);
	out.ctx = l;
	out.session = &l->session;
	l->session.buffer_mode = -1;
	l->input_len = n;
	l->mem = open_memstream(&l->text, &l->text_len);
	assert_non_null(l->mem);
	nseen = 0; /* pointers of another decoder's names mean nothing here */
	dec = sonde_decoder_tband.create(&out, opts);
	assert_non_null(dec);
	assert_true(l->session.names_gen != 0);
	for (size_t at = 0; at < n;) {
		size_t k = chunk ? chunk : 1 + rng() % 64;

		if (k > n - at)
			k = n - at;
		sonde_decoder_tband.feed(dec, p + at, k);
		at += k;
	}
	sonde_decoder_tband.finish(dec);
	sonde_decoder_tband.destroy(dec);
	fclose(l->mem);
	return l;
}

static void log_free(struct log *l)
{
	free(l->text);
	free(l);
}

static const struct ev *ev_at(const struct log *l, size_t i)
{
	if (i >= l->nev || i >= MAX_EV)
		fail_msg("no event %zu (%zu events)", i, l->nev);
	return &l->ev[i];
}

static void assert_kind(const struct log *l, size_t i, enum sonde_ev_kind k, const char *rec_name)
{
	const struct ev *e = ev_at(l, i);

	if (e->e.kind != k || strcmp(e->rec_name, rec_name))
		fail_msg("event %zu: kind %d %s, expected kind %d %s", i, e->e.kind, e->rec_name,
			 k, rec_name);
}

static const char *const bm[] = { "tband.mode=baremetal", NULL };

/* ---- mapping ----------------------------------------------------------------- */

static void test_baremetal_mapping(void **state)
{
	struct stream *s = calloc(1, sizeof(*s));
	struct log *l;
	const struct ev *e;

	(void)state;
	frame(s, 0x02, "u", 10ull);                     /* ts_resolution_ns = 10 */
	frame(s, 0x03, "us", 17ull, "USART2");          /* isr_name */
	frame(s, 0x06, "us", 5ull, "sensor");           /* evtmarker_name */
	frame(s, 0x0A, "us", 2ull, "temp");             /* valmarker_name */
	frame(s, 0x04, "uu", 100ull, 17ull);            /* isr_enter 17 */
	frame(s, 0x04, "uu", 110ull, 0ull);             /* isr_enter 0 (nested) */
	frame(s, 0x05, "uu", 120ull, 0ull);
	frame(s, 0x05, "uu", 130ull, 17ull);
	frame(s, 0x07, "uus", 140ull, 5ull, "rdy");     /* evtmarker */
	frame(s, 0x08, "uus", 150ull, 5ull, "acq");     /* evtmarker_begin */
	frame(s, 0x09, "uu", 160ull, 5ull);             /* evtmarker_end */
	frame(s, 0x0B, "uui", 170ull, 2ull, -5ll);      /* valmarker */
	frame(s, 0x01, "uu", 180ull, 3ull);             /* dropped_evt_cnt */
	l = decode(s->b, s->n, bm, 0);

	assert_int_equal(l->ndg, 0);
	assert_int_equal(l->nev, 13);
	assert_string_equal(l->session.proto, "tband");
	assert_int_equal(l->session.ts_freq, 1000000000u);

	assert_kind(l, 0, SONDE_EV_INFO, "ts_resolution_ns");
	assert_int_equal(ev_at(l, 0)->e.ts_flags, 0); /* metadata: no time */
	assert_string_equal(ev_at(l, 0)->native,
			    "{\"BaseMetadata\":{\"TsResolutionNs\":{\"ns_per_ts\":10}}}");
	e = ev_at(l, 1);
	assert_kind(l, 1, SONDE_EV_DICT, "isr_name");
	assert_int_equal(e->e.obj, 17);
	assert_int_equal(e->e.obj2, SONDE_DICT_ISR);
	assert_string_equal(e->text, "USART2");
	assert_int_equal(ev_at(l, 2)->e.obj2, SONDE_DICT_MARKER);
	assert_int_equal(ev_at(l, 3)->e.obj2, SONDE_DICT_COUNTER);

	/* ISRs: nesting depth after entering / before leaving, names, ns */
	e = ev_at(l, 4);
	assert_kind(l, 4, SONDE_EV_ISR_ENTER, "isr_enter");
	assert_int_equal(e->e.obj, 17);
	assert_string_equal(e->obj_name, "USART2");
	assert_int_equal(e->e.value, 1);
	assert_int_equal(e->e.ts, 1000);
	assert_int_equal(e->e.ts_flags, SONDE_TS_VALID);
	assert_int_equal(e->arg0.type, SONDE_A_OBJ);
	assert_string_equal(e->arg0_resolved, "USART2");
	assert_string_equal(e->native, "{\"Base\":{\"ts\":100,\"kind\":{\"IsrEnter\":{\"isr_id\":17}}}}");
	assert_int_equal(ev_at(l, 5)->e.value, 2);
	assert_false(ev_at(l, 5)->has_obj_name);
	assert_kind(l, 6, SONDE_EV_ISR_EXIT, "isr_exit");
	assert_int_equal(ev_at(l, 6)->e.value, 2);
	assert_int_equal(ev_at(l, 7)->e.value, 1);
	assert_int_equal(ev_at(l, 7)->e.ts, 1300);

	/* markers */
	e = ev_at(l, 8);
	assert_kind(l, 8, SONDE_EV_MARK, "evtmarker");
	assert_int_equal(e->e.obj, 5);
	assert_string_equal(e->obj_name, "sensor");
	assert_string_equal(e->text, "rdy");
	assert_kind(l, 9, SONDE_EV_MARK_BEGIN, "evtmarker_begin");
	assert_string_equal(ev_at(l, 9)->text, "acq");
	assert_kind(l, 10, SONDE_EV_MARK_END, "evtmarker_end");
	assert_false(ev_at(l, 10)->has_text);

	/* value marker as a counter, drops as a refused total */
	e = ev_at(l, 11);
	assert_kind(l, 11, SONDE_EV_COUNTER, "valmarker");
	assert_int_equal(e->e.obj, 2);
	assert_string_equal(e->obj_name, "temp");
	assert_int_equal(e->e.value, -5);
	e = ev_at(l, 12);
	assert_kind(l, 12, SONDE_EV_DROPS, "dropped_evt_cnt");
	assert_int_equal(e->e.obj2, 3);
	assert_int_equal(e->e.value, 0);
	assert_int_equal(e->e.ts, 1800);
	log_free(l);
	free(s);
}

/* dropped_evt_cnt is a running total of the events the backend refused:
 * the session sums its increases (a smaller total means the target
 * restarted counting) and counts every frame, good or bad. */
static void test_drops_and_frames_in_session(void **state)
{
	struct stream *s = calloc(1, sizeof(*s));
	struct log *l;

	(void)state;
	frame(s, 0x01, "uu", 1ull, 0ull);
	frame(s, 0x01, "uu", 2ull, 3ull);
	frame(s, 0x01, "uu", 3ull, 5ull);
	raw(s, "\x00", 1);
	frame(s, 0x01, "uu", 4ull, 5ull);
	frame(s, 0x01, "uu", 5ull, 2ull);      /* restarted */
	raw(s, "\x02\x01", 2);                 /* cut off */
	l = decode(s->b, s->n, NULL, 0);
	assert_int_equal(l->session.drops_refused, 7);
	assert_int_equal(l->session.drops_overwritten, 0);
	assert_int_equal(l->session.frames, 7);
	assert_int_equal(ev_at(l, 2)->e.obj2, 5);
	log_free(l);
	free(s);
}

/* Without ts_resolution_ns the resolution is assumed (1 ns, or
 * -o tband.ns_per_ts) and the times are marked estimated; a resolution of
 * 0 is reported and ignored. */
static void test_timestamp_resolution(void **state)
{
	static const char *const opts[] = { "tband.ns_per_ts=25", NULL };
	struct stream *s = calloc(1, sizeof(*s));
	struct log *l;

	(void)state;
	frame(s, 0x04, "uu", 4ull, 0ull);
	frame(s, 0x02, "u", 0ull);
	frame(s, 0x04, "uu", 5ull, 0ull);
	frame(s, 0x02, "u", 3ull);
	frame(s, 0x05, "uu", 6ull, 0ull);

	l = decode(s->b, s->n, NULL, 0);
	assert_int_equal(ev_at(l, 0)->e.ts, 4);
	assert_int_equal(ev_at(l, 0)->e.ts_flags, SONDE_TS_VALID | SONDE_TS_ESTIMATED);
	assert_int_equal(l->ndg, 1);
	assert_int_equal(l->dg[0].d.code, SONDE_D_MALFORMED);
	assert_int_equal(l->dg[0].d.frame, 1);
	assert_non_null(strstr(l->dg[0].msg, "ts_resolution_ns 0"));
	assert_int_equal(ev_at(l, 2)->e.ts, 5);
	assert_int_equal(ev_at(l, 4)->e.ts, 18);
	assert_int_equal(ev_at(l, 4)->e.ts_flags, SONDE_TS_VALID);
	log_free(l);

	l = decode(s->b, s->n, opts, 0);
	assert_int_equal(ev_at(l, 0)->e.ts, 100);
	assert_int_equal(ev_at(l, 2)->e.ts, 125);
	assert_int_equal(ev_at(l, 4)->e.ts, 18);
	log_free(l);
	free(s);
}

static void test_freertos_tasks_and_queues(void **state)
{
	struct stream *s = calloc(1, sizeof(*s));
	struct log *l;
	const struct ev *e;
	size_t i = 0;

	(void)state;
	frame(s, 0x5F, "us", 1ull, "t1");                /* task_name */
	frame(s, 0x5F, "us", 2ull, "t2");
	frame(s, 0x5F, "us", 3ull, "IDLE");
	frame(s, 0x60, "uu", 3ull, 0ull);                /* task_is_idle_task */
	frame(s, 0x65, "ub", 1ull, 0);                   /* queue_kind queue */
	frame(s, 0x64, "us", 1ull, "q");                 /* queue_name */
	frame(s, 0x65, "ub", 2ull, 3);                   /* queue_kind mutex */
	frame(s, 0x64, "us", 2ull, "m");
	frame(s, 0x5E, "uu", 10ull, 1ull);               /* task_created */
	frame(s, 0x5B, "uuu", 10ull, 1ull, 5ull);        /* task_priority_set */
	frame(s, 0x54, "uu", 20ull, 1ull);               /* switched in t1 */
	frame(s, 0x59, "uu", 30ull, 7ull);               /* curtask_delay 7 */
	frame(s, 0x54, "uu", 40ull, 2ull);               /* -> t2 */
	frame(s, 0x6F, "uuu", 50ull, 1ull, 100ull);      /* block on receive q */
	frame(s, 0x54, "uu", 60ull, 3ull);               /* -> idle */
	frame(s, 0x55, "uu", 70ull, 1ull);               /* t1 ready */
	frame(s, 0x54, "uu", 80ull, 1ull);               /* idle -> t1 */
	frame(s, 0x54, "uu", 90ull, 2ull);               /* t1 preempted */
	frame(s, 0x58, "uu", 100ull, 2ull);              /* t2 suspends itself */
	frame(s, 0x54, "uu", 110ull, 1ull);
	frame(s, 0x62, "uu", 120ull, 1ull);              /* t1 deleted */
	frame(s, 0x54, "uu", 130ull, 3ull);
	frame(s, 0x66, "uuu", 140ull, 1ull, 3ull);       /* queue_send q -> 3 */
	frame(s, 0x6A, "uuu", 150ull, 2ull, 0ull);       /* mutex taken */
	frame(s, 0x6C, "uu", 160ull, 1ull);              /* queue_reset */
	frame(s, 0x70, "uuu", 170ull, 7ull, 2ull);       /* queue 7: kind unknown */
	frame(s, 0x5C, "uuu", 180ull, 2ull, 6ull);       /* priority inherit */
	frame(s, 0x58, "uu", 190ull, 2ull);              /* t2 (not running) suspended */
	frame(s, 0x57, "uu", 200ull, 2ull);              /* t2 resumed from an ISR */
	l = decode(s->b, s->n, NULL, 0);
	assert_int_equal(l->ndg, 0);

	for (; i < 3; i++) {
		assert_kind(l, i, SONDE_EV_DICT, "task_name");
		assert_int_equal(ev_at(l, i)->e.obj2, SONDE_DICT_TASK);
	}
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_OBJECT, "task_is_idle_task");
	assert_int_equal(e->e.op, SONDE_OBJ_ANNOUNCED);
	assert_int_equal(e->e.obj2, SONDE_OBJK_IDLE_TASK);
	e = ev_at(l, i);
	assert_kind(l, i, SONDE_EV_OBJECT, "queue_kind");
	assert_int_equal(e->e.obj2, SONDE_OBJK_QUEUE);
	assert_string_equal(ev_at(l, i++)->arg0_resolved, "");
	assert_kind(l, i, SONDE_EV_DICT, "queue_name");
	assert_int_equal(ev_at(l, i++)->e.obj2, SONDE_DICT_OBJECT);
	i += 2;
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_TASK_CREATE, "task_created");
	assert_int_equal(e->e.obj, 1);
	assert_string_equal(e->obj_name, "t1");
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_TASK_PRIO, "task_priority_set");
	assert_int_equal(e->e.obj, 1);
	assert_string_equal(e->obj_name, "t1");
	assert_int_equal(e->e.op, SONDE_OP_PRIO_SET);
	assert_int_equal(e->e.value, 5);
	/* first switch: nothing ran before */
	assert_kind(l, i, SONDE_EV_TASK_IN, "task_switched_in");
	assert_string_equal(ev_at(l, i++)->obj_name, "t1");
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_RECORD, "curtask_delay");
	assert_int_equal(e->e.obj, 1);
	/* t1 -> t2: t1 delayed; the record counts once, as the switch-in */
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_TASK_OUT, "task_switched_out");
	assert_int_equal(e->e.obj, 1);
	assert_int_equal(e->e.obj2, SONDE_TASK_DELAYED);
	assert_string_equal(e->obj2_name, "delayed");
	assert_int_equal(e->e.flags, SONDE_EVF_PART);
	assert_string_equal(e->text, "delay 7 ticks");
	assert_false(e->has_native);
	assert_int_equal(e->e.ts, 40);
	assert_int_equal(ev_at(l, i)->e.obj, 2);
	assert_kind(l, i++, SONDE_EV_TASK_IN, "task_switched_in");
	assert_kind(l, i++, SONDE_EV_RECORD, "curtask_block_on_queue_receive");
	/* t2 -> idle: blocked on q; the idle task is IDLE, not a task */
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_TASK_OUT, "task_switched_out");
	assert_int_equal(e->e.obj, 2);
	assert_int_equal(e->e.obj2, SONDE_TASK_WAIT_RECV);
	assert_int_equal(e->e.flags, SONDE_EVF_PART | SONDE_EVF_REF);
	assert_int_equal(e->e.ref, 1);
	assert_string_equal(e->ref_name, "q");
	assert_string_equal(e->text, "receive on queue q");
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_IDLE, "task_switched_in");
	assert_int_equal(e->e.obj, 3);
	assert_true(e->has_native);
	assert_kind(l, i++, SONDE_EV_TASK_READY, "task_to_rdy_state");
	/* idle -> t1: no TASK_OUT for the idle task */
	assert_kind(l, i++, SONDE_EV_TASK_IN, "task_switched_in");
	/* t1 -> t2 without a reason: preempted */
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_TASK_OUT, "task_switched_out");
	assert_int_equal(e->e.obj2, SONDE_TASK_PREEMPTED);
	assert_false(e->has_text);
	assert_kind(l, i++, SONDE_EV_TASK_IN, "task_switched_in");
	assert_kind(l, i++, SONDE_EV_RECORD, "task_suspended");
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_TASK_OUT, "task_switched_out");
	assert_int_equal(e->e.obj, 2);
	assert_int_equal(e->e.obj2, SONDE_TASK_SUSPENDED);
	assert_kind(l, i++, SONDE_EV_TASK_IN, "task_switched_in");
	assert_kind(l, i++, SONDE_EV_RECORD, "task_deleted");
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_TASK_OUT, "task_switched_out");
	assert_int_equal(e->e.obj, 1);
	assert_int_equal(e->e.obj2, SONDE_TASK_DELETED);
	assert_kind(l, i++, SONDE_EV_IDLE, "task_switched_in");
	/* queues: operations with the level after them, kind in obj2 */
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_OBJ_OP, "queue_send");
	assert_int_equal(e->e.obj, 1);
	assert_string_equal(e->obj_name, "q");
	assert_int_equal(e->e.op, SONDE_OP_SEND);
	assert_int_equal(e->e.flags, SONDE_EVF_LEVEL);
	assert_int_equal(e->e.value, 3);
	assert_int_equal(e->e.obj2, SONDE_OBJK_QUEUE);
	assert_string_equal(e->obj2_name, "queue");
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_OBJ_OP, "queue_receive");
	assert_int_equal(e->e.op, SONDE_OP_RECEIVE);
	assert_int_equal(e->e.obj2, SONDE_OBJK_MUTEX);
	assert_string_equal(e->obj2_name, "mutex");
	assert_int_equal(e->e.value, 0);
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_OBJ_OP, "queue_reset");
	assert_int_equal(e->e.op, SONDE_OP_RESET);
	assert_int_equal(e->e.value, 0);
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_QUEUE, "queue_cur_length");
	assert_int_equal(e->e.obj, 7);
	assert_int_equal(e->e.value, 2);
	assert_false(e->has_obj_name);
	assert_false(e->has_obj2_name);
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_TASK_PRIO, "task_priority_inherit");
	assert_int_equal(e->e.obj, 2);
	assert_int_equal(e->e.op, SONDE_OP_PRIO_INHERIT);
	assert_int_equal(e->e.value, 6);
	/* a task that is not running leaves at once, as in Sonde's own trace */
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_TASK_OUT, "task_suspended");
	assert_int_equal(e->e.obj, 2);
	assert_int_equal(e->e.obj2, SONDE_TASK_SUSPENDED);
	assert_int_equal(e->e.flags, 0);
	e = ev_at(l, i);
	assert_kind(l, i++, SONDE_EV_OBJ_OP, "task_resumed_from_isr");
	assert_int_equal(e->e.op, SONDE_OP_RESUME | SONDE_OP_F_ISR);
	assert_int_equal(e->e.ref, 2);
	assert_string_equal(e->ref_name, "t2");
	assert_int_equal(l->nev, i);
	log_free(l);
	free(s);
}

/* Named difference from the reference converter (notes/tband.md §12 B6): the
 * target registers task-local marker names under task 0, and the reference
 * attaches them to a phantom "Task #0" so the task's own markers appear
 * unnamed.  Sonde keeps the raw task_id 0 in the native line but names the
 * running task's markers from those task-0 names, unless the task has its
 * own.  Task-local markers are objects of their own, apart from global
 * markers with the same id. */
static void test_b6_task_marker_names_registered_under_task_0(void **state)
{
	struct stream *s = calloc(1, sizeof(*s));
	struct log *l;
	const struct ev *e;

	(void)state;
	frame(s, 0x5F, "us", 1ull, "t1");
	frame(s, 0x5F, "us", 2ull, "t2");
	frame(s, 0x7A, "uus", 0ull, 0ull, "T1Evts");     /* task_evtmarker_name */
	frame(s, 0x7E, "uus", 0ull, 0ull, "T1Val");      /* task_valmarker_name */
	frame(s, 0x7A, "uus", 1ull, 2ull, "own");        /* a proper one */
	frame(s, 0x54, "uu", 10ull, 1ull);
	frame(s, 0x7B, "uus", 20ull, 0ull, "PING");      /* task_evtmarker */
	frame(s, 0x7F, "uui", 30ull, 0ull, -3ll);        /* task_valmarker */
	frame(s, 0x07, "uus", 35ull, 0ull, "global");    /* evtmarker 0 */
	frame(s, 0x54, "uu", 40ull, 2ull);
	frame(s, 0x7C, "uus", 50ull, 1ull, "");          /* begin */
	frame(s, 0x7D, "uu", 60ull, 1ull);               /* end */
	frame(s, 0x7B, "uus", 70ull, 5ull, "x");         /* never named */
	l = decode(s->b, s->n, NULL, 0);
	assert_int_equal(l->ndg, 0);

	e = ev_at(l, 2);
	assert_kind(l, 2, SONDE_EV_DICT, "task_evtmarker_name");
	assert_int_equal(e->e.obj, TASKLOCAL(0, 0));
	assert_int_equal(e->e.obj2, SONDE_DICT_MARKER);
	assert_string_equal(e->native, "{\"FreeRTOSMetadata\":{\"TaskEvtmarkerName\":"
			    "{\"evtmarker_id\":0,\"task_id\":0,\"name\":\"T1Evts\"}}}");
	assert_int_equal(ev_at(l, 3)->e.obj2, SONDE_DICT_COUNTER);
	e = ev_at(l, 6);
	assert_kind(l, 6, SONDE_EV_MARK, "task_evtmarker");
	assert_int_equal(e->e.obj, TASKLOCAL(1, 0));
	assert_string_equal(e->obj_name, "t1: T1Evts");
	assert_string_equal(e->arg0_resolved, "T1Evts");
	assert_string_equal(e->text, "PING");
	e = ev_at(l, 7);
	assert_kind(l, 7, SONDE_EV_COUNTER, "task_valmarker");
	assert_int_equal(e->e.obj, TASKLOCAL(1, 0));
	assert_string_equal(e->obj_name, "t1: T1Val");
	assert_int_equal(e->e.value, -3);
	e = ev_at(l, 8);
	assert_kind(l, 8, SONDE_EV_MARK, "evtmarker");
	assert_int_equal(e->e.obj, 0);
	assert_false(e->has_obj_name);
	/* t1 -> t2 (TASK_OUT, TASK_IN), then t2's own marker 1 */
	e = ev_at(l, 11);
	assert_kind(l, 11, SONDE_EV_MARK_BEGIN, "task_evtmarker_begin");
	assert_int_equal(e->e.obj, TASKLOCAL(2, 1));
	assert_string_equal(e->obj_name, "t2: own");
	assert_string_equal(e->text, "");
	assert_kind(l, 12, SONDE_EV_MARK_END, "task_evtmarker_end");
	assert_int_equal(ev_at(l, 12)->e.obj, TASKLOCAL(2, 1));
	assert_string_equal(ev_at(l, 13)->obj_name, "t2: #5");
	log_free(l);
	free(s);
}

/* A task-local marker's names follow every change of the names they are
 * made of (the decoder keeps them between events): the marker renamed, its
 * task renamed, the task's own name for it after the one under task 0, a
 * name given again unchanged; and the markers of tasks whose numbers share
 * a place in that table stay apart. */
static void test_task_marker_names_follow_renames(void **state)
{
	static const char *const want[] = {
		"t1: A", "t1: A", "t1: B", "u1: B", "u1: mine", "u1: mine", "t2: B",
		"Task #17: B", "u1: mine",
	};
	struct stream *s = calloc(1, sizeof(*s));
	struct log *l;
	size_t k = 0;

	(void)state;
	frame(s, 0x5F, "us", 1ull, "t1");
	frame(s, 0x5F, "us", 2ull, "t2");
	frame(s, 0x7A, "uus", 3ull, 0ull, "A");          /* under task 0 */
	frame(s, 0x54, "uu", 10ull, 1ull);
	frame(s, 0x7B, "uus", 11ull, 3ull, "x");         /* t1: A */
	frame(s, 0x7B, "uus", 12ull, 3ull, "x");         /* again */
	frame(s, 0x7A, "uus", 3ull, 0ull, "B");          /* marker renamed */
	frame(s, 0x7B, "uus", 13ull, 3ull, "x");
	frame(s, 0x5F, "us", 1ull, "u1");                /* task renamed */
	frame(s, 0x7B, "uus", 14ull, 3ull, "x");
	frame(s, 0x7A, "uus", 3ull, 1ull, "mine");       /* t1's own name */
	frame(s, 0x7B, "uus", 15ull, 3ull, "x");
	frame(s, 0x5F, "us", 1ull, "u1");                /* the same again */
	frame(s, 0x7B, "uus", 16ull, 3ull, "x");
	frame(s, 0x54, "uu", 20ull, 2ull);
	frame(s, 0x7B, "uus", 21ull, 3ull, "x");         /* t2: B (under task 0) */
	frame(s, 0x54, "uu", 30ull, 17ull);
	frame(s, 0x7B, "uus", 31ull, 3ull, "x");         /* task 17 has no name */
	frame(s, 0x54, "uu", 40ull, 1ull);
	frame(s, 0x7B, "uus", 41ull, 3ull, "x");
	l = decode(s->b, s->n, NULL, 0);
	assert_int_equal(l->ndg, 0);
	for (size_t i = 0; i < l->nev && i < MAX_EV; i++) {
		const struct ev *e = ev_at(l, i);

		if (e->e.kind != SONDE_EV_MARK)
			continue;
		assert_true(k < sizeof(want) / sizeof(want[0]));
		assert_string_equal(e->obj_name, want[k]);
		k++;
	}
	assert_int_equal(k, sizeof(want) / sizeof(want[0]));
	log_free(l);
	free(s);
}

/* -o core=N sets the stream's core; core_id events switch it; ISR nesting,
 * the running task and the timestamp order are per core. */
static void test_cores(void **state)
{
	static const char *const opts[] = { "core=2", NULL };
	struct stream *s = calloc(1, sizeof(*s));
	struct log *l;
	size_t f9;

	(void)state;
	frame(s, 0x04, "uu", 100ull, 1ull);     /* core 2: isr depth 1 */
	frame(s, 0x00, "uu", 0ull, 1ull);       /* core_id 1 (ts 0: no order check) */
	frame(s, 0x04, "uu", 50ull, 1ull);      /* core 1: depth 1 */
	frame(s, 0x54, "uu", 60ull, 7ull);      /* task 7 on core 1 */
	frame(s, 0x00, "uu", 70ull, 2ull);
	frame(s, 0x04, "uu", 110ull, 1ull);     /* core 2: depth 2 */
	frame(s, 0x54, "uu", 120ull, 8ull);     /* task 8 on core 2: no TASK_OUT of 7 */
	frame(s, 0x04, "uu", 90ull, 1ull);      /* goes back in time on core 2 */
	f9 = frame(s, 0x00, "uu", 130ull, 9ull); /* out of range: ignored */
	frame(s, 0x05, "uu", 140ull, 1ull);
	l = decode(s->b, s->n, opts, 0);

	assert_int_equal(ev_at(l, 0)->e.core, 2);
	assert_int_equal(ev_at(l, 1)->e.core, 1);
	assert_kind(l, 1, SONDE_EV_INFO, "core_id");
	assert_int_equal(ev_at(l, 2)->e.core, 1);
	assert_int_equal(ev_at(l, 2)->e.value, 1);
	assert_int_equal(ev_at(l, 5)->e.core, 2);
	assert_int_equal(ev_at(l, 5)->e.value, 2);
	assert_kind(l, 6, SONDE_EV_TASK_IN, "task_switched_in");
	assert_int_equal(ev_at(l, 6)->e.obj, 8);
	assert_int_equal(ev_at(l, 7)->e.value, 3);
	assert_int_equal(ev_at(l, 8)->e.core, 2);
	assert_int_equal(ev_at(l, 9)->e.core, 2);
	assert_int_equal(ev_at(l, 9)->e.value, 3);
	assert_int_equal(l->nev, 10);

	assert_int_equal(l->ndg, 2);
	assert_int_equal(l->dg[0].d.code, SONDE_D_TIME);
	assert_int_equal(l->dg[0].d.frame, 7);
	assert_int_equal(l->dg[1].d.code, SONDE_D_MALFORMED);
	assert_int_equal(l->dg[1].d.frame, 8);
	assert_int_equal(l->dg[1].d.offset, f9);
	assert_non_null(strstr(l->dg[1].msg, "core_id 9"));
	log_free(l);
	free(s);
}

static void test_options(void **state)
{
	static const char *const bad[][2] = {
		{ "tband.mode=rtos", NULL }, { "core=4", NULL }, { "core=x", NULL },
		{ "core=", NULL }, { "tband.ns_per_ts=0", NULL }, { "tband.ns_per_ts=1.5", NULL },
	};
	/* a bad option is said once as the tool's message (core/opts.h) */
	static const char *const said_want[] = {
		"sonde: -o tband.mode=rtos: expected freertos, free-rtos, baremetal or bare-metal\n",
		"sonde: -o core=4: expected a number from 0 to 3\n",
		"sonde: -o core=x: expected a number from 0 to 3\n",
		"sonde: -o core=: expected a number from 0 to 3\n",
		"sonde: -o tband.ns_per_ts=0: expected a number from 1 to 18446744073709551615\n",
		"sonde: -o tband.ns_per_ts=1.5: expected a number from 1 to 18446744073709551615\n",
	};
	static const char *const good[][2] = {
		{ "tband.mode=bare-metal", NULL }, { "tband.mode=free-rtos", NULL },
		{ "tband.mode=freertos", NULL }, { "core=3", NULL },
	};
	struct log l;
	struct sonde_out out = { .event = log_event, .diag = log_diag, .ctx = &l, .session = &l.session };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *said = NULL;
		size_t said_len = 0;
		FILE *err = open_memstream(&said, &said_len);

		assert_non_null(err);
		memset(&l, 0, sizeof(l));
		sonde_msg_to(err);
		assert_null(sonde_decoder_tband.create(&out, bad[i]));
		sonde_msg_to(NULL);
		fclose(err);
		assert_int_equal(l.ndg, 0);
		assert_string_equal(said, said_want[i]);
		free(said);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		void *d;

		memset(&l, 0, sizeof(l));
		d = sonde_decoder_tband.create(&out, good[i]);
		assert_non_null(d);
		assert_int_equal(l.ndg, 0);
		sonde_decoder_tband.destroy(d);
	}
	assert_string_equal(sonde_decoder_tband.name, "tband");
}

/* ---- errors ------------------------------------------------------------------ */

/* Every kind of broken frame between good ones: each is reported at its byte
 * offset with its frame number, and everything else is still decoded. */
static struct stream *broken_stream(size_t at[16])
{
	struct stream *s = calloc(1, sizeof(*s));
	static uint8_t big[9000];

	assert_non_null(s);
	at[0] = frame(s, 0x04, "uu", 1ull, 0ull);                     /* 0 good */
	at[1] = raw(s, "\x05\x11\x22\x00", 4);                        /* 1 bad COBS */
	at[2] = frame(s, 0x0C, "uu", 2ull, 0ull);                     /* 2 unknown id */
	at[3] = frame(s, 0x05, "uub", 3ull, 0ull, 7);                 /* 3 trailing byte */
	at[4] = frame(s, 0x04, "b", 0x80);                            /* 4 ts cut */
	at[5] = frame(s, 0x07, "uur", 5ull, 1ull, "A\xFF", (size_t)2); /* 5 bad UTF-8 */
	at[6] = raw(s, "\x00\x00\x00", 3);                            /* 6-8 empty */
	at[9] = frame(s, 0x04, "ur", 6ull, "\xFF\xFF\xFF\xFF\x1F", (size_t)5); /* 9 overflow */
	at[10] = frame(s, 0x05, "uu", 7ull, 0ull);                    /* 10 good */
	memset(big, 0x01, sizeof(big));
	at[11] = raw(s, big, sizeof(big));                            /* 11 too long */
	raw(s, "", 1);
	at[12] = frame(s, 0x5A, "uu", 8ull, 9ull);                    /* 12 FreeRTOS id */
	at[13] = frame(s, 0x0B, "uui", 9ull, 0ull, 42ll);             /* 13 good */
	at[14] = raw(s, "\x02\x0B", 2);                               /* 14 cut by the end */
	return s;
}

static void assert_diag(const struct log *l, size_t i, enum sonde_diag_code code,
			uint64_t offset, uint64_t frame_no, uint64_t count, const char *msg_part)
{
	const struct dg *g;

	if (i >= l->ndg)
		fail_msg("no diagnostic %zu (%zu)", i, l->ndg);
	g = &l->dg[i];
	if (g->d.code != code || g->d.offset != offset || g->d.frame != frame_no ||
	    g->d.count != count || !strstr(g->msg, msg_part))
		fail_msg("diagnostic %zu: code %d @%llu frame %llu count %llu '%s'; expected "
			 "code %d @%llu frame %llu count %llu '...%s...'", i, g->d.code,
			 (unsigned long long)g->d.offset, (unsigned long long)g->d.frame,
			 (unsigned long long)g->d.count, g->msg, code, (unsigned long long)offset,
			 (unsigned long long)frame_no, (unsigned long long)count, msg_part);
}

static void test_errors_reported_with_offset_and_frame(void **state)
{
	size_t at[16];
	struct stream *s = broken_stream(at);
	struct log *l = decode(s->b, s->n, bm, 0);
	const struct ev *e;

	(void)state;
	assert_diag(l, 0, SONDE_D_MALFORMED, at[1] + 0, 1, 1, "bad COBS");
	assert_diag(l, 1, SONDE_D_UNKNOWN_RECORD, at[2] + 1, 2, 1, "0x0c");
	/* payload 05 03 00 07: the stray byte is payload[3], encoded at +4 */
	assert_diag(l, 2, SONDE_D_MALFORMED, at[3] + 4, 3, 1, "1 byte left after the last field");
	assert_diag(l, 3, SONDE_D_TOO_SHORT, at[4] + 2, 4, 1, "'ts'");
	assert_diag(l, 4, SONDE_D_MALFORMED, at[5] + 5, 5, 1, "UTF-8");
	assert_diag(l, 5, SONDE_D_TOO_SHORT, at[6], 6, 3, "3 empty frames");
	assert_diag(l, 6, SONDE_D_MALFORMED, at[9] + 7, 9, 1, "too long");
	assert_diag(l, 7, SONDE_D_TOO_LONG, at[11], 11, 9000, "longer than");
	assert_diag(l, 8, SONDE_D_UNKNOWN_RECORD, at[12] + 1, 12, 1, "tband.mode=freertos");
	assert_diag(l, 9, SONDE_D_TRUNCATED, at[14], 14, 2, "without a 0x00");
	assert_int_equal(l->ndg, 10);
	assert_int_equal(l->session.frames, 15);

	/* the good frames, and those with soft errors (flagged) */
	assert_int_equal(l->nev, 5);
	assert_kind(l, 0, SONDE_EV_ISR_ENTER, "isr_enter");
	assert_int_equal(ev_at(l, 0)->e.frame, 0);
	e = ev_at(l, 1);
	assert_kind(l, 1, SONDE_EV_ISR_EXIT, "isr_exit");
	assert_int_equal(e->e.flags, SONDE_EVF_MALFORMED);
	assert_int_equal(e->e.frame, 3);
	assert_int_equal(e->e.offset, at[3]);
	assert_int_equal(e->e.ts, 3);
	e = ev_at(l, 2);
	assert_kind(l, 2, SONDE_EV_MARK, "evtmarker");
	assert_int_equal(e->e.flags, SONDE_EVF_MALFORMED);
	assert_string_equal(e->text, "A\xEF\xBF\xBD");
	assert_string_equal(e->native, "{\"Base\":{\"ts\":5,\"kind\":{\"Evtmarker\":"
			    "{\"evtmarker_id\":1,\"msg\":\"A\xEF\xBF\xBD\"}}}}");
	e = ev_at(l, 3);
	assert_kind(l, 3, SONDE_EV_ISR_EXIT, "isr_exit");
	assert_int_equal(e->e.frame, 10);
	assert_int_equal(e->e.offset, at[10]);
	assert_int_equal(e->e.flags, 0);
	e = ev_at(l, 4);
	assert_kind(l, 4, SONDE_EV_COUNTER, "valmarker");
	assert_int_equal(e->e.frame, 13);
	assert_int_equal(e->e.value, 42);
	log_free(l);
	free(s);
}

/* Chunk sizes do not matter: 1 byte at a time, random chunks and the whole
 * input give the same events and diagnostics, byte for byte. */
static void test_chunking_gives_same_result(void **state)
{
	size_t at[16];
	struct stream *s = broken_stream(at);
	struct log *whole, *one, *rnd;

	(void)state;
	frame(s, 0x5F, "us", 1ull, "t1");
	frame(s, 0x54, "uu", 10ull, 1ull);
	frame(s, 0x59, "uu", 11ull, 2ull);
	frame(s, 0x54, "uu", 12ull, 2ull);
	whole = decode(s->b, s->n, NULL, s->n);
	one = decode(s->b, s->n, NULL, 1);
	rng_state = 7;
	rnd = decode(s->b, s->n, NULL, 0);
	assert_true(whole->nev > 8 && whole->ndg > 8);
	assert_int_equal(one->text_len, whole->text_len);
	assert_memory_equal(one->text, whole->text, whole->text_len);
	assert_int_equal(rnd->text_len, whole->text_len);
	assert_memory_equal(rnd->text, whole->text, whole->text_len);
	log_free(whole);
	log_free(one);
	log_free(rnd);
	free(s);
}

/* A stream that names more objects than the table holds (3072): reported
 * once, the names already known still resolve, decoding goes on. */
static void test_name_table_is_bounded(void **state)
{
	struct stream *s = calloc(1, sizeof(*s));
	struct log *l;
	char name[16];

	(void)state;
	for (unsigned i = 0; i < 3500; i++) {
		snprintf(name, sizeof(name), "isr%u", i);
		frame(s, 0x03, "us", (unsigned long long)i, name);
	}
	frame(s, 0x04, "uu", 1ull, 0ull);
	frame(s, 0x04, "uu", 2ull, 3499ull);
	l = decode(s->b, s->n, NULL, 0);
	assert_int_equal(l->nev, 3502);
	assert_int_equal(l->ndg, 1);
	assert_diag(l, 0, SONDE_D_OTHER, l->dg[0].d.offset, 3072, 1, "name table full");
	assert_string_equal(ev_at(l, 3500)->obj_name, "isr0");
	assert_false(ev_at(l, 3501)->has_obj_name);
	log_free(l);
	free(s);
}

/* Garbage never crashes or hangs, and every report stays inside the input:
 * random bytes (with few or many zeros), and real traces with random bytes
 * changed or cut off.  ASan/UBSan builds run this too. */
static void test_garbage_and_mutations(void **state)
{
	static uint8_t buf[4096];
	char path[512];
	const char *td = getenv("SONDE_TESTDATA");
	FILE *f;
	uint8_t *orig, *mut;
	size_t n;

	(void)state;
	rng_state = 99;
	for (int round = 0; round < 300; round++) {
		size_t len = rng() % sizeof(buf);
		unsigned zero_every = 1 + rng() % 40;
		struct log *l;

		for (size_t i = 0; i < len; i++)
			buf[i] = rng() % zero_every == 0 ? 0 : (uint8_t)rng();
		l = decode(buf, len, round & 1 ? bm : NULL, 0);
		log_free(l);
	}

	snprintf(path, sizeof(path), "%s/tband/repo_examples_POSIX_FreeRTOS_log.bin",
		 td && *td ? td : SONDE_TESTDATA);
	f = fopen(path, "rb");
	assert_non_null(f);
	orig = malloc(40000);
	mut = malloc(40000);
	n = fread(orig, 1, 40000, f);
	fclose(f);
	assert_true(n > 30000);
	for (int round = 0; round < 60; round++) {
		size_t len = round % 3 == 0 ? rng() % n : n;
		int flips = 1 + rng() % 8;
		struct log *l;

		memcpy(mut, orig, n);
		for (int k = 0; k < flips; k++)
			mut[rng() % n] = (uint8_t)rng();
		l = decode(mut, len, NULL, 0);
		/* most of the trace still decodes */
		if (len == n)
			assert_true(l->nev > 3000);
		log_free(l);
	}
	free(orig);
	free(mut);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_baremetal_mapping),
		cmocka_unit_test(test_timestamp_resolution),
		cmocka_unit_test(test_drops_and_frames_in_session),
		cmocka_unit_test(test_freertos_tasks_and_queues),
		cmocka_unit_test(test_b6_task_marker_names_registered_under_task_0),
		cmocka_unit_test(test_task_marker_names_follow_renames),
		cmocka_unit_test(test_cores),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_errors_reported_with_offset_and_frame),
		cmocka_unit_test(test_chunking_gives_same_result),
		cmocka_unit_test(test_name_table_is_bounded),
		cmocka_unit_test(test_garbage_and_mutations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
