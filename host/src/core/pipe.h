/*
 * pipe.h -- the generic driver: reads a source in chunks, feeds the chosen
 * decoder, and fans every event and diagnostic out to the sinks and to the
 * listeners (statistics, profilers, ...).  Nothing here knows any protocol:
 * decoders and sinks are reached only through their operations
 * (pipeline.h), the decoders from the list the caller hands in.
 *
 *     struct sonde_pipe p;
 *     sonde_pipe_init(&p, opts, sonde_decoders);
 *     sonde_pipe_add_sink(&p, sonde_sink_find("text"), stdout);
 *     rc = sonde_pipe_run(&p, &src, "auto");
 *     sonde_pipe_destroy(&p);
 */
#ifndef SONDE_PIPE_H
#define SONDE_PIPE_H

#include <stdint.h>
#include <stdio.h>

#include "pipeline.h"

struct sonde_source;
struct sonde_select;
struct sonde_symbolizer;

/* Exit statuses of the tool (docs/cli.md).  When several apply, the larger
 * wins: an I/O error hides stream errors. */
enum sonde_exit {
	SONDE_EXIT_OK = 0,     /* clean stream */
	SONDE_EXIT_STREAM = 1, /* the stream had errors; decoded anyway */
	SONDE_EXIT_USAGE = 2,  /* bad command line (or unknown protocol) */
	SONDE_EXIT_IO = 3      /* could not read the input or write the output */
};

/* Anything besides the sinks that wants the decoded stream. */
struct sonde_listener {
	void (*event)(void *ctx, const struct sonde_event *ev, const struct sonde_session *s);
	void (*diag)(void *ctx, const struct sonde_diag *d, const struct sonde_session *s);
	void *ctx;
	int no_text; /* 1: never reads sonde_event.text (SONDE_OMIT_TEXT) */
	/* Kinds of events this listener does without: it reads what it needs
	 * of them from the session's tally (struct sonde_tally).  0: it wants
	 * every event. */
	uint32_t tally_kinds;
};

#define SONDE_PIPE_MAX_SINKS 8
#define SONDE_PIPE_MAX_LISTENERS 8
#define SONDE_PIPE_CHUNK (64u * 1024u)   /* read size */
#define SONDE_PROBE_BYTES 4096u          /* bytes shown to the probes */
#define SONDE_PROBE_MIN_SCORE 30         /* below: "not this protocol" */
#define SONDE_PROBE_MARGIN 10            /* the best must lead the second by this much */
#define SONDE_HINT_FRAMES 20             /* errors in 1 frame of this many: say what the input looks like */

struct sonde_pipe {
	/* set by the caller (sonde_pipe_init gives defaults) */
	sonde_opts opts;
	FILE *diag_out;        /* diagnostics are printed here; NULL = not printed */
	uint64_t max_diags;    /* print at most this many (0 = all); all are counted */
	const char *output_name; /* for write-error messages */
	const char *output_path; /* --output, for sinks that write a path themselves
				  * (create_at); NULL: standard output */
	struct sonde_select *select;     /* NULL = every event (core/select.h) */
	struct sonde_symbolizer *symbols;/* NULL = no ELF names (core/symbolize.h) */
	int native;            /* decoders render native lines: set by add_sink for a sink
				* that prints them, or by a caller whose listener does */
	int text;              /* decoders format the events' text: set by add_sink, and by
				* add_listener unless the listener says no_text (a select
				* may match it too, so one set means text as well) */
	int cut_on_purpose;    /* the input was ended by the user (sonde live: Ctrl-C, 'q',
				* --duration): a frame cut at its end is the stop's doing,
				* not the stream's; sonde_pipe_end counts its bytes in
				* cut_bytes instead of reporting a 'truncated' diagnostic */
	const struct sonde_decoder_ops *const *decoders; /* sonde_pipe_init's */
	/* filled in */
	const struct sonde_decoder_ops *dec;
	void *dec_state;
	struct sonde_session session;
	struct sonde_tally tally;       /* session.tally when the decoder may tally */
	struct {
		const struct sonde_sink_ops *ops;
		void *sink;
		FILE *out;
	} sinks[SONDE_PIPE_MAX_SINKS];
	size_t nsinks;
	struct sonde_listener listeners[SONDE_PIPE_MAX_LISTENERS];
	size_t nlisteners;
	const char *input_name;
	int proto_named;                /* the protocol was given, not probed */
	uint8_t head[SONDE_PROBE_BYTES];/* the input's first bytes, for sonde_pipe_hint */
	size_t nhead;
	uint64_t bytes;                 /* bytes read from the source */
	uint64_t cut_bytes;             /* bytes of the frame cut by a stop (cut_on_purpose) */
	int ending;                     /* inside sonde_pipe_end */
	uint64_t ndiags;
	uint64_t diags[SONDE_D_COUNT];  /* per code */
	int io_error;
	int write_error;       /* a write error was reported (printed once: set it when the caller printed it) */
	FILE *failed_out;      /* the first output a write failed on (flush or finish) */
};

/* decoders: what a name or a probe chooses from (NULL-terminated): the
 * generated registry sonde_decoders for the tool, a layer above the core,
 * which is why the caller hands it in. */
void sonde_pipe_init(struct sonde_pipe *p, sonde_opts opts, const struct sonde_decoder_ops *const *decoders);
/* Create a sink writing to out (a sink with create_at writes
 * p->output_path instead, and is refused without one).  Returns 0, -1 if
 * it could not be created (a usage error: bad options, no path), or -2 if
 * its path could not be written (an I/O error); the message is printed to
 * stderr. */
int sonde_pipe_add_sink(struct sonde_pipe *p, const struct sonde_sink_ops *ops, FILE *out);

/* What the readers of the run need of the decoder (struct sonde_needs, in
 * pipeline.h): the one place it is worked out.  tally points into p. */
struct sonde_needs sonde_pipe_needs(struct sonde_pipe *p);
int sonde_pipe_add_listener(struct sonde_pipe *p, const struct sonde_listener *l);

/* Pick the decoder from list (NULL-terminated; NULL = none): one named
 * proto, or for "auto"/NULL the one whose probe scores head[0..n) best.
 * Returns the decoder, or NULL with a one-line reason in why. */
const struct sonde_decoder_ops *sonde_pipe_choose(const struct sonde_decoder_ops *const *list, const char *proto,
						  const uint8_t *head, size_t n, char *why, size_t whylen);

/* Decode the whole source.  proto as for sonde_pipe_choose.  Returns a
 * SONDE_EXIT_* status; messages go to stderr.  Sinks are finished (flushed)
 * but not destroyed; the session and counters stay readable until
 * sonde_pipe_destroy. */
int sonde_pipe_run(struct sonde_pipe *p, struct sonde_source *src, const char *proto);

/* The same in steps, for sources that deliver bytes as they come (live
 * links): sonde_pipe_begin picks the decoder (proto, or "auto" probing
 * head[0..n)), creates it and decodes head; sonde_pipe_feed decodes the
 * next chunk; sonde_pipe_end finishes the decoder and the sinks and returns
 * the exit status as sonde_pipe_run does.  name is the input's name in
 * messages.  begin returns 0, or SONDE_EXIT_USAGE (or SONDE_EXIT_IO after a
 * read error) with the reason printed; then only sonde_pipe_destroy may
 * follow.  sonde_pipe_flush flushes the sinks' streams (so that a live
 * view shows what has been decoded); it returns -1 on a write error. */
int sonde_pipe_begin(struct sonde_pipe *p, const char *name, const char *proto, const uint8_t *head,
		     size_t n);
void sonde_pipe_feed(struct sonde_pipe *p, const uint8_t *buf, size_t n);
/* The next chunk fed follows a break in the input (a reconnected link):
 * tells the decoder (sonde_decoder_ops.rejoin).  Nothing before begin. */
void sonde_pipe_rejoin(struct sonde_pipe *p);
/* A command to the decoder (sonde_decoder_ops.control): its result, or -2
 * with a message when it takes none or the decoder is not chosen yet. */
int sonde_pipe_control(struct sonde_pipe *p, const char *cmd, char *msg, size_t cap);
int sonde_pipe_flush(struct sonde_pipe *p);
int sonde_pipe_end(struct sonde_pipe *p);

/* What the decoder's output does, for drivers that produce the stream
 * themselves (the merge of several inputs, cli/drive_merge.c):
 * sonde_pipe_emit_event hands an event to the sinks, then the listeners;
 * sonde_pipe_emit_diag counts a diagnostic, prints it (diag_out,
 * max_diags) and hands it to the sinks, then the listeners.
 * sonde_pipe_finish_sinks finishes (flushes) the sinks as sonde_pipe_end
 * does; after a write error it prints "sonde CMD: OUTPUT: write error: ...",
 * sets write_error and io_error and returns -1; else 0. */
void sonde_pipe_emit_event(struct sonde_pipe *p, const struct sonde_event *ev);
void sonde_pipe_emit_diag(struct sonde_pipe *p, const struct sonde_diag *d);
int sonde_pipe_finish_sinks(struct sonde_pipe *p);

/* After a stream decoded with a protocol the user named: when errors hit
 * at least one frame in SONDE_HINT_FRAMES and the probes say the input is
 * another protocol, 1 with the hint in out ("N errors in M frames decoded
 * as qs; the input looks like sonde: try --proto sonde"), else 0
 * (pipe_hint.c).  sonde_pipe_end prints it. */
int sonde_pipe_hint(const struct sonde_pipe *p, char *out, size_t cap);

/* Print a diagnostic line as the pipeline does ("NAME: offset N, frame F:
 * code: message"). */
void sonde_diag_print(FILE *f, const char *input_name, const struct sonde_diag *d);

void sonde_pipe_destroy(struct sonde_pipe *p);

#endif /* SONDE_PIPE_H */
