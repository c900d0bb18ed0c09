/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
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

/*
 * The live system's locks: /run/mlxcli, a directory only root may create
 * files in (0755, root's), each lock a root-owned 0600 file opened
 * read-write.  flock(2) needs only an open file, so a lock file another
 * user could open (the old /run/lock/mlxcli-*.lock, 0644 in a world-
 * writable directory) let any user hold it and hang root's writes for as
 * long as they liked.  Another user now cannot open the file at all, and
 * cannot put one of their own in its place.
 */
#define LIVE_LOCK_DIR "/run/mlxcli"

static int live_lock_open(struct mlx_ctx *ctx, const char *bdf, char *file, size_t len)
{
	struct stat st;
	int dfd, f, e;

	snprintf(file, len, LIVE_LOCK_DIR "/%s.lock", bdf);
	if (mkdir(LIVE_LOCK_DIR, 0755) < 0 && errno != EEXIST) {
		e = errno;
		if (e == EACCES || e == EPERM)
			return mlx_err(ctx, EACCES, "cannot lock %s: permission denied (writes to "
				       "the live system's devices are root's: its locks are in %s)",
				       bdf, LIVE_LOCK_DIR);
		return mlx_err(ctx, e, "cannot create the lock directory '%s': %s", LIVE_LOCK_DIR,
			       strerror(e));
	}
	dfd = open(LIVE_LOCK_DIR, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return mlx_err(ctx, errno, "cannot open the lock directory '%s': %s", LIVE_LOCK_DIR,
			       strerror(errno));
	if (fstat(dfd, &st) < 0) {
		e = errno;
		close(dfd);
		return mlx_err(ctx, e, "cannot open the lock directory '%s': %s", LIVE_LOCK_DIR,
			       strerror(e));
	}
	if (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		close(dfd);
		return mlx_err(ctx, EPERM, "the lock directory '%s' is not root's alone (owner "
			       "uid %u, mode %04o): remove it and let mlxcli make it again",
			       LIVE_LOCK_DIR, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
	}
	f = openat(dfd, strrchr(file, '/') + 1,
		   O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	e = errno;
	close(dfd);
	if (f < 0) {
		if (e == EACCES || e == EPERM)
			return mlx_err(ctx, EACCES, "cannot lock %s: permission denied (writes to "
				       "the live system's devices are root's: its locks are in %s)",
				       bdf, LIVE_LOCK_DIR);
		return mlx_err(ctx, e, "cannot open the lock file '%s': %s", file, strerror(e));
	}
	if (fstat(f, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		close(f);
		return mlx_err(ctx, EPERM, "the lock file '%s' is not a file of this user: remove it",
			       file);
	}
	if ((st.st_mode & 077) && fchmod(f, 0600) < 0) {
		e = errno;
		close(f);
		return mlx_err(ctx, e, "cannot make the lock file '%s' private: %s", file, strerror(e));
	}
	return f;
}

/* The lock file of @bdf on the target: the live system's (above), or one
 * per captured system (its canonical path, hashed) and device. */
static int lock_open(struct mlx_ctx *ctx, const char *bdf, char *file, size_t len)
{
	char dir[PATH_MAX], key[48];
	int f, r;

	if (ctx->live)
		return live_lock_open(ctx, bdf, file, len);
	r = lock_dir(ctx, dir, sizeof(dir));
	if (r < 0)
		return r;
	mlx_capture_key(ctx, key, sizeof(key));
	if (snprintf(file, len, "%s/%s-%s.lock", dir, key, bdf) >= (int)len)
		return mlx_err(ctx, ENAMETOOLONG, "the lock file name under '%s' is too long", dir);
	f = open(file, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	return f < 0 ? mlx_err(ctx, errno, "cannot open the lock file '%s': %s", file, strerror(errno)) : f;
}

/*
 * Who holds the lock on @fd's file: the PID /proc/locks gives for a FLOCK
 * on its device and inode ("1: FLOCK  ADVISORY  WRITE 1234 00:1a:5678 0
 * EOF", fs/locks.c lock_get_status: the major and minor in hex), not a
 * waiter's ("1: -> FLOCK ...").  0 when unknown (no /proc, another PID
 * namespace).
 */
static long lock_holder(int fd)
{
	char line[256];
	struct stat st;
	long pid = 0;
	FILE *f;

	if (fstat(fd, &st) < 0)
		return 0;
	f = fopen("/proc/locks", "re");
	if (!f)
		return 0;
	while (!pid && fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		unsigned long ino;
		long p;
		char *q = strchr(line, ':');

		if (!q || strstr(line, "->") || !strstr(line, "FLOCK"))
			continue;
		q = strstr(q, "WRITE");
		if (!q || sscanf(q, "WRITE %ld %x:%x:%lu", &p, &maj, &min, &ino) != 4)
			continue;
		if (ino == st.st_ino && maj == major(st.st_dev) && min == minor(st.st_dev) && p > 0)
			pid = p;
	}
	fclose(f);
	return pid;
}

int mlx_lock_set_wait(struct mlx_ctx *ctx, int ms)
{
	if (ms < -1)
		return -EINVAL;
	ctx->lock_wait_ms = ms;
	return 0;
}

int mlx_lock_get_wait(const struct mlx_ctx *ctx)
{
	return ctx->lock_wait_ms;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* A wait shorter than this is two writers of one device meeting, the
 * lock's everyday work: said only when it lasts. */
#define LOCK_SAY_AFTER_MS 1000

static long say_waiting(struct mlx_ctx *ctx, int f, const char *bdf, int wait)
{
	long holder = lock_holder(f);
	char secs[32];

	if (wait < 0)
		snprintf(secs, sizeof(secs), "without a time limit");
	else
		snprintf(secs, sizeof(secs), "for up to %d s", (wait + 999) / 1000);
	if (holder > 0)
		mlx_log(ctx, MLX_LOG_WARN, "waiting %s for the lock of %s, held by PID %ld "
			"(another write of this device)", secs, bdf, holder);
	else
		mlx_log(ctx, MLX_LOG_WARN, "waiting %s for the lock of %s (another write of "
			"this device holds it)", secs, bdf);
	return holder;
}

/* flock(LOCK_EX) for at most the context's wait, polling: no signal, no
 * thread, nothing the interactive shell would notice.  0, -ETIMEDOUT, or
 * the -errno of flock. */
static int lock_wait(struct mlx_ctx *ctx, int f, const char *bdf)
{
	int wait = ctx->lock_wait_ms;
	uint64_t start = now_ms();
	long delay = 10, holder = 0;
	bool said = false;

	if (flock(f, LOCK_EX | LOCK_NB) == 0)
		return 0;
	if (errno != EWOULDBLOCK && errno != EINTR)
		return -errno;
	for (;;) {
		struct timespec ts;
		uint64_t spent = now_ms() - start;

		if (wait >= 0 && spent >= (uint64_t)wait)
			break;
		if (!said && spent >= LOCK_SAY_AFTER_MS) {
			holder = say_waiting(ctx, f, bdf, wait);
			said = true;
		}
		if (wait >= 0 && (uint64_t)delay > (uint64_t)wait - spent)
			delay = (long)((uint64_t)wait - spent);
		ts.tv_sec = delay / 1000;
		ts.tv_nsec = (delay % 1000) * 1000000;
		nanosleep(&ts, NULL);
		if (flock(f, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -errno;
		if (delay < 200)
			delay *= 2;
	}
	holder = holder > 0 ? holder : lock_holder(f);
	if (holder > 0)
		return mlx_err(ctx, ETIMEDOUT, "cannot lock %s: PID %ld has held its lock for %d s; "
			       "nothing was changed (wait longer with --wait SEC, or find out what "
			       "PID %ld is doing)", bdf, holder, (wait + 999) / 1000, holder);
	return mlx_err(ctx, ETIMEDOUT, "cannot lock %s: another process has held its lock for %d s; "
		       "nothing was changed (wait longer with --wait SEC)", bdf, (wait + 999) / 1000);
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
	r = lock_wait(ctx, f, bdf);
	if (r < 0) {
		close(f);
		if (r == -ETIMEDOUT)
			return r;
		return mlx_err(ctx, -r, "cannot lock '%s': %s", file, strerror(-r));
	}
	*fd = f;
	return 0;
}
