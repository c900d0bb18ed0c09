/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Incident folders as evidence: lib/incident.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "incident.h"
#include "mlx-private.h"
#include "sha256.h"

/* Parsed, not searched for one spelling: a manifest written on one line,
 * or by a later version with other spacing, is evidence still. */
bool mlx_incident_manifest_is(const char *text, size_t len)
{
	json_t *m = json_loadb(text, len, 0, NULL);
	const char *format = json_string_value(json_object_get(m, "format"));
	bool dmn = format && !strcmp(format, "mlxcli-dmn");

	json_decref(m);
	return dmn;
}

/* @dir holds a dump-me-now manifest: a regular file, read without
 * following a link or waiting on a FIFO. */
static bool is_incident(const char *dir)
{
	char path[PATH_MAX], *buf;
	struct stat st;
	ssize_t n;
	bool dmn;
	int fd;

	if (snprintf(path, sizeof(path), "%s/manifest.json", strcmp(dir, "/") ? dir : "") >=
	    (int)sizeof(path))
		return false;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return false;
	/* a manifest lists an incident's items: kilobytes, never megabytes */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    st.st_size > 4 << 20 || !(buf = malloc((size_t)st.st_size))) {
		close(fd);
		return false;
	}
	n = read(fd, buf, (size_t)st.st_size);
	close(fd);
	dmn = n > 0 && mlx_incident_manifest_is(buf, (size_t)n);
	free(buf);
	return dmn;
}

/* Walk up from @canon (absolute, resolved) to @stop (a prefix of it, or
 * "/"); the first incident folder found, malloc'ed. */
static char *walk_up(const char *canon, const char *stop)
{
	char d[PATH_MAX];
	size_t stop_len = strcmp(stop, "/") ? strlen(stop) : 1;

	if (strlen(canon) >= sizeof(d))
		return NULL;
	strcpy(d, canon);
	for (;;) {
		char *slash;

		if (is_incident(d))
			return strdup(d);
		if (strlen(d) <= stop_len)
			return NULL;
		slash = strrchr(d, '/');
		if (!slash)
			return NULL;
		if (slash == d)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
}

/* The octal escapes of /proc/self/mountinfo (\040 a space, show_path). */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

struct mnt {
	char dev[32], root[PATH_MAX], mp[PATH_MAX];
};

static bool prefix_of(const char *p, const char *s, size_t *n)
{
	size_t l = strcmp(p, "/") ? strlen(p) : 0;

	if (strncmp(p, s, l) || (s[l] && s[l] != '/'))
		return false;
	*n = l;
	return true;
}

/*
 * A bind mount shows a folder of a file system somewhere else: the path
 * there has no incident above it, though the folder is inside one.  From
 * the mount @canon is on (the longest mount point above it), the path in
 * its file system ("root" field + the rest); from every other mount of the
 * same file system whose root holds that path, the path there, walked up.
 */
static char *through_mounts(const char *canon)
{
	struct mnt *v = NULL, *nv;
	size_t n = 0, cap = 0, best = (size_t)-1, best_len = 0, l;
	char line[3 * PATH_MAX], fsrel[PATH_MAX], alias[PATH_MAX];
	char *found = NULL;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char dev[32], root[PATH_MAX], mp[PATH_MAX];

		/* "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 ..." */
		if (sscanf(line, "%*u %*u %31s %4095s %4095s", dev, root, mp) != 3)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		snprintf(v[n].dev, sizeof(v[n].dev), "%s", dev);
		unescape(root);
		unescape(mp);
		snprintf(v[n].root, sizeof(v[n].root), "%s", root);
		snprintf(v[n].mp, sizeof(v[n].mp), "%s", mp);
		/* the last mount on a point is the one seen */
		if (prefix_of(mp, canon, &l) && (best == (size_t)-1 || l >= best_len)) {
			best = n;
			best_len = l;
		}
		n++;
	}
	fclose(f);
	if (best == (size_t)-1 || !strcmp(v[best].root, "/"))
		goto out;
	if (snprintf(fsrel, sizeof(fsrel), "%s%s", v[best].root, canon + best_len) >= (int)sizeof(fsrel))
		goto out;
	for (size_t i = 0; i < n && !found; i++) {
		if (i == best || strcmp(v[i].dev, v[best].dev) || !prefix_of(v[i].root, fsrel, &l))
			continue;
		if (snprintf(alias, sizeof(alias), "%s%s", strcmp(v[i].mp, "/") ? v[i].mp : "",
			     fsrel + l) >= (int)sizeof(alias))
			continue;
		if (!alias[0])
			strcpy(alias, "/");
		if (strcmp(alias, canon))
			found = walk_up(alias, v[i].mp);
	}
out:
	free(v);
	return found;
}

char *mlx_incident_of(const char *path)
{
	char buf[PATH_MAX], *canon = NULL, *found;

	if (!path || !*path || strlen(path) >= sizeof(buf))
		return NULL;
	strcpy(buf, path);
	/* the deepest folder that exists: what would be made goes there */
	for (;;) {
		char *slash;

		canon = realpath(buf, NULL);
		if (canon)
			break;
		slash = strrchr(buf, '/');
		if (!slash) {
			canon = realpath(".", NULL);
			break;
		}
		if (slash == buf) {
			canon = strdup("/");
			break;
		}
		*slash = '\0';
	}
	if (!canon)
		return NULL;
	found = walk_up(canon, "/");
	if (!found)
		found = through_mounts(canon);
	free(canon);
	return found;
}

int mlx_incident_guard(struct mlx_ctx *ctx, const char *path)
{
	char *inc = mlx_incident_of(path);
	int r;

	if (!inc)
		return 0;
	r = mlx_err(ctx, EROFS, "'%s' is inside the dump-me-now incident '%s': an incident folder "
		    "is evidence and mlxcli never writes into it; give a path outside it", path, inc);
	free(inc);
	return r;
}

int mlx_incident_root_guard(struct mlx_ctx *ctx, const char *dir, bool named)
{
	/* the boundary's answer: a captured system's target name is its root */
	if (!named && strcmp(mlx_target_name(ctx), "live"))
		return mlx_err(ctx, EINVAL, "the incidents of a captured system (%s) need a dump root of "
			       "their own: '%s' holds this host's", mlx_target_name(ctx), dir);
	return mlx_incident_guard(ctx, dir);
}

/* ---- the tree hash ---- */

static int hash_file(int dfd, const char *name, char hex[65])
{
	struct mlx_sha256 s;
	uint8_t d[32], buf[65536];
	struct stat st;
	ssize_t n;
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	mlx_sha256_init(&s);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return (int)n;
		}
		mlx_sha256_update(&s, buf, (size_t)n);
	}
	close(fd);
	mlx_sha256_final(&s, d);
	mlx_sha256_hex(d, hex);
	return 0;
}

static int hash_dir(struct mlx_sha256 *s, int dfd, const char *rel, int depth)
{
	char **names;
	size_t n;
	int r;

	if (depth > 64)
		return -ELOOP;
	r = mlx_dir_names(dfd, &names, &n);
	for (size_t i = 0; i < n && r == 0; i++) {
		char path[PATH_MAX], target[PATH_MAX], line[3 * PATH_MAX], hex[65];
		struct stat st;
		ssize_t tl;
		int sub;

		snprintf(path, sizeof(path), "%s%s%s", rel, *rel ? "/" : "", names[i]);
		if (fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0) {
			r = -errno;
			break;
		}
		if (S_ISDIR(st.st_mode)) {
			snprintf(line, sizeof(line), "d %s\n", path);
			mlx_sha256_update(s, line, strlen(line));
			sub = openat(dfd, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0) {
				r = -errno;
				break;
			}
			r = hash_dir(s, sub, path, depth + 1);
			close(sub);
		} else if (S_ISLNK(st.st_mode)) {
			tl = readlinkat(dfd, names[i], target, sizeof(target) - 1);
			if (tl < 0) {
				r = -errno;
				break;
			}
			target[tl] = '\0';
			snprintf(line, sizeof(line), "l %s %s\n", path, target);
			mlx_sha256_update(s, line, strlen(line));
		} else if (S_ISREG(st.st_mode)) {
			r = hash_file(dfd, names[i], hex);
			snprintf(line, sizeof(line), "f %s %s\n", path, r == 0 ? hex : "");
			mlx_sha256_update(s, line, strlen(line));
		} else {
			snprintf(line, sizeof(line), "o %s\n", path);
			mlx_sha256_update(s, line, strlen(line));
		}
	}
	mlx_strv_free(names);
	return r;
}

int mlx_tree_sha256(const char *path, char hex[65])
{
	struct mlx_sha256 s;
	uint8_t d[32];
	int fd, r;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	mlx_sha256_init(&s);
	r = hash_dir(&s, fd, "", 0);
	close(fd);
	if (r < 0)
		return r;
	mlx_sha256_final(&s, d);
	mlx_sha256_hex(d, hex);
	return 0;
}
