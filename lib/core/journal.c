/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The journal of a write transaction (lib/journal.h): a file per
 * transaction in the system's state area, flock'ed by its writer; on a
 * captured system also the write-ahead undo log of every file the
 * transaction changes.  Only core decides whether the system is live.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "journal.h"
#include "mlx-private.h"

#define LIVE_DIR "/run/mlxcli"
#define SUFFIX ".journal"

struct mlx_journal {
	struct mlx_ctx *ctx;
	int fd;
	char path[PATH_MAX];
	bool files;               /* a captured system: the undo log is on */
	char **cleanup;           /* directories to remove when it ends */
	size_t ncleanup;
};

/* ---- where ---- */

/* The directory of @ctx's journals and their names' prefix (@make: the
 * directory made when missing). */
static int area(struct mlx_ctx *ctx, char *dir, size_t len, char *key, size_t klen, bool make)
{
	if (ctx->live) {
		snprintf(key, klen, "live");
		if (snprintf(dir, len, LIVE_DIR "/journal") >= (int)len)
			return -ENAMETOOLONG;
		return 0;
	}
	mlx_capture_key(ctx, key, klen);
	return mlx_lock_dir(ctx, dir, len, make);
}

static int make_area(struct mlx_ctx *ctx, char *dir, size_t len, char *key, size_t klen)
{
	int r = area(ctx, dir, len, key, klen, true);
	struct stat st;

	if (r < 0 || !ctx->live)
		return r;
	/* root's, readable by all (read commands warn of a pending one) */
	if (mkdir(LIVE_DIR, 0755) < 0 && errno != EEXIST)
		return mlx_err(ctx, errno, "cannot create '%s': %s", LIVE_DIR, strerror(errno));
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return mlx_err(ctx, errno, "cannot create '%s': %s", dir, strerror(errno));
	/* as the live locks beside it (lib/core/lock.c): no one else's */
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)))
		return mlx_err(ctx, EPERM, "the journal directory '%s' is not this user's alone: "
			       "remove it and let mlxcli make it again", dir);
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* ---- the writer's side ---- */

int mlx_journal_begin(struct mlx_ctx *ctx, struct mlx_journal **out)
{
	struct mlx_journal *j = calloc(1, sizeof(*j));
	char dir[PATH_MAX], tmp[PATH_MAX], key[64], head[160];
	struct timespec ts;
	int r, dfd;

	if (!j)
		return mlx_err(ctx, ENOMEM, "out of memory");
	j->ctx = ctx;
	j->fd = -1;
	j->files = !ctx->live;
	r = make_area(ctx, dir, sizeof(dir), key, sizeof(key));
	if (r < 0)
		goto fail;
	clock_gettime(CLOCK_REALTIME, &ts);
	if (snprintf(j->path, sizeof(j->path), "%s/%s.%ld.%lld%09ld" SUFFIX, dir, key, (long)getpid(),
		     (long long)ts.tv_sec, ts.tv_nsec) >= (int)sizeof(j->path) ||
	    snprintf(tmp, sizeof(tmp), "%s/.%s.%ld.%lld%09ld" SUFFIX ".new", dir, key,
		     (long)getpid(), (long long)ts.tv_sec, ts.tv_nsec) >= (int)sizeof(tmp)) {
		r = mlx_err(ctx, ENAMETOOLONG, "the journal's name under '%s' is too long", dir);
		goto fail;
	}
	/* made under a name no one looks for, locked, its header written,
	 * then renamed: a journal is never seen unlocked by a live writer */
	j->fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (j->fd < 0) {
		r = mlx_err(ctx, errno, "cannot create the journal '%s': %s", tmp, strerror(errno));
		goto fail;
	}
	/* held while this transaction runs: a journal whose lock is free is
	 * an interrupted one's */
	if (flock(j->fd, LOCK_EX) < 0) {
		r = -errno;
		unlink(tmp);
		r = mlx_err(ctx, -r, "cannot lock the journal '%s': %s", tmp, strerror(-r));
		goto fail;
	}
	snprintf(head, sizeof(head), "mlxcli-journal 1\npid %ld\nstarted %lld\n", (long)getpid(),
		 (long long)ts.tv_sec);
	r = write_all(j->fd, head, strlen(head));
	if (r == 0 && fsync(j->fd) < 0)
		r = -errno;
	if (r == 0 && rename(tmp, j->path) < 0)
		r = -errno;
	/* the name too: a directory entry not yet on disk is no journal */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	if (r < 0) {
		unlink(tmp);
		r = mlx_err(ctx, -r, "cannot write the journal '%s': %s", j->path, strerror(-r));
		goto fail;
	}
	if (j->files)
		ctx->journal = j;
	*out = j;
	return 0;
fail:
	if (j->fd >= 0)
		close(j->fd);
	free(j);
	return r;
}

int mlx_journal_step(struct mlx_journal *j, const char *const *lines, size_t n)
{
	int r = 0;

	for (size_t i = 0; i < n && r == 0; i++) {
		char *l;

		if (asprintf(&l, "H %s\n", lines[i]) < 0)
			return mlx_err(j->ctx, ENOMEM, "out of memory");
		r = write_all(j->fd, l, strlen(l));
		free(l);
	}
	if (r == 0 && fsync(j->fd) < 0)
		r = -errno;
	return r < 0 ? mlx_err(j->ctx, -r, "cannot write the journal '%s': %s", j->path,
			       strerror(-r)) : 0;
}

/* Inside the captured system only (its links may lead out of it). */
static void remove_dir(struct mlx_ctx *ctx, const char *path)
{
	if (mlx_remove_tree(ctx, path) < 0)
		mlx_err_clear(ctx);
}

void mlx_journal_end(struct mlx_journal *j, bool committed, bool keep)
{
	if (!j)
		return;
	if (j->ctx->journal == j)
		j->ctx->journal = NULL;
	if (committed) {
		/* from here a recovery only cleans up */
		if (write_all(j->fd, "commit\n", 7) == 0)
			(void)fsync(j->fd);
	}
	/* a put-back that failed leaves the undo log for a recovery */
	for (size_t i = 0; i < j->ncleanup; i++) {
		if (!keep)
			remove_dir(j->ctx, j->cleanup[i]);
		free(j->cleanup[i]);
	}
	free(j->cleanup);
	if (!keep)
		unlink(j->path);
	close(j->fd);
	free(j);
}

/* ---- the undo log of a captured system ---- */

static char *hex(const void *data, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = data;
	char *s = malloc(2 * len + 2);

	if (!s)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		s[2 * i] = digits[p[i] >> 4];
		s[2 * i + 1] = digits[p[i] & 15];
	}
	if (!len)
		s[0] = '-', s[1] = '\0';
	else
		s[2 * len] = '\0';
	return s;
}

static int unhex(const char *s, char **out, size_t *len)
{
	size_t n = strlen(s);
	char *b;

	if (!strcmp(s, "-")) {
		*out = strdup("");
		*len = 0;
		return *out ? 0 : -ENOMEM;
	}
	if (n % 2)
		return -EBADMSG;
	b = malloc(n / 2 + 1);
	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < n / 2; i++) {
		int v = 0;

		for (int k = 0; k < 2; k++) {
			char c = s[2 * i + (size_t)k];

			v <<= 4;
			if (c >= '0' && c <= '9')
				v |= c - '0';
			else if (c >= 'a' && c <= 'f')
				v |= c - 'a' + 10;
			else {
				free(b);
				return -EBADMSG;
			}
		}
		b[i] = (char)v;
	}
	b[n / 2] = '\0';
	*out = b;
	*len = n / 2;
	return 0;
}

/* One record: KIND then its fields, hex-encoded (paths and bytes may hold
 * anything); written in one write(2). */
static int record(struct mlx_journal *j, char kind, const char *a, size_t alen, const char *b,
		  size_t blen, int flag)
{
	char *ha = hex(a, alen), *hb = b ? hex(b, blen) : NULL, *line = NULL;
	int r;

	if (!ha || (b && !hb)) {
		r = -ENOMEM;
		goto out;
	}
	if (flag >= 0)
		r = asprintf(&line, "%c %s %d %s\n", kind, ha, flag, hb ? hb : "-");
	else if (hb)
		r = asprintf(&line, "%c %s %s\n", kind, ha, hb);
	else
		r = asprintf(&line, "%c %s\n", kind, ha);
	r = r < 0 ? -ENOMEM : write_all(j->fd, line, strlen(line));
out:
	free(ha);
	free(hb);
	free(line);
	return r < 0 ? mlx_err(j->ctx, -r, "cannot write the journal '%s': %s", j->path,
			       strerror(-r)) : 0;
}

static struct mlx_journal *wal(struct mlx_ctx *ctx)
{
	return ctx->journal && ctx->journal->files ? ctx->journal : NULL;
}

int mlx_journal_file(struct mlx_ctx *ctx, const char *path)
{
	struct mlx_journal *j = wal(ctx);
	char *data = NULL;
	size_t len = 0;
	int r;

	if (!j)
		return 0;
	r = mlx_read_file(ctx, path, &data, &len);
	if (r == -ENOENT)
		return record(j, 'F', path, strlen(path), "", 0, 0);
	if (r < 0)
		return mlx_err(ctx, -r, "cannot keep the old '%s%s' in the journal: %s", mlx_root(ctx),
			       path, strerror(-r));
	r = record(j, 'F', path, strlen(path), data, len, 1);
	free(data);
	return r;
}

int mlx_journal_mkdir(struct mlx_ctx *ctx, const char *path)
{
	struct mlx_journal *j = wal(ctx);

	return j ? record(j, 'D', path, strlen(path), NULL, 0, -1) : 0;
}

int mlx_journal_link(struct mlx_ctx *ctx, const char *path)
{
	struct mlx_journal *j = wal(ctx);

	return j ? record(j, 'L', path, strlen(path), NULL, 0, -1) : 0;
}

int mlx_journal_unlink(struct mlx_ctx *ctx, const char *path, const char *target)
{
	struct mlx_journal *j = wal(ctx);

	return j ? record(j, 'U', path, strlen(path), target, strlen(target), -1) : 0;
}

int mlx_journal_move(struct mlx_ctx *ctx, const char *path, const char *aside)
{
	struct mlx_journal *j = wal(ctx);

	return j ? record(j, 'M', path, strlen(path), aside, strlen(aside), -1) : 0;
}

int mlx_journal_cleanup(struct mlx_ctx *ctx, const char *aside)
{
	struct mlx_journal *j = wal(ctx);
	char **v;

	if (!j)
		return 0;
	v = realloc(j->cleanup, (j->ncleanup + 1) * sizeof(*v));
	if (!v || !(v[j->ncleanup] = strdup(aside))) {
		if (v)
			j->cleanup = v;
		return mlx_err(ctx, ENOMEM, "out of memory");
	}
	j->cleanup = v;
	j->ncleanup++;
	if (record(j, 'X', aside, strlen(aside), NULL, 0, -1) < 0)
		mlx_err_clear(ctx);   /* kept in memory: removed at the end all the same */
	return 1;
}

/* ---- finding and recovering ---- */

static long name_pid(const char *name, const char *key);

/* "<key>.<pid>.<time><ns>.journal": its pid, 0 when the name is not one. */
static long name_pid(const char *name, const char *key)
{
	size_t kl = strlen(key), nl = strlen(name), sl = sizeof(SUFFIX) - 1;
	char *end;
	long pid;

	if (strncmp(name, key, kl) || name[kl] != '.' || nl <= kl + sl ||
	    strcmp(name + nl - sl, SUFFIX))
		return 0;
	pid = strtol(name + kl + 1, &end, 10);
	return *end == '.' && pid > 0 ? pid : 0;
}

void mlx_journal_sweep(struct mlx_ctx *ctx)
{
	char dir[PATH_MAX], key[64], path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (area(ctx, dir, sizeof(dir), key, sizeof(key), false) < 0) {
		mlx_err_clear(ctx);
		return;
	}
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		long pid;

		/* ".KEY.PID.TIME.journal.new": a writer died before its journal
		 * had a name (it had changed nothing) */
		if (e->d_name[0] != '.' || l < 5 || strcmp(e->d_name + l - 4, ".new"))
			continue;
		e->d_name[l - 4] = '\0';
		pid = name_pid(e->d_name + 1, key);
		e->d_name[l - 4] = '.';
		if (pid && kill((pid_t)pid, 0) < 0 && errno == ESRCH &&
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < (int)sizeof(path))
			unlink(path);
	}
	closedir(d);
}

int mlx_journal_list(struct mlx_ctx *ctx, void (*fn)(void *arg, const struct mlx_journal_found *f),
		     void *arg)
{
	char dir[PATH_MAX], key[64];
	struct dirent *e;
	DIR *d;
	int n = 0;

	if (area(ctx, dir, sizeof(dir), key, sizeof(key), false) < 0) {
		mlx_err_clear(ctx);
		return 0;
	}
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		struct mlx_journal_found f;
		long pid = name_pid(e->d_name, key);
		char *p;
		int fd;

		if (!pid || snprintf(f.path, sizeof(f.path), "%s/%s", dir, e->d_name) >= (int)sizeof(f.path))
			continue;
		f.pid = pid;
		p = strchr(e->d_name + strlen(key) + 1, '.');
		f.started = p ? strtoll(p + 1, NULL, 10) / 1000000000LL : 0;
		/* its writer holds its lock; else (not ours to open) ask
		 * whether the process lives */
		fd = open(f.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			f.alive = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
			close(fd);
		} else {
			f.alive = kill((pid_t)pid, 0) == 0 || errno == EPERM;
		}
		fn(arg, &f);
		n++;
	}
	closedir(d);
	return n;
}

struct rec {
	char kind;
	char *a, *b;
	size_t alen, blen;
	int flag;
};

static void recs_free(struct rec *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].a);
		free(v[i].b);
	}
	free(v);
}

/* The temporary files an interrupted mlx_replace_file() of @path left:
 * .NAME.PID.N.tmp beside it. */
static void remove_tmps(struct mlx_ctx *ctx, const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], **names = NULL;
	size_t n = 0, bl;
	int dfd;

	if (!slash || slash == path || (size_t)(slash - path) >= sizeof(dir))
		return;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	bl = strlen(slash + 1);
	if (mlx_list_dir(ctx, dir, &names, &n) < 0) {
		mlx_err_clear(ctx);
		return;
	}
	dfd = mlx_open(ctx, dir, O_PATH | O_DIRECTORY, 0);
	for (size_t i = 0; dfd >= 0 && i < n; i++) {
		const char *s = names[i], *p;
		size_t sl = strlen(s);

		/* "." NAME "." digits "." digits ".tmp" */
		if (s[0] != '.' || strncmp(s + 1, slash + 1, bl) || s[bl + 1] != '.' || sl < bl + 8 ||
		    strcmp(s + sl - 4, ".tmp"))
			continue;
		for (p = s + bl + 2; p < s + sl - 4 && (*p == '.' || (*p >= '0' && *p <= '9')); p++)
			;
		if (p == s + sl - 4)
			unlinkat(dfd, s, 0);
	}
	if (dfd >= 0)
		close(dfd);
	mlx_strv_free(names);
}

static int at_dir(struct mlx_ctx *ctx, const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];

	if (!slash || slash == path || (size_t)(slash - path) >= sizeof(dir) || !slash[1])
		return -EINVAL;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	*base = slash + 1;
	return mlx_open(ctx, dir, O_PATH | O_DIRECTORY, 0);
}

/* Undo one record; what is already undone is left alone (a recovery that
 * was itself interrupted replays the same records again). */
static int undo(struct mlx_ctx *ctx, const struct rec *r)
{
	const char *base, *aside_base;
	char target[PATH_MAX];
	struct stat st;
	int dfd, e = 0;

	switch (r->kind) {
	case 'F':
		if (r->flag)
			e = mlx_replace_file(ctx, r->a, r->b, r->blen);
		else if ((dfd = at_dir(ctx, r->a, &base)) >= 0) {
			if (unlinkat(dfd, base, 0) < 0 && errno != ENOENT)
				e = -errno;
			close(dfd);
		}
		remove_tmps(ctx, r->a);
		return e;
	case 'D':
		remove_dir(ctx, r->a);
		return 0;
	case 'L':
		if ((dfd = at_dir(ctx, r->a, &base)) < 0)
			return dfd == -ENOENT ? 0 : dfd;
		if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode) &&
		    unlinkat(dfd, base, 0) < 0)
			e = -errno;
		close(dfd);
		return e;
	case 'U':
		if ((dfd = at_dir(ctx, r->a, &base)) < 0)
			return dfd;
		if (readlinkat(dfd, base, target, sizeof(target)) < 0 &&
		    symlinkat(r->b, dfd, base) < 0 && errno != EEXIST)
			e = -errno;
		close(dfd);
		return e;
	case 'M':
		if ((dfd = at_dir(ctx, r->a, &base)) < 0)
			return dfd;
		aside_base = strrchr(r->b, '/') ? strrchr(r->b, '/') + 1 : r->b;
		if (fstatat(dfd, aside_base, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			/* what took its place is a newer record's, already undone */
			if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0)
				remove_dir(ctx, r->a);
			if (renameat(dfd, aside_base, dfd, base) < 0)
				e = -errno;
		}
		close(dfd);
		return e;
	default:
		return 0;
	}
}

static int parse(char *text, size_t len, struct mlx_journal_rec *out, struct rec **recs,
		 size_t *nrec)
{
	char *line = text, *end = text + len;
	bool head = false;

	while (line < end) {
		char *nl = memchr(line, '\n', (size_t)(end - line));
		char *f[4] = { NULL }, *save = NULL;
		struct rec r = { 0 };
		int nf = 0;

		if (!nl)
			break;          /* a record the writer did not finish: it did nothing */
		*nl = '\0';
		if (!head) {
			if (strcmp(line, "mlxcli-journal 1"))
				return -EBADMSG;
			head = true;
		} else if (!strncmp(line, "pid ", 4)) {
			out->pid = strtol(line + 4, NULL, 10);
		} else if (!strncmp(line, "started ", 8) || !*line) {
			;
		} else if (!strcmp(line, "commit")) {
			out->committed = true;
		} else if (!strncmp(line, "H ", 2)) {
			char **v = realloc(out->lines, (out->nlines + 1) * sizeof(*v));

			if (!v || !(v[out->nlines] = strdup(line + 2))) {
				if (v)
					out->lines = v;
				return -ENOMEM;
			}
			out->lines = v;
			out->nlines++;
		} else if (strchr("FDLUMX", line[0]) && line[1] == ' ') {
			struct rec *v;

			for (char *t = strtok_r(line + 2, " ", &save); t && nf < 4;
			     t = strtok_r(NULL, " ", &save))
				f[nf++] = t;
			r.kind = line[0];
			r.flag = -1;
			if (nf < 1 || unhex(f[0], &r.a, &r.alen) < 0 || strlen(r.a) != r.alen ||
			    r.a[0] != '/')
				goto bad;
			if (r.kind == 'F') {
				if (nf != 3 || unhex(f[2], &r.b, &r.blen) < 0)
					goto bad;
				r.flag = atoi(f[1]) != 0;
			} else if (strchr("UM", r.kind)) {
				if (nf != 2 || unhex(f[1], &r.b, &r.blen) < 0 || strlen(r.b) != r.blen)
					goto bad;
			}
			v = realloc(*recs, (*nrec + 1) * sizeof(*v));
			if (!v)
				goto bad;
			*recs = v;
			v[(*nrec)++] = r;
		} else {
			return -EBADMSG;
		}
		line = nl + 1;
		continue;
bad:
		free(r.a);
		free(r.b);
		return -EBADMSG;
	}
	return head ? 0 : -EBADMSG;
}

int mlx_journal_open(struct mlx_ctx *ctx, const char *path, struct mlx_journal_rec *out)
{
	struct rec *recs = NULL;
	size_t nrec = 0, len = 0;
	char *text = NULL;
	struct stat st;
	int r;

	memset(out, 0, sizeof(*out));
	out->path = path;
	out->files = !ctx->live;
	out->fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (out->fd < 0)
		return mlx_err(ctx, errno, "cannot open the journal '%s': %s", path, strerror(errno));
	if (flock(out->fd, LOCK_EX | LOCK_NB) < 0) {
		r = errno == EWOULDBLOCK ? -EBUSY : -errno;
		close(out->fd);
		out->fd = -1;
		return mlx_err(ctx, -r, "the journal '%s' is in use: its writer runs", path);
	}
	if (fstat(out->fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > (1 << 28)) {
		r = mlx_err(ctx, EBADMSG, "'%s' is no journal", path);
		goto fail;
	}
	len = (size_t)st.st_size;
	text = malloc(len + 1);
	if (!text) {
		r = mlx_err(ctx, ENOMEM, "out of memory");
		goto fail;
	}
	if (pread(out->fd, text, len, 0) != (ssize_t)len) {
		r = mlx_err(ctx, EIO, "cannot read the journal '%s'", path);
		goto fail;
	}
	text[len] = '\0';
	r = parse(text, len, out, &recs, &nrec);
	if (r == -EBADMSG && !len) {
		r = 0;      /* made, not yet written: nothing was changed */
	} else if (r < 0) {
		r = mlx_err(ctx, -r, "the journal '%s' is damaged: %s", path, strerror(-r));
		goto fail;
	}
	out->undo = recs;
	out->nundo = nrec;
	free(text);
	return r;
fail:
	recs_free(recs, nrec);
	free(text);
	mlx_journal_close(out, false);
	return r;
}

int mlx_journal_replay(struct mlx_ctx *ctx, struct mlx_journal_rec *jr)
{
	struct rec *recs = jr->undo;
	int r = 0;

	/* newest first; a committed transaction only cleans up */
	for (size_t i = jr->nundo; !jr->committed && i-- > 0;)
		if (undo(ctx, &recs[i]) < 0 && !r)
			r = mlx_err(ctx, EIO, "cannot undo the change of '%s%s' in the journal '%s': %s",
				    mlx_root(ctx), recs[i].a, jr->path, mlx_errmsg(ctx));
	for (size_t i = 0; jr->committed && i < jr->nundo; i++)
		if (recs[i].kind == 'X')
			remove_dir(ctx, recs[i].a);
	return r;
}

void mlx_journal_close(struct mlx_journal_rec *r, bool done)
{
	recs_free(r->undo, r->nundo);
	r->undo = NULL;
	r->nundo = 0;
	if (done && r->path)
		unlink(r->path);
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	for (size_t i = 0; i < r->nlines; i++)
		free(r->lines[i]);
	free(r->lines);
	r->lines = NULL;
	r->nlines = 0;
}
