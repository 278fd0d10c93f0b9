/*
 * ctf_meta.c -- the TSDL metadata of the CTF 1.8 export (ctf_meta.h): the
 * types, the trace and its environment, the target's clock, the one stream
 * class (one stream per core), and one event class per event kind with the
 * fields of that kind named as in --format jsonl.
 */
#include <inttypes.h>
#include <string.h>

#include "ctf_meta.h"
#include "event_desc.h"

static const char types[] =
	"/* CTF 1.8 */\n"
	"/* written by sonde (docs/exports.md) */\n\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; base = 16; } := xuint64_t;\n"
	"typealias integer { size = 8; align = 8; signed = true; } := int8_t;\n"
	"typealias integer { size = 16; align = 8; signed = true; } := int16_t;\n"
	"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
	"typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
	"typealias floating_point { exp_dig = 8; mant_dig = 24; align = 8; } := float32_t;\n"
	"typealias floating_point { exp_dig = 11; mant_dig = 53; align = 8; } := float64_t;\n\n"
	/* Strings that may be empty or absent are a variant: babeltrace2
	 * up to 2.0.4 shows an empty string field with the text the same
	 * field had in an earlier event (its string clear keeps the old
	 * bytes), so an empty string is never written: it is "none". */
	"enum str_tag : uint8_t { none = 0, some = 1 };\n"
	"struct str {\n"
	"\tenum str_tag has;\n"
	"\tvariant <has> {\n"
	"\t\tstruct { } none;\n"
	"\t\tstring some;\n"
	"\t} value;\n"
	"};\n\n"
	"trace {\n"
	"\tmajor = 1;\n"
	"\tminor = 8;\n"
	"\tbyte_order = le;\n"
	"\tpacket.header := struct {\n"
	"\t\tuint32_t magic;\n"
	"\t\tuint32_t stream_id;\n"
	"\t};\n"
	"};\n\n";

/* After the clock: the stream class and the argument type. */
static const char stream[] =
	"typealias integer { size = 64; align = 8; signed = false; map = clock.target.value; } := clock_t;\n\n"
	"stream {\n"
	"\tid = 0;\n"
	"\tpacket.context := struct {\n"
	"\t\tuint64_t packet_size;\n"
	"\t\tuint64_t content_size;\n"
	"\t\tclock_t timestamp_begin;\n"
	"\t\tclock_t timestamp_end;\n"
	"\t\tuint64_t events_discarded;\n"
	"\t\tuint64_t packet_seq_num;\n"
	"\t\tuint32_t cpu_id;\n"
	"\t};\n"
	"\tevent.header := struct {\n"
	"\t\tuint16_t id;\n"
	"\t\tclock_t timestamp;\n"
	"\t};\n"
	"\tevent.context := struct {\n"
	"\t\tuint64_t index;\n"
	"\t\tuint64_t ts;\n"
	"\t\tuint8_t ts_valid;\n"
	"\t\tuint8_t estimated;\n"
	"\t\tuint32_t rec_id;\n"
	"\t\tstruct str record;\n"
	"\t\tuint32_t flags;\n"
	"\t\tuint64_t offset;\n"
	"\t\tuint64_t frame;\n"
	"\t\tuint32_t seq;\n"
	"\t};\n"
	"};\n\n"
	/* the labels are sonde_arg_type_name(); "enum" is a keyword, so the
	 * label is a string and the variant option _enum (a leading '_' is
	 * dropped from TSDL field names) */
	"enum arg_type : uint8_t {\n"
	"\tnone = 0, u8 = 1, u16 = 2, u32 = 3, u64 = 4, i8 = 5, i16 = 6, i32 = 7, i64 = 8,\n"
	"\tf32 = 9, f64 = 10, str = 11, mem = 12, obj = 13, func = 14, \"enum\" = 15, hex = 16, bool = 17\n"
	"};\n\n"
	"struct arg {\n"
	"\tstruct str name;\n"
	"\tenum arg_type type;\n"
	"\tvariant <type> {\n"
	"\t\tstruct { } none;\n"
	"\t\tuint8_t u8;\n"
	"\t\tuint16_t u16;\n"
	"\t\tuint32_t u32;\n"
	"\t\tuint64_t u64;\n"
	"\t\tint8_t i8;\n"
	"\t\tint16_t i16;\n"
	"\t\tint32_t i32;\n"
	"\t\tint64_t i64;\n"
	"\t\tfloat32_t f32;\n"
	"\t\tfloat64_t f64;\n"
	"\t\tstruct str str;\n"
	"\t\tstruct { uint32_t n; uint8_t bytes[n]; } mem;\n"
	"\t\txuint64_t obj;\n"
	"\t\txuint64_t func;\n"
	"\t\tuint64_t _enum;\n"
	"\t\txuint64_t hex;\n"
	"\t\tuint8_t bool;\n"
	"\t} value;\n"
	"\tstruct str resolved;\n"
	"\tuint32_t group;\n"
	"};\n\n";

/* A string for the metadata: quotes and backslashes escaped, control
 * bytes left out (names come from the target). */
static void ctf_meta_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fputc('"', f);
}

static void ctf_meta_env(FILE *f, const struct ctf_meta_info *mi)
{
	const struct sonde_session *s = mi->session;

	fprintf(f, "env {\n\ttracer_name = \"sonde\";\n\ttracer_version = \"%s\";\n", SONDE_VERSION);
	if (s) {
		fprintf(f, "\tproto = ");
		ctf_meta_quoted(f, s->proto ? s->proto : "");
		fprintf(f, ";\n\tts_freq = %" PRIu64 ";\n", s->ts_freq);
		if (s->have_origin)
			fprintf(f, "\torigin = %" PRIu64 ";\n", s->origin);
		fprintf(f, "\tbuild_id = %" PRIu32 ";\n\taddr_size = %" PRIu32 ";\n", s->build_id, s->addr_size);
		fprintf(f, "\tframes = %" PRIu64 ";\n\tdrops_overwritten = %" PRIu64 ";\n\tdrops_refused = %" PRIu64
			   ";\n\tlost_link = %" PRIu64 ";\n",
			s->frames, s->drops_overwritten, s->drops_refused, s->lost_link);
	}
	fprintf(f, "\trecords = %" PRIu64 ";\n\tdiagnostics = %" PRIu64 ";\n\tstreams = %" PRIu32 ";\n};\n\n",
		mi->records, mi->diagnostics, mi->streams);
}

/* The target's clock: its rate, and the session's first record as the
 * origin (offset = -origin), so that times read from 0 as on every other
 * timeline while the packets keep the target's own ticks. */
static void ctf_meta_clock(FILE *f, const struct sonde_session *s)
{
	uint64_t freq = s && s->ts_freq ? s->ts_freq : 1000000000u;
	uint64_t o = s && s->have_origin ? s->origin : 0;
	uint64_t secs = o / freq + (o % freq != 0);  /* ceil(o / freq) */

	fprintf(f, "clock {\n\tname = target;\n\tdescription = \"%s\";\n\tfreq = %" PRIu64 ";\n",
		s && s->ts_freq ? "the target's trace clock; 0 = the session's first record"
				: "the target's trace clock, rate unknown: 1 tick is shown as 1 ns",
		freq);
	fprintf(f, "\toffset_s = %s%" PRIu64 ";\n\toffset = %" PRIu64 ";\n\tabsolute = false;\n};\n\n",
		secs ? "-" : "", secs, secs * freq - o);
}

static void ctf_meta_event(FILE *f, unsigned id, const struct sonde_ev_desc *d)
{
	fprintf(f, "event {\n\tid = %u;\n\tname = \"%s\";\n\tstream_id = 0;\n\tfields := struct {\n", id, d->name);
	if (d->obj_key)
		fprintf(f, "\t\t%s %s;\n\t\tstruct str %s_name;\n",
			strcmp(d->obj_key, "func") == 0 ? "xuint64_t" : "uint64_t", d->obj_key, d->obj_key);
	if (d->obj2_key)
		fprintf(f, "\t\tuint64_t %s;\n\t\tstruct str %s_name;\n", d->obj2_key, d->obj2_key);
	if (d->value_key)
		fprintf(f, "\t\tint64_t %s;\n", d->value_key);
	if (d->has_level)
		fprintf(f, "\t\tuint32_t level;\n\t\tstruct str level_name;\n");
	if (d->text_key)
		fprintf(f, "\t\tstruct str %s;\n", d->text_key);
	fprintf(f, "\t\tuint32_t nargs;\n\t\tstruct arg args[nargs];\n\t};\n};\n\n");
}

int ctf_meta_write(FILE *f, const struct ctf_meta_info *mi)
{
	fputs(types, f);
	ctf_meta_env(f, mi);
	ctf_meta_clock(f, mi->session);
	fputs(stream, f);
	for (unsigned k = 0; k < SONDE_EV_KIND_COUNT; k++)
		ctf_meta_event(f, k, sonde_ev_desc((enum sonde_ev_kind)k));
	fprintf(f, "event {\n\tid = %u;\n\tname = \"diagnostic\";\n\tstream_id = 0;\n\tfields := struct {\n"
		   "\t\tstruct str code;\n\t\tuint64_t offset;\n\t\tuint64_t frame;\n\t\tuint64_t count;\n"
		   "\t\tstruct str message;\n\t};\n};\n", (unsigned)CTF_DIAG_ID);
	return ferror(f) ? -1 : 0;
}
