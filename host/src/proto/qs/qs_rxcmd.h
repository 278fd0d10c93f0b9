/*
 * qs_rxcmd.h -- a command to a QP/C target from its command-line words
 * (qs_rxcmd.c).
 */
#ifndef SONDE_QS_RXCMD_H
#define SONDE_QS_RXCMD_H

#include <stddef.h>
#include <stdint.h>

struct rxcmd;

/* words[0] is the command (info, reset, tick, command, glb-filter,
 * loc-filter, curr-obj, peek), words[1..n) its arguments; seq is the QS-RX
 * sequence number the frame carries, obj_size the target's object pointer
 * size.  The frame goes to c->qs_frame.  Returns 0, or -1 with a one-line
 * reason in why. */
int qs_rxcmd_parse(char *const *words, int n, uint8_t seq, unsigned obj_size, struct rxcmd *c, char *why,
		   size_t wl);

#endif /* SONDE_QS_RXCMD_H */
