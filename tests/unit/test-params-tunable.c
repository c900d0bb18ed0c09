/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for issue 27's params sources (lib/params/params-tunable.c):
 * the PFC storm prevention timeout's parser and mlx5's rule (en_ethtool.c
 * mlx5e_set_pfc_prevention_tout), the threaded file's parser; and on a
 * captured system made here, the GTUNABLE recording's replay
 * (lib/backend/ethtool-record.c) and the emulator of STUNABLE and of the
 * threaded file (lib/emul/tunable-emul.c), which must refuse what the
 * kernel and mlx5 refuse and leave the recording as it was.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <cmocka.h>

#include "mlx-private.h"
#include "params.h"

static void test_pfc_parse(void **state)
{
	static const struct { const char *in; int r; uint16_t ms; } t[] = {
		{ "auto", 0, 0xffff }, { "off", 0, 0 }, { "disabled", 0, 0 }, { "0", 0, 0 },
		{ "80", 0, 80 }, { "8000", 0, 8000 }, { "65535", 0, 65535 },
		{ "65536", -ERANGE, 0 }, { "99999999999999999999999", -ERANGE, 0 },
		{ "-1", -EINVAL, 0 }, { "", -EINVAL, 0 }, { "1x", -EINVAL, 0 },
		{ " 100", -EINVAL, 0 }, { "0x50", -EINVAL, 0 }, { "Auto", -EINVAL, 0 },
		{ "100ms", -EINVAL, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint16_t ms = 12345;
		int r = mlx_pfc_tout_parse(t[i].in, &ms);

		if (r != t[i].r)
			fail_msg("'%s': %d, want %d", t[i].in, r, t[i].r);
		if (r == 0 && ms != t[i].ms)
			fail_msg("'%s': %u, want %u", t[i].in, ms, t[i].ms);
	}
}

static void test_pfc_mlx5(void **state)
{
	(void)state;
	assert_int_equal(mlx_pfc_tout_mlx5_check(0), 0);
	assert_int_equal(mlx_pfc_tout_mlx5_check(1), -ERANGE);
	assert_int_equal(mlx_pfc_tout_mlx5_check(79), -ERANGE);
	assert_int_equal(mlx_pfc_tout_mlx5_check(80), 0);
	assert_int_equal(mlx_pfc_tout_mlx5_check(8000), 0);
	assert_int_equal(mlx_pfc_tout_mlx5_check(8001), -ERANGE);
	assert_int_equal(mlx_pfc_tout_mlx5_check(65534), -ERANGE);
	assert_int_equal(mlx_pfc_tout_mlx5_check(65535), 0);
	assert_int_equal(mlx_pfc_tout_mlx5_effective(65535), 100);
	assert_int_equal(mlx_pfc_tout_mlx5_effective(0), 0);
	assert_int_equal(mlx_pfc_tout_mlx5_effective(250), 250);
}

static void test_threaded_parse(void **state)
{
	char out[16];

	(void)state;
	assert_int_equal(mlx_threaded_parse("0\n", out, sizeof(out)), 0);
	assert_string_equal(out, "off");
	assert_int_equal(mlx_threaded_parse("1", out, sizeof(out)), 0);
	assert_string_equal(out, "on");
	/* 6.x's busy-poll mode (2) or anything else: the number itself */
	assert_int_equal(mlx_threaded_parse("2\n", out, sizeof(out)), 0);
	assert_string_equal(out, "2");
	assert_int_equal(mlx_threaded_parse("", out, sizeof(out)), -EBADMSG);
	assert_int_equal(mlx_threaded_parse("x", out, sizeof(out)), -EBADMSG);
	assert_int_equal(mlx_threaded_parse("1 ", out, sizeof(out)), -EBADMSG);
	assert_int_equal(mlx_threaded_parse("1\n\n", out, sizeof(out)), -EBADMSG);
	assert_int_equal(mlx_threaded_parse("-1", out, sizeof(out)), -EBADMSG);
	assert_int_equal(mlx_threaded_parse("12345678901", out, sizeof(out)), -EBADMSG);
	assert_int_equal(mlx_threaded_path(out, sizeof(out), "../x"), -EINVAL);
	assert_int_equal(mlx_threaded_path(out, sizeof(out), ""), -EINVAL);
}

static void test_tunable_valid(void **state)
{
	struct mlx_tunable_u16 t = { ETHTOOL_GTUNABLE, ETHTOOL_PFC_PREVENTION_TOUT,
				     ETHTOOL_TUNABLE_U16, 2, 0, 0 };

	(void)state;
	/* the uapi layout: the value right after the 16-byte header */
	assert_int_equal(offsetof(struct mlx_tunable_u16, data), sizeof(struct ethtool_tunable));
	assert_true(mlx_tunable_u16_valid(&t, ETHTOOL_PFC_PREVENTION_TOUT));
	assert_false(mlx_tunable_u16_valid(&t, ETHTOOL_RX_COPYBREAK));
	t.type_id = ETHTOOL_TUNABLE_U32;
	assert_false(mlx_tunable_u16_valid(&t, ETHTOOL_PFC_PREVENTION_TOUT));
	t.type_id = ETHTOOL_TUNABLE_U16;
	t.len = 4;
	assert_false(mlx_tunable_u16_valid(&t, ETHTOOL_PFC_PREVENTION_TOUT));
}

static void test_rec_decode(void **state)
{
	uint8_t b[MLX_TUNABLE_REC_LEN + 4];
	struct mlx_tunable_u16 t = { ETHTOOL_GTUNABLE, ETHTOOL_PFC_PREVENTION_TOUT,
				     ETHTOOL_TUNABLE_U16, 2, 4000, 0 };
	int32_t e = 0;
	int err = 1;
	uint16_t v = 0;

	(void)state;
	memcpy(b, &e, 4);
	memcpy(b + 4, &t, MLX_TUNABLE_REC_LEN - 4);
	assert_int_equal(mlx_tunable_rec_decode(b, MLX_TUNABLE_REC_LEN, 3, &err, &v), 0);
	assert_int_equal(err, 0);
	assert_int_equal(v, 4000);
	/* one byte short, one too many, another tunable */
	assert_int_equal(mlx_tunable_rec_decode(b, MLX_TUNABLE_REC_LEN - 1, 3, &err, &v), -EBADMSG);
	assert_int_equal(mlx_tunable_rec_decode(b, MLX_TUNABLE_REC_LEN + 1, 3, &err, &v), -EBADMSG);
	assert_int_equal(mlx_tunable_rec_decode(b, MLX_TUNABLE_REC_LEN, 1, &err, &v), -EBADMSG);
	assert_int_equal(mlx_tunable_rec_decode(b, 3, 3, &err, &v), -EBADMSG);
	/* an error: its errno alone; negative, too big, or with bytes after: no */
	e = EOPNOTSUPP;
	memcpy(b, &e, 4);
	assert_int_equal(mlx_tunable_rec_decode(b, 4, 3, &err, &v), 0);
	assert_int_equal(err, -EOPNOTSUPP);
	assert_int_equal(mlx_tunable_rec_decode(b, 8, 3, &err, &v), -EBADMSG);
	e = -5;
	memcpy(b, &e, 4);
	assert_int_equal(mlx_tunable_rec_decode(b, 4, 3, &err, &v), -EBADMSG);
	e = 4096;
	memcpy(b, &e, 4);
	assert_int_equal(mlx_tunable_rec_decode(b, 4, 3, &err, &v), -EBADMSG);
}

/* ---- a captured system: eth0 (up) and eth1 (down) ---- */

static char dir[] = "/tmp/mlxcli-tunable-XXXXXX";
static char rec0[160], rec1[160];

static void put(const char *rel, const void *b, size_t n)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", dir, rel);
	assert_non_null(f = fopen(p, "wb"));
	assert_int_equal(fwrite(b, 1, n, f), n);
	fclose(f);
}

static size_t get(const char *rel, void *b, size_t cap)
{
	char p[256];
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "%s%s", dir, rel);
	assert_non_null(f = fopen(p, "rb"));
	n = fread(b, 1, cap, f);
	fclose(f);
	return n;
}

/* the recording of a GTUNABLE: result, then header and value */
static size_t record(uint8_t *b, int32_t err, uint32_t id, uint16_t ms)
{
	struct mlx_tunable_u16 t = { ETHTOOL_GTUNABLE, id, ETHTOOL_TUNABLE_U16, 2, ms, 0 };

	memcpy(b, &err, 4);
	if (err)
		return 4;
	memcpy(b + 4, &t, offsetof(struct mlx_tunable_u16, data) + 2);
	return 4 + offsetof(struct mlx_tunable_u16, data) + 2;
}

static int setup(void **state)
{
	static const char *const dirs[] = {
		"/sys", "/sys/bus", "/sys/bus/pci", "/sys/bus/pci/devices", "/sys/class",
		"/sys/class/net", "/sys/class/net/eth0", "/sys/class/net/eth1", "/netlink",
		"/netlink/ethtool", "/netlink/ethtool/eth0", "/netlink/ethtool/eth1",
	};
	char p[256];
	struct mlx_ctx *ctx = NULL;

	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", dir, dirs[i]);
		assert_int_equal(mkdir(p, 0700), 0);
	}
	snprintf(rec0, sizeof(rec0), "/netlink/ethtool/eth0/ioctl-gtunable-3.bin");
	snprintf(rec1, sizeof(rec1), "/netlink/ethtool/eth1/ioctl-gtunable-3.bin");
	assert_int_equal(mlx_ctx_new(dir, &ctx, NULL), 0);
	*state = ctx;
	return 0;
}

static int rm_tree(const char *d)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
	return system(cmd);
}

static int teardown(void **state)
{
	mlx_ctx_free(*state);
	return rm_tree(dir) == 0 ? 0 : -1;
}

static void test_replay(void **state)
{
	struct mlx_ctx *ctx = *state;
	uint8_t b[64];
	uint16_t ms = 0;

	put(rec0, b, record(b, 0, ETHTOOL_PFC_PREVENTION_TOUT, 250));
	assert_int_equal(mlx_ethtool_tunable_get_u16(ctx, "eth0", ETHTOOL_PFC_PREVENTION_TOUT, &ms), 0);
	assert_int_equal(ms, 250);
	/* a recorded error is the driver's answer */
	put(rec1, b, record(b, EOPNOTSUPP, 0, 0));
	assert_int_equal(mlx_ethtool_tunable_get_u16(ctx, "eth1", ETHTOOL_PFC_PREVENTION_TOUT, &ms),
			 -EOPNOTSUPP);
	/* a recording of another tunable, or cut short, is no answer */
	put(rec1, b, record(b, 0, ETHTOOL_TX_COPYBREAK, 7));
	assert_int_equal(mlx_ethtool_tunable_get_u16(ctx, "eth1", ETHTOOL_PFC_PREVENTION_TOUT, &ms),
			 -EBADMSG);
	put(rec1, b, record(b, 0, ETHTOOL_PFC_PREVENTION_TOUT, 7) - 1);
	assert_int_equal(mlx_ethtool_tunable_get_u16(ctx, "eth1", ETHTOOL_PFC_PREVENTION_TOUT, &ms),
			 -EBADMSG);
	put(rec1, b, 2);
	assert_int_equal(mlx_ethtool_tunable_get_u16(ctx, "eth1", ETHTOOL_PFC_PREVENTION_TOUT, &ms),
			 -EBADMSG);
	/* none recorded (a capture older than issue 27) */
	assert_int_equal(mlx_ethtool_tunable_get_u16(ctx, "eth2", ETHTOOL_PFC_PREVENTION_TOUT, &ms),
			 -ENODATA);
	assert_int_equal(mlx_ethtool_tunable_get_u16(ctx, "../eth0", ETHTOOL_PFC_PREVENTION_TOUT,
						     &ms), -EINVAL);
}

static void test_emul_set(void **state)
{
	struct mlx_ctx *ctx = *state;
	uint8_t b[64], after[64];
	size_t n;
	uint16_t ms = 0;
	struct mlx_tunable_u16 t = { ETHTOOL_STUNABLE, ETHTOOL_PFC_PREVENTION_TOUT,
				     ETHTOOL_TUNABLE_U32, 2, 100, 0 };

	n = record(b, 0, ETHTOOL_PFC_PREVENTION_TOUT, 250);
	put(rec0, b, n);
	/* mlx5's rule: -EINVAL outside 0, 80..8000, auto; nothing changes */
	for (unsigned v = 1; v < 80; v += 39)
		assert_int_equal(mlx_ethtool_tunable_set_u16(ctx, "eth0", ETHTOOL_PFC_PREVENTION_TOUT,
							     (uint16_t)v), -EINVAL);
	assert_int_equal(mlx_ethtool_tunable_set_u16(ctx, "eth0", ETHTOOL_PFC_PREVENTION_TOUT, 8001),
			 -EINVAL);
	assert_int_equal(mlx_ethtool_tunable_set_u16(ctx, "eth0", ETHTOOL_PFC_PREVENTION_TOUT, 65534),
			 -EINVAL);
	/* ethtool_tunable_valid: the type the tunable has */
	assert_int_equal(mlx_kernel_ethtool(ctx, "eth0", &t), -EINVAL);
	assert_int_equal(get(rec0, after, sizeof(after)), n);
	assert_memory_equal(after, b, n);
	/* auto is stored as 100 ms, and reads so */
	assert_int_equal(mlx_ethtool_tunable_set_u16(ctx, "eth0", ETHTOOL_PFC_PREVENTION_TOUT,
						     MLX_PFC_TOUT_AUTO), 0);
	assert_int_equal(mlx_ethtool_tunable_get_u16(ctx, "eth0", ETHTOOL_PFC_PREVENTION_TOUT, &ms), 0);
	assert_int_equal(ms, 100);
	assert_int_equal(mlx_ethtool_tunable_set_u16(ctx, "eth0", ETHTOOL_PFC_PREVENTION_TOUT, 0), 0);
	assert_int_equal(mlx_ethtool_tunable_get_u16(ctx, "eth0", ETHTOOL_PFC_PREVENTION_TOUT, &ms), 0);
	assert_int_equal(ms, 0);
	assert_int_equal(mlx_ethtool_tunable_set_u16(ctx, "eth0", ETHTOOL_PFC_PREVENTION_TOUT, 8000), 0);
	assert_int_equal(mlx_ethtool_tunable_get_u16(ctx, "eth0", ETHTOOL_PFC_PREVENTION_TOUT, &ms), 0);
	assert_int_equal(ms, 8000);
	/* a device whose GTUNABLE failed (no caps): the write fails alike */
	n = record(b, EOPNOTSUPP, 0, 0);
	put(rec1, b, n);
	assert_int_equal(mlx_ethtool_tunable_set_u16(ctx, "eth1", ETHTOOL_PFC_PREVENTION_TOUT, 100),
			 -EOPNOTSUPP);
	assert_int_equal(get(rec1, after, sizeof(after)), n);
	/* nothing recorded: not supported, and nothing made */
	assert_int_equal(mlx_ethtool_tunable_set_u16(ctx, "eth2", ETHTOOL_PFC_PREVENTION_TOUT, 100),
			 -EOPNOTSUPP);
}

static void test_emul_threaded(void **state)
{
	struct mlx_ctx *ctx = *state;
	char v[16];

	put("/sys/class/net/eth0/flags", "0x1003\n", 7);
	put("/sys/class/net/eth0/threaded", "0\n", 2);
	put("/sys/class/net/eth1/flags", "0x1002\n", 7);
	put("/sys/class/net/eth1/threaded", "0\n", 2);
	assert_int_equal(mlx_kernel_write(ctx, "/sys/class/net/eth0/threaded", "1"), 0);
	assert_int_equal(mlx_read_str(ctx, "/sys/class/net/eth0/threaded", v, sizeof(v)), 0);
	assert_string_equal(v, "1");
	/* only 0 and 1; not a number: EINVAL (kstrtoul) */
	assert_int_equal(mlx_kernel_write(ctx, "/sys/class/net/eth0/threaded", "2"), -EOPNOTSUPP);
	assert_int_equal(mlx_kernel_write(ctx, "/sys/class/net/eth0/threaded", "x"), -EINVAL);
	assert_int_equal(mlx_kernel_write(ctx, "/sys/class/net/eth0/threaded", ""), -EINVAL);
	assert_int_equal(mlx_read_str(ctx, "/sys/class/net/eth0/threaded", v, sizeof(v)), 0);
	assert_string_equal(v, "1");
	/* down: no NAPI instance */
	assert_int_equal(mlx_kernel_write(ctx, "/sys/class/net/eth1/threaded", "1"), -EOPNOTSUPP);
	assert_int_equal(mlx_read_str(ctx, "/sys/class/net/eth1/threaded", v, sizeof(v)), 0);
	assert_string_equal(v, "0");
	/* no such file (a kernel before 5.12) */
	assert_int_equal(mlx_kernel_write(ctx, "/sys/class/net/eth2/threaded", "1"), -ENOENT);
}

/* ---- a snapshot of a (faked) live kernel records the GTUNABLE ---- */

/* tun0's driver has the timeout (250 ms), tun1's answers EOPNOTSUPP */
static int fake_ethtool(struct mlx_ctx *c, const char *ifname, void *data)
{
	struct mlx_tunable_u16 *t = data;

	(void)c;
	if (t->cmd != ETHTOOL_GTUNABLE || !mlx_tunable_u16_valid(t, ETHTOOL_PFC_PREVENTION_TOUT))
		return -EINVAL;
	if (strcmp(ifname, "tun0"))
		return -EOPNOTSUPP;
	t->data = 250;
	return 0;
}

static void test_record_replay(void **state)
{
	char d[] = "/tmp/mlxcli-tunrec-XXXXXX", cmd[128];
	struct mlx_ctx *live, *cap;
	struct mlx_kops k;
	uint16_t ms = 0;

	(void)state;
	assert_int_equal(mlx_ctx_new("/", &live, NULL), 0);
	k = *mlx_ctx_kops(live);
	k.ethtool_ioctl = fake_ethtool;
	mlx_ctx_set_kops(live, &k);
	assert_non_null(mkdtemp(d));
	assert_int_equal(mlx_kernel_record(live, d), 0);
	assert_int_equal(mlx_ethtool_tunable_get_u16(live, "tun0", ETHTOOL_PFC_PREVENTION_TOUT, &ms), 0);
	assert_int_equal(ms, 250);
	assert_int_equal(mlx_ethtool_tunable_get_u16(live, "tun1", ETHTOOL_PFC_PREVENTION_TOUT, &ms),
			 -EOPNOTSUPP);
	assert_int_equal(mlx_kernel_record(live, NULL), 0);
	mlx_ctx_free(live);

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/bus/pci/devices", d);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(mlx_ctx_new(d, &cap, NULL), 0);
	ms = 0;
	assert_int_equal(mlx_ethtool_tunable_get_u16(cap, "tun0", ETHTOOL_PFC_PREVENTION_TOUT, &ms), 0);
	assert_int_equal(ms, 250);
	/* the recorded failure is the driver's answer, to a read and a write */
	assert_int_equal(mlx_ethtool_tunable_get_u16(cap, "tun1", ETHTOOL_PFC_PREVENTION_TOUT, &ms),
			 -EOPNOTSUPP);
	assert_int_equal(mlx_ethtool_tunable_set_u16(cap, "tun1", ETHTOOL_PFC_PREVENTION_TOUT, 100),
			 -EOPNOTSUPP);
	/* and the recording takes a write as mlx5 would */
	assert_int_equal(mlx_ethtool_tunable_set_u16(cap, "tun0", ETHTOOL_PFC_PREVENTION_TOUT,
						     MLX_PFC_TOUT_AUTO), 0);
	assert_int_equal(mlx_ethtool_tunable_get_u16(cap, "tun0", ETHTOOL_PFC_PREVENTION_TOUT, &ms), 0);
	assert_int_equal(ms, 100);
	mlx_ctx_free(cap);
	assert_int_equal(rm_tree(d), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pfc_parse),
		cmocka_unit_test(test_pfc_mlx5),
		cmocka_unit_test(test_threaded_parse),
		cmocka_unit_test(test_tunable_valid),
		cmocka_unit_test(test_rec_decode),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_emul_set),
		cmocka_unit_test(test_emul_threaded),
		cmocka_unit_test(test_record_replay),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
