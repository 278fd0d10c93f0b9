/*
 * test_target_partial.c -- overwriting while the drain is inside a frame:
 * the rest of that frame is kept (moved up next to the surviving frames),
 * whole frames after it are discarded, and the transport never sends a torn
 * frame.  Every lost frame shows as a SEQ gap and is counted exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "sonde.h"
#include "tgt_frames.h"
#include "../../target/src/sonde_internal.h" /* sonde_g.sys_frames */

static uint8_t ring[128];
static uint8_t wire[1 << 20];

/* Three bytes of the oldest mark are out; 100 more marks overwrite: the
 * mark's other four bytes still come, then the newest frames. */
static void test_partial_first_frame(void **state)
{
	struct tgt_frames fr;
	sonde_stats_t st;
	size_t n;
	int i;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, 0x12345678u);
	for (i = 0; i < 17; i++)
		sonde_mark(1);
	n = sonde_drain(wire, 3);
	assert_int_equal(n, 3);
	for (i = 0; i < 100; i++)
		sonde_mark(2);
	n += tgt_drain_all(wire + n, sizeof wire - n);
	tgt_parse(wire, n, &fr);
	assert_int_equal(fr.bad, 0);
	assert_int_equal(fr.partial, 0);
	/* the partly sent mark (SEQ 3, whole), then the 18 newest marks: the
	 * kept 3 bytes leave room for 18 (3 + 18 * 6 = 111; the 18th was
	 * written with 19 bytes free, its worst case 17) */
	assert_int_equal(fr.n, 19);
	assert_int_equal(fr.f[0].seq, 3);
	assert_int_equal(fr.f[0].data[0], 1);
	assert_int_equal(fr.f[1].seq, (uint8_t)(3 + 117 - 18));
	for (i = 1; i < 19; i++) {
		assert_int_equal(fr.f[i].id, SONDE_REC_MARK);
		assert_int_equal(fr.f[i].data[0], 2);
	}
	sonde_get_stats(&st);
	assert_int_equal(st.overwritten, 117 - 19);
	assert_int_equal(st.records, 3 + 117);
	tgt_frames_free(&fr);
}

/* Random record sizes, random partial drains, always overflowing: every
 * frame arrives whole, the SEQ gaps add up to the overwritten count (the
 * ring is too small for a gap of 256), every DROPS is no more than the gaps
 * before it, received + overwritten == written, and the application's
 * records written + refused == attempted.  (Some big records are refused:
 * with the rest of a long frame kept, their worst case does not fit.) */
static void test_random_partial(void **state)
{
	static char str[64];
	struct tgt_frames fr;
	sonde_stats_t st;
	size_t n = 0, i, gaps = 0, attempted = 0;
	int k;

	(void)state;
	srand(777);
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, 1000);
	for (k = 0; k < 20000; k++) {
		int r = rand() % 4;

		tgt_now += (uint32_t)(rand() % 2000);
		attempted += r != 3;
		if (r == 0) {
			sonde_isr_enter((uint8_t)rand());
		} else if (r == 1) {
			sonde_user_u32x2(0x40, (uint32_t)rand(), (uint32_t)rand());
		} else if (r == 2) {
			int len = rand() % 40;

			for (i = 0; i < (size_t)len; i++)
				str[i] = (char)(0x7C + rand() % 4); /* lots of escapes */
			str[len] = 0;
			if (sonde_user_begin(0x41)) {
				sonde_arg_str(str);
				sonde_user_end();
			}
		} else {
			size_t want = (size_t)(rand() % 24);

			n += sonde_drain(wire + n, want);
		}
	}
	n += tgt_drain_all(wire + n, sizeof wire - n);
	tgt_parse(wire, n, &fr);
	assert_int_equal(fr.bad, 0);
	assert_int_equal(fr.partial, 0);
	for (i = 0; i < fr.n; i++) {
		/* setup's last frame, drained, had SEQ 2 */
		size_t gap = (uint8_t)(fr.f[i].seq - (i > 0 ? fr.f[i - 1].seq : 2u) - 1u);

		gaps += gap;
		if (fr.f[i].id == SONDE_REC_DROPS)
			assert_true(tgt_le32(fr.f[i].data) <= gaps);
	}
	sonde_get_stats(&st);
	assert_true(st.overwritten > 1000);
	assert_int_equal(gaps, st.overwritten);
	assert_int_equal(fr.n + st.overwritten, st.records - 3); /* setup's 3 were drained */
	assert_int_equal(st.records - sonde_g.sys_frames + st.refused, attempted);
	tgt_frames_free(&fr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partial_first_frame),
		cmocka_unit_test(test_random_partial),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
