/*
 * sonde_rxcmd.c -- receive-channel commands of a Sonde target: parsing
 * their words, framing them, naming them, and spotting the replies in the
 * trace stream (sonde_rxcmd.h).  QS targets' commands: proto/qs/qs_rxcmd.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sonde_rxcmd.h"
#include "sonde_ts.h"
#include "sonde_proto.h"

/* ---- names --------------------------------------------------------------- */

static const struct {
	const char *word; /* on the command line */
	const char *name; /* in messages, as in docs/protocol.md */
	uint8_t id;
} cmds[] = {
	{ "info", "INFO", SONDE_CMD_INFO },
	{ "glb-filter", "GLB_FILTER", SONDE_CMD_GLB_FILTER },
	{ "loc-filter", "LOC_FILTER", SONDE_CMD_LOC_FILTER },
	{ "start", "START", SONDE_CMD_START },
	{ "stop", "STOP", SONDE_CMD_STOP },
	{ "trigger", "TRIGGER", SONDE_CMD_TRIGGER },
	{ "readout", "READOUT", SONDE_CMD_READOUT },
	{ "reset", "RESET_CTRS", SONDE_CMD_RESET_CTRS },
	{ "app", "APP", SONDE_CMD_APP },
	{ "peek", "PEEK", SONDE_CMD_PEEK },
	{ "poke", "POKE", SONDE_CMD_POKE },
	{ "stats", "STATS", SONDE_CMD_STATS },
};
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

uint8_t rxcmd_id(const char *word)
{
	for (size_t i = 0; i < NCMDS; i++)
		if (strcmp(cmds[i].word, word) == 0)
			return cmds[i].id;
	return 0;
}

const char *rxcmd_name(uint8_t id)
{
	static char other[8];
	for (size_t i = 0; i < NCMDS; i++)
		if (cmds[i].id == id)
			return cmds[i].name;
	snprintf(other, sizeof(other), "0x%02X", id);
	return other;
}

const char *rxcmd_status_name(uint8_t st)
{
	static const char *const names[] = { "OK", "BAD_CHECKSUM", "BAD_LENGTH", "UNKNOWN_CMD",
					     "OUT_OF_REGION", "NOT_SUPPORTED", "TOO_LONG", "BAD_STATE" };
	static char other[16];
	if (st < sizeof(names) / sizeof(names[0]))
		return names[st];
	snprintf(other, sizeof(other), st >= SONDE_ST_APP_FIRST ? "APP_0x%02X" : "0x%02X", st);
	return other;
}

/* Record names and groups for the global filter. */
static const struct {
	const char *name;
	uint8_t lo, hi;
} records[] = {
	{ "EMPTY", 0x00, 0x00 },        { "TARGET_INFO", 0x01, 0x01 }, { "TIME_SYNC", 0x02, 0x02 },
	{ "DROPS", 0x03, 0x03 },        { "DICT", 0x04, 0x04 },        { "ISR_ENTER", 0x05, 0x05 },
	{ "ISR_EXIT", 0x06, 0x06 },     { "TASK_CREATE", 0x07, 0x07 }, { "TASK_IN", 0x08, 0x08 },
	{ "TASK_OUT", 0x09, 0x09 },     { "TASK_READY", 0x0A, 0x0A },  { "IDLE", 0x0B, 0x0B },
	{ "MARK", 0x0C, 0x0C },         { "MARK_BEGIN", 0x0D, 0x0D },  { "MARK_END", 0x0E, 0x0E },
	{ "COUNTER", 0x0F, 0x0F },      { "FUNC_ENTER", 0x10, 0x10 },  { "FUNC_ENTER_A", 0x11, 0x11 },
	{ "FUNC_EXIT", 0x12, 0x12 },    { "LOG", 0x13, 0x13 },
	/* groups */
	{ "ISR", 0x05, 0x06 },          { "TASK", 0x07, 0x0B },        { "MARKS", 0x0C, 0x0E },
	{ "FUNC", 0x10, 0x12 },         { "USER", 0x40, 0x7F },
};

int rxcmd_parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	char *end;
	errno = 0;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	unsigned long long x = strtoull(s, &end, 0);
	if (*end || errno || x > max)
		return -1;
	*v = x;
	return 0;
}

/* "N" or "LO-HI" (numbers in C syntax) within 0..max. */
static int parse_range(const char *s, unsigned max, unsigned *lo, unsigned *hi)
{
	char a[32];
	const char *dash = strchr(s, '-');
	uint64_t x, y;
	if (!dash) {
		if (rxcmd_parse_u64(s, max, &x) != 0)
			return -1;
		*lo = *hi = (unsigned)x;
		return 0;
	}
	size_t k = (size_t)(dash - s);
	if (k == 0 || k >= sizeof(a))
		return -1;
	memcpy(a, s, k);
	a[k] = '\0';
	if (rxcmd_parse_u64(a, max, &x) != 0 || rxcmd_parse_u64(dash + 1, max, &y) != 0 || y < x)
		return -1;
	*lo = (unsigned)x;
	*hi = (unsigned)y;
	return 0;
}

static void set_bits(uint8_t *bits, unsigned lo, unsigned hi, int on)
{
	for (unsigned i = lo; i <= hi; i++) {
		if (on)
			bits[i / 8] |= (uint8_t)(1u << (i % 8));
		else
			bits[i / 8] &= (uint8_t)~(1u << (i % 8));
	}
}

/* The shared loop of the two filter lists; glb selects names or objects. */
static int filter_list(char *const *w, int n, uint8_t *bits, size_t nbytes, int glb, char *why, size_t wl)
{
	memset(bits, 0xFF, nbytes);
	if (n == 0) {
		snprintf(why, wl, "the filter needs a list (e.g. 'all', 'none', '+ISR -LOG')");
		return -1;
	}
	unsigned max = (unsigned)(nbytes * 8 - 1);
	for (int i = 0; i < n; i++) {
		const char *t = w[i];
		int on = 1;
		if (strcasecmp(t, "all") == 0 || strcasecmp(t, "none") == 0) {
			memset(bits, t[0] == 'a' || t[0] == 'A' ? 0xFF : 0x00, nbytes);
			continue;
		}
		if (*t == '+' || *t == '-') {
			on = *t == '+';
			t++;
		}
		unsigned lo, hi;
		if (parse_range(t, max, &lo, &hi) == 0) {
			set_bits(bits, lo, hi, on);
			continue;
		}
		int found = 0;
		for (size_t k = 0; glb && k < sizeof(records) / sizeof(records[0]); k++)
			if (strcasecmp(records[k].name, t) == 0) {
				set_bits(bits, records[k].lo, records[k].hi, on);
				found = 1;
			}
		if (!found) {
			if (glb)
				snprintf(why, wl,
					 "'%s' is not a record id (0..127, or LO-HI), a record name (ISR_ENTER, LOG, ...) "
					 "or a group (ISR TASK MARKS FUNC USER)",
					 w[i]);
			else
				snprintf(why, wl, "'%s' is not an object id (0..255, or LO-HI), 'all' or 'none'", w[i]);
			return -1;
		}
	}
	return 0;
}

int rxcmd_glb_list(char *const *w, int n, uint8_t bits[16], char *why, size_t wl)
{
	return filter_list(w, n, bits, 16, 1, why, wl);
}

int rxcmd_loc_list(char *const *w, int n, uint8_t bits[32], char *why, size_t wl)
{
	return filter_list(w, n, bits, 32, 0, why, wl);
}

static void put_le(uint8_t *p, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int rxcmd_want_args(const char *name, int have, int lo, int hi, char *why, size_t wl)
{
	if (have >= lo && have <= hi)
		return 0;
	if (lo == hi)
		snprintf(why, wl, "'%s' takes %d argument%s, got %d", name, lo, lo == 1 ? "" : "s", have);
	else
		snprintf(why, wl, "'%s' takes %d to %d arguments, got %d", name, lo, hi, have);
	return -1;
}

int rxcmd_number(const char *what, const char *s, uint64_t max, uint64_t *v, char *why, size_t wl)
{
	if (rxcmd_parse_u64(s, max, v) == 0)
		return 0;
	snprintf(why, wl, "bad %s '%s' (expected a number up to %llu)", what, s, (unsigned long long)max);
	return -1;
}

uint64_t rxcmd_addr_max(unsigned addr_size)
{
	return addr_size >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * addr_size)) - 1;
}

/* "de ad be ef", "deadbeef" or "de:ad:be:ef" -> bytes */
static int parse_hex(char *const *w, int n, uint8_t *out, size_t cap, size_t *len, char *why, size_t wl)
{
	size_t k = 0;
	for (int i = 0; i < n; i++) {
		const char *s = w[i];
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			s += 2;
		int half = -1;
		for (; *s; s++) {
			if (*s == ':' || *s == ' ' || *s == '_')
				continue;
			int d = *s >= '0' && *s <= '9' ? *s - '0' : (*s | 0x20) >= 'a' && (*s | 0x20) <= 'f' ? (*s | 0x20) - 'a' + 10 : -1;
			if (d < 0) {
				snprintf(why, wl, "bad hex bytes '%s'", w[i]);
				return -1;
			}
			if (half < 0) {
				half = d;
				continue;
			}
			if (k == cap) {
				snprintf(why, wl, "too many bytes (at most %zu)", cap);
				return -1;
			}
			out[k++] = (uint8_t)(half << 4 | d);
			half = -1;
		}
		if (half >= 0) {
			snprintf(why, wl, "odd number of hex digits in '%s'", w[i]);
			return -1;
		}
	}
	if (k == 0) {
		snprintf(why, wl, "no bytes to write");
		return -1;
	}
	*len = k;
	return 0;
}

int rxcmd_parse(char *const *w, int n, unsigned addr_size, struct rxcmd *c, char *why, size_t wl)
{
	memset(c, 0, sizeof(*c));
	c->qs_reply = -1;
	if (n < 1) {
		snprintf(why, wl, "no command given");
		return -1;
	}
	c->id = rxcmd_id(w[0]);
	if (!c->id) {
		snprintf(why, wl, "unknown command '%s' (see 'sonde help send')", w[0]);
		return -1;
	}
	if (addr_size < 1 || addr_size > 8)
		addr_size = 4;
	int na = n - 1;
	char *const *a = w + 1;
	uint64_t v[4];
	switch (c->id) {
	case SONDE_CMD_GLB_FILTER:
		c->n = 16;
		return rxcmd_glb_list(a, na, c->data, why, wl);
	case SONDE_CMD_LOC_FILTER:
		c->n = 32;
		return rxcmd_loc_list(a, na, c->data, why, wl);
	case SONDE_CMD_APP:
		if (rxcmd_want_args(w[0], na, 1, 4, why, wl) != 0 || rxcmd_number("command", a[0], 255, &v[0], why, wl) != 0)
			return -1;
		c->data[0] = (uint8_t)v[0];
		for (int i = 1; i < 4; i++) {
			v[i] = 0;
			if (i < na && rxcmd_number("argument", a[i], UINT32_MAX, &v[i], why, wl) != 0)
				return -1;
			put_le(c->data + 1 + 4 * (i - 1), v[i], 4);
		}
		c->n = 13;
		return 0;
	case SONDE_CMD_PEEK:
		if (rxcmd_want_args(w[0], na, 2, 2, why, wl) != 0 ||
		    rxcmd_number("address", a[0], rxcmd_addr_max(addr_size), &v[0], why, wl) != 0 ||
		    rxcmd_number("length", a[1], 64, &v[1], why, wl) != 0)
			return -1;
		if (v[1] == 0) {
			snprintf(why, wl, "peek reads 1 to 64 bytes");
			return -1;
		}
		put_le(c->data, v[0], addr_size);
		c->data[addr_size] = (uint8_t)v[1];
		c->n = addr_size + 1;
		return 0;
	case SONDE_CMD_POKE: {
		if (na < 2) {
			snprintf(why, wl, "'poke' takes an address and the bytes in hex");
			return -1;
		}
		if (rxcmd_number("address", a[0], rxcmd_addr_max(addr_size), &v[0], why, wl) != 0)
			return -1;
		size_t len;
		if (parse_hex(a + 1, na - 1, c->data + addr_size + 1, 64, &len, why, wl) != 0)
			return -1;
		put_le(c->data, v[0], addr_size);
		c->data[addr_size] = (uint8_t)len;
		c->n = addr_size + 1 + len;
		return 0;
	}
	default:
		return rxcmd_want_args(w[0], na, 0, 0, why, wl);
	}
}

/* ---- frames ------------------------------------------------------------- */

size_t rxcmd_frame(const struct rxcmd *c, uint8_t seq, int bad_checksum, uint8_t *out)
{
	if (c->qs_len) {
		memcpy(out, c->qs_frame, c->qs_len);
		return c->qs_len;
	}
	if (!bad_checksum)
		return hdlc_encode(seq, c->id, c->data, c->n, out);
	/* A frame whose checksum is wrong on purpose: hdlc_encode cannot make
	 * one, so the bytes are escaped here (docs/protocol.md §1). */
	uint8_t raw[RXCMD_DATA_MAX + 3];
	uint8_t sum = (uint8_t)(seq + c->id);
	raw[0] = seq;
	raw[1] = c->id;
	for (size_t i = 0; i < c->n; i++) {
		raw[2 + i] = c->data[i];
		sum = (uint8_t)(sum + c->data[i]);
	}
	raw[2 + c->n] = (uint8_t)(~sum ^ 0x5A);
	size_t k = 0;
	for (size_t i = 0; i < c->n + 3; i++) {
		if (raw[i] == SONDE_FLAG || raw[i] == SONDE_ESC) {
			out[k++] = SONDE_ESC;
			out[k++] = (uint8_t)(raw[i] ^ SONDE_ESC_XOR);
		} else {
			out[k++] = raw[i];
		}
	}
	out[k++] = SONDE_FLAG;
	return k;
}

/* ---- replies ------------------------------------------------------------ */

static void watch_frame(void *ctx, enum hdlc_status st, const uint8_t *frame, size_t len, uint64_t offset,
			size_t raw_len)
{
	struct rxwatch *w = ctx;
	(void)offset;
	(void)raw_len;
	if (st != HDLC_OK || len < 3)
		return;
	if (frame[1] == SONDE_REC_TARGET_INFO && len - 3 == 18 && (frame[2 + 2] == 4 || frame[2 + 2] == 8))
		w->addr_size = frame[2 + 2];
	if (frame[1] == SONDE_REC_TARGET_INFO && len - 3 == 18 &&
	    frame[2] >= SONDE_PROTO_VERSION_1 && frame[2] <= SONDE_PROTO_VERSION) {
		w->version = frame[2];
		w->info_seen = 1;
	}
	w->on_frame(w->ctx, frame[0], frame[1], frame + 2, len - 3);
}

void rxwatch_init(struct rxwatch *w, void (*on_frame)(void *, uint8_t, uint8_t, const uint8_t *, size_t), void *ctx)
{
	memset(w, 0, sizeof(*w));
	w->on_frame = on_frame;
	w->ctx = ctx;
	w->addr_size = 4;
	w->version = SONDE_PROTO_VERSION;
	hdlc_init(&w->f, w->buf, sizeof(w->buf), watch_frame, w);
}

void rxwatch_feed(struct rxwatch *w, const uint8_t *buf, size_t n)
{
	hdlc_feed(&w->f, buf, n);
}

int rxwatch_fields(const struct rxwatch *w, uint8_t id, const uint8_t **data, size_t *n)
{
	if (id < SONDE_REC_CMD_STATUS || id > SONDE_REC_TARGET_STATS)
		return 0;
	struct sts ts;
	if (sts_split(w->version, *data, *n, &ts) != STS_OK)
		return -1;
	*data += ts.off;
	*n = ts.n;
	return 0;
}

int rxcmd_status(const uint8_t *fields, size_t n, uint8_t *seq, uint8_t *cmd, uint8_t *status)
{
	if (n != 3)
		return -1;
	*seq = fields[0];
	*cmd = fields[1];
	*status = fields[2];
	return 0;
}
