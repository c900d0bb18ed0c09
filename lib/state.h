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
#include "write.h"

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

/*
 * The two defaults in the write engine (lib/write.h): "default_roce_mode"
 * (a string: "IB/RoCE v1", "RoCE v2", the kernel's names) and
 * "default_roce_tos" (uint 0-255).  The group must exist: the engine's
 * read fails with -EOPNOTSUPP naming the mkdir that makes it; apply never
 * creates one (an rmdir would then be part of a put-back).
 */
enum mlx_roce_cm_setting { MLX_ROCE_CM_MODE, MLX_ROCE_CM_TOS };

struct mlx_roce_cm_writer {
	const char *rdma_dev;
	unsigned port;
	const char *on;           /* the port in messages */
	char dev_buf[64];         /* a netdev's RDMA port (--any-netdev): rdma_dev's name */
};

extern const struct mlx_write_ops mlx_roce_cm_write_ops;
int mlx_roce_cm_plan_add(struct mlx_plan *pl, enum mlx_roce_cm_setting s, struct mlx_val v);

#endif /* MLX_STATE_H */
