/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tree.h"

static int copy_file(const char *src, const char *dst, mode_t mode)
{
	char buf[65536];
	int in, out, r = 0;
	ssize_t n;

	in = open(src, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (in < 0)
		return -errno;
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

int mlx_tree_remove(const char *path)
{
	char child[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *dir;
	int r = 0;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) < 0 ? -errno : 0;
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		int e;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (snprintf(child, sizeof(child), "%s/%s", path, de->d_name) >= (int)sizeof(child)) {
			r = r ? r : -ENAMETOOLONG;
			continue;
		}
		e = mlx_tree_remove(child);
		if (e < 0 && r == 0)
			r = e;
	}
	closedir(dir);
	if (rmdir(path) < 0 && r == 0)
		r = -errno;
	return r;
}
