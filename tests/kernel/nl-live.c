/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The netlink layer against the real kernel, run by sriov-live.sh inside a
 * private network namespace holding a veth pair mlxv0/mlxv1:
 *  - RTM_GETLINK with RTEXT_FILTER_VF on mlxv0 decodes (no VFs: a veth has
 *    no parent device, so no IFLA_NUM_VF);
 *  - a missing interface is -ENODEV from the kernel's NLMSG_ERROR;
 *  - devlink INFO_GET on an absent PCI device fails cleanly (no devlink
 *    family: -EOPNOTSUPP; family present: the kernel's -ENODEV);
 *  - the reply recorded under a capture directory replays offline through
 *    the same decoder to the same result.
 * Exit 0 when all hold; prints the failing check otherwise.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/devlink.h>

#include "devlink.h"
#include "mlx.h"
#include "nl.h"
#include "sriov.h"

static int fails;

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "nl-live: FAIL %s (line %d)\n", #c, __LINE__); \
			      fails++; } } while (0)

struct got {
	struct mlx_link_vfs l;
	int n;
};

static int cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct got *g = arg;
	char err[160];

	if (g->n++ == 0 && mlx_rtnl_vf_decode(h, len, &g->l, err, sizeof(err)) < 0) {
		fprintf(stderr, "nl-live: decode: %s\n", err);
		return -EBADMSG;
	}
	return 0;
}

static int getlink(struct mlx_ctx *ctx, const char *ifname, struct got *g)
{
	uint8_t req[128];
	int len = mlx_rtnl_getlink_vf_build(req, sizeof(req), -1, ifname);

	memset(g, 0, sizeof(*g));
	return mlx_nl_query(ctx, MLX_NL_ROUTE, ifname, MLX_REQ_GETLINK_VF, req, (size_t)len, cb, g);
}

int main(void)
{
	char tmpl[] = "/tmp/mlx-nl-live-XXXXXX", path[512];
	struct mlx_ctx *ctx = NULL, *off = NULL;
	struct mlx_devlink_info info;
	struct got g, g2;
	uint8_t req[128];
	int r, len;

	CHECK(mlx_ctx_new("/", &ctx, NULL) == 0);
	CHECK(mkdtemp(tmpl) != NULL);
	CHECK(mlx_nl_set_capture(ctx, tmpl) == 0);

	r = getlink(ctx, "mlxv0", &g);
	CHECK(r == 0);
	CHECK(g.n == 1);
	CHECK(!strcmp(g.l.ifname, "mlxv0"));
	CHECK(g.l.ifindex > 0);
	CHECK(!g.l.has_num_vf && g.l.nvf == 0);

	r = getlink(ctx, "nosuch0", &g2);
	CHECK(r == -ENODEV);

	len = mlx_devlink_build(req, sizeof(req), DEVLINK_CMD_INFO_GET, "pci", "0000:77:00.0", -1);
	r = mlx_nl_query(ctx, MLX_NL_DEVLINK, "pci:0000:77:00.0", MLX_REQ_INFO_GET, req,
			 (size_t)len, NULL, &info);
	printf("devlink INFO_GET on an absent device: %d (%s) %s\n", r, strerror(-r),
	       mlx_errmsg(ctx));
	CHECK(r == -EOPNOTSUPP || r == -ENODEV);
	mlx_nl_set_capture(ctx, NULL);

	/* Offline: the capture replays to the same decode. */
	snprintf(path, sizeof(path), "%s/sys/bus/pci/devices", tmpl);
	{
		char p2[512];

		snprintf(p2, sizeof(p2), "%s/sys", tmpl);
		mkdir(p2, 0755);
		snprintf(p2, sizeof(p2), "%s/sys/bus", tmpl);
		mkdir(p2, 0755);
		snprintf(p2, sizeof(p2), "%s/sys/bus/pci", tmpl);
		mkdir(p2, 0755);
		mkdir(path, 0755);
	}
	CHECK(mlx_ctx_new(tmpl, &off, NULL) == 0);
	if (off) {
		r = getlink(off, "mlxv0", &g2);
		CHECK(r == 0);
		CHECK(!strcmp(g2.l.ifname, g.l.ifname) && g2.l.ifindex == g.l.ifindex);
		r = getlink(off, "nosuch0", &g2);
		CHECK(r == -ENODEV);    /* the recorded error reply */
		r = getlink(off, "neverasked0", &g2);
		CHECK(r == -ENODATA);
	}
	mlx_link_vfs_free(&g.l);
	mlx_ctx_free(off);
	mlx_ctx_free(ctx);
	snprintf(path, sizeof(path), "rm -rf '%s'", tmpl);
	if (system(path) != 0)
		fprintf(stderr, "nl-live: cannot remove %s\n", tmpl);
	return fails ? 1 : 0;
}
