/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Root-prefixed file access (DESIGN.md "The root prefix").  Every file
 * lib/ reads or writes goes through here, so `--sysroot DIR` points the
 * whole tool at a captured system.  Under a sysroot we resolve with
 * openat2(RESOLVE_IN_ROOT): a symlink in the capture (the kernel's are
 * relative, a hostile one may be absolute) can never lead outside it, which
 * matters because write commands write into the sysroot.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "mlx-private.h"

int mlx_path(const struct mlx_ctx *ctx, char *buf, size_t len, const char *fmt, ...)
{
	char rel[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	n = snprintf(buf, len, "%s%s", ctx->live ? "" : ctx->root, rel);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * openat2() with RESOLVE_IN_ROOT or RESOLVE_BENEATH fails with EAGAIN when
 * a path with ".." (every kernel-style relative symlink of a capture) races
 * with a rename or mount anywhere on the system (openat2(2)); the call is
 * to be retried.  A busy machine (or a test suite renaming working copies)
 * would otherwise see files of a capture vanish for an instant.
 */
static int openat2_retry(int dirfd, const char *path, struct open_how *how)
{
	int fd, tries = 0;

	do
		fd = (int)syscall(SYS_openat2, dirfd, path, how, sizeof(*how));
	while (fd < 0 && errno == EAGAIN && ++tries < 64);
	return fd;
}

/*
 * mlx_open_walk(): RESOLVE_IN_ROOT (or RESOLVE_BENEATH) done by hand, for
 * kernels without openat2() and for valgrind, which does not know it.  A
 * plain open of ROOT/PATH would follow an absolute symlink of the capture
 * to the live system, and a write command would then write there.  So:
 * one component at a time, each opened with O_NOFOLLOW from the directory
 * fd we hold; a symlink is read and its target spliced in front of what
 * is left (from the root when absolute); ".." pops our own stack of
 * directory fds, never the filesystem's "..", so a directory renamed
 * meanwhile cannot lead out either.
 */
#define WALK_MAX_LINKS 40       /* the kernel's MAXSYMLINKS */
#define WALK_MAX_DEPTH 128

int mlx_open_walk(int dirfd, const char *path, int flags, mode_t mode, bool beneath)
{
	int stack[WALK_MAX_DEPTH];
	char work[PATH_MAX], link[PATH_MAX], next[PATH_MAX];
	int depth = 0, links = 0, fd = -1, cur = dirfd;
	char *rest = work;

	if (strlen(path) >= sizeof(work))
		return -ENAMETOOLONG;
	strcpy(work, path);
	for (;;) {
		char *name, *end;
		bool last;
		ssize_t n;

		while (*rest == '/')
			rest++;
		if (!*rest) {
			/* the path named a directory we hold (root, ".", "..") */
			fd = openat(cur, ".", flags | O_CLOEXEC, mode);
			fd = fd < 0 ? -errno : fd;
			break;
		}
		name = rest;
		end = strchr(name, '/');
		if (end) {
			*end = '\0';
			rest = end + 1;
		} else {
			rest = name + strlen(name);
		}
		last = !rest[strspn(rest, "/")];
		if (!strcmp(name, "."))
			continue;
		if (!strcmp(name, "..")) {
			if (depth == 0) {
				if (beneath) {
					fd = -EXDEV;
					break;
				}
				continue;       /* ".." of the root is the root */
			}
			close(stack[--depth]);
			cur = depth ? stack[depth - 1] : dirfd;
			continue;
		}
		n = -1;
		errno = EINVAL;         /* not looked at: as if no link */
		if (!last || !(flags & O_NOFOLLOW))
			n = readlinkat(cur, name, link, sizeof(link));
		if (n >= 0) {
			if ((size_t)n >= sizeof(link) || ++links > WALK_MAX_LINKS) {
				fd = (size_t)n >= sizeof(link) ? -ENAMETOOLONG : -ELOOP;
				break;
			}
			link[n] = '\0';
			if (link[0] == '/') {
				if (beneath) {
					fd = -EXDEV;
					break;
				}
				while (depth)
					close(stack[--depth]);
				cur = dirfd;
			}
			if (snprintf(next, sizeof(next), "%s/%s", link, rest) >= (int)sizeof(next)) {
				fd = -ENAMETOOLONG;
				break;
			}
			strcpy(work, next);
			rest = work;
			continue;
		}
		if (errno != EINVAL && errno != ENOENT) {
			fd = -errno;
			break;
		}
		if (last) {
			/* O_NOFOLLOW: should the name have become a link since
			 * readlinkat(), it is refused (or, for O_PATH, opened
			 * as the link), never followed */
			fd = openat(cur, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);
			fd = fd < 0 ? -errno : fd;
			break;
		}
		if (depth == WALK_MAX_DEPTH) {
			fd = -ENAMETOOLONG;
			break;
		}
		fd = openat(cur, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			fd = -errno;
			break;
		}
		stack[depth++] = cur = fd;
		fd = -1;
	}
	while (depth)
		close(stack[--depth]);
	return fd;
}

/*
 * A captured system is someone else's tree: where sysfs has a file, it may
 * hold a FIFO (an open or read waits forever for a writer), a device node
 * (/dev/zero's numbers: endless), a socket.  So its files are opened
 * O_NONBLOCK|O_NOCTTY (a FIFO's open returns at once) and what is not a
 * regular file, a directory or a link to one is refused before any read
 * (-EINVAL, said in mlx_errmsg).  A caller that asks for O_NONBLOCK itself
 * reads a stream and copes with one that has nothing yet: it may have a
 * FIFO (the monitor's replay of a capture's kernel log, dev/kmsg), never
 * a device or a socket.  Not on the live system, whose sysfs and debugfs
 * hold none, and where the extra fstat would cost every read.
 */
static int refuse_special(struct mlx_ctx *ctx, const char *rel, mode_t m)
{
	return mlx_err(ctx, EINVAL, "'%s' in the capture '%s' is a %s, not a file: refused", rel,
		       ctx->root, S_ISFIFO(m) ? "FIFO" : S_ISCHR(m) ? "character device" :
		       S_ISBLK(m) ? "block device" : S_ISSOCK(m) ? "socket" : "special file");
}

/* @check false: the caller reads through mlx_attr_pread(), which checks. */
static int captured_open(struct mlx_ctx *ctx, int dirfd, const char *rel, int flags, mode_t mode,
			 bool beneath, bool check)
{
	struct open_how how = {
		.flags = (uint64_t)flags | O_CLOEXEC,
		.mode = (flags & O_CREAT) ? mode : 0,
		.resolve = (beneath ? RESOLVE_BENEATH : RESOLVE_IN_ROOT) | RESOLVE_NO_MAGICLINKS,
	};
	bool io = !(flags & (O_PATH | O_DIRECTORY));
	bool stream = flags & O_NONBLOCK;
	struct stat st;
	int fd;

	if (io) {
		flags |= O_NONBLOCK | O_NOCTTY;
		how.flags = (uint64_t)flags | O_CLOEXEC;
	}
	fd = openat2_retry(dirfd, rel, &how);
	if (fd < 0 && errno == ENOSYS)
		/* Kernel older than 5.6, or valgrind: the same, by hand. */
		fd = mlx_open_walk(dirfd, rel, flags, mode, beneath);
	else if (fd < 0)
		fd = -errno;
	if (fd < 0 || !io || !check)
		return fd;
	if (fstat(fd, &st) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) || (stream && S_ISFIFO(st.st_mode)))
		return fd;
	close(fd);
	return refuse_special(ctx, rel, st.st_mode);
}

static int open_at(struct mlx_ctx *ctx, const char *path, int flags, mode_t mode, bool check)
{
	char full[PATH_MAX];
	int fd;

	if (path[0] != '/') {
		/* Relative to mlx_chdir()'s directory, never above it. */
		struct open_how how = {
			.flags = (uint64_t)flags | O_CLOEXEC,
			.mode = (flags & O_CREAT) ? mode : 0,
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
		};

		if (ctx->base_fd < 0 || !*path)
			return -EINVAL;
		if (!ctx->live)
			return captured_open(ctx, ctx->base_fd, path, flags, mode, true, check);
		fd = openat2_retry(ctx->base_fd, path, &how);
		if (fd < 0 && errno == ENOSYS)
			return mlx_open_walk(ctx->base_fd, path, flags, mode, true);
		return fd < 0 ? -errno : fd;
	}
	if (!ctx->live) {
		const char *rel = path + 1;

		if (!*rel)
			rel = ".";
		return captured_open(ctx, ctx->root_fd, rel, flags, mode, false, check);
	}
	if (mlx_path(ctx, full, sizeof(full), "%s", path) < 0)
		return -ENAMETOOLONG;
	fd = open(full, flags | O_CLOEXEC, mode);
	return fd < 0 ? -errno : fd;
}

int mlx_open(struct mlx_ctx *ctx, const char *path, int flags, mode_t mode)
{
	return open_at(ctx, path, flags, mode, true);
}

bool mlx_root_is_copy(const struct mlx_ctx *ctx)
{
	return !ctx->live;
}

int mlx_open_attr(struct mlx_ctx *ctx, const char *path)
{
	return open_at(ctx, path, O_RDONLY, 0, false);
}

/*
 * A read of a captured file opened without captured_open()'s fstat: the
 * type check costs a syscall only where the read cannot vouch for the
 * file (issue 28: `devices` paid a fstat for each of its 8 files a
 * function, a third of its syscalls).  preadv2(RWF_NOWAIT) at an offset
 * is refused by the kernel for whatever could make us wait: a FIFO or a
 * socket (ESPIPE: no positioned read), a device without non-blocking
 * reads (EOPNOTSUPP), a file not in the page cache yet (EAGAIN); and a
 * read of a regular file that returns fewer bytes than asked, and more
 * than none, has reached its end.  The few devices that do take RWF_NOWAIT
 * (/dev/zero, /dev/null, /dev/urandom: drivers/char/mem.c, random.c) fill
 * any buffer or give nothing; so every other answer (an error, an empty
 * or a full buffer) is checked as captured_open() checks, with fstat:
 * a regular file is read as before, anything else refused, never waited
 * on.  Live (sysfs, debugfs: no such files) a plain pread.
 */
ssize_t mlx_attr_pread_size(struct mlx_ctx *ctx, int fd, void *buf, size_t len, off_t off,
			    const char *path, off_t *size)
{
	struct iovec v = { buf, len };
	struct stat st;
	ssize_t r;

	*size = -1;
	if (!ctx->live && len) {
		do
			r = preadv2(fd, &v, 1, off, RWF_NOWAIT);
		while (r < 0 && errno == EINTR);
		if (r > 0 && (size_t)r < len)
			return r;
		if (fstat(fd, &st) < 0)
			return -errno;
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		if (!S_ISREG(st.st_mode))
			return refuse_special(ctx, path, st.st_mode);
		*size = st.st_size;
		if (r >= 0)
			return r;
	}
	do   /* read() from the start: what a file that cannot seek answers */
		r = off || !ctx->live ? pread(fd, buf, len, off) : read(fd, buf, len);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

ssize_t mlx_attr_pread(struct mlx_ctx *ctx, int fd, void *buf, size_t len, off_t off,
		       const char *path)
{
	off_t size;

	return mlx_attr_pread_size(ctx, fd, buf, len, off, path, &size);
}

/*
 * The batch (issue 28): while one is open (mlx_batch_begin), descriptors
 * done with are kept, and mlx_batch_end() closes them with a close_range()
 * per run of consecutive numbers (the kernel hands out the lowest free
 * one, so a function's files are one run): one syscall for a function's
 * eight.  Only our own descriptors are in a run: every number in it is
 * one we hold.
 */
void mlx_fd_done(struct mlx_ctx *ctx, int fd)
{
	if (fd < 0)
		return;
	if (ctx->batching && ctx->nbatch < sizeof(ctx->batch) / sizeof(ctx->batch[0]))
		ctx->batch[ctx->nbatch++] = fd;
	else
		close(fd);
}

void mlx_batch_begin(struct mlx_ctx *ctx)
{
	mlx_batch_end(ctx);
	ctx->batching = true;
}

void mlx_batch_end(struct mlx_ctx *ctx)
{
	unsigned i = 0, n = ctx->nbatch;

	ctx->batching = false;
	ctx->nbatch = 0;
	/* in order (by insertion: at most 16, mostly in order already) */
	for (unsigned k = 1; k < n; k++) {
		int v = ctx->batch[k];
		unsigned j = k;

		for (; j && ctx->batch[j - 1] > v; j--)
			ctx->batch[j] = ctx->batch[j - 1];
		ctx->batch[j] = v;
	}
	while (i < n) {
		unsigned j = i;

		while (j + 1 < n && ctx->batch[j + 1] == ctx->batch[j] + 1)
			j++;
		if (j == i || syscall(SYS_close_range, (unsigned)ctx->batch[i],
				      (unsigned)ctx->batch[j], 0u) < 0)
			/* one, or a kernel before 5.9 */
			for (unsigned k = i; k <= j; k++)
				close(ctx->batch[k]);
		i = j + 1;
	}
}

int mlx_read_file(struct mlx_ctx *ctx, const char *path, char **data, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf, *nb;
	ssize_t r;
	int fd;

	*data = NULL;
	if (len)
		*len = 0;
	fd = mlx_open(ctx, path, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	buf = malloc(cap + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		if (n == cap) {
			if (cap >= (64u << 20)) {   /* nothing we read is this big */
				free(buf);
				close(fd);
				return -EFBIG;
			}
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			free(buf);
			close(fd);
			return (int)r;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*data = buf;
	if (len)
		*len = n;
	return 0;
}

int mlx_read_str(struct mlx_ctx *ctx, const char *path, char *buf, size_t len)
{
	char tmp[4096];
	ssize_t r;
	int fd;

	if (len == 0)
		return -EINVAL;
	fd = mlx_open_attr(ctx, path);
	if (fd < 0)
		return fd;
	/* One read from the start: an attribute is shorter than a page. */
	r = mlx_attr_pread(ctx, fd, tmp, sizeof(tmp) - 1, 0, path);
	mlx_fd_done(ctx, fd);
	if (r < 0)
		return (int)r;
	while (r > 0 && (tmp[r - 1] == '\n' || tmp[r - 1] == ' ' ||
			 tmp[r - 1] == '\t' || tmp[r - 1] == '\0'))
		r--;
	tmp[r] = '\0';
	if ((size_t)r >= len)
		return -EOVERFLOW;
	memcpy(buf, tmp, (size_t)r + 1);
	return 0;
}

int mlx_parse_u64(const char *s, uint64_t *val)
{
	unsigned long long v;
	char *end;
	int base = 10;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!*s)
			return -EINVAL;
	}
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end || end == s)
		return -EINVAL;
	*val = v;
	return 0;
}

int mlx_read_u64(struct mlx_ctx *ctx, const char *path, uint64_t *val)
{
	char buf[64];
	int r;

	r = mlx_read_str(ctx, path, buf, sizeof(buf));
	if (r < 0)
		return r;
	return mlx_parse_u64(buf, val);
}

int mlx_read_s64(struct mlx_ctx *ctx, const char *path, int64_t *val)
{
	char buf[64], *end;
	long long v;
	int r;

	r = mlx_read_str(ctx, path, buf, sizeof(buf));
	if (r < 0)
		return r;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EINVAL;
	*val = v;
	return 0;
}

ssize_t mlx_read_bin(struct mlx_ctx *ctx, const char *path, void *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;
	int fd;

	fd = mlx_open(ctx, path, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	while (n < len) {
		r = pread(fd, (char *)buf + n, len - n, (off_t)n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			/* sysfs 'config' beyond what we may read: keep what we have */
			if (n > 0)
				break;
			r = -errno;
			close(fd);
			return r;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	return (ssize_t)n;
}

int mlx_chdir(struct mlx_ctx *ctx, const char *path)
{
	int fd = -1;

	if (path) {
		fd = mlx_open(ctx, path, O_PATH | O_DIRECTORY, 0);
		if (fd < 0)
			return fd;
	}
	mlx_fd_done(ctx, ctx->base_fd);
	ctx->base_fd = fd;
	return 0;
}

/* Split "/a/b/c" into an fd for "/a/b" (O_PATH) and "c" (mlx-private.h). */
int mlx_open_parent(struct mlx_ctx *ctx, const char *path, const char **base)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash || !slash[1])
		return -EINVAL;
	n = (size_t)(slash - path);
	if (n >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, n);
	dir[n] = '\0';
	if (n == 0)
		strcpy(dir, "/");
	*base = slash + 1;
	return mlx_open(ctx, dir, O_PATH | O_DIRECTORY, 0);
}

int mlx_readlink(struct mlx_ctx *ctx, const char *path, char *buf, size_t len)
{
	const char *base;
	ssize_t r;
	int dfd;

	if (!strchr(path, '/') && path[0] && ctx->base_fd >= 0) {
		/* One name in the mlx_chdir() directory: the link itself is
		 * read, never followed, so nothing escapes it. */
		r = readlinkat(ctx->base_fd, path, buf, len);
	} else {
		dfd = mlx_open_parent(ctx, path, &base);
		if (dfd < 0)
			return dfd;
		r = readlinkat(dfd, base, buf, len);
		close(dfd);
	}
	if (r < 0)
		return -errno;
	if ((size_t)r >= len)
		return -ENAMETOOLONG;
	buf[r] = '\0';
	return 0;
}

int mlx_readlink_base(struct mlx_ctx *ctx, const char *path, char *buf, size_t len)
{
	char target[PATH_MAX];
	const char *b;
	int r;

	r = mlx_readlink(ctx, path, target, sizeof(target));
	if (r < 0)
		return r;
	b = strrchr(target, '/');
	b = b ? b + 1 : target;
	if (strlen(b) >= len)
		return -ENAMETOOLONG;
	strcpy(buf, b);
	return 0;
}

/* The entry exists (a link counts as it is, not followed: a VF's physfn
 * points outside the function directory that relative lookups are held
 * beneath, and following it failed with EXDEV, so every VF looked like a
 * PF unless its device ID said otherwise). */
bool mlx_exists(struct mlx_ctx *ctx, const char *path)
{
	int fd = mlx_open(ctx, path, O_PATH | O_NOFOLLOW, 0);

	if (fd < 0)
		return false;
	mlx_fd_done(ctx, fd);
	return true;
}

int mlx_dir_probe(struct mlx_ctx *ctx, const char *path)
{
	int fd = mlx_open(ctx, path, O_PATH | O_DIRECTORY, 0);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

bool mlx_is_dir(struct mlx_ctx *ctx, const char *path)
{
	int fd = mlx_open(ctx, path, O_PATH | O_DIRECTORY, 0);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The entries of a directory, sorted, without "." and "..".  getdents64
 * on the descriptor rather than fdopendir/readdir: a device scan lists
 * six directories per function, and the DIR stream cost three more
 * syscalls each (fstat, two fcntl) for nothing we use.  A read error is
 * reported, not taken for the end of the directory.
 */
int mlx_dir_names(int fd, char ***names, size_t *count)
{
	size_t n = 0, cap = 16;
	char buf[16384];
	char **v, **nv;
	ssize_t got;

	*names = NULL;
	if (count)
		*count = 0;
	v = calloc(cap + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	while ((got = getdents64(fd, buf, sizeof(buf))) > 0) {
		for (size_t off = 0; off < (size_t)got;) {
			const struct dirent64 *de = (const struct dirent64 *)(buf + off);

			off += de->d_reclen;
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			if (n == cap) {
				cap *= 2;
				nv = realloc(v, (cap + 1) * sizeof(*v));
				if (!nv)
					goto nomem;
				v = nv;
			}
			v[n] = strdup(de->d_name);
			if (!v[n])
				goto nomem;
			v[++n] = NULL;
		}
	}
	if (got < 0) {
		got = -errno;
		mlx_strv_free(v);
		return (int)got;
	}
	qsort(v, n, sizeof(*v), cmp_str);
	*names = v;
	if (count)
		*count = n;
	return 0;
nomem:
	mlx_strv_free(v);
	return -ENOMEM;
}

int mlx_list_dir(struct mlx_ctx *ctx, const char *path, char ***names, size_t *count)
{
	int fd, r;

	*names = NULL;
	if (count)
		*count = 0;
	fd = mlx_open(ctx, path, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0)
		return fd;
	r = mlx_dir_names(fd, names, count);
	close(fd);
	return r;
}

void mlx_strv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

bool mlx_name_is_safe(const char *name)
{
	size_t n;

	if (!name)
		return false;
	n = strlen(name);
	if (n == 0 || n > 255 || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p == '/' || *p < 0x20 || *p == 0x7f)
			return false;
	return true;
}
