/*
 * msg.c -- the prefix of the tool's own messages (msg.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "msg.h"

static char prog[48] = "sonde";
static FILE *dest;

void sonde_msg_to(FILE *f)
{
	dest = f;
}

void sonde_msg_command(const char *cmd)
{
	if (cmd)
		snprintf(prog, sizeof(prog), "sonde %s", cmd);
	else
		snprintf(prog, sizeof(prog), "sonde");
}

const char *sonde_msg_prog(void)
{
	return prog;
}

void sonde_err(const char *fmt, ...)
{
	/* one write of the whole line, so that lines of two processes on one
	 * terminal (a pipeline) do not mix */
	char line[1024];
	va_list ap;
	int k = snprintf(line, sizeof(line), "%s: ", prog);
	va_start(ap, fmt);
	int n = vsnprintf(line + k, sizeof(line) - (size_t)k - 1, fmt, ap);
	va_end(ap);
	size_t len = (size_t)k + (n < 0 ? 0 : (size_t)n);
	if (len > sizeof(line) - 2)
		len = sizeof(line) - 2;
	line[len++] = '\n';
	fwrite(line, 1, len, dest ? dest : stderr);
	if (dest)
		fflush(dest);
}
