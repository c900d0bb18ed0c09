/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hostile inputs (issue 29), the library side: mlx_err() quoting its own
 * message, the root-confined tree operations on a capture whose links
 * lead outside it, and the device lock's wait.  The trees are built here:
 * TOP/outside plays the live system, TOP/root the capture.
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
#include "tree.h"

/* valgrind reported "Source and destination overlap in mempcpy" when a
 * message quoted the one before it (cmd/qos-write.c, boundary-live.c),
 * and the text came out doubled: "X: X:  for ...". */
static void test_err_quotes_itself(void **state)
{
	struct mlx_ctx *ctx;

	(void)state;
	assert_int_equal(mlx_ctx_new("/", &ctx, NULL), 0);
	mlx_err(ctx, ENOENT, "the capture has no reply for '%s'", "eth0");
	assert_int_equal(mlx_err(ctx, ENOENT, "cannot read the QoS settings of %s: %s", "eth0",
				 mlx_errmsg(ctx)), -ENOENT);
	assert_string_equal(mlx_errmsg(ctx), "cannot read the QoS settings of eth0: the capture has "
			    "no reply for 'eth0'");
	/* twice over, and a message longer than the buffer stays terminated */
	mlx_err(ctx, EIO, "%s; %s", mlx_errmsg(ctx), mlx_errmsg(ctx));
	assert_non_null(strstr(mlx_errmsg(ctx), "'eth0'; cannot read"));
	for (int i = 0; i < 8; i++)
		mlx_err(ctx, EIO, "%s %s", mlx_errmsg(ctx), mlx_errmsg(ctx));
	assert_true(strlen(mlx_errmsg(ctx)) < 768);
	mlx_ctx_free(ctx);
}

/* TOP/root is the capture, TOP/outside what a link of it leads to. */
struct tree {
	char top[PATH_MAX], root[PATH_MAX + 8], out[PATH_MAX + 8];
};

static void mk(const char *fmt, const char *a, const char *b)
{
	char p[3 * PATH_MAX];

	snprintf(p, sizeof(p), fmt, a, b);
	assert_int_equal(mkdir(p, 0755), 0);
}

static void put(const char *dir, const char *name)
{
	char p[3 * PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("x\n", f);
	fclose(f);
}

static void tree_make(struct tree *t)
{
	snprintf(t->top, sizeof(t->top), "%s/mlx-hostile-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(t->top));
	snprintf(t->root, sizeof(t->root), "%s/root", t->top);
	snprintf(t->out, sizeof(t->out), "%s/outside", t->top);
	mk("%s%s", t->root, "");
	mk("%s%s", t->root, "/sys");
	mk("%s%s", t->root, "/sys/bus");
	mk("%s%s", t->root, "/sys/bus/pci");
	mk("%s%s", t->root, "/sys/bus/pci/devices");
	mk("%s%s", t->out, "");
	mk("%s%s", t->out, "/vf");
	put(t->out, "vf/keep");
	/* inside, at the path the links name inside the root */
	mk("%s%s", t->root, "/outside");
	mk("%s%s", t->root, "/outside/vf");
	put(t->root, "outside/vf/file");
}

static void tree_drop(struct tree *t)
{
	assert_int_equal(mlx_tree_remove(t->top), 0);
	assert_int_equal(access(t->top, F_OK), -1);
}

/* The emulators' removal of a directory of the capture (the undo of a
 * failed numvfs, txn_undo/txn_commit) followed the capture's links with a
 * host path: a link, absolute or "..", took it outside. */
static void test_remove_tree_stays_inside(void **state)
{
	char p[3 * PATH_MAX], keep[3 * PATH_MAX];
	struct mlx_ctx *ctx;
	struct tree t;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		tree_make(&t);
		snprintf(p, sizeof(p), "%s/sys/devices", t.root);
		if (i == 0)
			assert_int_equal(symlink(t.out, p), 0);
		else
			assert_int_equal(symlink("../../outside", p), 0);
		assert_int_equal(mlx_ctx_new(t.root, &ctx, NULL), 0);
		/* an absolute link resolves at ROOT/<its target>: make that */
		if (i == 0) {
			char q[3 * PATH_MAX];

			snprintf(q, sizeof(q), "mkdir -p '%s%s/vf' && touch '%s%s/vf/file'", t.root,
				 t.out, t.root, t.out);
			assert_int_equal(system(q), 0);
		}
		assert_int_equal(mlx_remove_tree(ctx, "/sys/devices/vf"), 0);
		snprintf(keep, sizeof(keep), "%s/vf/keep", t.out);
		assert_int_equal(access(keep, F_OK), 0);       /* outside: untouched */
		if (i == 0)
			snprintf(p, sizeof(p), "%s%s/vf", t.root, t.out);
		else
			snprintf(p, sizeof(p), "%s/outside/vf", t.root);
		assert_int_equal(access(p, F_OK), -1);         /* inside: gone */
		/* a link inside the tree removed is removed as a link */
		mk("%s%s", t.root, "/sys/bus/pci/devices/d");
		snprintf(p, sizeof(p), "%s/sys/bus/pci/devices/d/l", t.root);
		assert_int_equal(symlink(t.out, p), 0);
		assert_int_equal(mlx_remove_tree(ctx, "/sys/bus/pci/devices/d"), 0);
		assert_int_equal(access(keep, F_OK), 0);
		/* create, rename, remove: inside too */
		assert_int_equal(mlx_mkdir(ctx, "/sys/devices/new", 0755), 0);
		assert_int_equal(mlx_rename(ctx, "/sys/devices/new", "/sys/devices/new2"), 0);
		assert_int_equal(mlx_symlink(ctx, "x", "/sys/devices/lnk"), 0);
		assert_int_equal(mlx_unlink(ctx, "/sys/devices/lnk"), 0);
		snprintf(p, sizeof(p), "%s/new2", t.out);
		assert_int_equal(access(p, F_OK), -1);
		assert_int_equal(mlx_remove_tree(ctx, "/sys/devices/new2"), 0);
		assert_int_equal(mlx_remove_tree(ctx, "/sys/devices/none"), 0);
		mlx_ctx_free(ctx);
		tree_drop(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_err_quotes_itself),
		cmocka_unit_test(test_remove_tree_stays_inside),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
