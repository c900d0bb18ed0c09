/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel boundary (lib/core/boundary*.c), on a copy of the cx5-ofed
 * sample host: the captured system's operations take what the live path
 * hands the kernel.
 *  - SR-IOV: mlx_sriov_vf_set() sends exactly the bytes the builder makes
 *    (a test wrapper of the table records them), the emulator parses them
 *    and the recorded VF list changes; eswitch mode and numvfs likewise;
 *  - malformed requests are refused with -EINVAL and change nothing;
 *  - link flags: down makes operstate down, up makes it up or
 *    lowerlayerdown by the carrier;
 *  - the kernel log of a captured system is its /var/log/kern.log;
 *  - what only a live system does is refused by the captured one's
 *    operations with -EOPNOTSUPP and the story (the CR space, devlink
 *    reload, a health dump), and its answers are its recordings (the
 *    snapshot's copy, identity, the process table);
 *  - ethtool statistics read from a kernel without ethtool netlink (the
 *    ioctls, faked) while a snapshot records are what the captured
 *    system answers afterwards: the names from their recording, the
 *    values as its answer to SIOCETHTOOL GSTATS;
 *  - the emulators are the table the context was given: a request goes
 *    to the first that takes it, one none takes to the recording, a file
 *    write none takes is stored as given.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/devlink.h>
#include <linux/ethtool.h>
#include <linux/rtnetlink.h>

#include "counters.h"
#include "device.h"
#include "devlink.h"
#include "health.h"
#include "vsec.h"
#include "mlx-private.h"
#include "sriov.h"

#define PF "0000:5e:00.0"
#define P0 "enp94s0f0np0"
#define VFLIST "/netlink/route/" P0 "/getlink-vf.nl"

static char root[PATH_MAX];
static struct mlx_ctx *ctx;
static struct mlx_devices devs;
static const struct mlx_function *pf;

/* The test's wrapper of the captured table: it keeps the last request. */
static uint8_t sent[512];
static size_t nsent;
static struct mlx_kops recording;

static int record_nl(struct mlx_ctx *c, enum mlx_nl_family fam, const char *object,
		     const char *request, const void *req, size_t len, mlx_nl_cb cb, void *arg)
{
	if (len <= sizeof(sent)) {
		memcpy(sent, req, len);
		nsent = len;
	}
	return mlx_kops_captured.nl_request(c, fam, object, request, req, len, cb, arg);
}

static int setup(void **state)
{
	const char *samples = getenv("MLXCLI_SAMPLES_DIR");
	char cmd[PATH_MAX * 2 + 32];

	(void)state;
	if (!samples || !*samples)
		samples = TOP_SRCDIR "/tests/data/samples";
	snprintf(root, sizeof(root), "/tmp/mlx-boundary-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(cmd, sizeof(cmd), "cp -a '%s/cx5-ofed/.' '%s/'", samples, root);
	if (system(cmd) != 0)
		return -1;
	if (mlx_ctx_new(root, &ctx, NULL) < 0 || mlx_devices_scan(ctx, &devs) < 0)
		return -1;
	pf = NULL;
	for (size_t i = 0; i < devs.nfn; i++)
		if (!strcmp(devs.fn[i].bdf, PF))
			pf = &devs.fn[i];
	recording = mlx_kops_captured;
	recording.nl_request = record_nl;
	mlx_ctx_set_kops(ctx, &recording);
	return pf && pf->nports ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	mlx_devices_free(&devs);
	mlx_ctx_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static char *slurp(const char *path, size_t *len)
{
	char *d = NULL;

	assert_int_equal(mlx_read_file(ctx, path, &d, len), 0);
	return d;
}

static const struct mlx_vf_info *vf0(struct mlx_link_vfs *l)
{
	assert_int_equal(mlx_sriov_query(ctx, pf, l), 0);
	for (size_t i = 0; i < l->nvf; i++)
		if (l->vf[i].vf == 0)
			return &l->vf[i];
	fail_msg("no VF 0");
	return NULL;
}

static void test_vf_set_sends_builder_bytes(void **state)
{
	struct mlx_vf_set s = { .attr = MLX_VF_SET_MAC, .vf = 0,
				.mac = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 } };
	struct mlx_link_vfs before, after;
	uint8_t want[512];
	int n;

	(void)state;
	vf0(&before);
	assert_int_equal(mlx_sriov_vf_set(ctx, pf, &before, &s, 1), 0);
	n = mlx_rtnl_setlink_vf_build(want, sizeof(want), pf->ports[0].ifindex, &s);
	assert_true(n > 0);
	/* what went through the boundary is the builder's message, its
	 * header untouched on a captured system */
	assert_int_equal(nsent, (size_t)n);
	assert_memory_equal(sent, want, (size_t)n);
	assert_memory_equal(vf0(&after)->mac, s.mac, 6);
	mlx_link_vfs_free(&before);
	mlx_link_vfs_free(&after);

	/* a setting and its undo leave the recorded reply byte for byte */
	{
		struct mlx_vf_set v = { .attr = MLX_VF_SET_VLAN, .vf = 0, .vlan = 10, .qos = 2 };
		struct mlx_vf_set u = { .attr = MLX_VF_SET_VLAN, .vf = 0 };
		size_t l0, l1;
		char *d0 = slurp(VFLIST, &l0), *d1;

		vf0(&before);
		u.vlan = before.vf[0].vlan;
		u.qos = before.vf[0].qos;
		assert_int_equal(mlx_sriov_vf_set(ctx, pf, &before, &v, 1), 0);
		assert_int_equal(vf0(&after)->vlan, 10);
		mlx_link_vfs_free(&after);
		assert_int_equal(mlx_sriov_vf_set(ctx, pf, &before, &u, 1), 0);
		d1 = slurp(VFLIST, &l1);
		assert_int_equal(l0, l1);
		assert_memory_equal(d0, d1, l0);
		free(d0);
		free(d1);
		mlx_link_vfs_free(&before);
	}
}

static void test_malformed_refused(void **state)
{
	struct mlx_vf_set s = { .attr = MLX_VF_SET_TRUST, .vf = 0, .on = true };
	uint8_t req[512], bad[600];
	size_t l0, l1;
	char *d0, *d1;
	int n;

	(void)state;
	d0 = slurp(VFLIST, &l0);
	n = mlx_rtnl_setlink_vf_build(req, sizeof(req), pf->ports[0].ifindex, &s);
	assert_true(n > 0);
	/* nlmsg_len that is not the message's */
	memcpy(bad, req, (size_t)n);
	memset(bad + n, 0, 8);
	assert_int_equal(mlx_nl_query(ctx, MLX_NL_ROUTE, P0, "setlink-vf", bad, (size_t)n + 8,
				      NULL, NULL), -EINVAL);
	/* no IFLA_VFINFO_LIST: only the headers */
	{
		struct nlmsghdr h;

		memcpy(bad, req, (size_t)n);
		memcpy(&h, bad, sizeof(h));
		h.nlmsg_len = NLMSG_HDRLEN + sizeof(struct ifinfomsg);
		memcpy(bad, &h, sizeof(h));
		assert_int_equal(mlx_nl_query(ctx, MLX_NL_ROUTE, P0, "setlink-vf", bad, h.nlmsg_len,
					      NULL, NULL), -EINVAL);
	}
	/* a VF attribute cut short: its struct does not fit */
	{
		struct mlx_nlbuf b;
		struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = pf->ports[0].ifindex };
		uint32_t half[2] = { 0, 1 };
		size_t list, info;

		mlx_nlb_init(&b, bad, sizeof(bad));
		mlx_nlb_msg(&b, RTM_SETLINK, NLM_F_ACK);
		mlx_nlb_put(&b, &ifi, sizeof(ifi));
		list = mlx_nlb_nest_start(&b, IFLA_VFINFO_LIST);
		info = mlx_nlb_nest_start(&b, IFLA_VF_INFO);
		mlx_nlb_attr(&b, IFLA_VF_MAC, half, sizeof(half));
		mlx_nlb_nest_end(&b, info);
		mlx_nlb_nest_end(&b, list);
		n = mlx_nlb_finish(&b);
		assert_int_equal(mlx_nl_query(ctx, MLX_NL_ROUTE, P0, "setlink-vf", bad, (size_t)n,
					      NULL, NULL), -EINVAL);
	}
	/* a VF the PF does not have: the kernel's EINVAL, with the reason */
	s.vf = 99;
	n = mlx_rtnl_setlink_vf_build(req, sizeof(req), pf->ports[0].ifindex, &s);
	assert_int_equal(mlx_nl_query(ctx, MLX_NL_ROUTE, P0, "setlink-vf", req, (size_t)n, NULL,
				      NULL), -EINVAL);
	assert_non_null(strstr(mlx_nl_extack(ctx), "VF 99"));
	/* devlink eswitch-set for a device name that is not one */
	n = mlx_devlink_build(req, sizeof(req), DEVLINK_CMD_ESWITCH_SET, "pci", "../x",
			      DEVLINK_ESWITCH_MODE_SWITCHDEV);
	assert_int_equal(mlx_nl_query(ctx, MLX_NL_DEVLINK, "pci:x", "eswitch-set", req, (size_t)n,
				      NULL, NULL), -EINVAL);
	/* a VF count that is not a number */
	assert_int_equal(mlx_kernel_write(ctx, "/sys/bus/pci/devices/" PF "/sriov_numvfs", "two"),
			 -EINVAL);
	d1 = slurp(VFLIST, &l1);
	assert_int_equal(l0, l1);
	assert_memory_equal(d0, d1, l0);
	free(d0);
	free(d1);
}

static void test_eswitch_and_numvfs(void **state)
{
	struct mlx_eswitch e;
	struct mlx_link_vfs l;
	uint8_t want[128];
	int64_t numvfs;
	int n;

	(void)state;
	assert_int_equal(mlx_devlink_eswitch_set(ctx, pf, DEVLINK_ESWITCH_MODE_SWITCHDEV), 0);
	n = mlx_devlink_build(want, sizeof(want), DEVLINK_CMD_ESWITCH_SET, "pci", PF,
			      DEVLINK_ESWITCH_MODE_SWITCHDEV);
	assert_int_equal(nsent, (size_t)n);
	assert_memory_equal(sent, want, (size_t)n);
	assert_int_equal(mlx_devlink_eswitch_get(ctx, pf, &e), 0);
	assert_int_equal(e.mode, DEVLINK_ESWITCH_MODE_SWITCHDEV);

	/* 4 -> 2 in one write the emulator takes whole */
	assert_int_equal(mlx_sriov_set_numvfs(ctx, pf, 2), 0);
	assert_int_equal(mlx_read_s64(ctx, "/sys/bus/pci/devices/" PF "/sriov_numvfs", &numvfs), 0);
	assert_int_equal(numvfs, 2);
	assert_int_equal(mlx_sriov_query(ctx, pf, &l), 0);
	assert_int_equal(l.nvf, 2);
	mlx_link_vfs_free(&l);
}

static void test_link_flags(void **state)
{
	char oper[32];
	int carrier;
	uint64_t flags;

	(void)state;
	assert_int_equal(mlx_kernel_link_flags(ctx, P0, 0, IFF_UP), 0);
	assert_int_equal(mlx_netdev_link(ctx, P0, oper, sizeof(oper), &carrier), 0);
	assert_string_equal(oper, "down");
	assert_int_equal(mlx_read_u64(ctx, "/sys/class/net/" P0 "/flags", &flags), 0);
	assert_int_equal(flags & IFF_UP, 0);
	/* up without carrier: the link is not there yet */
	assert_int_equal(mlx_write_str(ctx, "/sys/class/net/" P0 "/carrier", "0\n"), 0);
	assert_int_equal(mlx_kernel_link_flags(ctx, P0, IFF_UP, 0), 0);
	assert_int_equal(mlx_netdev_link(ctx, P0, oper, sizeof(oper), &carrier), 0);
	assert_string_equal(oper, "lowerlayerdown");
	assert_int_equal(carrier, 0);
	assert_int_equal(mlx_write_str(ctx, "/sys/class/net/" P0 "/carrier", "1\n"), 0);
	assert_int_equal(mlx_netdev_restart(ctx, P0), 0);
	assert_int_equal(mlx_netdev_link(ctx, P0, oper, sizeof(oper), &carrier), 0);
	assert_string_equal(oper, "up");
	assert_int_equal(mlx_kernel_link_flags(ctx, "nosuch0", IFF_UP, 0), -ENODEV);
	assert_int_equal(mlx_kernel_link_flags(ctx, "../x", IFF_UP, 0), -EINVAL);
	assert_false(mlx_netdev_exists(ctx, "nosuch0"));
	assert_true(mlx_netdev_exists(ctx, P0));
}

static void test_kmsg_and_operations(void **state)
{
	char *text = NULL, host[64], kernel[64];
	size_t len;
	const char *src;
	struct mlx_cfgio *io = NULL;
	struct mlx_crdump *cr = NULL;

	(void)state;
	assert_string_equal(mlx_target_name(ctx), root);
	assert_true(mlx_kernel_privileged(ctx));
	/* no process table: a pid file stands for its process */
	assert_true(mlx_kernel_process_runs(ctx, "4242"));
	/* recorded already: the snapshot copies, it asks nothing */
	assert_int_equal(mlx_kernel_record(ctx, "/nonexistent"), MLX_RECORDED);
	assert_int_equal(mlx_kernel_record(ctx, NULL), 0);
	/* the sample's own record, not this machine's */
	mlx_kernel_identity(ctx, host, sizeof(host), kernel, sizeof(kernel));
	assert_true(host[0] && kernel[0]);
	/* the device is not here */
	assert_int_equal(mlx_kernel_cfg_open(ctx, 0, 0x5e, 0, 0, &io), -EOPNOTSUPP);
	assert_null(io);
	assert_non_null(strstr(mlx_errmsg(ctx), "needs the live device"));
	assert_int_equal(mlx_crdump_open(ctx, pf, &cr), -EOPNOTSUPP);
	assert_null(cr);
	assert_int_equal(mlx_devlink_reload(ctx, pf), -EOPNOTSUPP);
	assert_non_null(strstr(mlx_errmsg(ctx), "devlink reload needs the live device"));
	assert_int_equal(mlx_kmsg_read(ctx, &text, &len, &src), -ENOENT);
	{
		char path[PATH_MAX + 32];
		FILE *f;

		snprintf(path, sizeof(path), "mkdir -p '%s/var/log'", root);
		assert_int_equal(system(path), 0);
		snprintf(path, sizeof(path), "%s/var/log/kern.log", root);
		f = fopen(path, "w");
		assert_non_null(f);
		fputs("mlx5_core 0000:5e:00.0: port module event\n", f);
		fclose(f);
	}
	assert_int_equal(mlx_kmsg_read(ctx, &text, &len, &src), 0);
	assert_string_equal(src, "/var/log/kern.log");
	assert_non_null(strstr(text, "port module event"));
	free(text);
	/* the monitor's streams: a capture replays what it recorded, and
	 * says when it recorded nothing */
	{
		static const struct mlx_nl_group g = {
			.proto = NETLINK_ROUTE, .group = RTNLGRP_LINK, .what = "rtnetlink link",
			.recording = "/monitor/rtnl.nl",
		};
		struct mlx_event_stream es;

		assert_int_equal(mlx_kernel_event_stream(ctx, &g, &es), -ENOENT);
		assert_non_null(strstr(mlx_errmsg(ctx), "no recorded rtnetlink link"));
		assert_int_equal(es.fd, -1);
	}
}

/* ---- ethtool statistics: recorded from a kernel, answered by the capture ---- */

static const char *const stat_names[] = { "rx_packets", "tx_packets", "rx_vport_rdma", "ch0_arm" };
#define NSTAT (sizeof(stat_names) / sizeof(stat_names[0]))

/* A kernel before 5.6: no ethtool netlink family. */
static int no_ethtool_nl(struct mlx_ctx *c, enum mlx_nl_family fam, const char *object,
			 const char *request, const void *req, size_t len, mlx_nl_cb cb, void *arg)
{
	(void)fam, (void)object, (void)request, (void)req, (void)len, (void)cb, (void)arg;
	return mlx_err(c, EOPNOTSUPP, "the kernel has no 'ethtool' generic netlink family");
}

/* Its SIOCETHTOOL for "old0": GSSET_INFO, GSTRINGS, GSTATS. */
static int old_ethtool(struct mlx_ctx *c, const char *ifname, void *data)
{
	uint32_t cmd;

	(void)c;
	if (strcmp(ifname, "old0"))
		return -ENODEV;
	memcpy(&cmd, data, sizeof(cmd));
	if (cmd == ETHTOOL_GSSET_INFO) {
		struct ethtool_sset_info *si = data;

		si->sset_mask = 1ULL << ETH_SS_STATS;
		si->data[0] = NSTAT;
		return 0;
	}
	if (cmd == ETHTOOL_GSTRINGS) {
		struct ethtool_gstrings *gs = data;

		gs->len = NSTAT;
		for (size_t i = 0; i < NSTAT; i++)
			strncpy((char *)gs->data + i * ETH_GSTRING_LEN, stat_names[i], ETH_GSTRING_LEN);
		return 0;
	}
	if (cmd == ETHTOOL_GSTATS) {
		struct ethtool_stats *st = data;

		st->n_stats = NSTAT;
		for (size_t i = 0; i < NSTAT; i++)
			st->data[i] = 1000 * (i + 1) + 7;
		return 0;
	}
	return -EOPNOTSUPP;
}

static void test_ethtool_stats_record_replay(void **state)
{
	char dir[] = "/tmp/mlx-statrec.XXXXXX", cmd[96];
	struct mlx_ctx *live, *cap;
	struct mlx_kops old;
	struct mlx_ethtool_names en;
	uint64_t vals[NSTAT + 1];
	size_t n = NSTAT;

	(void)state;
	assert_int_equal(mlx_ctx_new("/", &live, NULL), 0);
	old = *mlx_ctx_kops(live);
	old.nl_request = no_ethtool_nl;
	old.ethtool_ioctl = old_ethtool;
	mlx_ctx_set_kops(live, &old);
	assert_non_null(mkdtemp(dir));
	/* a snapshot records: the answers of the ioctls go in its files */
	assert_int_equal(mlx_kernel_record(live, dir), 0);
	assert_int_equal(mlx_ethtool_stat_names(live, "old0", &en), 0);
	assert_false(en.from_netlink);
	assert_int_equal(en.n, NSTAT);
	mlx_ethtool_names_free(&en);
	assert_int_equal(mlx_ethtool_stat_values(live, "old0", vals, &n), 0);
	assert_int_equal(mlx_kernel_record(live, NULL), 0);
	/* not recording: nothing more is written */
	assert_int_equal(mlx_ethtool_stat_names(live, "old0", &en), 0);
	mlx_ethtool_names_free(&en);
	mlx_ctx_free(live);

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/bus/pci/devices", dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(mlx_ctx_new(dir, &cap, NULL), 0);
	assert_int_equal(mlx_ethtool_stat_names(cap, "old0", &en), 0);
	assert_int_equal(en.n, NSTAT);
	for (size_t i = 0; i < NSTAT; i++)
		assert_string_equal(en.names[i], stat_names[i]);
	mlx_ethtool_names_free(&en);
	memset(vals, 0, sizeof(vals));
	n = NSTAT;
	assert_int_equal(mlx_ethtool_stat_values(cap, "old0", vals, &n), 0);
	assert_int_equal(n, NSTAT);
	for (size_t i = 0; i < NSTAT; i++)
		assert_int_equal(vals[i], 1000 * (i + 1) + 7);
	/* room for fewer values than recorded: the names are not these */
	n = NSTAT - 1;
	assert_int_equal(mlx_ethtool_stat_values(cap, "old0", vals, &n), -EBADMSG);
	/* a netdev the capture did not record */
	n = NSTAT;
	assert_int_equal(mlx_ethtool_stat_names(cap, "old1", &en), -ENODATA);
	assert_int_equal(mlx_ethtool_stat_values(cap, "old1", vals, &n), -ENODATA);
	mlx_ctx_free(cap);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* ---- the emulators are a table the captured boundary is given ---- */

static unsigned taken_nl, taken_file;

static bool any_setlink(enum mlx_nl_family fam, const void *req, size_t len)
{
	struct nlmsghdr h;

	(void)len;
	memcpy(&h, req, sizeof(h));
	return fam == MLX_NL_ROUTE && h.nlmsg_type == RTM_SETLINK;
}

static int count_nl(struct mlx_ctx *c, enum mlx_nl_family fam, const void *req, size_t len,
		    mlx_nl_cb cb, void *arg)
{
	(void)c, (void)fam, (void)req, (void)len, (void)cb, (void)arg;
	taken_nl++;
	return 0;
}

static bool numvfs_file(const char *path)
{
	return strstr(path, "/sriov_numvfs") != NULL;
}

static int count_file(struct mlx_ctx *c, const char *path, const char *val)
{
	(void)c, (void)path, (void)val;
	taken_file++;
	return 0;
}

static const struct mlx_emul counting = {
	.name = "test",
	.nl_takes = any_setlink,
	.nl_request = count_nl,
	.file_takes = numvfs_file,
	.file_write = count_file,
};

static void test_emulator_table(void **state)
{
	static const struct mlx_emul *const mine[] = { &counting, NULL };
	static const struct mlx_emul *const none[] = { NULL };
	struct mlx_vf_set s = { .attr = MLX_VF_SET_VLAN, .vf = 0, .vlan = 9 };
	struct mlx_link_vfs before;
	size_t len0, len1;
	char *a, *b;

	(void)state;
	/* the product's table: every emulator it lists is asked in order,
	 * and the device's refusals are one of them */
	assert_non_null(mlx_emulators[0]);
	vf0(&before);
	a = slurp(VFLIST, &len0);
	mlx_ctx_set_emulators(ctx, mine);
	taken_nl = taken_file = 0;
	/* the test's emulator takes RTM_SETLINK and the numvfs file: the
	 * recorded VF list is not touched, the count is */
	assert_int_equal(mlx_sriov_vf_set(ctx, pf, &before, &s, 1), 0);
	assert_int_equal(taken_nl, 1);
	assert_int_equal(mlx_kernel_write(ctx, "/sys/bus/pci/devices/" PF "/sriov_numvfs", "2"), 0);
	assert_int_equal(taken_file, 1);
	b = slurp(VFLIST, &len1);
	assert_int_equal(len0, len1);
	assert_memory_equal(a, b, len0);
	free(b);
	/* a devlink reload nobody takes: the recording (none: -ENODATA),
	 * not the device emulator of the product's table */
	assert_int_equal(mlx_devlink_reload(ctx, pf), -ENODATA);
	/* no emulator at all: a write is stored as given, a request the
	 * recording has no reply to fails with -ENODATA */
	mlx_ctx_set_emulators(ctx, none);
	assert_int_equal(mlx_kernel_write(ctx, "/sys/class/net/" P0 "/mtu", "9000\n"), 0);
	b = slurp("/sys/class/net/" P0 "/mtu", &len1);
	assert_string_equal(b, "9000\n");
	free(b);
	assert_int_equal(mlx_sriov_vf_set(ctx, pf, &before, &s, 1), -ENODATA);
	b = slurp(VFLIST, &len1);
	assert_memory_equal(a, b, len0);
	free(a);
	free(b);
	mlx_link_vfs_free(&before);
	mlx_ctx_set_emulators(ctx, mlx_emulators);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_vf_set_sends_builder_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_eswitch_and_numvfs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_flags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kmsg_and_operations, setup, teardown),
		cmocka_unit_test_setup_teardown(test_emulator_table, setup, teardown),
		cmocka_unit_test(test_ethtool_stats_record_replay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
