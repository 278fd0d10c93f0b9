/*
 * fuzz_target_rx.c -- libFuzzer harness: the target's command receiver
 * (sonde_rx_byte / sonde_rx_feed, target/src/sonde_rx.c and sonde_cmd.c),
 * built for the host with the POSIX port and with POKE compiled in
 * (fuzz_target_poke, tests/fuzz/CMakeLists.txt).
 *
 * sonde-fuzz-link: fuzz_target_poke
 *
 * Memory: three pages at the fixed address 0x20000000 (so that seeds and
 * the fuzzer can name them in PEEK and POKE commands): a guard page with no
 * access, a page holding the registered regions, another guard page.
 * Inside the middle page every byte outside a registered region is
 * poisoned for AddressSanitizer, so any read or write there is a report:
 *
 *   0x20001000 +100  READ          (starts the page: below it is the guard)
 *   0x20001100 +40   READ | WRITE
 *   0x20001200 +16   WRITE only    (PEEK must refuse it)
 *   0x20001FE0 +32   READ | WRITE  (ends the page: above it is the guard)
 *
 * Checked after each input: the read-only region is unchanged, every
 * PEEK_DATA reply names bytes inside a READ region, and the trace the
 * target wrote (drained after each piece of input) is whole frames with
 * good checksums.
 *
 * Input: byte 0 picks the buffer mode and how bytes are fed (all at once,
 * one at a time, or in pieces of byte 1's size); the rest goes to the
 * receiver.  Between pieces the application records a few events, so that
 * filters and START/STOP have something to act on.
 */
#include <sanitizer/asan_interface.h>
#include <string.h>
#include <sys/mman.h>

#include "framers/framer_hdlc.h"
#include "fuzz_util.h"
#include "sonde.h"
#include "sonde_posix.h"

#define BASE  ((uintptr_t)0x20000000u)
#define PAGE  4096u
#define MID   (BASE + PAGE)

static const struct {
	uintptr_t at;
	size_t len;
	uint8_t flags;
} regions[] = {
	{ MID, 100, SONDE_RX_READ },
	{ MID + 0x100, 40, SONDE_RX_READ | SONDE_RX_WRITE },
	{ MID + 0x200, 16, SONDE_RX_WRITE },
	{ MID + PAGE - 32, 32, SONDE_RX_READ | SONDE_RX_WRITE },
};
#define NREGIONS (sizeof(regions) / sizeof(regions[0]))

static uint8_t template_page[PAGE];
static uint8_t ring[4096];
static uint8_t drained[4096];
static uint32_t clock_now;

static uint32_t fake_clock(void)
{
	return clock_now += 7;
}

static int app_cb(uint8_t cmd, uint32_t a, uint32_t b, uint32_t c)
{
	return (int)(cmd ^ a ^ b ^ c) % 0x140;
}

static void dict_cb(void)
{
	sonde_dict(SONDE_DICT_TASK, 1, "task");
	sonde_dict(SONDE_DICT_MARKER, 2, "mark");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	void *p = mmap((void *)BASE, 3 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != (void *)BASE || mprotect((void *)MID, PAGE, PROT_READ | PROT_WRITE) != 0)
		fuzz_fail("cannot map the region pages at 0x%lx", (unsigned long)BASE);
	for (size_t i = 0; i < PAGE; i++)
		template_page[i] = (uint8_t)(i * 131u + 7u);
	memcpy((void *)MID, template_page, PAGE);
	ASAN_POISON_MEMORY_REGION((void *)MID, PAGE);
	for (size_t i = 0; i < NREGIONS; i++)
		ASAN_UNPOISON_MEMORY_REGION((void *)regions[i].at, regions[i].len);
	sonde_posix_set_clock(fake_clock);
	sonde_set_dict_callback(dict_cb);
	return 0;
}

/* ---- the trace the target wrote ------------------------------------------ */

static int in_read_region(uintptr_t a, size_t n)
{
	for (size_t i = 0; i < NREGIONS; i++)
		if ((regions[i].flags & SONDE_RX_READ) && a >= regions[i].at &&
		    a + n <= regions[i].at + regions[i].len)
			return 1;
	return 0;
}

static void on_frame(void *ctx, enum hdlc_status st, const uint8_t *fr, size_t len, uint64_t off, size_t raw)
{
	(void)ctx;
	(void)raw;
	if (st != HDLC_OK)
		fuzz_fail("the target wrote a bad frame (status %d) at trace offset %llu", (int)st,
			  (unsigned long long)off);
	if (fr[1] != SONDE_REC_PEEK_DATA)
		return;
	/* SEQ ID | addr | n | bytes | ts: 1 to 4 bytes, its width in the tag
	 * bits of its last byte (docs/protocol.md section 5) | CHK */
	if (len < 3 + SONDE_ADDR_SIZE + 1 + 1)
		fuzz_fail("PEEK_DATA of %zu bytes", len);
	uint8_t tag = fr[len - 2];
	size_t w = !(tag & 0x80) ? 1 : (tag & 0xC0) == 0x80 ? 2 : (tag & 0xE0) == 0xC0 ? 3 : (tag & 0xF0) == 0xE0 ? 4 : 0;
	uintptr_t a = 0;
	for (unsigned i = SONDE_ADDR_SIZE; i-- > 0;)
		a = a << 8 | fr[2 + i];
	size_t n = fr[2 + SONDE_ADDR_SIZE];
	if (!w || len != 3 + SONDE_ADDR_SIZE + 1 + n + w || !in_read_region(a, n))
		fuzz_fail("PEEK_DATA of %zu bytes at 0x%lx (frame of %zu bytes): not inside a readable region", n,
			  (unsigned long)a, len);
	if (memcmp(fr + 3 + SONDE_ADDR_SIZE, template_page + (a - MID), n) != 0 && a < MID + 0x100)
		fuzz_fail("PEEK_DATA at 0x%lx does not hold the read-only region's bytes", (unsigned long)a);
}

static struct hdlc_framer trace;
static uint8_t trace_buf[1100];

static void drain(void)
{
	size_t k;
	while ((k = sonde_drain(drained, sizeof(drained))) > 0)
		hdlc_feed(&trace, drained, k);
}

/* The application at work between pieces of input. */
static void app_records(uint8_t salt)
{
	sonde_isr_enter(salt & 7);
	sonde_mark(2);
	sonde_counter(salt, (int32_t)salt * 1000);
	sonde_user_u32(SONDE_REC_USER_FIRST + (salt & 3), salt);
	sonde_isr_exit(salt & 7);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint8_t cfg = fuzz_take(&in);
	size_t piece = 1u + fuzz_take(&in) % 48u;

	/* a fresh target: regions as registered, the receiver between frames */
	for (size_t i = 0; i < NREGIONS; i++)
		memcpy((void *)regions[i].at, template_page + (regions[i].at - MID), regions[i].len);
	sonde_rx_byte(SONDE_FLAG);
	clock_now = 0;
	sonde_init(ring, sizeof(ring), cfg & 3);
	for (size_t i = 0; i < NREGIONS; i++)
		if (sonde_rx_region((const void *)regions[i].at, regions[i].len, regions[i].flags) != 0)
			fuzz_fail("cannot register region %zu", i);
	sonde_rx_set_app_callback(cfg & 0x10 ? NULL : app_cb);
	hdlc_init(&trace, trace_buf, sizeof(trace_buf), on_frame, NULL);
	drain();

	switch ((cfg >> 2) & 3) {
	case 0:
		sonde_rx_feed(in.p, in.n);
		drain();
		break;
	case 1:
		for (size_t i = 0; i < in.n; i++) {
			sonde_rx_byte(in.p[i]);
			drain();
		}
		break;
	default:
		for (size_t i = 0; i < in.n; i += piece) {
			sonde_rx_feed(in.p + i, in.n - i < piece ? in.n - i : piece);
			app_records((uint8_t)i);
			drain();
		}
		break;
	}
	/* a frozen or stopped buffer gives the rest once stopped */
	sonde_stop();
	drain();
	hdlc_finish(&trace);

	if (memcmp((const void *)regions[0].at, template_page, regions[0].len) != 0)
		fuzz_fail("the read-only region was written");
	return 0;
}
