/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mlx.h"
#include "tree.h"

static int copy_file(const char *src, const char *dst, mode_t mode)
{
	char buf[65536];
	struct stat st;
	int in, out, r = 0;
	ssize_t n;

	/* lstat() said a regular file; it may have become a FIFO since */
	in = open(src, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (in < 0)
		return -errno;
	if (fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(in);
		return -EINVAL;
	}
	/* Owner-writable, so that writes to a sample's working copy work
	 * even when the pristine files are read-only (an installed tree). */
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode & 07777) | 0200);
	if (out < 0) {
		r = -errno;
		close(in);
		return r;
	}
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));

			if (w < 0) {
				if (errno == EINTR)
					continue;
				r = -errno;
				goto done;
			}
			off += w;
		}
	}
done:
	close(in);
	if (close(out) < 0 && r == 0)
		r = -errno;
	return r;
}

int mlx_tree_copy(const char *src, const char *dst)
{
	char s[PATH_MAX], d[PATH_MAX], target[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *dir;
	int r = 0;

	if (lstat(src, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (mkdir(dst, (st.st_mode & 07777) | 0700) < 0)
		return -errno;
	dir = opendir(src);
	if (!dir)
		return -errno;
	while (r == 0 && (de = readdir(dir))) {
		ssize_t n;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (snprintf(s, sizeof(s), "%s/%s", src, de->d_name) >= (int)sizeof(s) ||
		    snprintf(d, sizeof(d), "%s/%s", dst, de->d_name) >= (int)sizeof(d)) {
			r = -ENAMETOOLONG;
			break;
		}
		if (lstat(s, &st) < 0) {
			r = -errno;
			break;
		}
		if (S_ISDIR(st.st_mode)) {
			r = mlx_tree_copy(s, d);
		} else if (S_ISLNK(st.st_mode)) {
			n = readlink(s, target, sizeof(target) - 1);
			if (n < 0) {
				r = -errno;
				break;
			}
			target[n] = '\0';
			if (symlink(target, d) < 0)
				r = -errno;
		} else if (S_ISREG(st.st_mode)) {
			r = copy_file(s, d, st.st_mode);
		}
	}
	closedir(dir);
	return r;
}

/*
 * rm -rf of the entry @name of the directory @dfd, by descriptors: each
 * directory is opened from its parent's fd with O_NOFOLLOW, each entry
 * removed by name from the directory holding it, so a link (of a
 * capture, or one swapped in meanwhile) is removed as a link and never
 * leads the removal elsewhere; another file system mounted inside is
 * not entered (rm --one-file-system).  @dev: the file system of the top.
 */
#define REMOVE_MAX_DEPTH 256

static int remove_at(int dfd, const char *name, dev_t dev, int depth)
{
	struct stat st;
	char **names;
	size_t n;
	int fd, r;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dfd, name, 0) < 0 && errno != ENOENT ? -errno : 0;
	if (st.st_dev != dev)
		return -EXDEV;
	if (depth >= REMOVE_MAX_DEPTH)
		return -ELOOP;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* the names first: removing entries while the directory is read
	 * may skip some */
	r = mlx_dir_names(fd, &names, &n);
	for (size_t i = 0; i < n && r == 0; i++)
		r = remove_at(fd, names[i], dev, depth + 1);
	mlx_strv_free(names);
	close(fd);
	if (r == 0 && unlinkat(dfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		r = -errno;
	return r;
}

int mlx_tree_remove_at(int dfd, const char *name)
{
	struct stat st;

	if (!*name || !strcmp(name, ".") || !strcmp(name, "..") || strchr(name, '/'))
		return -EINVAL;
	if (fstat(dfd, &st) < 0)
		return -errno;
	return remove_at(dfd, name, st.st_dev, 0);
}

int mlx_tree_remove(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int dfd, r;

	if (!slash) {
		strcpy(dir, ".");
		slash = path - 1;
	} else if (slash == path) {
		strcpy(dir, "/");
	} else {
		if ((size_t)(slash - path) >= sizeof(dir))
			return -ENAMETOOLONG;
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
	}
	dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return errno == ENOENT ? 0 : -errno;
	r = mlx_tree_remove_at(dfd, slash + 1);
	close(dfd);
	return r;
}
