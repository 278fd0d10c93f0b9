/*
 * test_miniprof_link.c -- the serial link (sources/link_serial.c) used by
 * `sonde miniprof`: the DEV[:BAUD[:FRAME]] syntax and the option parsers
 * with their errors, the configuration checks, opening errors, and a
 * pseudo-terminal end to end (both directions, all 256 byte values
 * unchanged, read timeouts, flushing, a non-standard baud rate accepted,
 * the other end closing).  Real serial ports go through libserialport,
 * which needs hardware; what does not is tested here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

#include "sources/link_serial.h"

static void test_parse_spec(void **state)
{
	struct link_serial_cfg c;
	char err[256];

	(void)state;
	link_serial_cfg_init(&c);
	assert_int_equal(c.baud, 115200);
	assert_int_equal(c.data_bits, 8);
	assert_int_equal(c.parity, LINK_SERIAL_PARITY_NONE);
	assert_int_equal(c.stop_bits, 1);
	assert_int_equal(c.flow, LINK_SERIAL_FLOW_NONE);

	assert_int_equal(link_serial_parse(&c, "/dev/ttyUSB0", err, sizeof(err)), 0);
	assert_string_equal(c.path, "/dev/ttyUSB0");
	assert_int_equal(c.baud, 115200);

	assert_int_equal(link_serial_parse(&c, "/dev/ttyUSB0:921600", err, sizeof(err)), 0);
	assert_string_equal(c.path, "/dev/ttyUSB0");
	assert_int_equal(c.baud, 921600);

	link_serial_cfg_init(&c);
	assert_int_equal(link_serial_parse(&c, "/dev/ttyACM1:12000000:7e2", err, sizeof(err)), 0);
	assert_string_equal(c.path, "/dev/ttyACM1");
	assert_int_equal(c.baud, 12000000);
	assert_int_equal(c.data_bits, 7);
	assert_int_equal(c.parity, LINK_SERIAL_PARITY_EVEN);
	assert_int_equal(c.stop_bits, 2);

	/* a by-path name full of colons stays whole */
	link_serial_cfg_init(&c);
	assert_int_equal(link_serial_parse(&c, "/dev/serial/by-path/pci-0000:00:14.0-usb-0:2:1.0-port0", err,
					   sizeof(err)), 0);
	assert_string_equal(c.path, "/dev/serial/by-path/pci-0000:00:14.0-usb-0:2:1.0-port0");
	assert_int_equal(c.baud, 115200);
	assert_int_equal(link_serial_parse(&c, "/dev/serial/by-path/pci-0000:00:14.0-usb-0:2:1.0-port0:1234567",
					   err, sizeof(err)), 0);
	assert_int_equal(c.baud, 1234567);
}

static void test_parse_errors(void **state)
{
	struct link_serial_cfg c;
	char err[256];

	(void)state;
	link_serial_cfg_init(&c);
	assert_int_equal(link_serial_parse(&c, "/dev/ttyS0:12000001", err, sizeof(err)), -1);
	assert_string_equal(err, "baud rate '12000001': expected a number from 1 to 12000000");
	assert_int_equal(link_serial_parse(&c, "/dev/ttyS0:0", err, sizeof(err)), -1);
	assert_string_equal(err, "baud rate '0': expected a number from 1 to 12000000");
	assert_int_equal(link_serial_parse(&c, "/dev/ttyS0:8N1", err, sizeof(err)), -1);
	assert_string_equal(err, "'/dev/ttyS0:8N1': a frame (8N1) must follow a baud rate: DEV:BAUD:8N1");
	assert_int_equal(link_serial_parse(&c, ":9600", err, sizeof(err)), -1);
	assert_string_equal(err, "':9600': no device name");
	/* nothing was changed by the failures */
	assert_int_equal(c.baud, 115200);

	assert_int_equal(link_serial_parse_frame(&c, "9N1", err, sizeof(err)), -1);
	assert_string_equal(err, "frame '9N1': expected data bits 5-8, parity N/O/E/M/S, stop bits 1-2 (e.g. 8N1)");
	assert_int_equal(link_serial_parse_frame(&c, "8X1", err, sizeof(err)), -1);
	assert_int_equal(link_serial_parse_frame(&c, "8N3", err, sizeof(err)), -1);
	assert_int_equal(link_serial_parse_frame(&c, "5S2", err, sizeof(err)), 0);
	assert_int_equal(c.data_bits, 5);
	assert_int_equal(c.parity, LINK_SERIAL_PARITY_SPACE);
	assert_int_equal(c.stop_bits, 2);

	enum link_serial_parity p;
	enum link_serial_flow f;
	assert_int_equal(link_serial_parse_parity("odd", &p, err, sizeof(err)), 0);
	assert_int_equal(p, LINK_SERIAL_PARITY_ODD);
	assert_string_equal(link_serial_parity_name(LINK_SERIAL_PARITY_MARK), "mark");
	assert_int_equal(link_serial_parse_parity("O", &p, err, sizeof(err)), -1);
	assert_string_equal(err, "parity 'O': expected none, odd, even, mark or space");
	assert_int_equal(link_serial_parse_flow("rtscts", &f, err, sizeof(err)), 0);
	assert_int_equal(f, LINK_SERIAL_FLOW_RTSCTS);
	assert_string_equal(link_serial_flow_name(LINK_SERIAL_FLOW_DTRDSR), "dtrdsr");
	assert_int_equal(link_serial_parse_flow("hw", &f, err, sizeof(err)), -1);
	assert_string_equal(err, "flow control 'hw': expected none, xonxoff, rtscts or dtrdsr");
	unsigned baud;
	assert_int_equal(link_serial_parse_baud("115200x", &baud, err, sizeof(err)), -1);
	assert_int_equal(link_serial_parse_baud("99999999999999999999", &baud, err, sizeof(err)), -1);
}

static void test_open_errors(void **state)
{
	struct link_serial_cfg c;
	char err[600], path[] = "/tmp/test_miniprof_link_XXXXXX";
	int fd;

	(void)state;
	link_serial_cfg_init(&c);
	assert_null(link_serial_open(&c, err, sizeof(err)));
	assert_string_equal(err, "no serial device given");

	strcpy(c.path, "/nonexistent/ttyX");
	assert_null(link_serial_open(&c, err, sizeof(err)));
	/* says "no such device", and which ports there are (machine-dependent) */
	assert_non_null(strstr(err, "no such device '/nonexistent/ttyX' (serial ports found: "));

	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	strcpy(c.path, path);
	assert_null(link_serial_open(&c, err, sizeof(err)));
	char want[128];
	snprintf(want, sizeof(want), "'%s' is not a serial port (not a character device)", path);
	assert_string_equal(err, want);
	unlink(path);

	/* a character device that is no serial port: libserialport says why */
	strcpy(c.path, "/dev/null");
	assert_null(link_serial_open(&c, err, sizeof(err)));
	const char *prefix = "'/dev/null': not usable as a serial port: ";
	assert_int_equal(strncmp(err, prefix, strlen(prefix)), 0);
	assert_true(strlen(err) > strlen(prefix));

	c.baud = 0;
	assert_null(link_serial_open(&c, err, sizeof(err)));
	assert_string_equal(err, "baud rate 0: expected 1 to 12000000");
	c.baud = 9600;
	c.data_bits = 9;
	assert_null(link_serial_open(&c, err, sizeof(err)));
	assert_string_equal(err, "9 data bits: expected 5 to 8");
	c.data_bits = 8;
	c.stop_bits = 3;
	assert_null(link_serial_open(&c, err, sizeof(err)));
	assert_string_equal(err, "3 stop bits: expected 1 or 2");
}

/* A pty pair: the test holds the master, the link opens the slave. */
struct pty {
	int master;
	char name[128];
	struct link_serial *l;
};

static void pty_open(struct pty *t, unsigned baud)
{
	struct link_serial_cfg c;
	struct termios tio;
	char err[600];
	int slave;

	assert_int_equal(openpty(&t->master, &slave, t->name, NULL, NULL), 0);
	close(slave);
	link_serial_cfg_init(&c);
	strcpy(c.path, t->name);
	c.baud = baud;
	c.flow = LINK_SERIAL_FLOW_XONXOFF; /* accepted, and must not eat 0x11/0x13 */
	t->l = link_serial_open(&c, err, sizeof(err));
	if (!t->l)
		fail_msg("%s", err);
	/* the master side raw too, so nothing is translated either way */
	assert_int_equal(tcgetattr(t->master, &tio), 0);
	cfmakeraw(&tio);
	assert_int_equal(tcsetattr(t->master, TCSANOW, &tio), 0);
}

static void test_pty_both_ways(void **state)
{
	struct pty t;
	uint8_t all[256], got[512];
	size_t n = 0;

	(void)state;
	pty_open(&t, 1234567); /* any rate is accepted on a pty */
	assert_true(link_serial_is_pty(t.l));
	assert_string_equal(link_serial_path(t.l), t.name);
	assert_true(link_serial_fd(t.l) >= 0);
	for (int i = 0; i < 256; i++)
		all[i] = (uint8_t)i;

	/* device -> host */
	assert_int_equal(write(t.master, all, sizeof(all)), 256);
	struct pollfd pfd = { link_serial_fd(t.l), POLLIN, 0 };
	assert_int_equal(poll(&pfd, 1, 2000), 1);
	while (n < sizeof(all)) {
		ssize_t r = link_serial_read(t.l, got + n, sizeof(got) - n, 2000);

		assert_true(r > 0);
		n += (size_t)r;
	}
	assert_int_equal(n, 256);
	assert_memory_equal(got, all, 256);
	/* nothing more: the read times out with 0 */
	assert_int_equal(link_serial_read(t.l, got, sizeof(got), 20), 0);
	assert_int_equal(link_serial_read(t.l, got, sizeof(got), 0), 0);

	/* host -> device */
	assert_int_equal(link_serial_write(t.l, all, sizeof(all), 2000), 0);
	n = 0;
	while (n < sizeof(all)) {
		struct pollfd m = { t.master, POLLIN, 0 };
		ssize_t r;

		assert_int_equal(poll(&m, 1, 2000), 1);
		r = read(t.master, got + n, sizeof(got) - n);
		assert_true(r > 0);
		n += (size_t)r;
	}
	assert_memory_equal(got, all, 256);

	/* flushing drops what was received and not read */
	assert_int_equal(write(t.master, "stale", 5), 5);
	assert_int_equal(poll(&pfd, 1, 2000), 1);
	assert_int_equal(link_serial_flush_input(t.l), 0);
	assert_int_equal(link_serial_read(t.l, got, sizeof(got), 20), 0);
	assert_string_equal(link_serial_error(t.l), "");

	/* the device goes away */
	close(t.master);
	assert_int_equal(link_serial_read(t.l, got, sizeof(got), 2000), -1);
	char want[200];
	snprintf(want, sizeof(want), "'%s': the other end of the pseudo-terminal was closed", t.name);
	assert_string_equal(link_serial_error(t.l), want);
	link_serial_close(t.l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_spec),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_pty_both_ways),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
