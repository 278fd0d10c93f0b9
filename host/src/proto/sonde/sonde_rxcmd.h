/*
 * sonde_rxcmd.h -- the host side of the receive channel (docs/protocol.md §9):
 * commands from their command-line words ("glb-filter -LOG", "peek
 * 0x20000000 8") to frames, the names of commands and status codes, and a
 * watcher that picks the target's replies out of the trace stream.  Used
 * by `sonde send` and by the keys of `sonde live`.
 */
#ifndef SONDE_RXCMD_H
#define SONDE_RXCMD_H

#include <stddef.h>
#include <stdint.h>

#include "framers/framer_hdlc.h"

#define RXCMD_DATA_MAX 80   /* the longest DATA: POKE with 64 bytes and an 8-byte address */
#define RXCMD_FRAME_MAX (2 * (RXCMD_DATA_MAX + 3) + 1)

struct rxcmd {
	uint8_t id;                   /* SONDE_CMD_* (or a QS-RX record id) */
	uint8_t data[RXCMD_DATA_MAX];
	size_t n;
	/* QS only: a frame built by qs_tx (already sequenced and escaped) */
	uint8_t qs_frame[RXCMD_FRAME_MAX];
	size_t qs_len;
	int qs_reply;                 /* QS: the record that answers (RX_STATUS, TARGET_INFO, PEEK_DATA), -1 none */
};

/* Parse a Sonde command: words[0] is its name, words[1..n) its arguments.
 * addr_size is the target's address size for peek/poke.  Returns 0, or -1
 * with a one-line reason in why. */
int rxcmd_parse(char *const *words, int n, unsigned addr_size, struct rxcmd *c, char *why, size_t wl);

/* Global filter list -> 16-byte bitmap: words are 'all', 'none', record
 * names (ISR_ENTER), groups (ISR TASK MARK FUNC USER), ids (0x13) or id
 * ranges (0x40-0x4F), each optionally prefixed by '+' (enable, the
 * default) or '-' (disable), applied left to right to a start of "all". */
int rxcmd_glb_list(char *const *words, int n, uint8_t bits[16], char *why, size_t wl);
/* Local filter list -> 32-byte bitmap of object ids 0..255, the same way. */
int rxcmd_loc_list(char *const *words, int n, uint8_t bits[32], char *why, size_t wl);

/* Frame a command with the host's sequence number: returns the bytes in
 * out (RXCMD_FRAME_MAX).  bad_checksum spoils the checksum on purpose (to
 * test a target's receiver). */
size_t rxcmd_frame(const struct rxcmd *c, uint8_t seq, int bad_checksum, uint8_t *out);

/* Words: helpers the QS commands share (proto/qs/qs_rxcmd.c).  Each
 * returns 0, or -1 with a one-line reason in why (parse_u64: -1 only). */
int rxcmd_parse_u64(const char *s, uint64_t max, uint64_t *v); /* decimal or 0x hex, <= max */
int rxcmd_want_args(const char *name, int have, int lo, int hi, char *why, size_t wl);
int rxcmd_number(const char *what, const char *s, uint64_t max, uint64_t *v, char *why, size_t wl);
uint64_t rxcmd_addr_max(unsigned addr_size); /* the largest address of that many bytes */

const char *rxcmd_name(uint8_t id);        /* "GLB_FILTER", or "0x1F" for an unknown one (static buffer) */
const char *rxcmd_status_name(uint8_t st); /* "OK", "OUT_OF_REGION", "APP_0x81" (static buffer) */
/* Command id of a command name ("glb-filter" -> SONDE_CMD_GLB_FILTER), 0 none. */
uint8_t rxcmd_id(const char *name);

/* ---- replies ------------------------------------------------------------- */

/* Watches the raw trace stream for good frames (the host keeps decoding the
 * stream with the chosen decoder; this only looks for replies).  on_frame
 * gets every frame whose checksum is good: SEQ, record id, DATA. */
struct rxwatch {
	struct hdlc_framer f;
	uint8_t buf[1024];
	void (*on_frame)(void *ctx, uint8_t seq, uint8_t id, const uint8_t *data, size_t n);
	void *ctx;
	unsigned addr_size; /* from the latest TARGET_INFO seen (Sonde), default 4 */
	unsigned version;   /* Sonde protocol version of the replies: from the latest
			     * TARGET_INFO seen (1 or 2); before one, what the owner set
			     * (default 2) */
	int info_seen;      /* a TARGET_INFO of version 1 or 2 was seen */
};

void rxwatch_init(struct rxwatch *w, void (*on_frame)(void *, uint8_t, uint8_t, const uint8_t *, size_t),
		  void *ctx);
void rxwatch_feed(struct rxwatch *w, const uint8_t *buf, size_t n);

/* The fields of a Sonde reply record (CMD_STATUS, PEEK_DATA,
 * TARGET_STATS): its DATA without the timestamp field, which is at the
 * start in protocol version 1 and at the end in version 2 (w->version).
 * Other records' DATA is left as it is.  Returns 0, or -1 when the
 * timestamp field cannot be read. */
int rxwatch_fields(const struct rxwatch *w, uint8_t id, const uint8_t **data, size_t *n);

/* A Sonde CMD_STATUS record's fields (rxwatch_fields): returns 0 and fills
 * seq/cmd/status, or -1. */
int rxcmd_status(const uint8_t *fields, size_t n, uint8_t *seq, uint8_t *cmd, uint8_t *status);

#endif /* SONDE_RXCMD_H */
