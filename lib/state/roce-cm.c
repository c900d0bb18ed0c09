/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RDMA CM's RoCE defaults in configfs (lib/state.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"

#define CM_DIR "/sys/kernel/config/rdma_cm"

int mlx_roce_cm_get(struct mlx_ctx *ctx, const char *rdma_dev, unsigned port,
		    struct mlx_roce_cm *cm)
{
	char path[200];
	uint64_t tos;

	cm->mode[0] = '\0';
	cm->tos = -1;
	if (!rdma_dev || !mlx_name_is_safe(rdma_dev))
		return -EINVAL;
	snprintf(path, sizeof(path), CM_DIR "/%s/ports/%u/default_roce_mode", rdma_dev, port);
	if (mlx_read_str(ctx, path, cm->mode, sizeof(cm->mode)) < 0)
		cm->mode[0] = '\0';
	snprintf(path, sizeof(path), CM_DIR "/%s/ports/%u/default_roce_tos", rdma_dev, port);
	if (mlx_read_u64(ctx, path, &tos) == 0 && tos <= 255)
		cm->tos = (int)tos;
	mlx_err_clear(ctx);
	return cm->mode[0] || cm->tos >= 0 ? 0 : -ENOENT;
}
