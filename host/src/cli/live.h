/*
 * live.h -- `sonde live`: the state shared by its parts.
 *
 *   cmd_live.c    options, the pipeline's sinks, the summary
 *   live_loop.c   the event loop: link, raw capture, decoding, signals,
 *                 duration
 *   live_retry.c  bringing the link up and back (backoff, reconnects) and
 *                 saying what failed, what is retried, how often, how long
 *   live_term.c   the keys: a terminal on stdin in raw mode
 *   live_status.c the status area (figures, latest message) and messages
 *   live_qs.c     the keys on a QS stream (QSPY's console keys)
 *   live_cmd.c    commands sent from keys and their acknowledgements,
 *                 the link budget
 *   live_ctl.c    the --control socket through which `sonde send` shares
 *                 the link
 *   live_serve.c  --serve: the report page over HTTP, following the capture
 *
 * The calls go one way: cmd_live.c -> live_loop.c -> live_term.c (keys)
 * -> live_qs.c -> live_cmd.c -> live_status.c (the clock, messages, the screen) at the
 * bottom; live_retry.c and live_ctl.c sit between the loop and the status.
 */
#ifndef SONDE_LIVE_H
#define SONDE_LIVE_H

#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <termios.h>

#include "analysis/stats.h"
#include "core/pipe.h"
#include "proto/qs/qs_tx.h"
#include "proto/sonde/sonde_rxcmd.h"
#include "sources/link.h"

#define LIVE_PENDING 16     /* commands awaiting their CMD_STATUS */
#define LIVE_CTL_CLIENTS 4  /* --control connections at a time */
#define LIVE_CTL_FRAME 256  /* longest command frame a control client may send */

struct live_opts {
	const char *link;
	const char *raw_path;    /* -w */
	const char *ctl_path;    /* --control */
	const char *serve;       /* --serve [ADDR:]PORT */
	double duration;         /* seconds, 0 = until stopped */
	double reconnect_s;      /* give up after this long down; 0 = never reconnect, < 0 = forever */
	uint32_t baud;           /* --baud (0 = from the link, if serial) */
	int flow;                /* -1 not given */
	int listen, follow;
	int show;                /* text on stdout besides --output: 1 yes, 0 no, -1 when stdout is a tty */
	int keys;                /* 0 off, 1 when stdin is a terminal */
	int status;              /* 0 off, 1 when stderr is a terminal */
};

struct live_pending {
	int used;
	uint8_t seq, cmd;
	int64_t sent_ms;
};

struct live_ctl_client {
	int fd;
	uint8_t in[LIVE_CTL_FRAME];
	size_t n;
	uint64_t dropped;        /* stream bytes it was too slow to take */
};

struct live {
	struct live_opts o;
	const char *proto;
	int quiet;
	struct sonde_link link;
	struct sonde_pipe *pipe;
	struct sonde_stats *stats;
	/* decoding */
	int began;               /* the decoder is chosen */
	uint8_t probe[SONDE_PROBE_BYTES];
	size_t nprobe;
	int64_t probe_t0;
	uint64_t rx_bytes;       /* bytes read from the link */
	/* raw capture */
	int raw_fd;
	uint64_t raw_bytes;
	int raw_errno;           /* a write to it failed (it was closed then) */
	/* link state */
	int up;
	int64_t down_since, next_try, backoff_ms;
	unsigned connects;
	int ever_up;
	unsigned attempts;       /* failed attempts since the link went down */
	int64_t next_note;       /* when to say again that it is still down */
	char down_why[256];      /* the reason last said */
	/* end */
	int stop;                /* leave the loop */
	int user_stop;           /* the user ended it (signal, 'q', --duration): a frame
				  * cut at the end is not an error (pipe.h cut_on_purpose) */
	int exit_io;             /* an I/O failure decides the exit status */
	int64_t t_start, t_end;
	/* terminal */
	int tty_raw;             /* stdin is a terminal in raw mode: keys are read */
	int keys_eof;
	struct termios tty_saved;
	int status_shown;        /* the plain status line is on the screen */
	int area;                /* the bottom rows are a status area (live_status.c) */
	int rows, cols;
	char note[256];          /* the latest message, shown in the area */
	int show_tty;            /* decoded text goes to stdout, a terminal */
	int paused;              /* ... and is held back (space) */
	char status[384];
	int64_t status_t;
	uint64_t status_bytes, status_records;
	double byte_rate, rec_rate;
	/* commands */
	struct rxwatch rw;
	uint8_t seq;
	struct live_pending pend[LIVE_PENDING];
	int stopped;             /* the 's' key's idea of the target: 1 after STOP */
	char reply[128];         /* TARGET_STATS for the key 'p', said with its CMD_STATUS */
	struct qs_tx qs_tx;      /* QS-RX frames of the keys on a QS stream (live_qs.c) */
	/* joining a running target (live_cmd.c) */
	uint64_t good_frames;    /* good frames of a Sonde stream seen */
	int64_t first_frame_ms;
	int join_done;           /* INFO asked for (or why not said) */
	/* link budget */
	int64_t budget_t;
	uint64_t budget_bytes, budget_records, budget_drops;
	int64_t budget_warned;
	int have_tstats;
	uint32_t tstats_bytes;
	int64_t tstats_t;
	double produced_rate;    /* from two TARGET_STATS, bytes/s; < 0 unknown */
	char budget_note[256];   /* the latest finding, for the summary */
	char budget_warning[256];/* the latest warning that the link is the bottleneck */
	/* control socket */
	int ctl_fd;
	struct live_ctl_client ctl[LIVE_CTL_CLIENTS];
	/* --serve */
	struct live_serve *serve;
};

/* live_loop.c */
int live_loop(struct live *lv);

/* live_retry.c */
void live_link_start(struct live *lv, int64_t now);
void live_try_connect(struct live *lv, int64_t now);
void live_link_down(struct live *lv, int64_t now);
void live_link_never_up(struct live *lv);

/* live_status.c */
int64_t live_now_ms(void); /* the monotonic clock every part uses */
/* "DOWN 3 s, attempt 5" for the status line */
void live_link_down_text(const struct live *lv, int64_t now, char *out, size_t cap);
void live_msg(struct live *lv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void live_status_open(struct live *lv);
void live_status_close(struct live *lv);
void live_status_reset_region(void); /* async-signal-safe */
void live_status_erase(struct live *lv);
void live_status_draw(struct live *lv);
void live_status_tick(struct live *lv, int64_t now);     /* rates over the last period, and refresh */
void live_status_refresh(struct live *lv, int64_t now);  /* the figures as they are now */

/* live_term.c */
void live_term_install(struct live *lv);
int live_term_raw(struct live *lv);
void live_term_restore(struct live *lv);
void live_keys_read(struct live *lv);
void live_keys_help(struct live *lv);

/* live_qs.c */
int live_qs_stream(const struct live *lv); /* the stream is (or will be decoded as) QS */
int live_qs_key(struct live *lv, char key); /* 1: the key was QSPY's and is done */
void live_qs_help(struct live *lv);

/* live_cmd.c */
void live_cmd_init(struct live *lv);
void live_cmd_send(struct live *lv, const char *word);
void live_cmd_frame(void *ctx, uint8_t seq, uint8_t id, const uint8_t *data, size_t n);
void live_cmd_tick(struct live *lv, int64_t now);
void live_cmd_join(struct live *lv, int64_t now); /* after a chunk: joined a running target? */
void live_budget_tick(struct live *lv, int64_t now, int final);

/* live_ctl.c */
int live_ctl_open(struct live *lv);
int live_ctl_pollfds(struct live *lv, struct pollfd *pf, int max);
void live_ctl_handle(struct live *lv, const struct pollfd *pf, int n);
void live_ctl_forward(struct live *lv, const uint8_t *buf, size_t n);
void live_ctl_close(struct live *lv);

/* live_serve.c */
int live_serve_check(const char *spec);            /* 0, or -1 after a message */
int live_serve_open(struct live *lv, sonde_opts kv); /* after the pipe's sinks */
void live_serve_state(struct live *lv, int64_t now); /* the link's state, for the page */
void live_serve_close(struct live *lv);

#endif /* SONDE_LIVE_H */
