/*
 * qspy.h -- `sonde qspy`: Sonde in QSPY's place.  The state shared by
 *   cmd_qspy.c    QSPY's options (and Sonde's), the pipeline, the summary
 *   qspy_serve.c  the event loop: the target link (TCP server, serial port
 *                 or file), the UDP front-end socket, QSPY's lines and files
 * The front-end packets themselves are proto/qs/qs_fe.c's.
 */
#ifndef SONDE_CLI_QSPY_H
#define SONDE_CLI_QSPY_H

#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>

#include "core/pipe.h"
#include "framers/framer_hdlc.h"
#include "proto/qs/qs_fe.h"
#include "sources/link.h"

struct qspy {
	/* options */
	char link_text[SONDE_LINK_PATH_MAX + 32]; /* the target link (sources/link.h syntax) */
	char udp_host[64];      /* front-end socket's address */
	unsigned udp_port;      /* 0: no front-end socket (-u0) */
	int quiet;              /* -q: no record lines on stdout */
	int text_file;          /* -o: the screen output to qspyYYMMDD_HHMMSS.txt */
	int bin_file;           /* -s: the raw bytes to qspyYYMMDD_HHMMSS.bin */
	const char *raw_path;   /* -w: the raw bytes to this file */
	/* running */
	struct sonde_pipe *pipe;
	struct sonde_link link;
	int link_open;          /* link was opened (sonde_link_close it) */
	struct qs_fe fe;
	struct hdlc_framer fr;  /* finds the frames the front-end gets, in step with the decoder */
	uint8_t fr_buf[512];
	int udp_fd;
	struct sockaddr_storage fe_addr; /* the attached front-end; fe_len 0: none */
	socklen_t fe_len;
	FILE *out_file;         /* -o / TEXT_OUT */
	char out_name[64];
	FILE *bin;              /* -s / BIN_OUT */
	char bin_name[64];
	int raw_fd;
	char peer_host[64];     /* the TCP target, for QSPY's messages */
	unsigned peer_port;
	uint64_t rx_bytes, raw_bytes, connects;
	int stop, exit_req, io_error;
};

/* Open the front-end socket and the target link: 0, or an exit status
 * after a message. */
int qspy_open(struct qspy *q);
/* Run until a signal, a front-end's forced exit, or the end of a file
 * input.  Returns an exit status (0, or SONDE_EXIT_IO). */
int qspy_loop(struct qspy *q);
/* The pipeline listener that prints QSPY's lines and sends them to the
 * front-end. */
struct sonde_listener qspy_listener(struct qspy *q);
void qspy_close(struct qspy *q);

#endif /* SONDE_CLI_QSPY_H */
