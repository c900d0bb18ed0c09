/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitor's event source (lib/monitor/source.c, issue 26) on a copy
 * of the cx5-ofed sample: its recordings (dev/kmsg, monitor/rtnl.nl) are
 * replayed through the same object a live monitor uses, in order, and the
 * source ends with them.  And the splitters of recorded streams
 * (lib/monitor/stream-split.c) on byte arrays.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/if.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "device.h"
#include "monitor.h"
#include "nl-writer.h"

static char root[PATH_MAX];
static struct mlx_ctx *ctx;
static struct mlx_devices devs;

static int setup(void **state)
{
	const char *samples = getenv("MLXCLI_SAMPLES_DIR");
	char cmd[PATH_MAX * 2 + 64];

	(void)state;
	if (!samples || !*samples)
		samples = TOP_SRCDIR "/tests/data/samples";
	snprintf(root, sizeof(root), "/tmp/mlx-evsrc-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(cmd, sizeof(cmd), "cp -a '%s/cx5-ofed/.' '%s/' && mkdir -p '%s/dev' '%s/monitor'", samples, root,
		 root, root);
	if (system(cmd) != 0)
		return -1;
	if (mlx_ctx_new(root, &ctx, NULL) < 0 || mlx_devices_scan(ctx, &devs) < 0)
		return -1;
	return 0;
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

static void put(const char *rel, const void *data, size_t len)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* ---- the splitters ----------------------------------------------------- */

static void test_kmsg_split(void **state)
{
	static const char two[] = "3,1,100,-;mlx5_core 0000:5e:00.0: x\n SUBSYSTEM=pci\n DEVICE=+pci:0000:5e:00.0\n"
				  "6,2,200,-;y\n";
	size_t first = strlen("3,1,100,-;mlx5_core 0000:5e:00.0: x\n SUBSYSTEM=pci\n DEVICE=+pci:0000:5e:00.0\n");

	(void)state;
	assert_int_equal(mlx_kmsg_split(two, strlen(two), false), first);
	/* whether a dictionary line follows is known only from the next
	 * byte: a record that ends where the bytes end may go on */
	assert_int_equal(mlx_kmsg_split(two, first, false), 0);
	assert_int_equal(mlx_kmsg_split(two, first, true), first);
	assert_int_equal(mlx_kmsg_split(two, 20, false), 0);
	assert_int_equal(mlx_kmsg_split(two, 20, true), 20);
	assert_int_equal(mlx_kmsg_split(two + first, strlen(two) - first, true), strlen(two) - first);
	assert_int_equal(mlx_kmsg_split("", 0, true), 0);
}

static void test_nl_split(void **state)
{
	uint8_t b[64] = { 0 };
	struct nlmsghdr h = { .nlmsg_len = 17, .nlmsg_type = RTM_NEWLINK };

	(void)state;
	memcpy(b, &h, sizeof(h));
	assert_int_equal(mlx_nl_split(b, 10, false), 0);
	assert_int_equal(mlx_nl_split(b, 10, true), -EBADMSG);
	assert_int_equal(mlx_nl_split(b, 20, false), 20);      /* aligned */
	assert_int_equal(mlx_nl_split(b, 17, false), 0);
	assert_int_equal(mlx_nl_split(b, 17, true), 17);       /* the last needs no padding */
	h.nlmsg_len = 8;
	memcpy(b, &h, sizeof(h));
	assert_int_equal(mlx_nl_split(b, 64, false), -EBADMSG);
	/* a length near 4 GiB: NLMSG_ALIGN's unsigned int mask made it 0,
	 * a message of no bytes (found by fuzz-kmsg-split) */
	h.nlmsg_len = 0xffffffffu;
	memcpy(b, &h, sizeof(h));
	assert_int_equal(mlx_nl_split(b, 64, false), 0);
	assert_int_equal(mlx_nl_split(b, 64, true), -EBADMSG);
}

/* ---- the source on a capture --------------------------------------------- */

/* An RTM_NEWLINK of the sample's first port, with @flags and carrier,
 * appended to @w. */
static void newlink(struct w *w, unsigned flags, uint8_t carrier)
{
	struct nlmsghdr h = { .nlmsg_type = RTM_NEWLINK };
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 4, .ifi_flags = flags };
	size_t at = w->n;

	memcpy(w->b + w->n, &h, sizeof(h));
	memcpy(w->b + w->n + sizeof(h), &ifi, sizeof(ifi));
	w->n += NLMSG_LENGTH(sizeof(ifi));
	attr(w, IFLA_IFNAME, "enp94s0f0np0", 13);
	attr(w, IFLA_CARRIER, &carrier, 1);
	((struct nlmsghdr *)(w->b + at))->nlmsg_len = (uint32_t)(w->n - at);
}

static void test_replay(void **state)
{
	static const char log[] = "3,10,5000000,-;mlx5_core 0000:5e:00.0 enp94s0f0np0: Link down\n"
				  " SUBSYSTEM=pci\n DEVICE=+pci:0000:5e:00.0\n";
	static struct w w;
	struct mlx_evsrc_opts o = { .devs = &devs };
	struct mlx_evsrc *src;
	struct mlx_event ev;
	const char *why;

	(void)state;
	put("/dev/kmsg", log, strlen(log));
	w.n = 0;
	newlink(&w, IFF_UP, 1);
	newlink(&w, IFF_UP, 0);
	put("/monitor/rtnl.nl", w.b, w.n);
	assert_int_equal(mlx_evsrc_open(ctx, &o, &src), 0);
	assert_int_equal(mlx_evsrc_stream_status(src, MLX_EVST_RTNL, &why), 0);
	assert_int_equal(mlx_evsrc_stream_status(src, MLX_EVST_DEVLINK, &why), -ENOENT);
	assert_non_null(strstr(why, "no recorded devlink"));
	/* the recorded notifications first (the first message of a link is
	 * its state), then the kernel log */
	assert_int_equal(mlx_evsrc_next(src, &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_CARRIER_DOWN);
	assert_string_equal(ev.netdev, "enp94s0f0np0");
	assert_string_equal(ev.pci_address, "0000:5e:00.0");        /* the device model's */
	assert_int_equal(mlx_evsrc_next(src, &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_LINK_DOWN);
	assert_int_equal(ev.seq, 10);
	assert_int_equal(mlx_evsrc_next(src, &ev), -ENODATA);
	assert_int_equal(mlx_evsrc_next(src, &ev), -ENODATA);
	mlx_evsrc_close(src);
}

static void test_nothing_recorded(void **state)
{
	struct mlx_evsrc_opts o = { 0 };
	struct mlx_evsrc *src;
	struct mlx_event ev;

	(void)state;
	/* a capture without recordings is an empty source, not an error */
	assert_int_equal(mlx_evsrc_open(ctx, &o, &src), 0);
	assert_int_equal(mlx_evsrc_stream_status(src, MLX_EVST_KMSG, NULL), -ENOENT);
	assert_int_equal(mlx_evsrc_next(src, &ev), -ENODATA);
	mlx_evsrc_close(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kmsg_split),
		cmocka_unit_test(test_nl_split),
		cmocka_unit_test_setup_teardown(test_replay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nothing_recorded, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
