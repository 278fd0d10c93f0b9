/*
 * test_live_link.c -- the text of live links (host/src/sources/link.h):
 * every kind, the serial settings, the defaults, and the errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sources/link.h"

static struct sonde_link_spec parse_ok(const char *text)
{
	struct sonde_link_spec s;
	char why[512];
	int rc = sonde_link_parse(text, &s, why, sizeof(why));
	if (rc != 0)
		fail_msg("'%s': %s", text, why);
	return s;
}

static void parse_bad(const char *text, const char *why_part)
{
	struct sonde_link_spec s;
	char why[512] = "";
	assert_int_equal(sonde_link_parse(text, &s, why, sizeof(why)), -1);
	if (!strstr(why, why_part))
		fail_msg("'%s': expected '%s' in '%s'", text, why_part, why);
}

static void test_serial(void **state)
{
	(void)state;
	struct sonde_link_spec s = parse_ok("serial:/dev/ttyUSB0");
	assert_int_equal(s.kind, SONDE_LINK_SERIAL);
	assert_string_equal(s.path, "/dev/ttyUSB0");
	assert_int_equal(s.baud, 115200);
	assert_int_equal(s.data_bits, 8);
	assert_int_equal(s.parity, 'N');
	assert_int_equal(s.stop_bits, 1);
	assert_int_equal(s.flow, SONDE_FLOW_NONE);
	assert_int_equal(sonde_link_bits_per_byte(&s), 10);

	s = parse_ok("serial:/dev/ttyACM1:1234567:7e2:rtscts");
	assert_string_equal(s.path, "/dev/ttyACM1");
	assert_int_equal(s.baud, 1234567);
	assert_int_equal(s.data_bits, 7);
	assert_int_equal(s.parity, 'E');
	assert_int_equal(s.stop_bits, 2);
	assert_int_equal(s.flow, SONDE_FLOW_RTSCTS);
	assert_int_equal(sonde_link_bits_per_byte(&s), 11);

	s = parse_ok("serial:/dev/ttyS0:12000000");
	assert_int_equal(s.baud, 12000000);
	/* a character device's path alone is a serial link */
	s = parse_ok("/dev/null:9600");
	assert_int_equal(s.kind, SONDE_LINK_SERIAL);
	assert_string_equal(s.path, "/dev/null");
	assert_int_equal(s.baud, 9600);
	/* ... and a path under /dev/ that does not exist: "no such device"
	 * when it is opened, and retried like an unplugged one */
	s = parse_ok("/dev/ttyNOPE");
	assert_int_equal(s.kind, SONDE_LINK_SERIAL);
	assert_string_equal(s.path, "/dev/ttyNOPE");

	parse_bad("serial:/dev/ttyS0:12000001", "bad baud rate");
	parse_bad("serial:/dev/ttyS0:0", "bad baud rate");
	parse_bad("serial:/dev/ttyS0:fast", "bad baud rate");
	parse_bad("serial:/dev/ttyS0:9600:9N1", "bad framing");
	parse_bad("serial:/dev/ttyS0:9600:8N1:dtr", "bad flow control");
	parse_bad("serial:/dev/ttyS0:9600:8N1:none:x", "too many");
	parse_bad("serial:", "bad serial device");
	/* a missing path outside /dev/ is an error at once, "serial:" or not */
	parse_bad("serial:/nonexistent/tty", "no such file or device: '/nonexistent/tty'");
	parse_bad("serial:/nonexistent/tty:9600:8N1", "no such file or device: '/nonexistent/tty'");
	parse_bad("serial:relative-tty", "no such file or device: 'relative-tty'");
	/* one that exists is taken as it is (opening it says what it is) */
	s = parse_ok("serial:/tmp");
	assert_string_equal(s.path, "/tmp");
}

static void test_sockets(void **state)
{
	(void)state;
	struct sonde_link_spec s = parse_ok("tcp://localhost:4000");
	assert_int_equal(s.kind, SONDE_LINK_TCP);
	assert_string_equal(s.host, "localhost");
	assert_string_equal(s.port, "4000");
	assert_int_equal(s.baud, 0);

	s = parse_ok("tcp://[::1]:65535");
	assert_string_equal(s.host, "::1");
	assert_string_equal(s.port, "65535");

	s = parse_ok("tcp-listen://5555");
	assert_int_equal(s.kind, SONDE_LINK_TCP_LISTEN);
	assert_string_equal(s.host, ""); /* 127.0.0.1 when opened */
	assert_string_equal(s.port, "5555");
	s = parse_ok("tcp-listen://0.0.0.0:5555");
	assert_string_equal(s.host, "0.0.0.0");

	s = parse_ok("udp://7701");
	assert_int_equal(s.kind, SONDE_LINK_UDP);
	assert_string_equal(s.port, "7701");

	s = parse_ok("unix:/tmp/sonde.sock");
	assert_int_equal(s.kind, SONDE_LINK_UNIX);
	assert_string_equal(s.path, "/tmp/sonde.sock");

	parse_bad("tcp://host", "expected HOST:PORT");
	parse_bad("tcp://:4000", "bad host");
	parse_bad("tcp://h:0", "bad port");
	parse_bad("tcp://h:65536", "bad port");
	parse_bad("udp://h:-1", "bad port");
	parse_bad("tcp://[::1]4000", "expected [ADDRESS]:PORT");
}

static void test_files(void **state)
{
	(void)state;
	struct sonde_link_spec s = parse_ok("-");
	assert_int_equal(s.kind, SONDE_LINK_STDIN);
	s = parse_ok("file:/var/log/trace.bin");
	assert_int_equal(s.kind, SONDE_LINK_FILE);
	assert_string_equal(s.path, "/var/log/trace.bin");
	parse_bad("file:", "bad path");
	parse_bad("", "empty link");
	parse_bad("bogus://x", "cannot tell what link");
	parse_bad("/nonexistent/tty", "no such file or device: '/nonexistent/tty'");
}

/* A file link reads to the end and says so; a followed one keeps waiting. */
static void test_file_link(void **state)
{
	(void)state;
	char path[] = "/tmp/test_live_link_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "abc", 3), 3);
	struct sonde_link_spec spec = parse_ok("file:/dev/null");
	strcpy(spec.path, path);
	struct sonde_link l;
	memset(&l, 0, sizeof(l));
	assert_int_equal(sonde_link_open(&l, &spec), 0);
	assert_false(sonde_link_writable(&l));
	assert_false(sonde_link_reconnects(&l));
	char buf[16];
	assert_int_equal(sonde_link_read(&l, buf, sizeof(buf)), 3);
	assert_int_equal(sonde_link_read(&l, buf, sizeof(buf)), -1);
	assert_true(l.ended);
	assert_int_equal(sonde_link_write(&l, "x", 1), -1);
	assert_non_null(strstr(l.why, "only reads"));
	sonde_link_close(&l);

	spec.follow = 1;
	assert_int_equal(sonde_link_open(&l, &spec), 0);
	assert_int_equal(sonde_link_poll_fd(&l), -1);
	assert_int_equal(sonde_link_poll_ms(&l), 100);
	assert_int_equal(sonde_link_read(&l, buf, sizeof(buf)), 3);
	assert_int_equal(sonde_link_read(&l, buf, sizeof(buf)), 0); /* waits for more */
	assert_int_equal(write(fd, "de", 2), 2);
	assert_int_equal(sonde_link_read(&l, buf, sizeof(buf)), 2);
	assert_memory_equal(buf, "de", 2);
	assert_int_equal(ftruncate(fd, 1), 0); /* truncated: read from the start */
	assert_int_equal(sonde_link_read(&l, buf, sizeof(buf)), 0);
	assert_int_equal(sonde_link_read(&l, buf, sizeof(buf)), 1);
	assert_false(l.ended);
	sonde_link_close(&l);
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_serial),
		cmocka_unit_test(test_sockets),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_file_link),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
