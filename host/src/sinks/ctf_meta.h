/*
 * ctf_meta.h -- the TSDL metadata of the CTF 1.8 export (sink_ctf.c) and
 * the binary layout it declares, which ctf_stream.c and sink_ctf.c write:
 *
 *   packet header   u32 magic 0xC1FC1FC1, u32 stream_id (0)
 *   packet context  u64 packet_size, u64 content_size (bits), u64
 *                   timestamp_begin, u64 timestamp_end (ticks), u64
 *                   events_discarded, u64 packet_seq_num, u32 cpu_id
 *   event header    u16 id (the event kind, CTF_DIAG_ID for a decoder
 *                   diagnostic), u64 timestamp (ticks)
 *   event context   u64 index, u64 ts, u8 ts_valid, u8 estimated, u32
 *                   rec_id, string record, u32 flags, u64 offset, u64
 *                   frame, u32 seq
 *   event payload   per kind (ctf_meta.c), then u32 nargs and the
 *                   arguments: string name, u8 type, the value (a variant
 *                   on the type), string resolved, u32 group
 *
 * Everything is little-endian and byte-aligned (no padding anywhere).
 */
#ifndef SONDE_CTF_META_H
#define SONDE_CTF_META_H

#include <stdint.h>
#include <stdio.h>

#include "event.h"

#define CTF_MAGIC 0xC1FC1FC1u
#define CTF_DIAG_ID SONDE_EV_KIND_COUNT /* the event class of diagnostics */
#define CTF_PACKET_PREFIX (8u + 52u)     /* header + context, bytes */

/* What the metadata says of the session. */
struct ctf_meta_info {
	const struct sonde_session *session; /* may be NULL */
	uint64_t records, diagnostics;
	uint32_t streams;
};

/* Write the metadata text; 0, or -1 on a write error. */
int ctf_meta_write(FILE *f, const struct ctf_meta_info *mi);

#endif /* SONDE_CTF_META_H */
