/*
 * test_target_drain.c -- the transport side: sonde_drain in any chunk size,
 * sonde_drain_byte, sonde_pending, the byte count, and draining across the
 * end of the ring.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sonde.h"
#include "tgt_frames.h"

static uint8_t ring[256];

/* The same records drained in chunks of 1..40 bytes or byte by byte give
 * the same bytes; pending counts down to 0; stats.bytes counts them all. */
static void test_chunks(void **state)
{
	uint8_t ref[4096], got[4096];
	size_t nref = 0, step;

	(void)state;
	for (step = 0; step <= 40; step++) {
		size_t n = 0, k;
		int i;
		sonde_stats_t st;

		tgt_setup(ring, sizeof ring, SONDE_MODE_DROP_NEW, 0x1000);
		for (i = 0; i < 10; i++) {
			sonde_user_u32x2(0x40, (uint32_t)i, 0x7E7Eu);
			sonde_isr_enter((uint8_t)i);
		}
		k = sonde_pending();
		assert_true(k > 0);
		if (step == 0) {
			int b;

			while ((b = sonde_drain_byte()) >= 0) {
				got[n++] = (uint8_t)b;
				assert_int_equal(sonde_pending(), k - n);
			}
		} else {
			while ((k = sonde_drain(got + n, step)) > 0) {
				assert_true(k <= step);
				n += k;
			}
		}
		assert_int_equal(sonde_pending(), 0);
		assert_int_equal(sonde_drain(got, sizeof got), 0);
		assert_int_equal(sonde_drain_byte(), -1);
		sonde_get_stats(&st);
		assert_int_equal(st.bytes, 42 + n); /* setup wrote 42 bytes (drained) */
		if (step == 0) {
			memcpy(ref, got, n);
			nref = n;
		}
		assert_int_equal(n, nref);
		assert_memory_equal(got, ref, n);
	}
}

/* Writing and draining around the ring many times: the stream stays whole
 * and consecutive. */
static void test_wrap_around(void **state)
{
	static uint8_t wire[1 << 16];
	struct tgt_frames fr;
	size_t n = 0, i;
	int k;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_DROP_NEW, 0x1000);
	for (k = 0; k < 2000; k++) {
		sonde_counter((uint8_t)k, k * 7919);
		if (k % 2 == 1)
			n += sonde_drain(wire + n, 29); /* keeps up: nothing refused */
	}
	n += tgt_drain_all(wire + n, sizeof wire - n);
	tgt_parse(wire, n, &fr);
	assert_int_equal(fr.bad, 0);
	assert_int_equal(fr.partial, 0);
	for (i = 1; i < fr.n; i++)
		assert_int_equal(fr.f[i].seq, (uint8_t)(fr.f[i - 1].seq + 1));
	k = 0;
	for (i = 0; i < fr.n; i++) {
		if (fr.f[i].id != SONDE_REC_COUNTER)
			continue;
		assert_int_equal(fr.f[i].data[0], (uint8_t)k);
		assert_int_equal((int32_t)tgt_le32(fr.f[i].data + 1), k * 7919);
		k++;
	}
	assert_int_equal(k, 2000);
	tgt_frames_free(&fr);
	{
		sonde_stats_t st;

		sonde_get_stats(&st);
		assert_int_equal(st.refused, 0);
		assert_int_equal(st.overwritten, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_wrap_around),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
