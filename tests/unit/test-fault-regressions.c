/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bugs the fault-injection matrix (tests/cli/fault-matrix.sh) found, kept
 * as unit tests that need no shim: the failure comes from a real limit
 * (RLIMIT_FSIZE, as a full disk or a quota gives), and each failed before
 * the fix named in its comment.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "mlx.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void get(const char *rel, char *buf, size_t len)
{
	char p[256];
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static int setup(void **state)
{
	char p[128];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/mlx-fault-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(p, sizeof(p), "mkdir -p %s/sys/bus/pci/devices %s/sys/x", root, root);
	return system(p) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	char p[128];

	(void)state;
	snprintf(p, sizeof(p), "rm -rf %s", root);
	return system(p) == 0 ? 0 : -1;
}

/* Write @val to /sys/x/v under RLIMIT_FSIZE = @limit bytes. */
static int write_limited(const char *val, rlim_t limit)
{
	struct mlx_ctx *ctx;
	struct rlimit old, rl;
	char *msg = NULL;
	int r;

	assert_int_equal(mlx_ctx_new(root, &ctx, &msg), 0);
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	rl = old;
	rl.rlim_cur = limit;
	setrlimit(RLIMIT_FSIZE, &rl);
	r = mlx_write_str(ctx, "/sys/x/v", val);
	setrlimit(RLIMIT_FSIZE, &old);
	mlx_ctx_free(ctx);
	return r;
}

/*
 * fault-matrix (dcqcn set, write k=2 ENOSPC): under --sysroot
 * mlx_write_str opened the value file with O_TRUNC before writing, so a
 * write that failed left the file empty: the working copy lost the value
 * (the command said "nothing was changed", and the next `get` could not
 * read it).  A sysfs store takes the value or leaves the old one.
 */
static void test_write_str_failed_keeps_old(void **state)
{
	char buf[64];

	(void)state;
	put("sys/x/v", "10\n");
	assert_true(write_limited("12345", 0) < 0);
	get("sys/x/v", buf, sizeof(buf));
	assert_string_equal(buf, "10\n");
}

/* The same with a short write (room for 3 of 5 bytes): an error (-EFBIG
 * since the value is written to a new file renamed over the old one,
 * issue 29; -EIO when it was written in place), the old value. */
static void test_write_str_short_keeps_old(void **state)
{
	char buf[64];
	int r;

	(void)state;
	put("sys/x/v", "10\n");
	r = write_limited("12345", 3);
	assert_true(r == -EFBIG || r == -EIO);
	get("sys/x/v", buf, sizeof(buf));
	assert_string_equal(buf, "10\n");
	/* and a write that succeeds replaces the whole value */
	assert_int_equal(write_limited("7", 1 << 20), 0);
	get("sys/x/v", buf, sizeof(buf));
	assert_string_equal(buf, "7");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_str_failed_keeps_old),
		cmocka_unit_test(test_write_str_short_keeps_old),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
