/*
 * test_target_rx_poke.c -- POKE (docs/protocol.md §9.1), which the library
 * compiles out by default (SONDE_CFG_POKE 0).  This test compiles the
 * command module itself with SONDE_CFG_POKE 1: its definitions then take
 * the place of the library's sonde_cmd.o, which the linker no longer needs
 * from the archive (nothing else in the library defines or wants them).
 * The rest of the library does not depend on SONDE_CFG_POKE.
 *
 * Writes land only inside regions registered for writing, with n 1..the
 * frame's room; everything else is refused with memory untouched.
 */
#define SONDE_CFG_POKE 1
#include "../../target/src/sonde_cmd.c"

#include "test_target_rx.h"

static uint8_t ring[4096];
static uint8_t wmem[40], rmem[16];

static void put_addr(uint8_t *p, uintptr_t a)
{
	uint64_t v = a;
	unsigned i;

	for (i = 0; i < SONDE_ADDR_SIZE; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/* POKE n bytes of src at a; expect status st. */
static void send_poke(enum rx_how how, uint8_t seq, uintptr_t a, const uint8_t *src, unsigned n, uint8_t st)
{
	uint8_t d[SONDE_ADDR_SIZE + 1 + 255];

	put_addr(d, a);
	d[SONDE_ADDR_SIZE] = (uint8_t)n;
	memcpy(d + SONDE_ADDR_SIZE + 1, src, n);
	rx_send(how, seq, SONDE_CMD_POKE, d, SONDE_ADDR_SIZE + 1 + n);
	rx_expect_only_status(seq, SONDE_CMD_POKE, st);
}

static void test_poke(void **state)
{
	/* The most DATA a frame of SONDE_CFG_RX_MAX bytes has room for. */
	enum { MOST = SONDE_CFG_RX_MAX - 3 - SONDE_ADDR_SIZE - 1 };
	static const uint8_t src[64] = { 0x7E, 0x7D, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66 };
	enum rx_how how = rx_how_of(state);
	uint8_t want[sizeof wmem], d[SONDE_ADDR_SIZE + 2];

	sonde_rx_byte(SONDE_FLAG);
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, RX_CLOCK);
	memset(wmem, 0xA5, sizeof wmem);
	memset(rmem, 0x5A, sizeof rmem);
	memcpy(want, wmem, sizeof want);
	assert_int_equal(sonde_rx_region(wmem, sizeof wmem, SONDE_RX_READ | SONDE_RX_WRITE), 0);
	assert_int_equal(sonde_rx_region(rmem, sizeof rmem, SONDE_RX_READ), 0);

	send_poke(how, 1, (uintptr_t)wmem + 3, src, 8, SONDE_ST_OK);
	memcpy(want + 3, src, 8);
	assert_memory_equal(wmem, want, sizeof want);
	send_poke(how, 2, (uintptr_t)wmem + sizeof wmem - 1, src + 2, 1, SONDE_ST_OK); /* the last byte */
	want[sizeof want - 1] = 0x11;
	assert_memory_equal(wmem, want, sizeof want);
	assert_true(MOST <= (int)sizeof wmem);
	send_poke(how, 3, (uintptr_t)wmem, src, MOST, SONDE_ST_OK);                  /* the most */
	memcpy(want, src, MOST);
	assert_memory_equal(wmem, want, sizeof want);

	/* Refused, memory untouched. */
	send_poke(how, 4, (uintptr_t)wmem + sizeof wmem - 1, src, 2, SONDE_ST_OUT_OF_REGION);
	send_poke(how, 5, (uintptr_t)wmem - 1, src, 1, SONDE_ST_OUT_OF_REGION);
	send_poke(how, 6, (uintptr_t)wmem, src, 0, SONDE_ST_OUT_OF_REGION);
	send_poke(how, 7, (uintptr_t)rmem, src, 4, SONDE_ST_OUT_OF_REGION);          /* read only */
	send_poke(how, 8, UINTPTR_MAX, src, 2, SONDE_ST_OUT_OF_REGION);
	send_poke(how, 9, (uintptr_t)wmem, src, MOST + 1, SONDE_ST_TOO_LONG);
	assert_memory_equal(wmem, want, sizeof want);
	assert_memory_equal(rmem, "\x5A\x5A\x5A\x5A\x5A\x5A\x5A\x5A\x5A\x5A\x5A\x5A\x5A\x5A\x5A\x5A", 16);

	/* n and the DATA disagree: BAD_LENGTH, nothing written. */
	put_addr(d, (uintptr_t)wmem);
	d[SONDE_ADDR_SIZE] = 2;
	d[SONDE_ADDR_SIZE + 1] = 0;
	rx_send(how, 10, SONDE_CMD_POKE, d, sizeof d);
	rx_expect_only_status(10, SONDE_CMD_POKE, SONDE_ST_BAD_LENGTH);
	d[SONDE_ADDR_SIZE] = 0;
	rx_send(how, 11, SONDE_CMD_POKE, d, sizeof d);
	rx_expect_only_status(11, SONDE_CMD_POKE, SONDE_ST_BAD_LENGTH);
	rx_send(how, 12, SONDE_CMD_POKE, d, SONDE_ADDR_SIZE);
	rx_expect_only_status(12, SONDE_CMD_POKE, SONDE_ST_BAD_LENGTH);
	assert_memory_equal(wmem, want, sizeof want);

	/* What POKE wrote, PEEK reads. */
	{
		struct tgt_frames fr;

		put_addr(d, (uintptr_t)wmem);
		d[SONDE_ADDR_SIZE] = sizeof wmem;
		rx_send(how, 13, SONDE_CMD_PEEK, d, SONDE_ADDR_SIZE + 1);
		rx_drain(&fr);
		assert_int_equal(fr.n, 2);
		assert_int_equal(fr.f[0].id, SONDE_REC_PEEK_DATA);
		assert_memory_equal(fr.f[0].data + 1 + SONDE_ADDR_SIZE, want, sizeof want);
		rx_expect_status(&fr.f[1], 13, SONDE_CMD_PEEK, SONDE_ST_OK);
		tgt_frames_free(&fr);
	}
	assert_int_equal(sonde_rx_region(wmem, 0, 0), 0);
	assert_int_equal(sonde_rx_region(rmem, 0, 0), 0);
}

#define RX_T(f)                                                              \
	{ #f " (whole)", f, NULL, NULL, (void *)&rx_how_whole },             \
	{ #f " (bytes)", f, NULL, NULL, (void *)&rx_how_bytes },             \
	{ #f " (chunks)", f, NULL, NULL, (void *)&rx_how_chunks }

int main(void)
{
	const struct CMUnitTest tests[] = {
		RX_T(test_poke),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
