/*
 * gdb_rsp.h -- the client side of GDB's remote serial protocol, as much as
 * reading and writing a running target's memory needs: packets ($...#cs,
 * escapes, run-length encoding, acknowledgements), the stub's packet size,
 * no-ack mode, interrupting and resuming the target, m/M memory access.
 *
 * Written here because no Debian library offers a GDB client: libgdb does
 * not exist as such, and driving a gdb process over MI would add a
 * dependency and a process for four packet types.
 *
 * All-stop mode only: once the target runs (after 'c'), a stub accepts
 * nothing but the interrupt byte, so memory is read between an interrupt
 * and the next 'c' (gdb_rsp_halt, gdb_rsp_resume).  The pure functions
 * (frame, take, hex) have no I/O and are unit-tested on their own.
 */
#ifndef SONDE_GDB_RSP_H
#define SONDE_GDB_RSP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define GDB_RSP_MAX 16384      /* largest packet payload handled, unescaped */
#define GDB_RSP_TIMEOUT_MS 2000

/* Frame payload[n] as $payload#cs into out (room for 2 * n + 4 bytes):
 * '$', '#', '}' and '*' escaped as '}' then the byte XOR 0x20.  Returns
 * the frame's length. */
size_t gdb_rsp_frame(const char *payload, size_t n, char *out);

/* Look for one packet in in[n]: skips acknowledgements and bytes before a
 * '$'.  Returns 1 with the payload (escapes and run-length encoding
 * undone) in out[*len] when a whole packet is there, 0 when more bytes are
 * needed, -1 when a whole packet is there but its checksum is wrong or it
 * does not fit in cap (*len unset).  *used is the count of bytes consumed
 * (in every case; what it covers need not be looked at again).  *nacks
 * (may be NULL) counts the '-' seen among the skipped bytes. */
int gdb_rsp_take(const uint8_t *in, size_t n, size_t *used, char *out, size_t cap, size_t *len, unsigned *nacks);

/* Hex text of n bytes into out (2 * n characters, no NUL). */
void gdb_rsp_hex(const uint8_t *p, size_t n, char *out);
/* n bytes from 2 * n hex characters; 0, or -1 on a character that is not
 * hex. */
int gdb_rsp_unhex(const char *s, size_t n, uint8_t *out);

/* A stop reply (T, S, W, X, or O console output): the kind letter, or 0
 * when the payload is none of these. */
int gdb_rsp_stop_kind(const char *payload, size_t n);

struct sonde_link;

/* A connection to a stub. */
struct gdb_rsp {
	struct sonde_link *link; /* whose socket this is (its writer is used) */
	int fd;
	int ack;                /* acknowledgements in use (until QStartNoAckMode) */
	size_t max_read;        /* bytes one 'm' may ask for (from PacketSize) */
	size_t max_write;       /* bytes one 'M' may carry */
	int running;            /* 'c' sent, no stop reply since */
	int exited;             /* a W or X stop reply: the target is gone */
	uint8_t in[2 * GDB_RSP_MAX + 64];
	size_t nin;
	char last[2 * GDB_RSP_MAX + 8]; /* the last packet sent, resent on '-' */
	size_t nlast;
	char reply[2 * GDB_RSP_MAX + 1]; /* an 'm' reply */
	char cmd[2 * GDB_RSP_MAX + 64];  /* an 'M' packet */
	uint64_t round_trips;
	char why[256];
};

/* Take over a link's connected socket (non-blocking, l->fd), learn the
 * stub's packet size, leave ack mode if the stub can, and find out whether
 * the target runs.  Returns 0, or -1 with g->why set. */
int gdb_rsp_start(struct gdb_rsp *g, struct sonde_link *l);

/* Stop a running target (interrupt byte, then its stop reply); nothing
 * when it is stopped already.  0, or -1 (why set; exited set if the
 * target is gone). */
int gdb_rsp_halt(struct gdb_rsp *g);
/* Let it run ('c').  0 or -1. */
int gdb_rsp_resume(struct gdb_rsp *g);

/* Read or write n bytes of target memory at addr (the target stopped);
 * any n, split into packets as the stub's size allows.  0 or -1 (why set:
 * an error reply names the address). */
int gdb_rsp_read(struct gdb_rsp *g, uint64_t addr, uint8_t *out, size_t n);
int gdb_rsp_write(struct gdb_rsp *g, uint64_t addr, const uint8_t *p, size_t n);

/* Send one packet and wait for its reply (stop replies that arrive before
 * it are skipped, noting the target's state).  Returns the reply's length
 * in out, or -1. */
ssize_t gdb_rsp_command(struct gdb_rsp *g, const char *payload, char *out, size_t cap);

#endif /* SONDE_GDB_RSP_H */
