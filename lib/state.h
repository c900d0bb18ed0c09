/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The facts of `mlxcli state` that no other feature reads (issue 19): the
 * RDMA connection manager's per-port RoCE defaults, which the kernel keeps
 * in configfs (drivers/infiniband/core/cma_configfs.c), where cma_roce_mode
 * and cma_roce_tos (the scripts fleets run today) write them.
 */
#ifndef MLX_STATE_H
#define MLX_STATE_H

#include <stdint.h>

#include "mlx.h"

struct mlx_roce_cm {
	char mode[24];     /* "RoCE v2", "IB/RoCE v1"; "" unknown */
	int tos;           /* 0-255; -1 unknown */
};

/*
 * Read <configfs>/rdma_cm/<rdma_dev>/ports/<port>/default_roce_mode and
 * default_roce_tos.  The directory exists only once someone made it (mkdir
 * in configfs), so absent is the normal case: the fields stay unknown and
 * the return is -ENOENT.  -EINVAL for a name that is not a safe path part.
 */
int mlx_roce_cm_get(struct mlx_ctx *ctx, const char *rdma_dev, unsigned port,
		    struct mlx_roce_cm *cm);

#endif /* MLX_STATE_H */
