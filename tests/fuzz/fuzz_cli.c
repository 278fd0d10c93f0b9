/*
 * fuzz_cli.c -- libFuzzer harness: the command line.  The input is split at
 * NUL bytes into words (after a first byte that picks what reads them):
 *
 *   0  `sonde CMD --help WORDS...` through sonde_cli_main: the dispatch,
 *      the option parser (cli/cli_args.c) and every option's handler of
 *      command CMD (picked by the second byte from the generated command
 *      table).  "--help" first makes each command stop after parsing and
 *      print its help (to /dev/null), so nothing runs, opens or exits;
 *      every command checks its help flag right after cli_parse.  A
 *      second byte of 0xFF takes CMD from the first word instead (as the
 *      regression inputs do, so that they keep their command when commands
 *      are added);
 *   1  `sonde WORDS...` when WORDS[0] is not a command: the global options
 *      and the unknown-command messages;
 *   2  the command words of `sonde send` / the keys of `sonde live`
 *      (rxcmd_parse, 4- or 8-byte addresses), and a good parse framed as
 *      the target will receive it (rxcmd_frame) must frame back to the
 *      command's id and DATA;
 *   3  the same for QS targets (qs_rxcmd_parse);
 *   4  a link's text (sonde_link_parse: "tcp://h:p", "serial:/dev/x:115200:8N1", ...);
 *   5  the FILE@SPEC operands of `sonde decode` and `sonde stats`
 *      (FILE@N, FILE@core=N,proto=P,KEY=VALUE), read as the merge of several
 *      inputs reads them (sonde_drive_spec_check), each at its position.
 *
 * Exit statuses must be 0..3 (docs/cli.md).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/drive.h"
#include "proto/qs/qs_rxcmd.h"
#include "proto/sonde/sonde_rxcmd.h"
#include "framers/framer_hdlc.h"
#include "fuzz_util.h"
#include "sources/link.h"

#define MAX_WORDS 64

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!freopen("/dev/null", "w", stdout))
		fuzz_fail("cannot send standard output to /dev/null");
	return 0;
}

struct framed {
	const struct rxcmd *c;
	int frames;
};

static void on_frame(void *ctx, enum hdlc_status st, const uint8_t *fr, size_t len, uint64_t off, size_t raw)
{
	struct framed *f = ctx;
	(void)off;
	(void)raw;
	if (st != HDLC_OK || fr[1] != f->c->id || len != f->c->n + 3 || memcmp(fr + 2, f->c->data, f->c->n) != 0)
		fuzz_fail("command 0x%02X with %zu bytes of DATA does not frame back to itself", f->c->id, f->c->n);
	f->frames++;
}

static void check_frame(const struct rxcmd *c)
{
	uint8_t wire[RXCMD_FRAME_MAX], buf[RXCMD_DATA_MAX + 3];
	struct framed f = { c, 0 };
	struct hdlc_framer fr;
	if (c->n > RXCMD_DATA_MAX)
		fuzz_fail("command DATA of %zu bytes, more than RXCMD_DATA_MAX", c->n);
	size_t k = rxcmd_frame(c, 0x42, 0, wire);
	hdlc_init(&fr, buf, sizeof(buf), on_frame, &f);
	hdlc_feed(&fr, wire, k);
	hdlc_finish(&fr);
	if (f.frames != 1)
		fuzz_fail("command 0x%02X framed into %d frames", c->id, f.frames);
}

static void check_why(int rc, const char *why)
{
	if (rc != 0 && !why[0])
		fuzz_fail("a parse failed without saying why");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint8_t mode = fuzz_take(&in) % 6, pick = fuzz_take(&in);
	char *text = malloc(in.n + 1);
	char *words[MAX_WORDS + 4];
	int n = 0;
	if (!text)
		return 0;
	if (in.n)
		memcpy(text, in.p, in.n);
	text[in.n] = '\0';
	for (size_t i = 0; i < in.n && n < MAX_WORDS; i += strlen(text + i) + 1)
		words[n++] = text + i;
	words[n] = NULL;

	char why[512] = "";
	struct rxcmd c;
	int rc;
	if (mode == 0 || (mode == 1 && n > 0 && sonde_cmd_find(words[0]))) {
		size_t ncmds = 0;
		while (sonde_cmds[ncmds])
			ncmds++;
		char *argv[MAX_WORDS + 4];
		char **rest = words;
		int nrest = n;
		argv[0] = "sonde";
		argv[1] = (char *)sonde_cmds[pick % ncmds]->name;
		if (pick == 0xFF) {
			if (n == 0 || !sonde_cmd_find(words[0])) {
				free(text);
				return 0;
			}
			argv[1] = words[0];
			rest++;
			nrest--;
		}
		argv[2] = "--help";
		memcpy(argv + 3, rest, (size_t)(nrest + 1) * sizeof(char *));
		rc = sonde_cli_main(nrest + 3, argv);
		if (rc < 0 || rc > 3)
			fuzz_fail("exit status %d", rc);
	} else if (mode == 1) {
		char *argv[MAX_WORDS + 4];
		argv[0] = "sonde";
		memcpy(argv + 1, words, (size_t)(n + 1) * sizeof(char *));
		rc = sonde_cli_main(n + 1, argv);
		if (rc < 0 || rc > 3)
			fuzz_fail("exit status %d", rc);
	} else if (mode == 2) {
		rc = rxcmd_parse(words, n, pick & 1 ? 8 : 4, &c, why, sizeof(why));
		check_why(rc, why);
		if (rc == 0)
			check_frame(&c);
	} else if (mode == 3) {
		rc = qs_rxcmd_parse(words, n, pick, pick & 1 ? 8 : 4, &c, why, sizeof(why));
		check_why(rc, why);
		if (rc == 0 && c.qs_len > sizeof(c.qs_frame))
			fuzz_fail("QS command frame of %zu bytes", c.qs_len);
	} else if (mode == 5) {
		struct sonde_drive d = { .cmd = "decode", .proto = pick & 1 ? "qs" : "auto" };
		for (int i = 0; i < n; i++)
			(void)sonde_drive_spec_check(&d, words[i], (size_t)i);
	} else {
		struct sonde_link_spec spec;
		rc = sonde_link_parse(n ? words[0] : "", &spec, why, sizeof(why));
		check_why(rc, why);
		if (rc == 0)
			(void)sonde_link_bits_per_byte(&spec);
	}
	free(text);
	return 0;
}
