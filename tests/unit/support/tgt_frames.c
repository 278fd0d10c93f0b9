/*
 * tgt_frames.c -- the target tests' own frame parser and helpers (see
 * tgt_frames.h).
 */
#include "tgt_frames.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sonde.h"
#include "sonde_posix.h"
#include "../../../target/src/sonde_internal.h" /* sonde_g: tgt_setup */

volatile uint32_t tgt_now;
volatile unsigned tgt_clock_reads;
volatile uint64_t tgt_now64;

static uint32_t fake(void)
{
	tgt_clock_reads++;
	return tgt_now;
}

void tgt_fake_clock(uint32_t start)
{
	tgt_now = start;
	tgt_now64 = start;
	sonde_posix_set_clock(fake);
}

void tgt_tick(uint64_t dt)
{
	tgt_now += (uint32_t)dt;
	tgt_now64 += dt;
}

uint32_t tgt_le16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

uint32_t tgt_le32(const uint8_t *p)
{
	return tgt_le16(p) | tgt_le16(p + 2) << 16;
}

uint64_t tgt_le64(const uint8_t *p)
{
	return (uint64_t)tgt_le32(p) | (uint64_t)tgt_le32(p + 4) << 32;
}

void tgt_setup(uint8_t *buf, size_t size, uint8_t mode, uint32_t clock)
{
	uint8_t junk[256];
	int holding = mode == SONDE_MODE_SNAPSHOT || mode == SONDE_MODE_POSTMORTEM;
	SONDE_PORT_CRIT_DECL;

	tgt_fake_clock(clock);
	sonde_init(buf, size, mode);
	sonde_time_sync();
	/* Snapshot and post-mortem buffers are read out only once frozen
	 * (docs/protocol.md section 9.1). */
	if (holding)
		sonde_trigger();
	while (sonde_drain(junk, sizeof junk) > 0)
		;
	if (holding) {
		sonde_start();
		/* sonde_start() asks for a TIME_SYNC before the next timed record
		 * (rule 1).  The one just drained anchors the time as well, so the
		 * request is withdrawn: every mode then starts from the same
		 * state, and the tests' arithmetic is the same in all four. */
		SONDE_PORT_CRIT_ENTER();
		sonde_g.flags &= (uint8_t)~(SONDE_F_SYNC | SONDE_F_NOREC);
		sonde_ring_relimit();
		SONDE_PORT_CRIT_EXIT();
	}
}

unsigned tgt_ts(const struct tgt_frame *f, uint32_t *delta)
{
	uint8_t last;
	unsigned w, i;
	uint32_t v = 0;

	if (f->len == 0)
		return 0;
	last = f->data[f->len - 1];
	w = !(last & 0x80) ? 1u : !(last & 0x40) ? 2u : !(last & 0x20) ? 3u : !(last & 0x10) ? 4u : 0u;
	if (w == 0 || w > f->len)
		return 0;
	for (i = 0; i < w; i++)
		v |= (uint32_t)f->data[f->len - w + i] << (8 * i);
	*delta = v & ((1u << (7 * w)) - 1u);
	return w;
}

size_t tgt_frame_wire(uint8_t seq, uint8_t id, const uint8_t *data, size_t n, uint8_t *out)
{
	uint8_t raw[TGT_MAX_DATA + 3];
	unsigned sum = 0;
	size_t k = 0, i;

	raw[0] = seq;
	raw[1] = id;
	memcpy(raw + 2, data, n);
	for (i = 0; i < n + 2; i++)
		sum += raw[i];
	raw[n + 2] = (uint8_t)~sum;
	for (i = 0; i < n + 3; i++) {
		if (raw[i] == 0x7E || raw[i] == 0x7D) {
			out[k++] = 0x7D;
			out[k++] = (uint8_t)(raw[i] ^ 0x20);
		} else {
			out[k++] = raw[i];
		}
	}
	out[k++] = 0x7E;
	return k;
}

void tgt_expect_frame(uint8_t seq, uint8_t id, const uint8_t *data, size_t n)
{
	uint8_t want[2 * TGT_MAX_DATA + 8];

	tgt_expect_wire(want, tgt_frame_wire(seq, id, data, n, want));
}

static void hex(const char *what, const uint8_t *p, size_t n)
{
	size_t i;

	fprintf(stderr, "%s (%zu):", what, n);
	for (i = 0; i < n; i++)
		fprintf(stderr, " %02X", p[i]);
	fprintf(stderr, "\n");
}

void tgt_expect_wire(const uint8_t *want, size_t n)
{
	uint8_t got[2048];
	size_t k = tgt_drain_all(got, sizeof got);

	if (k != n || memcmp(got, want, n) != 0) {
		hex("want", want, n);
		hex("got ", got, k);
	}
	assert_int_equal(k, n);
	assert_memory_equal(got, want, n);
}

size_t tgt_drain_all(uint8_t *dst, size_t cap)
{
	size_t n = 0, k;

	while (n < cap && (k = sonde_drain(dst + n, cap - n)) > 0)
		n += k;
	return n;
}

void tgt_parse(const uint8_t *wire, size_t n, struct tgt_frames *out)
{
	uint8_t raw[TGT_MAX_DATA + 3];
	size_t len = 0, cap = 16, start = 0, i;
	int esc = 0, over = 0;

	memset(out, 0, sizeof *out);
	out->f = malloc(cap * sizeof *out->f);
	for (i = 0; i < n; i++) {
		uint8_t b = wire[i];

		if (b == 0x7E) {
			struct tgt_frame *f;
			unsigned sum = 0;
			size_t k;

			if (out->n == cap) {
				cap *= 2;
				out->f = realloc(out->f, cap * sizeof *out->f);
			}
			f = &out->f[out->n++];
			memset(f, 0, offsetof(struct tgt_frame, data));
			f->off = start;
			f->wire_len = i + 1 - start;
			for (k = 0; k < len; k++)
				sum += raw[k];
			f->ok = !over && !esc && len >= 3 && (sum & 0xFF) == 0xFF;
			if (len >= 3) {
				f->seq = raw[0];
				f->id = raw[1];
				f->len = len - 3;
				memcpy(f->data, raw + 2, f->len);
			}
			if (!f->ok)
				out->bad++;
			len = 0;
			esc = over = 0;
			start = i + 1;
		} else if (b == 0x7D) {
			esc = 1;
		} else {
			if (esc)
				b ^= 0x20;
			esc = 0;
			if (len < sizeof raw)
				raw[len++] = b;
			else
				over = 1;
		}
	}
	out->partial = n - start;
}

void tgt_frames_free(struct tgt_frames *fr)
{
	free(fr->f);
	fr->f = NULL;
}
