/*
 * posix_demo.c -- a small "firmware" on the POSIX port of the Sonde target.
 *
 * It pretends to be a single-core controller: three threads play tasks that
 * take turns on one simulated CPU (a mutex), and a periodic timer signal
 * plays the sampling interrupt.  Like a real interrupt, the signal preempts
 * whoever has the CPU: the timer thread sends it to the task that owns the
 * CPU, or, when the CPU is idle, takes the CPU and raises it on itself.
 * Every other thread keeps the signal blocked, so the handler never runs
 * beside a task and the trace is a true single-CPU timeline.  Everything a real firmware would trace is
 * here: ISR enter/exit, task create/ready/in/out/idle, instant and span
 * markers, counters, typed logs, user records, function enter/exit, and the
 * dictionaries that name them all.  The trace goes to a file or stdout from a
 * drain thread, the way a UART would carry it.
 *
 *   posix-demo [-o FILE|-] [-t MS | -n TICKS] [-m overwrite|drop|snapshot|postmortem] [-b BYTES]
 *
 * -t runs for MS milliseconds of the host's time; -n for TICKS sampling
 * interrupts (2 ms apart when the host keeps up), so that a loaded host
 * gives a trace of the same extent, only slower (what tests use).
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "sonde.h"

/* Object ids: ISRs, tasks, markers and counters share one 0..255 space. */
enum {
	OBJ_SENSOR = 1, OBJ_CONTROL = 2, OBJ_LOGGER = 3,
	OBJ_ISR_TIMER = 10,
	OBJ_MARK_CYCLE = 20, OBJ_MARK_OVERRUN = 21,
	OBJ_CNT_QUEUE = 30, OBJ_CNT_TEMP = 31, OBJ_CNT_DUTY = 32
};
enum { REC_SAMPLE = SONDE_REC_USER_FIRST, REC_SETPOINT, REC_COUNTS };
enum { FMT_BOOT = 1, FMT_SAMPLE, FMT_LATE, FMT_STATUS };
enum { FN_FILTER = 1, FN_PID = 2 };
enum { GRP_STATE = 1 };

static void dictionaries(void)
{
	sonde_dict(SONDE_DICT_TASK, OBJ_SENSOR, "sensor");
	sonde_dict(SONDE_DICT_TASK, OBJ_CONTROL, "control");
	sonde_dict(SONDE_DICT_TASK, OBJ_LOGGER, "logger");
	sonde_dict(SONDE_DICT_ISR, OBJ_ISR_TIMER, "TIMER0_IRQ");
	sonde_dict(SONDE_DICT_MARKER, OBJ_MARK_CYCLE, "control_cycle");
	sonde_dict(SONDE_DICT_MARKER, OBJ_MARK_OVERRUN, "overrun");
	sonde_dict(SONDE_DICT_COUNTER, OBJ_CNT_QUEUE, "queue_depth");
	sonde_dict(SONDE_DICT_COUNTER, OBJ_CNT_TEMP, "temperature_mC");
	sonde_dict(SONDE_DICT_COUNTER, OBJ_CNT_DUTY, "pwm_duty");
	sonde_dict(SONDE_DICT_RECORD, REC_SAMPLE, "SAMPLE(seq,milli_c,celsius)");
	sonde_dict(SONDE_DICT_RECORD, REC_SETPOINT, "SETPOINT(milli_c,state,mode)");
	sonde_dict(SONDE_DICT_RECORD, REC_COUNTS, "DEMO_COUNTS(records,overwritten,refused)");
	sonde_dict(SONDE_DICT_FORMAT, FMT_BOOT, "demo up: %u tasks, tick %u us");
	sonde_dict(SONDE_DICT_FORMAT, FMT_SAMPLE, "sample #%u = %d mC");
	sonde_dict(SONDE_DICT_FORMAT, FMT_LATE, "control late by %u us");
	sonde_dict(SONDE_DICT_FORMAT, FMT_STATUS, "status %s, duty %.2f%%");
	sonde_dict(SONDE_DICT_FUNCTION, FN_FILTER, "filter_sample");
	sonde_dict(SONDE_DICT_FUNCTION, FN_PID, "pid_step");
	sonde_dict(SONDE_DICT_ENUM_GROUP, GRP_STATE, "ctl_state");
	sonde_dict(SONDE_DICT_ENUM, GRP_STATE << 8 | 0, "IDLE");
	sonde_dict(SONDE_DICT_ENUM, GRP_STATE << 8 | 1, "HEATING");
	sonde_dict(SONDE_DICT_ENUM, GRP_STATE << 8 | 2, "COOLING");
}

/* ---- the simulated single CPU --------------------------------------- */

static pthread_mutex_t cpu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t owner_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t cpu_owner; /* the task the "interrupt" preempts */
static int cpu_owned;       /* cpu_owner is valid */
static atomic_int stop_flag;

static void set_alarm_mask(int how)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(how, &set, NULL);
}

static void set_owner(int owned)
{
	pthread_mutex_lock(&owner_lock);
	cpu_owner = pthread_self();
	cpu_owned = owned;
	pthread_mutex_unlock(&owner_lock);
}

static void run_begin(uint8_t task)
{
	sonde_task_ready(task);
	pthread_mutex_lock(&cpu);
	set_owner(1);
	sonde_task_in(task);
	set_alarm_mask(SIG_UNBLOCK);
}

static void run_end(uint8_t task)
{
	/* An interrupt sent while we ran but not yet taken stays pending on
	 * this thread until it runs again, as it would on a masked CPU. */
	set_alarm_mask(SIG_BLOCK);
	sonde_task_out(task, SONDE_TASK_BLOCKED);
	sonde_idle();
	set_owner(0);
	pthread_mutex_unlock(&cpu);
}

static void busy_us(unsigned us)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000L + (t.tv_nsec - t0.tv_nsec) / 1000 < (long)us);
}

/* ---- sensor -> control queue ---------------------------------------- */

#define QLEN 8
static int32_t queue[QLEN];
static unsigned q_head, q_count;
static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cond = PTHREAD_COND_INITIALIZER;

static void queue_put(int32_t v)
{
	pthread_mutex_lock(&q_lock);
	if (q_count < QLEN) {
		queue[(q_head + q_count) % QLEN] = v;
		q_count++;
	}
	sonde_counter(OBJ_CNT_QUEUE, (int32_t)q_count);
	pthread_cond_signal(&q_cond);
	pthread_mutex_unlock(&q_lock);
}

static int queue_get(int32_t *v)
{
	struct timespec until;
	int got = 0;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += 50 * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&q_lock);
	while (q_count == 0 && !atomic_load(&stop_flag))
		if (pthread_cond_timedwait(&q_cond, &q_lock, &until) == ETIMEDOUT)
			break;
	if (q_count > 0) {
		*v = queue[q_head];
		q_head = (q_head + 1) % QLEN;
		q_count--;
		got = 1;
	}
	pthread_mutex_unlock(&q_lock);
	return got;
}

/* ---- the "interrupt" ------------------------------------------------- */

static sem_t sample_sem;

static void timer_isr(int sig)
{
	(void)sig;
	sonde_isr_enter(OBJ_ISR_TIMER);
	sem_post(&sample_sem); /* async-signal-safe; the sensor waits for the CPU */
	sonde_isr_exit(OBJ_ISR_TIMER);
}

/* ---- tasks ----------------------------------------------------------- */

static int32_t filter_sample(int32_t raw)
{
	static int32_t acc;
	sonde_func_enter(FN_FILTER);
	acc += (raw - acc) / 4;
	busy_us(20);
	sonde_func_exit();
	return acc;
}

static void *sensor_task(void *arg)
{
	uint32_t n = 0;
	(void)arg;
	while (!atomic_load(&stop_flag)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 20 * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		if (sem_timedwait(&sample_sem, &ts) != 0)
			continue;
		run_begin(OBJ_SENSOR);
		int32_t raw = 21000 + (int32_t)((n * 37u) % 2000u) - 1000;
		int32_t mc = filter_sample(raw);
		if (sonde_user_begin(REC_SAMPLE)) {
			sonde_arg_u32(n);
			sonde_arg_i32(mc);
			sonde_arg_f32((float)mc / 1000.0f);
			sonde_user_end();
		}
		sonde_counter(OBJ_CNT_TEMP, mc);
		if (n % 16 == 0 && sonde_log_begin(SONDE_LVL_DEBUG, FMT_SAMPLE)) {
			sonde_arg_u32(n);
			sonde_arg_i32(mc);
			sonde_log_end();
		}
		queue_put(mc);
		n++;
		run_end(OBJ_SENSOR);
	}
	return NULL;
}

static void *control_task(void *arg)
{
	int32_t mc;
	uint32_t cycle = 0;
	int32_t setpoint = 21500;
	(void)arg;
	while (!atomic_load(&stop_flag)) {
		if (!queue_get(&mc))
			continue;
		run_begin(OBJ_CONTROL);
		sonde_mark_begin(OBJ_MARK_CYCLE);
		sonde_func_enter(FN_PID);
		int32_t err = setpoint - mc;
		int32_t duty = 500 + err / 4;
		duty = duty < 0 ? 0 : duty > 1000 ? 1000 : duty;
		busy_us(40);
		sonde_func_exit();
		sonde_counter(OBJ_CNT_DUTY, duty);
		if (++cycle % 50 == 0) {
			setpoint = setpoint == 21500 ? 20500 : 21500;
			if (sonde_user_begin(REC_SETPOINT)) {
				sonde_arg_i32(setpoint);
				sonde_arg_enum(GRP_STATE, err > 0 ? 1 : 2);
				sonde_arg_str(err > 0 ? "heat" : "cool");
				sonde_user_end();
			}
		}
		if (cycle % 97 == 0) {
			sonde_mark(OBJ_MARK_OVERRUN);
			sonde_log_u32(SONDE_LVL_WARN, FMT_LATE, 100u + cycle % 50u);
		}
		sonde_mark_end(OBJ_MARK_CYCLE);
		run_end(OBJ_CONTROL);
	}
	return NULL;
}

static void *logger_task(void *arg)
{
	unsigned k = 0;
	(void)arg;
	while (!atomic_load(&stop_flag)) {
		struct timespec d = { 0, 100 * 1000000L };
		nanosleep(&d, NULL);
		run_begin(OBJ_LOGGER);
		if (sonde_log_begin(SONDE_LVL_INFO, FMT_STATUS)) {
			sonde_arg_str(k % 2 ? "ok" : "ok~}"); /* '~' and '}' are framing bytes */
			sonde_arg_f64(42.5 + k);
			sonde_log_end();
		}
		k++;
		run_end(OBJ_LOGGER);
	}
	return NULL;
}

/* The timer peripheral: raises the interrupt every period_us.  With the CPU
 * idle it takes the CPU and runs the handler itself (raise() runs it before
 * returning); otherwise the owning task takes it.  A task that released the
 * CPU meanwhile has the signal blocked: it stays pending until that task
 * runs again, as it would on a CPU with interrupts masked. */
static void raise_interrupt(void)
{
	for (;;) {
		if (pthread_mutex_trylock(&cpu) == 0) {
			set_alarm_mask(SIG_UNBLOCK);
			raise(SIGALRM);
			set_alarm_mask(SIG_BLOCK);
			pthread_mutex_unlock(&cpu);
			return;
		}
		pthread_mutex_lock(&owner_lock);
		if (cpu_owned) {
			pthread_kill(cpu_owner, SIGALRM);
			pthread_mutex_unlock(&owner_lock);
			return;
		}
		pthread_mutex_unlock(&owner_lock);
		sched_yield(); /* a task is between taking the CPU and saying so */
	}
}

static long tick_limit;  /* -n: interrupts before the end, 0 = -t decides */
static sem_t ticks_done; /* posted when tick_limit interrupts were raised */

static void *timer_task(void *arg)
{
	long period_us = *(long *)arg, ticks = 0;
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load(&stop_flag)) {
		next.tv_nsec += period_us * 1000L;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		raise_interrupt();
		if (tick_limit && ++ticks == tick_limit)
			sem_post(&ticks_done);
	}
	return NULL;
}

/* ---- transport: drain the buffer to a file, like a UART would ------- */

static int out_fd = 1;
static atomic_int drain_enabled;

static int write_all(const uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(out_fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int drain_once(void)
{
	uint8_t chunk[1024];
	size_t n = sonde_drain(chunk, sizeof chunk);
	if (n > 0 && write_all(chunk, n) != 0) {
		perror("posix-demo: write");
		exit(3);
	}
	return n > 0;
}

static void *drain_task(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop_flag) || sonde_pending() > 0) {
		if (!atomic_load(&drain_enabled) || !drain_once()) {
			struct timespec d = { 0, 1000000L };
			nanosleep(&d, NULL);
		}
		if (atomic_load(&stop_flag) && !atomic_load(&drain_enabled))
			break;
	}
	return NULL;
}

/* ---- main ------------------------------------------------------------ */

#define USAGE "usage: posix-demo [-o FILE|-] [-t MS | -n TICKS] [-m overwrite|drop|snapshot|postmortem] [-b BYTES]\n"

static void usage(void)
{
	fprintf(stderr, USAGE "(posix-demo --help says more)\n");
	exit(2);
}

static void help(void)
{
	printf(USAGE "\n"
	       "A small firmware on the POSIX port of the Sonde target library: three tasks\n"
	       "on one simulated CPU, a periodic sampling interrupt, markers, counters, logs,\n"
	       "user records and function calls; it writes its Sonde trace as a UART would.\n"
	       "Decode it with 'sonde decode FILE' (or 'posix-demo | sonde decode').\n\n"
	       "options:\n"
	       "  -o FILE|-     where the trace goes (default: standard output)\n"
	       "  -t MS         run for MS milliseconds of the host's time (default 1500)\n"
	       "  -n TICKS      run for TICKS sampling interrupts instead (2 ms apart when\n"
	       "                the host keeps up: the same trace on a loaded host, slower)\n"
	       "  -m MODE       the trace buffer's mode: overwrite, drop (default), snapshot,\n"
	       "                postmortem (docs/protocol.md)\n"
	       "  -b BYTES      the trace buffer's size, 256..16777216 (default 65536)\n"
	       "  -h, --help    show this help\n");
	exit(0);
}

int main(int argc, char **argv)
{
	const char *out = "-";
	long ms = 1500, bytes = 65536;
	uint8_t mode = SONDE_MODE_DROP_NEW;
	int c;

	static const struct option longopts[] = { { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 } };
	while ((c = getopt_long(argc, argv, "o:t:n:m:b:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': help(); break;
		case 'o': out = optarg; break;
		case 't': ms = strtol(optarg, NULL, 10); break;
		case 'n': tick_limit = strtol(optarg, NULL, 10); break;
		case 'b': bytes = strtol(optarg, NULL, 10); break;
		case 'm':
			if (strcmp(optarg, "overwrite") == 0) mode = SONDE_MODE_OVERWRITE;
			else if (strcmp(optarg, "drop") == 0) mode = SONDE_MODE_DROP_NEW;
			else if (strcmp(optarg, "snapshot") == 0) mode = SONDE_MODE_SNAPSHOT;
			else if (strcmp(optarg, "postmortem") == 0) mode = SONDE_MODE_POSTMORTEM;
			else {
				fprintf(stderr, "posix-demo: unknown mode '%s'\n", optarg);
				usage();
			}
			break;
		default: usage();
		}
	}
	if (ms <= 0 || tick_limit < 0 || bytes < 256 || bytes > (1L << 24)) {
		fprintf(stderr, "posix-demo: -t and -n must be > 0 and -b in 256..16777216\n");
		usage();
	}
	if (strcmp(out, "-") != 0) {
		out_fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (out_fd < 0) {
			fprintf(stderr, "posix-demo: %s: %s\n", out, strerror(errno));
			return 3;
		}
	}

	static uint8_t *buf;
	buf = malloc((size_t)bytes); /* the host program may allocate; the tracer does not */
	if (!buf)
		return 3;
	sem_init(&sample_sem, 0, 0);
	sem_init(&ticks_done, 0, 0);
	sonde_init(buf, (size_t)bytes, mode);
	sonde_set_dict_callback(dictionaries);
	dictionaries();
	sonde_task_create(OBJ_SENSOR, 3);
	sonde_task_create(OBJ_CONTROL, 2);
	sonde_task_create(OBJ_LOGGER, 1);
	sonde_log_u32x2(SONDE_LVL_INFO, FMT_BOOT, 3, 2000);

	/* Streaming modes drain all the time; snapshot and post-mortem keep
	 * the buffer to themselves until the end, like a device read out
	 * after the fact. */
	atomic_store(&drain_enabled, mode == SONDE_MODE_OVERWRITE || mode == SONDE_MODE_DROP_NEW);

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = timer_isr;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	set_alarm_mask(SIG_BLOCK); /* inherited: only the CPU's owner takes it */

	static long period_us = 2000;
	pthread_t th[5];
	pthread_create(&th[0], NULL, drain_task, NULL);
	pthread_create(&th[1], NULL, sensor_task, NULL);
	pthread_create(&th[2], NULL, control_task, NULL);
	pthread_create(&th[3], NULL, logger_task, NULL);
	pthread_create(&th[4], NULL, timer_task, &period_us);

	if (tick_limit) {
		while (sem_wait(&ticks_done) != 0 && errno == EINTR)
			;
	} else {
		struct timespec d = { ms / 1000, (ms % 1000) * 1000000L };
		while (nanosleep(&d, &d) != 0 && errno == EINTR)
			;
	}
	atomic_store(&stop_flag, 1);
	pthread_join(th[4], NULL); /* no more interrupts */
	for (int i = 1; i < 4; i++)
		pthread_join(th[i], NULL);

	if (mode == SONDE_MODE_POSTMORTEM)
		sonde_trigger(); /* as a fault handler would */

	/* The demo's own account, so a test can compare it with the decode. */
	sonde_stats_t st;
	sonde_get_stats(&st);
	if (sonde_user_begin(REC_COUNTS)) {
		sonde_arg_u32(st.records);
		sonde_arg_u32(st.overwritten);
		sonde_arg_u32(st.refused);
		sonde_user_end();
	}
	atomic_store(&drain_enabled, 1);
	pthread_join(th[0], NULL);
	while (drain_once())
		;
	if (out_fd != 1)
		close(out_fd);
	fprintf(stderr, "posix-demo: %u records written, %u overwritten, %u refused, %u bytes\n",
		st.records, st.overwritten, st.refused, st.bytes);
	free(buf);
	return 0;
}
