/*
 * test_target_rx_isr.c -- commands executed "in an ISR": a SIGALRM handler
 * (setitimer) is the one context feeding the parser, a command or part of
 * one per signal, while the main thread records and a second thread drains.
 * The commands change filters, read a region and ask for statistics under
 * the producers' feet.  Afterwards every frame is whole, SEQ runs without a
 * gap (the producer keeps the ring from overflowing), every command got
 * exactly one CMD_STATUS, in order, and every PEEK_DATA holds the region.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/time.h>

#include "sonde_posix.h"
#include "test_target_rx.h"

#define COMMANDS 2000u

static uint8_t ring[65536];
static const uint8_t region[16] = "region-contents";
static uint8_t cmds[6][128];
static size_t cmd_len[6];
static uint8_t *wire;
static size_t wire_n, wire_cap;
static atomic_uint sent, fed_pieces;
static atomic_int draining;

/* Each signal feeds the next piece of the next command (commands are cut
 * in two, so a frame is often split across two "interrupts"). */
static void on_alarm(int sig)
{
	static size_t half;
	unsigned k = atomic_load(&sent);
	const uint8_t *c = cmds[k % 6u];
	size_t n = cmd_len[k % 6u], cut = n / 2;

	(void)sig;
	if (k >= COMMANDS)
		return;
	if (half == 0) {
		sonde_rx_feed(c, cut);
		half = 1;
	} else {
		sonde_rx_feed(c + cut, n - cut);
		half = 0;
		atomic_store(&sent, k + 1);
	}
	atomic_fetch_add(&fed_pieces, 1);
}

static void *drainer(void *arg)
{
	(void)arg;
	while (atomic_load(&draining)) {
		if (wire_n + 4096 > wire_cap) {
			wire_cap = wire_cap ? 2 * wire_cap : 1 << 20;
			wire = realloc(wire, wire_cap);
		}
		wire_n += sonde_drain(wire + wire_n, 4096);
	}
	return NULL;
}

static void test_commands_from_signal(void **state)
{
	uint8_t bm[32], peek[SONDE_ADDR_SIZE + 1];
	uint64_t a = (uint64_t)(uintptr_t)region;
	struct itimerval it = { { 0, 100 }, { 0, 100 } };
	struct sigaction sa;
	sigset_t block;
	pthread_t th;
	struct tgt_frames fr;
	size_t i, k = 0, peeks = 0;
	unsigned n = 0;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, RX_CLOCK);
	sonde_posix_set_clock(NULL); /* real time: the clock moves */
	assert_int_equal(sonde_rx_region(region, sizeof region, SONDE_RX_READ), 0);
	for (i = 0; i < SONDE_ADDR_SIZE; i++, a >>= 8)
		peek[i] = (uint8_t)a;
	peek[SONDE_ADDR_SIZE] = sizeof region;
	memset(bm, 0xFF, sizeof bm);
	cmd_len[0] = hdlc_encode(0, SONDE_CMD_STATS, NULL, 0, cmds[0]);
	bm[0x40 / 8] = 0xFE; /* user record 0x40 off */
	cmd_len[1] = hdlc_encode(1, SONDE_CMD_GLB_FILTER, bm, 16, cmds[1]);
	cmd_len[2] = hdlc_encode(2, SONDE_CMD_PEEK, peek, sizeof peek, cmds[2]);
	memset(bm, 0xFF, sizeof bm);
	cmd_len[3] = hdlc_encode(3, SONDE_CMD_GLB_FILTER, bm, 16, cmds[3]);
	bm[5 / 8] = 0xDF; /* object 5 off */
	cmd_len[4] = hdlc_encode(4, SONDE_CMD_LOC_FILTER, bm, 32, cmds[4]);
	memset(bm, 0xFF, sizeof bm);
	cmd_len[5] = hdlc_encode(5, SONDE_CMD_LOC_FILTER, bm, 32, cmds[5]);

	/* Only the main thread takes the signal: the parser has one context. */
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &block, NULL);
	atomic_store(&draining, 1);
	assert_int_equal(pthread_create(&th, NULL, drainer, NULL), 0);
	pthread_sigmask(SIG_UNBLOCK, &block, NULL);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	while (atomic_load(&sent) < COMMANDS) {
		if (sonde_pending() > sizeof ring / 2)
			continue; /* never overflow: every reply must arrive */
		sonde_user_u32x2(0x40, n, n);
		sonde_isr_enter(5);
		sonde_isr_exit(5);
		sonde_counter(6, (int32_t)n);
		n++;
	}
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, NULL);
	atomic_store(&draining, 0);
	pthread_join(th, NULL);
	wire = realloc(wire, wire_n + sizeof ring);
	wire_n += tgt_drain_all(wire + wire_n, sizeof ring);

	tgt_parse(wire, wire_n, &fr);
	assert_int_equal(fr.bad, 0);
	assert_int_equal(fr.partial, 0);
	for (i = 0; i < fr.n; i++) {
		const struct tgt_frame *f = &fr.f[i];

		assert_int_equal(f->seq, (uint8_t)(3 + i));
		if (f->id == SONDE_REC_PEEK_DATA) {
			assert_int_equal(f->len, SONDE_ADDR_SIZE + 1 + sizeof region + tgt_ts(f, &(uint32_t){ 0 }));
			assert_memory_equal(f->data + 1 + SONDE_ADDR_SIZE, region, sizeof region);
			peeks++;
		}
		if (f->id != SONDE_REC_CMD_STATUS)
			continue;
		assert_int_equal(f->data[0], (uint8_t)(k % 6u));
		assert_int_equal(f->data[2], SONDE_ST_OK);
		k++;
	}
	assert_int_equal(k, COMMANDS);
	assert_int_equal(peeks, (COMMANDS + 3) / 6);
	assert_true(n > 0);
	tgt_frames_free(&fr);
	free(wire);
	assert_int_equal(sonde_rx_region(region, 0, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commands_from_signal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
