/*
 * live_qs.c -- the keys of `sonde live` on a QS stream: QSPY's console
 * keys where they make sense here (docs/live.md, docs/proto-qs.md):
 *
 *   r  RESET to the target        i  INFO (the target sends TARGET_INFO)
 *   t  TICK[0] to the target      u  TICK[1]
 *   d  save the dictionaries (QSPY's qspy<build>.dic, -o qs.dic_save's directory)
 *   g  sequence diagram file on/off (needs -o qs.seq)
 *   x, X, Esc  quit (as q)        h  this list
 *
 * The frames are QS-RX frames (proto/qs/qs_tx.h) with the host's own
 * sequence counter; what is said is QSPY's line for it.
 */
#include <string.h>

#include "live.h"

int live_qs_stream(const struct live *lv)
{
	if (lv->began > 0)
		return strcmp(lv->pipe->dec->name, "qs") == 0;
	return strcmp(lv->proto, "qs") == 0;
}

void live_qs_help(struct live *lv)
{
	const char *space = lv->show_tty ? ", space pause" : "";
	if (sonde_link_writable(&lv->link))
		live_msg(lv, "keys (QSPY's): r reset, i info, t tick 0, u tick 1, d save dictionaries, "
			     "g sequence file on/off%s, h help, q/x/Esc quit", space);
	else
		live_msg(lv, "keys (QSPY's): d save dictionaries, g sequence file on/off%s, h help, q/x/Esc quit "
			     "(%s cannot carry commands)", space, lv->link.name);
}

/* A QS-RX frame to the target, said as QSPY says it. */
static void send_rx(struct live *lv, const char *what, uint8_t rec, uint8_t arg)
{
	if (!sonde_link_writable(&lv->link)) {
		live_msg(lv, "sonde live: %s cannot carry commands", lv->link.name);
		return;
	}
	if (!lv->up) {
		live_msg(lv, "sonde live: %s is down; %s not sent", lv->link.name, what);
		return;
	}
	uint8_t frame[QS_TX_FRAME_MAX];
	size_t n = rec == QS_RX_RESET ? qs_tx_reset(&lv->qs_tx, frame)
		   : rec == QS_RX_INFO ? qs_tx_info(&lv->qs_tx, frame)
				       : qs_tx_tick(&lv->qs_tx, arg, frame);
	int ok = sonde_link_write(&lv->link, frame, n) == 0;
	live_msg(lv, "<USER-> Sending %s to the Target Stat=%s%s%s", what, ok ? "OK" : "ERROR",
		 ok ? "" : ": ", ok ? "" : lv->link.why);
	if (ok && rec == QS_RX_RESET)
		qs_tx_init(&lv->qs_tx, 4); /* QSPY restarts its sequence with the target */
}

/* A command to the decoder (proto/qs/qs_ctl.c). */
static void control(struct live *lv, const char *cmd)
{
	char msg[600];
	sonde_pipe_control(lv->pipe, cmd, msg, sizeof(msg));
	live_msg(lv, "%s", msg);
}

int live_qs_key(struct live *lv, char key)
{
	switch (key) {
	case 'r': send_rx(lv, "RESET", QS_RX_RESET, 0); return 1;
	case 'i': send_rx(lv, "INFO", QS_RX_INFO, 0); return 1;
	case 't': send_rx(lv, "TICK-0", QS_RX_TICK, 0); return 1;
	case 'u': send_rx(lv, "TICK-1", QS_RX_TICK, 1); return 1;
	case 'd': control(lv, "dict"); return 1;
	case 'g': control(lv, "seq"); return 1;
	case 'h':
	case '?':
		live_qs_help(lv);
		return 1;
	case 'x':
	case 'X':
	case '\x1b':
		lv->stop = 1;
		lv->user_stop = 1;
		return 1;
	default:
		return 0; /* q, space: as for every stream */
	}
}
