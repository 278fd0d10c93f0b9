/*
 * link_gdb.c -- the debug-probe link (link_gdb.h): an RTT control block
 * read and written through a GDB server.
 *
 * Each read is one poll: stop the target (all-stop stubs answer nothing
 * else while it runs), read the control block's header and the two
 * descriptors in one 'm', read what the up buffer holds, write its new
 * read offset, write queued commands into the down buffer and its write
 * offset, let the target run again.  On QEMU a stopped target's clock
 * stops too, so polling does not show in the trace's timing; on hardware a
 * stub that halts the core for each poll does show (docs/live.md says
 * which routes avoid it).
 *
 * The control block is found from the ELF's symbol (sonde_rtt_cb, or
 * _SEGGER_RTT of SEGGER's own library), from cb=ADDR, or by scanning RAM
 * for its id (also when the ELF has no such symbol).  Until the firmware has set it up (a target started halted,
 * or just reset) the link is up and reads nothing; an id that disappears
 * (a reset) is waited for again.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "gdb_rsp.h"
#include "link_gdb.h"
#include "link_impl.h"
#include "rtt_cb.h"

#define GDB_DOWN_QUEUE 4096      /* command bytes waiting for room in the down buffer */
#define GDB_SCAN_EVERY_MS 500    /* a scan that found nothing is tried again after this */
#define GDB_SCAN_CHUNK 2048
#define GDB_DEFAULT_SCAN_ADDR 0x20000000u
#define GDB_DEFAULT_SCAN_SIZE 0x10000u
#define GDB_DEFAULT_POLL_MS 10

struct link_gdb {
	struct gdb_rsp rsp;
	int have_addr;           /* cb is known (option, symbol, or a scan found it) */
	int addr_fixed;          /* ... from an option or the ELF: never scanned for */
	uint32_t cb;
	uint32_t span;           /* bytes from cb through the last descriptor used */
	int64_t next_scan;
	int valid;               /* the last poll found a valid block */
	int broken;              /* the connection failed after a poll had read bytes:
				  * they were delivered, the next read reports it */
	/* A read offset the link could not write (the connection went after
	 * the bytes were read): the up buffer at desc moved from rd_from to
	 * rd_to in the host's eyes, maybe not in the target's. */
	int pend;
	uint32_t pend_cb, pend_desc, pend_buf, pend_size, pend_from, pend_to;
	char state[256];         /* the last note about the block, not repeated */
	uint8_t q[GDB_DOWN_QUEUE];
	size_t nq;
	uint8_t scan_buf[GDB_SCAN_CHUNK + RTT_HDR_SIZE]; /* a chunk and the header it may cut */
	/* the wait between polls that found nothing: poll_ms, shorter while the
	 * target fills the buffer faster (link_gdb_poll_ms) */
	uint32_t wait_ms;
	int after_wait;          /* the next poll is the first after a wait */
	/* for the budget (link_gdb_capacity), since the first connect */
	uint64_t polls, wakes, full_polls, bytes;
	int64_t t_first;
	uint32_t up_size;
	/* the counts at the end of the previous window (link_gdb_capacity) */
	int64_t win_t;
	uint64_t win_polls, win_wakes, win_full, win_bytes;
};

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the link's text ----------------------------------------------------- */

static int number(const char *s, size_t n, uint32_t *out)
{
	char tmp[32], *end;
	if (n == 0 || n >= sizeof(tmp) || *s == '-' || *s == '+')
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	errno = 0;
	unsigned long long v = strtoull(tmp, &end, 0);
	if (*end || errno || v > 0xFFFFFFFFull)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int link_gdb_parse_options(const char *q, struct sonde_link_spec *sp, char *why, size_t wl)
{
	struct sonde_link_gdb_spec *o = &sp->gdb;
	o->scan_addr = GDB_DEFAULT_SCAN_ADDR;
	o->scan_size = GDB_DEFAULT_SCAN_SIZE;
	o->poll_ms = GDB_DEFAULT_POLL_MS;
	while (*q) {
		const char *amp = strchr(q, '&'), *eq = strchr(q, '=');
		size_t len = amp ? (size_t)(amp - q) : strlen(q);
		if (!eq || eq > q + len) {
			snprintf(why, wl, "expected KEY=VALUE in '%.*s' (gdb:// options: elf, cb, scan, up, down, poll)",
				 (int)len, q);
			return -1;
		}
		size_t kl = (size_t)(eq - q);
		const char *v = eq + 1;
		size_t vl = len - kl - 1;
		int bad = 0;
		if (kl == 3 && memcmp(q, "elf", 3) == 0) {
			bad = vl == 0 || vl >= sizeof(o->elf);
			if (!bad) {
				memcpy(o->elf, v, vl);
				o->elf[vl] = '\0';
			}
		} else if (kl == 2 && memcmp(q, "cb", 2) == 0) {
			bad = number(v, vl, &o->cb) != 0;
			o->have_cb = 1;
		} else if (kl == 4 && memcmp(q, "scan", 4) == 0) {
			const char *c = memchr(v, ':', vl);
			bad = !c || number(v, (size_t)(c - v), &o->scan_addr) != 0 ||
			      number(c + 1, vl - (size_t)(c - v) - 1, &o->scan_size) != 0 || o->scan_size < RTT_HDR_SIZE;
		} else if (kl == 2 && memcmp(q, "up", 2) == 0) {
			bad = number(v, vl, &o->up) != 0 || o->up >= RTT_MAX_BUFFERS;
		} else if (kl == 4 && memcmp(q, "down", 4) == 0) {
			bad = number(v, vl, &o->down) != 0 || o->down >= RTT_MAX_BUFFERS;
		} else if (kl == 4 && memcmp(q, "poll", 4) == 0) {
			uint32_t ms = 0;
			bad = number(v, vl, &ms) != 0 || ms > 60000;
			if (!bad)
				o->poll_ms = ms;
		} else {
			snprintf(why, wl, "unknown gdb:// option '%.*s' (known: elf, cb, scan, up, down, poll)", (int)kl, q);
			return -1;
		}
		if (bad) {
			snprintf(why, wl, "bad value in gdb:// option '%.*s' (elf=FILE, cb=ADDR, scan=ADDR:SIZE, "
					  "up=N, down=N, poll=MS)", (int)len, q);
			return -1;
		}
		q += len + (amp ? 1 : 0);
	}
	return 0;
}

/* ---- finding the control block ----------------------------------------- */

/* The address of a data symbol named name in the ELF file, via libelf. */
static int elf_object(const char *path, const char *name, uint32_t *addr)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), found = 0;
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	while (e && !found && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize && !found; i++) {
			GElf_Sym s;
			const char *n;
			if (gelf_getsym(d, (int)i, &s) && GELF_ST_TYPE(s.st_info) == STT_OBJECT &&
			    (n = elf_strptr(e, sh.sh_link, s.st_name)) && strcmp(n, name) == 0 && s.st_value <= 0xFFFFFFFFu) {
				*addr = (uint32_t)s.st_value;
				found = 1;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return found ? 0 : -1;
}

static void note_once(struct sonde_link *l, struct link_gdb *g, const char *msg)
{
	size_t n = strlen(msg);
	if (n >= sizeof(g->state))
		n = sizeof(g->state) - 1; /* a longer message is compared by its start */
	if (strncmp(g->state, msg, n) == 0 && g->state[n] == '\0')
		return;
	memcpy(g->state, msg, n);
	g->state[n] = '\0';
	link_note(l, "%s", msg);
}

static void locate(struct sonde_link *l, struct link_gdb *g)
{
	const struct sonde_link_gdb_spec *o = &l->spec.gdb;
	char msg[SONDE_LINK_PATH_MAX + 128];
	if (o->have_cb) {
		g->cb = o->cb;
		g->have_addr = g->addr_fixed = 1;
		return;
	}
	if (!o->elf[0])
		return;
	static const char *const names[] = { "sonde_rtt_cb", "_SEGGER_RTT" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (elf_object(o->elf, names[i], &g->cb) == 0) {
			g->have_addr = g->addr_fixed = 1;
			snprintf(msg, sizeof(msg), "control block %s at 0x%08x (%s)", names[i], g->cb, o->elf);
			note_once(l, g, msg);
			return;
		}
	/* The ELF may be there for the symbols of the trace only: look for
	 * the block in RAM instead. */
	snprintf(msg, sizeof(msg), "%s: no symbol sonde_rtt_cb or _SEGGER_RTT (or it cannot be read): scanning "
		 "0x%08x..0x%08llx for the control block", o->elf, o->scan_addr,
		 (unsigned long long)o->scan_addr + o->scan_size);
	note_once(l, g, msg);
}

/* Look for the id in the scan range; a candidate must also parse. */
static int scan(struct sonde_link *l, struct link_gdb *g)
{
	const struct sonde_link_gdb_spec *o = &l->spec.gdb;
	uint8_t *chunk = g->scan_buf;
	uint64_t end = (uint64_t)o->scan_addr + o->scan_size;
	for (uint64_t a = o->scan_addr; a < end; a += GDB_SCAN_CHUNK) {
		size_t n = (size_t)(end - a < sizeof(g->scan_buf) ? end - a : sizeof(g->scan_buf));
		if (gdb_rsp_read(&g->rsp, a, chunk, n) != 0)
			return link_fail(l, "scanning for the control block: %s", g->rsp.why);
		for (size_t off = 0; off + RTT_HDR_SIZE <= n;) {
			size_t k = rtt_find_id(chunk + off, n - off);
			if (k == n - off)
				break;
			uint32_t up, down;
			char why[128];
			if (off + k + RTT_HDR_SIZE <= n && rtt_parse_header(chunk + off + k, &up, &down, why, sizeof(why)) == 0) {
				g->cb = (uint32_t)(a + off + k);
				g->have_addr = 1;
				char msg[128];
				snprintf(msg, sizeof(msg), "control block found at 0x%08x", g->cb);
				note_once(l, g, msg);
				return 0;
			}
			off += k + 1;
		}
	}
	char msg[128];
	snprintf(msg, sizeof(msg), "no control block in 0x%08x..0x%08llx yet (scan=ADDR:SIZE to look elsewhere)",
		 o->scan_addr, (unsigned long long)end);
	note_once(l, g, msg);
	return 0;
}

/* ---- the link ------------------------------------------------------------ */

static int gdb_down(struct sonde_link *l)
{
	struct link_gdb *g = l->gdb;
	link_fail(l, "%s", g->rsp.why);
	if (g->rsp.exited) {
		/* The program ended (a W or X stop reply): nothing to reconnect to. */
		link_note(l, "%s", l->why);
		l->ended = 1;
	}
	link_gdb_drop(l);
	return -1;
}

int link_gdb_connect(struct sonde_link *l)
{
	if (!l->gdb) {
		l->gdb = calloc(1, sizeof(struct link_gdb));
		if (!l->gdb)
			return link_fail(l, "out of memory");
	}
	struct link_gdb *g = l->gdb;
	if (link_net_connect(l) != 0)
		return -1;
	g->have_addr = g->addr_fixed = g->valid = g->broken = 0;
	g->span = RTT_HDR_SIZE + 2 * RTT_DESC_SIZE;
	g->next_scan = 0;
	if (gdb_rsp_start(&g->rsp, l) != 0)
		return gdb_down(l);
	locate(l, g);
	if (!g->t_first)
		g->t_first = now_ms();
	g->wait_ms = l->spec.gdb.poll_ms;
	g->after_wait = 1;
	if (gdb_rsp_resume(&g->rsp) != 0) /* QEMU stops the target when a client attaches; keep it running */
		return gdb_down(l);
	return 0;
}

/* The first poll after a connection lost with a read offset unwritten:
 * 1 when the target still has the bytes the host already delivered (its
 * read offset is where that poll found it, and they are still in the
 * buffer -- a ring's writer never overwrites unread bytes), with up->rd
 * moved past them, to be written before anything is read; else 0 (the
 * write had arrived, or the target was reset).  Without this the bytes
 * came twice, and a capture showed more frames than the target wrote. */
static int delivered_before(struct link_gdb *g, struct rtt_desc *up)
{
	if (!g->pend)
		return 0;
	g->pend = 0;
	uint32_t k = (g->pend_to + g->pend_size - g->pend_from) % g->pend_size;
	if (g->cb != g->pend_cb || up->addr != g->pend_desc || up->buf != g->pend_buf || up->size != g->pend_size ||
	    up->rd != g->pend_from || rtt_used(up) < k)
		return 0;
	up->rd = g->pend_to;
	return 1;
}

/* The poll proper, the target stopped: bytes read into buf, or -1. */
static ssize_t poll_block(struct sonde_link *l, struct link_gdb *g, uint8_t *buf, size_t n)
{
	const struct sonde_link_gdb_spec *o = &l->spec.gdb;
	uint8_t blk[RTT_HDR_SIZE + 2 * RTT_MAX_BUFFERS * RTT_DESC_SIZE];
	char why[160], msg[240];
	if (!g->have_addr) {
		if (now_ms() < g->next_scan)
			return 0;
		g->next_scan = now_ms() + GDB_SCAN_EVERY_MS;
		if (scan(l, g) != 0)
			return -1;
		if (!g->have_addr)
			return 0;
	}
	if (gdb_rsp_read(&g->rsp, g->cb, blk, g->span) != 0)
		return link_fail(l, "reading the control block: %s", g->rsp.why);
	uint32_t max_up, max_down;
	if (rtt_parse_header(blk, &max_up, &max_down, why, sizeof(why)) != 0) {
		snprintf(msg, sizeof(msg), "waiting for the control block at 0x%08x (%s)", g->cb, why);
		note_once(l, g, msg);
		g->valid = 0;
		if (!g->addr_fixed)
			g->have_addr = 0; /* look for it again: the firmware may have moved it */
		return 0;
	}
	if (o->up >= max_up) {
		snprintf(msg, sizeof(msg), "the control block at 0x%08x has %u up buffers: no up buffer %u", g->cb, max_up,
			 o->up);
		note_once(l, g, msg);
		return 0;
	}
	uint32_t up_off = rtt_desc_offset(1, o->up, max_up);
	uint32_t down_off = o->down < max_down ? rtt_desc_offset(0, o->down, max_up) : 0;
	uint32_t need = (down_off > up_off ? down_off : up_off) + RTT_DESC_SIZE;
	if (need != g->span) { /* first look at this block: read as far as its descriptors go */
		g->span = need;
		if (gdb_rsp_read(&g->rsp, g->cb, blk, g->span) != 0)
			return link_fail(l, "reading the control block: %s", g->rsp.why);
	}
	struct rtt_desc up, down;
	if (rtt_parse_desc(blk + up_off, g->cb + up_off, &up, why, sizeof(why)) != 0) {
		snprintf(msg, sizeof(msg), "up buffer %u of the control block at 0x%08x: %s", o->up, g->cb, why);
		note_once(l, g, msg);
		g->valid = 0;
		return 0;
	}
	if (!g->valid) {
		snprintf(msg, sizeof(msg), "reading up buffer %u (%u bytes at 0x%08x) of the control block at 0x%08x",
			 o->up, up.size, up.buf, g->cb);
		note_once(l, g, msg);
		g->valid = 1;
	}
	g->up_size = up.size;
	uint32_t target_rd = up.rd;
	int rewrite = delivered_before(g, &up);
	uint32_t used = rtt_used(&up);
	g->full_polls += used == up.size - 1u;
	if (g->after_wait) {
		g->wakes++;
		/* A buffer half full after a wait: the wait was too long for this
		 * rate.  Nearly empty: it may grow back to poll_ms. */
		if (used * 2u >= up.size)
			g->wait_ms /= 2u;
		else if (used * 8u < up.size)
			g->wait_ms = g->wait_ms * 2u + 1u < o->poll_ms ? g->wait_ms * 2u + 1u : o->poll_ms;
	}
	size_t k = used < n ? used : n;
	if (k) {
		size_t first = up.size - up.rd < k ? up.size - up.rd : k;
		if (gdb_rsp_read(&g->rsp, (uint64_t)up.buf + up.rd, buf, first) != 0 ||
		    (k > first && gdb_rsp_read(&g->rsp, up.buf, buf + first, k - first) != 0))
			return link_fail(l, "reading the up buffer: %s", g->rsp.why);
	}
	if (k || rewrite) {
		/* From here on the bytes are delivered whatever happens: when the
		 * read offset cannot be written, the next connection writes it
		 * before it reads (delivered_before). */
		uint32_t new_rd = (uint32_t)((up.rd + k) % up.size);
		uint8_t rd[4];
		rtt_put_le32(rd, new_rd);
		if (gdb_rsp_write(&g->rsp, (uint64_t)up.addr + 16, rd, 4) != 0) {
			link_fail(l, "writing the up buffer's read offset: %s", g->rsp.why);
			g->pend = 1;
			g->pend_cb = g->cb;
			g->pend_desc = up.addr;
			g->pend_buf = up.buf;
			g->pend_size = up.size;
			g->pend_from = target_rd;
			g->pend_to = new_rd;
			g->broken = 1;
			return (ssize_t)k;
		}
	}
	if (g->nq && down_off && rtt_parse_desc(blk + down_off, g->cb + down_off, &down, why, sizeof(why)) == 0) {
		size_t w = rtt_room(&down) < g->nq ? rtt_room(&down) : g->nq;
		size_t first = down.size - down.wr < w ? down.size - down.wr : w;
		uint8_t wr[4];
		rtt_put_le32(wr, (uint32_t)((down.wr + w) % down.size));
		if (w && (gdb_rsp_write(&g->rsp, (uint64_t)down.buf + down.wr, g->q, first) != 0 ||
			  (w > first && gdb_rsp_write(&g->rsp, down.buf, g->q + first, w - first) != 0) ||
			  gdb_rsp_write(&g->rsp, (uint64_t)down.addr + 12, wr, 4) != 0)) {
			link_fail(l, "writing the down buffer: %s", g->rsp.why);
			g->broken = 1;
			return (ssize_t)k;
		}
		memmove(g->q, g->q + w, g->nq - w);
		g->nq -= w;
	}
	return (ssize_t)k;
}

ssize_t link_gdb_read(struct sonde_link *l, void *buf, size_t n)
{
	struct link_gdb *g = l->gdb;
	if (g->broken) { /* l->why was set by the poll that delivered its bytes */
		g->broken = 0;
		link_gdb_drop(l);
		return -1;
	}
	if (gdb_rsp_halt(&g->rsp) != 0)
		return gdb_down(l);
	ssize_t k = poll_block(l, g, buf, n);
	if (k < 0) {
		link_gdb_drop(l);
		return -1;
	}
	if (!g->broken && gdb_rsp_resume(&g->rsp) != 0) {
		link_fail(l, "%s", g->rsp.why);
		g->broken = 1;
	}
	if (g->broken && g->rsp.exited)
		l->ended = 1; /* the program ended: nothing to reconnect to */
	g->polls++;
	g->bytes += (uint64_t)k;
	g->after_wait = k == 0; /* the live loop reads until a poll finds nothing, then waits */
	return k;
}

int link_gdb_write(struct sonde_link *l, const void *buf, size_t n)
{
	struct link_gdb *g = l->gdb;
	if (n > sizeof(g->q) - g->nq)
		return link_fail(l, "%zu command bytes still wait for room in the target's down buffer (is the firmware "
				    "reading it?)", g->nq);
	memcpy(g->q + g->nq, buf, n);
	g->nq += n;
	return 0;
}

void link_gdb_drop(struct sonde_link *l)
{
	struct link_gdb *g = l->gdb;
	if (l->fd >= 0 && g && !g->rsp.running && !g->rsp.exited) {
		/* A stub keeps a stopped target stopped after its client has gone
		 * (QEMU does): let it run, without waiting for anything. */
		char c[8];
		size_t k = gdb_rsp_frame("c", 1, c);
		if (send(l->fd, c, k, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
			/* nothing more to do: the connection is going */
		}
	}
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
}

int link_gdb_poll_ms(const struct sonde_link *l)
{
	const struct link_gdb *g = l->gdb;
	return g ? (int)g->wait_ms : (int)l->spec.gdb.poll_ms;
}

void link_gdb_free(struct sonde_link *l)
{
	free(l->gdb);
	l->gdb = NULL;
}

int link_gdb_capacity(const struct sonde_link *l, int whole, double *bytes_per_s, char *what, size_t wl)
{
	struct link_gdb *g = l->gdb;
	if (!g || !g->up_size)
		return 0;
	int64_t now = now_ms();
	if (!g->win_t)
		g->win_t = g->t_first;
	int64_t t0 = whole ? g->t_first : g->win_t;
	uint64_t polls = g->polls - (whole ? 0 : g->win_polls), wakes = g->wakes - (whole ? 0 : g->win_wakes);
	uint64_t full = g->full_polls - (whole ? 0 : g->win_full);
	uint64_t bytes = g->bytes - (whole ? 0 : g->win_bytes);
	if (!whole) {
		g->win_t = now;
		g->win_polls = g->polls;
		g->win_wakes = g->wakes;
		g->win_full = g->full_polls;
		g->win_bytes = g->bytes;
	}
	if (wakes < 2 || now <= t0)
		return 0;
	/* A wait between polls lets the target fill at most one up buffer
	 * (what does not fit waits in its ring buffer, or is dropped there):
	 * the link carries a buffer per wait.  A poll that found the buffer
	 * full shows it: then what the link carried was all it could. */
	double rate = (double)wakes * 1000.0 / (double)(now - t0);
	*bytes_per_s = full ? (double)bytes * 1000.0 / (double)(now - t0) : rate * (double)(g->up_size - 1u);
	snprintf(what, wl, "RTT via GDB (%u-B up buffer, %.0f reads/s, full at %llu/%llu polls)",
		 g->up_size, rate, (unsigned long long)full, (unsigned long long)polls);
	return 1;
}
