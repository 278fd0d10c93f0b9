/*
 * qs_tx.c -- QS-RX frame builders and filter bitmaps (qs_tx.h).
 */
#include "qs_tx.h"

#include <string.h>

#include "framers/framer_hdlc.h"

void qs_tx_init(struct qs_tx *tx, unsigned obj_size)
{
	tx->seq = 0;
	tx->obj_size = (uint8_t)(obj_size >= 1 && obj_size <= 8 ? obj_size : 4);
}

size_t qs_tx_frame(struct qs_tx *tx, uint8_t rec, const uint8_t *payload, size_t n, uint8_t *out)
{
	if (2 * (n + 3) + 1 > QS_TX_FRAME_MAX)
		return 0;
	tx->seq++;
	return hdlc_encode(tx->seq, rec, payload, n, out);
}

static size_t put_le(uint8_t *p, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	return size;
}

size_t qs_tx_info(struct qs_tx *tx, uint8_t *out)
{
	return qs_tx_frame(tx, QS_RX_INFO, NULL, 0, out);
}

size_t qs_tx_reset(struct qs_tx *tx, uint8_t *out)
{
	return qs_tx_frame(tx, QS_RX_RESET, NULL, 0, out);
}

size_t qs_tx_tick(struct qs_tx *tx, uint8_t rate, uint8_t *out)
{
	return qs_tx_frame(tx, QS_RX_TICK, &rate, 1, out);
}

size_t qs_tx_command(struct qs_tx *tx, uint8_t cmd, uint32_t p1, uint32_t p2, uint32_t p3, uint8_t *out)
{
	uint8_t p[13];
	p[0] = cmd;
	put_le(p + 1, p1, 4);
	put_le(p + 5, p2, 4);
	put_le(p + 9, p3, 4);
	return qs_tx_frame(tx, QS_RX_COMMAND, p, sizeof(p), out);
}

static size_t filter(struct qs_tx *tx, uint8_t rec, const uint8_t bits[16], uint8_t *out)
{
	uint8_t p[17];
	p[0] = 16; /* the target rejects any other length */
	memcpy(p + 1, bits, 16);
	return qs_tx_frame(tx, rec, p, sizeof(p), out);
}

size_t qs_tx_glb_filter(struct qs_tx *tx, const uint8_t glb[16], uint8_t *out)
{
	return filter(tx, QS_RX_GLB_FILTER, glb, out);
}

size_t qs_tx_loc_filter(struct qs_tx *tx, const uint8_t loc[16], uint8_t *out)
{
	return filter(tx, QS_RX_LOC_FILTER, loc, out);
}

size_t qs_tx_peek(struct qs_tx *tx, uint16_t offs, uint8_t size, uint8_t num, uint8_t *out)
{
	uint8_t p[4];
	put_le(p, offs, 2);
	p[2] = size;
	p[3] = num;
	return qs_tx_frame(tx, QS_RX_PEEK, p, sizeof(p), out);
}

size_t qs_tx_curr_obj(struct qs_tx *tx, enum qs_obj_kind kind, uint64_t addr, uint8_t *out)
{
	uint8_t p[9];
	p[0] = (uint8_t)kind;
	size_t n = 1 + put_le(p + 1, addr, tx->obj_size);
	return qs_tx_frame(tx, QS_RX_CURR_OBJ, p, n, out);
}

size_t qs_tx_query_curr(struct qs_tx *tx, enum qs_obj_kind kind, uint8_t *out)
{
	uint8_t k = (uint8_t)kind;
	return qs_tx_frame(tx, QS_RX_QUERY_CURR, &k, 1, out);
}

size_t qs_tx_ao_filter(struct qs_tx *tx, int add, uint64_t addr, uint8_t *out)
{
	uint8_t p[9];
	p[0] = add ? 0 : 1; /* 0 adds, any other value up to 6 removes */
	size_t n = 1 + put_le(p + 1, addr, tx->obj_size);
	return qs_tx_frame(tx, QS_RX_AO_FILTER, p, n, out);
}

/* ---- filter bitmaps ---------------------------------------------------- */

static void set_range(uint8_t bm[16], unsigned lo, unsigned hi, int on)
{
	for (unsigned n = lo; n <= hi; n++) {
		if (on)
			bm[n >> 3] = (uint8_t)(bm[n >> 3] | (1u << (n & 7)));
		else
			bm[n >> 3] = (uint8_t)(bm[n >> 3] & ~(1u << (n & 7)));
	}
}

int qs_glb_filter_set(uint8_t glb[16], int rec_or_group, int on)
{
	/* record ranges of each group, QS 7.4 */
	static const struct { uint8_t lo, hi; } ranges[16][4] = {
		[QS_ALL_RECORDS - 0xF0] = { { 0, 124 } },
		[QS_SM_RECORDS - 0xF0] = { { 1, 9 }, { 55, 57 } },
		[QS_AO_RECORDS - 0xF0] = { { 10, 18 }, { 45, 45 } },
		[QS_EQ_RECORDS - 0xF0] = { { 19, 22 }, { 46, 46 } },
		[QS_MP_RECORDS - 0xF0] = { { 24, 25 }, { 47, 47 } },
		[QS_TE_RECORDS - 0xF0] = { { 32, 37 } },
		[QS_QF_RECORDS - 0xF0] = { { 23, 23 }, { 26, 31 }, { 38, 44 } },
		[QS_SC_RECORDS - 0xF0] = { { 48, 53 } },
		[QS_SEM_RECORDS - 0xF0] = { { 71, 74 } },
		[QS_MTX_RECORDS - 0xF0] = { { 75, 80 } },
		[QS_U0_RECORDS - 0xF0] = { { 100, 104 } },
		[QS_U1_RECORDS - 0xF0] = { { 105, 109 } },
		[QS_U2_RECORDS - 0xF0] = { { 110, 114 } },
		[QS_U3_RECORDS - 0xF0] = { { 115, 119 } },
		[QS_U4_RECORDS - 0xF0] = { { 120, 124 } },
		[QS_UA_RECORDS - 0xF0] = { { 100, 124 } },
	};
	if (rec_or_group >= 0 && rec_or_group <= 124) {
		set_range(glb, (unsigned)rec_or_group, (unsigned)rec_or_group, on);
	} else if (rec_or_group >= QS_ALL_RECORDS && rec_or_group <= QS_UA_RECORDS) {
		for (int i = 0; i < 4; i++) {
			unsigned lo = ranges[rec_or_group - 0xF0][i].lo;
			unsigned hi = ranges[rec_or_group - 0xF0][i].hi;
			if (hi == 0)
				break;
			set_range(glb, lo, hi, on);
		}
	} else {
		return -1;
	}
	/* what the target enforces */
	set_range(glb, 0, 0, 1);
	set_range(glb, 54, 54, 1);
	set_range(glb, 58, 70, 1);
	set_range(glb, 125, 127, 0);
	return 0;
}

int qs_loc_filter_set(uint8_t loc[16], int id_or_group, int on)
{
	switch (id_or_group) {
	case QS_ALL_IDS: set_range(loc, 0, 127, on); break;
	case QS_AO_IDS: set_range(loc, 1, 63, on); break;
	case QS_EP_IDS: set_range(loc, 64, 79, on); break;
	case QS_EQ_IDS: set_range(loc, 80, 95, on); break;
	case QS_AP_IDS: set_range(loc, 96, 127, on); break;
	default:
		if (id_or_group < 0 || id_or_group > 127)
			return -1;
		set_range(loc, (unsigned)id_or_group, (unsigned)id_or_group, on);
		break;
	}
	set_range(loc, 0, 0, 1); /* QS-ID 0 is always on */
	return 0;
}
