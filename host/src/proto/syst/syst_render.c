/*
 * syst_render.c -- turn one SyS-T message into a sonde_event and the
 * reference printer's CSV row (the event's 'native' field).
 *
 * The row follows systprint's columns exactly (shared/notes/syst.md §12.4)
 * except where systprint is wrong (§14); docs/proto-syst.md lists those
 * differences.  Event mapping: strings, printf and catalog messages are LOG
 * events (severity -> level), function enter/exit are FUNC_ENTER/EXIT,
 * BUILD is INFO, CLOCK is TIME_SYNC, RAW/SBD/short values are RECORDs, and a
 * message that cannot be decoded is a RECORD flagged MALFORMED whose only
 * argument is the raw bytes.  rec_id is subtype << 4 | type for every
 * message (so one id means one kind of message), rec_name the printer's
 * Type column, obj the unit, obj_name the origin, obj2 the severity.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sonde_proto.h"
#include "syst_dec.h"
#include "syst_fmt.h"
#include "syst_msg.h"
#include "util/bytes.h"

void syst_diag(struct syst_dec *d, enum sonde_diag_code code, uint64_t off, uint64_t count,
	       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sonde_vdiagf(&d->out, code, off, d->msgno, count, fmt, ap);
	va_end(ap);
}

/* SyS-T severity -> SONDE_LVL_*.  MAX ("no severity, bypass filtering")
 * becomes INFO; USER1/USER2 are more verbose than INFO. */
static uint32_t level_of(unsigned sev)
{
	static const uint32_t lvl[8] = {
		SONDE_LVL_INFO, SONDE_LVL_ERROR, SONDE_LVL_ERROR, SONDE_LVL_WARN,
		SONDE_LVL_INFO, SONDE_LVL_DEBUG, SONDE_LVL_DEBUG, SONDE_LVL_DEBUG
	};
	return lvl[sev & 7u];
}

/* The MIPI catalog hash (h = h * 65599 + c over the last 64 bytes): a
 * stable id for a function name in FUNC_ENTER/EXIT events. */
static uint32_t name_hash(const uint8_t *s, size_t n)
{
	uint32_t h = 0;
	for (size_t i = n > 64 ? n - 64 : 0; i < n; i++)
		h = h * 65599u + s[i];
	return h;
}

void syst_render_init(struct syst_dec *d)
{
	for (unsigned i = 0; i < 8; i++) {
		d->sev_names[i].s = syst_severity_name(i);
		d->sev_names[i].n = strlen(d->sev_names[i].s);
	}
	for (unsigned i = 0; i <= SYST_MISSING_COLLATERAL; i++) {
		d->status_names[i].s = syst_status_name((enum syst_status)i);
		d->status_names[i].n = strlen(d->status_names[i].s);
	}
	d->coll_path_len = d->coll_path ? strlen(d->coll_path) : 0;
	memcpy(d->ctx_text, "0x0000000000000000", sizeof(d->ctx_text));
}

/* One up in the hex digits of the context counter's column: rendering 16
 * digits for every row costs more than the carry, which stops at the
 * last digit 15 times out of 16. */
static void ctx_text_increment(char *digits, size_t n)
{
	while (n--) {
		char c = digits[n];
		if (c == 'F') {
			digits[n] = '0'; /* and carry */
			continue;
		}
		digits[n] = c == '9' ? 'A' : (char)(c + 1);
		return;
	}
}

/* The Type column (and rec_name): one of the names below, with its length
 * (known at compile time: the text is not measured per message). */
#define TYPE(text) { text, sizeof(text) - 1 }

static void set_type(struct syst_dec *d, const struct syst_name *t)
{
	d->type = *t;
}

/* What one message decodes to, before it becomes a row and an event. */
struct render {
	struct syst_msg m;
	const struct syst_client *cl;
	const struct syst_entry *cat;  /* catalog entry: its File/Line is a location */
	enum syst_status status;
	struct sonde_event ev;
};

static void arg_u(struct syst_dec *d, struct render *r, enum sonde_arg_type t, const char *name,
		  uint64_t v)
{
	if (r->ev.nargs >= SYST_MAX_ARGS)
		return;
	struct sonde_arg *a = &d->args[r->ev.nargs++];
	memset(a, 0, sizeof(*a));
	a->type = t;
	a->name = name;
	a->v.u = v;
}

static void arg_mem(struct syst_dec *d, struct render *r, enum sonde_arg_type t, const char *name,
		    const uint8_t *p, size_t n)
{
	if (r->ev.nargs >= SYST_MAX_ARGS)
		return;
	struct sonde_arg *a = &d->args[r->ev.nargs++];
	memset(a, 0, sizeof(*a));
	a->type = t;
	a->name = name;
	a->v.mem.p = p;
	a->v.mem.n = n;
}

/* Format text with the collateral entry e applied to a single value
 * (short messages, RAW protocol names). */
static void fmt_single(struct syst_sb *sb, const struct syst_entry *e, uint64_t value)
{
	struct syst_fmt_in in = { e->text, e->text_len, NULL, 0, 8, 1, value };
	struct sonde_arg scratch[4];
	size_t n;
	syst_fmt(sb, &in, scratch, 4, &n);
}

/* Format a printf or catalog payload into d->tsb, arguments into the event. */
static void fmt_args(struct syst_dec *d, struct render *r, const char *fmt, size_t fmt_len,
		     const uint8_t *args, size_t nargs, unsigned long_size)
{
	struct syst_fmt_in in = { fmt, fmt_len, args, nargs, long_size, 0, 0 };
	size_t n;
	enum syst_fmt_result res = syst_fmt(&d->tsb, &in, d->args, SYST_MAX_ARGS, &n);
	r->ev.nargs = n;
	if (res != SYST_FMT_OK) {
		r->ev.flags |= SONDE_EVF_MALFORMED;
		syst_diag(d, SONDE_D_MALFORMED, r->ev.offset, 1, "message %llu: %s",
			  (unsigned long long)d->msgno,
			  res == SYST_FMT_SHORT_ARGS ? "fewer argument bytes than the format needs"
						     : "string argument without terminating NUL");
	}
}

static void set_log(struct syst_dec *d, struct render *r)
{
	r->ev.kind = SONDE_EV_LOG;
	r->ev.text = d->tsb.buf;
	r->ev.level = level_of(r->m.severity);
}

static void render_short(struct syst_dec *d, struct render *r)
{
	const struct syst_msg *m = &r->m;
	uint64_t v = m->short_bits;
	if (m->type == SYST_T_BUILD) {
		/* id bits 0-19 in header bits 4-23, the rest from bit 30 up */
		uint64_t id = ((v >> 4) & 0xFFFFFu) | (v >> 30) << 20;
		static const struct syst_name t32 = TYPE("BUILD:COMPACT32"), t64 = TYPE("BUILD:COMPACT64");
		int c64 = m->raw_len == 8;
		set_type(d, c64 ? &t64 : &t32);
		syst_sb_hexnum(&d->tsb, id, c64 ? 16 : 8);
		r->ev.kind = SONDE_EV_INFO;
		arg_u(d, r, SONDE_A_HEX, "build_id", id);
		return;
	}
	static const struct syst_name t32 = TYPE("SHORT32"), t64 = TYPE("SHORT64");
	int s64 = m->type == SYST_T_SHORT64;
	uint64_t val = v >> 4;
	set_type(d, s64 ? &t64 : &t32);
	const struct syst_entry *e = r->cl ? syst_client_short(r->cl, s64, val) : NULL;
	arg_u(d, r, s64 ? SONDE_A_U64 : SONDE_A_U32, "value", val);
	if (e) {
		fmt_single(&d->tsb, e, val & ~e->mask);
		set_log(d, r);
	} else {
		syst_sb_hexnum(&d->tsb, val, s64 ? 16 : 8);
		r->ev.kind = SONDE_EV_RECORD;
	}
}

static void render_build(struct syst_dec *d, struct render *r)
{
	const struct syst_msg *m = &r->m;
	uint64_t id = bytes_le64(m->payload);
	const uint8_t *t = m->payload + 8;
	size_t tn = m->plen - 8;
	const uint8_t *nul = memchr(t, 0, tn);
	if (nul)
		tn = (size_t)(nul - t);
	static const struct syst_name type = TYPE("BUILD:LONG");
	set_type(d, &type);
	syst_sb_hexnum(&d->tsb, id, 16);
	if (tn) {
		syst_sb_putc(&d->tsb, ' ');
		syst_sb_put(&d->tsb, (const char *)t, tn);
	}
	r->ev.kind = SONDE_EV_INFO;
	arg_u(d, r, SONDE_A_HEX, "build_id", id);
	if (tn)
		arg_mem(d, r, SONDE_A_STR, "text", t, tn);
}

static void render_string(struct syst_dec *d, struct render *r)
{
	static const struct syst_name names[13] = {
		[1] = TYPE("STRING:GENERIC"), [2] = TYPE("STRING:ENTER"), [3] = TYPE("STRING:EXIT"),
		[5] = TYPE("STRING:INVPARAM"), [7] = TYPE("STRING:ASSERT"),
		[11] = TYPE("STRING:PRINTF32"), [12] = TYPE("STRING:PRINTF64"),
	};
	const struct syst_msg *m = &r->m;
	const uint8_t *nul = memchr(m->payload, 0, m->plen);
	/* no NUL: the library sends such strings; the printer rejects them (P13) */
	size_t tn = nul ? (size_t)(nul - m->payload) : m->plen;
	set_type(d, &names[m->subtype]);
	if (m->subtype == SYST_STR_PRINTF32 || m->subtype == SYST_STR_PRINTF64) {
		size_t skip = nul ? tn + 1 : tn;
		fmt_args(d, r, (const char *)m->payload, tn, m->payload + skip, m->plen - skip,
			 m->subtype == SYST_STR_PRINTF32 ? 4 : 8);
		set_log(d, r);
		return;
	}
	syst_sb_put(&d->tsb, (const char *)m->payload, tn);
	if (m->subtype == SYST_STR_FUNCENTER || m->subtype == SYST_STR_FUNCEXIT) {
		r->ev.kind = m->subtype == SYST_STR_FUNCENTER ? SONDE_EV_FUNC_ENTER : SONDE_EV_FUNC_EXIT;
		r->ev.obj = name_hash(m->payload, tn);
		r->ev.obj_name = d->tsb.buf;
		return;
	}
	set_log(d, r);
}

static void render_catalog(struct syst_dec *d, struct render *r)
{
	static const struct syst_name names[7] = {
		[1] = TYPE("CATALOG:ID32P32"), [2] = TYPE("CATALOG:ID64P32"),
		[5] = TYPE("CATALOG:ID32P64"), [6] = TYPE("CATALOG:ID64P64"),
	};
	const struct syst_msg *m = &r->m;
	int id64 = m->subtype == SYST_CAT_ID64P32 || m->subtype == SYST_CAT_ID64P64;
	unsigned long_size = m->subtype >= SYST_CAT_ID32P64 ? 8 : 4;
	size_t idn = id64 ? 8 : 4;
	uint64_t id = id64 ? bytes_le64(m->payload) : bytes_le32(m->payload);
	set_type(d, &names[m->subtype]);
	r->ev.value = (int64_t)id; /* rec_id stays the message type */
	if (!r->cl) {
		r->status = SYST_MISSING_COLLATERAL;
		r->ev.kind = SONDE_EV_RECORD;
		arg_u(d, r, SONDE_A_HEX, "catalog_id", id);
		arg_mem(d, r, SONDE_A_MEM, "args", m->payload + idn, m->plen - idn);
		syst_sb_hex(&d->tsb, m->raw, m->raw_len, 1);
		return;
	}
	r->cat = syst_client_catalog(r->cl, id64, id);
	if (!r->cat) {
		syst_sb_puts(&d->tsb, "Undefined catalog id ");
		syst_sb_hexnum(&d->tsb, id, id64 ? 16 : 8);
	} else {
		fmt_args(d, r, r->cat->text, r->cat->text_len, m->payload + idn, m->plen - idn,
			 long_size);
	}
	set_log(d, r);
}

static void render_raw(struct syst_dec *d, struct render *r)
{
	const struct syst_msg *m = &r->m;
	const struct syst_entry *e = r->cl ? syst_client_write(r->cl, m->subtype) : NULL;
	struct syst_sb tsb;
	syst_sb_init(&tsb, d->raw_type, sizeof(d->raw_type));
	syst_sb_puts(&tsb, "RAW:");
	if (e)
		fmt_single(&tsb, e, m->subtype);
	else
		syst_sb_uint(&tsb, m->subtype);
	d->type.s = d->raw_type;
	d->type.n = tsb.len;
	syst_sb_hex(&d->tsb, m->payload, m->plen, 0);
	r->ev.kind = SONDE_EV_RECORD;
	arg_mem(d, r, SONDE_A_MEM, "data", m->payload, m->plen);
}

static void render_clock(struct syst_dec *d, struct render *r)
{
	const struct syst_msg *m = &r->m;
	uint64_t clock = bytes_le64(m->payload), freq = bytes_le64(m->payload + 8);
	static const struct syst_name t = TYPE("CLOCK:SYNC");
	set_type(d, &t);
	syst_sb_puts(&d->tsb, "clock ");
	syst_sb_hexnum(&d->tsb, clock, 16);
	syst_sb_puts(&d->tsb, " freq ");
	syst_sb_uint(&d->tsb, freq);
	syst_sb_puts(&d->tsb, " Hz");
	r->ev.kind = SONDE_EV_TIME_SYNC;
	r->ev.ts = clock;
	r->ev.ts_flags = SONDE_TS_VALID;
	arg_u(d, r, SONDE_A_U64, "clock", clock);
	arg_u(d, r, SONDE_A_U64, "freq", freq);
	if (d->out.session && freq)
		d->out.session->ts_freq = freq;
}

static void render_sbd(struct syst_dec *d, struct render *r)
{
	static const unsigned addr_bytes[4] = { 0, 2, 4, 8 };
	const struct syst_msg *m = &r->m;
	unsigned st = m->subtype, idn = (st & SYST_SBD_ID64) ? 8 : 4;
	unsigned an = addr_bytes[(st >> SYST_SBD_ADDR_SHIFT) & 3u];
	const uint8_t *p = m->payload, *end = m->payload + m->plen;
	uint64_t id = idn == 8 ? bytes_le64(p) : bytes_le32(p);
	p += idn;
	static const struct syst_name t32 = TYPE("SBD:ID32"), t64 = TYPE("SBD:ID64");
	set_type(d, idn == 8 ? &t64 : &t32);
	syst_sb_puts(&d->tsb, "sbd id=");
	syst_sb_hexnum(&d->tsb, id, idn == 8 ? 16 : 8);
	r->ev.kind = SONDE_EV_RECORD;
	arg_u(d, r, SONDE_A_HEX, "id", id);
	if (an) {
		uint64_t addr = 0;
		for (unsigned i = 0; i < an; i++)
			addr |= (uint64_t)p[i] << (8 * i);
		p += an;
		syst_sb_puts(&d->tsb, " addr=");
		syst_sb_hexnum(&d->tsb, addr, an * 2);
		arg_u(d, r, SONDE_A_HEX, "addr", addr);
	}
	if (st & SYST_SBD_NAME) {
		const uint8_t *nul = memchr(p, 0, (size_t)(end - p)); /* checked by the parser */
		syst_sb_puts(&d->tsb, " name=");
		syst_sb_put(&d->tsb, (const char *)p, (size_t)(nul - p));
		arg_mem(d, r, SONDE_A_STR, "name", p, (size_t)(nul - p));
		p = nul + 1;
	}
	syst_sb_puts(&d->tsb, " data=");
	syst_sb_hex(&d->tsb, p, (size_t)(end - p), 0);
	arg_mem(d, r, SONDE_A_MEM, "data", p, (size_t)(end - p));
}

/* The client's word size as its message type shows it (catalog and printf
 * subtypes differ between 32- and 64-bit clients), 0 if it does not. */
static unsigned client_word(const struct syst_msg *m)
{
	if (m->type == SYST_T_CATALOG)
		return m->subtype >= SYST_CAT_ID32P64 ? 8 : 4;
	if (m->type == SYST_T_STRING && m->subtype == SYST_STR_PRINTF32)
		return 4;
	if (m->type == SYST_T_STRING && m->subtype == SYST_STR_PRINTF64)
		return 8;
	return 0;
}

/* The characters of s[0..n) before its first '"' or newline.  Eight at a
 * time: a word's bytes equal to c are the zero bytes of word ^ c, and
 * (x - 0x01..01) & ~x & 0x80..80 is nonzero iff x has a zero byte (its
 * lowest zero byte is always flagged, so the bytes are then looked at one
 * by one from that word on). */
static size_t plain_run(const char *s, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w = bytes_word(s + i);
		if (bytes_word_has(w, '"') | bytes_word_has(w, '\n'))
			break;
	}
	while (i < n && s[i] != '"' && s[i] != '\n')
		i++;
	return i;
}

/* Payload column: quoted, '"' doubled, newline as a blank. */
static void put_quoted(struct syst_sb *sb, const char *s, size_t n)
{
	syst_sb_putc(sb, '"');
	for (;;) {
		size_t k = plain_run(s, n);
		syst_sb_put(sb, s, k);
		if (k == n)
			break;
		if (s[k] == '"')
			syst_sb_put(sb, "\"\"", 2);
		else
			syst_sb_putc(sb, ' ');
		s += k + 1;
		n -= k + 1;
	}
	syst_sb_putc(sb, '"');
}

/* Location column: the message's file:line, else the catalog entry's,
 * followed by a code address if the message has one.  64-bit addresses are
 * printed too (the printer drops them: P5). */
static void put_location(struct syst_sb *sb, const struct render *r)
{
	const struct syst_msg *m = &r->m;
	int fileline = m->has_loc && (m->loc_fmt == SYST_LOC_FILE16 || m->loc_fmt == SYST_LOC_FILE32);
	if (fileline || (r->cat && r->cat->has_loc)) {
		uint32_t file = fileline ? m->loc_file : r->cat->file;
		const char *name = r->cl ? syst_client_file(r->cl, file) : NULL;
		if (name)
			syst_sb_put(sb, name, strlen(name));
		else
			syst_sb_uint(sb, file);
		syst_sb_putc(sb, ':');
		syst_sb_uint(sb, fileline ? m->loc_line : r->cat->line);
	}
	if (m->has_loc && !fileline) {
		if (r->cat && r->cat->has_loc)
			syst_sb_putc(sb, ' ');
		syst_sb_hexnum(sb, m->loc_addr, m->loc_fmt == SYST_LOC_ADDR32 ? 8 : 16);
	}
}

static void put_row(struct syst_dec *d, const struct render *r)
{
	const struct syst_msg *m = &r->m;
	if (r->status != SYST_OK && r->status != SYST_MISSING_COLLATERAL) {
		/* the printer's failed-record row: status, hex dump, 6 empty fields */
		struct syst_sb *sb = &d->rsb;
		syst_sb_put(sb, d->status_names[r->status].s, d->status_names[r->status].n);
		syst_sb_puts(sb, ",\"");
		syst_sb_hex(sb, m->raw, m->raw_len, 1);
		syst_sb_puts(sb, "\",,,,,,");
		return;
	}
	/* A copy whose address is never passed on: the characters written
	 * cannot alias it, so the compiler keeps its fields in registers
	 * instead of reloading them after every character. */
	struct syst_sb row = d->rsb, *sb = &row;
	syst_sb_put(sb, d->status_names[r->status].s, d->status_names[r->status].n);
	syst_sb_putc(sb, ',');
	put_quoted(sb, d->tsb.buf, d->tsb.len);
	syst_sb_putc(sb, ',');
	syst_sb_put(sb, d->type.s, d->type.n);
	syst_sb_putc(sb, ',');
	syst_sb_put(sb, d->sev_names[m->severity].s, d->sev_names[m->severity].n);
	syst_sb_putc(sb, ',');
	if (!m->is_short)
		syst_sb_put(sb, d->sender_name.s, d->sender_name.n);
	syst_sb_putc(sb, ',');
	syst_sb_uint(sb, m->unit);
	syst_sb_putc(sb, ',');
	if (m->has_ts)
		syst_sb_hexnum(sb, m->ts, 16);
	syst_sb_putc(sb, ',');
	/* the printer's context timestamp: a message counter when -g is given */
	syst_sb_put(sb, d->ctx_text, sizeof(d->ctx_text));
	syst_sb_putc(sb, ',');
	put_location(sb, r);
	syst_sb_putc(sb, ',');
	syst_sb_uint(sb, m->raw_len);
	syst_sb_putc(sb, ',');
	if (m->has_crc)
		syst_sb_hexnum(sb, m->crc, 8);
	syst_sb_putc(sb, ',');
	if (r->cl)
		syst_sb_put(sb, d->coll_path, d->coll_path_len);
	d->rsb = row;
}

static void report_failure(struct syst_dec *d, const struct render *r)
{
	static const enum sonde_diag_code code[] = {
		[SYST_TOO_SHORT] = SONDE_D_TOO_SHORT,
		[SYST_TOO_LONG] = SONDE_D_TOO_LONG,
		[SYST_CHECKSUM_ERROR] = SONDE_D_BAD_CHECKSUM,
		[SYST_UNKNOWN_TYPE] = SONDE_D_UNKNOWN_RECORD,
	};
	const struct syst_msg *m = &r->m;
	if (r->status == SYST_CHECKSUM_ERROR)
		syst_diag(d, code[r->status], r->ev.offset, 1,
			  "message %llu: CRC-32C mismatch: sent 0x%08X, computed 0x%08X (%zu bytes)",
			  (unsigned long long)d->msgno, m->crc, m->crc_calc, m->raw_len);
	else
		syst_diag(d, code[r->status], r->ev.offset, 1,
			  "message %llu: %s: %s (header 0x%08X, %zu bytes)",
			  (unsigned long long)d->msgno, syst_status_name(r->status), m->why, m->hdr,
			  m->raw_len);
}

/* The client of a message with an origin (collateral never changes, so
 * the last answer holds for as long as the GUID stays the same) and the
 * name of the Origin column: the client's, else the GUID as text. */
static void set_sender(struct syst_dec *d, const uint8_t *guid)
{
	if (d->have_sender && memcmp(guid, d->sender_guid, 16) == 0)
		return;
	memcpy(d->sender_guid, guid, 16);
	d->have_sender = 1;
	d->sender = syst_coll_client(d->coll, guid);
	if (d->sender) {
		d->sender_name.s = syst_client_name(d->sender);
	} else {
		syst_guid_format(guid, d->origin);
		d->sender_name.s = d->origin;
	}
	d->sender_name.n = strlen(d->sender_name.s);
}

/* A message that came over STP: its source is the master and channel (the
 * event's core, master << 16 | channel, and two arguments), its time the
 * STP time of its first packet.  The STP clock (FREQ) is the one clock of
 * every message of the stream, so a message's own SyS-T timestamp, in
 * another clock, is kept as the argument syst_ts, and a CLOCK message
 * does not change the stream's frequency. */
static void stp_source(struct syst_dec *d, struct render *r)
{
	if (r->status == SYST_OK && r->m.has_ts)
		arg_u(d, r, SONDE_A_U64, "syst_ts", r->m.ts);
	arg_u(d, r, SONDE_A_U32, "stp_master", d->src->master);
	arg_u(d, r, SONDE_A_U32, "stp_channel", d->src->channel);
	r->ev.core = (uint32_t)d->src->master << 16 | d->src->channel;
	r->ev.ts = d->src->ts;
	r->ev.ts_flags = SONDE_TS_VALID;
	if (d->out.session)
		d->out.session->ts_freq = d->stp_freq;
}

void syst_emit(struct syst_dec *d, const uint8_t *p, size_t n, uint64_t off)
{
	struct render r;
	syst_msg_parse(&r.m, p, n);
	r.cl = NULL;
	r.cat = NULL;
	r.status = r.m.status;
	sonde_event_clear(&r.ev);
	r.ev.offset = off;
	r.ev.frame = d->msgno;
	r.ev.args = d->args;
	syst_sb_reset(&d->tsb);
	syst_sb_reset(&d->rsb);
	d->type.s = "";
	d->type.n = 0;

	if (r.status == SYST_OK) {
		const struct syst_msg *m = &r.m;
		if (m->is_short) {
			r.cl = d->short_client;
		} else {
			set_sender(d, m->guid);
			r.cl = d->sender;
		}
		r.ev.rec_id = (m->subtype << 4) | m->type;
		r.ev.obj = m->unit;
		r.ev.obj_name = m->is_short ? NULL : d->sender_name.s;
		r.ev.obj2 = m->severity;
		r.ev.obj2_name = syst_severity_name(m->severity);
		if (m->has_ts) {
			r.ev.ts = m->ts;
			r.ev.ts_flags = SONDE_TS_VALID;
		}
		if (m->is_short)
			render_short(d, &r);
		else if (m->type == SYST_T_BUILD)
			render_build(d, &r);
		else if (m->type == SYST_T_STRING)
			render_string(d, &r);
		else if (m->type == SYST_T_CATALOG)
			render_catalog(d, &r);
		else if (m->type == SYST_T_RAW)
			render_raw(d, &r);
		else if (m->type == SYST_T_CLOCK)
			render_clock(d, &r);
		else
			render_sbd(d, &r);
		if (d->out.session && client_word(m))
			d->out.session->addr_size = client_word(m);
	} else {
		report_failure(d, &r);
		r.ev.kind = SONDE_EV_RECORD;
		r.ev.flags = SONDE_EVF_MALFORMED;
		set_type(d, &d->status_names[r.status]);
		arg_mem(d, &r, SONDE_A_MEM, "raw", p, n);
	}
	if (d->src)
		stp_source(d, &r);
	r.ev.rec_name = d->type.s;
	if (!(d->out.needs.omit & SONDE_OMIT_NATIVE)) {
		put_row(d, &r);
		r.ev.native = d->rsb.buf;
		r.ev.native_len = d->rsb.len;
	}
	if (d->out.session)
		d->out.session->frames++; /* every message the container delimited */
	if (d->out.event)
		d->out.event(d->out.ctx, &r.ev);
	d->msgno++;
	if (n >= 4) { /* systprint reads its context counter after the length check */
		d->ctx_count++;
		if (d->have_short_guid)
			ctx_text_increment(d->ctx_text + 2, 16);
	}
}
