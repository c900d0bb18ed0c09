/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live sources of the monitor (issue 16): /dev/kmsg, a netlink socket
 * subscribed to RTNLGRP_LINK, one subscribed to devlink's "config" group.
 * The decoders are elsewhere (kmsg-classify.c, rtnl-link.c,
 * devlink-notify.c); this file only opens and reads.
 *
 * /dev/kmsg goes through the root prefix like every file: on the live
 * system it is the kernel's device, one record per read(2); in a capture,
 * <root>/dev/kmsg is a regular file of recorded records (the same text),
 * which mlx_kmsg_reader splits at record boundaries.  The multicast
 * subscriptions are the kernel boundary's (mlx_kernel_nl_subscribe): a
 * captured system has no recorded counterpart and says so.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/devlink.h>
#include <linux/ethtool_netlink.h>

#include "mlx-private.h"
#include "monitor.h"

int mlx_kmsg_open(struct mlx_ctx *ctx, bool from_start)
{
	struct stat st;
	char path[PATH_MAX];
	int fd = mlx_open(ctx, "/dev/kmsg", O_RDONLY | O_NONBLOCK, 0);

	if (fd < 0)
		return mlx_err(ctx, -fd, "cannot open '%s': %s%s",
			       mlx_path(ctx, path, sizeof(path), "/dev/kmsg") == 0 ? path : "/dev/kmsg",
			       strerror(-fd),
			       fd == -EPERM || fd == -EACCES ?
			       " (reading the kernel log needs CAP_SYSLOG, or kernel.dmesg_restrict=0)" :
			       "");
	/* the kernel's device starts at the oldest record; a recorded file
	 * is replayed whole */
	if (!from_start && fstat(fd, &st) == 0 && S_ISCHR(st.st_mode))
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* A snapshot marks its kernel log as filtered to its devices with this
 * file (lib/capture/snapshot.c); the running kernel's /dev has none. */
bool mlx_kmsg_is_filtered(struct mlx_ctx *ctx)
{
	int fd;

	fd = mlx_open(ctx, "/dev/kmsg.filter", O_RDONLY, 0);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

void mlx_kmsg_reader_init(struct mlx_kmsg_reader *r, int fd)
{
	struct stat st;

	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->is_dev = fstat(fd, &st) == 0 && S_ISCHR(st.st_mode);
}

/* The end of the first record in r->buf[0..len): a newline not followed
 * by a dictionary line (" KEY=VALUE"); 0 when the record may go on. */
static size_t record_end(const struct mlx_kmsg_reader *r)
{
	for (size_t i = 0; i < r->len; i++)
		if (r->buf[i] == '\n' && (i + 1 < r->len ? r->buf[i + 1] != ' ' : r->eof))
			return i + 1;
	return r->eof ? r->len : 0;
}

ssize_t mlx_kmsg_next(struct mlx_kmsg_reader *r, char *out, size_t cap)
{
	size_t end, k;
	ssize_t n;

	if (cap < 2)
		return -EINVAL;
	if (r->is_dev) {
		/* the device gives one whole record per read(2), or EINVAL
		 * when the buffer is too small for it */
		do
			n = read(r->fd, out, cap - 1);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return errno == EAGAIN ? 0 : -errno;
		out[n] = '\0';
		return n;
	}
	for (;;) {
		end = record_end(r);
		if (end) {
			k = end < cap ? end : cap - 1;
			memcpy(out, r->buf, k);
			out[k] = '\0';
			memmove(r->buf, r->buf + end, r->len - end);
			r->len -= end;
			return (ssize_t)k;
		}
		if (r->eof)
			return -ENODATA;
		if (r->len == sizeof(r->buf))   /* longer than any record the kernel makes */
			r->len = 0;
		n = read(r->fd, r->buf + r->len, sizeof(r->buf) - r->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN ? 0 : -errno;
		if (n == 0)
			r->eof = true;
		r->len += (size_t)n;
	}
}

int mlx_monitor_rtnl_open(struct mlx_ctx *ctx)
{
	static const struct mlx_nl_group link = {
		/* DCB notifications (qos_changed) come through the same socket */
		.proto = NETLINK_ROUTE, .group = RTNLGRP_LINK, .group2 = RTNLGRP_DCB,
		.what = "rtnetlink link and DCB",
	};
	int fd = mlx_kernel_nl_subscribe(ctx, &link);
	struct {
		struct nlmsghdr h;
		struct ifinfomsg ifi;
	} req = {
		.h = { .nlmsg_len = sizeof(req), .nlmsg_type = RTM_GETLINK,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP, .nlmsg_seq = 1 },
		.ifi = { .ifi_family = AF_UNSPEC },
	};

	if (fd < 0)
		return fd;
	/* every interface's state first, through the same socket and the
	 * same decoder: the first change of each is then a change */
	if (send(fd, &req, sizeof(req), 0) < 0) {
		int e = errno;

		close(fd);
		return mlx_err(ctx, e, "cannot ask rtnetlink for the links: %s", strerror(e));
	}
	return fd;
}

int mlx_monitor_devlink_open(struct mlx_ctx *ctx)
{
	static const struct mlx_nl_group config = {
		.proto = NETLINK_GENERIC, .genl_family = DEVLINK_GENL_NAME,
		.genl_group = DEVLINK_GENL_MCGRP_CONFIG_NAME, .what = "devlink health",
	};

	return mlx_kernel_nl_subscribe(ctx, &config);
}

ssize_t mlx_monitor_recv(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = recv(fd, buf, len, MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN ? 0 : -errno;
	return n;
}

int mlx_monitor_ethtool_open(struct mlx_ctx *ctx)
{
	static const struct mlx_nl_group monitor = {
		.proto = NETLINK_GENERIC, .genl_family = ETHTOOL_GENL_NAME,
		.genl_group = ETHTOOL_MCGRP_MONITOR_NAME, .what = "ethtool settings",
	};

	return mlx_kernel_nl_subscribe(ctx, &monitor);
}

int mlx_monitor_recorded(struct mlx_ctx *ctx, enum mlx_mon_stream s, char **buf, size_t *len)
{
	static const char *const file[MLX_MON_NSTREAMS] = {
		[MLX_MON_RTNL] = "/monitor/rtnl.nl", [MLX_MON_DEVLINK] = "/monitor/devlink.nl",
		[MLX_MON_ETHTOOL] = "/monitor/ethtool.nl",
	};

	if ((unsigned)s >= MLX_MON_NSTREAMS)
		return -EINVAL;
	return mlx_read_file(ctx, file[s], buf, len);
}
