/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel boundary's front door: what lib/ and cmd/ call, handed to the
 * table mlx_ctx_new() chose (struct mlx_kops in lib/mlx-private.h).  Only
 * the files lib/core/boundary*.c know which table that is.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "mlx-private.h"

void mlx_ctx_set_kops(struct mlx_ctx *ctx, const struct mlx_kops *ops)
{
	ctx->kops = ops;
}

const struct mlx_kops *mlx_ctx_kops(const struct mlx_ctx *ctx)
{
	return ctx->kops;
}

void mlx_ctx_set_emulators(struct mlx_ctx *ctx, const struct mlx_emul *const *table)
{
	ctx->emulators = table;
}

const char *mlx_target_name(const struct mlx_ctx *ctx)
{
	return ctx->kops->target_name(ctx);
}

bool mlx_kernel_privileged(struct mlx_ctx *ctx)
{
	return ctx->kops->privileged(ctx);
}

int mlx_kernel_write(struct mlx_ctx *ctx, const char *path, const char *val)
{
	return ctx->kops->write_file(ctx, path, val);
}

int mlx_write_str(struct mlx_ctx *ctx, const char *path, const char *val)
{
	return ctx->kops->store(ctx, path, val);
}

int mlx_kernel_ethtool(struct mlx_ctx *ctx, const char *ifname, void *data)
{
	int r = ctx->kops->ethtool_ioctl(ctx, ifname, data);
	int w;

	/* a snapshot being taken (mlx_kernel_record: only a running kernel's
	 * answers are recorded) keeps the replies a capture can answer
	 * (lib/backend/ethtool-record.c); a no-op otherwise */
	w = mlx_ethtool_ioctl_record(ctx, ifname, data, r);
	return w < 0 && r == 0 ? w : r;
}

int mlx_kernel_cfg_open(struct mlx_ctx *ctx, unsigned domain, unsigned bus, unsigned dev,
			unsigned func, struct mlx_cfgio **io)
{
	*io = NULL;
	return ctx->kops->cfg_open(ctx, domain, bus, dev, func, io);
}

void mlx_kernel_identity(struct mlx_ctx *ctx, char *host, size_t hlen, char *kernel, size_t klen)
{
	host[0] = kernel[0] = '\0';
	ctx->kops->identity(ctx, host, hlen, kernel, klen);
}

int mlx_kernel_record(struct mlx_ctx *ctx, const char *dir)
{
	return ctx->kops->record(ctx, dir);
}

bool mlx_kernel_process_runs(struct mlx_ctx *ctx, const char *pid)
{
	return ctx->kops->process_runs(ctx, pid);
}

int mlx_kernel_link_flags(struct mlx_ctx *ctx, const char *ifname, unsigned set, unsigned clear)
{
	if (!mlx_name_is_safe(ifname) || strlen(ifname) >= MLX_IFNAME_LEN)
		return mlx_err(ctx, EINVAL, "invalid interface name '%s'", ifname);
	return ctx->kops->link_flags(ctx, ifname, set, clear);
}

bool mlx_kernel_net_admin(struct mlx_ctx *ctx)
{
	return ctx->kops->net_admin(ctx);
}

int mlx_kernel_event_stream(struct mlx_ctx *ctx, const struct mlx_nl_group *g, struct mlx_event_stream *es)
{
	memset(es, 0, sizeof(*es));
	es->fd = -1;
	return ctx->kops->event_stream(ctx, g, es);
}

int mlx_kernel_boot_time(struct mlx_ctx *ctx, uint64_t *us)
{
	*us = 0;
	return ctx->kops->boot_time(ctx, us);
}

int mlx_kmsg_read(struct mlx_ctx *ctx, char **text, size_t *len, const char **source)
{
	*text = NULL;
	*len = 0;
	*source = NULL;
	return ctx->kops->kmsg_read(ctx, text, len, source);
}

int mlx_self_path(char *buf, size_t len)
{
	/* The process's own binary is always the live kernel's to say. */
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	if (n < 0)
		return -errno;
	if ((size_t)n >= len - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return 0;
}
