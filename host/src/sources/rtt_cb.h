/*
 * rtt_cb.h -- the host's knowledge of an RTT control block in a 32-bit
 * target's memory (the layout SEGGER documented; target/include/
 * sonde_rtt.h shows it): where its descriptors are, whether bytes read from
 * it make a valid block, how much a ring holds.  Pure functions of bytes,
 * no I/O: the GDB link (link_gdb.c) reads the bytes.
 */
#ifndef SONDE_RTT_CB_H
#define SONDE_RTT_CB_H

#include <stddef.h>
#include <stdint.h>

#define RTT_ID "SEGGER RTT"
#define RTT_ID_SIZE 16
#define RTT_HDR_SIZE 24     /* id, up count, down count */
#define RTT_DESC_SIZE 24    /* name, buffer, size, write, read, flags */
#define RTT_MAX_BUFFERS 64  /* more up or down buffers than this: not a control block */
#define RTT_MAX_SIZE (64u << 20)

struct rtt_desc {
	uint32_t addr;          /* where the descriptor is */
	uint32_t name, buf, size, wr, rd, flags;
};

/* Offset of up buffer i (up) or down buffer i (!up) from the block's start,
 * with max_up up buffers. */
uint32_t rtt_desc_offset(int up, uint32_t i, uint32_t max_up);

/* The block's header from its first RTT_HDR_SIZE bytes: 0 with the counts,
 * or -1 with a reason (no id, counts out of range). */
int rtt_parse_header(const uint8_t *p, uint32_t *max_up, uint32_t *max_down, char *why, size_t wl);

/* A descriptor from its 24 bytes (at addr): 0, or -1 with a reason when it
 * cannot describe a ring (no buffer, size out of range, an offset outside
 * it). */
int rtt_parse_desc(const uint8_t *p, uint32_t addr, struct rtt_desc *d, char *why, size_t wl);

/* Bytes the ring holds, and bytes a writer may add. */
uint32_t rtt_used(const struct rtt_desc *d);
uint32_t rtt_room(const struct rtt_desc *d);

/* The first offset in p[n] where the id (with its NUL) starts, or n. */
size_t rtt_find_id(const uint8_t *p, size_t n);

uint32_t rtt_le32(const uint8_t *p);
void rtt_put_le32(uint8_t *p, uint32_t v);

#endif /* SONDE_RTT_CB_H */
