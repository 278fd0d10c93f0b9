/*
 * qs_fe.c -- QSPY's front-end packets (qs_fe.h): attach/detach, the
 * target's records and lines to the front-end, QS-RX records and QSPY's
 * own commands from it, the names it sends looked up in the decoder's
 * dictionaries.  Behaviour as QSPY 7.4's, message texts included, so that
 * QUTest scripts see what they see with QSPY.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "qs.h"
#include "qs_fe.h"
#include "qs_tx.h"

#define QS_RX_EVENT_REC 16
#define QS_RX_AO_FILTER_REC 12
#define QS_RX_CURR_OBJ_REC 13
#define QS_RX_COMMAND_REC 1
#define QS_RX_TEST_PROBE_REC 9
#define QS_CMD_GROUP 7 /* the enum group of QS_RX_COMMAND's names (QP >= 7.1.4) */
#define FE_FRAME_MAX (2 * (QS_RECORD_SIZE_MAX + 3) + 1)

void qs_fe_init(struct qs_fe *fe, const struct qs_fe_io *io)
{
	memset(fe, 0, sizeof(*fe));
	fe->io = *io;
}

void qs_fe_set_decoder(struct qs_fe *fe, void *qs_decoder_state)
{
	fe->dec = qs_decoder_state;
}

static void say(struct qs_fe *fe, enum qs_fe_line_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(struct qs_fe *fe, enum qs_fe_line_kind kind, const char *fmt, ...)
{
	char line[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (fe->io.say)
		fe->io.say(fe->io.ctx, kind, line);
	if (kind == QS_FE_LINE_ERR)
		qs_fe_line(fe, -1, kind, line, strlen(line));
}

static void send_short(struct qs_fe *fe, uint8_t id)
{
	if (id >= 128 || (fe->channels & QS_FE_BINARY)) {
		uint8_t p[2] = { ++fe->tx_seq, id };
		fe->pkts_out++;
		fe->io.to_fe(fe->io.ctx, p, sizeof(p));
	}
}

/* Encode rec..payload (p[1..n), p[0] being the front-end's sequence byte)
 * as a QS-RX frame with the next target sequence number, and send it. */
static void to_target(struct qs_fe *fe, const uint8_t *p, size_t n)
{
	uint8_t frame[FE_FRAME_MAX];
	if (n < 2 || n - 2 > QS_RECORD_SIZE_MAX - 3) {
		say(fe, QS_FE_LINE_ERR, "   <COMMS> ERROR    Target packet too big Len=%zu", n);
		return;
	}
	size_t len = hdlc_encode(++fe->target_seq, p[1], p + 2, n - 2, frame);
	fe->frames_to_target++;
	if (fe->io.to_target(fe->io.ctx, frame, len) != 0)
		say(fe, QS_FE_LINE_ERR, "   <COMMS> ERROR    Sending Data to the Target Rec=%d,Len=%d", (int)p[1], (int)len);
}

static void put_le(uint8_t *p, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The name at p[at..n), which the front-end sends NUL-terminated; NULL if
 * it is missing. */
static const char *name_at(uint8_t *p, size_t n, size_t at)
{
	if (at >= n)
		return NULL;
	p[n - 1] = '\0'; /* a name without its NUL is cut by one byte, never read past the packet */
	return (const char *)p + at;
}

/* How a name's entry must be keyed besides its name. */
enum fk { FK_ANY, FK_SIG, FK_GROUP };

/* Key of a name in a map, looked up as QSPY does: the first match in key
 * order, so the smallest; a signal's entry must be for the current state
 * machine or for none (FK_SIG, k2 = the machine), an enum's in its group
 * (FK_GROUP). */
static int find_key(const struct qs_map *m, const char *name, enum fk how, uint64_t k2, uint64_t *key)
{
	int found = 0;
	for (size_t i = 0; i < m->cap; i++) {
		const struct qs_map_ent *e = &m->ent[i];
		if (!e->name || strcmp(e->name, name) != 0)
			continue;
		if ((how == FK_SIG && e->k2 != 0 && e->k2 != k2) || (how == FK_GROUP && e->k2 != k2))
			continue;
		if (!found || e->k1 < *key)
			*key = e->k1;
		found = 1;
	}
	return found;
}

static void send_event(struct qs_fe *fe, struct qs_dec *d, uint8_t *p, size_t n)
{
	unsigned sig_size = d->sz.sig;
	size_t at = 3 + sig_size;
	size_t len = at + 1 < n ? (size_t)p[at] | (size_t)p[at + 1] << 8 : n;
	at += 2 + len;
	if (at + 2 >= n) { /* QSPY's test: the parameters leave no room for a name */
		say(fe, QS_FE_LINE_ERR, "   <F-END> ERROR    command 'SEND_EVENT' incorrect");
		return;
	}
	const char *name = name_at(p, n, at);
	uint64_t sig = 0;
	if (!find_key(&d->dict.sig, name, FK_SIG, fe->have_sm ? fe->sm : ~0ull, &sig) || sig == 0) {
		say(fe, QS_FE_LINE_ERR, "   <F-END> ERROR    Signal Dictionary not found for Sig=%s", name);
		return;
	}
	p[1] = QS_RX_EVENT_REC;
	put_le(p + 3, sig, sig_size);
	to_target(fe, p, at);
}

static void send_obj(struct qs_fe *fe, struct qs_dec *d, uint8_t *p, size_t n)
{
	unsigned obj_size = d->sz.obj;
	size_t at = 3 + obj_size;
	const char *name = name_at(p, n, at);
	uint64_t key = 0;
	if (!name || n < 3 || !find_key(&d->dict.obj, name, FK_ANY, 0, &key)) {
		say(fe, QS_FE_LINE_ERR, "   <F-END> ERROR    Object Dictionary not found for Name=%s", name ? name : "");
		return;
	}
	if (p[1] == QS_FE_SEND_AO_FILTER) {
		p[1] = QS_RX_AO_FILTER_REC;
	} else {
		p[1] = QS_RX_CURR_OBJ_REC;
		switch (p[2]) {
		case QS_SM_OBJ: case QS_AO_OBJ: case QS_SM_AO_OBJ:
			fe->sm = key; /* the signals of events are looked up for it */
			fe->have_sm = 1;
			break;
		case QS_MP_OBJ: case QS_EQ_OBJ: case QS_TE_OBJ: case QS_AP_OBJ:
			break;
		default: /* QSPY says so and sends it anyway */
			say(fe, QS_FE_LINE_ERR, "   <F-END> ERROR    Incorrect Object Kind=%d", p[2]);
			break;
		}
	}
	put_le(p + 3, key, obj_size);
	to_target(fe, p, at);
}

static void send_command(struct qs_fe *fe, struct qs_dec *d, uint8_t *p, size_t n)
{
	size_t at = 2 + 1 + 3 * 4;
	const char *name = name_at(p, n, at);
	uint64_t key = 0;
	/* before QP 7.1.4 commands were named in the user-record dictionary */
	int found = name && (d->version && d->version < 714 ? find_key(&d->dict.usr, name, FK_ANY, 0, &key)
							 : find_key(&d->dict.enm, name, FK_GROUP, QS_CMD_GROUP, &key));
	if (!found) {
		say(fe, QS_FE_LINE_ERR, "   <F-END> ERROR    Command Dictionary not found for Name=%s", name ? name : "");
		return;
	}
	p[1] = QS_RX_COMMAND_REC;
	p[2] = (uint8_t)key;
	to_target(fe, p, at);
}

static void send_probe(struct qs_fe *fe, struct qs_dec *d, uint8_t *p, size_t n)
{
	unsigned fun_size = d->sz.fun;
	size_t at = 2 + 4 + fun_size;
	const char *name = name_at(p, n, at);
	uint64_t key = 0;
	if (!name || !find_key(&d->dict.fun, name, FK_ANY, 0, &key)) {
		say(fe, QS_FE_LINE_ERR, "   <F-END> ERROR    Function Dictionary not found for Name=%s", name ? name : "");
		return;
	}
	p[1] = QS_RX_TEST_PROBE_REC;
	put_le(p + 6, key, fun_size);
	to_target(fe, p, at);
}

static void attach(struct qs_fe *fe, const uint8_t *p, size_t n)
{
	uint8_t ch = n > 2 ? p[2] : QS_FE_BINARY; /* old front-ends send no channels */
	if (fe->channels == 0) {
		char bits[9];
		for (int i = 0; i < 8; i++)
			bits[i] = (char)('0' + ((ch >> (7 - i)) & 1));
		bits[8] = '\0';
		say(fe, QS_FE_LINE_INFO, "   <F-END> Attached Chan=%s", bits);
	}
	fe->channels = ch;
	fe->rx_seq = p[0];
	fe->tx_seq = 0;
	send_short(fe, QS_FE_ATTACH);
}

static void own_packet(struct qs_fe *fe, uint8_t *p, size_t n)
{
	struct qs_dec *d = fe->dec;
	enum qs_fe_action act = n > 2 ? (enum qs_fe_action)p[2] : QS_FE_TOGGLE;
	static const char out_cmd[] = { 'o', 's', 'm', 'g' }; /* TEXT_OUT .. SEQUENCE_OUT */
	fe->cur_rec = p[1];
	switch (p[1]) {
	case QS_FE_ATTACH:
		attach(fe, p, n);
		break;
	case QS_FE_DETACH:
		fe->channels = 0;
		if (n > 2)
			say(fe, QS_FE_LINE_INFO, "   <F-END> Forced EXIT %s", "###################################");
		else
			say(fe, QS_FE_LINE_INFO, "   <F-END> Detached %s", "######################################");
		if (fe->io.detached)
			fe->io.detached(fe->io.ctx, n > 2);
		break;
	case QS_FE_SAVE_DICT:
		if (fe->io.command)
			fe->io.command(fe->io.ctx, 'd', QS_FE_TOGGLE);
		break;
	case QS_FE_TEXT_OUT: case QS_FE_BIN_OUT: case QS_FE_MATLAB_OUT: case QS_FE_SEQUENCE_OUT:
		if (fe->io.command)
			fe->io.command(fe->io.ctx, out_cmd[p[1] - QS_FE_TEXT_OUT], act);
		break;
	case QS_FE_CLEAR_SCREEN:
		if (fe->io.command)
			fe->io.command(fe->io.ctx, 'c', QS_FE_OFF);
		break;
	case QS_FE_SHOW_NOTE:
		if (fe->io.say && n > 3) {
			p[n - 1] = '\0';
			fe->io.say(fe->io.ctx, QS_FE_LINE_NOTE, (const char *)p + 3);
		}
		break;
	case QS_FE_SEND_EVENT: case QS_FE_SEND_AO_FILTER: case QS_FE_SEND_CURR_OBJ:
	case QS_FE_SEND_COMMAND: case QS_FE_SEND_TEST_PROBE:
		if (!d) {
			say(fe, QS_FE_LINE_ERR, "   <F-END> ERROR    no target dictionaries for Rec=%d", (int)p[1]);
			break;
		}
		if (p[1] == QS_FE_SEND_EVENT)
			send_event(fe, d, p, n);
		else if (p[1] == QS_FE_SEND_COMMAND)
			send_command(fe, d, p, n);
		else if (p[1] == QS_FE_SEND_TEST_PROBE)
			send_probe(fe, d, p, n);
		else
			send_obj(fe, d, p, n);
		break;
	default:
		say(fe, QS_FE_LINE_ERR, "   <F-END> ERROR    Unrecognized command Rec=%d", (int)p[1]);
		break;
	}
}

void qs_fe_packet(struct qs_fe *fe, uint8_t *p, size_t n)
{
	if (n < 2)
		return; /* QSPY reads two bytes of any packet; a shorter one is nothing */
	fe->pkts_in++;
	if (fe->channels != 0) {
		uint8_t want = (uint8_t)(fe->rx_seq + 1);
		fe->rx_seq = want;
		if (p[0] != want) {
			say(fe, QS_FE_LINE_ERR, "   <F-END> ERROR    Data Discontinuity Seq=%u->%u", (unsigned)want,
			    (unsigned)p[0]);
			fe->rx_seq = p[0];
		}
	}
	if (p[1] < 128)
		to_target(fe, p, n);
	else
		own_packet(fe, p, n);
}

void qs_fe_target_frame(struct qs_fe *fe, const uint8_t *frame, size_t len)
{
	if (len < 2)
		return;
	uint8_t rec = frame[1];
	fe->cur_rec = rec;
	if (((fe->channels & QS_FE_BINARY) && rec != QS_EMPTY) || (fe->channels && rec == QS_TARGET_INFO)) {
		fe->pkts_out++;
		fe->io.to_fe(fe->io.ctx, frame, len);
	}
	/* a target reset restarts its QS-RX sequence (QSPY_txReset) */
	if (rec == QS_TARGET_INFO && len >= 3) {
		int v8 = (frame[2] & 0x03) == 0x02;
		if (v8 ? (frame[2] >> 6) & 1 : frame[2] != 0)
			qs_fe_target_reset(fe);
	}
}

void qs_fe_line(struct qs_fe *fe, int rec, enum qs_fe_line_kind kind, const char *line, size_t n)
{
	if (!(fe->channels & QS_FE_TEXT) || (kind != QS_FE_LINE_REG && kind != QS_FE_LINE_ERR))
		return;
	uint8_t r = rec < 0 ? fe->cur_rec : (uint8_t)rec;
	/* never forwarded: QS_EMPTY, the dictionaries, TARGET_INFO */
	if (r == QS_EMPTY || r == QS_ENUM_DICT || (r >= QS_SIG_DICT && r <= QS_TARGET_INFO))
		return;
	uint8_t pkt[3 + 1024];
	if (n > sizeof(pkt) - 3)
		n = sizeof(pkt) - 3;
	pkt[0] = ++fe->tx_seq;
	pkt[1] = 0;
	pkt[2] = r;
	memcpy(pkt + 3, line, n);
	fe->pkts_out++;
	fe->io.to_fe(fe->io.ctx, pkt, 3 + n);
}

void qs_fe_target_reset(struct qs_fe *fe)
{
	fe->target_seq = 0;
	fe->have_sm = 0;
}

void qs_fe_close(struct qs_fe *fe)
{
	send_short(fe, QS_FE_DETACH);
	fe->channels = 0;
}
