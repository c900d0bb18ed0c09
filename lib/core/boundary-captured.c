/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel boundary, captured: a system recorded by `mlxcli snapshot`
 * (--sysroot, the --sample working copies).  Reads replay the recorded
 * netlink replies; writes go to the emulators of lib/emul/, which take
 * exactly what the live path hands the kernel (the request bytes the
 * builders made, the path and value of a sysfs write) and change the
 * captured files as the kernel would (DESIGN "The root prefix").  So the
 * request builders run in every offline test.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dcb.h"
#include "dcqcn.h"
#include "mlx-private.h"
#include "params.h"

static int captured_nl(struct mlx_ctx *ctx, enum mlx_nl_family fam, const char *object,
		       const char *request, const void *req, size_t len, mlx_nl_cb cb, void *arg)
{
	struct nlmsghdr h;
	struct genlmsghdr g = { 0 };
	struct mlx_params_set ps;
	char why[8];

	memcpy(&h, req, sizeof(h));
	if (h.nlmsg_len != len)
		return mlx_err(ctx, EINVAL, "malformed netlink request '%s' for '%s': length %u "
			       "in a message of %zu bytes", request, object, h.nlmsg_len, len);
	if (fam == MLX_NL_ROUTE && h.nlmsg_type == RTM_SETDCB) {
		uint8_t *reply = NULL;
		size_t rlen = 0;
		int r = mlx_dcb_emul(ctx, req, len, &reply, &rlen);

		/* The emulator answers as dcbnl would: replay its reply. */
		if (r == 0)
			r = mlx_nl_replay(ctx, reply, rlen, cb, arg);
		free(reply);
		return r;
	}
	/* params set: ethtool *_SET, devlink PARAM_SET, RTM_SETLINK IFLA_MTU */
	if (mlx_params_req_parse(fam, req, len, &ps, why, sizeof(why)) != -ENOENT)
		return mlx_emul_params(ctx, fam, req, len);
	if (fam == MLX_NL_ROUTE && h.nlmsg_type == RTM_SETLINK)
		return mlx_emul_sriov_setlink(ctx, req, len);
	/* issue 27: the health policy, the link's pause, modes and FEC */
	if (mlx_emul_health_takes(fam, req, len))
		return mlx_emul_health_request(ctx, fam, req, len, cb, arg);
	if (mlx_emul_link_takes(fam, req, len))
		return mlx_emul_link_request(ctx, fam, req, len, cb, arg);
	if (fam == MLX_NL_DEVLINK && len >= NLMSG_HDRLEN + GENL_HDRLEN)
		memcpy(&g, (const uint8_t *)req + NLMSG_HDRLEN, sizeof(g));
	if (fam == MLX_NL_DEVLINK && g.cmd == DEVLINK_CMD_ESWITCH_SET)
		return mlx_emul_eswitch(ctx, req, len);
	/* A read: the recorded reply of that request. */
	return mlx_nl_query_recorded(ctx, fam, object, request, cb, arg);
}

static int captured_write(struct mlx_ctx *ctx, const char *path, const char *val)
{
	static const char pci[] = "/sys/bus/pci/devices/", numvfs[] = "/sriov_numvfs";
	size_t pl = strlen(path), nl = sizeof(numvfs) - 1;

	if (!strncmp(path, pci, sizeof(pci) - 1) && pl > sizeof(pci) - 1 + nl &&
	    !strcmp(path + pl - nl, numvfs)) {
		char bdf[64];
		size_t bl = pl - nl - (sizeof(pci) - 1);

		if (bl >= sizeof(bdf) || memchr(path + sizeof(pci) - 1, '/', bl))
			return mlx_write_str(ctx, path, val);
		memcpy(bdf, path + sizeof(pci) - 1, bl);
		bdf[bl] = '\0';
		return mlx_emul_numvfs_write(ctx, bdf, val);
	}
	if (mlx_emul_params_is_tclass(path))
		return mlx_emul_params_tclass(ctx, path, val);
	/* DCQCN files, np_cnp_prio's side effect included; others as given. */
	return mlx_emul_dcqcn_write(ctx, path, val);
}

/* The recorded ethtool netlink replies stand in for most ioctls; the few
 * a snapshot records (a module read on a kernel before 5.13) answer here. */
static int captured_ethtool(struct mlx_ctx *ctx, const char *ifname, void *data)
{
	return mlx_ethtool_ioctl_replay(ctx, ifname, data);
}

/* A regular file: a FIFO (a test feeding a running monitor) would block
 * a whole read until its writer closes it. */
static bool recorded_kmsg(struct mlx_ctx *ctx)
{
	struct stat st;
	int fd = mlx_open(ctx, "/dev/kmsg", O_RDONLY | O_NONBLOCK, 0);
	bool reg;

	if (fd < 0)
		return false;
	reg = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	close(fd);
	return reg;
}

/* The syslog copy, else the recorded /dev/kmsg records (a snapshot's, the
 * monitor's replay: "<prio>,<seq>,<usec>,<flags>;message" lines, as live). */
static int captured_kmsg(struct mlx_ctx *ctx, char **text, size_t *len, const char **source)
{
	int r = mlx_read_file(ctx, "/var/log/kern.log", text, len);

	if (r == -ENOENT && recorded_kmsg(ctx) && mlx_read_file(ctx, "/dev/kmsg", text, len) == 0) {
		*source = "/dev/kmsg (recorded)";
		return 0;
	}
	if (r == -ENOENT)
		return mlx_err(ctx, ENOENT, "the system has no kernel log (/var/log/kern.log, /dev/kmsg)");
	if (r < 0)
		return mlx_err(ctx, r, "/var/log/kern.log: %s", strerror(-r));
	*source = "/var/log/kern.log";
	return 0;
}

static bool captured_net_admin(struct mlx_ctx *ctx)
{
	(void)ctx;
	return true;            /* the working copy's file permissions decide */
}

/* Nothing happens on a capture: there is nothing to be told. */
static int captured_nl_subscribe(struct mlx_ctx *ctx, const struct mlx_nl_group *g)
{
	return mlx_err(ctx, EOPNOTSUPP, "a captured system has no %s notifications to listen to",
		       g->what);
}

const struct mlx_kops mlx_kops_captured = {
	.name = "captured",
	.caps = MLX_KCAP_RECORDED,
	.nl_request = captured_nl,
	.write_file = captured_write,
	.ethtool_ioctl = captured_ethtool,
	.link_flags = mlx_emul_link_flags,
	.kmsg_read = captured_kmsg,
	.net_admin = captured_net_admin,
	.nl_subscribe = captured_nl_subscribe,
};
