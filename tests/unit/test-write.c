/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the write engine (lib/core/write.c): the order of its
 * steps seen from a feature's callbacks.  The "device" is an array of
 * values in memory (the hardware boundary); the lock is the real one, on
 * a captured system (an empty root) with a private runtime directory, and
 * is observed by trying to take it from here while a callback runs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "write.h"

#define NSET 4
#define BDF "0000:01:00.0"

/* A fake device: NSET values; a write to fail, a value that reads back
 * other than written, a setting whose write resets another. */
struct dev {
	uint64_t v[NSET];
	int fail_write;           /* id whose write of a new value fails; -1 */
	int stuck;                /* id that keeps its value on a write; -1 */
	int resets, reset_to;     /* writing id @resets sets id reset_to to 0 */
	char log[64][24];         /* "r0", "w1=5", in call order */
	int nlog;
	int locked_reads;         /* reads that found the lock held */
	int unlocked_reads;
	/* gathering: writes go to want[] and the flush sends them */
	bool gather, fail_flush;
	uint64_t want[NSET];
	int nflush, nsent;
	char root[64], rt[64];
};

static void logf(struct dev *d, const char *fmt, ...)
{
	va_list ap;

	if (d->nlog >= 64)
		return;
	va_start(ap, fmt);
	vsnprintf(d->log[d->nlog++], sizeof(d->log[0]), fmt, ap);
	va_end(ap);
}

/* Is the device lock held by someone (the engine)?  Try to take it. */
static bool lock_held(struct dev *d)
{
	char dir[128], path[400];
	struct dirent *e;
	DIR *dh;
	bool held = false;

	snprintf(dir, sizeof(dir), "%s/mlxcli", d->rt);
	dh = opendir(dir);
	if (!dh)
		return false;
	while ((e = readdir(dh))) {
		int fd;

		if (!strstr(e->d_name, BDF ".lock"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK)
			held = true;
		close(fd);
	}
	closedir(dh);
	return held;
}

static int rd(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c, struct mlx_val *out)
{
	struct dev *d = feat;

	(void)ctx;
	if (lock_held(d))
		d->locked_reads++;
	else
		d->unlocked_reads++;
	logf(d, "r%d", c->id);
	*out = mlx_val_uint(d->v[c->id]);
	return 0;
}

static int wr(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c, const struct mlx_val *v)
{
	struct dev *d = feat;

	logf(d, "w%d=%llu", c->id, (unsigned long long)v->u);
	if (c->id == d->fail_write && v->u == c->new.u)
		return mlx_err(ctx, EIO, "the device said no");
	if (c->id != d->stuck)
		d->v[c->id] = v->u;
	if (c->id == d->resets)
		d->v[d->reset_to] = 0;
	return 0;
}

static const struct mlx_write_ops ops = { .read = rd, .write = wr };

/* A feature whose writes are one request: gathered, then flushed. */
static int gwr(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c, const struct mlx_val *v)
{
	struct dev *d = feat;

	(void)ctx;
	logf(d, "g%d=%llu", c->id, (unsigned long long)v->u);
	d->want[c->id] = v->u;
	return 0;
}

static int gfl(struct mlx_ctx *ctx, void *feat)
{
	struct dev *d = feat;

	d->nflush++;
	if (!memcmp(d->want, d->v, sizeof(d->v)))
		return 0;               /* nothing to send */
	if (d->fail_flush)
		return mlx_err(ctx, EIO, "the request was refused");
	memcpy(d->v, d->want, sizeof(d->v));
	d->nsent++;
	return 0;
}

static const struct mlx_write_ops gops = { .read = rd, .write = gwr, .flush = gfl };

static struct mlx_ctx *ctx;
static const char *const sysdirs[] = { "sys", "sys/bus", "sys/bus/pci", "sys/bus/pci/devices" };

static void setup_dev(struct dev *d)
{
	/* A fresh device; the directories stay (made once for the group). */
	memset(d, 0, offsetof(struct dev, root));
	for (int i = 0; i < NSET; i++)
		d->v[i] = 10 + (uint64_t)i;
	d->fail_write = d->stuck = d->resets = d->reset_to = -1;
}

static int group_setup(void **state)
{
	static struct dev d;
	char *msg = NULL, sys[120];

	snprintf(d.root, sizeof(d.root), "/tmp/test-write-root.XXXXXX");
	snprintf(d.rt, sizeof(d.rt), "/tmp/test-write-rt.XXXXXX");
	if (!mkdtemp(d.root) || !mkdtemp(d.rt))
		return -1;
	/* A captured system is a root with sys/bus/pci/devices in it. */
	for (size_t i = 0; i < sizeof(sysdirs) / sizeof(*sysdirs); i++) {
		snprintf(sys, sizeof(sys), "%s/%s", d.root, sysdirs[i]);
		if (mkdir(sys, 0700) < 0)
			return -1;
	}
	if (mlx_ctx_new(d.root, &ctx, &msg) < 0) {
		fprintf(stderr, "cannot make a captured system: %s\n", msg ? msg : "mkdir");
		return -1;
	}
	mlx_ctx_set_runtime_dir(ctx, d.rt);
	*state = &d;
	return 0;
}

static int group_teardown(void **state)
{
	struct dev *d = *state;
	char path[200];

	if (!d)
		return 0;
	mlx_ctx_free(ctx);
	snprintf(path, sizeof(path), "%s/mlxcli", d->rt);
	/* The lock file stays (as on a host); remove it and the dirs. */
	{
		DIR *dh = opendir(path);
		struct dirent *e;

		while (dh && (e = readdir(dh))) {
			char f[400];

			if (e->d_name[0] == '.')
				continue;
			snprintf(f, sizeof(f), "%s/%s", path, e->d_name);
			unlink(f);
		}
		if (dh)
			closedir(dh);
	}
	rmdir(path);
	rmdir(d->rt);
	for (size_t i = sizeof(sysdirs) / sizeof(*sysdirs); i-- > 0;) {
		snprintf(path, sizeof(path), "%s/%s", d->root, sysdirs[i]);
		rmdir(path);
	}
	rmdir(d->root);
	return 0;
}

static void plan3(struct mlx_plan *pl, uint64_t a, uint64_t b, uint64_t c)
{
	memset(pl, 0, sizeof(*pl));
	assert_int_equal(mlx_plan_add(pl, "a", "mbps", 0, 0, mlx_val_uint(a)), 0);
	assert_int_equal(mlx_plan_add(pl, "b", NULL, 1, 0, mlx_val_uint(b)), 1);
	assert_int_equal(mlx_plan_add(pl, "c", NULL, 2, 0, mlx_val_uint(c)), 2);
}

static void run(struct dev *d, struct mlx_plan *pl, bool dry, int want, struct mlx_write_result *res)
{
	const struct mlx_write_req req = { .lock = BDF, .dry_run = dry };

	assert_int_equal(mlx_write_run(ctx, &ops, d, &req, pl, res), want);
}

static void test_success_and_records(void **state)
{
	struct dev *d = *state;
	struct mlx_write_result res;
	struct mlx_plan pl;

	setup_dev(d);
	plan3(&pl, 5, 11, 7);
	run(d, &pl, false, 0, &res);
	assert_int_equal(d->v[0], 5);
	assert_int_equal(d->v[2], 7);
	/* old read under the lock, changed set, the unchanged one not written */
	assert_int_equal(pl.c[0].old.u, 10);
	assert_true(pl.c[0].changed);
	assert_false(pl.c[1].changed);
	assert_false(pl.c[1].written);
	assert_string_equal(pl.c[0].unit, "mbps");
	assert_int_equal(mlx_plan_nchanged(&pl), 2);
	/* reads of old, writes, read-backs: in that order */
	assert_string_equal(d->log[0], "r0");
	assert_string_equal(d->log[2], "r2");
	assert_string_equal(d->log[3], "w0=5");
	assert_string_equal(d->log[4], "w2=7");
	assert_string_equal(d->log[5], "r0");
	assert_string_equal(d->log[6], "r2");
	assert_int_equal(d->nlog, 7);
	mlx_plan_free(&pl);
}

/* The old values are read with the lock held, never before it. */
static void test_lock_before_read(void **state)
{
	struct dev *d = *state;
	struct mlx_write_result res;
	struct mlx_plan pl;

	setup_dev(d);
	plan3(&pl, 1, 2, 3);
	run(d, &pl, false, 0, &res);
	assert_int_equal(d->unlocked_reads, 0);
	assert_int_equal(d->locked_reads, 6);
	/* and released at the end */
	assert_false(lock_held(d));
	mlx_plan_free(&pl);
}

static void test_dry_run_writes_nothing(void **state)
{
	struct dev *d = *state;
	struct mlx_write_result res;
	struct mlx_plan pl;

	setup_dev(d);
	plan3(&pl, 1, 2, 3);
	run(d, &pl, true, 0, &res);
	assert_int_equal(d->v[0], 10);
	assert_int_equal(d->nlog, 3);
	assert_true(pl.c[2].changed);
	assert_int_equal(pl.c[2].old.u, 12);
	mlx_plan_free(&pl);
}

/* The third write fails: the two before it are put back newest first. */
static void test_rollback_newest_first(void **state)
{
	struct dev *d = *state;
	struct mlx_write_result res;
	struct mlx_plan pl;

	setup_dev(d);
	d->fail_write = 2;
	plan3(&pl, 1, 2, 3);
	run(d, &pl, false, -EIO, &res);
	assert_int_equal(res.failed, 2);
	assert_false(res.readback);
	assert_int_equal(res.restore_err, 0);
	assert_int_equal(d->v[0], 10);
	assert_int_equal(d->v[1], 11);
	assert_int_equal(d->v[2], 12);
	/* r0 r1 r2 w0=1 w1=2 w2=3(fails) then w1=11 w0=10: the failed one
	 * is not put back, only read (it still holds its old value) */
	assert_string_equal(d->log[5], "w2=3");
	assert_string_equal(d->log[6], "w1=11");
	assert_string_equal(d->log[7], "w0=10");
	assert_string_equal(d->log[8], "r0");
	assert_string_equal(d->log[10], "r2");
	assert_int_equal(d->nlog, 11);
	assert_non_null(strstr(mlx_errmsg(ctx), "cannot set c to 3: the device said no"));
	assert_non_null(strstr(mlx_errmsg(ctx), "the 2 value(s) written were put back, newest first"));
	mlx_plan_free(&pl);
}

/* A value the device takes and does not keep fails the run, and undoes it. */
static void test_readback_mismatch(void **state)
{
	struct dev *d = *state;
	struct mlx_write_result res;
	struct mlx_plan pl;

	setup_dev(d);
	d->stuck = 1;
	plan3(&pl, 1, 2, 3);
	run(d, &pl, false, -ERANGE, &res);
	assert_int_equal(res.failed, 1);
	assert_true(res.readback);
	assert_int_equal(res.got.u, 11);
	assert_int_equal(d->v[0], 10);
	assert_int_equal(d->v[2], 12);
	assert_non_null(strstr(mlx_errmsg(ctx), "cannot set b to 2: it reads back 11"));
	assert_non_null(strstr(mlx_errmsg(ctx), "the 3 value(s) written were put back"));
	mlx_plan_free(&pl);
}

/* Putting a setting back resets another one (the driver's side effect):
 * the second pass of the put-back writes that one again. */
static void test_rollback_side_effect(void **state)
{
	struct dev *d = *state;
	struct mlx_write_result res;
	struct mlx_plan pl;

	setup_dev(d);
	d->resets = 0;
	d->reset_to = 1;
	d->fail_write = 2;
	memset(&pl, 0, sizeof(pl));
	mlx_plan_add(&pl, "a", NULL, 0, 0, mlx_val_uint(1));
	mlx_plan_add(&pl, "b", NULL, 1, 0, mlx_val_uint(11));
	pl.c[1].rewrite = true;   /* kept: written again after a's reset */
	mlx_plan_add(&pl, "c", NULL, 2, 0, mlx_val_uint(3));
	run(d, &pl, false, -EIO, &res);
	assert_int_equal(res.restore_err, 0);
	assert_int_equal(d->v[0], 10);
	assert_int_equal(d->v[1], 11);
	assert_int_equal(d->v[2], 12);
	mlx_plan_free(&pl);
}

/* Gathered writes: one request; refused, nothing is sent back either. */
static void test_flush(void **state)
{
	const struct mlx_write_req req = { .lock = BDF };
	struct dev *d = *state;
	struct mlx_write_result res;
	struct mlx_plan pl;

	setup_dev(d);
	memcpy(d->want, d->v, sizeof(d->v));
	plan3(&pl, 1, 2, 3);
	assert_int_equal(mlx_write_run(ctx, &gops, d, &req, &pl, &res), 0);
	assert_int_equal(d->nsent, 1);
	assert_int_equal(d->v[0], 1);
	assert_int_equal(d->v[2], 3);
	mlx_plan_free(&pl);

	setup_dev(d);
	memcpy(d->want, d->v, sizeof(d->v));
	d->fail_flush = true;
	plan3(&pl, 1, 2, 3);
	assert_int_equal(mlx_write_run(ctx, &gops, d, &req, &pl, &res), -EIO);
	assert_int_equal(res.failed, 2);
	assert_int_equal(d->nsent, 0);
	assert_int_equal(d->v[0], 10);
	/* the put-back gathered the old values: the flush had nothing to send */
	assert_int_equal(d->want[0], 10);
	assert_int_equal(d->want[2], 12);
	assert_non_null(strstr(mlx_errmsg(ctx), "the request was refused; nothing was changed"));
	mlx_plan_free(&pl);
}

static void test_values(void **state)
{
	struct mlx_val a = mlx_val_str("on"), b = mlx_val_bool(true), n1 = mlx_val_null(),
		       n2 = mlx_val_null();
	uint8_t l[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct mlx_val la = mlx_val_u8list(l, 8), lb = la;
	char buf[64];

	(void)state;
	assert_false(mlx_val_eq(&a, &b));
	assert_true(mlx_val_eq(&n1, &n2));
	assert_true(mlx_val_eq(&la, &lb));
	lb.u8[7] = 0;
	assert_false(mlx_val_eq(&la, &lb));
	mlx_val_fmt(&la, buf, sizeof(buf));
	assert_string_equal(buf, "0,1,2,3,4,5,6,7");
	mlx_val_fmt(&n1, buf, sizeof(buf));
	assert_string_equal(buf, "unknown");
}

/* A journal's value (lib/journal.h): every kind through mlx_val_encode
 * and back the same; what no encoder wrote is refused, not guessed. */
static void test_val_codec(void **state)
{
	static const char *const tsa[] = { "strict", "ets" };
	uint8_t l8[64];
	uint32_t l32[3] = { 0, 1000, 4000000000u };
	struct mlx_val v[] = {
		mlx_val_null(), mlx_val_uint(0), mlx_val_uint(UINT64_MAX), mlx_val_int(-5),
		mlx_val_int(INT64_MIN), mlx_val_bool(true), mlx_val_bool(false), mlx_val_str(""),
		mlx_val_str("RoCE v2"), mlx_val_u8list(l8, 64), mlx_val_u8list(l8, 0),
		mlx_val_u32list(l32, 3), mlx_val_strlist(tsa, 2),
	};
	static const char *const bad[] = {
		"", "x", "n1", "u", "u-1", "u 1", "u+1", "u1x", "u18446744073709551616", "i", "i--1",
		"i 1", "b", "b2", "b10", "s0", "s0g", "s00", "4010203", "l6100", "8zz",
	};
	char buf[400];

	(void)state;
	for (size_t i = 0; i < sizeof(l8); i++)
		l8[i] = (uint8_t)(i * 7);
	v[9] = mlx_val_u8list(l8, 64);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct mlx_val got;

		assert_int_equal(mlx_val_encode(&v[i], buf, sizeof(buf)), 0);
		assert_null(strchr(buf, ' '));
		assert_int_equal(mlx_val_decode(buf, &got), 0);
		assert_true(mlx_val_eq(&v[i], &got));
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct mlx_val got;

		if (mlx_val_decode(bad[i], &got) != -EBADMSG)
			fail_msg("'%s' was taken as a value", bad[i]);
	}
	/* too short a buffer is said, not cut */
	assert_int_equal(mlx_val_encode(&v[9], buf, 64), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_success_and_records),
		cmocka_unit_test(test_lock_before_read),
		cmocka_unit_test(test_dry_run_writes_nothing),
		cmocka_unit_test(test_rollback_newest_first),
		cmocka_unit_test(test_readback_mismatch),
		cmocka_unit_test(test_rollback_side_effect),
		cmocka_unit_test(test_flush),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_val_codec),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
