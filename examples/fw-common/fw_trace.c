/*
 * fw_trace.c -- the firmware's own account of its trace calls (fw_trace.h).
 */
#include "fw_trace.h"

uint32_t fw_calls[SONDE_REC_COUNT];

void fw_trace_report(void)
{
	sonde_stats_t st;
	unsigned rec;

	sonde_get_stats(&st);
	if (!sonde_user_begin(FW_REC_COUNTS))
		return;
	sonde_arg_u32(st.records);
	sonde_arg_u32(st.overwritten);
	sonde_arg_u32(st.refused);
	sonde_arg_u32(st.bytes);
	for (rec = 0; rec < SONDE_REC_COUNT; rec++) {
		if (fw_calls[rec]) {
			sonde_arg_u8((uint8_t)rec);
			sonde_arg_u32(fw_calls[rec]);
		}
	}
	sonde_user_end();
}
