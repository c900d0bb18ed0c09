/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Dump Me Now incident folders: see dmn.h. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dmn.h"
#include "tree.h"

/* ---- configuration ---- */

int mlx_conf_parse(const char *text, size_t len, mlx_conf_cb cb, void *arg, size_t *bad_line,
		   char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	size_t line = 0;

	*bad_line = 0;
	if (errlen)
		err[0] = '\0';
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		const char *k, *ke, *eq, *v, *ve;
		char key[64], val[4096];
		int r;

		if (!e)
			e = end;
		line++;
		k = p;
		p = e + (e < end);
		while (k < e && isspace((unsigned char)*k))
			k++;
		if (k == e || *k == '#')
			continue;
		if (memchr(k, '\0', (size_t)(e - k))) {
			snprintf(err, errlen, "a NUL byte in the line");
			goto bad;
		}
		eq = memchr(k, '=', (size_t)(e - k));
		if (!eq) {
			snprintf(err, errlen, "expected 'key=value'");
			goto bad;
		}
		ke = eq;
		while (ke > k && isspace((unsigned char)ke[-1]))
			ke--;
		if (ke == k || (size_t)(ke - k) >= sizeof(key)) {
			snprintf(err, errlen, "%s key", ke == k ? "an empty" : "a too long");
			goto bad;
		}
		for (const char *c = k; c < ke; c++)
			if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '_')) {
				snprintf(err, errlen, "a key is made of a-z, 0-9 and '_'");
				goto bad;
			}
		v = eq + 1;
		ve = e;
		while (v < ve && isspace((unsigned char)*v))
			v++;
		while (ve > v && isspace((unsigned char)ve[-1]))
			ve--;
		if ((size_t)(ve - v) >= sizeof(val)) {
			snprintf(err, errlen, "the value is too long");
			goto bad;
		}
		memcpy(key, k, (size_t)(ke - k));
		key[ke - k] = '\0';
		memcpy(val, v, (size_t)(ve - v));
		val[ve - v] = '\0';
		r = cb(key, val, arg);
		if (r < 0) {
			if (errlen && !err[0] && r == -ENOENT)
				snprintf(err, errlen, "unknown key '%s'", key);
			else if (errlen && !err[0])
				snprintf(err, errlen, "invalid value '%s' for '%s'", val, key);
			*bad_line = line;
			return r;
		}
		continue;
bad:
		*bad_line = line;
		return -EINVAL;
	}
	return 0;
}

/* ---- names ---- */

static void component(char *dst, size_t len, const char *src)
{
	size_t n = 0;

	if (!src || !*src)
		src = "NA";
	for (; *src && n + 1 < len && n < 48; src++, n++) {
		unsigned char c = (unsigned char)*src;

		dst[n] = (char)(isalnum(c) || c == '_' || c == '.' ? c : '_');
	}
	dst[n] = '\0';
}

int mlx_dmn_name(char *buf, size_t len, const char *device, const char *type, const char *source,
		 const char *reason, const struct timespec *ts, pid_t pid, unsigned counter)
{
	char d[64], t[64], s[64], r[64];
	struct tm tm;
	int n;

	if (!gmtime_r(&ts->tv_sec, &tm))
		return -EINVAL;
	/* Each cut to what mlx_dmn_name_parse keeps (type and source have
	 * 32-byte fields), or retention would not find the incident again. */
	component(d, sizeof(((struct mlx_dmn_entry *)0)->device), device);
	component(t, sizeof(((struct mlx_dmn_entry *)0)->type), type);
	component(s, sizeof(((struct mlx_dmn_entry *)0)->source), source);
	component(r, sizeof(((struct mlx_dmn_entry *)0)->reason), reason);
	n = snprintf(buf, len, "dmn-%s-%s-%s-%s--%04d.%02d.%02d-%02d.%02d.%02d.%03ld-%ld.%u", d, t, s, r,
		     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		     ts->tv_nsec / 1000000, (long)pid, counter);
	if (n < 0 || (size_t)n >= len || (size_t)n > MLX_DMN_NAME_MAX)
		return -ENAMETOOLONG;
	return 0;
}

/* Copy [p, q) into dst (size len); -EINVAL when empty or too long. */
static int take(char *dst, size_t len, const char *p, const char *q)
{
	if (q <= p || (size_t)(q - p) >= len)
		return -EINVAL;
	memcpy(dst, p, (size_t)(q - p));
	dst[q - p] = '\0';
	return 0;
}

static bool digits(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)p[i]))
			return false;
	return true;
}

/* DDDD_BB_DD.F (hex) -> DDDD:BB:DD.F; "" for anything else. */
static void decode_pci_address(const char *d, char *out, size_t len)
{
	static const char shape[] = "xxxx_xx_xx.x";

	out[0] = '\0';
	if (strlen(d) != sizeof(shape) - 1 || len < sizeof(shape))
		return;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'x' ? !isxdigit((unsigned char)d[i]) : d[i] != shape[i])
			return;
	memcpy(out, d, sizeof(shape));
	out[4] = out[7] = ':';
}

int mlx_dmn_name_parse(const char *name, struct mlx_dmn_entry *e)
{
	const char *sep, *p, *f[4];
	char *endp;
	size_t len = strlen(name);

	memset(e, 0, sizeof(*e));
	if (len > MLX_DMN_NAME_MAX || strncmp(name, "dmn-", 4))
		return -EINVAL;
	/* after the prefix: in "dmn--" the '-' of "dmn-" is not a separator */
	sep = strstr(name + 4, "--");
	if (!sep)
		return -EINVAL;
	/* four components between "dmn-" and "--", separated by '-' */
	p = name + 4;
	for (int i = 0; i < 4; i++) {
		f[i] = p;
		p = memchr(p, '-', (size_t)(sep - p));
		if (i < 3) {
			if (!p)
				return -EINVAL;
			p++;
		}
	}
	if (p)
		return -EINVAL;         /* a fifth '-' before "--" */
	if (take(e->device, sizeof(e->device), f[0], f[1] - 1) ||
	    take(e->type, sizeof(e->type), f[1], f[2] - 1) ||
	    take(e->source, sizeof(e->source), f[2], f[3] - 1) ||
	    take(e->reason, sizeof(e->reason), f[3], sep))
		return -EINVAL;
	decode_pci_address(e->device, e->pci_address, sizeof(e->pci_address));
	/* YYYY.MM.DD-HH.MM.SS.mmm */
	p = sep + 2;
	if (strlen(p) < 25 || !digits(p, 4) || p[4] != '.' || !digits(p + 5, 2) || p[7] != '.' ||
	    !digits(p + 8, 2) || p[10] != '-' || !digits(p + 11, 2) || p[13] != '.' ||
	    !digits(p + 14, 2) || p[16] != '.' || !digits(p + 17, 2) || p[19] != '.' ||
	    !digits(p + 20, 3) || p[23] != '-')
		return -EINVAL;
	memcpy(e->stamp, p, 23);
	e->stamp[23] = '\0';
	p += 24;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	e->pid = strtoul(p, &endp, 10);
	if (errno || *endp != '.' || !isdigit((unsigned char)endp[1]))
		return -EINVAL;
	e->counter = strtoul(endp + 1, &endp, 10);
	if (errno || *endp)
		return -EINVAL;
	snprintf(e->name, sizeof(e->name), "%s", name);
	return 0;
}

int mlx_dmn_entry_cmp(const void *a, const void *b)
{
	const struct mlx_dmn_entry *x = a, *y = b;
	int c = strcmp(x->stamp, y->stamp);

	if (c)
		return c;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->counter != y->counter)
		return x->counter < y->counter ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* ---- retention ---- */

int mlx_dmn_may_create(size_t n, unsigned total, unsigned preserved)
{
	size_t kept_forever = preserved < n ? preserved : n;

	if (!total)
		return -ECANCELED;
	if (n >= total && kept_forever >= total)
		return -ENOSPC;
	return 0;
}

void mlx_dmn_plan(size_t n, unsigned total, unsigned preserved, size_t *first, size_t *count)
{
	/* first never points past the list, so a caller can always hand
	 * [first, first + count) to memmove() (ASan caught first > n). */
	*first = preserved < n ? preserved : n;
	*count = 0;
	if (n <= total || preserved >= total || preserved >= n)
		return;
	*count = n - total;
	/* never the newest (the last) one */
	if (*first + *count > n - 1)
		*count = n - 1 - *first;
}

int mlx_dmn_list(const char *root, struct mlx_dmn_entry **out, size_t *n)
{
	struct mlx_dmn_entry *v = NULL, *nv;
	size_t cnt = 0, cap = 0;
	struct dirent *de;
	int fd, r = 0;
	DIR *d;

	*out = NULL;
	*n = 0;
	fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		r = -errno;
		close(fd);
		return r;
	}
	while ((de = readdir(d))) {
		struct mlx_dmn_entry e;
		struct stat st;

		if (mlx_dmn_name_parse(de->d_name, &e) < 0)
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (cnt == cap) {
			cap = cap ? 2 * cap : 32;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				r = -ENOMEM;
				break;
			}
			v = nv;
		}
		v[cnt++] = e;
	}
	closedir(d);
	if (r < 0) {
		free(v);
		return r;
	}
	if (cnt)
		qsort(v, cnt, sizeof(*v), mlx_dmn_entry_cmp);
	*out = v;
	*n = cnt;
	return 0;
}

/* ---- one incident ---- */

int mlx_dmn_root_prepare(const char *root)
{
	char buf[4096];
	struct stat st;

	if (!*root || strlen(root) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", root);
	/* mkdir -p, each new level 0700 */
	for (char *p = buf + 1;; p++) {
		if (*p == '/' || !*p) {
			char c = *p;

			*p = '\0';
			if (mkdir(buf, 0700) < 0 && errno != EEXIST)
				return -errno;
			*p = c;
			if (!c)
				break;
		}
	}
	if (lstat(root, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;    /* a symlink or a file where the root should be */
	return 0;
}

int mlx_dmn_begin(struct mlx_dmn_incident *inc, const char *root, const char *name)
{
	int r;

	memset(inc, 0, sizeof(*inc));
	inc->root_fd = inc->dir_fd = -1;
	if (strlen(root) >= sizeof(inc->root) || strlen(name) > MLX_DMN_NAME_MAX || strchr(name, '/'))
		return -ENAMETOOLONG;
	snprintf(inc->root, sizeof(inc->root), "%s", root);
	snprintf(inc->name, sizeof(inc->name), "%s", name);
	inc->root_fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (inc->root_fd < 0)
		return -errno;
	snprintf(inc->tmp, sizeof(inc->tmp), ".tmp-%s", name);
	if (mkdirat(inc->root_fd, inc->tmp, 0700) < 0) {
		r = -errno;
		inc->tmp[0] = '\0';     /* not ours: never remove it */
		return r;
	}
	inc->dir_fd = openat(inc->root_fd, inc->tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (inc->dir_fd < 0)
		return -errno;
	return 0;
}

int mlx_dmn_create(struct mlx_dmn_incident *inc, const char *file)
{
	int fd;

	if (!*file || strchr(file, '/') || !strcmp(file, ".") || !strcmp(file, ".."))
		return -EINVAL;
	fd = openat(inc->dir_fd, file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	return fd < 0 ? -errno : fd;
}

int mlx_dmn_tmp_path(const struct mlx_dmn_incident *inc, const char *file, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s%s%s", inc->root, inc->tmp, file ? "/" : "", file ? file : "");

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int mlx_dmn_commit(struct mlx_dmn_incident *inc)
{
	if (fsync(inc->dir_fd) < 0)
		return -errno;
	/* RENAME_NOREPLACE semantics without renameat2(): the final name
	 * carries our pid and counter, and we look before we leap. */
	if (faccessat(inc->root_fd, inc->name, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		return -EEXIST;
	if (renameat(inc->root_fd, inc->tmp, inc->root_fd, inc->name) < 0)
		return -errno;
	inc->committed = true;
	fsync(inc->root_fd);
	return 0;
}

void mlx_dmn_end(struct mlx_dmn_incident *inc)
{
	char path[8192];

	if (inc->dir_fd >= 0)
		close(inc->dir_fd);
	if (!inc->committed && inc->tmp[0] && mlx_dmn_tmp_path(inc, NULL, path, sizeof(path)) == 0)
		mlx_tree_remove(path);
	if (inc->root_fd >= 0)
		close(inc->root_fd);
	inc->dir_fd = inc->root_fd = -1;
}
