/*
 * main.c -- the FreeRTOS example application (examples/freertos-app) on the
 * kernel's POSIX simulator port, traced with Sonde into a file.
 *
 *   freertos-posix [-o FILE] [-b BYTES] [-m overwrite|drop] [-c CYCLES] [-d TICKS]
 *
 *   -o  trace file (default freertos-trace.bin)
 *   -b  trace buffer size in bytes (default 65536)
 *   -m  buffer mode when it is full: overwrite the oldest (default) or
 *       drop the newest
 *   -c  control cycles of 10 ms before the run ends (default 150)
 *   -d  drain the buffer only every TICKS ms of idle time (default 0:
 *       whenever the CPU is idle); with a small buffer this makes it
 *       overflow, to test loss accounting
 *
 * The kernel's tick is the port's SIGALRM handler; the tick hook plays the
 * example's periodic interrupt every 10 ticks (traced as ISR "tick_isr").
 * The idle hook drains the trace buffer into the file with write(2) (no
 * stdio: a task can be stopped by the tick signal anywhere, and a stdio
 * lock held then would block the next writer).  At the end the application
 * writes its counts and the process exits with status 0; a summary goes to
 * stderr.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "FreeRTOS.h"
#include "task.h"

#include "app.h"
#include "sonde.h"
#include "sonde_freertos.h"

static uint8_t *trace_buf;
static int out_fd = -1;
static TickType_t drain_period, last_drain;

static void put_all(const uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(out_fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			static const char msg[] = "freertos-posix: writing the trace failed\n";

			(void)!write(2, msg, sizeof msg - 1);
			_exit(3);
		}
		p += w;
		n -= (size_t)w;
	}
}

void port_drain(int all)
{
	uint8_t chunk[512];
	size_t n;

	(void)all; /* a file takes everything at once */
	while ((n = sonde_drain(chunk, sizeof chunk)) > 0)
		put_all(chunk, n);
}

void port_end(int code)
{
	char msg[160];
	sonde_stats_t st;
	int len;

	sonde_get_stats(&st);
	len = snprintf(msg, sizeof msg,
		       "freertos-posix: end (status %d): %lu records, %lu overwritten, %lu refused, %lu bytes\n",
		       code, (unsigned long)st.records, (unsigned long)st.overwritten,
		       (unsigned long)st.refused, (unsigned long)st.bytes);
	if (len > 0)
		(void)!write(2, msg, (size_t)len);
	close(out_fd);
	_exit(code);
}

void app_assert(const char *file, int line)
{
	char msg[256];
	int len = snprintf(msg, sizeof msg, "freertos-posix: assertion failed at %s:%d\n", file, line);

	if (len > 0)
		(void)!write(2, msg, (size_t)len);
	_exit(4);
}

void vApplicationIdleHook(void)
{
	const struct timespec nap = { 0, 100000 }; /* keep the simulator off a whole host core */
	TickType_t now = xTaskGetTickCount();

	sonde_frtos_stack_poll(); /* the stacks of the tasks that ran (SONDE_FRTOS_STACK) */
	if (drain_period == 0 || now - last_drain >= drain_period) {
		port_drain(0);
		last_drain = now;
	}
	nanosleep(&nap, NULL);
}

void vApplicationTickHook(void)
{
	static unsigned n;

	if (++n % 10u == 0u) {
		sonde_isr_enter(APP_ISR_ID);
		(void)app_isr(); /* the port switches tasks at the end of every tick */
		sonde_isr_exit(APP_ISR_ID);
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: freertos-posix [-o FILE] [-b BYTES] [-m overwrite|drop] [-c CYCLES] [-d TICKS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *path = "freertos-trace.bin";
	size_t size = 65536;
	uint8_t mode = SONDE_MODE_OVERWRITE;
	unsigned long cycles = 150;
	int opt;

	while ((opt = getopt(argc, argv, "o:b:m:c:d:")) != -1) {
		switch (opt) {
		case 'o': path = optarg; break;
		case 'b': size = strtoul(optarg, NULL, 0); break;
		case 'c': cycles = strtoul(optarg, NULL, 0); break;
		case 'd': drain_period = (TickType_t)strtoul(optarg, NULL, 0); break;
		case 'm':
			if (strcmp(optarg, "overwrite") == 0)
				mode = SONDE_MODE_OVERWRITE;
			else if (strcmp(optarg, "drop") == 0)
				mode = SONDE_MODE_DROP_NEW;
			else
				usage();
			break;
		default: usage();
		}
	}
	if (optind != argc || size < 1024 || cycles == 0)
		usage();
	trace_buf = malloc(size);
	out_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (trace_buf == NULL || out_fd < 0) {
		perror(path);
		return 1;
	}
	sonde_init(trace_buf, size, mode);
	sonde_frtos_init(app_dict);
	app_start((uint32_t)cycles);
	port_drain(1); /* the start of the stream, whatever overflows later */
	vTaskStartScheduler();
	fprintf(stderr, "freertos-posix: the scheduler did not start\n");
	return 1;
}
