/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Serialise writers of one device (DESIGN.md "Writes"): an exclusive
 * flock(2) on /run/lock/mlxcli-<bdf>.lock on the live system.  A captured
 * system (--sysroot, --sample) gets no file inside it: its locks are in
 * this user's runtime directory (mlx_ctx_set_runtime_dir(), else
 * /run/user/UID, each + "/mlxcli"; else /tmp/mlxcli-UID; mode 0700),
 * named capture-<sha256 of its canonical path, 32 hex>-<bdf>.lock.
 * The root of an incident's snapshot is evidence: the lock is refused
 * (-EROFS, the story in mlx_errmsg), so no write begins.
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
