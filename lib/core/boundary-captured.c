/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel boundary, captured: a system recorded by `mlxcli snapshot`
 * (--sysroot, the --sample working copies).  Reads replay the recorded
 * netlink replies; writes go to the emulators of lib/emul/, which take
 * exactly what the live path hands the kernel (the request bytes the
 * builders made, the path and value of a sysfs write) and change the
 * captured files as the kernel would (DESIGN "The root prefix").  So the
 * request builders run in every offline test.  Which emulator takes what
 * is each emulator's own word (struct mlx_emul): this file only walks the
 * table mlx_ctx_new() gave it, and knows no feature.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "mlx-private.h"

static int captured_nl(struct mlx_ctx *ctx, enum mlx_nl_family fam, const char *object,
		       const char *request, const void *req, size_t len, mlx_nl_cb cb, void *arg)
{
	struct nlmsghdr h;

	memcpy(&h, req, sizeof(h));
	if (h.nlmsg_len != len)
		return mlx_err(ctx, EINVAL, "malformed netlink request '%s' for '%s': length %u "
			       "in a message of %zu bytes", request, object, h.nlmsg_len, len);
	for (const struct mlx_emul *const *e = ctx->emulators; e && *e; e++)
		if ((*e)->nl_takes && (*e)->nl_takes(fam, req, len))
			return (*e)->nl_request(ctx, fam, req, len, cb, arg);
	/* A read: the recorded reply of that request. */
	return mlx_nl_query_recorded(ctx, fam, object, request, cb, arg);
}

static int captured_write(struct mlx_ctx *ctx, const char *path, const char *val)
{
	for (const struct mlx_emul *const *e = ctx->emulators; e && *e; e++)
		if ((*e)->file_takes && (*e)->file_takes(path))
			return (*e)->file_write(ctx, path, val);
	/* A file the driver only keeps: the value as given. */
	return mlx_write_str(ctx, path, val);
}

static int captured_link_flags(struct mlx_ctx *ctx, const char *ifname, unsigned set,
			       unsigned clear)
{
	for (const struct mlx_emul *const *e = ctx->emulators; e && *e; e++)
		if ((*e)->link_flags)
			return (*e)->link_flags(ctx, ifname, set, clear);
	return mlx_err(ctx, EOPNOTSUPP, "'%s' cannot be taken down or up: nothing emulates it "
		       "on the captured system %s", ifname, mlx_root(ctx));
}

/* The recorded ethtool netlink replies stand in for most ioctls; the few
 * a snapshot records (a module read on a kernel before 5.13) answer here,
 * a write an emulator takes (a tunable's STUNABLE) there. */
static int captured_ethtool(struct mlx_ctx *ctx, const char *ifname, void *data)
{
	for (const struct mlx_emul *const *e = ctx->emulators; e && *e; e++)
		if ((*e)->ethtool_takes && (*e)->ethtool_takes(data))
			return (*e)->ethtool_ioctl(ctx, ifname, data);
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

/* Config space is recorded (a read like any file), but no gateway is
 * behind it: the CR space is the device's, and the device is not here. */
static int captured_cfg_open(struct mlx_ctx *ctx, unsigned domain, unsigned bus, unsigned dev,
			     unsigned func, struct mlx_cfgio **io)
{
	(void)domain;
	(void)bus;
	(void)dev;
	(void)func;
	*io = NULL;
	return mlx_err(ctx, EOPNOTSUPP, "the CR space needs the live device: %s is a captured system",
		       mlx_root(ctx));
}

/*
 * The string value of "@key" in the JSON object @text (the metadata of a
 * capture, which write_meta() writes), into @buf.  false when the text is
 * not a JSON object, the key is absent or not a string, or the value does
 * not fit.  jansson parses it: a capture someone sent is hostile input
 * (tests/fuzz/fuzz-snapshot-meta.c).
 */
bool mlx_snapshot_meta_value(const char *text, const char *key, char *buf, size_t len)
{
	json_t *o = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
	const char *v = json_string_value(json_object_get(o, key));
	bool ok = v && strlen(v) < len;

	if (ok)
		memcpy(buf, v, strlen(v) + 1);
	json_decref(o);
	return ok;
}

/*
 * A captured system is not this machine: its own record (the metadata
 * `mlxcli snapshot` writes and a sample carries, mlxcli-snapshot(8)),
 * else its proc/sys/kernel files, else unknown.
 */
static void captured_identity(struct mlx_ctx *ctx, char *host, size_t hlen, char *kernel,
			      size_t klen)
{
	char *text = NULL;
	size_t len;
	bool h = false, k = false;

	if (mlx_read_file(ctx, "/mlxcli-snapshot.json", &text, &len) == 0) {
		h = mlx_snapshot_meta_value(text, "hostname", host, hlen);
		k = mlx_snapshot_meta_value(text, "kernel", kernel, klen);
		free(text);
	}
	if (!h && mlx_read_str(ctx, "/proc/sys/kernel/hostname", host, hlen) < 0)
		host[0] = '\0';
	if (!k && mlx_read_str(ctx, "/proc/sys/kernel/osrelease", kernel, klen) < 0)
		kernel[0] = '\0';
}

/* The answers are recorded already: the tree /netlink is them. */
static int captured_record(struct mlx_ctx *ctx, const char *dir)
{
	(void)ctx;
	return dir ? MLX_RECORDED : 0;
}

/* No process table is recorded: the pid file stands for its process. */
static bool captured_process_runs(struct mlx_ctx *ctx, const char *pid)
{
	(void)ctx;
	(void)pid;
	return true;
}

static bool captured_privileged(struct mlx_ctx *ctx)
{
	(void)ctx;
	return true;            /* the working copy's file permissions decide */
}

static const char *captured_name(const struct mlx_ctx *ctx)
{
	return mlx_root(ctx);
}

const struct mlx_kops mlx_kops_captured = {
	.name = "captured",
	.nl_request = captured_nl,
	.write_file = captured_write,
	.store = mlx_store_captured,
	.ethtool_ioctl = captured_ethtool,
	.link_flags = captured_link_flags,
	.kmsg_read = captured_kmsg,
	.net_admin = captured_net_admin,
	.privileged = captured_privileged,
	.cfg_open = captured_cfg_open,
	.identity = captured_identity,
	.record = captured_record,
	.process_runs = captured_process_runs,
	.target_name = captured_name,
	.event_stream = captured_event_stream,
	.boot_time = captured_boot_time,
};
