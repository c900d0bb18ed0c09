/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writes under the root prefix (DESIGN.md "The root prefix"): a sysfs
 * store on the running kernel, and on a captured system the replacement of
 * a file and the changes an emulator makes to the tree (mkdir, symlink,
 * unlink, rename, removal), each resolved inside the root as every read is
 * (lib/core/rootfs.c opens; this file changes).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal.h"
#include "mlx-private.h"
#include "tree.h"

/*
 * mlx_write_str on a captured system (boundary-captured.c's store).  Under
 * --sysroot the file is the attribute: like a sysfs store, a write takes
 * the whole value or leaves the old one.  The file is replaced (a new
 * inode renamed over it), never written in place: a capture hard-linked
 * from another (cp -al of an incident's snapshot) shares its inodes, and
 * a write in place would change the other one too.  It must exist, as a
 * sysfs attribute must.
 */
int mlx_store_captured(struct mlx_ctx *ctx, const char *path, const char *val)
{
	int fd, r;

	r = mlx_may_write(ctx);
	if (r < 0)
		return r;
	fd = mlx_open(ctx, path, O_PATH, 0);
	if (fd < 0)
		return fd;
	close(fd);
	return mlx_replace_file(ctx, path, val, strlen(val));
}

/* mlx_write_str on the running kernel (boundary-live.c's store). */
int mlx_store_sysfs(struct mlx_ctx *ctx, const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t r;
	int fd;

	fd = mlx_open(ctx, path, O_WRONLY, 0);
	if (fd < 0)
		return fd;
	/* sysfs takes one write(2) per value; a short write is a failure. */
	do
		r = write(fd, val, len);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		r = -errno;
		close(fd);
		return (int)r;
	}
	if (close(fd) < 0)
		return -errno;
	return (size_t)r == len ? 0 : -EIO;
}

/*
 * Replace @path (a target path) as one step: the bytes go to a new file
 * beside it (O_CREAT|O_EXCL|O_NOFOLLOW), renamed over the old one, so a
 * failure at any point leaves the old file as it was and a reader never
 * sees it empty or half-written.  An existing file this user may not
 * write is refused (EACCES), as writing it in place would be.
 */
int mlx_replace_file(struct mlx_ctx *ctx, const char *path, const void *data, size_t len)
{
	char dir[PATH_MAX], tmp[NAME_MAX + 1];
	const char *slash = strrchr(path, '/');
	const char *base;
	struct stat st;
	mode_t fmode = 0644;
	size_t off = 0;
	int dfd, fd, r = 0;

	if (!slash || slash == path || (size_t)(slash - path) >= sizeof(dir) || !slash[1])
		return -EINVAL;
	r = mlx_may_write(ctx);
	if (r == 0)
		r = mlx_journal_file(ctx, path);   /* a transaction's undo log */
	if (r < 0)
		return r;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	base = slash + 1;
	if (snprintf(tmp, sizeof(tmp), ".%s.%ld.%u.tmp", base, (long)getpid(), ctx->tmp_seq++) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	dfd = mlx_open(ctx, dir, O_PATH | O_DIRECTORY, 0);
	if (dfd < 0)
		return dfd;
	if (faccessat(dfd, base, W_OK, AT_EACCESS) < 0 && (errno == EACCES || errno == EROFS)) {
		r = -errno;
		goto out;
	}
	/* the new file keeps the old one's mode (a read-only or write-only
	 * attribute stays one) */
	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
		fmode = st.st_mode & 07777;
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, fmode);
	if (fd >= 0 && fmode != 0644 && fchmod(fd, fmode) < 0) {   /* past the umask */
		r = -errno;
		close(fd);
		unlinkat(dfd, tmp, 0);
		goto out;
	}
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	while (off < len) {
		ssize_t w = write(fd, (const char *)data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			r = w < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)w;
	}
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dfd, tmp, dfd, base) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(dfd, tmp, 0);
out:
	close(dfd);
	return r;
}

/* ---- changes to a captured tree, each inside the root (mlx.h) ---- */

/* The parent of @path opened inside the root, the last component in
 * *base: a name, never "." or "..". */
static int change_parent(struct mlx_ctx *ctx, const char *path, const char **base)
{
	int r = mlx_may_write(ctx);

	if (r < 0)
		return r;
	r = mlx_open_parent(ctx, path, base);
	if (r >= 0 && !mlx_name_is_safe(*base)) {
		close(r);
		return -EINVAL;
	}
	return r;
}

int mlx_mkdir(struct mlx_ctx *ctx, const char *path, mode_t mode)
{
	const char *base;
	int dfd = change_parent(ctx, path, &base), r;

	if (dfd < 0)
		return dfd;
	r = mkdirat(dfd, base, mode) < 0 ? -errno : 0;
	close(dfd);
	return r;
}

int mlx_symlink(struct mlx_ctx *ctx, const char *target, const char *path)
{
	const char *base;
	int dfd = change_parent(ctx, path, &base), r;

	if (dfd < 0)
		return dfd;
	r = symlinkat(target, dfd, base) < 0 ? -errno : 0;
	close(dfd);
	return r;
}

int mlx_unlink(struct mlx_ctx *ctx, const char *path)
{
	const char *base;
	int dfd = change_parent(ctx, path, &base), r;

	if (dfd < 0)
		return dfd;
	r = unlinkat(dfd, base, 0) < 0 ? -errno : 0;
	close(dfd);
	return r;
}

int mlx_rename(struct mlx_ctx *ctx, const char *from, const char *to)
{
	const char *b1, *b2;
	int d1, d2, r;

	d1 = change_parent(ctx, from, &b1);
	if (d1 < 0)
		return d1;
	d2 = change_parent(ctx, to, &b2);
	if (d2 < 0) {
		close(d1);
		return d2;
	}
	r = renameat(d1, b1, d2, b2) < 0 ? -errno : 0;
	close(d1);
	close(d2);
	return r;
}

int mlx_remove_tree(struct mlx_ctx *ctx, const char *path)
{
	const char *base;
	int dfd = change_parent(ctx, path, &base), r;

	if (dfd == -ENOENT)
		return 0;
	if (dfd < 0)
		return dfd;
	r = mlx_tree_remove_at(dfd, base);
	close(dfd);
	return r;
}
