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
#include "sha256.h"

/* A directory of this user's that no one else may write: a lock there
 * cannot be replaced or held by another user. */
static bool private_dir(const char *path, uid_t uid)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == uid &&
	       !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/*
 * Where the locks of captured systems live: never inside the capture (an
 * incident's snapshot is evidence; a capture may be read-only or shared),
 * but in this user's runtime directory: the one cmd/ passed
 * ($XDG_RUNTIME_DIR), else /run/user/UID (systemd-logind makes it, 0700),
 * each with an "mlxcli" folder; else /tmp/mlxcli-UID.  The folder is made
 * 0700 and must be this user's and private.
 */
static int lock_dir_path(struct mlx_ctx *ctx, char *buf, size_t len)
{
	uid_t uid = geteuid();
	char run_user[64];
	const char *rt = NULL;
	int n;

	snprintf(run_user, sizeof(run_user), "/run/user/%u", (unsigned)uid);
	if (ctx->runtime_dir && ctx->runtime_dir[0] == '/' && private_dir(ctx->runtime_dir, uid))
		rt = ctx->runtime_dir;
	else if (private_dir(run_user, uid))
		rt = run_user;
	n = rt ? snprintf(buf, len, "%s/mlxcli", rt) : snprintf(buf, len, "/tmp/mlxcli-%u", (unsigned)uid);
	if (n < 0 || (size_t)n >= len)
		return mlx_err(ctx, ENAMETOOLONG, "the runtime directory '%s' is too long", rt);
	return 0;
}

static int lock_dir(struct mlx_ctx *ctx, char *buf, size_t len)
{
	uid_t uid = geteuid();
	int r = lock_dir_path(ctx, buf, len);

	if (r < 0)
		return r;
	if (mkdir(buf, 0700) < 0 && errno != EEXIST)
		return mlx_err(ctx, errno, "cannot create the lock directory '%s': %s", buf, strerror(errno));
	if (!private_dir(buf, uid))
		return mlx_err(ctx, EPERM, "the lock directory '%s' is not a private directory of this "
			       "user (uid %u, not writable by others)", buf, (unsigned)uid);
	return 0;
}

int mlx_lock_dir(struct mlx_ctx *ctx, char *buf, size_t len, bool make)
{
	return make ? lock_dir(ctx, buf, len) : lock_dir_path(ctx, buf, len);
}

void mlx_capture_key(struct mlx_ctx *ctx, char *buf, size_t len)
{
	struct mlx_sha256 s;
	uint8_t d[32];
	char hex[65];

	mlx_sha256_init(&s);
	mlx_sha256_update(&s, ctx->canon, strlen(ctx->canon));
	mlx_sha256_final(&s, d);
	mlx_sha256_hex(d, hex);
	snprintf(buf, len, "capture-%.32s", hex);
}

/* The lock file of @bdf on the target: the live system's /run/lock, or
 * one per captured system (its canonical path, hashed) and device. */
static int lock_open(struct mlx_ctx *ctx, const char *bdf, char *file, size_t len)
{
	struct mlx_sha256 s;
	uint8_t d[32];
	char dir[PATH_MAX], hex[65];
	int f, r;

	if (ctx->live) {
		snprintf(file, len, "/run/lock/mlxcli-%s.lock", bdf);
		/* Read-only is enough for flock(2), and lets every user open a
		 * lock file root created first. */
		f = mlx_open(ctx, file, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
		return f < 0 ? mlx_err(ctx, -f, "cannot open the lock file '%s': %s", file, strerror(-f)) : f;
	}
	r = lock_dir(ctx, dir, sizeof(dir));
	if (r < 0)
		return r;
	mlx_sha256_init(&s);
	mlx_sha256_update(&s, ctx->canon, strlen(ctx->canon));
	mlx_sha256_final(&s, d);
	mlx_sha256_hex(d, hex);
	if (snprintf(file, len, "%s/capture-%.32s-%s.lock", dir, hex, bdf) >= (int)len)
		return mlx_err(ctx, ENAMETOOLONG, "the lock file name under '%s' is too long", dir);
	f = open(file, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	return f < 0 ? mlx_err(ctx, errno, "cannot open the lock file '%s': %s", file, strerror(errno)) : f;
}

int mlx_lock_device(struct mlx_ctx *ctx, const char *bdf, int *fd)
{
	char file[PATH_MAX];
	int r, f;

	*fd = -1;
	/* Every write takes the lock first: the place to refuse evidence. */
	r = mlx_may_write(ctx);
	if (r < 0)
		return r;
	if (!mlx_name_is_safe(bdf))
		return mlx_err(ctx, EINVAL, "invalid device name '%s' for a lock file", bdf);
	f = lock_open(ctx, bdf, file, sizeof(file));
	if (f < 0)
		return f;
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
