/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The root prefix's resolution without openat2() (kernels before 5.6,
 * valgrind): mlx_open_walk() must keep every path and every symlink of a
 * captured system inside it, as RESOLVE_IN_ROOT does.  The trees are built
 * here: a file OUTSIDE/secret on the live system and the same path inside
 * the root, so a lookup that escapes reads "outside" instead of "inside".
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "mlx-private.h"

struct tree {
	char top[PATH_MAX];     /* mkdtemp: holds both trees */
	char outside[PATH_MAX]; /* absolute: TOP/live, the "live system" */
	char root[PATH_MAX];    /* TOP/root, the captured system */
	int root_fd;
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mkdirs(const char *path)
{
	char buf[PATH_MAX];
	char *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
	mkdir(buf, 0755);
}

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	char p[PATH_MAX * 2], dots[PATH_MAX] = "";
	int i;

	snprintf(t->top, sizeof(t->top), "%s/mlx-rootfs-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(t->top))
		return -1;
	snprintf(t->outside, sizeof(t->outside), "%s/live", t->top);
	snprintf(t->root, sizeof(t->root), "%s/root", t->top);
	mkdirs(t->outside);
	snprintf(p, sizeof(p), "%s/secret", t->outside);
	put(p, "outside");
	/* the same absolute path inside the root */
	snprintf(p, sizeof(p), "%s%s", t->root, t->outside);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s%s/secret", t->root, t->outside);
	put(p, "inside");
	snprintf(p, sizeof(p), "%s/secret", t->root);
	put(p, "top");
	snprintf(p, sizeof(p), "%s/sys/class/net", t->root);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/sys/devices/pci/net0", t->root);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/sys/devices/pci/net0/mtu", t->root);
	put(p, "1500");

	/* absolute link to a file, absolute link to a directory */
	snprintf(p, sizeof(p), "%s/secret", t->outside);
	symlinkat(p, AT_FDCWD, (snprintf(dots, sizeof(dots), "%s/abs", t->root), dots));
	symlinkat(t->outside, AT_FDCWD, (snprintf(dots, sizeof(dots), "%s/absdir", t->root), dots));
	/* relative link climbing far above the root, then down the live path */
	dots[0] = '\0';
	for (i = 0; i < 16; i++)
		strcat(dots, "../");
	snprintf(p, sizeof(p), "%s%s/secret", dots, t->outside + 1);
	{
		char l[PATH_MAX];

		snprintf(l, sizeof(l), "%s/sys/rel", t->root);
		symlinkat(p, AT_FDCWD, l);
		/* a kernel-style relative link, which must keep working */
		snprintf(l, sizeof(l), "%s/sys/class/net/net0", t->root);
		symlinkat("../../devices/pci/net0", AT_FDCWD, l);
		/* a loop */
		snprintf(l, sizeof(l), "%s/loop", t->root);
		symlinkat("/loop", AT_FDCWD, l);
	}
	t->root_fd = open(t->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (t->root_fd < 0)
		return -1;
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tree *t = *state;
	char cmd[PATH_MAX + 16];

	close(t->root_fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->top);
	if (system(cmd) != 0)
		return -1;
	free(t);
	return 0;
}

/* Read what PATH names when resolved in the root ("" on error: errno in *err). */
static const char *read_in(struct tree *t, const char *path, bool beneath, int *err)
{
	static char buf[64];
	int fd = mlx_open_walk(t->root_fd, path, O_RDONLY, 0, beneath);
	ssize_t n;

	*err = 0;
	buf[0] = '\0';
	if (fd < 0) {
		*err = fd;
		return buf;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static void test_absolute_link_stays_inside(void **state)
{
	struct tree *t = *state;
	char p[PATH_MAX];
	int err;

	assert_string_equal(read_in(t, "/abs", false, &err), "inside");
	assert_int_equal(err, 0);
	/* through a directory link in the middle of the path */
	assert_string_equal(read_in(t, "/absdir/secret", false, &err), "inside");
	/* the absolute path itself, spelled as given */
	snprintf(p, sizeof(p), "%s/secret", t->outside);
	assert_string_equal(read_in(t, p, false, &err), "inside");
}

static void test_relative_link_clamped(void **state)
{
	struct tree *t = *state;
	int err;

	assert_string_equal(read_in(t, "/sys/rel", false, &err), "inside");
	assert_string_equal(read_in(t, "sys/class/net/net0/mtu", false, &err), "1500");
}

static void test_dotdot_clamped(void **state)
{
	struct tree *t = *state;
	char p[PATH_MAX];
	int err;

	assert_string_equal(read_in(t, "/../../../secret", false, &err), "top");
	snprintf(p, sizeof(p), "/../../../../../../..%s/secret", t->outside);
	assert_string_equal(read_in(t, p, false, &err), "inside");
	assert_string_equal(read_in(t, "/sys/class/../../../../secret", false, &err), "top");
}

static void test_beneath_refuses_escape(void **state)
{
	struct tree *t = *state;
	int err;

	read_in(t, "../secret", true, &err);
	assert_int_equal(err, -EXDEV);
	read_in(t, "abs", true, &err);
	assert_int_equal(err, -EXDEV);
	read_in(t, "sys/rel", true, &err);
	assert_int_equal(err, -EXDEV);
	/* staying beneath is fine */
	assert_string_equal(read_in(t, "sys/class/net/net0/mtu", true, &err), "1500");
}

static void test_loops_and_nofollow(void **state)
{
	struct tree *t = *state;
	struct stat st;
	int err, fd;

	read_in(t, "/loop", false, &err);
	assert_int_equal(err, -ELOOP);
	/* O_NOFOLLOW on the last component opens the link, not its target */
	fd = mlx_open_walk(t->root_fd, "/abs", O_PATH | O_NOFOLLOW, 0, false);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	close(fd);
	/* O_CREAT through a link to a directory lands inside */
	fd = mlx_open_walk(t->root_fd, "/absdir/new", O_WRONLY | O_CREAT | O_EXCL, 0600, false);
	assert_true(fd >= 0);
	close(fd);
	{
		char p[PATH_MAX * 2];

		snprintf(p, sizeof(p), "%s%s/new", t->root, t->outside);
		assert_int_equal(access(p, F_OK), 0);
		snprintf(p, sizeof(p), "%s/new", t->outside);
		assert_int_equal(access(p, F_OK), -1);
	}
	read_in(t, "/nonexistent/x", false, &err);
	assert_int_equal(err, -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_absolute_link_stays_inside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_relative_link_clamped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dotdot_clamped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_beneath_refuses_escape, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loops_and_nofollow, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
