/*
 * sonde_cmd.h -- between the receive channel's frame parser (sonde_rx.c)
 * and its command execution (sonde_cmd.c).  Not a public header.
 */
#ifndef SONDE_CMD_H
#define SONDE_CMD_H

#include <stddef.h>
#include <stdint.h>

/* Run the command of a frame whose checksum is good and write its reply.
 * f[0] is SEQ, f[1] the command id, f[2..n) the DATA (the checksum is not
 * included); n >= 2. */
void sonde_cmd_exec(const uint8_t *f, size_t n);

/* Answer a frame the parser refused as a whole (SONDE_ST_TOO_LONG,
 * SONDE_ST_BAD_CHECKSUM): one CMD_STATUS, nothing else done. */
void sonde_cmd_status(uint8_t seq, uint8_t cmd, uint8_t status);

#endif /* SONDE_CMD_H */
