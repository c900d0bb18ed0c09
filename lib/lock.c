/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lock.h"
#include "mlx-private.h"

int mlx_lock_device(struct mlx_ctx *ctx, const char *bdf, int *fd)
{
	char dir[PATH_MAX], file[80];
	int r, f;

	*fd = -1;
	if (!mlx_name_is_safe(bdf))
		return mlx_err(ctx, EINVAL, "invalid device name '%s' for a lock file", bdf);
	/* /run/lock is there on a live system (FHS); a captured tree gets one
	 * with the live mode, 1777, so any user that may write the device may
	 * also take its lock. */
	if (!ctx->live) {
		const char *const parts[] = { "/run", "/run/lock" };

		for (size_t i = 0; i < 2; i++) {
			r = mlx_path(ctx, dir, sizeof(dir), "%s", parts[i]);
			if (r < 0)
				return r;
			if (mkdir(dir, 0755) == 0)
				chmod(dir, i ? 01777 : 0755);
			else if (errno != EEXIST)
				return mlx_err(ctx, errno, "cannot create the lock directory '%s': %s",
					       dir, strerror(errno));
		}
	}
	snprintf(file, sizeof(file), "/run/lock/mlxcli-%s.lock", bdf);
	/* Read-only is enough for flock(2), and lets every user open a lock
	 * file root created first. */
	f = mlx_open(ctx, file, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (f < 0)
		return mlx_err(ctx, -f, "cannot open the lock file '%s': %s", file, strerror(-f));
	do
		r = flock(f, LOCK_EX);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		r = errno;
		close(f);
		return mlx_err(ctx, r, "cannot lock '%s': %s", file, strerror(r));
	}
	*fd = f;
	return 0;
}
