/*
 * fuzz_sinks.c -- libFuzzer harness: every registered sink (text, jsonl,
 * csv, perfetto, chrome, html, speedscope, sqlite and ctf (written to a
 * scratch directory), profile, folded and the protocol-native qspy,
 * syst-csv and tband-jsonl) fed by a decoder's events through the
 * selection stage (--from/--to/--core/--filter, core/select.h), and the
 * figures of `sonde stats` with its timing analyses (analysis/stats.c,
 * analysis/an.c), which listen to the same events.
 *
 * Input: byte 0 picks the sink (one past the last: stats and analyses; 0xFF:
 * its name follows, NUL-terminated, as in the regression inputs) and byte 1
 * the decoder, both by index in the registry, so a new sink or decoder is
 * fuzzed without touching this file; byte 2 a set of options
 * (small track and depth limits, names that need escaping, profile sort
 * orders, this executable as the ELF file of symbols, Perfetto without
 * interning or scheduling tracks); byte 3 a selection and the analyses'
 * window; the rest is the stream.  The seeds pair each sink with streams of
 * its own protocol and with Sonde streams.  The output must be what its
 * format says: JSON (chrome, speedscope), JSON lines (jsonl; tband-jsonl
 * with the tband decoder; the analyses), a Perfetto Trace (perfetto).
 */
#include <string.h>

#include "fuzz_util.h"

static size_t count(const void *const *list)
{
	size_t n = 0;
	while (list[n])
		n++;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const opt_sets[][8] = {
		{ NULL },
		{ "perfetto.max_tracks=8", "perfetto.max_depth=1", "chrome.max_tracks=8", "chrome.max_depth=1",
		  "profile.sort=name", NULL },
		{ "perfetto.name=a\"b\\c\n\x01\xff", "chrome.name=\"</script>\\u0000\xc3\x28", "perfetto.intern=no",
		  "perfetto.sched=no", "profile.sort=calls", NULL },
		{ "elf=/proc/self/exe", "profile.sort=incl", "qspy.where=yes", NULL },
		{ "perfetto.max_depth=65536", "chrome.max_depth=65536", "profile.sort=self", "tband.mode=bare-metal",
		  "syst.container=hex", NULL },
	};
	/* the selection stage (--from, --to, --core, --filter) before them */
	static const char *const selections[][9] = {
		{ NULL },
		{ "from", "100us", "to", "2ms", NULL },
		{ "from", "5000t", "core", "0,2-3", NULL },
		{ "filter", "kind=isr_*,task_*", "filter", "!name=*SYNC*", NULL },
		{ "filter", "obj=1,0x2*,sens?r,[a-c]*", "to", "1.5", NULL },
	};
	size_t nsinks = count((const void *const *)sonde_sinks);
	size_t ndecs = count((const void *const *)sonde_decoders);
	struct fuzz_in in = { data, size };
	/* one more than the sinks: no sink, the figures of `sonde stats`; 0xFF:
	 * the sink's name follows ("stats" for those), so that a regression
	 * input keeps its sink when sinks are added */
	uint8_t k = fuzz_take(&in);
	const char *sink;
	char name[32];
	if (k == 0xFF) {
		sink = fuzz_take_name(&in, name, sizeof(name));
		if (strcmp(sink, "stats") == 0)
			sink = NULL;
		else if (!sonde_sink_find(sink))
			return 0;
	} else {
		sink = k % (nsinks + 1) < nsinks ? sonde_sinks[k % (nsinks + 1)]->name : NULL;
	}
	const char *proto = sonde_decoders[fuzz_take(&in) % ndecs]->name;
	const char *const *opts = opt_sets[fuzz_take(&in) % (sizeof(opt_sets) / sizeof(opt_sets[0]))];
	uint8_t sel = fuzz_take(&in);
	struct fuzz_decode d = { .proto = proto, .opts = opts, .sink = sink, .stats = sink == NULL,
				 .select = selections[sel % (sizeof(selections) / sizeof(selections[0]))],
				 .an_window = sel & 0x80 ? 0 : 1u + (sel & 0x70) * 40u };
	struct fuzz_result r;
	fuzz_decode_run(&d, in.p, in.n, &r);
	if (r.rc != 0 && r.rc != 1) {
		/* usage (an option the sink refused) or I/O: nothing to check */
	} else if (!sink) {
		/* the stats report: plain text */
	} else if (strcmp(sink, "chrome") == 0 || strcmp(sink, "speedscope") == 0) {
		fuzz_check_json(sink, r.out, r.out_len);
	} else if (strcmp(sink, "jsonl") == 0 || (strcmp(sink, "tband-jsonl") == 0 && strcmp(proto, "tband") == 0)) {
		/* tband-jsonl prints any decoder's native lines (QSPY text with
		 * qs, CSV with syst): JSON only with its own decoder */
		fuzz_check_json_lines(sink, r.out, r.out_len);
	} else if (strcmp(sink, "perfetto") == 0) {
		fuzz_check_perfetto(sink, (const uint8_t *)r.out, r.out_len);
	}
	fuzz_result_free(&r);
	return 0;
}
