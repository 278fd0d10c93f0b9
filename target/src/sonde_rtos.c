/*
 * sonde_rtos.c -- the RTOS records (sonde_rtos.h; docs/protocol.md section
 * 4.1): TASK_SWITCH and OBJ_OP on the inline fast path, OBJ_CREATE (rare,
 * variable length) straight through the record writer.
 *
 * The fast path takes at most three bytes of small fields (sonde_fast()),
 * so the one-byte op and object go in as one 16-bit field, and a switch's
 * four bytes as one 32-bit word: one store and one escape pre-test each.
 */
#include "sonde_internal.h"
#include "sonde_rtos.h"

#if SONDE_ENABLED

void sonde_task_switch_w(uint32_t w)
{
	struct sonde_fld f[1] = { { w, 4u, 1u } };

	if (sonde_rec_on(SONDE_REC_TASK_SWITCH))
		sonde_timed(SONDE_REC_TASK_SWITCH, 0, f, 1u);
}

void sonde_task_switch(uint8_t out, uint8_t state, uint8_t obj, uint8_t in)
{
	sonde_task_switch_w((uint32_t)out | (uint32_t)state << 8 | (uint32_t)obj << 16 | (uint32_t)in << 24);
}

/* DATA after ts:  op obj [value] */
void sonde_obj_op(uint8_t op, uint8_t obj)
{
	struct sonde_fld f[1] = { { (uint32_t)op | (uint32_t)obj << 8, 2u, 1u } };

	if (sonde_obj_pass(SONDE_REC_OBJ_OP, obj))
		sonde_timed(SONDE_REC_OBJ_OP, 0, f, 1u);
}

void sonde_obj_op8(uint8_t op, uint8_t obj, uint8_t v)
{
	struct sonde_fld f[2] = { { (uint32_t)op | (uint32_t)obj << 8, 2u, 1u }, { v, 1u, 1u } };

	if (sonde_obj_pass(SONDE_REC_OBJ_OP, obj))
		sonde_timed(SONDE_REC_OBJ_OP, 0, f, 2u);
}

void sonde_obj_op16(uint8_t op, uint8_t obj, uint16_t v)
{
	/* op, obj and v are one little-endian word on the wire */
	struct sonde_fld f[1] = { { (uint32_t)op | (uint32_t)obj << 8 | (uint32_t)v << 16, 4u, 1u } };

	if (sonde_obj_pass(SONDE_REC_OBJ_OP, obj))
		sonde_timed(SONDE_REC_OBJ_OP, 0, f, 1u);
}

void sonde_obj_op32(uint8_t op, uint8_t obj, uint32_t v)
{
	struct sonde_fld f[2] = { { (uint32_t)op | (uint32_t)obj << 8, 2u, 1u }, { v, 4u, 1u } };

	if (sonde_obj_pass(SONDE_REC_OBJ_OP, obj))
		sonde_timed(SONDE_REC_OBJ_OP, 0, f, 2u);
}

/* DATA after ts:  obj kind [capacity in 0, 1, 2 or 4 bytes].  Rare (object
 * creation, INFO), so one out-of-line write instead of four inline fast
 * paths, one per width. */
void sonde_obj_create(uint8_t obj, uint8_t kind, uint32_t cap)
{
	uint8_t d[6];
	size_t n = cap == 0u ? 0u : cap <= 0xFFu ? 1u : cap <= 0xFFFFu ? 2u : 4u;
	SONDE_PORT_CRIT_DECL;

	if (!sonde_obj_pass(SONDE_REC_OBJ_CREATE, obj))
		return;
	d[0] = obj;
	d[1] = kind;
	sonde_st32(d + 2, cap);
	SONDE_PORT_CRIT_ENTER();
	sonde_write(SONDE_REC_OBJ_CREATE, SONDE_W_TIMED, SONDE_PORT_TS(), d, 2u + n, NULL, 0u);
	SONDE_PORT_CRIT_EXIT();
}

#endif /* SONDE_ENABLED */
