/*
 * test_qs_control.c -- the QS decoder's commands (sonde_decoder_ops.control,
 * proto/qs/qs_ctl.c): "dict" refuses before a TARGET_INFO with QSPY's
 * words and writes qspy<build>.dic after one (equal to the file QSPY wrote
 * for the DPP capture); "seq" without qs.seq says so; "seq" closes the
 * open sequence file, then opens a new one; an unknown command is -2.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pipeline.h"

extern const struct sonde_decoder_ops sonde_decoder_qs;

static char *slurp(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	long len = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	char *buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
	buf[len] = '\0';
	fclose(fp);
	*n = (size_t)len;
	return buf;
}

static int notices;
static void on_event(void *ctx, const struct sonde_event *ev)
{
	(void)ctx;
	if (ev->native && strncmp(ev->native, "   <QSPY-> Dictionaries", 23) == 0)
		notices++;
}
static void on_diag(void *ctx, const struct sonde_diag *d)
{
	(void)ctx;
	(void)d;
}

static void *make(const char **opts)
{
	static struct sonde_session sess;
	memset(&sess, 0, sizeof(sess));
	struct sonde_out out = { .event = on_event, .diag = on_diag, .session = &sess };
	void *d = sonde_decoder_qs.create(&out, opts);
	assert_non_null(d);
	return d;
}

static void test_dict(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_qs_control.XXXXXX", opt[64], msg[600], path[128];
	assert_non_null(mkdtemp(dir));
	snprintf(opt, sizeof(opt), "qs.dic_save=%s", dir);
	const char *opts[] = { opt, NULL };
	void *d = make(opts);
	notices = 0;
	assert_int_equal(sonde_decoder_qs.control(d, "dict", msg, sizeof(msg)), -1);
	assert_string_equal(msg, "Dictionaries NOT saved (no target info)");
	assert_int_equal(notices, 1);
	size_t n, m;
	char *bin = slurp(SONDE_TESTDATA "/qs/dpp_posix-qv_x86.bin", &n);
	assert_non_null(bin);
	sonde_decoder_qs.feed(d, (const uint8_t *)bin, n);
	sonde_decoder_qs.finish(d);
	assert_int_equal(notices, 2); /* the one at QF_RUN */
	snprintf(path, sizeof(path), "%s/qspy261121_235543.dic", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(sonde_decoder_qs.control(d, "dict", msg, sizeof(msg)), 0);
	char want[256];
	snprintf(want, sizeof(want), "Dictionaries saved to File=%s", path);
	assert_string_equal(msg, want);
	char *got = slurp(path, &n), *ref = slurp(SONDE_TESTDATA "/qs/dpp_posix-qv_x86.dic", &m);
	assert_non_null(got);
	assert_non_null(ref);
	assert_int_equal(n, m);
	assert_memory_equal(got, ref, n);
	assert_int_equal(sonde_decoder_qs.control(d, "bogus", msg, sizeof(msg)), -2);
	assert_int_equal(sonde_decoder_qs.control(d, "seq", msg, sizeof(msg)), -1);
	assert_string_equal(msg, "Sequence list NOT provided (no -g option)");
	sonde_decoder_qs.destroy(d);
	unlink(path);
	rmdir(dir);
	free(got);
	free(ref);
	free(bin);
}

static void test_seq_toggle(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_qs_control.XXXXXX", opt[96], msg[600], cwd[512];
	assert_non_null(mkdtemp(dir));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0); /* "seq" opens qspy<now>.seq here */
	snprintf(opt, sizeof(opt), "qs.seq_file=%s/first.seq", dir);
	const char *opts[] = { "qs.seq=?,Table_inst", opt, NULL };
	void *d = make(opts);
	assert_int_equal(sonde_decoder_qs.control(d, "seq", msg, sizeof(msg)), 0);
	assert_string_equal(msg, "Sequence Output [g] File=OFF");
	assert_int_equal(sonde_decoder_qs.control(d, "seq-off", msg, sizeof(msg)), 0);
	assert_string_equal(msg, "Sequence Output [g] File=OFF");
	assert_int_equal(sonde_decoder_qs.control(d, "seq", msg, sizeof(msg)), 0);
	char name[64];
	assert_int_equal(sscanf(msg, "Sequence Output [g] File=%63s", name), 1);
	assert_int_equal(strncmp(name, "qspy", 4), 0);
	assert_non_null(strstr(name, ".seq"));
	sonde_decoder_qs.destroy(d); /* closes it */
	size_t n;
	char *first = slurp("first.seq", &n), *second = slurp(name, &n);
	assert_non_null(first);
	assert_non_null(second);
	/* each starts with the list and the header */
	const char *head = "-g ?,Table_inst\n\n           +-------+-------+";
	assert_int_equal(strncmp(first, head, strlen(head)), 0);
	assert_string_equal(first, second);
	unlink("first.seq");
	unlink(name);
	assert_int_equal(chdir(cwd), 0);
	rmdir(dir);
	free(first);
	free(second);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dict),
		cmocka_unit_test(test_seq_toggle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
