/*
 * test_live_gdb.c -- the debug-probe link (host/src/sources/gdb_rsp.c,
 * rtt_cb.c, link_gdb.c).
 *
 * The protocol helpers on bytes: framing with escapes, packets taken from
 * a stream in any state (junk, acks, cut short, bad checksum, run-length
 * encoding), hex, stop replies; the control block's checks; the gdb://
 * text.  Then the whole link against a fake GDB stub written here (its own
 * packet code, not the client's), which behaves as QEMU's does: it stops
 * the target when a client attaches and says so unasked, and while the
 * target runs it takes nothing but the interrupt byte.  Its memory holds a
 * control block this test fills as the firmware would: the link must read
 * the up buffer's bytes in order across its end, advance the read offset,
 * put commands into the down buffer, leave the target running after every
 * poll, wait for a block that is not there yet, find it by scanning, and
 * report a stub that goes away.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "sources/gdb_rsp.h"
#include "sources/link.h"
#include "sources/rtt_cb.h"

/* ---- the protocol on bytes ---------------------------------------------- */

static void test_frame(void **state)
{
	char out[64];
	(void)state;
	size_t n = gdb_rsp_frame("m20000000,4", 11, out);
	out[n] = '\0';
	/* checksum: the sum of the characters mod 256 */
	unsigned sum = 0;
	for (const char *p = "m20000000,4"; *p; p++)
		sum += (unsigned char)*p;
	char want[32];
	snprintf(want, sizeof(want), "$m20000000,4#%02x", sum & 0xFF);
	assert_string_equal(out, want);
	/* the four special characters are escaped, and the checksum covers the escapes */
	n = gdb_rsp_frame("a$b#c}d*e", 9, out);
	out[n] = '\0';
	assert_memory_equal(out, "$a}\x04" "b}\x03" "c}]d}\x0a" "e#", 15);
	char back[32];
	size_t used, len;
	assert_int_equal(gdb_rsp_take((const uint8_t *)out, n, &used, back, sizeof(back), &len, NULL), 1);
	assert_int_equal(used, n);
	assert_int_equal(len, 9);
	assert_memory_equal(back, "a$b#c}d*e", 9);
}

static void test_take(void **state)
{
	char out[64];
	size_t used, len;
	unsigned nacks = 0;
	(void)state;
	/* junk, acks and a nack before the packet */
	const char *s = "xx+-+$OK#9a$T05#b9";
	assert_int_equal(gdb_rsp_take((const uint8_t *)s, strlen(s), &used, out, sizeof(out), &len, &nacks), 1);
	assert_int_equal(nacks, 1);
	assert_int_equal(len, 2);
	assert_memory_equal(out, "OK", 2);
	assert_int_equal(used, 11);
	/* cut short: before '#', and before the second checksum digit */
	assert_int_equal(gdb_rsp_take((const uint8_t *)"$OK", 3, &used, out, sizeof(out), &len, NULL), 0);
	assert_int_equal(used, 0);
	assert_int_equal(gdb_rsp_take((const uint8_t *)"$OK#9", 5, &used, out, sizeof(out), &len, NULL), 0);
	assert_int_equal(gdb_rsp_take((const uint8_t *)"+++", 3, &used, out, sizeof(out), &len, NULL), 0);
	assert_int_equal(used, 3);
	/* a bad checksum is consumed and refused */
	assert_int_equal(gdb_rsp_take((const uint8_t *)"$OK#00$OK#9a", 12, &used, out, sizeof(out), &len, NULL), -1);
	assert_int_equal(used, 6);
	/* run-length encoding: "0* " is 0 and 3 more (' ' is 32 = 29 + 3) */
	char pk[32];
	const char *rle = "10* 2*!";
	unsigned sum = 0;
	for (const char *p = rle; *p; p++)
		sum += (unsigned char)*p;
	snprintf(pk, sizeof(pk), "$%s#%02x", rle, sum & 0xFF);
	assert_int_equal(gdb_rsp_take((const uint8_t *)pk, strlen(pk), &used, out, sizeof(out), &len, NULL), 1);
	assert_int_equal(len, 10);
	assert_memory_equal(out, "1000022222", 10);
	/* too long for the caller's buffer */
	assert_int_equal(gdb_rsp_take((const uint8_t *)pk, strlen(pk), &used, out, 5, &len, NULL), -1);
}

static void test_hex_stop(void **state)
{
	uint8_t b[4] = { 0x00, 0x7E, 0xA5, 0xFF }, back[4];
	char h[8];
	(void)state;
	gdb_rsp_hex(b, 4, h);
	assert_memory_equal(h, "007ea5ff", 8);
	assert_int_equal(gdb_rsp_unhex("007EA5ff", 4, back), 0);
	assert_memory_equal(back, b, 4);
	assert_int_equal(gdb_rsp_unhex("00g0", 2, back), -1);
	assert_int_equal(gdb_rsp_stop_kind("T05thread:01;", 13), 'T');
	assert_int_equal(gdb_rsp_stop_kind("S02", 3), 'S');
	assert_int_equal(gdb_rsp_stop_kind("W00", 3), 'W');
	assert_int_equal(gdb_rsp_stop_kind("X09", 3), 'X');
	assert_int_equal(gdb_rsp_stop_kind("O48690a", 7), 'O');
	assert_int_equal(gdb_rsp_stop_kind("OK", 2), 0);
	assert_int_equal(gdb_rsp_stop_kind("E01", 3), 0);
	assert_int_equal(gdb_rsp_stop_kind("0a0b0c", 6), 0);
	assert_int_equal(gdb_rsp_stop_kind("", 0), 0);
}

/* ---- the control block ------------------------------------------------ */

/* A control block as a 32-bit firmware lays it out, at base in mem. */
#define BASE 0x20000000u
#define CB_OFF 0x100u
#define UP_OFF 0x400u
#define UP_SIZE 64u
#define DOWN_OFF 0x800u
#define DOWN_SIZE 16u

static void put_cb(uint8_t *mem, uint32_t cb_off, int with_id)
{
	uint8_t *cb = mem + cb_off;
	memset(cb, 0, 72);
	if (with_id)
		memcpy(cb, "SEGGER RTT", 11);
	rtt_put_le32(cb + 16, 1);
	rtt_put_le32(cb + 20, 1);
	rtt_put_le32(cb + 24 + 4, BASE + UP_OFF);
	rtt_put_le32(cb + 24 + 8, UP_SIZE);
	rtt_put_le32(cb + 48 + 4, BASE + DOWN_OFF);
	rtt_put_le32(cb + 48 + 8, DOWN_SIZE);
}

static void test_cb(void **state)
{
	uint8_t mem[0x100 + 72] = { 0 };
	uint32_t up, down;
	struct rtt_desc d;
	char why[128];
	(void)state;
	put_cb(mem, 0x100, 1);
	assert_int_equal(rtt_find_id(mem, sizeof(mem)), 0x100);
	assert_int_equal(rtt_find_id(mem, 0x100 + 10), 0x100 + 10); /* the NUL must be there too */
	assert_int_equal(rtt_parse_header(mem + 0x100, &up, &down, why, sizeof(why)), 0);
	assert_int_equal(up, 1);
	assert_int_equal(down, 1);
	assert_int_equal(rtt_desc_offset(1, 0, up), 24);
	assert_int_equal(rtt_desc_offset(0, 0, up), 48);
	assert_int_equal(rtt_desc_offset(0, 1, 3), 24 + 24 * 4);
	assert_int_equal(rtt_parse_desc(mem + 0x100 + 24, 0x1234, &d, why, sizeof(why)), 0);
	assert_int_equal(d.addr, 0x1234);
	assert_int_equal(d.buf, BASE + UP_OFF);
	assert_int_equal(d.size, UP_SIZE);
	d.wr = 10, d.rd = 4;
	assert_int_equal(rtt_used(&d), 6);
	assert_int_equal(rtt_room(&d), UP_SIZE - 7);
	d.wr = 3, d.rd = 60;
	assert_int_equal(rtt_used(&d), 7);
	d.wr = 59, d.rd = 60;
	assert_int_equal(rtt_room(&d), 0);
	/* bad blocks */
	mem[0x100] = 'X';
	assert_int_equal(rtt_parse_header(mem + 0x100, &up, &down, why, sizeof(why)), -1);
	mem[0x100] = 'S';
	rtt_put_le32(mem + 0x100 + 16, 0);
	assert_int_equal(rtt_parse_header(mem + 0x100, &up, &down, why, sizeof(why)), -1);
	rtt_put_le32(mem + 0x100 + 16, 1000);
	assert_int_equal(rtt_parse_header(mem + 0x100, &up, &down, why, sizeof(why)), -1);
	rtt_put_le32(mem + 0x100 + 24 + 12, UP_SIZE); /* write offset outside the buffer */
	assert_int_equal(rtt_parse_desc(mem + 0x100 + 24, 0, &d, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "outside"));
	rtt_put_le32(mem + 0x100 + 24 + 12, 0);
	rtt_put_le32(mem + 0x100 + 24 + 4, 0); /* no buffer */
	assert_int_equal(rtt_parse_desc(mem + 0x100 + 24, 0, &d, why, sizeof(why)), -1);
}

static void test_spec(void **state)
{
	struct sonde_link_spec s;
	char why[512];
	(void)state;
	assert_int_equal(sonde_link_parse("gdb://localhost:3333", &s, why, sizeof(why)), 0);
	assert_int_equal(s.kind, SONDE_LINK_GDB);
	assert_string_equal(s.host, "localhost");
	assert_string_equal(s.port, "3333");
	assert_int_equal(s.gdb.have_cb, 0);
	assert_int_equal(s.gdb.scan_addr, 0x20000000u);
	assert_int_equal(s.gdb.scan_size, 0x10000u);
	assert_int_equal(s.gdb.poll_ms, 10);
	assert_int_equal(sonde_link_parse("gdb://[::1]:1234?elf=fw.elf&cb=0x20001000&up=1&down=2&poll=0&scan=0x10000000:4096",
					  &s, why, sizeof(why)), 0);
	assert_string_equal(s.host, "::1");
	assert_string_equal(s.gdb.elf, "fw.elf");
	assert_int_equal(s.gdb.have_cb, 1);
	assert_int_equal(s.gdb.cb, 0x20001000u);
	assert_int_equal(s.gdb.up, 1);
	assert_int_equal(s.gdb.down, 2);
	assert_int_equal(s.gdb.poll_ms, 0);
	assert_int_equal(s.gdb.scan_addr, 0x10000000u);
	assert_int_equal(s.gdb.scan_size, 4096);
	static const char *const bad[][2] = {
		{ "gdb://host", "HOST:PORT" },
		{ "gdb://host:0", "bad port" },
		{ "gdb://h:1?cb", "KEY=VALUE" },
		{ "gdb://h:1?colour=red", "unknown gdb:// option 'colour'" },
		{ "gdb://h:1?cb=0x1zz", "bad value" },
		{ "gdb://h:1?cb=0x100000000", "bad value" },
		{ "gdb://h:1?scan=0x2000", "bad value" },
		{ "gdb://h:1?scan=0x2000:8", "bad value" },
		{ "gdb://h:1?poll=-1", "bad value" },
		{ "gdb://h:1?up=64", "bad value" },
		{ "gdb://h:1?elf=", "bad value" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(sonde_link_parse(bad[i][0], &s, why, sizeof(why)), -1);
		if (!strstr(why, bad[i][1]))
			fail_msg("'%s': expected '%s' in '%s'", bad[i][0], bad[i][1], why);
	}
}

/* ---- a fake GDB stub ------------------------------------------------------ */

struct stub {
	int lfd, port;
	pthread_t th;
	pthread_mutex_t mu;
	uint8_t mem[0x1000];     /* at BASE */
	int noack_offered, noack;
	int running;
	int quit;                /* end the thread */
	int hang_up_after;       /* close the client after this many 'c' (0: never) */
	/* the next write of the up buffer's read offset closes the client:
	 * 1 before it is applied, 2 after it (its reply lost) */
	int lose_rd_write;
	unsigned conts, interrupts, violations, clients;
};

static struct stub S;

static void stub_send(int fd, const char *payload, int rle)
{
	char body[8192], pk[8300];
	size_t k = 0, n = strlen(payload);
	for (size_t i = 0; i < n;) {
		size_t run = 1;
		while (i + run < n && payload[i + run] == payload[i] && run < 40)
			run++;
		/* a run of r: the character, then '*' and 29 + (r - 1), avoiding
		 * the counts that would make '#' or '$' (6, 7) */
		if (rle && run >= 4 && run - 1 != 6 && run - 1 != 7) {
			body[k++] = payload[i];
			body[k++] = '*';
			body[k++] = (char)(29 + run - 1);
			i += run;
		} else {
			body[k++] = payload[i++];
		}
	}
	unsigned sum = 0;
	for (size_t i = 0; i < k; i++)
		sum += (unsigned char)body[i];
	int len = snprintf(pk, sizeof(pk), "$%.*s#%02x", (int)k, body, sum & 0xFF);
	if (send(fd, pk, (size_t)len, MSG_NOSIGNAL) < 0) {
		/* the client went away: the next read sees it */
	}
}

static int hexv(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* One packet from the client; returns 0 to go on, -1 to close. */
static int stub_packet(int fd, const char *p)
{
	char r[4096];
	if (S.running) { /* QEMU stops the target and drops the packet */
		S.violations++;
		S.running = 0;
		stub_send(fd, "T02", 0);
		return 0;
	}
	if (strncmp(p, "qSupported", 10) == 0) {
		stub_send(fd, S.noack_offered ? "PacketSize=c8;QStartNoAckMode+" : "PacketSize=c8", 0);
	} else if (strcmp(p, "QStartNoAckMode") == 0) {
		stub_send(fd, "OK", 0);
		S.noack = 1;
	} else if (strcmp(p, "?") == 0) {
		stub_send(fd, "T05thread:01;", 0);
	} else if (p[0] == 'm' || p[0] == 'M') {
		unsigned long a, n;
		char *e;
		a = strtoul(p + 1, &e, 16);
		n = strtoul(e + 1, &e, 16);
		if (a < BASE || a + n > BASE + sizeof(S.mem) || n > 96) { /* PacketSize 0xc8: at most (200 - 8) / 2 bytes a read */
			stub_send(fd, "E01", 0);
			return 0;
		}
		int lose = p[0] == 'M' && a == BASE + CB_OFF + 24 + 16 ? S.lose_rd_write : 0;
		if (lose == 1) {
			S.lose_rd_write = 0;
			return -1;
		}
		pthread_mutex_lock(&S.mu);
		if (p[0] == 'm') {
			for (unsigned long i = 0; i < n; i++)
				sprintf(r + 2 * i, "%02x", S.mem[a - BASE + i]);
			r[2 * n] = '\0';
		} else {
			for (unsigned long i = 0; i < n; i++)
				S.mem[a - BASE + i] = (uint8_t)(hexv(e[1 + 2 * i]) << 4 | hexv(e[2 + 2 * i]));
			strcpy(r, "OK");
		}
		pthread_mutex_unlock(&S.mu);
		if (lose == 2) {
			S.lose_rd_write = 0;
			return -1;
		}
		stub_send(fd, r, 1);
	} else if (strcmp(p, "c") == 0) {
		S.running = 1;
		S.conts++;
		if (S.hang_up_after && S.conts >= (unsigned)S.hang_up_after)
			return -1;
	} else {
		stub_send(fd, "", 0);
	}
	return 0;
}

static void *stub_main(void *arg)
{
	(void)arg;
	while (!S.quit) {
		struct pollfd pf = { S.lfd, POLLIN, 0 };
		if (poll(&pf, 1, 50) <= 0)
			continue;
		int fd = accept(S.lfd, NULL, NULL);
		if (fd < 0)
			continue;
		int one = 1; /* the '+' and the reply are two sends: no Nagle delay between them */
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		S.clients++;
		S.noack = 0;
		S.running = 0;
		stub_send(fd, "T02thread:01;", 0); /* stopped because a client attached: said unasked */
		char in[16384];
		size_t n = 0;
		for (;;) {
			struct pollfd cf = { fd, POLLIN, 0 };
			if (S.quit)
				break;
			if (poll(&cf, 1, 50) <= 0)
				continue;
			ssize_t k = recv(fd, in + n, sizeof(in) - n - 1, 0);
			if (k <= 0)
				break;
			n += (size_t)k;
			size_t i = 0;
			int closing = 0;
			while (i < n && !closing) {
				if (in[i] == 0x03) {
					S.interrupts++;
					if (S.running) {
						S.running = 0;
						stub_send(fd, "T02thread:01;", 0);
					}
					i++;
				} else if (in[i] == '$') {
					char *h = memchr(in + i, '#', n - i);
					if (!h || (size_t)(h - in) + 2 >= n)
						break;
					*h = '\0';
					if (!S.noack && send(fd, "+", 1, MSG_NOSIGNAL) < 0)
						closing = 1;
					if (stub_packet(fd, in + i + 1) != 0)
						closing = 1;
					i = (size_t)(h - in) + 3;
				} else {
					i++; /* acks */
				}
			}
			memmove(in, in + i, n - i);
			n -= i;
			if (closing)
				break;
		}
		close(fd);
	}
	return NULL;
}

static void stub_start(int noack)
{
	memset(&S, 0, sizeof(S));
	pthread_mutex_init(&S.mu, NULL);
	S.noack_offered = noack;
	S.lfd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	assert_int_equal(bind(S.lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	socklen_t len = sizeof(sa);
	getsockname(S.lfd, (struct sockaddr *)&sa, &len);
	S.port = ntohs(sa.sin_port);
	listen(S.lfd, 4);
	pthread_create(&S.th, NULL, stub_main, NULL);
}

static void stub_stop(void)
{
	S.quit = 1;
	pthread_join(S.th, NULL);
	close(S.lfd);
	pthread_mutex_destroy(&S.mu);
}

/* The stub has taken the 'c' that ended the last poll. */
static void wait_running(void)
{
	for (int i = 0; i < 2000 && !S.running; i++)
		usleep(1000);
	assert_int_equal(S.running, 1);
}

/* The firmware's side: append to the up buffer (as much as fits). */
static size_t fw_put(const uint8_t *p, size_t n)
{
	pthread_mutex_lock(&S.mu);
	uint8_t *d = S.mem + CB_OFF + 24;
	uint32_t wr = rtt_le32(d + 12), rd = rtt_le32(d + 16);
	size_t k = 0;
	while (k < n && (wr + 1) % UP_SIZE != rd) {
		S.mem[UP_OFF + wr] = p[k++];
		wr = (wr + 1) % UP_SIZE;
	}
	rtt_put_le32(d + 12, wr);
	pthread_mutex_unlock(&S.mu);
	return k;
}

/* The firmware's side: what the host put in the down buffer. */
static size_t fw_get(uint8_t *p, size_t max)
{
	pthread_mutex_lock(&S.mu);
	uint8_t *d = S.mem + CB_OFF + 48;
	uint32_t wr = rtt_le32(d + 12), rd = rtt_le32(d + 16);
	size_t k = 0;
	while (k < max && rd != wr) {
		p[k++] = S.mem[DOWN_OFF + rd];
		rd = (rd + 1) % DOWN_SIZE;
	}
	rtt_put_le32(d + 16, rd);
	pthread_mutex_unlock(&S.mu);
	return k;
}

static void open_link(struct sonde_link *l, const char *opts)
{
	char text[256], why[256];
	struct sonde_link_spec spec;
	snprintf(text, sizeof(text), "gdb://127.0.0.1:%d%s", S.port, opts);
	assert_int_equal(sonde_link_parse(text, &spec, why, sizeof(why)), 0);
	memset(l, 0, sizeof(*l));
	assert_int_equal(sonde_link_open(l, &spec), 0);
	if (sonde_link_connect(l) != 0)
		fail_msg("connect: %s", l->why);
}

/* Bytes through the up buffer, wrapping it many times: in order, none
 * lost or repeated; the target runs after every poll; commands reach the
 * down buffer in order, in pieces as it frees up. */
static void run_stream(int noack)
{
	struct sonde_link l;
	uint8_t got[64], sent_cmd[40], cmd[40];
	size_t ncmd = 0;
	stub_start(noack);
	put_cb(S.mem, CB_OFF, 1);
	open_link(&l, "?cb=0x20000100&poll=1");
	assert_int_equal(sonde_link_poll_fd(&l), -1);
	assert_true(sonde_link_poll_ms(&l) >= 0);
	uint8_t next_put = 0, next_got = 0;
	for (int round = 0; round < 200; round++) {
		uint8_t blk[50];
		size_t n = (size_t)(round * 7 % 50);
		for (size_t i = 0; i < n; i++)
			blk[i] = (uint8_t)(next_put + i);
		next_put = (uint8_t)(next_put + fw_put(blk, n));
		ssize_t k;
		do {
			k = sonde_link_read(&l, got, (size_t)(round % 5 == 0 ? 13 : sizeof(got)));
			assert_true(k >= 0);
			for (ssize_t i = 0; i < k; i++)
				assert_int_equal(got[i], next_got++);
		} while (k > 0);
		assert_int_equal(next_got, next_put);
		wait_running(); /* left running */
		if (round % 10 == 0) {
			uint8_t c[30];
			for (size_t i = 0; i < sizeof(c); i++)
				c[i] = (uint8_t)(round + i);
			assert_int_equal(sonde_link_write(&l, c, sizeof(c)), 0);
			memcpy(sent_cmd, c, sizeof(c));
			ncmd = 0;
		}
		ncmd += fw_get(cmd + ncmd, sizeof(cmd) - ncmd);
		if (round % 10 == 9)
			assert_memory_equal(cmd, sent_cmd, 30);
	}
	assert_int_equal(S.violations, 0);
	assert_true(S.interrupts >= 200);
	double cap;
	char what[160];
	assert_int_equal(sonde_link_capacity(&l, 1, &cap, what, sizeof(what)), 1);
	assert_non_null(strstr(what, "64-B up buffer"));
	sonde_link_close(&l);
	stub_stop();
}

static void test_stream_ack(void **state)
{
	(void)state;
	run_stream(0);
}

static void test_stream_noack(void **state)
{
	(void)state;
	run_stream(1);
}

/* No block yet (the firmware has not set it up): the link is up, reads
 * nothing; then the block appears and is found by scanning -- also when
 * the ELF named cannot give its address. */
static void test_scan(void **state)
{
	struct sonde_link l;
	uint8_t got[64];
	(void)state;
	stub_start(1);
	open_link(&l, "?elf=/nonexistent/fw.elf&scan=0x20000000:0x1000&poll=0");
	ssize_t k0 = sonde_link_read(&l, got, sizeof(got));
	if (k0 != 0)
		fail_msg("first read: %zd (%s)", k0, l.why);
	put_cb(S.mem, 0x300, 1); /* a block without its id in between: not it */
	S.mem[0x300] = 'X';
	put_cb(S.mem, CB_OFF, 1);
	assert_int_equal(fw_put((const uint8_t *)"hello", 5), 5);
	usleep(600 * 1000); /* scans are tried every 500 ms */
	ssize_t k = sonde_link_read(&l, got, sizeof(got));
	assert_int_equal(k, 5);
	assert_memory_equal(got, "hello", 5);
	/* the firmware restarts: the id goes away, then comes back */
	S.mem[CB_OFF] = 0;
	assert_int_equal(sonde_link_read(&l, got, sizeof(got)), 0);
	put_cb(S.mem, CB_OFF, 1);
	assert_int_equal(fw_put((const uint8_t *)"again", 5), 5);
	usleep(600 * 1000);
	k = sonde_link_read(&l, got, sizeof(got));
	assert_int_equal(k, 5);
	assert_memory_equal(got, "again", 5);
	assert_int_equal(S.violations, 0);
	sonde_link_close(&l);
	stub_stop();
}

/* The stub goes away: the read says so, the link is down; it connects
 * again and goes on where the up buffer is. */
static void test_server_gone(void **state)
{
	struct sonde_link l;
	uint8_t got[64];
	(void)state;
	stub_start(1);
	put_cb(S.mem, CB_OFF, 1);
	S.hang_up_after = 3; /* the connect's 'c' and two polls */
	open_link(&l, "?cb=0x20000100");
	fw_put((const uint8_t *)"abc", 3);
	assert_int_equal(sonde_link_read(&l, got, sizeof(got)), 3);
	fw_put((const uint8_t *)"def", 3);
	ssize_t k = sonde_link_read(&l, got, sizeof(got));
	if (k == 3) /* the close may come before or after this poll's 'c' */
		k = sonde_link_read(&l, got, sizeof(got));
	assert_int_equal(k, -1);
	assert_int_equal(l.fd, -1);
	assert_true(strstr(l.why, "closed") || strstr(l.why, "error"));
	S.hang_up_after = 0;
	assert_int_equal(sonde_link_connect(&l), 0);
	assert_int_equal(S.clients, 2);
	fw_put((const uint8_t *)"ghi", 3);
	size_t n = 0;
	while (n < 3) {
		k = sonde_link_read(&l, got + n, sizeof(got) - n);
		assert_true(k >= 0);
		n += (size_t)k;
	}
	assert_int_equal(n, 3); /* never "def" again: its read offset was written */
	assert_memory_equal(got, "ghi", 3);
	sonde_link_close(&l);
	stub_stop();
}

/* The connection goes while the read offset is being written, before the
 * target has it (1) or after (2): the bytes of that poll are delivered
 * once, and the next connection goes on after them, never repeating them
 * (a capture with more frames than the target wrote: a CI failure). */
static void lost_rd_write(int when)
{
	struct sonde_link l;
	uint8_t got[64];
	stub_start(1);
	put_cb(S.mem, CB_OFF, 1);
	open_link(&l, "?cb=0x20000100");
	fw_put((const uint8_t *)"abc", 3);
	assert_int_equal(sonde_link_read(&l, got, sizeof(got)), 3);
	assert_memory_equal(got, "abc", 3);
	fw_put((const uint8_t *)"def", 3);
	S.lose_rd_write = when;
	assert_int_equal(sonde_link_read(&l, got, sizeof(got)), 3); /* delivered... */
	assert_memory_equal(got, "def", 3);
	assert_int_equal(sonde_link_read(&l, got, sizeof(got)), -1); /* ...then the loss is told */
	assert_int_equal(rtt_le32(S.mem + CB_OFF + 24 + 16), when == 1 ? 3 : 6);
	assert_int_equal(sonde_link_connect(&l), 0);
	fw_put((const uint8_t *)"ghi", 3);
	ssize_t k = sonde_link_read(&l, got, sizeof(got));
	if (k != 3)
		fail_msg("after the reconnection: %zd bytes (%.*s)", k, k > 0 ? (int)k : 0, (const char *)got);
	assert_memory_equal(got, "ghi", 3);
	assert_int_equal(rtt_le32(S.mem + CB_OFF + 24 + 16), 9);
	/* the same, but the target was reset meanwhile: its bytes are new, all read */
	fw_put((const uint8_t *)"jkl", 3);
	S.lose_rd_write = 1;
	assert_int_equal(sonde_link_read(&l, got, sizeof(got)), 3);
	assert_int_equal(sonde_link_read(&l, got, sizeof(got)), -1);
	put_cb(S.mem, CB_OFF, 1);
	fw_put((const uint8_t *)"mnopqrstu", 9);
	assert_int_equal(sonde_link_connect(&l), 0);
	assert_int_equal(sonde_link_read(&l, got, sizeof(got)), 9);
	assert_memory_equal(got, "mnopqrstu", 9);
	assert_int_equal(S.violations, 0);
	sonde_link_close(&l);
	stub_stop();
}

static void test_lost_rd_write_before(void **state)
{
	(void)state;
	lost_rd_write(1);
}

static void test_lost_rd_write_after(void **state)
{
	(void)state;
	lost_rd_write(2);
}

/* A stub that is not there: connect fails with the reason. */
static void test_no_server(void **state)
{
	struct sonde_link l;
	(void)state;
	stub_start(0);
	int port = S.port;
	stub_stop();
	char text[64], why[128];
	struct sonde_link_spec spec;
	snprintf(text, sizeof(text), "gdb://127.0.0.1:%d", port);
	assert_int_equal(sonde_link_parse(text, &spec, why, sizeof(why)), 0);
	memset(&l, 0, sizeof(l));
	assert_int_equal(sonde_link_open(&l, &spec), 0);
	assert_int_equal(sonde_link_connect(&l), -1);
	assert_non_null(strstr(l.why, "cannot connect"));
	assert_int_equal(sonde_link_reconnects(&l), 1);
	sonde_link_close(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame),
		cmocka_unit_test(test_take),
		cmocka_unit_test(test_hex_stop),
		cmocka_unit_test(test_cb),
		cmocka_unit_test(test_spec),
		cmocka_unit_test(test_stream_ack),
		cmocka_unit_test(test_stream_noack),
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_server_gone),
		cmocka_unit_test(test_lost_rd_write_before),
		cmocka_unit_test(test_lost_rd_write_after),
		cmocka_unit_test(test_no_server),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
