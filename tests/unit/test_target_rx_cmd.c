/*
 * test_target_rx_cmd.c -- the receive channel's commands, one by one
 * (docs/protocol.md §9): each command's effect on the target and its reply
 * records, byte for byte, with the commands fed whole, byte by byte and in
 * uneven chunks.
 */
#include "test_target_rx.h"

static uint8_t ring[4096];

static void setup(uint8_t mode)
{
	sonde_rx_byte(SONDE_FLAG); /* the parser starts a fresh frame */
	sonde_rx_set_app_callback(NULL);
	sonde_set_dict_callback(NULL);
	tgt_setup(ring, sizeof ring, mode, RX_CLOCK);
}

/* SEQ of the frames fr[from..] run on from first. */
static void expect_seqs(const struct tgt_frames *fr, uint8_t first)
{
	size_t i;

	for (i = 0; i < fr->n; i++)
		assert_int_equal(fr->f[i].seq, (uint8_t)(first + i));
}

static void expect_ids(const struct tgt_frames *fr, const uint8_t *ids, size_t n)
{
	size_t i;

	assert_int_equal(fr->n, n);
	for (i = 0; i < n; i++)
		assert_int_equal(fr->f[i].id, ids[i]);
}

/* ---- INFO ---------------------------------------------------------------- */

static void two_names(void)
{
	sonde_dict(SONDE_DICT_TASK, 5, "rx");
	sonde_dict(SONDE_DICT_ISR, 6, "uart");
}

static void test_info(void **state)
{
	static const uint8_t ids[] = { SONDE_REC_TARGET_INFO, SONDE_REC_DICT, SONDE_REC_DICT,
				       SONDE_REC_CMD_STATUS };
	struct tgt_frames fr;
	const uint8_t *d;

	setup(SONDE_MODE_OVERWRITE);
	sonde_set_dict_callback(two_names);
	rx_send(rx_how_of(state), 0x10, SONDE_CMD_INFO, NULL, 0);
	rx_drain(&fr);
	expect_ids(&fr, ids, sizeof ids);
	expect_seqs(&fr, 3);
	/* TARGET_INFO on request: reset flag clear. */
	d = fr.f[0].data;
	assert_int_equal(fr.f[0].len, 18);
	assert_int_equal(d[0], SONDE_PROTO_VERSION);
	assert_int_equal(d[1], SONDE_BIG_ENDIAN ? SONDE_INFO_F_BIG_ENDIAN : 0);
	assert_int_equal(d[2], SONDE_ADDR_SIZE);
	assert_int_equal(d[3], SONDE_MODE_OVERWRITE);
	assert_int_equal(tgt_le32(d + 10), sizeof ring);
	assert_int_equal(fr.f[1].len, 5 + 3);
	assert_memory_equal(fr.f[1].data, "\x02\x05\x00\x00\x00rx", 8);
	assert_memory_equal(fr.f[2].data, "\x03\x06\x00\x00\x00uart", 10);
	rx_expect_status(&fr.f[3], 0x10, SONDE_CMD_INFO, SONDE_ST_OK);
	tgt_frames_free(&fr);
	sonde_set_dict_callback(NULL);
}

/* ---- filters ------------------------------------------------------------- */

static int never_filtered(unsigned r)
{
	return r <= SONDE_REC_DICT || (r >= 0x20 && r < 0x40);
}

static void test_glb_filter(void **state)
{
	/* The reply, by hand: SEQ 3, CMD_STATUS, host SEQ 0x11, GLB_FILTER,
	 * OK, delta 0; CHK ~(03+20+11+02+00+00) = ~36 = C9. */
	static const uint8_t wire[] = { 0x03, 0x20, 0x11, 0x02, 0x00, 0x00, 0xC9, 0x7E };
	uint8_t bm[16];
	unsigned r;
	struct tgt_frames fr;

	setup(SONDE_MODE_OVERWRITE);
	memset(bm, 0xFF, sizeof bm);
	bm[SONDE_REC_MARK / 8] &= (uint8_t)~(1u << SONDE_REC_MARK % 8);
	bm[0x45 / 8] &= (uint8_t)~(1u << 0x45 % 8);
	rx_send(rx_how_of(state), 0x11, SONDE_CMD_GLB_FILTER, bm, sizeof bm);
	tgt_expect_wire(wire, sizeof wire);
	for (r = 0; r < SONDE_REC_COUNT; r++)
		assert_int_equal(sonde_record_enabled((uint8_t)r), r != SONDE_REC_MARK && r != 0x45);
	sonde_mark(1);
	sonde_mark_begin(1);
	sonde_user_u32(0x45, 1);
	sonde_user_u32(0x46, 1);
	rx_drain(&fr);
	assert_int_equal(fr.n, 2);
	assert_int_equal(fr.f[0].id, SONDE_REC_MARK_BEGIN);
	assert_int_equal(fr.f[1].id, 0x46);
	tgt_frames_free(&fr);

	/* All off: what the protocol never filters stays on. */
	memset(bm, 0, sizeof bm);
	rx_send(rx_how_of(state), 0x12, SONDE_CMD_GLB_FILTER, bm, sizeof bm);
	rx_expect_only_status(0x12, SONDE_CMD_GLB_FILTER, SONDE_ST_OK);
	for (r = 0; r < SONDE_REC_COUNT; r++)
		assert_int_equal(sonde_record_enabled((uint8_t)r), never_filtered(r));
	sonde_isr_enter(1);
	sonde_user_u32(0x40, 1);
	assert_int_equal(sonde_pending(), 0);

	/* Every other id on. */
	memset(bm, 0x55, sizeof bm);
	rx_send(rx_how_of(state), 0x13, SONDE_CMD_GLB_FILTER, bm, sizeof bm);
	rx_expect_only_status(0x13, SONDE_CMD_GLB_FILTER, SONDE_ST_OK);
	for (r = 0; r < SONDE_REC_COUNT; r++)
		assert_int_equal(sonde_record_enabled((uint8_t)r), r % 2 == 0 || never_filtered(r));
	sonde_filter_all_records(1);
}

static void test_loc_filter(void **state)
{
	uint8_t bm[32];
	unsigned o;
	struct tgt_frames fr;

	setup(SONDE_MODE_OVERWRITE);
	sonde_filter_object(9, 0); /* turned on again by the bitmap */
	memset(bm, 0xFF, sizeof bm);
	bm[3 / 8] &= (uint8_t)~(1u << 3 % 8);
	bm[200 / 8] &= (uint8_t)~(1u << 200 % 8);
	bm[255 / 8] &= (uint8_t)~(1u << 255 % 8);
	rx_send(rx_how_of(state), 0x20, SONDE_CMD_LOC_FILTER, bm, sizeof bm);
	rx_expect_only_status(0x20, SONDE_CMD_LOC_FILTER, SONDE_ST_OK);
	for (o = 0; o < 256; o++)
		assert_int_equal(sonde_object_enabled((uint8_t)o), o != 3 && o != 200 && o != 255);
	sonde_isr_enter(3);
	sonde_isr_exit(3);
	sonde_task_in(200);
	sonde_isr_enter(9);
	rx_drain(&fr);
	assert_int_equal(fr.n, 1);
	assert_int_equal(fr.f[0].id, SONDE_REC_ISR_ENTER);
	assert_int_equal(fr.f[0].data[0], 9);
	tgt_frames_free(&fr);
	sonde_filter_all_objects(1);
}

/* ---- STOP, START ----------------------------------------------------------- */

static void test_stop_start(void **state)
{
	static const uint8_t ids_stop[] = { SONDE_REC_CMD_STATUS, SONDE_REC_TIME_SYNC, SONDE_REC_DROPS };
	struct tgt_frames fr;
	sonde_stats_t st;

	setup(SONDE_MODE_OVERWRITE);
	rx_send(rx_how_of(state), 0x30, SONDE_CMD_STOP, NULL, 0);
	assert_false(sonde_is_running());
	sonde_mark(1); /* refused */
	/* The reply is the last record before the stop; the drain adds the
	 * loss report when it has read the stopped buffer out. */
	rx_drain(&fr);
	expect_ids(&fr, ids_stop, sizeof ids_stop);
	rx_expect_status(&fr.f[0], 0x30, SONDE_CMD_STOP, SONDE_ST_OK);
	/* not made while stopped: counted apart from refused (issue 15) */
	assert_int_equal(tgt_le32(fr.f[2].data + 4), 0);
	assert_int_equal(tgt_le32(fr.f[2].data + 9), 1);
	tgt_frames_free(&fr);

	/* Stopped: the reply still goes out (into free space). */
	rx_send(rx_how_of(state), 0x31, SONDE_CMD_STOP, NULL, 0);
	rx_expect_only_status(0x31, SONDE_CMD_STOP, SONDE_ST_OK);
	sonde_get_stats(&st);
	assert_int_equal(st.refused, 0);
	assert_int_equal(st.stopped, 1);

	rx_send(rx_how_of(state), 0x32, SONDE_CMD_START, NULL, 0);
	assert_true(sonde_is_running());
	sonde_mark(1);
	rx_drain(&fr);
	/* START forces a TIME_SYNC before the next timed record: its reply. */
	assert_int_equal(fr.n, 3);
	assert_int_equal(fr.f[0].id, SONDE_REC_TIME_SYNC);
	rx_expect_status(&fr.f[1], 0x32, SONDE_CMD_START, SONDE_ST_OK);
	assert_int_equal(fr.f[2].id, SONDE_REC_MARK);
	tgt_frames_free(&fr);
}

/* ---- TRIGGER, READOUT ------------------------------------------------------ */

static void trigger_freezes(enum rx_how how, uint8_t mode, uint8_t cmd)
{
	static const uint8_t ids[] = { SONDE_REC_MARK, SONDE_REC_MARK, SONDE_REC_CMD_STATUS,
				       SONDE_REC_TIME_SYNC, SONDE_REC_DROPS };
	struct tgt_frames fr;

	setup(mode);
	sonde_mark(1);
	sonde_mark(2);
	/* recording: the drain holds the buffer back (docs/protocol.md §9.1) */
	assert_int_equal(sonde_pending(), 0);
	rx_send(how, 0x40, cmd, NULL, 0);
	assert_false(sonde_is_running());
	sonde_mark(3); /* refused: frozen */
	/* The read-out: the marks, the reply, and the drain's loss report. */
	rx_drain(&fr);
	expect_ids(&fr, ids, sizeof ids);
	expect_seqs(&fr, 3);
	rx_expect_status(&fr.f[2], 0x40, cmd, SONDE_ST_OK);
	tgt_frames_free(&fr);

	/* Frozen and read out: a second trigger is answered, and changes nothing. */
	rx_send(how, 0x41, cmd, NULL, 0);
	rx_expect_only_status(0x41, cmd, SONDE_ST_OK);
	assert_false(sonde_is_running());
	sonde_start();
}

static void test_trigger(void **state)
{
	trigger_freezes(rx_how_of(state), SONDE_MODE_POSTMORTEM, SONDE_CMD_TRIGGER);
	trigger_freezes(rx_how_of(state), SONDE_MODE_SNAPSHOT, SONDE_CMD_TRIGGER);
}

static void test_readout(void **state)
{
	trigger_freezes(rx_how_of(state), SONDE_MODE_POSTMORTEM, SONDE_CMD_READOUT);
	trigger_freezes(rx_how_of(state), SONDE_MODE_SNAPSHOT, SONDE_CMD_READOUT);
}

/* ---- RESET_CTRS, STATS ------------------------------------------------------- */

static void test_reset_ctrs(void **state)
{
	static uint8_t small[128];
	/* the reply, the report (queued behind the reply: "open"), and the
	 * report the drain adds once the ring is empty, which closes it */
	static const uint8_t ids[] = { SONDE_REC_CMD_STATUS, SONDE_REC_TIME_SYNC, SONDE_REC_DROPS,
				       SONDE_REC_TIME_SYNC, SONDE_REC_DROPS };
	struct tgt_frames fr;
	sonde_stats_t st;
	size_t bytes, i;
	unsigned k;

	sonde_rx_byte(SONDE_FLAG);
	tgt_setup(small, sizeof small, SONDE_MODE_OVERWRITE, RX_CLOCK);
	for (k = 0; k < 40; k++) /* overflows: overwritten */
		sonde_mark(1);
	sonde_stop();
	sonde_mark(1); /* not made: stopped */
	sonde_start();
	sonde_mark(1); /* writes the pending report */
	rx_drain(&fr);
	tgt_frames_free(&fr);
	sonde_get_stats(&st);
	assert_true(st.overwritten > 0);
	assert_int_equal(st.stopped, 1);

	assert_true(st.records > 40);

	rx_send(rx_how_of(state), 0x50, SONDE_CMD_RESET_CTRS, NULL, 0);
	/* Every counter counts from the reset: the reply and the report. */
	sonde_get_stats(&st);
	assert_int_equal(st.records, 3);
	assert_int_equal(st.overwritten, 0);
	assert_int_equal(st.refused, 0);
	assert_int_equal(st.stopped, 0);
	rx_drain(&fr);
	expect_ids(&fr, ids, sizeof ids);
	rx_expect_status(&fr.f[0], 0x50, SONDE_CMD_RESET_CTRS, SONDE_ST_OK);
	assert_int_equal(tgt_le64(fr.f[1].data), RX_CLOCK);
	assert_int_equal(tgt_le32(fr.f[1].data + 8), 0); /* the reply, at the same time */
	assert_int_equal(fr.f[2].len, SONDE_DROPS_BYTES + 1);
	assert_int_equal(tgt_le32(fr.f[2].data), 0);
	assert_int_equal(tgt_le32(fr.f[2].data + 4), 0);
	assert_int_equal(fr.f[2].data[8], 1);            /* the first counter reset */
	assert_int_equal(tgt_le32(fr.f[2].data + 9), 0); /* stopped: reset too */
	assert_int_equal(fr.f[2].data[SONDE_DROPS_BYTES], RX_TS);
	/* the first report's oldest is the reply (still in the ring then);
	 * the closing one's is its own TIME_SYNC, and its totals the same */
	assert_int_equal(tgt_le32(fr.f[2].data + 17) & 0xFFu, fr.f[0].seq);
	assert_int_equal(tgt_le32(fr.f[4].data + 13) & 0xFFu, fr.f[4].seq);
	assert_int_equal(tgt_le32(fr.f[4].data + 17) & 0xFFu, fr.f[3].seq);
	assert_memory_equal(fr.f[4].data, fr.f[2].data, 13);
	for (bytes = 0, i = 0; i < fr.n; i++)
		bytes += fr.f[i].wire_len;
	tgt_frames_free(&fr);

	/* TARGET_STATS counts records and bytes from the reset: those five
	 * frames. */
	sonde_get_stats(&st);
	assert_int_equal(st.bytes, bytes);
	rx_send(rx_how_of(state), 0x51, SONDE_CMD_STATS, NULL, 0);
	rx_drain(&fr);
	assert_int_equal(fr.n, 2);
	assert_int_equal(fr.f[0].id, SONDE_REC_TARGET_STATS);
	assert_int_equal(fr.f[0].len, SONDE_STATS_BYTES + 1);
	assert_int_equal(fr.f[0].data[SONDE_STATS_BYTES], RX_TS);
	assert_int_equal(st.records, 5);
	assert_int_equal(tgt_le32(fr.f[0].data), 5);
	assert_int_equal(tgt_le32(fr.f[0].data + 4), 0);
	assert_int_equal(tgt_le32(fr.f[0].data + 8), 0);
	assert_int_equal(tgt_le32(fr.f[0].data + 12), bytes);
	rx_expect_status(&fr.f[1], 0x51, SONDE_CMD_STATS, SONDE_ST_OK);
	tgt_frames_free(&fr);
}

static void test_stats(void **state)
{
	struct tgt_frames fr;
	sonde_stats_t st;
	unsigned k;

	setup(SONDE_MODE_DROP_NEW);
	for (k = 0; k < 5; k++)
		sonde_isr_enter(1);
	sonde_stop();
	sonde_isr_enter(1);
	sonde_isr_enter(1);
	sonde_start();
	sonde_isr_enter(1); /* after the loss report and a TIME_SYNC */
	rx_drain(&fr);
	tgt_frames_free(&fr);
	sonde_get_stats(&st);
	assert_int_equal(st.records, 3 + 5 + 3);
	assert_int_equal(st.refused, 0);
	assert_int_equal(st.stopped, 2);
	rx_send(rx_how_of(state), 0x60, SONDE_CMD_STATS, NULL, 0);
	rx_drain(&fr);
	assert_int_equal(fr.n, 2);
	assert_int_equal(fr.f[0].id, SONDE_REC_TARGET_STATS);
	assert_int_equal(fr.f[0].len, SONDE_STATS_BYTES + 1);
	assert_int_equal(tgt_le32(fr.f[0].data), st.records);
	assert_int_equal(tgt_le32(fr.f[0].data + 4), st.overwritten);
	assert_int_equal(tgt_le32(fr.f[0].data + 8), st.refused);
	assert_int_equal(tgt_le32(fr.f[0].data + 12), st.bytes);
	assert_int_equal(tgt_le32(fr.f[0].data + 16), st.stopped);
	rx_expect_status(&fr.f[1], 0x60, SONDE_CMD_STATS, SONDE_ST_OK);
	tgt_frames_free(&fr);
}

/* ---- APP ------------------------------------------------------------------- */

static struct {
	int calls, ret;
	uint8_t cmd;
	uint32_t a, b, c;
} app;

static int app_cb(uint8_t cmd, uint32_t a, uint32_t b, uint32_t c)
{
	app.calls++;
	app.cmd = cmd;
	app.a = a;
	app.b = b;
	app.c = c;
	sonde_mark(7); /* the callback's records come before the reply */
	return app.ret;
}

static void app_case(enum rx_how how, int ret, uint8_t want)
{
	/* cmd 0x7E, a, b, c with bytes that need escaping on the wire */
	static const uint8_t d[13] = { 0x7E, 0x44, 0x33, 0x22, 0x11, 0x01, 0x00, 0x7D, 0x7E,
				       0xFF, 0xFF, 0xFF, 0xFF };
	struct tgt_frames fr;

	memset(&app, 0, sizeof app);
	app.ret = ret;
	rx_send(how, 0x70, SONDE_CMD_APP, d, sizeof d);
	assert_int_equal(app.calls, 1);
	assert_int_equal(app.cmd, 0x7E);
	assert_int_equal(app.a, 0x11223344u);
	assert_int_equal(app.b, 0x7E7D0001u);
	assert_int_equal(app.c, 0xFFFFFFFFu);
	rx_drain(&fr);
	assert_int_equal(fr.n, 2);
	assert_int_equal(fr.f[0].id, SONDE_REC_MARK);
	rx_expect_status(&fr.f[1], 0x70, SONDE_CMD_APP, want);
	tgt_frames_free(&fr);
}

static void test_app(void **state)
{
	setup(SONDE_MODE_OVERWRITE);
	sonde_rx_set_app_callback(app_cb);
	app_case(rx_how_of(state), 0, SONDE_ST_OK);
	app_case(rx_how_of(state), 0x80, 0x80);
	app_case(rx_how_of(state), 0xC5, 0xC5);
	app_case(rx_how_of(state), 0xFF, 0xFF);
	/* Not a status the protocol allows: sent as 0xFF. */
	app_case(rx_how_of(state), SONDE_ST_BAD_STATE, 0xFF);
	app_case(rx_how_of(state), -1, 0xFF);
	app_case(rx_how_of(state), 0x100, 0xFF);
	sonde_rx_set_app_callback(NULL);
}

/* ---- PEEK -------------------------------------------------------------------- */

static uint8_t mem[80], mem2[8];

static void put_addr(uint8_t *p, const void *a)
{
	uint64_t v = (uint64_t)(uintptr_t)a;
	unsigned i;

	for (i = 0; i < SONDE_ADDR_SIZE; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/* PEEK n bytes at a; expect PEEK_DATA with them, then OK. */
static void peek_ok(enum rx_how how, uint8_t seq, const uint8_t *a, uint8_t n)
{
	uint8_t d[SONDE_ADDR_SIZE + 1];
	struct tgt_frames fr;
	const struct tgt_frame *f;

	put_addr(d, a);
	d[SONDE_ADDR_SIZE] = n;
	rx_send(how, seq, SONDE_CMD_PEEK, d, sizeof d);
	rx_drain(&fr);
	assert_int_equal(fr.n, 2);
	f = &fr.f[0];
	assert_true(f->ok);
	assert_int_equal(f->id, SONDE_REC_PEEK_DATA);
	assert_int_equal(f->len, SONDE_ADDR_SIZE + 1 + n + 1);
	assert_int_equal(f->data[f->len - 1], RX_TS);
	assert_memory_equal(f->data, d, sizeof d);
	assert_memory_equal(f->data + sizeof d, a, n);
	rx_expect_status(&fr.f[1], seq, SONDE_CMD_PEEK, SONDE_ST_OK);
	tgt_frames_free(&fr);
}

static void test_peek(void **state)
{
	enum rx_how how = rx_how_of(state);
	unsigned i;

	setup(SONDE_MODE_OVERWRITE);
	for (i = 0; i < sizeof mem; i++)
		mem[i] = (uint8_t)(0x7A + i); /* 0x7D and 0x7E at 3 and 4 */
	memcpy(mem2, "\x7E\x7E\x7D\x7D\x00\x01\x02\x03", 8);
	assert_int_equal(sonde_rx_region(mem, sizeof mem, SONDE_RX_READ), 0);
	assert_int_equal(sonde_rx_region(mem2, sizeof mem2, SONDE_RX_READ | SONDE_RX_WRITE), 0);
	peek_ok(how, 0x80, mem + 2, 5);
	peek_ok(how, 0x81, mem, 1);
	peek_ok(how, 0x82, mem + sizeof mem - 1, 1);  /* the last byte */
	peek_ok(how, 0x83, mem + 16, 64);               /* the most, up to the end */
	peek_ok(how, 0x84, mem2, 8);
	mem[20] = 0x55;                                 /* read when asked, not before */
	peek_ok(how, 0x85, mem + 20, 1);
	assert_int_equal(sonde_rx_region(mem, 0, 0), 0);
	assert_int_equal(sonde_rx_region(mem2, 0, 0), 0);
}

/* Registering: replace, remove, table full, bad regions. */
static void test_regions(void **state)
{
	static uint8_t r[SONDE_CFG_RX_REGIONS + 1][4];
	uint8_t d[SONDE_ADDR_SIZE + 1];
	unsigned i;

	setup(SONDE_MODE_OVERWRITE);
	for (i = 0; i < SONDE_CFG_RX_REGIONS; i++)
		assert_int_equal(sonde_rx_region(r[i], sizeof r[i], SONDE_RX_READ), 0);
	assert_int_equal(sonde_rx_region(r[i], sizeof r[i], SONDE_RX_READ), -1); /* full */
	assert_int_equal(sonde_rx_region(r[0], 2, SONDE_RX_READ), 0);             /* replaces */
	put_addr(d, r[0] + 2);
	d[SONDE_ADDR_SIZE] = 1;
	rx_send(rx_how_of(state), 0x90, SONDE_CMD_PEEK, d, sizeof d);
	rx_expect_only_status(0x90, SONDE_CMD_PEEK, SONDE_ST_OUT_OF_REGION);
	assert_int_equal(sonde_rx_region(r[1], sizeof r[1], SONDE_RX_WRITE), 0); /* write only */
	put_addr(d, r[1]);
	rx_send(rx_how_of(state), 0x91, SONDE_CMD_PEEK, d, sizeof d);
	rx_expect_only_status(0x91, SONDE_CMD_PEEK, SONDE_ST_OUT_OF_REGION);
	assert_int_equal(sonde_rx_region(r[1], 0, 0), 0);                         /* removed */
	assert_int_equal(sonde_rx_region(r[4], sizeof r[4], SONDE_RX_READ), 0);  /* slot free again */
	peek_ok(rx_how_of(state), 0x92, r[4], 4);
	assert_int_equal(sonde_rx_region(r[1], 0, 0), 0);                         /* not there: fine */
	assert_int_equal(sonde_rx_region(r[4], 0, 0), 0);
	/* Empty, or running past the top of the address space. */
	assert_int_equal(sonde_rx_region(r[1], 0, SONDE_RX_READ), -1);
	assert_int_equal(sonde_rx_region((const void *)(UINTPTR_MAX - 3u), 5, SONDE_RX_READ), -1);
	assert_int_equal(sonde_rx_region((const void *)(UINTPTR_MAX - 3u), 4, SONDE_RX_READ), 0);
	assert_int_equal(sonde_rx_region((const void *)(UINTPTR_MAX - 3u), 0, 0), 0);
	for (i = 0; i <= SONDE_CFG_RX_REGIONS; i++)
		assert_int_equal(sonde_rx_region(r[i], 0, 0), 0);
}

/* ---- replies while the buffer refuses records ------------------------------ */

/* A frozen post-mortem buffer that is full keeps what it holds: replies do
 * not overwrite it; they are refused (and counted) until it is read out. */
static void test_reply_frozen_full(void **state)
{
	static uint8_t small[128];
	struct tgt_frames fr;
	sonde_stats_t st;
	unsigned k;

	sonde_rx_byte(SONDE_FLAG);
	tgt_setup(small, sizeof small, SONDE_MODE_POSTMORTEM, RX_CLOCK);
	for (k = 0; k < 40; k++)
		sonde_mark((uint8_t)k);
	sonde_trigger();
	sonde_get_stats(&st);
	rx_send(rx_how_of(state), 0xA0, SONDE_CMD_STATS, NULL, 0);
	{
		sonde_stats_t now;

		sonde_get_stats(&now);
		assert_int_equal(now.records, st.records);
		assert_int_equal(now.refused, st.refused + 2); /* TARGET_STATS and its CMD_STATUS */
	}
	rx_drain(&fr);
	/* The newest marks, ending with the last one written; the drain's
	 * loss report after them. */
	assert_true(fr.n >= 3);
	assert_int_equal(fr.f[fr.n - 3].id, SONDE_REC_MARK);
	assert_int_equal(fr.f[fr.n - 3].data[0], 39);
	assert_int_equal(fr.f[fr.n - 2].id, SONDE_REC_TIME_SYNC);
	assert_int_equal(fr.f[fr.n - 1].id, SONDE_REC_DROPS);
	assert_int_equal(tgt_le32(fr.f[fr.n - 1].data + 4), 2);
	tgt_frames_free(&fr);
	/* Read out: room again. */
	rx_send(rx_how_of(state), 0xA1, SONDE_CMD_STATS, NULL, 0);
	rx_drain(&fr);
	assert_int_equal(fr.n, 2);
	assert_int_equal(fr.f[0].id, SONDE_REC_TARGET_STATS);
	rx_expect_status(&fr.f[1], 0xA1, SONDE_CMD_STATS, SONDE_ST_OK);
	tgt_frames_free(&fr);
	sonde_start();
}

/* Several commands in one block, each answered once, in order. */
static void test_pipelined(void **state)
{
	uint8_t w[256];
	size_t n = 0;
	struct tgt_frames fr;
	uint8_t s;

	setup(SONDE_MODE_OVERWRITE);
	for (s = 0; s < 8; s++)
		n += hdlc_encode((uint8_t)(0x7A + s), s % 2 ? SONDE_CMD_STOP : SONDE_CMD_START, NULL, 0, w + n);
	w[n++] = SONDE_FLAG; /* idle fill: ignored */
	w[n++] = SONDE_FLAG;
	rx_feed_how(rx_how_of(state), w, n);
	rx_drain(&fr);
	{
		size_t i, k = 0;

		for (i = 0; i < fr.n; i++) {
			if (fr.f[i].id != SONDE_REC_CMD_STATUS)
				continue;
			rx_expect_status(&fr.f[i], (uint8_t)(0x7A + k), k % 2 ? SONDE_CMD_STOP : SONDE_CMD_START,
					 SONDE_ST_OK);
			k++;
		}
		assert_int_equal(k, 8);
	}
	tgt_frames_free(&fr);
	assert_false(sonde_is_running());
	sonde_start();
}

#define RX_T(f)                                                              \
	{ #f " (whole)", f, NULL, NULL, (void *)&rx_how_whole },             \
	{ #f " (bytes)", f, NULL, NULL, (void *)&rx_how_bytes },             \
	{ #f " (chunks)", f, NULL, NULL, (void *)&rx_how_chunks }

int main(void)
{
	const struct CMUnitTest tests[] = {
		RX_T(test_info),
		RX_T(test_glb_filter),
		RX_T(test_loc_filter),
		RX_T(test_stop_start),
		RX_T(test_trigger),
		RX_T(test_readout),
		RX_T(test_reset_ctrs),
		RX_T(test_stats),
		RX_T(test_app),
		RX_T(test_peek),
		RX_T(test_regions),
		RX_T(test_reply_frozen_full),
		RX_T(test_pipelined),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
