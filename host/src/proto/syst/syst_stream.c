/*
 * syst_stream.c -- find the messages in a SyS-T byte stream.
 *
 * SyS-T has no sync pattern; the transport delimits messages.  Four
 * containers are understood (shared/notes/syst.md §11):
 *   len  { u32 LE N ; N bytes = one message }, the project's container;
 *   raw  messages back to back, delimited by their LEN fields;
 *   hex  "SYS-T RAW DATA: <hex>" lines, the reference printer's input;
 *   stp  MIPI STPv2, handed to stp_packet.c and stp_msg.c, which keep
 *        their own state (no bytes are buffered here for it).
 * Bytes arrive in chunks of any size.  Complete units are decoded straight
 * from the caller's chunk; only an unfinished unit is copied into a buffer
 * of fixed size (the longest possible hex line), so memory is bounded and
 * 1-byte feeding gives the same result as one big chunk.  After a framing
 * error (impossible container length, a raw message without LEN) the
 * framer drops bytes until a plausible message start and reports them.
 */
#include <stdlib.h>
#include <string.h>

#include "syst_crc.h"
#include "syst_dec.h"
#include "syst_msg.h"
#include "util/bytes.h"

#define PREFIX_LEN (sizeof(SYST_HEX_PREFIX) - 1)

/* ------------------------------------------------------- recognising */

/* How well n bytes at p fit a message of exactly size bytes:
 * 0 not at all, 1 plausible, 2 confirmed by the LEN field or the CRC;
 * -1 undecidable from the bytes available (avail < 4).  With check_crc a
 * wrong CRC means "not a message" (recognising a stream); without, such a
 * message is found and then reported as a checksum error (resynchronising). */
static int fits(const uint8_t *p, size_t avail, size_t size, int check_crc)
{
	if (avail < 4)
		return -1;
	uint32_t h = bytes_le32(p);
	if (!syst_hdr_plausible(h))
		return 0;
	size_t ssz = syst_short_size(h);
	if (ssz)
		return size == ssz;
	size_t min = 4 + ((h & SYST_H_GUID) ? 16 : 0) + ((h & SYST_H_LEN) ? 2 : 0) +
		     ((h & SYST_H_TS) ? 8 : 0) + ((h & SYST_H_CHK) ? 4 : 0);
	if (h & SYST_H_LOC) {
		size_t at = 4 + ((h & SYST_H_GUID) ? 16 : 0);
		if (avail <= at)
			return min + 5 <= size;
		min += 1 + ((p[at] & 1) ? 8 : 4);
	}
	if (min > size)
		return 0;
	int score = 1;
	if (h & SYST_H_LEN) {
		size_t need;
		long sz = syst_msg_size(p, avail, &need);
		if (sz > 0 && (size_t)sz != size)
			return 0;
		if (sz > 0)
			score = 2;
	}
	if (check_crc && (h & SYST_H_CHK) && avail >= size) {
		if (syst_crc32c(p, size - 4) != bytes_le32(p + size - 4))
			return 0;
		score = 2;
	}
	return score;
}

/* Walk length-prefixed records; returns a confidence 0..100.  The lengths
 * must chain up; a few records whose bytes are not a message (corrupt,
 * too short) are forgiven when more of them are. */
static int walk_len(const uint8_t *p, size_t n)
{
	size_t pos = 0, good = 0, bad = 0, confirmed = 0;
	while (n - pos >= 8) {
		uint32_t len = bytes_le32(p + pos);
		if (len > SYST_MSG_MAX)
			return 0;
		size_t avail = n - pos - 4 < len ? n - pos - 4 : len;
		int f = len >= 4 ? fits(p + pos + 4, avail, len, 1) : 0;
		if (avail < len) {
			if (f == 0)
				bad++;
			break;
		}
		if (f > 0) {
			good++;
			confirmed += f == 2;
		} else {
			bad++;
		}
		pos += 4 + len;
	}
	int score;
	if (good == 0)
		score = bad == 0 && n - pos >= 8 ? 25 : 0; /* only a plausible start */
	else if (good == 1)
		score = confirmed ? 60 : 45;
	else
		score = confirmed ? 85 : 70;
	if (bad)
		score = good >= 2 && good > 2 * bad ? score - 10 : 0;
	return score;
}

/* Walk self-delimiting messages; returns a confidence 0..100.  As with the
 * lengths above, a few messages that fail their checks are forgiven. */
static int walk_raw(const uint8_t *p, size_t n)
{
	size_t pos = 0, good = 0, bad = 0, confirmed = 0;
	while (pos < n) {
		size_t need;
		long sz = syst_msg_size(p + pos, n - pos, &need);
		if (sz < 0)
			return 0;
		if (sz == 0 || (size_t)sz > n - pos)
			break;
		int f = fits(p + pos, (size_t)sz, (size_t)sz, 1);
		if (f <= 0)
			bad++;
		else if (!syst_short_size(bytes_le32(p + pos))) { /* short ones prove little */
			good++;
			confirmed += f == 2;
		}
		pos += (size_t)sz;
	}
	int score = good < 2 ? (good ? 30 : 0) : confirmed >= 2 ? 75 : 50;
	if (bad)
		score = good >= 2 && good > 2 * bad ? score - 10 : 0;
	return score;
}

static int is_text(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((p[i] < 0x20 && p[i] != '\n' && p[i] != '\r' && p[i] != '\t') || p[i] == 0x7F)
			return 0;
	return 1;
}

/* Do the bytes look like the HDLC framing of Sonde or QS (frames ending in
 * 0x7E with an inverted-sum checksum)?  Then they are not ours. */
static int looks_hdlc(const uint8_t *p, size_t n)
{
	size_t start = 0, frames = 0, good = 0;
	for (size_t i = 0; i < n && frames < 4; i++) {
		if (p[i] != 0x7E)
			continue;
		uint8_t sum = 0;
		size_t len = 0;
		for (size_t k = start; k < i; k++, len++) {
			if (p[k] == 0x7D && k + 1 < i)
				sum = (uint8_t)(sum + (p[++k] ^ 0x20));
			else
				sum = (uint8_t)(sum + p[k]);
		}
		if (len >= 3 && sum == 0xFF)
			good++;
		if (i > start)
			frames++;
		start = i + 1;
	}
	return good >= 2;
}

enum syst_stp_order syst_detect_stp(const uint8_t *p, size_t n, int *confidence)
{
	struct stp_scan l, m;
	*confidence = 0;
	stp_scan(p, n, 0, syst_hdr_plausible, &l);
	if (!l.asyncs || l.errors * 10 > l.packets)
		return SYST_STP_LSN;
	/* the packets are the same in both orders; the values are not */
	stp_scan(p, n, 1, syst_hdr_plausible, &m);
	const struct stp_scan *b = m.plausible_starts > l.plausible_starts ? &m : &l;
	if (!b->starts)
		*confidence = 40; /* STP, but no message starts in sight */
	else if (2 * b->plausible_starts >= b->starts)
		*confidence = l.errors ? 75 : 90;
	else
		*confidence = 20; /* STP carrying something else: --proto stp */
	return b == &m ? SYST_STP_MSN : SYST_STP_LSN;
}

enum syst_container syst_detect(const uint8_t *p, size_t n, int *confidence)
{
	/* a first data line decides at once (process() relies on that: the
	 * decision must not depend on how many bytes were seen) */
	if (n >= PREFIX_LEN && memcmp(p, SYST_HEX_PREFIX, PREFIX_LEN) == 0) {
		*confidence = 95;
		return SYST_C_HEX;
	}
	if (n && is_text(p, n)) {
		/* the printer's lines after other console output, or just text */
		*confidence = memmem(p, n, "\n" SYST_HEX_PREFIX, PREFIX_LEN + 1) ? 80 : 0;
		return SYST_C_HEX;
	}
	int cs;
	syst_detect_stp(p, n, &cs);
	if (cs) {
		*confidence = cs;
		return SYST_C_STP;
	}
	if (looks_hdlc(p, n)) {
		*confidence = 0;
		return SYST_C_LEN;
	}
	int cl = walk_len(p, n), cr = walk_raw(p, n);
	*confidence = cl >= cr ? cl : cr;
	return cl >= cr ? SYST_C_LEN : SYST_C_RAW;
}

/* ----------------------------------------------------------- helpers */

static void end_skip(struct syst_dec *d)
{
	if (!d->skip_count)
		return;
	syst_diag(d, SONDE_D_GARBAGE, d->skip_start, d->skip_count,
		  "%llu bytes skipped while looking for the next message",
		  (unsigned long long)d->skip_count);
	d->skip_count = 0;
}

static void skip_byte(struct syst_dec *d, uint64_t at)
{
	if (!d->skip_count++)
		d->skip_start = at;
}

/* ------------------------------------------------------- containers */

/* Do the k bytes at q start a length-prefixed record?  1 yes, 0 no, -1
 * cannot tell yet: fewer than 8 bytes, or (unless final) not the whole
 * record, since fits() can only guess from part of it and the answer must
 * not depend on how the input was cut into chunks. */
static int record_starts(const uint8_t *q, size_t k, int final)
{
	if (k < 8)
		return -1;
	uint32_t len = bytes_le32(q);
	if (len < 4 || len > SYST_MSG_MAX)
		return 0;
	if (k - 4 < len && !final)
		return -1;
	return fits(q + 4, k - 4 < len ? k - 4 : len, len, 0) > 0;
}

/* A container length larger than the message it holds (the message says
 * where it ends: syst_msg_extent).  Either the length word is wrong and
 * the next record starts right after the message -- then it is decoded
 * from there -- or the container holds bytes after its message, which are
 * reported with it.  Nothing is dropped silently.  Returns the bytes
 * used (length word included), 0 to wait for more bytes, or -1 when the
 * container is taken as it is.  p is the record at stream offset at. */
static long oversized(struct syst_dec *d, const uint8_t *p, size_t n, uint32_t len, uint64_t at, int final)
{
	size_t avail = n - 4;
	size_t ext = syst_msg_extent(p + 4, avail < len ? avail : len);
	if (!ext || ext >= len)
		return -1;
	int next = record_starts(p + 4 + ext, avail - ext, final);
	if (next < 0 && !final)
		return 0;
	if (next > 0) {
		syst_diag(d, SONDE_D_MALFORMED, at, 1,
			  "container length %lu, but the message ends after %zu bytes and the next record starts there: "
			  "the length word is wrong; decoding on from the message's end",
			  (unsigned long)len, ext);
		syst_emit(d, p + 4, ext, at + 4);
		return (long)(4 + ext);
	}
	if (avail < len && next < 0) { /* the end of the input comes first */
		syst_emit(d, p + 4, ext, at + 4);
		syst_diag(d, SONDE_D_MALFORMED, at, 1,
			  "container length %lu, but the message ends after %zu bytes and the input %zu bytes later%s",
			  (unsigned long)len, ext, avail - ext, avail > ext ? ": those bytes are skipped" : "");
		return (long)(4 + avail);
	}
	if (avail < len)
		return -1; /* cut short as well: reported as such */
	/* The container is taken as it is, as the reference printer takes a
	 * line: a message with a LEN field or a CRC is then reported by its
	 * parser (TOO_LONG, CHECKSUM_ERROR); a string's surplus is not, so it
	 * is said here. */
	if (!(bytes_le32(p + 4) & (SYST_H_LEN | SYST_H_CHK)))
		syst_diag(d, SONDE_D_MALFORMED, at + 4 + ext, len - ext,
			  "the message ends after %zu bytes, its container after %lu: the last %lu bytes are not part of it",
			  ext, (unsigned long)len, (unsigned long)(len - ext));
	return -1;
}

static size_t process_len(struct syst_dec *d, const uint8_t *p, size_t n, int final)
{
	size_t pos = 0;
	while (n - pos >= 4) {
		uint32_t len = bytes_le32(p + pos);
		uint64_t at = d->off + pos;
		/* a length below 4 still delimits a message (reported as too
		 * short); only while resynchronising must a length fit a header */
		int sane = len <= SYST_MSG_MAX && (len >= 4 || !d->skip_count);
		if (d->skip_count && sane) {
			/* resynchronising: the header must fit the length too,
			 * judged on the whole container (fits() guesses from
			 * fewer bytes, and the guess must not depend on how the
			 * input was cut into chunks) */
			size_t avail = n - pos - 4 < len ? n - pos - 4 : len;
			if (avail < len && !final)
				break;
			sane = fits(p + pos + 4, avail, len, 0) > 0;
		}
		if (!sane) {
			if (!d->skip_count)
				syst_diag(d, SONDE_D_MALFORMED, at, 1,
					  "container length %lu out of range 0..%u",
					  (unsigned long)len, SYST_MSG_MAX);
			skip_byte(d, at);
			pos++;
			continue;
		}
		end_skip(d);
		long used = oversized(d, p + pos, n - pos, len, at, final);
		if (used == 0)
			break;
		if (used > 0) {
			pos += (size_t)used;
			continue;
		}
		if (n - pos - 4 < len)
			break;
		syst_emit(d, p + pos + 4, len, at + 4);
		pos += 4 + (size_t)len;
	}
	return pos;
}

static size_t process_raw(struct syst_dec *d, const uint8_t *p, size_t n, int final)
{
	size_t pos = 0;
	(void)final;
	while (pos < n) {
		size_t need;
		uint64_t at = d->off + pos;
		long sz = syst_msg_size(p + pos, n - pos, &need);
		if (d->skip_count && sz != 0) {
			/* resynchronising: only a plausible non-short header will do */
			uint32_t h = bytes_le32(p + pos);
			if (sz < 0 || syst_short_size(h) || !syst_hdr_plausible(h)) {
				skip_byte(d, at);
				pos++;
				continue;
			}
		}
		if (sz == 0)
			break;
		if (sz < 0) {
			syst_diag(d, SONDE_D_MALFORMED, at, 1,
				  "message without LEN bit (header 0x%08X) cannot be delimited in a raw stream",
				  bytes_le32(p + pos));
			skip_byte(d, at);
			pos++;
			continue;
		}
		if (n - pos < (size_t)sz)
			break;
		end_skip(d);
		syst_emit(d, p + pos, (size_t)sz, at);
		pos += (size_t)sz;
	}
	return pos;
}

static void hex_line(struct syst_dec *d, const uint8_t *line, size_t len, uint64_t at)
{
	while (len && (line[len - 1] == '\r' || line[len - 1] == '\n'))
		len--;
	if (len < PREFIX_LEN || memcmp(line, SYST_HEX_PREFIX, PREFIX_LEN) != 0) {
		/* other console output is fine; a mangled data line is reported
		 * (the printer skips those silently: P16) */
		if (memmem(line, len, "SYS-T RAW DATA", 14))
			syst_diag(d, SONDE_D_MALFORMED, at, 1,
				  "line ignored: \"" SYST_HEX_PREFIX "\" not at its start");
		return;
	}
	const uint8_t *hex = line + PREFIX_LEN;
	size_t hl = len - PREFIX_LEN, nb = hl / 2;
	if (hl % 2) {
		syst_diag(d, SONDE_D_MALFORMED, at, 1, "line ignored: odd number of hex digits");
		return;
	}
	for (size_t i = 0; i < nb; i++) {
		uint8_t b = 0;
		for (int k = 0; k < 2; k++) {
			uint8_t c = hex[2 * i + (size_t)k];
			int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
				: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
			if (v < 0) {
				syst_diag(d, SONDE_D_MALFORMED, at + PREFIX_LEN + 2 * i + (size_t)k, 1,
					  "line ignored: not a hex digit (0x%02X)", c);
				return;
			}
			b = (uint8_t)(b << 4 | v);
		}
		d->msg[i] = b;
	}
	syst_emit(d, d->msg, nb, at);
}

/* A line too long for any message: reported if it is a data line (other
 * console output may be as long as it likes). */
static void overlong_line(struct syst_dec *d, const uint8_t *line, size_t n, uint64_t at)
{
	if (n >= PREFIX_LEN && memcmp(line, SYST_HEX_PREFIX, PREFIX_LEN) == 0)
		syst_diag(d, SONDE_D_TOO_LONG, at, 1,
			  "line ignored: longer than the largest message");
}

static size_t process_hex(struct syst_dec *d, const uint8_t *p, size_t n, int final, size_t scanned)
{
	size_t pos = 0;
	for (;;) {
		const uint8_t *nl = memchr(p + pos + scanned, '\n', n - pos - scanned);
		scanned = 0;
		if (!nl) {
			if (n - pos > SYST_HEX_LINE_MAX || (final && d->hex_skipping)) {
				if (!d->hex_skipping)
					overlong_line(d, p + pos, n - pos, d->off + pos);
				d->hex_skipping = !final;
				pos = n;
			} else if (final && pos < n) {
				hex_line(d, p + pos, n - pos, d->off + pos);
				pos = n;
			}
			break;
		}
		size_t end = (size_t)(nl - p);
		if (d->hex_skipping) /* the rest of an overlong line */
			d->hex_skipping = 0;
		else if (end - pos > SYST_HEX_LINE_MAX)
			overlong_line(d, p + pos, end - pos, d->off + pos);
		else
			hex_line(d, p + pos, end - pos, d->off + pos);
		pos = end + 1;
	}
	d->hex_scanned = n - pos;
	return pos;
}

/* ------------------------------------------------------------ STPv2 */

static void stp_on_msg(void *ctx, const uint8_t *m, size_t n, const struct stp_msg_src *src)
{
	struct syst_dec *d = ctx;
	d->src = src;
	syst_emit(d, m, n, src->nib / 2);
	d->src = NULL;
}

static void stp_on_diag(void *ctx, enum sonde_diag_code code, uint64_t nib, uint64_t count, const char *msg)
{
	syst_diag(ctx, code, nib / 2, count, "%s", msg);
}

static void stp_on_packet(void *ctx, const struct stp_packet *p)
{
	struct syst_dec *d = ctx;
	if (p->kind == STP_K_FREQ) {
		d->stp_freq = p->value;
		if (d->out.session)
			d->out.session->ts_freq = p->value;
	}
	stp_msg_packet(d->stpm, p);
}

static void stp_on_error(void *ctx, enum stp_err code, uint64_t nib, uint64_t nibs, const char *msg)
{
	struct syst_dec *d = ctx;
	syst_diag(d, stp_err_code(code), nib / 2, (nibs + 1) / 2, "%s", msg);
	/* packets were lost: the messages open now miss some */
	if (code == STP_E_RESERVED || code == STP_E_BAD || code == STP_E_CUT)
		stp_msg_cut_all(d->stpm, "packets were lost with the STP sync");
}

/* Decode STP bytes: all of them are consumed.  The nibble order is decided
 * first when it is to be found out (from exactly SYST_DETECT_BYTES bytes,
 * or fewer at the end, so that chunking cannot change it). */
static size_t process_stp(struct syst_dec *d, const uint8_t *p, size_t n, int final)
{
	if (!d->stp) {
		if (d->stp_order == SYST_STP_AUTO) {
			if (n < SYST_DETECT_BYTES && !final)
				return 0;
			int conf;
			d->stp_order = syst_detect_stp(p, n < SYST_DETECT_BYTES ? n : SYST_DETECT_BYTES, &conf);
		}
		d->stp = malloc(sizeof(*d->stp));
		d->stpm = malloc(sizeof(*d->stpm));
		if (!d->stp || !d->stpm) {
			syst_diag(d, SONDE_D_OTHER, d->off, 0, "out of memory for the STP decoder");
			free(d->stp);
			free(d->stpm);
			d->stp = NULL;
			d->stpm = NULL;
			return n;
		}
		stp_init(d->stp, d->stp_order == SYST_STP_MSN, stp_on_packet, stp_on_error, d);
		stp_msg_init(d->stpm, stp_on_msg, stp_on_diag, d);
		if (d->out.session) {
			d->out.session->variant = d->stp_order == SYST_STP_MSN ? "STPv2 (fields most significant nibble first)"
										: "STPv2 (fields least significant nibble first)";
			d->out.session->core_name = stp_core_name;
		}
	}
	stp_feed(d->stp, p, n);
	return n;
}

/* Decode every complete unit in p[0..n); returns the bytes consumed.  What
 * is left is one unfinished unit (after a container longer than its
 * message, with the record that may follow the message: at most
 * 2 * SYST_MSG_MAX + 8 bytes), shorter than the buffer. */
static size_t process(struct syst_dec *d, const uint8_t *p, size_t n, int final, size_t scanned)
{
	if (d->mode == SYST_C_AUTO) {
		int conf, hexline = n >= PREFIX_LEN && memcmp(p, SYST_HEX_PREFIX, PREFIX_LEN) == 0;
		if (!hexline && n < SYST_DETECT_BYTES && !final)
			return 0; /* look at more bytes first */
		enum syst_container c = syst_detect(p, n < SYST_DETECT_BYTES ? n : SYST_DETECT_BYTES, &conf);
		d->mode = c;
		if (c == SYST_C_STP && d->stp_order == SYST_STP_AUTO)
			d->stp_order = syst_detect_stp(p, n < SYST_DETECT_BYTES ? n : SYST_DETECT_BYTES, &conf);
		scanned = 0;
		if (conf == 0 && n)
			syst_diag(d, SONDE_D_OTHER, d->off, 0,
				  "input not recognised as a SyS-T container; decoding it as %s",
				  c == SYST_C_HEX ? "hex lines" : c == SYST_C_RAW ? "a raw stream"
										: "length-prefixed messages");
	}
	size_t used;
	if (d->mode == SYST_C_STP)
		used = process_stp(d, p, n, final);
	else if (d->mode == SYST_C_LEN)
		used = process_len(d, p, n, final);
	else if (d->mode == SYST_C_RAW)
		used = process_raw(d, p, n, final);
	else
		used = process_hex(d, p, n, final, scanned);
	d->off += used;
	return used;
}

/* How many of the next n bytes p the buffered unfinished unit still needs
 * (n when that is not known yet), so that only that part is copied. */
static size_t still_needed(const struct syst_dec *d, const uint8_t *p, size_t n)
{
	size_t need = 0;
	if (d->mode == SYST_C_LEN && !d->skip_count) {
		need = d->blen < 4 ? 4 : 4 + (size_t)bytes_le32(d->buf);
	} else if (d->mode == SYST_C_RAW && !d->skip_count) {
		long sz = syst_msg_size(d->buf, d->blen, &need);
		if (sz > 0)
			need = (size_t)sz;
		else if (sz < 0)
			need = 0;
	} else if (d->mode == SYST_C_HEX) {
		const uint8_t *nl = memchr(p, '\n', n);
		return nl ? (size_t)(nl - p) + 1 : n;
	}
	if (need <= d->blen || need - d->blen > n)
		return n;
	return need - d->blen;
}

void syst_stream_feed(struct syst_dec *d, const uint8_t *p, size_t n)
{
	while (n) {
		if (!d->blen) {
			size_t used = process(d, p, n, 0, 0);
			p += used;
			n -= used;
			if (n > d->bcap) /* cannot happen: process leaves less than a unit */
				n = d->bcap;
			memcpy(d->buf, p, n);
			d->blen = n;
			return;
		}
		size_t old = d->blen, take = still_needed(d, p, n);
		if (take > d->bcap - d->blen)
			take = d->bcap - d->blen;
		memcpy(d->buf + d->blen, p, take);
		d->blen += take;
		size_t used = process(d, d->buf, d->blen, 0, d->mode == SYST_C_HEX ? d->hex_scanned : 0);
		if (used >= old) {
			/* the buffered unit is done: give the unconsumed new bytes
			 * back to the input and decode them from there */
			size_t back = d->blen - used;
			p += take - back;
			n -= take - back;
			d->blen = 0;
			d->hex_scanned = 0;
		} else {
			memmove(d->buf, d->buf + used, d->blen - used);
			d->blen -= used;
			p += take;
			n -= take;
		}
	}
}

void syst_stream_finish(struct syst_dec *d)
{
	if (d->blen || d->mode == SYST_C_AUTO) {
		size_t used = process(d, d->buf, d->blen, 1, 0);
		memmove(d->buf, d->buf + used, d->blen - used);
		d->blen -= used;
	}
	if (d->stp) {
		stp_finish(d->stp);
		stp_msg_finish(d->stpm);
	}
	if (d->blen) {
		if (d->skip_count) { /* still looking for a message: all garbage */
			d->skip_count += d->blen;
		} else {
			end_skip(d);
			syst_diag(d, SONDE_D_TRUNCATED, d->off, d->blen,
				  "input ends inside a message (%zu bytes)", d->blen);
		}
		d->off += d->blen;
		d->blen = 0;
	}
	end_skip(d);
}
