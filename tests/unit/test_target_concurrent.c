/*
 * test_target_concurrent.c -- several producer threads and a signal handler
 * (SIGALRM from setitimer, like an ISR) record while a drain thread drains.
 * Afterwards every frame is whole, SEQ is consecutive except where DROPS
 * accounts for the gap, frames received + overwritten == frames written,
 * and the application's records written + refused == attempted, exactly.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <cmocka.h>

#include "sonde.h"
#include "sonde_posix.h"
#include "tgt_frames.h"
#include "../../target/src/sonde_internal.h" /* sonde_g.sys_frames */

#define PRODUCERS 3
#define PER_THREAD 100000

static uint8_t ring[2048];
static uint8_t *wire;
static size_t wire_n, wire_cap;
static atomic_int producing;
static atomic_uint sig_attempts;

static void on_alarm(int sig)
{
	(void)sig;
	atomic_fetch_add(&sig_attempts, 2);
	sonde_isr_enter(200);
	sonde_isr_exit(200);
}

static void *producer(void *arg)
{
	uintptr_t id = (uintptr_t)arg;
	unsigned i;

	for (i = 0; i < PER_THREAD; i++) {
		switch (i % 4) {
		case 0:
			sonde_user_u32x2((uint8_t)(0x40 + id), (uint32_t)i, (uint32_t)id);
			break;
		case 1:
			sonde_task_in((uint8_t)id);
			break;
		case 2:
			if (sonde_user_begin(0x50)) {
				sonde_arg_u32(i);
				sonde_arg_str("concurrent");
				sonde_user_end();
			}
			break;
		default:
			sonde_counter((uint8_t)id, (int32_t)i);
			break;
		}
	}
	return NULL;
}

static void *drainer(void *arg)
{
	(void)arg;
	for (;;) {
		int last = !atomic_load(&producing);
		size_t k = sonde_drain(wire + wire_n, (wire_cap - wire_n) < 700 ? wire_cap - wire_n : 700);

		wire_n += k;
		if (last && k == 0)
			break;
	}
	return NULL;
}

static void run(uint8_t mode)
{
	pthread_t prod[PRODUCERS], dr;
	struct itimerval it = { { 0, 200 }, { 0, 200 } };
	struct sigaction sa;
	struct tgt_frames fr;
	sonde_stats_t st;
	size_t i, gaps = 0, app = 0;
	uint32_t last_ow = 0;
	unsigned attempted;
	uintptr_t t;

	wire_cap = 64u << 20;
	wire = malloc(wire_cap);
	wire_n = 0;
	sonde_posix_set_clock(NULL); /* the real clock */
	sonde_init(ring, sizeof ring, mode);
	atomic_store(&sig_attempts, 0);
	atomic_store(&producing, 1);

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);

	pthread_create(&dr, NULL, drainer, NULL);
	for (t = 0; t < PRODUCERS; t++)
		pthread_create(&prod[t], NULL, producer, (void *)t);
	for (t = 0; t < PRODUCERS; t++)
		pthread_join(prod[t], NULL);

	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, NULL);
	signal(SIGALRM, SIG_IGN);
	atomic_store(&producing, 0);
	pthread_join(dr, NULL);
	wire_n += tgt_drain_all(wire + wire_n, wire_cap - wire_n);

	tgt_parse(wire, wire_n, &fr);
	assert_int_equal(fr.bad, 0);
	assert_int_equal(fr.partial, 0);
	for (i = 0; i < fr.n; i++) {
		size_t gap = i > 0 ? (uint8_t)(fr.f[i].seq - fr.f[i - 1].seq - 1u) : fr.f[0].seq;

		gaps += gap;
		/* cumulative counts never go back (a gap of 256 or more frames,
		 * possible when the drain thread is not scheduled for a while,
		 * looks smaller: only the totals are compared below) */
		if (fr.f[i].id == SONDE_REC_DROPS) {
			assert_true(tgt_le32(fr.f[i].data) >= last_ow);
			last_ow = tgt_le32(fr.f[i].data);
		}
		if (fr.f[i].id >= SONDE_REC_ISR_ENTER)
			app++;
	}
	sonde_get_stats(&st);
	if (getenv("TGT_VERBOSE"))
		fprintf(stderr, "mode %u: frames %u overwritten %u refused %u signals %u\n", mode, st.records,
			st.overwritten, st.refused, atomic_load(&sig_attempts));
	attempted = PRODUCERS * PER_THREAD + atomic_load(&sig_attempts);
	/* frames: received + overwritten == written */
	assert_int_equal(fr.n + st.overwritten, st.records);
	/* the application's records: written + refused == attempted */
	assert_int_equal(st.records - sonde_g.sys_frames + st.refused, attempted);
	if (mode == SONDE_MODE_DROP_NEW) {
		assert_int_equal(st.overwritten, 0);
		assert_int_equal(gaps, 0);
		assert_int_equal(app + st.refused, attempted);
	} else {
		assert_int_equal(st.refused, 0);
		assert_true(gaps <= st.overwritten);
		assert_int_equal((st.overwritten - gaps) % 256, 0);
		assert_true(last_ow <= st.overwritten);
	}
	assert_true(atomic_load(&sig_attempts) > 0);
	tgt_frames_free(&fr);
	free(wire);
}

static void test_drop_new(void **state)
{
	(void)state;
	run(SONDE_MODE_DROP_NEW);
}

static void test_overwrite(void **state)
{
	(void)state;
	run(SONDE_MODE_OVERWRITE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drop_new),
		cmocka_unit_test(test_overwrite),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
