/*
 * qs_seq.c -- QSPY 7.4's sequence diagrams (qs_seq.h), character for
 * character.
 *
 * Geometry (columns from 0): lane k's line is at column 19 + 20k; its box
 * in the header spans 17 columns centred on it.  A record's line starts
 * with the 10-digit timestamp and shows every lane as '|' (the system
 * border as '/'); what the record draws is laid over that background.
 * Labels are cut to 15 characters (16 for LIFO posts and publishes, as
 * QSPY cuts them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qs.h"
#include "qs_render.h"
#include "qs_seq.h"

#define SEQ_LANES 10     /* names in a list */
#define SEQ_ADDRS 9      /* addresses QSPY's lane dictionary holds */
#define SEQ_NAME 64      /* QSPY's name buffer: 63 characters */
#define SEQ_LIST 300     /* QSPY's list buffer: 299 characters */
#define SEQ_X0 19        /* column of lane 0 */
#define SEQ_W 20         /* lane width */
#define SEQ_LABEL 15
#define SEQ_EVERY 100    /* lines between headers */
#define SEQ_LINE (SEQ_X0 + SEQ_W * SEQ_LANES + QS_VALUE_MAX + QS_SLACK + 64)

struct qs_seq {
	char list[SEQ_LIST];
	char name[SEQ_LANES][SEQ_NAME];
	int n;            /* lanes */
	int too_many;     /* the list had more than SEQ_LANES names */
	int sys;          /* lane of "?", -1 none */
	struct { uint64_t addr; int lane; } addr[SEQ_ADDRS];
	int naddr;
	FILE *fp;
	char *path;
	unsigned long lines; /* lines written, headers included (QSPY's count) */
	int werr;         /* errno of a failed write, 0 none */
};

static int x_of(int lane)
{
	return SEQ_X0 + SEQ_W * lane;
}

struct qs_seq *qs_seq_new(const char *list, char *note, size_t cap)
{
	struct qs_seq *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	note[0] = '\0';
	snprintf(s->list, sizeof(s->list), "%s", list);
	s->sys = -1;
	/* split at every comma: empty names are lanes too, as in QSPY (a
	 * trailing comma makes one); an empty list draws nothing */
	const char *p = s->list;
	for (int more = *p != '\0'; more;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (s->n == SEQ_LANES) {
			snprintf(note, cap, "Too many names in the Sequence list\n   %s", s->list);
			s->too_many = 1;
			break;
		}
		snprintf(s->name[s->n], SEQ_NAME, "%.*s", (int)len, p);
		if (strcmp(s->name[s->n], "?") == 0)
			s->sys = s->n;
		s->n++;
		more = comma != NULL;
		if (comma)
			p = comma + 1;
	}
	return s;
}

void qs_seq_free(struct qs_seq *s)
{
	if (!s)
		return;
	qs_seq_close(s);
	free(s);
}

static void put(struct qs_seq *s, const char *buf, size_t n)
{
	if (s->fp && fwrite(buf, 1, n, s->fp) != n && !s->werr)
		s->werr = errno ? errno : EIO;
	s->lines++;
}

/* The three header lines: box tops, names centred, box bottoms (the name
 * list line before the first only). */
static void header(struct qs_seq *s)
{
	if (s->lines == 0 && s->fp)
		fprintf(s->fp, "-g %s\n\n", s->list);
	char ln[SEQ_LINE];
	int width = x_of(s->n - 1) + 9; /* the last box's right edge + 1 */
	for (int row = 0; row < 3; row++) {
		memset(ln, ' ', (size_t)width);
		for (int k = 0; k < s->n; k++) {
			int left = x_of(k) - 8;
			if (row != 1) {
				memset(ln + left + 1, '-', 15);
				ln[left] = ln[x_of(k)] = ln[left + 16] = '+';
				continue;
			}
			ln[left] = ln[left + 16] = '|';
			size_t len = strlen(s->name[k]);
			size_t at = (size_t)left + 1 + (len < 15 ? (15 - len) / 2 : 0);
			memcpy(ln + at, s->name[k], len < 15 ? len : 15);
		}
		ln[width] = '\n';
		put(s, ln, (size_t)width + 1);
	}
}

int qs_seq_open(struct qs_seq *s, const char *path)
{
	qs_seq_close(s);
	s->path = strdup(path);
	if (!s->path)
		return -1;
	s->fp = fopen(path, "w");
	if (!s->fp) {
		int e = errno;
		free(s->path);
		s->path = NULL;
		errno = e;
		return -1;
	}
	s->lines = 0;
	s->werr = 0;
	/* QSPY writes no header at the start when the list was too long:
	 * the first line drawn brings it */
	if (s->n > 0 && !s->too_many)
		header(s);
	return 0;
}

int qs_seq_close(struct qs_seq *s)
{
	int err = s->werr;
	if (s->fp && fclose(s->fp) != 0 && !err)
		err = errno ? errno : EIO;
	s->fp = NULL;
	free(s->path);
	s->path = NULL;
	s->werr = 0;
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

const char *qs_seq_path(const struct qs_seq *s)
{
	return s->path;
}

void qs_seq_default_path(char *out, size_t cap)
{
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	snprintf(out, cap, "qspy%02d%02d%02d_%02d%02d%02d.seq", (tm.tm_year + 1900) % 100, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* ---- lanes ------------------------------------------------------------- */

void qs_seq_forget(struct qs_seq *s, int null_too)
{
	s->naddr = 0;
	if (null_too)
		qs_seq_object(s, 0, "NULL", 4);
}

void qs_seq_object(struct qs_seq *s, uint64_t addr, const char *name, size_t n)
{
	int lane = -1;
	for (int k = 0; k < s->n && lane < 0; k++)
		if (strlen(s->name[k]) == n && memcmp(s->name[k], name, n) == 0)
			lane = k;
	if (lane < 0)
		return;
	for (int i = 0; i < s->naddr; i++) {
		if (s->addr[i].addr == addr) {
			s->addr[i].lane = lane;
			return;
		}
	}
	if (s->naddr < SEQ_ADDRS) { /* a full dictionary drops the address */
		s->addr[s->naddr].addr = addr;
		s->addr[s->naddr].lane = lane;
		s->naddr++;
	}
}

static int lane_of(const struct qs_seq *s, uint64_t addr)
{
	for (int i = 0; i < s->naddr; i++)
		if (s->addr[i].addr == addr)
			return s->addr[i].lane;
	return -1;
}

/* ---- lines ------------------------------------------------------------- */

/* The start of a line in ln: head (the timestamp) at column 0, then up to
 * column end (excluded) '|' on the lanes and, between them, 'even' on
 * even columns and 'odd' on odd ones; '\n' after.  Returns the length. */
static size_t background(char *ln, const char *head, int end, char even, char odd)
{
	int i = (int)strlen(head);
	memcpy(ln, head, (size_t)i);
	for (; i < end; i++)
		ln[i] = (i - SEQ_X0) % SEQ_W == 0 ? '|' : (i % 2 ? odd : even);
	ln[i] = '\n';
	return (size_t)i + 1;
}

/* A line with the lanes as plain '|' up to the last one. */
static size_t plain(const struct qs_seq *s, char *ln, uint64_t ts)
{
	char head[24];
	snprintf(head, sizeof(head), "%010u", (unsigned)ts);
	return background(ln, head, x_of(s->n - 1) + 1, ' ', ' ');
}

/* Copy at most max characters of text to column at; returns the column
 * after the last. */
static int label(char *ln, int at, const char *text, int max)
{
	int k = 0;
	for (; text[k] && k < max; k++)
		ln[at + k] = text[k];
	return at + k;
}

/* A closing character at column at: the line grows if it reaches its end. */
static void close_at(char *ln, size_t *len, int at, char c)
{
	ln[at] = c;
	if (*len <= (size_t)at + 1) {
		ln[at + 1] = '\n';
		*len = (size_t)at + 2;
	}
}

static void emit(struct qs_seq *s, char *ln, size_t len)
{
	if (s->sys >= 0)
		ln[x_of(s->sys)] = '/';
	put(s, ln, len);
}

/* Every line-drawing function starts here: a header when one is due. */
static int begin(struct qs_seq *s)
{
	if (!s->fp || s->n == 0)
		return 0;
	if (s->lines % SEQ_EVERY == 0)
		header(s);
	return 1;
}

static void post(struct qs_seq *s, uint64_t ts, int src, int dst, const char *sig, int attempt)
{
	if (src < 0)
		src = s->sys;
	if (dst < 0)
		dst = s->sys;
	if (src < 0 || dst < 0 || (src == s->sys && dst == s->sys) || !begin(s))
		return;
	char ln[SEQ_LINE];
	size_t len = plain(s, ln, ts);
	char dash = attempt ? '~' : '-';
	int xs = x_of(src), xd = x_of(dst);
	if (src != dst) {
		int lo = src < dst ? xs : xd, hi = src < dst ? xd : xs;
		for (int i = lo; i < hi; i++)
			ln[i] = (i - SEQ_X0) % SEQ_W == 0 ? '+' : dash;
	}
	if (src < dst) {
		ln[xd - 1] = '>';
		label(ln, xs + 3, sig, SEQ_LABEL);
	} else if (src > dst) {
		ln[xd] = '|';
		ln[xd + 1] = '<';
		int n = (int)strlen(sig);
		label(ln, xs - 2 - (n < SEQ_LABEL ? n : SEQ_LABEL), sig, SEQ_LABEL);
	} else { /* to itself */
		close_at(ln, &len, label(ln, xs + 3, sig, SEQ_LABEL), ']');
		ln[xs + 1] = '<';
		ln[xs + 2] = '-';
	}
	if (s->sys >= 0)
		ln[x_of(s->sys)] = '/';
	ln[xs] = attempt ? 'A' : '*';
	put(s, ln, len);
}

static void post_lifo(struct qs_seq *s, uint64_t ts, int obj, const char *sig)
{
	if (!begin(s))
		return;
	char ln[SEQ_LINE];
	size_t len = plain(s, ln, ts);
	int x = x_of(obj);
	close_at(ln, &len, label(ln, x + 3, sig, SEQ_LABEL + 1), ']');
	ln[x + 1] = '<';
	ln[x + 2] = '=';
	if (s->sys >= 0)
		ln[x_of(s->sys)] = '/';
	ln[x] = '*';
	put(s, ln, len);
}

static void publish(struct qs_seq *s, uint64_t ts, int obj, const char *sig)
{
	if (obj < 0)
		obj = s->sys;
	if (obj < 0 || !begin(s))
		return;
	char ln[SEQ_LINE], head[24];
	snprintf(head, sizeof(head), "%010u", (unsigned)ts);
	size_t len = background(ln, head, x_of(s->n - 1) + 8, ' ', '.');
	int x = x_of(obj), n = (int)strlen(sig);
	if (obj < s->n - 1)
		label(ln, x + 3, sig, SEQ_LABEL + 1);
	else
		label(ln, x - 2 - (n < SEQ_LABEL ? n : SEQ_LABEL), sig, SEQ_LABEL + 1);
	if (s->sys >= 0)
		ln[x_of(s->sys)] = '/';
	ln[x] = '*';
	put(s, ln, len);
}

/* "<state>" or "(note)" centred on the lane. */
static void note(struct qs_seq *s, uint64_t ts, int obj, const char *text, char open, char shut)
{
	if (!begin(s))
		return;
	char ln[SEQ_LINE];
	size_t len = plain(s, ln, ts);
	int n = (int)strlen(text);
	if (n > SEQ_LABEL)
		n = SEQ_LABEL;
	int at = x_of(obj) - (n + 1) / 2;
	ln[at] = open;
	close_at(ln, &len, label(ln, at + 1, text, SEQ_LABEL), shut);
	emit(s, ln, len);
}

/* The state's name after the state machine's prefix: after the first '_'
 * or the first "::", whichever comes first ("Philo_eating" -> "eating"). */
static const char *state_part(const char *state)
{
	for (const char *c = state; *c; c++) {
		if (*c == '_')
			return c + 1;
		if (c[0] == ':' && c[1] == ':')
			return c + 2;
	}
	return state;
}

static void tick(struct qs_seq *s, unsigned rate, unsigned ctr)
{
	if (!begin(s))
		return;
	char ln[SEQ_LINE], head[48];
	snprintf(head, sizeof(head), "##########  Tick<%1u> Ctr=%010u", rate, ctr);
	head[34] = '\0'; /* QSPY starts the lanes at column 34 whatever the text's length */
	emit(s, ln, background(ln, head, x_of(s->n - 1) + 8, '\'', ' '));
}

/* ---- records ----------------------------------------------------------- */

enum {
	REC_TRAN = 6, REC_DEFER = 10, REC_RECALL = 11, REC_POST = 14, REC_LIFO = 15,
	REC_RECALL_ATTEMPT = 18, REC_PUBLISH = 26, REC_TICK = 31, REC_POST_ATTEMPT = 45,
	REC_OBJ_DICT = 61
};

void qs_seq_record(struct qs_dec *d, unsigned rec, uint64_t ts, const struct qs_fields *fl)
{
	struct qs_seq *s = d->seq;
	char name[QS_VALUE_MAX + QS_SLACK + 1];
	const char *found;
	const uint64_t *v = fl->v;
	int lane;
	if (!s)
		return;
	switch (rec) {
	case REC_OBJ_DICT: /* fields: object, name */
		qs_seq_object(s, v[0], (const char *)fl->s[1], fl->sn[1]);
		return;
	case REC_TICK: /* counter, rate */
		if (s->fp)
			tick(s, (unsigned)v[1], (unsigned)v[0]);
		return;
	default:
		break;
	}
	if (!s->fp)
		return;
	switch (rec) {
	case REC_TRAN: /* signal, state machine, source, target */
		if ((lane = lane_of(s, v[1])) >= 0) {
			*qs_put_fun(d, name, v[3], &found) = '\0';
			note(s, ts, lane, state_part(name), '<', '>');
		}
		break;
	case REC_DEFER: /* active object, queue, signal, pool, ref */
	case REC_RECALL:
	case REC_RECALL_ATTEMPT: /* active object, queue */
		if ((lane = lane_of(s, v[0])) >= 0)
			note(s, ts, lane, rec == REC_DEFER ? "Defer" : rec == REC_RECALL ? "RCall" : "RCallA", '(', ')');
		break;
	case REC_POST: /* sender, signal, receiver, pool, ref, free, min */
	case REC_POST_ATTEMPT:
		*qs_put_sig(d, name, v[1], v[2], &found) = '\0';
		post(s, ts, lane_of(s, v[0]), lane_of(s, v[2]), name, rec == REC_POST_ATTEMPT);
		break;
	case REC_LIFO: /* signal, receiver, pool, ref, free, min */
		if ((lane = lane_of(s, v[1])) >= 0) {
			*qs_put_sig(d, name, v[0], v[1], &found) = '\0';
			post_lifo(s, ts, lane, name);
		}
		break;
	case REC_PUBLISH: /* sender, signal, pool, ref */
		*qs_put_sig(d, name, v[1], 0, &found) = '\0';
		publish(s, ts, lane_of(s, v[0]), name);
		break;
	default:
		break;
	}
}
