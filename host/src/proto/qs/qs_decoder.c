/*
 * qs_decoder.c -- the QS (QP/Spy, QP/C 7.x) decoder: sonde_decoder_qs.
 *
 * Bytes go through the shared HDLC framer; every frame is checked (checksum,
 * length, sequence) the way QSPY 7.4 checks it, errors are reported with the
 * byte offset and frame number, and good frames go to the record decoders
 * (qs_records.c, qs_user.c, qs_target.c).  Each event carries in 'native'
 * the line QSPY 7.4 prints for the record (see sink_qspy.c).
 *
 * Options (docs/proto-qs.md): qs.ts qs.obj qs.fun qs.sig qs.evt qs.eqc
 * qs.mpc qs.mps qs.tec (or QSPY's letters qs.T .. qs.C), qs.dic=FILE,
 * qs.version, qs.ts_freq, qs.max_record, qs.seq=LIST, qs.seq_file=FILE,
 * qs.dic_save=DIR.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qs.h"
#include "qs_render.h"
#include "qs_seq.h"
#include "sonde_proto.h"
#include "core/opts.h"

#define QS_DIC_FILE_MAX (16u << 20)

/* ---- framing ---------------------------------------------------------- */

/* A frame whose checksum is good (len >= 3), from the framer or found by
 * fast_run; esc[0..nesc) are the un-escaped indexes of its escaped bytes.
 * QS_READ_PAD bytes after it may be read. */
static inline void take_frame(struct qs_dec *d, const uint8_t *fr, size_t len, uint64_t offset,
			      const uint16_t *esc, size_t nesc)
{
	struct qs_frame f = { .data = fr + 2, .len = len - 3, .seq = fr[0], .rec = fr[1], .offset = offset,
			      .number = d->frames++, .esc = esc, .nesc = nesc };
	d->session->frames++;
	d->fr_cur = &f;
	d->rec1 = f.rec;
	if (d->synced && f.rec != QS_EMPTY && f.seq != (uint8_t)(d->last_seq + 1)) {
		uint8_t lost = (uint8_t)(f.seq - d->last_seq - 1);
		/* QS has no loss report: target overrun and link loss look alike */
		d->session->lost_unexplained += lost;
		qs_diag(d, SONDE_D_SEQ_GAP, 0, lost, "Discontinuity Seq=%u->%u", d->last_seq, f.seq);
	}
	d->synced = 1;
	d->last_seq = f.seq;
	d->nargs = 0;
	qs_line_reset(&d->line);
	qs_decode_record(d, &f);
	d->fr_cur = NULL;
}

static void on_frame(void *ctx, enum hdlc_status st, const uint8_t *fr, size_t len, uint64_t offset,
		     size_t raw_len)
{
	struct qs_dec *d = ctx;
	if (st == HDLC_OK) {
		if (fr != d->frame_buf) { /* found in place: pad it (QS_READ_PAD) */
			memcpy(d->frame_buf, fr, len);
			fr = d->frame_buf;
		}
		take_frame(d, fr, len, offset, d->fr.esc_pos, d->fr.esc_n);
		return;
	}
	struct qs_frame f = { .offset = offset, .number = d->frames++, .esc = d->fr.esc_pos,
			      .nesc = d->fr.esc_n };
	d->session->frames++;
	d->fr_cur = &f;
	if (len >= 2)
		d->rec1 = fr[1];
	/* QSPY names the record of a broken frame from byte 1 of its frame
	 * buffer, which still holds the previous frame's byte when this one
	 * is shorter, and gives the last good sequence number */
	char nb[16];
	const char *rec = qs_err_rec_name(d->rec1, 0, nb);
	const char *user = d->rec1 >= QS_USER ? "(?)" : "";
	uint8_t sum = 0;
	for (size_t i = 0; i < len && st == HDLC_TOO_SHORT; i++)
		sum = (uint8_t)(sum + fr[i]);
	if (st == HDLC_TRUNCATED) {
		qs_diag(d, SONDE_D_TRUNCATED, 0, raw_len,
			"%zu bytes of an unterminated frame at the end of the input", raw_len);
	} else if (!d->synced) {
		/* QSPY says nothing until the first good frame: a stream joined
		 * mid-frame starts with a piece of a frame */
		qs_diag(d, SONDE_D_GARBAGE, 0, raw_len,
			"%zu bytes before the first good frame skipped", raw_len);
	} else if (st == HDLC_BAD_CHECKSUM || (st == HDLC_TOO_SHORT && sum != 0xFF)) {
		/* QSPY checks the checksum before the length */
		qs_diag(d, SONDE_D_BAD_CHECKSUM, 0, raw_len, "Bad checksum in Rec=%s(?),Seq=%u", rec,
			d->last_seq);
	} else if (st == HDLC_TOO_SHORT) {
		qs_diag(d, SONDE_D_TOO_SHORT, 0, raw_len, "Record too short at Seq=%u(?),Rec=%s%s", d->last_seq,
			rec, user);
	} else if (st == HDLC_TOO_LONG) {
		qs_diag(d, SONDE_D_TOO_LONG, 0, raw_len,
			"Record too long at Seq=%u,Rec=%s (%zu bytes on the wire, limit %zu)", d->last_seq, rec,
			raw_len, d->max_rec);
	} else { /* HDLC_ABORTED */
		qs_diag(d, SONDE_D_ABORTED, 0, raw_len,
			"Aborted frame (escape before the flag) in Rec=%s(?),Seq=%u", rec, d->last_seq);
	}
	d->fr_cur = NULL;
}

/* ---- options ---------------------------------------------------------- */

static const struct {
	const char *key, *alias;
	char letter;
} size_opts[] = {
	{ "qs.ts", "qs.T", 'T' },  { "qs.obj", "qs.O", 'O' }, { "qs.fun", "qs.F", 'F' },
	{ "qs.sig", "qs.S", 'S' }, { "qs.evt", "qs.E", 'E' }, { "qs.eqc", "qs.Q", 'Q' },
	{ "qs.mpc", "qs.P", 'P' }, { "qs.mps", "qs.B", 'B' }, { "qs.tec", "qs.C", 'C' },
};

static int read_dic_file(struct qs_dec *d, const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		qs_diag(d, SONDE_D_OTHER, 0, 0, "Cannot open dictionary file %s: %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	while (buf) {
		if (len == cap) {
			char *nb = cap < QS_DIC_FILE_MAX ? realloc(buf, cap * 2) : NULL;
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		size_t n = fread(buf + len, 1, cap - len, fp);
		len += n;
		if (n == 0)
			break;
	}
	int err = ferror(fp);
	fclose(fp);
	if (!buf || err) {
		free(buf);
		qs_diag(d, SONDE_D_OTHER, 0, 0, "Cannot read dictionary file %s (error or larger than %u bytes)",
			path, QS_DIC_FILE_MAX);
		return -1;
	}
	d->dic_text = buf;
	d->dic_len = len;
	d->dic_path = strdup(path); /* for messages when it is re-read; NULL is fine */
	return 0;
}

/* Options; the sizes given are left in *given (0 = not given), to be
 * applied after the .dic file's header. */
static int apply_options(struct qs_dec *d, sonde_opts opts, struct qs_sizes *given)
{
	uint64_t v = d->max_rec;
	if (sonde_opt_uint(opts, "qs.max_record", 16, QS_RECORD_SIZE_LIMIT, &v) < 0)
		return -1;
	d->max_rec = (size_t)v;
	v = d->version;
	if (sonde_opt_uint(opts, "qs.version", 0, 9999, &v) < 0) /* a QP version such as 740 */
		return -1;
	d->version = (unsigned)v;
	if (sonde_opt_uint(opts, "qs.ts_freq", 0, UINT64_MAX, &d->session->ts_freq) < 0)
		return -1;
	/* explicit sizes win over the .dic header; TARGET_INFO wins over both */
	for (size_t i = 0; i < sizeof(size_opts) / sizeof(size_opts[0]); i++) {
		const char *key = size_opts[i].key, *s = sonde_opt_get(opts, key);
		if (!s) {
			key = size_opts[i].alias;
			s = sonde_opt_get(opts, key);
		}
		if (s && (sonde_opt_parse_uint(s, &v) != 0 || v > 8 ||
			  qs_set_size(given, size_opts[i].letter, (unsigned)v) != 0))
			return sonde_opt_bad(key, s, "%s",
					     strchr("OF", size_opts[i].letter) ? "1, 2, 4 or 8 bytes" : "1, 2 or 4 bytes");
	}
	/* QSPY's key sizes come from -O/-F, then from the .dic file's sections */
	if (given->obj)
		d->key_obj = d->key_sig = given->obj;
	if (given->fun)
		d->key_fun = given->fun;
	const char *s = sonde_opt_get(opts, "qs.dic");
	if (s && read_dic_file(d, s) != 0)
		return -1;
	/* QSPY's -g and -d: what to draw and where to save */
	const char *seq = sonde_opt_get(opts, "qs.seq");
	s = sonde_opt_get(opts, "qs.seq_file");
	if (s && !seq)
		return sonde_opt_bad("qs.seq_file", s, "%s", "qs.seq=OBJ,... with it");
	if (seq) {
		d->seq = qs_seq_new(seq, d->seq_note, sizeof(d->seq_note));
		if (!d->seq || (s && !(d->seq_path = strdup(s))))
			return -1;
	}
	s = sonde_opt_get(opts, "qs.dic_save");
	if (s && !(d->dic_save = strdup(s)))
		return -1;
	return 0;
}

/* ---- decoder ops ------------------------------------------------------ */

int qs_control(void *p, const char *cmd, char *msg, size_t cap); /* qs_ctl.c */

static void qs_destroy(void *p)
{
	struct qs_dec *d = p;
	if (!d)
		return;
	qs_dicts_free(&d->dict);
	qs_line_free(&d->line);
	free(d->frame_buf);
	free(d->esc_pos);
	free(d->args);
	free(d->str_buf);
	free(d->aos);
	free(d->dic_text);
	free(d->dic_path);
	free(d->dic_save);
	free(d->seq_path);
	qs_seq_free(d->seq);
	free(d);
}

static void *qs_create(const struct sonde_out *out, sonde_opts opts)
{
	struct qs_dec *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->out = *out;
	d->session = out->session ? out->session : &d->own_session;
	d->session->proto = "qs";
	d->session->buffer_mode = -1;
	qs_use_sizes(d, &qs_default_sizes);
	d->key_obj = d->key_sig = qs_default_sizes.obj;
	d->key_fun = qs_default_sizes.fun;
	d->max_rec = QS_RECORD_SIZE_MAX;
	qs_dicts_init(&d->dict);
	qs_map_put(&d->dict.usr, 124, 0, "QUTEST_ON_POST", 14);
	struct qs_sizes given = { 0 };
	if (apply_options(d, opts, &given) != 0) {
		qs_destroy(d);
		return NULL;
	}

	/* Everything below is bounded by max_rec: a record of n bytes has at
	 * most n/2 arguments (each at least 2 bytes), and its line at most
	 * 2 * 130 characters per argument byte pair plus the fixed parts; a
	 * predefined record's at most QS_TMPL_MAX plus its string. */
	d->frame_buf = calloc(1, d->max_rec + QS_READ_PAD);
	d->esc_pos = malloc(d->max_rec * sizeof(*d->esc_pos));
	d->max_args = d->max_rec / 2 + 24;
	d->args = calloc(d->max_args, sizeof(*d->args));
	d->str_buf = malloc(d->max_rec + 1);
	d->aos = calloc(QS_MAX_AOS, sizeof(*d->aos));
	if (!d->frame_buf || !d->esc_pos || !d->args || !d->str_buf || !d->aos ||
	    qs_line_init(&d->line, d->max_rec * 140 + 256 + QS_TMPL_MAX) != 0 || qs_records_compile() != 0) {
		qs_destroy(d);
		return NULL;
	}
	if ((d->out.needs.omit & SONDE_OMIT_DETAIL)) {
		/* nobody reads an event's arguments: none are made (qs_arg
		 * gives no slot, which every caller allows for) */
		d->max_args = 0;
	}
	hdlc_init(&d->fr, d->frame_buf, d->max_rec, on_frame, d);
	hdlc_track_escapes(&d->fr, d->esc_pos, d->max_rec);
	if (d->seq) {
		char def[64];
		const char *path = d->seq_path;
		if (!path) {
			qs_seq_default_path(def, sizeof(def));
			path = def;
		}
		if (qs_seq_open(d->seq, path) != 0) {
			qs_diag(d, SONDE_D_OTHER, 0, 0, "Cannot open File=%s: %s", path, strerror(errno));
			qs_destroy(d);
			return NULL;
		}
		if (d->seq_note[0])
			qs_notice(d, d->seq_note);
	}
	/* the .dic file (QSPY reads it, and says so, before the first record),
	 * then the sizes given, which win over its header */
	if (d->dic_text) {
		qs_dic_reload(d);
		if (!d->version && d->dic_version)
			d->version = d->dic_version;
	}
	static const char letters[] = "TOFSEQPBC";
	struct qs_sizes sz = d->sz;
	for (const char *c = letters; *c; c++) {
		uint8_t *g = qs_size_of(&given, *c);
		if (*g)
			qs_set_size(&sz, *c, *g);
	}
	qs_use_sizes(d, &sz);
	d->session->addr_size = d->sz.obj;
	d->session->version = d->version;
	return d;
}

/* The framer's hot loop (hdlc_fast_run) takes every good frame here. */
static int fast_take(void *ctx, const uint8_t *fr, size_t len, uint64_t offset, const uint16_t *esc, size_t nesc)
{
	take_frame(ctx, fr, len, offset, esc, nesc);
	return 1;
}

/* The good frames at data[0..n), while the framer is between frames
 * (hdlc_fast_run): about one frame in seven of a QP trace has an escape
 * (any byte of a timestamp or pointer may be 0x7D or 0x7E), which costs a
 * copy of the frame there, not a trip through the framer's byte loop. */
static size_t fast_run(void *ctx, const uint8_t *data, size_t n)
{
	struct qs_dec *d = ctx;
	/* a frame found there ends in the 64 bytes looked at, 16 more are
	 * readable (hdlc_sum reads them): enough for QS_READ_PAD */
	_Static_assert(QS_READ_PAD <= 16, "frames found in place are followed by 16 readable bytes");
	return hdlc_fast_run(&d->fr, data, n, d->max_rec, fast_take, d);
}

static void qs_feed(void *p, const uint8_t *buf, size_t n)
{
	struct qs_dec *d = p;
	hdlc_feed_fast(&d->fr, buf, n, fast_run, d);
}

static void qs_finish(void *p)
{
	struct qs_dec *d = p;
	hdlc_finish(&d->fr);
}

/* ---- probe ------------------------------------------------------------ */

struct probe {
	int frames;      /* frames seen */
	int good;        /* with a good checksum */
	int bad;         /* bad checksum/length after the first frame */
	int chain;       /* good frames whose SEQ follows the previous one */
	int qs_ids;      /* good frames with an id QS 7.x/8.x sends */
	int qs_start;    /* QS_EMPTY seq 1 then a QS TARGET_INFO */
	int sonde_start; /* Sonde's EMPTY (seq 0) then its TARGET_INFO (id 1, 18 bytes) */
	int have_prev;
	uint8_t prev_seq;
	uint8_t first[3];
	size_t first_len;
};

static int plausible_target_info(const uint8_t *p, size_t n)
{
	const uint8_t *c;
	if (n == 16 && (p[0] == 0xFF || p[0] == 0x00)) {
		unsigned v = ((unsigned)p[1] | (unsigned)p[2] << 8) & 0x7FFFu;
		if (v < 400 || v > 999)
			return 0;
		c = p + 3;
	} else if (n == 18 && (p[0] & 0x03) == 0x02) {
		c = p + 5;
	} else {
		return 0;
	}
	return qs_size_valid('O', c[3] & 0x0F) && qs_size_valid('F', c[3] >> 4) &&
	       qs_size_valid('T', c[4]) && qs_size_valid('S', c[0] & 0x0F);
}

static void probe_frame(void *ctx, enum hdlc_status st, const uint8_t *fr, size_t len, uint64_t offset,
			size_t raw_len)
{
	struct probe *pr = ctx;
	(void)offset;
	(void)raw_len;
	int index = pr->frames++;
	if (st == HDLC_TRUNCATED)
		return;
	if (st != HDLC_OK) {
		if (index > 0) /* the first frame may be a piece of one */
			pr->bad++;
		return;
	}
	pr->good++;
	uint8_t seq = fr[0], rec = fr[1];
	if (pr->have_prev && seq == (uint8_t)(pr->prev_seq + 1))
		pr->chain++;
	pr->have_prev = 1;
	pr->prev_seq = seq;
	if (rec <= 81 || (rec >= QS_USER && rec <= QS_USER_LAST))
		pr->qs_ids++;
	if (index == 0) {
		pr->first_len = len < 3 ? len : 3;
		memcpy(pr->first, fr, pr->first_len);
	}
	if (index == 1 && pr->first_len == 3 && pr->first[1] == 0) {
		if (pr->first[0] == 1 && rec == QS_TARGET_INFO && plausible_target_info(fr + 2, len - 3))
			pr->qs_start = 1;
		if (pr->first[0] == 0 && rec == 0x01 && len - 3 == 18)
			pr->sonde_start = 1;
	}
}

static int qs_probe(const uint8_t *buf, size_t n)
{
	struct probe pr = { 0 };
	uint8_t frame[QS_RECORD_SIZE_MAX];
	struct hdlc_framer f;
	hdlc_init(&f, frame, sizeof(frame), probe_frame, &pr);
	size_t i = 0;
	while (i < n && pr.frames < 32) { /* look at the first 32 frames at most */
		size_t k = n - i < 64 ? n - i : 64;
		hdlc_feed(&f, buf + i, k);
		i += k;
	}
	if (pr.sonde_start)
		return 0;  /* Sonde's own start: EMPTY seq 0, then its 18-byte TARGET_INFO */
	if (pr.qs_start)
		return 100; /* 01 00 FE 7E, then a QS TARGET_INFO */
	if (pr.good >= 4 && pr.qs_ids == pr.good && pr.chain >= pr.good - 2 && pr.bad <= 1)
		return 40;  /* joined mid-way: plausible QS frames, but Sonde frames look alike */
	if (pr.good >= 1 && pr.qs_ids == pr.good && pr.bad == 0)
		return 10;
	return 0;
}

const struct sonde_decoder_ops sonde_decoder_qs = {
	.name = "qs",
	.desc = "QP/Spy (QS) trace of QP/C and QP/C++ 7.x targets, decoded like QSPY 7.4",
	.probe = qs_probe,
	.create = qs_create,
	.feed = qs_feed,
	.finish = qs_finish,
	.destroy = qs_destroy,
	.control = qs_control,
};
