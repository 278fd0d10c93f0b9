/*
 * stp_enc.c -- the tests' STPv2 encoder (stp_enc.h).  Its opcode table is
 * written out here, apart from the decoder's, from the STPv2 opcode list
 * (shared/notes/syst.md §11.1 for the ones the MIPI library uses).
 */
#include <stdlib.h>
#include <string.h>

#include "stp_enc.h"

void stp_enc_init(struct stp_enc *e, int msn)
{
	memset(e, 0, sizeof(*e));
	e->msn = msn;
}

void stp_enc_free(struct stp_enc *e)
{
	free(e->buf);
	e->buf = NULL;
	e->cap = 0;
	e->nib = 0;
}

size_t stp_enc_len(const struct stp_enc *e)
{
	return (size_t)((e->nib + 1) / 2);
}

void stp_enc_nibble(struct stp_enc *e, unsigned x)
{
	size_t byte = (size_t)(e->nib / 2);
	if (byte >= e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 4096;
		e->buf = realloc(e->buf, cap);
		if (!e->buf)
			abort();
		memset(e->buf + e->cap, 0, cap - e->cap);
		e->cap = cap;
	}
	if (e->nib & 1)
		e->buf[byte] = (uint8_t)(e->buf[byte] | (x & 0xF) << 4);
	else
		e->buf[byte] = (uint8_t)(x & 0xF);
	e->nib++;
}

void stp_enc_op(struct stp_enc *e, const char *op)
{
	for (; *op; op++)
		stp_enc_nibble(e, (unsigned)(*op <= '9' ? *op - '0' : *op - 'A' + 10));
}

void stp_enc_field(struct stp_enc *e, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		stp_enc_nibble(e, (unsigned)(v >> (4 * (e->msn ? n - 1 - i : i))) & 0xF);
}

void stp_enc_ts(struct stp_enc *e, unsigned n, uint64_t ts)
{
	stp_enc_nibble(e, n == 14 ? 0xD : n == 16 ? 0xE : n);
	stp_enc_field(e, ts, n);
}

void stp_enc_async(struct stp_enc *e)
{
	for (int i = 0; i < 21; i++)
		stp_enc_nibble(e, 0xF);
	stp_enc_nibble(e, 0);
}

void stp_enc_version(struct stp_enc *e, unsigned v)
{
	stp_enc_op(e, "F00");
	stp_enc_nibble(e, v);
}

void stp_enc_freq(struct stp_enc *e, unsigned bits, uint64_t hz)
{
	stp_enc_op(e, bits == 40 ? "F0F0" : "F08");
	stp_enc_field(e, hz, bits / 4);
}

void stp_enc_master(struct stp_enc *e, unsigned bits, uint16_t m)
{
	stp_enc_op(e, bits == 8 ? "1" : "F1");
	stp_enc_field(e, m, bits / 4);
}

void stp_enc_channel(struct stp_enc *e, unsigned bits, uint16_t c)
{
	stp_enc_op(e, bits == 8 ? "3" : "F3");
	stp_enc_field(e, c, bits / 4);
}

/* Opcodes by variant and size (4, 8, 16, 32, 64 bits). */
static const char *const data_ops[4][5] = {
	[STP_ENC_PLAIN] = { "C", "4", "5", "6", "7" },
	[STP_ENC_M] = { "FD", "F8", "F9", "FA", "FB" },
	[STP_ENC_TS] = { "FC", "F4", "F5", "F6", "F7" },
	[STP_ENC_MTS] = { "D", "8", "9", "A", "B" },
};

void stp_enc_data(struct stp_enc *e, unsigned bits, enum stp_enc_var var, uint64_t v, unsigned ts_nibs,
		  uint64_t ts)
{
	unsigned k = bits == 4 ? 0 : bits == 8 ? 1 : bits == 16 ? 2 : bits == 32 ? 3 : 4;
	stp_enc_op(e, data_ops[var][k]);
	stp_enc_field(e, v, bits / 4);
	if (var == STP_ENC_TS || var == STP_ENC_MTS)
		stp_enc_ts(e, ts_nibs, ts);
}

void stp_enc_flag(struct stp_enc *e, int with_ts, unsigned ts_nibs, uint64_t ts)
{
	if (with_ts) {
		stp_enc_op(e, "E");
		stp_enc_ts(e, ts_nibs, ts);
	} else {
		stp_enc_op(e, "FE");
	}
}

void stp_enc_bare(struct stp_enc *e, enum stp_enc_bare kind, int with_ts, unsigned ts_nibs, uint64_t ts)
{
	/* plain and TS opcodes: F02/F03, F04/F05, F0A/F0B */
	static const char *const ops[3][2] = {
		[STP_ENC_USER] = { "F02", "F03" },
		[STP_ENC_TIME] = { "F04", "F05" },
		[STP_ENC_XSYNC] = { "F0A", "F0B" },
	};
	stp_enc_op(e, ops[kind][with_ts != 0]);
	if (with_ts)
		stp_enc_ts(e, ts_nibs, ts);
}

void stp_enc_pad(struct stp_enc *e)
{
	if (e->nib & 1)
		stp_enc_nibble(e, 0);
}

static uint64_t le(const uint8_t *p, size_t n)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

void stp_enc_msg(struct stp_enc *e, const uint8_t *m, size_t n, const struct stp_enc_msg *how)
{
	if (how->is_short) {
		stp_enc_data(e, (unsigned)(8 * n), STP_ENC_MTS, le(m, n), how->ts_nibs, how->ts);
		return;
	}
	size_t first = how->start_bits / 8;
	if (first > n)
		first = 4;
	stp_enc_data(e, (unsigned)(8 * first), STP_ENC_TS, le(m, first), how->ts_nibs, how->ts);
	if (how->extras) /* packets that are no part of the message */
		for (int k = STP_ENC_USER; k <= STP_ENC_XSYNC; k++)
			stp_enc_bare(e, (enum stp_enc_bare)k, 0, 0, 0);
	size_t pos = first;
	while (pos < n) {
		size_t k = how->body_bits / 8;
		while (k > n - pos)
			k /= 2;
		int last = pos + k == n;
		enum stp_enc_var var = last && how->end == STP_ENC_END_MARKED ? STP_ENC_M : STP_ENC_PLAIN;
		stp_enc_data(e, (unsigned)(8 * k), var, le(m + pos, k), 0, 0);
		pos += k;
	}
	if (how->end == STP_ENC_END_FLAG || (how->end == STP_ENC_END_MARKED && pos == first))
		stp_enc_flag(e, 0, 0, 0); /* nothing after the start to mark: FLAG */
	else if (how->end == STP_ENC_END_FLAG_TS)
		stp_enc_flag(e, 1, how->ts_nibs, how->ts);
}
