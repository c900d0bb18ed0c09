/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Serialise writers of one device (DESIGN.md "Writes"): an exclusive
 * flock(2) on /run/mlxcli/<bdf>.lock on the live system: a directory only
 * root may create files in (0755, root's), each lock a 0600 file of root's
 * opened read-write, so no other user can hold it and hang root's writes.  A captured
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
 * Take the lock of device @bdf, waiting for another holder at most the
 * context's wait (mlx_lock_set_wait), saying so (a warning through the
 * log sink, with the holder's PID when /proc/locks tells it).  On success
 * *fd is the open lock file: close(2) releases it.  0, -ETIMEDOUT (the
 * story names the holder), or -errno (with mlx_errmsg naming the lock
 * file); -EACCES for a user who may not write the live system.  Several
 * devices: one call each, in address order (no deadlock between two
 * writers).
 */
int mlx_lock_device(struct mlx_ctx *ctx, const char *bdf, int *fd);

/* How long mlx_lock_device() waits for another holder: milliseconds, 0
 * not at all, -1 without a limit; MLX_LOCK_WAIT_DEFAULT_MS until set.
 * 0 or -EINVAL. */
#define MLX_LOCK_WAIT_DEFAULT_MS 30000
int mlx_lock_set_wait(struct mlx_ctx *ctx, int ms);
int mlx_lock_get_wait(const struct mlx_ctx *ctx);

#endif
