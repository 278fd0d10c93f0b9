/*
 * msg.h -- the one form of the tool's own messages on standard error:
 *
 *     sonde COMMAND: PLACE: PROBLEM
 *
 * "sonde decode: trace.bin: read error at offset 0: Is a directory".  The
 * command is the one running (set once by the dispatch, cli_main.c), so a
 * sink or the pipeline, which do not know it, still say it; before a
 * command is known (an unknown one) the prefix is "sonde:".  PLACE -- the
 * file, option, output format or link the message is about -- comes when
 * there is one.  The decoders' diagnostics are not messages of the tool but
 * findings about an input, and keep their own form "FILE: offset N, frame
 * N: CODE: MESSAGE" (GNU's "file:line: message"; docs/cli.md).
 */
#ifndef SONDE_MSG_H
#define SONDE_MSG_H

#include <stdio.h>

/* The running command ("decode"), NULL for none. */
void sonde_msg_command(const char *cmd);
/* "sonde decode" (or "sonde"): for messages printed by other means. */
const char *sonde_msg_prog(void);
/* Where the messages go: stderr (NULL), or f (the unit tests read them). */
void sonde_msg_to(FILE *f);
/* Print "sonde CMD: " and the formatted text and a newline on stderr. */
void sonde_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* SONDE_MSG_H */
