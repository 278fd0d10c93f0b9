/*
 * test_miniprof_host.c -- one command/answer exchange with a device
 * (mp_host_exchange), the test playing the device on the master side of a
 * pty: the command's bytes on the wire, the answer found after PROFILE_DATA
 * and garbage, the end of a packet sent before the host listened not
 * counted as an error, bytes after the answer left alone, NACK, no answer,
 * the raw copy, and the link going away.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <poll.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

#include "proto/miniprof/mp_host.h"
#include "proto/miniprof/mp_link.h"
#include "sources/link_serial.h"

struct dev {
	int master;
	struct mp_link *l;
	struct mp_host h;
};

static void dev_open(struct dev *d, unsigned timeout_ms, FILE *raw)
{
	struct link_serial_cfg c;
	struct termios t;
	char name[128], err[600];
	int slave;

	assert_int_equal(openpty(&d->master, &slave, name, NULL, NULL), 0);
	close(slave);
	assert_int_equal(tcgetattr(d->master, &t), 0);
	cfmakeraw(&t);
	assert_int_equal(tcsetattr(d->master, TCSANOW, &t), 0);
	link_serial_cfg_init(&c);
	strcpy(c.path, name);
	d->l = mp_link_open_serial(&c, err, sizeof(err));
	if (!d->l)
		fail_msg("%s", err);
	mp_host_init(&d->h, d->l, NULL, timeout_ms, raw, "raw");
}

static void dev_close(struct dev *d)
{
	mp_link_close(d->l);
	if (d->master >= 0)
		close(d->master);
}

/* The device queues its bytes before the host sends: they are read after. */
static void dev_send(struct dev *d, const uint8_t *p, size_t n)
{
	assert_int_equal(write(d->master, p, n), (ssize_t)n);
}

static size_t rsp(uint8_t *out, unsigned type, const uint8_t *p, size_t n)
{
	size_t k = mp_rsp_encode(out, 512, NULL, type, p, n);

	assert_int_not_equal(k, 0);
	return k;
}

/* What the host sent: exactly one command packet. */
static void expect_command(struct dev *d, unsigned cmd)
{
	uint8_t want[MP_CMD_LEN], got[64];
	struct pollfd pfd = { d->master, POLLIN, 0 };
	ssize_t n;

	mp_cmd_encode(want, cmd, NULL, 0);
	assert_int_equal(poll(&pfd, 1, 2000), 1);
	n = read(d->master, got, sizeof(got));
	assert_int_equal(n, MP_CMD_LEN);
	assert_memory_equal(got, want, MP_CMD_LEN);
}

struct seen {
	unsigned types[16];
	size_t n;
	int diag_codes[16];
	uint64_t diag_offsets[16];
	size_t nd;
};

static void on_packet(void *ctx, const struct mp_packet *pk)
{
	struct seen *s = ctx;

	assert_true(s->n < 16);
	s->types[s->n++] = pk->type;
}

static void on_diag(void *ctx, const struct sonde_diag *g)
{
	struct seen *s = ctx;

	assert_true(s->nd < 16);
	s->diag_codes[s->nd] = g->code;
	s->diag_offsets[s->nd++] = g->offset;
}

static const uint8_t status[MP_STATUS_LEN] = { 1, 0, 0, 0, 0, 80, 0, 0, 0, 12 };

static void test_answer_after_stream(void **state)
{
	static const uint8_t tail[] = { 0x01, 0x00, 0x08, 0x0A }, noise[] = { 0x13, 0x37 };
	uint8_t b[512], rec[3 + 14] = { 1, 1, 0 };
	struct seen s = { { 0 }, 0, { 0 }, { 0 }, 0 };
	struct mp_parser_cb cb = { on_packet, on_diag, &s };
	struct dev d;
	size_t n = 0;
	FILE *raw = tmpfile();

	(void)state;
	assert_non_null(raw);
	dev_open(&d, 2000, raw);
	/* the end of a packet, a PROFILE_DATA, garbage, the answer, then more */
	memcpy(b, tail, sizeof(tail));
	n = sizeof(tail);
	n += rsp(b + n, MP_RSP_PROFILE_DATA, rec, sizeof(rec));
	memcpy(b + n, noise, sizeof(noise));
	n += sizeof(noise);
	n += rsp(b + n, MP_RSP_STATUS, status, sizeof(status));
	size_t answer_end = n;
	n += rsp(b + n, MP_RSP_ACK, NULL, 0);
	dev_send(&d, b, n);
	assert_int_equal(mp_host_exchange(&d.h, MP_CMD_STATUS, MP_RSP_STATUS, &cb), MP_XCHG_ANSWER);
	expect_command(&d, MP_CMD_STATUS);
	/* PROFILE_DATA then STATUS; the ACK after it is not given */
	assert_int_equal(s.n, 2);
	assert_int_equal(s.types[0], MP_RSP_PROFILE_DATA);
	assert_int_equal(s.types[1], MP_RSP_STATUS);
	/* the garbage between packets is reported, the tail at 0 is not */
	assert_int_equal(s.nd, 1);
	assert_int_equal(s.diag_codes[0], SONDE_D_GARBAGE);
	assert_int_equal(s.diag_offsets[0], sizeof(tail) + 8 + sizeof(rec));
	/* the raw copy holds every byte read (at least up to the answer) */
	assert_true(d.h.received >= answer_end);
	assert_int_equal((uint64_t)ftell(raw), d.h.received);
	rewind(raw);
	uint8_t back[512];
	assert_int_equal(fread(back, 1, answer_end, raw), answer_end);
	assert_memory_equal(back, b, answer_end);
	dev_close(&d);
	fclose(raw);
}

static void test_nack_and_timeout(void **state)
{
	struct seen s = { { 0 }, 0, { 0 }, { 0 }, 0 };
	struct mp_parser_cb cb = { on_packet, on_diag, &s };
	struct dev d;
	uint8_t b[16];

	(void)state;
	dev_open(&d, 100, NULL);
	dev_send(&d, b, rsp(b, MP_RSP_NACK, NULL, 0));
	assert_int_equal(mp_host_exchange(&d.h, MP_CMD_RESET, MP_RSP_ACK, &cb), MP_XCHG_NACK);
	expect_command(&d, MP_CMD_RESET);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.types[0], MP_RSP_NACK);
	/* nothing comes */
	assert_int_equal(mp_host_exchange(&d.h, MP_CMD_METADATA, MP_RSP_METADATA, &cb), MP_XCHG_TIMEOUT);
	expect_command(&d, MP_CMD_METADATA);
	/* an ACK does not answer GET_METADATA */
	dev_send(&d, b, rsp(b, MP_RSP_ACK, NULL, 0));
	assert_int_equal(mp_host_exchange(&d.h, MP_CMD_METADATA, MP_RSP_METADATA, &cb), MP_XCHG_TIMEOUT);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.types[1], MP_RSP_ACK);
	assert_int_equal(s.nd, 0);
	/* the device goes away */
	close(d.master);
	d.master = -1;
	assert_int_equal(mp_host_exchange(&d.h, MP_CMD_STATUS, MP_RSP_STATUS, &cb), MP_XCHG_IO);
	assert_int_equal(strncmp(d.h.err, "cannot send GET_STATUS: '/dev/pts/", 34), 0);
	dev_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_answer_after_stream),
		cmocka_unit_test(test_nack_and_timeout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
