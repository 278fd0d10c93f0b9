/*
 * rtt_flood.c -- the debug-probe transport at full speed: records as fast
 * as the host takes them through the RTT up buffer (sonde_rtt.h), for the
 * throughput and host-CPU figures of docs/performance.md (scripts/bench.sh)
 * and the end-to-end test of a lossless transfer.
 *
 * FLOOD_RECORDS user records 0x40 (u32 index, u32 its complement), each
 * written only when Sonde's ring has room for it (the ring refuses none:
 * the host sets the pace), the up buffer filled between them; then
 * FW_COUNTS (fw_trace.h), everything read by the host, and exit.  No
 * interrupts: the loop is the only context.
 */
#include <stdint.h>

#include "board.h"
#include "fw_trace.h"
#include "sonde.h"
#include "sonde_rtt.h"

#ifndef FLOOD_RECORDS
#define FLOOD_RECORDS 100000u
#endif

/* Room a record may need in the ring: the record and a TIME_SYNC before
 * it, every byte escaped, and the fast path's word stores past the end
 * (sonde_internal.h). */
#define FLOOD_ROOM 128u

static uint8_t ring[8192];

int main(void)
{
	uint32_t i;

	board_init();
	sonde_init(ring, sizeof ring, SONDE_MODE_DROP_NEW);
	fw_dict(SONDE_DICT_RECORD, SONDE_REC_USER_FIRST, "FLOOD(index,complement)");
	fw_dict(SONDE_DICT_RECORD, FW_REC_COUNTS, "FW_COUNTS");
	sonde_rtt_init();
	for (i = 0; i < FLOOD_RECORDS; i++) {
		while (sonde_pending() > sizeof ring - FLOOD_ROOM)
			sonde_rtt_drain();
		fw_user_u32x2(SONDE_REC_USER_FIRST, i, ~i);
		if ((i & 15u) == 0)
			sonde_rtt_drain();
	}
	fw_trace_report();
	while (sonde_pending() > 0 || sonde_rtt_unread() > 0)
		sonde_rtt_drain();
	board_exit(0);
}

void app_fault(uint32_t pc, uint32_t cause)
{
	(void)pc;
	(void)cause;
	board_exit(2);
}
