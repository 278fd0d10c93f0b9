/*
 * qs_rxcmd.c -- commands to a QP/C target (QS-RX records, built with
 * qs_tx.h) from their command-line words, for `sonde send --qs` and the
 * keys of `sonde live` (qs_rxcmd.h).  The word helpers and struct rxcmd
 * are the Sonde receive channel's (proto/sonde/sonde_rxcmd.h).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "proto/sonde/sonde_rxcmd.h"
#include "qs_rxcmd.h"
#include "qs_tx.h"

static const struct {
	const char *name;
	int value;
} qs_glb_groups[] = {
	{ "ALL", QS_ALL_RECORDS }, { "SM", QS_SM_RECORDS },   { "AO", QS_AO_RECORDS },   { "EQ", QS_EQ_RECORDS },
	{ "MP", QS_MP_RECORDS },   { "TE", QS_TE_RECORDS },   { "QF", QS_QF_RECORDS },   { "SC", QS_SC_RECORDS },
	{ "SEM", QS_SEM_RECORDS }, { "MTX", QS_MTX_RECORDS }, { "U0", QS_U0_RECORDS },   { "U1", QS_U1_RECORDS },
	{ "U2", QS_U2_RECORDS },   { "U3", QS_U3_RECORDS },   { "U4", QS_U4_RECORDS },   { "UA", QS_UA_RECORDS },
}, qs_loc_groups[] = {
	{ "ALL", QS_ALL_IDS }, { "AO", QS_AO_IDS }, { "EP", QS_EP_IDS }, { "EQ", QS_EQ_IDS }, { "AP", QS_AP_IDS },
};

static int qs_filter(char *const *w, int n, uint8_t bits[16], int glb, char *why, size_t wl)
{
	if (n == 0) {
		snprintf(why, wl, "the filter needs a list (e.g. 'all', 'none', '-SM +U0')");
		return -1;
	}
	int (*set)(uint8_t *, int, int) = glb ? qs_glb_filter_set : qs_loc_filter_set;
	int all = glb ? QS_ALL_RECORDS : QS_ALL_IDS;
	memset(bits, 0, 16);
	set(bits, all, 1);
	for (int i = 0; i < n; i++) {
		const char *t = w[i];
		int on = 1;
		if (strcasecmp(t, "none") == 0) {
			set(bits, all, 0);
			continue;
		}
		if (*t == '+' || *t == '-') {
			on = *t == '+';
			t++;
		}
		int value = -1;
		uint64_t x;
		if (rxcmd_parse_u64(t, 127, &x) == 0)
			value = (int)x;
		size_t ng = glb ? sizeof(qs_glb_groups) / sizeof(qs_glb_groups[0])
				: sizeof(qs_loc_groups) / sizeof(qs_loc_groups[0]);
		for (size_t k = 0; value < 0 && k < ng; k++) {
			const char *name = glb ? qs_glb_groups[k].name : qs_loc_groups[k].name;
			if (strcasecmp(name, t) == 0)
				value = glb ? qs_glb_groups[k].value : qs_loc_groups[k].value;
		}
		if (value < 0 || set(bits, value, on) != 0) {
			snprintf(why, wl, glb ? "'%s' is not a QS record (0..124) or group (ALL SM AO EQ MP TE QF SC SEM MTX U0..U4 UA)"
					      : "'%s' is not a QS-ID (0..127) or group (ALL AO EP EQ AP)",
				 w[i]);
			return -1;
		}
	}
	return 0;
}

int qs_rxcmd_parse(char *const *w, int n, uint8_t seq, unsigned obj_size, struct rxcmd *c, char *why, size_t wl)
{
	memset(c, 0, sizeof(*c));
	if (n < 1) {
		snprintf(why, wl, "no command given");
		return -1;
	}
	struct qs_tx tx;
	qs_tx_init(&tx, obj_size);
	tx.seq = (uint8_t)(seq - 1); /* the builders pre-increment */
	const char *cmd = w[0];
	int na = n - 1;
	char *const *a = w + 1;
	uint64_t v[4] = { 0, 0, 0, 0 };
	uint8_t bits[16];
	c->qs_reply = 66; /* QS_RX_STATUS */
	if (strcmp(cmd, "info") == 0) {
		if (rxcmd_want_args(cmd, na, 0, 0, why, wl) != 0)
			return -1;
		c->id = QS_RX_INFO;
		c->qs_reply = 64; /* QS_TARGET_INFO */
		c->qs_len = qs_tx_info(&tx, c->qs_frame);
	} else if (strcmp(cmd, "reset") == 0) {
		if (rxcmd_want_args(cmd, na, 0, 0, why, wl) != 0)
			return -1;
		c->id = QS_RX_RESET;
		c->qs_reply = -1; /* the target resets instead of answering */
		c->qs_len = qs_tx_reset(&tx, c->qs_frame);
	} else if (strcmp(cmd, "tick") == 0) {
		if (rxcmd_want_args(cmd, na, 0, 1, why, wl) != 0 || (na && rxcmd_number("rate", a[0], 255, &v[0], why, wl) != 0))
			return -1;
		c->id = QS_RX_TICK;
		c->qs_len = qs_tx_tick(&tx, (uint8_t)v[0], c->qs_frame);
	} else if (strcmp(cmd, "command") == 0) {
		if (rxcmd_want_args(cmd, na, 1, 4, why, wl) != 0 || rxcmd_number("command", a[0], 255, &v[0], why, wl) != 0)
			return -1;
		uint64_t p[3] = { 0, 0, 0 };
		for (int i = 1; i < na; i++)
			if (rxcmd_number("argument", a[i], UINT32_MAX, &p[i - 1], why, wl) != 0)
				return -1;
		c->id = QS_RX_COMMAND;
		c->qs_len = qs_tx_command(&tx, (uint8_t)v[0], (uint32_t)p[0], (uint32_t)p[1], (uint32_t)p[2], c->qs_frame);
	} else if (strcmp(cmd, "glb-filter") == 0 || strcmp(cmd, "loc-filter") == 0) {
		int glb = cmd[0] == 'g';
		if (qs_filter(a, na, bits, glb, why, wl) != 0)
			return -1;
		c->id = glb ? QS_RX_GLB_FILTER : QS_RX_LOC_FILTER;
		c->qs_len = glb ? qs_tx_glb_filter(&tx, bits, c->qs_frame) : qs_tx_loc_filter(&tx, bits, c->qs_frame);
	} else if (strcmp(cmd, "curr-obj") == 0) {
		/* the application object that peek reads from */
		if (rxcmd_want_args(cmd, na, 1, 1, why, wl) != 0 ||
		    rxcmd_number("address", a[0], rxcmd_addr_max(obj_size), &v[0], why, wl) != 0)
			return -1;
		c->id = QS_RX_CURR_OBJ;
		c->qs_len = qs_tx_curr_obj(&tx, QS_AP_OBJ, v[0], c->qs_frame);
	} else if (strcmp(cmd, "peek") == 0) {
		if (rxcmd_want_args(cmd, na, 3, 3, why, wl) != 0 || rxcmd_number("offset", a[0], 0xFFFF, &v[0], why, wl) != 0 ||
		    rxcmd_number("size", a[1], 4, &v[1], why, wl) != 0 || rxcmd_number("count", a[2], 255, &v[2], why, wl) != 0)
			return -1;
		if (v[1] != 1 && v[1] != 2 && v[1] != 4) {
			snprintf(why, wl, "peek item size must be 1, 2 or 4");
			return -1;
		}
		c->id = QS_RX_PEEK;
		c->qs_reply = 68; /* QS_PEEK_DATA, or an RX_STATUS error */
		c->qs_len = qs_tx_peek(&tx, (uint16_t)v[0], (uint8_t)v[1], (uint8_t)v[2], c->qs_frame);
	} else {
		snprintf(why, wl, "unknown QS command '%s' (info, reset, tick, command, glb-filter, loc-filter, curr-obj, peek)",
			 cmd);
		return -1;
	}
	if (c->qs_len == 0) {
		snprintf(why, wl, "the frame does not fit");
		return -1;
	}
	return 0;
}
