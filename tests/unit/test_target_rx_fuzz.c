/*
 * test_target_rx_fuzz.c -- the receive channel against random input
 * (deterministic seeds), fed in random chunk sizes:
 *
 * - random bytes, rich in flags, escapes and small values: nothing crashes
 *   or reads out of bounds (run under ASan/UBSan too); every frame of 3 or
 *   more bytes gets exactly one CMD_STATUS, in order, echoing its SEQ and
 *   id, with TOO_LONG / BAD_CHECKSUM exactly where an independent model of
 *   the framing says; the trace stays whole and gap-free;
 * - random well-checksummed commands (right and wrong lengths, unknown ids,
 *   PEEKs around and across a registered region, some checksums spoiled):
 *   each reply's status equals what a model of §9 predicts, and every
 *   PEEK_DATA holds the memory it names.
 */
#include <stdlib.h>

#include "test_target_rx.h"

static uint8_t ring[32768];
static uint8_t probe[100];
static uint32_t rng = 0x12345678u;

static uint32_t rnd(void)
{
	/* xorshift32 */
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static int app_ret(uint32_t a)
{
	return (int)(a % 0x180u) - 0x40;
}

static int app_cb(uint8_t cmd, uint32_t a, uint32_t b, uint32_t c)
{
	(void)cmd;
	(void)b;
	(void)c;
	return app_ret(a);
}

static uint8_t app_status(uint32_t a)
{
	int r = app_ret(a);

	return r == 0 ? 0 : r >= 0x80 && r <= 0xFF ? (uint8_t)r : 0xFF;
}

/* A reply we expect: SEQ and id echoed; status, or -1 for "any". */
struct want {
	uint8_t seq, cmd;
	int st;
	int peek_ok;      /* a PEEK_DATA precedes it */
	const uint8_t *peek_at;
	unsigned peek_n;
};

static struct want *wants;
static size_t nwant, capwant;
static unsigned seen[256], peeks_ok; /* statuses received, PEEK_DATA checked */

static void want(uint8_t seq, uint8_t cmd, int st)
{
	if (nwant == capwant) {
		capwant = capwant ? 2 * capwant : 1024;
		wants = realloc(wants, capwant * sizeof *wants);
		assert_non_null(wants);
	}
	memset(&wants[nwant], 0, sizeof wants[nwant]);
	wants[nwant].seq = seq;
	wants[nwant].cmd = cmd;
	wants[nwant].st = st;
	nwant++;
}

/* Drain and match the replies against wants[*next..]; SEQ must run on
 * without a gap from *seq. */
static void check_replies(size_t *next, uint8_t *seq)
{
	struct tgt_frames fr;
	size_t i;

	rx_drain(&fr);
	for (i = 0; i < fr.n; i++) {
		const struct tgt_frame *f = &fr.f[i];
		const struct want *w;

		assert_int_equal(f->seq, *seq);
		*seq = (uint8_t)(*seq + 1u);
		if (f->id != SONDE_REC_CMD_STATUS)
			continue;
		assert_true(*next < nwant);
		w = &wants[(*next)++];
		assert_int_equal(f->len, 3 + tgt_ts(f, &(uint32_t){ 0 }));
		assert_int_equal(f->data[0], w->seq);
		assert_int_equal(f->data[1], w->cmd);
		if (w->st >= 0)
			assert_int_equal(f->data[2], w->st);
		seen[f->data[2]]++;
		if (w->peek_ok) {
			/* PEEK_DATA, then CMD_STATUS -- with a TIME_SYNC between
			 * them when CMD_STATUS takes SEQ 0 (rule 4). */
			size_t j = i;
			const struct tgt_frame *p;

			do {
				assert_true(j > 0);
				p = &fr.f[--j];
			} while (p->id == SONDE_REC_TIME_SYNC);
			assert_int_equal(p->id, SONDE_REC_PEEK_DATA);
			assert_int_equal(p->len, SONDE_ADDR_SIZE + 1 + w->peek_n + tgt_ts(p, &(uint32_t){ 0 }));
			assert_memory_equal(p->data + 1 + SONDE_ADDR_SIZE, w->peek_at, w->peek_n);
			peeks_ok++;
		}
	}
	tgt_frames_free(&fr);
}

static void start(void)
{
	unsigned i;

	sonde_rx_byte(SONDE_FLAG);
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, RX_CLOCK);
	for (i = 0; i < sizeof probe; i++)
		probe[i] = (uint8_t)(i * 37u);
	assert_int_equal(sonde_rx_region(probe, sizeof probe, SONDE_RX_READ), 0);
	sonde_rx_set_app_callback(app_cb);
	nwant = 0;
	memset(seen, 0, sizeof seen);
	peeks_ok = 0;
}

static void finish(void)
{
	sonde_rx_set_app_callback(NULL);
	assert_int_equal(sonde_rx_region(probe, 0, 0), 0);
	sonde_filter_all_records(1);
	sonde_filter_all_objects(1);
	sonde_start();
	free(wants);
	wants = NULL;
	nwant = capwant = 0;
}

/* ---- random bytes ---------------------------------------------------------- */

/* The framing of §1/§9 as the host would see it, for the expectations. */
static struct {
	size_t n;
	uint8_t b0, b1, sum;
	int esc, over;
} model;

static void model_byte(uint8_t b)
{
	if (b == SONDE_FLAG) {
		if (model.over)
			want(model.b0, model.b1, SONDE_ST_TOO_LONG);
		else if (model.n >= 3 && (model.esc || model.sum != 0xFF))
			want(model.b0, model.b1, SONDE_ST_BAD_CHECKSUM);
		else if (model.n >= 3)
			want(model.b0, model.b1, -1); /* a command ran */
		memset(&model, 0, sizeof model);
		return;
	}
	if (model.esc) {
		b ^= 0x20;
		model.esc = 0;
	} else if (b == SONDE_ESC) {
		model.esc = 1;
		return;
	}
	if (model.n == SONDE_CFG_RX_MAX) {
		model.over = 1;
		return;
	}
	if (model.n == 0)
		model.b0 = b;
	if (model.n == 1)
		model.b1 = b;
	model.sum = (uint8_t)(model.sum + b);
	model.n++;
}

static uint8_t random_byte(void)
{
	uint32_t r = rnd();

	switch (r % 16u) {
	case 0:
	case 1:
		return SONDE_FLAG;
	case 2:
		return SONDE_ESC;
	case 3:
	case 4:
	case 5:
		return (uint8_t)(r >> 8) % 16u;
	default:
		return (uint8_t)(r >> 8);
	}
}

static void test_random_bytes(void **state)
{
	static uint8_t chunk[512];
	size_t next = 0, total = 0, k;
	uint8_t seq = 3;

	(void)state;
	start();
	memset(&model, 0, sizeof model);
	while (total < (1u << 20)) {
		size_t n = 1 + rnd() % sizeof chunk;

		for (k = 0; k < n; k++) {
			chunk[k] = random_byte();
			model_byte(chunk[k]);
		}
		rx_feed_how((enum rx_how)(rnd() % 3u), chunk, n);
		total += n;
		check_replies(&next, &seq);
	}
	assert_int_equal(next, nwant);
	assert_true(nwant > 10000); /* the input really had many frames */
	finish();
}

/* ---- random commands ------------------------------------------------------- */

static const uint8_t data_len[13] = { 0, 0, 16, 32, 0, 0, 0, 0, 0, 13, SONDE_ADDR_SIZE + 1, 0, 0 };

/* The test's own encoder, to spoil a checksum on purpose (xor != 0). */
static size_t encode(uint8_t *w, const uint8_t *raw, size_t n, uint8_t chk_xor)
{
	size_t i, k = 0;
	uint8_t sum = 0;

	for (i = 0; i <= n; i++) {
		uint8_t b = i < n ? raw[i] : (uint8_t)(~sum ^ chk_xor);

		sum = (uint8_t)(sum + b);
		if (b == SONDE_FLAG || b == SONDE_ESC) {
			w[k++] = SONDE_ESC;
			b ^= SONDE_ESC_XOR;
		}
		w[k++] = b;
	}
	w[k++] = SONDE_FLAG;
	return k;
}

static void test_random_commands(void **state)
{
	static uint8_t wire[8192];
	size_t next = 0, nw = 0;
	uint8_t seq = 3, hseq = 0;
	int running = 1;
	unsigned i;

	(void)state;
	start();
	for (i = 0; i < 30000; i++) {
		uint8_t raw[64];
		uint32_t r = rnd();
		uint8_t cmd = (uint8_t)(r % 15u);          /* 0 and 13, 14: unknown */
		size_t len = data_len[cmd < 13 ? cmd : 0], k;
		int bad = r % 13u == 0;
		int st;

		if (r >> 8 & 1)                        /* a wrong length */
			len = (len + (rnd() % 5u) - 2u) % 48u;
		if ((r >> 9 & 15u) == 0)               /* too long */
			len = SONDE_CFG_RX_MAX - 3u + rnd() % 20u;
		raw[0] = hseq++;
		raw[1] = cmd;
		for (k = 0; k < len; k++)
			raw[2 + k] = (uint8_t)rnd();
		if (cmd == SONDE_CMD_PEEK && len == SONDE_ADDR_SIZE + 1u) {
			uintptr_t a = (uintptr_t)probe + (uintptr_t)(rnd() % 240u) - 70u;
			uint64_t v = a;

			for (k = 0; k < SONDE_ADDR_SIZE; k++, v >>= 8)
				raw[2 + k] = (uint8_t)v;
			raw[2 + SONDE_ADDR_SIZE] = (uint8_t)(rnd() % 72u);
		}
		if (cmd == SONDE_CMD_START || cmd == SONDE_CMD_STOP || cmd == SONDE_CMD_INFO)
			bad = bad || rnd() % 4u != 0; /* fewer of them: keep running mostly */

		/* What §9 says the reply is. */
		if (len + 3 > SONDE_CFG_RX_MAX)
			st = SONDE_ST_TOO_LONG;
		else if (bad)
			st = SONDE_ST_BAD_CHECKSUM;
		else if (cmd == 0 || cmd > SONDE_CMD_STATS)
			st = SONDE_ST_UNKNOWN_CMD;
		else if (cmd == SONDE_CMD_POKE)
			st = SONDE_ST_NOT_SUPPORTED;
		else if (len != data_len[cmd])
			st = SONDE_ST_BAD_LENGTH;
		else if (cmd == SONDE_CMD_INFO)
			st = running ? SONDE_ST_OK : SONDE_ST_BAD_STATE;
		else if (cmd == SONDE_CMD_TRIGGER || cmd == SONDE_CMD_READOUT)
			st = SONDE_ST_BAD_STATE;
		else if (cmd == SONDE_CMD_APP)
			st = app_status(tgt_le32(raw + 3));
		else if (cmd == SONDE_CMD_PEEK) {
			uintptr_t a = 0;
			unsigned n = raw[2 + SONDE_ADDR_SIZE];

			for (k = SONDE_ADDR_SIZE; k-- > 0;)
				a = a << 8 | raw[2 + k];

			st = a >= (uintptr_t)probe && n >= 1 && n <= 64 && a + n <= (uintptr_t)probe + sizeof probe
				     ? SONDE_ST_OK
				     : SONDE_ST_OUT_OF_REGION;
			if (st == SONDE_ST_OK) {
				want(raw[0], cmd, st);
				wants[nwant - 1].peek_ok = 1;
				wants[nwant - 1].peek_at = (const uint8_t *)a;
				wants[nwant - 1].peek_n = n;
				st = -2;
			}
		} else
			st = SONDE_ST_OK;
		if (st == SONDE_ST_OK && cmd == SONDE_CMD_STOP)
			running = 0;
		if (st == SONDE_ST_OK && cmd == SONDE_CMD_START)
			running = 1;
		if (st != -2)
			want(raw[0], cmd, st);

		nw += encode(wire + nw, raw, 2 + len, bad ? (uint8_t)(1u + rnd() % 255u) : 0u);
		if (nw > sizeof wire - 200 || i % 37u == 0) {
			rx_feed_how((enum rx_how)(rnd() % 3u), wire, nw);
			nw = 0;
			check_replies(&next, &seq);
		}
	}
	rx_feed_how(RX_WHOLE, wire, nw);
	check_replies(&next, &seq);
	assert_int_equal(next, nwant);
	assert_int_equal(sonde_is_running(), running);
	/* The input reached every status, and real reads. */
	for (i = SONDE_ST_OK; i <= SONDE_ST_BAD_STATE; i++)
		assert_true(seen[i] > 100);
	assert_true(seen[0x80] + seen[0xC0] + seen[0xFF] > 100);
	assert_true(peeks_ok > 100);
	finish();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_bytes),
		cmocka_unit_test(test_random_commands),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
