/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RDMA CM's RoCE defaults in configfs (lib/state.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlx-private.h"
#include "state.h"

#define CM_DIR "/sys/kernel/config/rdma_cm"

int mlx_rdma_cm_path(char *buf, size_t len, const char *rdma_dev, unsigned port, const char *file)
{
	if (!rdma_dev || !*rdma_dev || !mlx_name_is_safe(rdma_dev) || !mlx_name_is_safe(file))
		return -EINVAL;
	return snprintf(buf, len, CM_DIR "/%s/ports/%u/%s", rdma_dev, port, file) >= (int)len ?
		       -ENAMETOOLONG : 0;
}

int mlx_roce_cm_get(struct mlx_ctx *ctx, const char *rdma_dev, unsigned port,
		    struct mlx_roce_cm *cm)
{
	char path[200];
	uint64_t tos;

	cm->mode[0] = '\0';
	cm->tos = -1;
	if (mlx_rdma_cm_path(path, sizeof(path), rdma_dev, port, "default_roce_mode") < 0)
		return -EINVAL;
	if (mlx_read_str(ctx, path, cm->mode, sizeof(cm->mode)) < 0)
		cm->mode[0] = '\0';
	mlx_rdma_cm_path(path, sizeof(path), rdma_dev, port, "default_roce_tos");
	if (mlx_read_u64(ctx, path, &tos) == 0 && tos <= 255)
		cm->tos = (int)tos;
	mlx_err_clear(ctx);
	return cm->mode[0] || cm->tos >= 0 ? 0 : -ENOENT;
}

/* ---- the write engine's side (lib/state.h) ---- */

static const char *const cm_file[] = {
	[MLX_ROCE_CM_MODE] = "default_roce_mode",
	[MLX_ROCE_CM_TOS] = "default_roce_tos",
};

int mlx_roce_cm_plan_add(struct mlx_plan *pl, enum mlx_roce_cm_setting s, struct mlx_val v)
{
	return mlx_plan_add(pl, cm_file[s], NULL, (int)s, 0, v);
}

static int cm_path(struct mlx_ctx *ctx, const struct mlx_roce_cm_writer *w, int s, char *buf,
		   size_t len)
{
	if (mlx_rdma_cm_path(buf, len, w->rdma_dev, w->port, cm_file[s]) < 0)
		return mlx_err(ctx, EINVAL, "no RDMA device: no RDMA CM defaults");
	return 0;
}

static int cm_read(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		   struct mlx_val *out)
{
	struct mlx_roce_cm_writer *w = feat;
	char path[200], buf[32];
	uint64_t tos;
	int r = cm_path(ctx, w, c->id, path, sizeof(path));

	if (r < 0)
		return r;
	if (!mlx_exists(ctx, path))
		return mlx_err(ctx, EOPNOTSUPP, "%s has no RDMA CM defaults in configfs (mkdir "
			       CM_DIR "/%s makes them, as cma_roce_mode does)", w->rdma_dev,
			       w->rdma_dev);
	if (c->id == MLX_ROCE_CM_MODE) {
		r = mlx_read_str(ctx, path, buf, sizeof(buf));
		if (r == 0)
			*out = mlx_val_str(buf);
		return r;
	}
	r = mlx_read_u64(ctx, path, &tos);
	if (r == 0)
		*out = mlx_val_uint(tos);
	return r;
}

static int cm_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		    const struct mlx_val *v)
{
	char path[200], buf[MLX_VAL_STR_MAX + 2];
	int r = cm_path(ctx, feat, c->id, path, sizeof(path));

	if (r < 0)
		return r;
	/* unknown before (null): nothing to put back */
	if (v->kind == MLX_VAL_NULL)
		return 0;
	if (v->kind == MLX_VAL_STR)
		snprintf(buf, sizeof(buf), "%s\n", v->s);
	else
		snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)v->u);
	return mlx_kernel_write(ctx, path, buf);
}

const struct mlx_write_ops mlx_roce_cm_write_ops = {
	.read = cm_read,
	.write = cm_write,
};
