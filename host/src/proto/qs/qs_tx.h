/*
 * qs_tx.h -- QS-RX: frames the host sends to a QS target (QSPY's TX side).
 *
 * Same framing as the trace stream (SEQ, record id, payload, checksum, 0x7E;
 * every byte including the record id escaped), with the host's own sequence
 * counter: the target expects 1 for the first frame after its RX init and
 * +1 after that.  Each builder writes one complete frame into out (at least
 * QS_TX_FRAME_MAX bytes) and returns its length.  Multi-byte values are
 * little-endian; object and function addresses and signals take the sizes
 * the target reported in TARGET_INFO.
 */
#ifndef SONDE_QS_TX_H
#define SONDE_QS_TX_H

#include <stddef.h>
#include <stdint.h>

#define QS_TX_FRAME_MAX 80 /* the longest frame below (GLB_FILTER), escaped */

/* QS-RX record ids (QS 7.4). */
enum qs_rx_rec {
	QS_RX_INFO, QS_RX_COMMAND, QS_RX_RESET, QS_RX_TICK, QS_RX_PEEK, QS_RX_POKE,
	QS_RX_FILL, QS_RX_TEST_SETUP, QS_RX_TEST_TEARDOWN, QS_RX_TEST_PROBE,
	QS_RX_GLB_FILTER, QS_RX_LOC_FILTER, QS_RX_AO_FILTER, QS_RX_CURR_OBJ,
	QS_RX_TEST_CONTINUE, QS_RX_QUERY_CURR, QS_RX_EVENT
};

/* Object kinds of CURR_OBJ and QUERY_CURR. */
enum qs_obj_kind { QS_SM_OBJ, QS_AO_OBJ, QS_MP_OBJ, QS_EQ_OBJ, QS_TE_OBJ, QS_AP_OBJ, QS_SM_AO_OBJ };

struct qs_tx {
	uint8_t seq;      /* sequence number of the last frame built */
	uint8_t obj_size; /* bytes of an object address */
};

/* seq restarts at 1 with the next frame (after a target reset, as QSPY does). */
void qs_tx_init(struct qs_tx *tx, unsigned obj_size);

size_t qs_tx_frame(struct qs_tx *tx, uint8_t rec, const uint8_t *payload, size_t n, uint8_t *out);

size_t qs_tx_info(struct qs_tx *tx, uint8_t *out);  /* target answers with TARGET_INFO */
size_t qs_tx_reset(struct qs_tx *tx, uint8_t *out); /* target resets */
size_t qs_tx_tick(struct qs_tx *tx, uint8_t rate, uint8_t *out);
size_t qs_tx_command(struct qs_tx *tx, uint8_t cmd, uint32_t p1, uint32_t p2, uint32_t p3, uint8_t *out);
/* glb/loc: 16-byte bitmaps, bit n of byte n/8 = record n / QS-ID n */
size_t qs_tx_glb_filter(struct qs_tx *tx, const uint8_t glb[16], uint8_t *out);
size_t qs_tx_loc_filter(struct qs_tx *tx, const uint8_t loc[16], uint8_t *out);
/* size 1, 2 or 4; needs a current application object (qs_tx_curr_obj) */
size_t qs_tx_peek(struct qs_tx *tx, uint16_t offs, uint8_t size, uint8_t num, uint8_t *out);
size_t qs_tx_curr_obj(struct qs_tx *tx, enum qs_obj_kind kind, uint64_t addr, uint8_t *out);
size_t qs_tx_query_curr(struct qs_tx *tx, enum qs_obj_kind kind, uint8_t *out);
/* add (1) or remove (0) an active object from the local filter */
size_t qs_tx_ao_filter(struct qs_tx *tx, int add, uint64_t addr, uint8_t *out);

/* Global-filter groups (the target API's QS_*_RECORDS values). */
enum qs_glb_group {
	QS_ALL_RECORDS = 0xF0, QS_SM_RECORDS, QS_AO_RECORDS, QS_EQ_RECORDS, QS_MP_RECORDS,
	QS_TE_RECORDS, QS_QF_RECORDS, QS_SC_RECORDS, QS_SEM_RECORDS, QS_MTX_RECORDS,
	QS_U0_RECORDS, QS_U1_RECORDS, QS_U2_RECORDS, QS_U3_RECORDS, QS_U4_RECORDS, QS_UA_RECORDS
};

/* Switch a record (0..124) or a group on or off in glb, then apply what the
 * target applies on receipt: the non-maskable records (0, 54, 58..70) stay
 * on, 125..127 stay off.  Returns 0, or -1 for an invalid record/group. */
int qs_glb_filter_set(uint8_t glb[16], int rec_or_group, int on);

/* Local-filter groups (QS 7.4 values; 8.x renumbered them, but on the wire
 * the filter is always the 128-bit bitmap). */
enum qs_loc_group {
	QS_AO_IDS = 0x80,  /* 1..63: active objects by priority */
	QS_EP_IDS = 0xC0,  /* 64..79: event pools */
	QS_EQ_IDS = 0xD0,  /* 80..95: event queues */
	QS_AP_IDS = 0xE0,  /* 96..127: application objects */
	QS_ALL_IDS = 0xF0  /* 0..127 */
};

/* Switch a QS-ID (0..127) or a group on or off in loc; QS-ID 0 stays on.
 * Returns 0, or -1 for an invalid id/group. */
int qs_loc_filter_set(uint8_t loc[16], int id_or_group, int on);

#endif /* SONDE_QS_TX_H */
