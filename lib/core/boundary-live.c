/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel boundary, live: the running kernel's sockets, ioctls,
 * /dev/kmsg, uname(2) and processes.  The only file of lib/ that opens an
 * AF_INET socket, a netlink multicast subscription or /dev/kmsg; the
 * request sockets are lib/backend/nl.c's (libnl) and config space is
 * lib/backend/pci-cfgio.c's (libpci), reached from here.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "mlx-private.h"

/* One AF_INET socket for every interface ioctl of the run (freed with the
 * context): 2,000 netdevs must not cost 2,000 socket()/close() pairs. */
static int ifreq_ioctl(struct mlx_ctx *ctx, unsigned long req, struct ifreq *ifr)
{
	if (ctx->ioctl_fd < 0) {
		ctx->ioctl_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (ctx->ioctl_fd < 0)
			return -errno;
	}
	return ioctl(ctx->ioctl_fd, req, ifr) < 0 ? -errno : 0;
}

static int live_ethtool(struct mlx_ctx *ctx, const char *ifname, void *data)
{
	struct ifreq ifr;

	if (strlen(ifname) >= IFNAMSIZ)
		return -EINVAL;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, ifname);
	ifr.ifr_data = data;
	return ifreq_ioctl(ctx, SIOCETHTOOL, &ifr);
}

static int live_link_flags(struct mlx_ctx *ctx, const char *ifname, unsigned set, unsigned clear)
{
	struct ifreq ifr;
	int r;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	r = ifreq_ioctl(ctx, SIOCGIFFLAGS, &ifr);
	if (r == 0) {
		ifr.ifr_flags = (short)(((unsigned)(unsigned short)ifr.ifr_flags | set) & ~clear);
		r = ifreq_ioctl(ctx, SIOCSIFFLAGS, &ifr);
	}
	if (r < 0)
		return mlx_err(ctx, r, "cannot change the flags of '%s': %s", ifname, strerror(-r));
	return 0;
}

/* /dev/kmsg: one record per read(2); non-blocking, so EAGAIN ends the
 * backlog (Documentation/ABI/testing/dev-kmsg).  Without it (no
 * permission, CONFIG_PRINTK off) the syslog copy, as a captured system. */
static int live_kmsg(struct mlx_ctx *ctx, char **text, size_t *len, const char **source)
{
	char rec[8192], *buf = NULL;
	size_t n = 0;
	FILE *m;
	int fd, e, r;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		r = mlx_kops_captured.kmsg_read(ctx, text, len, source);
		if (r < 0)
			return mlx_err(ctx, e, "%s/dev/kmsg: %s; %s",
				       e == EPERM || e == EACCES ? "permission: " : "", strerror(e),
				       mlx_errmsg(ctx));
		return r;
	}
	m = open_memstream(&buf, &n);
	if (!m) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t got = read(fd, rec, sizeof(rec));

		if (got < 0 && errno == EPIPE)
			continue;               /* a record overwritten meanwhile */
		if (got <= 0)
			break;
		fwrite(rec, 1, (size_t)got, m);
	}
	close(fd);
	if (fclose(m) != 0) {
		free(buf);
		return -ENOMEM;
	}
	*text = buf;
	*len = n;
	*source = "/dev/kmsg";
	return 0;
}

static bool live_privileged(struct mlx_ctx *ctx)
{
	(void)ctx;
	return geteuid() == 0;
}

static void live_identity(struct mlx_ctx *ctx, char *host, size_t hlen, char *kernel, size_t klen)
{
	struct utsname u;

	(void)ctx;
	if (uname(&u) == 0) {
		snprintf(host, hlen, "%s", u.nodename);
		snprintf(kernel, klen, "%s", u.release);
	}
}

/* The requests from now on are recorded as they are answered
 * (lib/backend/nl.c, lib/backend/ethtool-record.c). */
static int live_record(struct mlx_ctx *ctx, const char *dir)
{
	return mlx_nl_set_capture(ctx, dir);
}

static bool live_process_runs(struct mlx_ctx *ctx, const char *pid)
{
	char proc[PATH_MAX];

	if (!mlx_name_is_safe(pid) || snprintf(proc, sizeof(proc), "/proc/%s", pid) >= (int)sizeof(proc))
		return false;
	return mlx_is_dir(ctx, proc);
}

static const char *live_name(const struct mlx_ctx *ctx)
{
	(void)ctx;
	return "live";
}

static bool live_net_admin(struct mlx_ctx *ctx)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	(void)ctx;
	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d) < 0)
		return geteuid() == 0;
	return (d[CAP_NET_ADMIN / 32].effective >> (CAP_NET_ADMIN % 32)) & 1;
}

/* The number of a generic netlink family's multicast group, from the
 * controller (devlink's "config" is not a constant: it depends on the
 * order families registered). */
static int genl_group(struct mlx_ctx *ctx, const struct mlx_nl_group *g)
{
	struct nl_sock *sk = nl_socket_alloc();
	int grp;

	if (!sk)
		return -ENOMEM;
	grp = genl_connect(sk) < 0 ? -1 : genl_ctrl_resolve_grp(sk, g->genl_family, g->genl_group);
	nl_socket_free(sk);
	if (grp < 0)
		return mlx_err(ctx, ENOENT, "the kernel has no %s multicast group '%s'",
			       g->genl_family, g->genl_group);
	return grp;
}

static int nl_subscribe(struct mlx_ctx *ctx, const struct mlx_nl_group *g)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	unsigned group = g->group;
	int fd;

	if (g->genl_family) {
		int grp = genl_group(ctx, g);

		if (grp < 0)
			return grp;
		group = (unsigned)grp;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, g->proto);
	if (fd < 0)
		return mlx_err(ctx, errno, "cannot open a netlink socket for %s: %s", g->what,
			       strerror(errno));
	/* a storm overflows the socket: ENOBUFS on the next read says so */
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &group, sizeof(group)) < 0 ||
	    (g->group2 && setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &g->group2,
				     sizeof(g->group2)) < 0) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_NO_ENOBUFS, &(int){ 0 }, sizeof(int)) < 0) {
		int e = errno;

		close(fd);
		return mlx_err(ctx, e, "cannot subscribe to %s: %s", g->what, strerror(e));
	}
	/* the state before the first change (every link), through the same
	 * socket: its replies come before any notification */
	if (g->dump_req && send(fd, g->dump_req, g->dump_len, 0) < 0) {
		int e = errno;

		close(fd);
		return mlx_err(ctx, e, "cannot ask for the %s state: %s", g->what, strerror(e));
	}
	return fd;
}

/* The wall-clock time the kernel's timestamps count from: /dev/kmsg's are
 * the printk clock (local_clock(), which runs with CLOCK_MONOTONIC and
 * stops with it in a suspend).  An estimate: a clock set since, or a
 * suspend, moves it. */
static uint64_t boot_time_us(void)
{
	struct timespec rt, mono;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	return ((uint64_t)rt.tv_sec * 1000000 + (uint64_t)rt.tv_nsec / 1000) -
	       ((uint64_t)mono.tv_sec * 1000000 + (uint64_t)mono.tv_nsec / 1000);
}

static int live_boot_time(struct mlx_ctx *ctx, uint64_t *us)
{
	(void)ctx;
	*us = boot_time_us();
	return 0;
}

/* /dev/kmsg (Documentation/ABI/testing/dev-kmsg): one record per read(2),
 * from the oldest the buffer holds; or a multicast subscription. */
static int live_event_stream(struct mlx_ctx *ctx, const struct mlx_nl_group *g, struct mlx_event_stream *es)
{
	int fd;

	if (g) {
		fd = nl_subscribe(ctx, g);
		if (fd < 0)
			return fd;
	} else {
		fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			int e = errno;

			return mlx_err(ctx, e, "cannot open '/dev/kmsg': %s%s", strerror(e),
				       e == EPERM || e == EACCES ?
				       " (reading the kernel log needs CAP_SYSLOG, or kernel.dmesg_restrict=0)" :
				       "");
		}
		es->boot_time_us = boot_time_us();
	}
	es->fd = fd;
	es->framed = true;
	es->answers = g != NULL;
	return 0;
}

const struct mlx_kops mlx_kops_live = {
	.name = "live",
	.nl_request = mlx_nl_query_live,
	.write_file = mlx_store_sysfs,
	.store = mlx_store_sysfs,
	.ethtool_ioctl = live_ethtool,
	.link_flags = live_link_flags,
	.kmsg_read = live_kmsg,
	.net_admin = live_net_admin,
	.privileged = live_privileged,
	.cfg_open = mlx_cfgio_open,
	.identity = live_identity,
	.record = live_record,
	.process_runs = live_process_runs,
	.target_name = live_name,
	.event_stream = live_event_stream,
	.boot_time = live_boot_time,
};
