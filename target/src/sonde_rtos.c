/*
 * sonde_rtos.c -- OBJ_CREATE (sonde_rtos.h; docs/protocol.md section 4.1),
 * the one RTOS record not written inline: it is rare (object creation,
 * INFO) and of variable length, so it goes straight through the record
 * writer instead of adding a fast path for each width.  TASK_SWITCH and
 * OBJ_OP are inline wrappers around the shared record functions
 * (sonde_rtos.h).
 */
#include "sonde_internal.h"
#include "sonde_rtos.h"

#if SONDE_ENABLED

/* DATA:  obj kind [capacity in 0, 1, 2 or 4 bytes] ts */
void sonde_obj_create(uint8_t obj, uint8_t kind, uint32_t cap)
{
	uint8_t d[6];
	size_t n = cap == 0u ? 0u : cap <= 0xFFu ? 1u : cap <= 0xFFFFu ? 2u : 4u;
	SONDE_PORT_CRIT_DECL;

	if (!sonde_obj_rec_on_(SONDE_REC_OBJ_CREATE, obj))
		return;
	d[0] = obj;
	d[1] = kind;
	sonde_st32(d + 2, cap);
	SONDE_PORT_CRIT_ENTER();
	sonde_write(SONDE_REC_OBJ_CREATE, SONDE_W_TIMED, SONDE_PORT_TS(), d, 2u + n, NULL, 0u);
	SONDE_PORT_CRIT_EXIT();
}

#endif /* SONDE_ENABLED */
