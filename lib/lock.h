/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Serialise writers of one device (DESIGN.md "Writes"): an exclusive
 * flock(2) on /run/lock/mlxcli-<bdf>.lock of the target system, so under
 * --sysroot (and --sample) the lock lives inside that tree.
 */
#ifndef MLX_LOCK_H
#define MLX_LOCK_H

#include "mlx.h"

/*
 * Take the lock of device @bdf, waiting for another holder.  On success
 * *fd is the open lock file: close(2) releases it.  0 or -errno (with
 * mlx_errmsg naming the lock file).
 */
int mlx_lock_device(struct mlx_ctx *ctx, const char *bdf, int *fd);

#endif
