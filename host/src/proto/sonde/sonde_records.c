/*
 * sonde_records.c -- one good Sonde frame -> one event (docs/protocol.md §4).
 *
 * Runs on the processing side of the decoder: frames arrive here in stream
 * order, either at once or released from the hold queue with their time
 * already decided (f->forced).  Everything the records build up --
 * dictionaries, the ISR and call stacks, the DROPS totals -- changes here,
 * so replaying held frames gives exactly what decoding them on arrival
 * would have given.
 *
 * Both protocol versions go through the same parsers: sonde_ts.h splits a
 * timed record's DATA into its fields and its timestamp field (at the start
 * in version 1, at the end in version 2), and the parsers see only the
 * fields.  The versions differ besides only in DROPS (version 2 adds the
 * reset count) and in how a bad length is worded.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "event_desc.h"
#include "sonde_dec.h"
#include "sonde_proto.h"
#include "util/bytes.h"

/* The fields of the record being processed: fields[0..n), at DATA index
 * off (for the offsets of diagnostics). */
struct fields {
	const uint8_t *p;
	size_t n, off;
};

/* ---- helpers ------------------------------------------------------------ */

/* Name of an object id: its own kind first, then the generic OBJECT kind
 * (all objects share one id space, protocol §4). */
/* The target restarted (TARGET_INFO with its reset flag): forget its
 * dictionaries, timing and nesting; its totals and frame numbers count
 * from sonde_init() again. */
static void target_reset(struct sdec *d)
{
	sdict_clear(&d->dict);
	d->ses->names_gen = d->dict.gen;
	d->dict_full_reported = 0;
	sstk_reset(&d->stk);
	srtos_reset(&d->rtos);
	d->T = 0;
	d->tflags = 0;
	d->t_known = 0;
	d->ses->lost_unexplained += sloss_target_reset(&d->loss, d->cur ? d->cur->idx : 0);
}

static const char *obj_name(const struct sdec *d, unsigned kind, uint32_t id)
{
	const char *n = sdict_get(&d->dict, kind, id);
	return n ? n : sdict_get(&d->dict, SONDE_DICT_OBJECT, id);
}

/* DICT ids are 32 bits: 8-byte addresses are matched on their low half. */
static const char *func_name(const struct sdec *d, uint64_t fn)
{
	return sdict_get(&d->dict, SONDE_DICT_FUNCTION, (uint32_t)fn);
}

static void resolve_args(struct sdec *d, struct sonde_arg *a, size_t n)
{
	static const unsigned obj_kinds[] = {
		SONDE_DICT_OBJECT, SONDE_DICT_TASK, SONDE_DICT_ISR, SONDE_DICT_MARKER, SONDE_DICT_COUNTER,
	};
	for (size_t i = 0; i < n; i++) {
		switch (a[i].type) {
		case SONDE_A_OBJ:
			for (size_t k = 0; k < sizeof(obj_kinds) / sizeof(obj_kinds[0]) && !a[i].resolved; k++)
				a[i].resolved = sdict_get(&d->dict, obj_kinds[k], (uint32_t)a[i].v.u);
			break;
		case SONDE_A_FUNC:
			a[i].resolved = func_name(d, a[i].v.u);
			break;
		case SONDE_A_ENUM:
			a[i].resolved = sdict_get(&d->dict, SONDE_DICT_ENUM, a[i].group << 8 | (uint32_t)a[i].v.u);
			break;
		default:
			break;
		}
	}
}

/* Decode the typed arguments from field index first to the end of the
 * fields into d->args; report a malformed list at the exact byte, as a
 * record named name.  Returns the number of arguments, *bad 1 when the
 * list was malformed. */
static size_t check_args(struct sdec *d, const struct fields *fl, size_t first, const char *name, int *bad)
{
	size_t at;
	char why[128];
	size_t n = sargs_decode(fl->p + first, fl->n - first, d->addr_size, d->args, SARGS_MAX, &at, why,
				sizeof(why));
	*bad = at != SIZE_MAX;
	if (*bad)
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + fl->off + first + at, 1, "%s: %s", name, why);
	return n;
}

/* The same into the event, the arguments' names resolved. */
static size_t take_args(struct sdec *d, const struct fields *fl, size_t first, struct sonde_event *ev)
{
	int bad;
	size_t n = check_args(d, fl, first, ev->rec_name, &bad);
	resolve_args(d, d->args, n);
	if (bad)
		ev->flags |= SONDE_EVF_MALFORMED;
	ev->args = d->args;
	ev->nargs = n;
	return n;
}

static void add_str_arg(struct sdec *d, struct sonde_event *ev, const char *name, const char *s)
{
	struct sonde_arg *a = srec_add_arg(d, ev, name, SONDE_A_STR, 0);
	a->v.mem.p = (const uint8_t *)s;
	a->v.mem.n = strlen(s);
}

/* ---- records with more than a field or two ------------------------------ */

static const char *mode_name(unsigned m)
{
	static const char *const names[] = { "overwrite", "drop-newest", "snapshot", "post-mortem" };
	return m < 4 ? names[m] : "unknown";
}

static void target_info(struct sdec *d, const struct sdec_frame *f)
{
	const uint8_t *p = f->b + 2;
	struct sonde_event ev;
	uint8_t flags = p[1], asz = p[2];
	if (asz < 1 || asz > 8) {
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + 2, 1,
			     "TARGET_INFO: address size %u not supported (1..8); keeping %u", asz, d->addr_size);
		asz = (uint8_t)d->addr_size;
	}
	if (p[0] == SONDE_PROTO_VERSION_1 && p[5] != SONDE_TS_BYTES_V1)
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + 5, 1,
			     "TARGET_INFO: compact timestamp of %u bytes not supported (2); times will be wrong",
			     p[5]);
	else if (p[0] != SONDE_PROTO_VERSION_1 && p[5] != SONDE_INFO_TS_VARIABLE)
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + 5, 1,
			     "TARGET_INFO: timestamp size %u, expected 0 (variable) in version %u; ignored (the "
			     "timestamp fields give their own widths)",
			     p[5], p[0]);
	d->rejected = 0;
	sdec_set_version(d, p[0], 1);
	if (flags & SONDE_INFO_F_RESET)
		target_reset(d);
	d->addr_size = asz;
	srec_set_lengths(d);
	if (p[4] != d->core) { /* the tally's rules are kept per core */
		d->core_t_hi[d->core] = d->t_hi;
		d->core_timed_out[d->core] = (uint8_t)d->timed_out;
		d->t_hi = d->core_t_hi[p[4]];
		d->timed_out = d->core_timed_out[p[4]];
	}
	d->core = p[4];
	struct sonde_session *s = d->ses;
	s->big_endian = (flags & SONDE_INFO_F_BIG_ENDIAN) != 0;
	s->addr_size = asz;
	s->buffer_mode = p[3];
	s->ts_freq = bytes_le32(p + 6);
	s->buffer_size = bytes_le32(p + 10);
	s->build_id = bytes_le32(p + 14);

	srec_ev_init(d, &ev, f, SONDE_EV_INFO, "TARGET_INFO");
	srec_add_arg(d, &ev, "version", SONDE_A_U8, p[0]);
	srec_add_arg(d, &ev, "big_endian", SONDE_A_BOOL, s->big_endian);
	srec_add_arg(d, &ev, "reset", SONDE_A_BOOL, (flags & SONDE_INFO_F_RESET) != 0);
	srec_add_arg(d, &ev, "addr_size", SONDE_A_U8, p[2]);
	add_str_arg(d, &ev, "mode", mode_name(p[3]));
	srec_add_arg(d, &ev, "core", SONDE_A_U8, p[4]);
	srec_add_arg(d, &ev, "ts_size", SONDE_A_U8, p[5]);
	srec_add_arg(d, &ev, "ts_freq", SONDE_A_U32, s->ts_freq);
	srec_add_arg(d, &ev, "buffer_size", SONDE_A_U32, s->buffer_size);
	srec_add_arg(d, &ev, "build_id", SONDE_A_HEX, s->build_id);
	srec_emit(d, &ev);
}

/* DROPS: the target's totals, and the frames lost in sequence gaps split
 * between the target (overwritten) and the link by the rule of protocol
 * §4, kept in sonde_loss.c.  Exact: nothing is guessed; frames the report
 * cannot settle yet wait for the next one.  Version 3 carries the report's
 * frame number and "oldest" (and the records not made while stopped, a
 * count apart from losses); versions 1 and 2 only the totals (a length of
 * 9 is the version-2 form, also where version 3 is only assumed). */
static void drops(struct sdec *d, const struct sdec_frame *f, const struct fields *fl)
{
	const uint8_t *q = fl->p;
	struct sonde_event ev;
	if (d->version >= 3 && fl->n != SONDE_DROPS_BYTES && fl->n != SONDE_DROPS_BYTES_V2) {
		sdec_diag_at(d, SONDE_D_MALFORMED, 2, 1, "DROPS: %zu bytes, expected %u (or %u, version 2)", fl->n,
			     SONDE_DROPS_BYTES, SONDE_DROPS_BYTES_V2);
		return;
	}
	struct sloss_totals t = { .overwritten = bytes_le32(q), .refused = bytes_le32(q + 4) };
	if (d->version != 1)
		t.resets = q[8];
	if (fl->n >= SONDE_DROPS_BYTES) {
		t.stopped = bytes_le32(q + 9);
		t.frame = bytes_le32(q + 13);
		t.oldest = bytes_le32(q + 17);
		t.has_frames = 1;
	}
	srec_ev_init(d, &ev, f, SONDE_EV_DROPS, "DROPS");
	ev.value = t.overwritten;
	ev.obj2 = t.refused;
	struct sonde_session *s = d->ses;
	struct sloss_result r;
	sloss_report(&d->loss, t.has_frames ? 3 : d->version, f->idx, &t, &r);
	if (r.baseline) {
		/* joined mid-way (or rejoined after a break of the link the frame
		 * numbers do not bridge): these totals are the baseline; the gaps
		 * before them cannot be split */
		s->lost_unexplained += r.unexplained;
		srec_add_arg(d, &ev, "unexplained", SONDE_A_U64, r.unexplained);
	} else {
		s->drops_overwritten += r.overwritten;
		s->drops_refused += r.refused;
		s->stopped_records += r.stopped;
		s->lost_link += r.link;
		srec_add_arg(d, &ev, "overwritten", SONDE_A_U32, r.overwritten);
		srec_add_arg(d, &ev, "refused", SONDE_A_U32, r.refused);
		if (r.stopped)
			srec_add_arg(d, &ev, "stopped", SONDE_A_U32, r.stopped);
		srec_add_arg(d, &ev, "link_lost", SONDE_A_U64, r.link);
		if (r.pending)
			srec_add_arg(d, &ev, "pending", SONDE_A_U64, r.pending);
		if (r.unseen)
			srec_add_arg(d, &ev, "unseen", SONDE_A_U64, r.unseen);
		if (r.before)
			srec_add_arg(d, &ev, "before_capture", SONDE_A_U64, r.before);
		if (r.counters_reset)
			srec_add_arg(d, &ev, "counters_reset", SONDE_A_BOOL, 1);
	}
	srec_emit(d, &ev);
}

/* TIME_SYNC: the time, and since_prev (protocol §4) as an argument, or
 * "unknown". */
static void time_sync(struct sdec *d, const struct sdec_frame *f)
{
	const uint8_t *p = f->b + 2;
	uint32_t since = bytes_le32(p + 8);
	struct sonde_event ev;
	d->T = bytes_le(p, 8);
	d->tflags = SONDE_TS_VALID;
	d->t_known = 1;
	srec_ev_init(d, &ev, f, SONDE_EV_TIME_SYNC, "TIME_SYNC");
	if (since == SONDE_SYNC_SINCE_UNKNOWN)
		add_str_arg(d, &ev, "since_prev", "unknown");
	else
		srec_add_arg(d, &ev, "since_prev", SONDE_A_U32, since);
	srec_emit(d, &ev);
}

static void dict(struct sdec *d, const struct sdec_frame *f)
{
	const uint8_t *p = f->b + 2;
	size_t dlen = f->len - 3;
	unsigned kind = p[0];
	uint32_t id = bytes_le32(p + 1);
	const char *kname = kind ? sdict_kind_name(kind) : NULL;
	if (!kname) {
		sdec_diag_at(d, SONDE_D_MALFORMED, 2, 1, "DICT: unknown kind %u", kind);
		return;
	}
	const uint8_t *nul = memchr(p + 5, 0, dlen - 5);
	if (!nul) {
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + dlen, 1, "DICT: name not NUL-terminated");
		return;
	}
	size_t nlen = (size_t)(nul - (p + 5));
	if (5 + nlen + 1 != dlen) {
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + 5 + nlen + 1, 1, "DICT: %zu bytes after the name",
			     dlen - (5 + nlen + 1));
		return;
	}
	int full = sdict_set(&d->dict, kind, id, (const char *)p + 5, nlen) != 0;
	d->ses->names_gen = d->dict.gen;
	if (full && !d->dict_full_reported) {
		d->dict_full_reported = 1;
		sdec_diag_at(d, SONDE_D_OTHER, 0, 1,
			     "dictionary full (%u entries, %u MiB of names): later entries are ignored",
			     SDICT_MAX_ENTRIES, SDICT_MAX_BYTES >> 20);
	}
	struct sonde_event ev;
	srec_ev_init(d, &ev, f, SONDE_EV_DICT, "DICT");
	ev.obj = id;
	ev.obj2 = kind;
	ev.obj2_name = kname;
	ev.text = (const char *)p + 5; /* NUL-terminated on the wire */
	srec_emit(d, &ev);
}

static void log_record(struct sdec *d, const struct fields *fl, struct sonde_event *ev)
{
	const uint8_t *q = fl->p;
	uint16_t fmt_id = bytes_le16(q + 1);
	ev->level = q[0];
	ev->obj = fmt_id;
	size_t n = take_args(d, fl, 3, ev);
	if ((d->out.needs.omit & SONDE_OMIT_TEXT))
		return; /* nobody reads the message (sonde stats) */
	const char *fmt = sdict_get(&d->dict, SONDE_DICT_FORMAT, fmt_id);
	if (fmt) {
		slog_format(d->text, sizeof(d->text), fmt, strlen(fmt), d->args, n);
	} else {
		/* format not (yet) known: show its number and the arguments */
		char unknown[32];
		size_t k = 0;
		memcpy(unknown, "<format ", 8);
		k = 8;
		char digits[8];
		size_t nd = 0;
		uint16_t v = fmt_id;
		do {
			digits[nd++] = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		while (nd)
			unknown[k++] = digits[--nd];
		unknown[k++] = '>';
		slog_format(d->text, sizeof(d->text), unknown, k, d->args, n);
	}
	ev->text = d->text;
}

static void counter(struct sdec *d, const struct fields *fl, struct sonde_event *ev)
{
	const uint8_t *q = fl->p;
	size_t n = fl->n - 1;
	uint64_t v = bytes_le(q + 1, n);
	unsigned shift = (unsigned)(64 - 8 * n);
	ev->obj = q[0];
	ev->obj_name = obj_name(d, SONDE_DICT_COUNTER, q[0]);
	ev->value = (int64_t)(v << shift) >> shift;
}

static const char *cmd_status_name(unsigned st)
{
	static const char *const names[] = { "OK", "BAD_CHECKSUM", "BAD_LENGTH", "UNKNOWN_CMD",
					     "OUT_OF_REGION", "NOT_SUPPORTED", "TOO_LONG", "BAD_STATE" };
	if (st < sizeof(names) / sizeof(names[0]))
		return names[st];
	return st >= SONDE_ST_APP_FIRST ? "APP" : "?";
}

/* CMD_STATUS, PEEK_DATA, TARGET_STATS (protocol §9.2): records named after
 * the reply, their fields as arguments. */
static void reply(struct sdec *d, const struct sdec_frame *f, const struct fields *fl, struct sonde_event *ev)
{
	const uint8_t *q = fl->p;
	size_t n = fl->n, a = d->addr_size;
	switch (f->b[1]) {
	case SONDE_REC_CMD_STATUS:
		srec_add_arg(d, ev, "seq", SONDE_A_U8, q[0]);
		srec_add_arg(d, ev, "cmd", SONDE_A_U8, q[1]);
		srec_add_arg(d, ev, "status", SONDE_A_U8, q[2]);
		ev->text = cmd_status_name(q[2]);
		break;
	case SONDE_REC_PEEK_DATA: {
		srec_add_arg(d, ev, "addr", SONDE_A_HEX, bytes_le(q, a));
		srec_add_arg(d, ev, "n", SONDE_A_U8, q[a]);
		struct sonde_arg *m = srec_add_arg(d, ev, "data", SONDE_A_MEM, 0);
		m->v.mem.p = q + 1 + a;
		m->v.mem.n = n - 1 - a;
		if (q[a] != n - 1 - a) {
			ev->flags |= SONDE_EVF_MALFORMED;
			sdec_diag_at(d, SONDE_D_MALFORMED, 2 + fl->off + a, 1, "PEEK_DATA: n is %u, %zu bytes follow",
				     q[a], n - 1 - a);
		}
		break;
	}
	default:
		srec_add_arg(d, ev, "records", SONDE_A_U32, bytes_le32(q));
		srec_add_arg(d, ev, "overwritten", SONDE_A_U32, bytes_le32(q + 4));
		srec_add_arg(d, ev, "refused", SONDE_A_U32, bytes_le32(q + 8));
		srec_add_arg(d, ev, "bytes", SONDE_A_U32, bytes_le32(q + 12));
		if (n >= SONDE_STATS_BYTES)
			srec_add_arg(d, ev, "stopped", SONDE_A_U32, bytes_le32(q + 16));
		break;
	}
}

static const char *reason_name(unsigned r)
{
	static const char *const names[] = { "preempted", "blocked", "suspended", "deleted" };
	return r < 4 ? names[r] : NULL;
}

/* The name of user record USER_FIRST + k: from its dictionary entry
 * without the field list (sonde_fields.h), or USER_0xNN.  Worked out again only
 * when the dictionary changed (its generation). */
static const char *user_name(struct sdec *d, unsigned k)
{
	if (d->user_gen[k] != d->dict.gen) {
		const char *name = sdict_get(&d->dict, SONDE_DICT_RECORD, SONDE_REC_USER_FIRST + k);
		d->user_rec[k] = name ? sfields_name(&d->fields[k], name) : d->user_names[k];
		d->user_named[k] = name != NULL;
		d->user_gen[k] = d->dict.gen;
	}
	return d->user_rec[k];
}

/* ---- tallied records -------------------------------------------------------- */

void srec_tally_simple(struct sdec *d, uint8_t id, const uint8_t *q)
{
	uint8_t isr;
	struct sstk_call call;
	int known;
	switch (id) {
	case SONDE_REC_ISR_ENTER:
		sstk_isr_enter(&d->stk, q[0]);
		break;
	case SONDE_REC_ISR_EXIT:
		sstk_isr_exit(&d->stk, &isr, &known);
		break;
	case SONDE_REC_TASK_IN:
		sstk_task_in(&d->stk, q[0]);
		break;
	case SONDE_REC_TASK_OUT:
		sstk_task_out(&d->stk, q[0], q[1] == SONDE_TASK_DELETED);
		break;
	case SONDE_REC_IDLE:
		sstk_idle(&d->stk);
		break;
	case SONDE_REC_FUNC_ENTER:
		sstk_func_enter(&d->stk, bytes_le16(q), 0);
		break;
	case SONDE_REC_FUNC_ENTER_A:
		sstk_func_enter(&d->stk, bytes_le(q, d->addr_size), 1);
		break;
	case SONDE_REC_FUNC_EXIT:
		sstk_func_exit(&d->stk, &call, &known);
		break;
	default:
		break;
	}
	srec_tally(d, id);
}

/* The event kind of each record with a fixed layout, up to LOG (0: none). */
static const enum sonde_ev_kind rec_kinds[SONDE_REC_LOG + 1] = {
	[SONDE_REC_ISR_ENTER] = SONDE_EV_ISR_ENTER,   [SONDE_REC_ISR_EXIT] = SONDE_EV_ISR_EXIT,
	[SONDE_REC_TASK_CREATE] = SONDE_EV_TASK_CREATE, [SONDE_REC_TASK_IN] = SONDE_EV_TASK_IN,
	[SONDE_REC_TASK_OUT] = SONDE_EV_TASK_OUT,     [SONDE_REC_TASK_READY] = SONDE_EV_TASK_READY,
	[SONDE_REC_IDLE] = SONDE_EV_IDLE,             [SONDE_REC_MARK] = SONDE_EV_MARK,
	[SONDE_REC_MARK_BEGIN] = SONDE_EV_MARK_BEGIN, [SONDE_REC_MARK_END] = SONDE_EV_MARK_END,
	[SONDE_REC_COUNTER] = SONDE_EV_COUNTER,       [SONDE_REC_FUNC_ENTER] = SONDE_EV_FUNC_ENTER,
	[SONDE_REC_FUNC_ENTER_A] = SONDE_EV_FUNC_ENTER, [SONDE_REC_FUNC_EXIT] = SONDE_EV_FUNC_EXIT,
	[SONDE_REC_LOG] = SONDE_EV_LOG,
};

/* Which records may be tallied, and how (SREC_TALLY_*), for the kinds of
 * events out->needs.tally_kinds says nobody needs. */
void srec_set_tally(struct sdec *d)
{
	memset(d->tally_id, 0, sizeof(d->tally_id));
	if (!d->out.needs.tally)
		return;
	if (d->out.needs.tally_kinds & sonde_kind_bit(SONDE_EV_RECORD)) /* names as they come (user_name) */
		memset(d->tally_id + SONDE_REC_USER_FIRST, SREC_TALLY_RECORD, SONDE_REC_USER_LAST - SONDE_REC_USER_FIRST + 1);
	for (unsigned id = SONDE_REC_ISR_ENTER; id <= SONDE_REC_LOG; id++) {
		if (d->out.needs.tally_kinds & sonde_kind_bit(rec_kinds[id]))
			d->tally_id[id] = id == SONDE_REC_LOG ? SREC_TALLY_RECORD : SREC_TALLY_SIMPLE;
		d->out.needs.tally->name[id] = srec_layout((uint8_t)id)->name;
	}
}

/* ---- the dispatcher ------------------------------------------------------ */

/* A record of the wrong length.  Version 1 and untimed records are
 * described by their DATA bytes; a version-2 timed record by the bytes
 * before its timestamp field, which is read from the end and is fine. */
static void bad_length(struct sdec *d, const struct srec_layout *l, uint8_t id, size_t dlen, const struct sts *fl)
{
	const char *name = id >= SONDE_REC_USER_FIRST ? "user record" : l->name;
	size_t lo, hi, n = dlen;
	srec_len_ok(d->version, id, 0, d->addr_size, &lo, &hi);
	if (l->timed && d->version == 1) {
		lo += SONDE_TS_BYTES_V1;
		if (hi != SIZE_MAX)
			hi += SONDE_TS_BYTES_V1;
	}
	char what[64] = "data bytes";
	if (l->timed && d->version != 1) {
		n = fl->n;
		snprintf(what, sizeof(what), "data bytes before its %zu-byte timestamp", fl->width);
	}
	if (hi == SIZE_MAX)
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + n, 1, "%s: %zu %s, expected at least %zu", name, n, what, lo);
	else if (lo == hi)
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + (n < lo ? n : lo), 1, "%s: %zu %s, expected %zu", name, n, what,
			     lo);
	else
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + (n < lo ? n : hi), 1, "%s: %zu %s, expected %zu to %zu", name,
			     n, what, lo, hi);
}

void srec_process(struct sdec *d, const struct sdec_frame *f)
{
	uint8_t id = f->b[1];
	const uint8_t *p = f->b + 2;
	size_t dlen = f->len - 3;
	d->cur = f;
	if (d->rejected && id != SONDE_REC_TARGET_INFO)
		return; /* unsupported version: nothing is decoded */
	const struct srec_layout *l = srec_layout(id);
	if (!l) {
		sdec_diag(d, SONDE_D_UNKNOWN_RECORD, f->offset, f->frame, 1,
			  "unknown record id 0x%02X (%zu data bytes) skipped", id, dlen);
		return;
	}
	if (id == SONDE_REC_TARGET_INFO && dlen >= 1 && (p[0] < SONDE_PROTO_VERSION_1 || p[0] > SONDE_PROTO_VERSION)) {
		sdec_diag_at(d, SONDE_D_VERSION, 2, 1,
			     "TARGET_INFO: protocol version %u is not supported (this decoder knows versions %u to "
			     "%u); nothing is decoded until a TARGET_INFO of one of those",
			     p[0], SONDE_PROTO_VERSION_1, SONDE_PROTO_VERSION);
		d->rejected = 1;
		d->t_known = 0;
		return;
	}
	struct sts ts;
	enum sts_status st = STS_OK;
	if (f->split)
		ts = *f->split;
	else
		st = srec_fields(d->version, l, p, dlen, &ts);
	if (st != STS_OK && d->version != 1) {
		/* version 2: the timestamp field is unreadable, so where the
		 * record's own fields end is not known either */
		char why[128];
		size_t at = sts_why(st, p, dlen, why, sizeof(why));
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + at, 1, "%s: %s",
			     id >= SONDE_REC_USER_FIRST ? d->user_names[id - SONDE_REC_USER_FIRST] : l->name, why);
		return;
	}
	int len_ok = st == STS_OK && ts.n >= d->len_lo[id] && ts.n <= d->len_hi[id];
	/* the same rule as the arrival side's (srec_time_field) */
	if (l->timed && st == STS_OK && (len_ok || d->version != 1))
		srec_take_time(d, f, ts.v);
	if (!len_ok) {
		bad_length(d, l, id, dlen, &ts);
		return;
	}
	srec_record(d, f, id, p + ts.off, ts.n, ts.off);
}

void srec_record(struct sdec *d, const struct sdec_frame *f, uint8_t id, const uint8_t *q, size_t n, size_t off)
{
	const struct fields fl = { q, n, off };
	const struct srec_layout *l = srec_layout(id);
	struct sonde_event ev;
	switch (id) {
	case SONDE_REC_TARGET_INFO:
		target_info(d, f);
		return;
	case SONDE_REC_TIME_SYNC:
		time_sync(d, f);
		return;
	case SONDE_REC_DROPS:
		drops(d, f, &fl);
		return;
	case SONDE_REC_DICT:
		dict(d, f);
		return;
	case SONDE_REC_EMPTY:
		srec_ev_init(d, &ev, f, SONDE_EV_INFO, l->name);
		srec_emit(d, &ev);
		return;
	default:
		break;
	}

	/* the other timed records (the time is taken above) */
	if ((id >= SONDE_REC_TASK_SWITCH && id <= SONDE_REC_HEAP_FREE) ||
	    (id >= SONDE_REC_PEND_CALL && id <= SONDE_REC_API)) {
		srtos_record(d, f, id, fl.p, fl.n, fl.off);
		return;
	}
	if (id >= SONDE_REC_CMD_STATUS && id <= SONDE_REC_TARGET_STATS) {
		srec_ev_init(d, &ev, f, SONDE_EV_RECORD, l->name);
		reply(d, f, &fl, &ev);
		srec_emit(d, &ev);
		return;
	}
	if (id >= SONDE_REC_ISR_ENTER && id <= SONDE_REC_LOG && srec_may_tally(d, id)) {
		/* the record is what its event would have said, minus the
		 * event: the stacks change, a malformed LOG is reported */
		int bad;
		if (id != SONDE_REC_LOG) {
			srec_tally_simple(d, id, q);
			return;
		}
		check_args(d, &fl, 3, "LOG", &bad);
		srec_tally(d, id);
		return;
	}
	if (id >= SONDE_REC_USER_FIRST) {
		unsigned k = id - SONDE_REC_USER_FIRST;
		const char *name = user_name(d, k);
		/* tallied with its arguments checked all the same, unless its
		 * name is the dictionary's own (a name too long for the field
		 * list's storage) and may go with the next DICT */
		if (srec_may_tally(d, id) && name != sdict_get(&d->dict, SONDE_DICT_RECORD, id)) {
			int bad;
			check_args(d, &fl, 0, name, &bad);
			d->out.needs.tally->name[id] = name;
			srec_tally(d, id);
			return;
		}
		srec_ev_init(d, &ev, f, SONDE_EV_RECORD, name);
		take_args(d, &fl, 0, &ev);
		if (d->user_named[k])
			sfields_apply(&d->fields[k], d->args, ev.nargs);
		srec_emit(d, &ev);
		return;
	}
	srec_ev_init(d, &ev, f, rec_kinds[id], l->name);
	uint8_t obj = fl.n ? q[0] : 0;
	switch (id) {
	case SONDE_REC_ISR_ENTER:
		ev.obj = obj;
		ev.obj_name = obj_name(d, SONDE_DICT_ISR, obj);
		ev.value = sstk_isr_enter(&d->stk, obj);
		break;
	case SONDE_REC_ISR_EXIT: {
		uint8_t isr = 0;
		int known;
		ev.value = sstk_isr_exit(&d->stk, &isr, &known);
		if (known) {
			ev.obj = isr;
			ev.obj_name = obj_name(d, SONDE_DICT_ISR, isr);
		} else {
			ev.flags |= SONDE_EVF_NO_OBJ;
		}
		break;
	}
	case SONDE_REC_TASK_CREATE:
	case SONDE_REC_TASK_IN:
	case SONDE_REC_TASK_OUT:
	case SONDE_REC_TASK_READY:
		ev.obj = obj;
		ev.obj_name = obj_name(d, SONDE_DICT_TASK, obj);
		if (id == SONDE_REC_TASK_CREATE) {
			ev.obj2 = q[1];
		} else if (id == SONDE_REC_TASK_OUT) {
			ev.obj2 = q[1];
			ev.obj2_name = reason_name(q[1]);
			sstk_task_out(&d->stk, obj, q[1] == SONDE_TASK_DELETED);
		} else if (id == SONDE_REC_TASK_IN) {
			sstk_task_in(&d->stk, obj);
		}
		break;
	case SONDE_REC_IDLE:
		sstk_idle(&d->stk);
		break;
	case SONDE_REC_MARK:
	case SONDE_REC_MARK_BEGIN:
	case SONDE_REC_MARK_END:
		ev.obj = obj;
		ev.obj_name = obj_name(d, SONDE_DICT_MARKER, obj);
		break;
	case SONDE_REC_COUNTER:
		counter(d, &fl, &ev);
		break;
	case SONDE_REC_FUNC_ENTER:
		ev.obj = bytes_le16(q);
		ev.obj_name = func_name(d, ev.obj);
		ev.value = sstk_func_enter(&d->stk, ev.obj, 0);
		break;
	case SONDE_REC_FUNC_ENTER_A:
		ev.obj = bytes_le(q, d->addr_size);
		ev.obj_name = func_name(d, ev.obj);
		ev.flags |= SONDE_EVF_ADDR;
		ev.value = sstk_func_enter(&d->stk, ev.obj, 1);
		break;
	case SONDE_REC_FUNC_EXIT: {
		struct sstk_call c;
		int known;
		ev.value = sstk_func_exit(&d->stk, &c, &known);
		if (known) {
			ev.obj = c.fn;
			ev.obj_name = func_name(d, c.fn);
			if (c.addr)
				ev.flags |= SONDE_EVF_ADDR;
		} else {
			ev.flags |= SONDE_EVF_NO_OBJ;
		}
		break;
	}
	case SONDE_REC_LOG:
		log_record(d, &fl, &ev);
		break;
	default:
		break;
	}
	srec_emit(d, &ev);
}
