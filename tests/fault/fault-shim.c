/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fault injection at the backend boundary, as an LD_PRELOAD shim: the
 * product code is untouched.  The shim wraps the calls through which
 * mlxcli reaches files and the kernel, and fails the k-th call of one
 * class that matches a path, with a chosen error.
 *
 * Environment:
 *   MLXCLI_FAULT_CALL   the class: open (open, openat, and openat2 through
 *                       syscall(2)), wopen (the same, only opens for writing
 *                       or creating), read (read, pread, preadv2), write,
 *                       rename (rename, renameat,
 *                       renameat2), mkdir (mkdir, mkdirat), sendmsg, recvmsg
 *   MLXCLI_FAULT_NTH    k (1-based); 0 or unset: only count
 *   MLXCLI_FAULT_ERRNO  EIO, EACCES, EPERM, ENOSPC, EINTR, ENOENT, EROFS, a
 *                       number; "short" (read and write: half the bytes,
 *                       at least one fewer); "nlerr" (recvmsg: the reply
 *                       is replaced by an NLMSG_ERROR carrying -EIO)
 *   MLXCLI_FAULT_PATH   substring the call's path must contain (for read and
 *                       write the fd's path, from /proc/self/fd); unset: all
 *   MLXCLI_FAULT_COUNT  a file: the number of matching calls is written there
 *                       at exit (the dry run of a fault matrix)
 *   MLXCLI_FAULT_LOG    a file: one line per matching call ("k call path")
 *   MLXCLI_NO_OPENAT2   1: openat2 answers ENOSYS, as on kernels before 5.6
 *                       and under valgrind, so mlxcli takes its own walk
 *                       (mlx_open_walk); combines with the above
 *
 * The openat2 case matters: valgrind does not know openat2 and answers
 * ENOSYS, after which mlxcli opens with openat; both are "open" calls
 * here, and an ENOSYS from the kernel is passed through uncounted.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/netlink.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

enum fault_mode { F_ERRNO, F_SHORT, F_NLERR };

static struct {
	bool init;
	char call[16];
	long nth, count;
	enum fault_mode mode;
	int err;
	const char *path, *count_file, *log_file;
} st;

static void save_count(void)
{
	FILE *f;

	if (!st.count_file)
		return;
	f = fopen(st.count_file, "w");
	if (f) {
		fprintf(f, "%ld\n", st.count);
		fclose(f);
	}
}

static int errno_of(const char *s)
{
	static const struct { const char *name; int e; } t[] = {
		{ "EIO", EIO }, { "EACCES", EACCES }, { "EPERM", EPERM }, { "ENOSPC", ENOSPC },
		{ "EINTR", EINTR }, { "ENOENT", ENOENT }, { "EROFS", EROFS }, { "EAGAIN", EAGAIN },
		{ "EBUSY", EBUSY }, { "ENOMEM", ENOMEM },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(s, t[i].name))
			return t[i].e;
	return atoi(s) > 0 ? atoi(s) : EIO;
}

static void init(void)
{
	const char *c, *e;

	if (st.init)
		return;
	st.init = true;
	c = getenv("MLXCLI_FAULT_CALL");
	snprintf(st.call, sizeof(st.call), "%s", c ? c : "");
	st.nth = getenv("MLXCLI_FAULT_NTH") ? atol(getenv("MLXCLI_FAULT_NTH")) : 0;
	e = getenv("MLXCLI_FAULT_ERRNO");
	st.err = EIO;
	if (e && !strcmp(e, "short"))
		st.mode = F_SHORT;
	else if (e && !strcmp(e, "nlerr"))
		st.mode = F_NLERR;
	else if (e)
		st.err = errno_of(e);
	st.path = getenv("MLXCLI_FAULT_PATH");
	if (st.path && !*st.path)
		st.path = NULL;
	st.count_file = getenv("MLXCLI_FAULT_COUNT");
	st.log_file = getenv("MLXCLI_FAULT_LOG");
	if (st.count_file)
		atexit(save_count);
}

static void fd_path(int fd, char *buf, size_t len)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, len - 1);
	buf[n < 0 ? 0 : n] = '\0';
}

/* The path of (dirfd, path) as text for matching. */
static void at_path(int dirfd, const char *path, char *buf, size_t len)
{
	char dir[PATH_MAX];

	if (!path)
		path = "";
	if (path[0] == '/' || dirfd == AT_FDCWD) {
		snprintf(buf, len, "%s", path);
		return;
	}
	fd_path(dirfd, dir, sizeof(dir));
	snprintf(buf, len, "%s/%s", dir, path);
}

/* Is this call the one to fail?  Counts the matching calls of the class. */
static bool hit(const char *cls, const char *path)
{
	init();
	if (strcmp(st.call, cls) && !(strcmp(cls, "wopen") == 0 && strcmp(st.call, "open") == 0))
		return false;
	if (st.path && (!path || !strstr(path, st.path)))
		return false;
	st.count++;
	if (st.log_file) {
		FILE *f = fopen(st.log_file, "a");

		if (f) {
			fprintf(f, "%ld %s %s\n", st.count, cls, path ? path : "");
			fclose(f);
		}
	}
	return st.nth > 0 && st.count == st.nth;
}

#define REAL(name) \
	static __typeof__(name) *real_##name; \
	if (!real_##name) \
		real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static const char *open_class(int flags)
{
	return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)) ? "wopen" : "ropen";
}

/* "open" matches both; "wopen" only the opens for writing. */
static bool hit_open(int flags, const char *path)
{
	init();
	if (!strcmp(st.call, "open"))
		return hit("open", path);
	if (!strcmp(st.call, "wopen") && !strcmp(open_class(flags), "wopen"))
		return hit("wopen", path);
	return false;
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t m;
	REAL(open);

	va_start(ap, flags);
	m = mode_arg(flags, ap);
	va_end(ap);
	if (hit_open(flags, path)) {
		errno = st.err;
		return -1;
	}
	return real_open(path, flags, m);
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	mode_t m;
	REAL(open64);

	va_start(ap, flags);
	m = mode_arg(flags, ap);
	va_end(ap);
	if (hit_open(flags, path)) {
		errno = st.err;
		return -1;
	}
	return real_open64(path, flags, m);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	char full[PATH_MAX];
	va_list ap;
	mode_t m;
	REAL(openat);

	va_start(ap, flags);
	m = mode_arg(flags, ap);
	va_end(ap);
	at_path(dirfd, path, full, sizeof(full));
	if (hit_open(flags, full)) {
		errno = st.err;
		return -1;
	}
	return real_openat(dirfd, path, flags, m);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	char full[PATH_MAX];
	va_list ap;
	mode_t m;
	REAL(openat64);

	va_start(ap, flags);
	m = mode_arg(flags, ap);
	va_end(ap);
	at_path(dirfd, path, full, sizeof(full));
	if (hit_open(flags, full)) {
		errno = st.err;
		return -1;
	}
	return real_openat64(dirfd, path, flags, m);
}

/* openat2 has no libc wrapper in glibc 2.36: mlxcli calls syscall(2). */
long syscall(long nr, ...)
{
	long a[6];
	va_list ap;
	REAL(syscall);

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_openat2) {
		char full[PATH_MAX];
		uint64_t flags = 0;
		const char *no = getenv("MLXCLI_NO_OPENAT2");
		long r;

		if (no && !strcmp(no, "1")) {
			errno = ENOSYS;
			return -1;
		}

		if (a[2])
			memcpy(&flags, (const void *)a[2], sizeof(flags));   /* open_how.flags */
		/* Ask the kernel first: an ENOSYS (old kernel, valgrind) is not a
		 * call of ours, the openat fallback that follows is. */
		at_path((int)a[0], (const char *)a[1], full, sizeof(full));
		r = real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		if (r < 0 && errno == ENOSYS)
			return r;
		if (hit_open((int)flags, full)) {
			if (r >= 0)
				close((int)r);
			errno = st.err;
			return -1;
		}
		return r;
	}
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

ssize_t read(int fd, void *buf, size_t n)
{
	char p[PATH_MAX];
	REAL(read);

	init();
	if (!strcmp(st.call, "read")) {
		fd_path(fd, p, sizeof(p));
		if (hit("read", p)) {
			if (st.mode == F_SHORT) {
				ssize_t r = real_read(fd, buf, n > 1 ? n / 2 : n);

				return r > 0 && (size_t)r == n && n > 1 ? r - 1 : r;
			}
			errno = st.err;
			return -1;
		}
	}
	return real_read(fd, buf, n);
}

/* The positioned reads are "read" calls too: a captured file's attributes
 * are read with preadv2(RWF_NOWAIT) (lib/core/rootfs.c, issue 28), config
 * space with pread.  0 when not failed: the caller makes the real call. */
static ssize_t read_fault(int fd, size_t n, size_t *half)
{
	char p[PATH_MAX];

	init();
	*half = n;
	if (strcmp(st.call, "read"))
		return 0;
	fd_path(fd, p, sizeof(p));
	if (!hit("read", p))
		return 0;
	if (st.mode == F_SHORT) {
		*half = n > 1 ? n / 2 : n;
		return 0;
	}
	errno = st.err;
	return -1;
}

#define SHIM_PREAD(name) \
ssize_t name(int fd, void *buf, size_t n, off_t off) \
{ \
	size_t h; \
	REAL(name); \
	if (read_fault(fd, n, &h) < 0) \
		return -1; \
	return real_##name(fd, buf, h, off); \
}
SHIM_PREAD(pread)
SHIM_PREAD(pread64)

#define SHIM_PREADV2(name) \
ssize_t name(int fd, const struct iovec *iov, int cnt, off_t off, int flags) \
{ \
	struct iovec one; \
	size_t h; \
	REAL(name); \
	if (cnt == 1 && read_fault(fd, iov[0].iov_len, &h) < 0) \
		return -1; \
	if (cnt == 1 && h != iov[0].iov_len) { \
		one.iov_base = iov[0].iov_base; \
		one.iov_len = h; \
		return real_##name(fd, &one, 1, off, flags); \
	} \
	return real_##name(fd, iov, cnt, off, flags); \
}
SHIM_PREADV2(preadv2)
SHIM_PREADV2(preadv64v2)

ssize_t write(int fd, const void *buf, size_t n)
{
	char p[PATH_MAX];
	REAL(write);

	init();
	if (!strcmp(st.call, "write")) {
		fd_path(fd, p, sizeof(p));
		if (hit("write", p)) {
			if (st.mode == F_SHORT && n > 1)
				return real_write(fd, buf, n / 2);
			errno = st.err;
			return -1;
		}
	}
	return real_write(fd, buf, n);
}

int rename(const char *from, const char *to)
{
	REAL(rename);

	if (hit("rename", to)) {
		errno = st.err;
		return -1;
	}
	return real_rename(from, to);
}

int renameat(int ofd, const char *from, int nfd, const char *to)
{
	char full[PATH_MAX];
	REAL(renameat);

	at_path(nfd, to, full, sizeof(full));
	if (hit("rename", full)) {
		errno = st.err;
		return -1;
	}
	return real_renameat(ofd, from, nfd, to);
}

int renameat2(int ofd, const char *from, int nfd, const char *to, unsigned flags)
{
	char full[PATH_MAX];
	REAL(renameat2);

	at_path(nfd, to, full, sizeof(full));
	if (hit("rename", full)) {
		errno = st.err;
		return -1;
	}
	return real_renameat2(ofd, from, nfd, to, flags);
}

int mkdir(const char *path, mode_t m)
{
	REAL(mkdir);

	if (hit("mkdir", path)) {
		errno = st.err;
		return -1;
	}
	return real_mkdir(path, m);
}

int mkdirat(int dirfd, const char *path, mode_t m)
{
	char full[PATH_MAX];
	REAL(mkdirat);

	at_path(dirfd, path, full, sizeof(full));
	if (hit("mkdir", full)) {
		errno = st.err;
		return -1;
	}
	return real_mkdirat(dirfd, path, m);
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	REAL(sendmsg);

	if (hit("sendmsg", NULL)) {
		errno = st.err;
		return -1;
	}
	return real_sendmsg(fd, msg, flags);
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	ssize_t r;
	REAL(recvmsg);

	if (!hit("recvmsg", NULL))
		return real_recvmsg(fd, msg, flags);
	if (st.mode != F_NLERR) {
		errno = st.err;
		return -1;
	}
	/* Consume the kernel's reply and hand back an error message for it,
	 * as the kernel sends when a request fails (-EIO, no extended ack). */
	r = real_recvmsg(fd, msg, flags);
	if (r >= (ssize_t)NLMSG_HDRLEN && msg->msg_iovlen >= 1 &&
	    msg->msg_iov[0].iov_len >= NLMSG_HDRLEN + sizeof(struct nlmsgerr)) {
		struct nlmsghdr h, *req = msg->msg_iov[0].iov_base;
		struct nlmsgerr e;

		memcpy(&e.msg, req, sizeof(e.msg));
		e.error = -EIO;
		h.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + sizeof(e));
		h.nlmsg_type = NLMSG_ERROR;
		h.nlmsg_flags = NLM_F_CAPPED;
		h.nlmsg_seq = req->nlmsg_seq;
		h.nlmsg_pid = req->nlmsg_pid;
		memcpy(msg->msg_iov[0].iov_base, &h, sizeof(h));
		memcpy((char *)msg->msg_iov[0].iov_base + NLMSG_HDRLEN, &e, sizeof(e));
		return (ssize_t)h.nlmsg_len;
	}
	return r;
}
