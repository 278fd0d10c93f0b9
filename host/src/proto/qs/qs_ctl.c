/*
 * qs_ctl.c -- what the QS decoder does on request while it decodes
 * (sonde_decoder_ops.control): QSPY's own commands that act on the decode,
 * as its keys 'd' and 'g' and its front-end packets QSPY_SAVE_DICT and
 * QSPY_SEQUENCE_OUT do:
 *
 *   "dict"     write the dictionaries now (qs_dicwrite.c)
 *   "seq"      sequence diagram file: close it if open, else open a new one
 *   "seq-on"   open a new one (closing the one open)
 *   "seq-off"  close it
 *
 * The answer is QSPY's message, in msg.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "qs.h"
#include "qs_seq.h"

static int seq_cmd(struct qs_dec *d, const char *how, char *msg, size_t cap)
{
	if (!d->seq) {
		snprintf(msg, cap, "Sequence list NOT provided (no -g option)");
		return -1;
	}
	int was_open = qs_seq_path(d->seq) != NULL;
	int rc = 0;
	if (was_open && qs_seq_close(d->seq) != 0)
		rc = -1; /* a write error: said, and the file is closed all the same */
	int err = errno;
	if (strcmp(how, "on") == 0 || (strcmp(how, "toggle") == 0 && !was_open)) {
		char path[64];
		qs_seq_default_path(path, sizeof(path));
		if (qs_seq_open(d->seq, path) != 0) {
			snprintf(msg, cap, "Cannot open File=%s for writing: %s", path, strerror(errno));
			return -1;
		}
	}
	const char *now = qs_seq_path(d->seq);
	if (rc != 0)
		snprintf(msg, cap, "Sequence Output [g] File=%s (the file closed had a write error: %s)",
			 now ? now : "OFF", strerror(err));
	else
		snprintf(msg, cap, "Sequence Output [g] File=%s", now ? now : "OFF");
	return rc;
}

int qs_control(void *p, const char *cmd, char *msg, size_t cap)
{
	struct qs_dec *d = p;
	if (strcmp(cmd, "dict") == 0)
		return qs_dic_write(d, d->dic_save, msg, cap);
	if (strcmp(cmd, "seq") == 0)
		return seq_cmd(d, "toggle", msg, cap);
	if (strcmp(cmd, "seq-on") == 0)
		return seq_cmd(d, "on", msg, cap);
	if (strcmp(cmd, "seq-off") == 0)
		return seq_cmd(d, "off", msg, cap);
	snprintf(msg, cap, "unknown command '%s' (the qs decoder takes dict, seq, seq-on, seq-off)", cmd);
	return -2;
}
