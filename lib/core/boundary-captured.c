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

/* <root>/dev/kmsg.boottime, written by a snapshot: the captured kernel's
 * boot in wall-clock µs, one decimal number. */
static int captured_boot_time(struct mlx_ctx *ctx, uint64_t *us)
{
	char buf[32];
	int r = mlx_read_str(ctx, "/dev/kmsg.boottime", buf, sizeof(buf));

	if (r < 0)
		return r == -ENOENT ? -ENOENT : mlx_err(ctx, -r, "/dev/kmsg.boottime: %s", strerror(-r));
	if (mlx_parse_u64(buf, us) < 0 || *us == 0)
		return mlx_err(ctx, EINVAL, "/dev/kmsg.boottime: '%s' is no time", buf);
	return 0;
}

/* Nothing happens on a capture: what it recorded is replayed (the raw
 * messages a subscription received, one after the other; the kernel-log
 * records in the /dev/kmsg format).  A regular file is read to its end; a
 * FIFO until its writer closes it (a test feeding a running monitor);
 * anything else is refused. */
static int captured_event_stream(struct mlx_ctx *ctx, const struct mlx_nl_group *g, struct mlx_event_stream *es)
{
	const char *path = g ? g->recording : "/dev/kmsg";
	struct stat st;
	int fd;

	if (!path)
		return mlx_err(ctx, ENOENT, "a captured system has no %s notifications", g->what);
	fd = mlx_open(ctx, path, O_RDONLY | O_NONBLOCK, 0);
	if (fd < 0)
		return mlx_err(ctx, -fd, "%s: the capture has no recorded %s: %s", path,
			       g ? g->what : "kernel log", strerror(-fd));
	if (fstat(fd, &st) < 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
		close(fd);
		return mlx_err(ctx, EINVAL, "%s: not a regular file or a FIFO", path);
	}
	es->fd = fd;
	if (!g) {
		int ffd = mlx_open(ctx, "/dev/kmsg.filter", O_RDONLY | O_NONBLOCK, 0);

		es->filtered = ffd >= 0;
		if (ffd >= 0)
			close(ffd);
		if (captured_boot_time(ctx, &es->boot_time_us) < 0) {
			es->boot_time_us = 0;
			mlx_err_clear(ctx);
		}
	}
	return 0;
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
	.event_stream = captured_event_stream,
	.boot_time = captured_boot_time,
};
