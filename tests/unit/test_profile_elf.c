/*
 * test_profile_elf.c -- naming function addresses from an ELF file
 * (host/src/sinks/elf_symbols.c) and through the profile sink (-o elf=).
 *
 * Two real ELF files: this test program itself (x86-64, usually PIE: the
 * load bias from dl_iterate_phdr turns a run-time address into a link-time
 * one), and a small Cortex-M (Thumb) program compiled here with
 * arm-none-eabi-gcc and a linker script that puts each function at a known
 * address, so the expected names and addresses are fixed by the test, not
 * read back from the file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <link.h>
#include <unistd.h>

#include "pipeline.h"
#include "util/elf_symbols.h"

extern const struct sonde_sink_ops sonde_sink_profile;
extern const struct sonde_sink_ops sonde_sink_folded;

/* ---- this program -------------------------------------------------------- */

volatile int elf_test_sink;

__attribute__((noinline)) int profile_elf_marker(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += i * elf_test_sink;
	return s;
}

static int find_bias(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(uint64_t *)arg = info->dlpi_addr; /* the first object is the program */
	return 1;
}

static void test_self_exe(void **state)
{
	char err[256];
	struct elfsym *es = elfsym_open("/proc/self/exe", err, sizeof(err));
	uint64_t bias = 0, addr, start = 0;

	(void)state;
	assert_non_null(es);
	assert_true(elfsym_count(es) > 10);
	dl_iterate_phdr(find_bias, &bias);
	addr = (uint64_t)(uintptr_t)&profile_elf_marker - bias;
	assert_string_equal(elfsym_lookup(es, addr, &start), "profile_elf_marker");
	assert_int_equal(start, addr);
	/* an address inside the function (a return address, say) */
	assert_string_equal(elfsym_lookup(es, addr + 3, NULL), "profile_elf_marker");
	assert_null(elfsym_lookup(es, 0, NULL));
	elfsym_close(es);
	(void)profile_elf_marker(3);
}

/* ---- a Thumb program ------------------------------------------------------ */

static const char arm_src[] =
	"volatile int sink;\n"
	"int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += i * sink; return s; }\n"
	"static __attribute__((noinline)) int helper(int x) { sink = x; return x + sink; }\n"
	"void Default_Handler(void) { for (;;) sink++; }\n"
	"void SysTick_Handler(void) __attribute__((weak, alias(\"Default_Handler\")));\n"
	"void _start(void) { sink = work(helper(3)); Default_Handler(); }\n";

static const char arm_ld[] =
	"ENTRY(_start)\n"
	"SECTIONS {\n"
	"  .text.work 0x08000100 : { *(.text.work) }\n"
	"  .text.helper 0x08000200 : { *(.text.helper) }\n"
	"  .text.dh 0x08000300 : { *(.text.Default_Handler) }\n"
	"  .text 0x08000400 : { *(.text*) }\n"
	"  .bss 0x20000000 : { *(.bss*) *(COMMON) }\n"
	"}\n";

static char tmpdir[64];
static char arm_elf[128];

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int build_arm_elf(void **state)
{
	char cmd[512];
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s/sonde-prof-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tmpdir))
		return -1;
	write_file(tmpdir, "t.c", arm_src);
	write_file(tmpdir, "t.ld", arm_ld);
	write_file(tmpdir, "not-elf.txt", "hello\n");
	snprintf(arm_elf, sizeof(arm_elf), "%s/t.elf", tmpdir);
	snprintf(cmd, sizeof(cmd),
		 "arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -O1 -ffunction-sections -nostdlib "
		 "-T %s/t.ld -o %s %s/t.c", tmpdir, arm_elf, tmpdir);
	if (system(cmd) != 0) {
		fprintf(stderr, "test_profile_elf: cannot build the ARM test program (%s)\n", cmd);
		return -1;
	}
	return 0;
}

static int remove_arm_elf(void **state)
{
	char path[160];

	(void)state;
	if (!tmpdir[0])
		return 0;
	for (const char *const *n = (const char *const[]){ "t.c", "t.ld", "t.elf", "not-elf.txt", NULL }; *n; n++) {
		snprintf(path, sizeof(path), "%s/%s", tmpdir, *n);
		unlink(path);
	}
	rmdir(tmpdir);
	return 0;
}

static void test_thumb(void **state)
{
	char err[256];
	struct elfsym *es = elfsym_open(arm_elf, err, sizeof(err));
	uint64_t start = 0;

	(void)state;
	assert_non_null(es);
	/* symbol values carry the Thumb bit (0x08000101); lookups ignore it */
	assert_string_equal(elfsym_lookup(es, 0x08000101, &start), "work");
	assert_int_equal(start, 0x08000100);
	assert_string_equal(elfsym_lookup(es, 0x08000100, NULL), "work");
	assert_string_equal(elfsym_lookup(es, 0x08000105, NULL), "work");
	assert_null(elfsym_lookup(es, 0x080001F0, NULL)); /* past work's size */
	assert_null(elfsym_lookup(es, 0x080000FF, NULL));
	assert_string_equal(elfsym_lookup(es, 0x08000201, NULL), "helper"); /* local */
	/* a weak alias at the same address: the global name wins */
	assert_string_equal(elfsym_lookup(es, 0x08000301, NULL), "Default_Handler");
	assert_string_equal(elfsym_lookup(es, 0x08000300, NULL), "Default_Handler");
	elfsym_close(es);
}

static void test_errors(void **state)
{
	char err[256], path[160];

	(void)state;
	assert_null(elfsym_open("/nonexistent/x.elf", err, sizeof(err)));
	assert_string_equal(err, "/nonexistent/x.elf: No such file or directory");
	snprintf(path, sizeof(path), "%s/not-elf.txt", tmpdir);
	assert_null(elfsym_open(path, err, sizeof(err)));
	assert_non_null(strstr(err, "not an ELF file"));
	assert_null(elfsym_lookup(NULL, 0x1000, NULL));
}

/* The sinks name FUNC_ENTER_A addresses from -o elf=: entry addresses
 * with the Thumb bit and addresses inside a function are one function;
 * unknown addresses print as numbers; decoder names win. */
static char *run_addr_trace(const struct sonde_sink_ops *ops)
{
	static const struct { uint64_t ts, addr; const char *name; } calls[] = {
		{ 0, 0x08000101, NULL },     /* work */
		{ 10, 0x08000201, NULL },    /* helper */
		{ 20, 0x08000105, NULL },    /* inside work */
		{ 30, 0x09000000, NULL },    /* nothing there */
		{ 40, 0x08000301, "tick" },  /* the decoder's name */
	};
	char opt[200];
	const char *opts[] = { opt, NULL };
	struct sonde_session s = { .proto = "test", .addr_size = 4, .buffer_mode = -1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	void *sink;

	snprintf(opt, sizeof(opt), "elf=%s", arm_elf);
	assert_non_null(f);
	sink = ops->create(f, opts);
	assert_non_null(sink);
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		struct sonde_event e;

		memset(&e, 0, sizeof(e));
		e.kind = SONDE_EV_FUNC_ENTER;
		e.flags = SONDE_EVF_ADDR;
		e.ts = calls[i].ts;
		e.ts_flags = SONDE_TS_VALID;
		e.obj = calls[i].addr;
		e.obj_name = calls[i].name;
		ops->event(sink, &e, &s);
		e.kind = SONDE_EV_FUNC_EXIT;
		e.flags = 0;
		e.obj = 0;
		e.obj_name = NULL;
		e.ts = calls[i].ts + 1 + i;
		ops->event(sink, &e, &s);
	}
	assert_int_equal(ops->finish(sink, &s), 0);
	ops->destroy(sink);
	fclose(f);
	return buf;
}

static void test_sinks_with_elf(void **state)
{
	char *out;

	(void)state;
	out = run_addr_trace(&sonde_sink_profile);
	assert_non_null(strstr(out,
		"function   calls  incl[t]  self[t]  self%  mean[t]  min[t]  max[t]\n"
		"tick           1        5        5  11.11      5.0       5       5\n"
		"0x9000000      1        4        4   8.89      4.0       4       4\n"
		"work           2        4        4   8.89      2.0       1       3\n"
		"helper         1        2        2   4.44      2.0       2       2\n"));
	free(out);
	out = run_addr_trace(&sonde_sink_folded);
	assert_string_equal(out,
		"No task 30\n"
		"No task;0x9000000 4\n"
		"No task;helper 2\n"
		"No task;tick 5\n"
		"No task;work 4\n");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self_exe),
		cmocka_unit_test(test_thumb),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_sinks_with_elf),
	};

	return cmocka_run_group_tests(tests, build_arm_elf, remove_arm_elf);
}
