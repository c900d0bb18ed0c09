/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The firmware's life cycle (issue 27, lib/fw.h): `fw flash` and `fw
 * activate` as two actions of the write engine (lib/txn.h
 * MLX_ACT_FW_FLASH, MLX_ACT_FW_ACTIVATE): the device's lock, the plan, a
 * confirmation, the signals held, the change record.
 *
 * A flash, in order:
 *  1. the image is read whole and checked before anything is sent
 *     (mlx_fw_image_load, mlx_fw_image_check): a regular file, 1 byte to
 *     256 MiB; for mlx5 an MFA2 archive holding the device's PSID, since
 *     that is all its flash takes (mlxfw_fsm.c: "Firmware file is not
 *     MFA2", "Could not find device PSID in MFA2 file");
 *  2. DEVLINK_CMD_FLASH_UPDATE takes a file NAME, which the kernel opens
 *     itself through request_firmware() (net/devlink
 *     devlink_nl_cmd_flash_update), searching the firmware loader's
 *     directories from the initial namespace's root: so the image must be
 *     there.  A file already in one of them is named as it is; any other is
 *     copied (the bytes checked in 1, not the file again) to a new
 *     /lib/firmware/mlxcli-flash-<pid>-<n>.bin and removed as soon as the
 *     kernel has read it (its DEVLINK_CMD_FLASH_UPDATE notification comes
 *     after request_firmware returned), or at the end at the latest; a
 *     copy a killed run left is removed by the next one;
 *  3. the request blocks in the kernel for the whole flash (the driver's
 *     flash_update runs in the sender's context), so it is sent from a
 *     thread while this one reads the devlink "config" multicast group:
 *     the driver's status notifications become progress;
 *  4. a signal cannot stop a flash the kernel runs: it is said at once
 *     (with how far the device is) and the run waits for the kernel's
 *     answer, which then says what the device holds.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>

#include "fw.h"
#include "mlx-private.h"
#include "nl.h"
#include "sriov.h"
#include "write.h"

#define FW_DIR "/lib/firmware"
#define STAGE_PREFIX "mlxcli-flash-"

/* ---- the image ---- */

int mlx_fw_image_load(struct mlx_ctx *ctx, const char *file, struct mlx_fw_flash *f)
{
	char why[160] = "";
	struct stat st;
	size_t got = 0;
	int fd, e;

	f->file = file;
	f->image = NULL;
	f->len = 0;
	/* O_NONBLOCK: a FIFO named as the image must not hang the open */
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		e = errno;
		return mlx_err(ctx, e, "cannot open the image '%s': %s", file, strerror(e));
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		close(fd);
		return mlx_err(ctx, e, "cannot stat the image '%s': %s", file, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return mlx_err(ctx, S_ISDIR(st.st_mode) ? EISDIR : EINVAL, "the image '%s' is %s, not "
			       "a regular file", file, S_ISDIR(st.st_mode) ? "a directory" : "a special file");
	}
	if (st.st_size == 0) {
		close(fd);
		return mlx_err(ctx, ENODATA, "the image '%s' is empty", file);
	}
	if ((uint64_t)st.st_size > MLX_FW_IMAGE_MAX_BYTES) {
		close(fd);
		return mlx_err(ctx, EFBIG, "the image '%s' is %lld bytes: more than any ConnectX "
			       "firmware (at most %u MiB are read)", file, (long long)st.st_size,
			       MLX_FW_IMAGE_MAX_BYTES >> 20);
	}
	f->image = malloc((size_t)st.st_size);
	if (!f->image) {
		close(fd);
		return mlx_err(ctx, ENOMEM, "out of memory for the image '%s'", file);
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, f->image + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : EIO;
			close(fd);
			free(f->image);
			f->image = NULL;
			return mlx_err(ctx, e, "cannot read the image '%s': %s", file,
				       n < 0 ? strerror(e) : "it shrank while being read");
		}
		got += (size_t)n;
	}
	close(fd);
	f->len = got;
	if (mlx_fw_image_decode(f->image, f->len, &f->info, why, sizeof(why)) < 0)
		return mlx_err(ctx, EBADMSG, "the image '%s' is a broken MFA2 archive: %s", file, why);
	return 0;
}

void mlx_fw_flash_init(struct mlx_fw_flash *f)
{
	memset(f, 0, sizeof(*f));
	f->dirfd = -1;
}

void mlx_fw_flash_free(struct mlx_fw_flash *f)
{
	free(f->image);
	f->image = NULL;
	if (f->dirfd >= 0)
		close(f->dirfd);
	f->dirfd = -1;
}

int mlx_fw_image_check(struct mlx_ctx *ctx, const struct mlx_fw_flash *f, const char *on)
{
	const struct mlx_fw_image *im = &f->info;

	if (f->mfa2_only && im->kind != MLX_FW_IMAGE_MFA2) {
		if (im->kind == MLX_FW_IMAGE_FS3 || im->kind == MLX_FW_IMAGE_FS4)
			return mlx_err(ctx, EINVAL, "'%s' is a raw firmware image (%s, flint's format): "
				       "the mlx5 driver flashes MFA2 archives only (mlxfw: \"Firmware "
				       "file is not MFA2\"); burn a raw image with mstflint, or give "
				       "the .mfa2 of this release", f->file,
				       im->kind == MLX_FW_IMAGE_FS3 ? "FS3" : "FS4");
		return mlx_err(ctx, EINVAL, "'%s' is no MFA2 firmware archive (it does not start "
			       "with \"MLNX.MFA2.XZ.00!\"): the mlx5 driver of %s flashes nothing else",
			       f->file, on);
	}
	if (im->kind == MLX_FW_IMAGE_MFA2 && f->psid[0] && !mlx_fw_image_has_psid(im, f->psid)) {
		char list[300] = "";
		size_t l = 0;

		for (size_t i = 0; i < im->npsid && l < sizeof(list); i++)
			l += (size_t)snprintf(list + l, sizeof(list) - l, "%s%s", i ? ", " : "",
					      im->psid[i][0] ? im->psid[i] : "?");
		return mlx_err(ctx, EINVAL, "'%s' holds no image for %s's PSID %s (it has: %s): the "
			       "firmware would refuse it (\"Could not find device PSID in MFA2 "
			       "file\")", f->file, on, f->psid, im->npsid ? list : "none");
	}
	return 0;
}

/* ---- where the loader looks ---- */

/* drivers/base/firmware_loader/main.c fw_path[] after the
 * firmware_class.path parameter */
static int loader_dirs(struct mlx_ctx *ctx, char dirs[5][PATH_MAX], size_t *n)
{
	struct utsname u;
	char custom[PATH_MAX] = "";

	*n = 0;
	if (mlx_read_str(ctx, "/sys/module/firmware_class/parameters/path", custom,
			 sizeof(custom)) == 0 && custom[0] == '/')
		snprintf(dirs[(*n)++], PATH_MAX, "%s", custom);
	mlx_err_clear(ctx);
	if (uname(&u) < 0)
		return mlx_err(ctx, errno, "uname: %s", strerror(errno));
	snprintf(dirs[(*n)++], PATH_MAX, FW_DIR "/updates/%s", u.release);
	snprintf(dirs[(*n)++], PATH_MAX, FW_DIR "/updates");
	snprintf(dirs[(*n)++], PATH_MAX, FW_DIR "/%s", u.release);
	snprintf(dirs[(*n)++], PATH_MAX, FW_DIR);
	for (size_t i = 0; i < *n; i++) {
		size_t l = strlen(dirs[i]);

		while (l > 1 && dirs[i][l - 1] == '/')
			dirs[i][--l] = '\0';
	}
	return 0;
}

/* Is there a file @name in a directory before @upto? */
static const char *shadowed(struct mlx_ctx *ctx, char dirs[5][PATH_MAX], size_t upto, const char *name)
{
	static char path[PATH_MAX + 160];

	for (size_t i = 0; i < upto; i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i], name);
		if (mlx_exists(ctx, path))
			return path;
	}
	return NULL;
}

/* A copy a run that was killed left: mlxcli-flash-<pid>-<n>.bin whose
 * writer is gone. */
static void stale_remove(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		long pid;
		char *end;

		if (strncmp(e->d_name, STAGE_PREFIX, sizeof(STAGE_PREFIX) - 1))
			continue;
		pid = strtol(e->d_name + sizeof(STAGE_PREFIX) - 1, &end, 10);
		if (pid <= 0 || *end != '-' || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
			unlinkat(dirfd, e->d_name, 0);
	}
	closedir(d);
}

int mlx_fw_stage(struct mlx_ctx *ctx, struct mlx_fw_flash *f, bool dry)
{
	char dirs[5][PATH_MAX], real[PATH_MAX], name[96];
	const char *sh;
	size_t n, off = 0;
	int e, fd;

	f->staged = f->removed = false;
	e = loader_dirs(ctx, dirs, &n);
	if (e < 0)
		return e;
	/* already where the loader looks: by its name there (on a captured
	 * system the flash itself is refused: lib/emul/device-emul.c) */
	if (realpath(f->file, real)) {
		for (size_t i = 0; i < n; i++) {
			/* the directory resolved as the file is: on a merged-/usr
			 * system /lib/firmware/x is /usr/lib/firmware/x */
			char rdir[PATH_MAX];
			const char *d = realpath(dirs[i], rdir) ? rdir : dirs[i];
			size_t l = strlen(d);

			if (strncmp(real, d, l) || real[l] != '/' || !real[l + 1])
				continue;
			if (strlen(real + l + 1) >= sizeof(f->loader_name))
				break;
			sh = shadowed(ctx, dirs, i, real + l + 1);
			if (sh)
				return mlx_err(ctx, EEXIST, "the kernel would load %s instead of '%s': it "
					       "comes first in the firmware loader's search path", sh,
					       f->file);
			snprintf(f->loader_name, sizeof(f->loader_name), "%s", real + l + 1);
			return 0;
		}
	}
	snprintf(name, sizeof(name), STAGE_PREFIX "%ld-%u.bin", (long)getpid(), mlx_ctx_seq(ctx));
	sh = shadowed(ctx, dirs, n - 1, name);
	if (sh)
		return mlx_err(ctx, EEXIST, "the kernel would load %s instead of mlxcli's copy: it "
			       "comes first in the firmware loader's search path", sh);
	snprintf(f->loader_name, sizeof(f->loader_name), "%s", name);
	f->staged = true;
	if (dry)
		return 0;
	f->dirfd = mlx_open(ctx, FW_DIR, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
	if (f->dirfd < 0) {
		e = f->dirfd;
		f->dirfd = -1;
		f->staged = false;
		return mlx_err(ctx, -e, "cannot put the image where the kernel's firmware loader "
			       "looks (" FW_DIR "): %s; copy it under " FW_DIR " and name that copy",
			       strerror(-e));
	}
	stale_remove(f->dirfd);
	fd = openat(f->dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		e = errno;
		f->staged = false;
		return mlx_err(ctx, e, "cannot put the image where the kernel's firmware loader "
			       "looks (" FW_DIR "/%s): %s; copy it under " FW_DIR " (or the directory "
			       "of firmware_class.path) and name that copy", name, strerror(e));
	}
	while (off < f->len) {
		ssize_t w = write(fd, f->image + off, f->len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			e = w < 0 ? errno : EIO;
			close(fd);
			unlinkat(f->dirfd, name, 0);
			f->staged = false;
			return mlx_err(ctx, e, "cannot write " FW_DIR "/%s: %s", name, strerror(e));
		}
		off += (size_t)w;
	}
	if (close(fd) < 0) {
		e = errno;
		unlinkat(f->dirfd, name, 0);
		f->staged = false;
		return mlx_err(ctx, e, "cannot write " FW_DIR "/%s: %s", name, strerror(e));
	}
	return 0;
}

static void unstage(struct mlx_fw_flash *f)
{
	if (f->staged && !f->removed && f->dirfd >= 0 && unlinkat(f->dirfd, f->loader_name, 0) == 0)
		f->removed = true;
}

/* ---- the actions' writers ---- */

int mlx_fw_act_open(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t, void *parent)
{
	struct mlx_fw_act_writer *w = feat;

	(void)ctx;
	(void)parent;
	memset(w, 0, sizeof(*w));
	w->t = *t;
	return 0;
}

int mlx_fw_flash_may_write(struct mlx_ctx *ctx, const struct mlx_port_ref *t)
{
	/* an incident is never written; a captured system's device emulator
	 * refuses the flash and the reload themselves (lib/emul/device-emul.c) */
	(void)t;
	return mlx_may_write(ctx);
}

static int act_change(struct mlx_plan *pl, const char *setting, const char *old, const char *what)
{
	int k = mlx_plan_add(pl, setting, NULL, 0, 0, mlx_val_str(what));

	if (k < 0)
		return -ENOMEM;
	/* a firmware change is never undone by mlxcli: confirmed first */
	pl->c[k].flags = MLX_CHG_ACTION | MLX_CHG_DESTROYS;
	if (old)
		pl->c[k].old = mlx_val_str(old);
	return 0;
}

int mlx_fw_flash_plan(struct mlx_ctx *ctx, void *feat, const void *obj, struct mlx_plan *pl)
{
	struct mlx_fw_act_writer *w = feat;
	struct mlx_fw_flash *f = (struct mlx_fw_flash *)obj;
	char what[300];
	int e;

	w->obj = obj;
	if (!w->t.fn)
		return mlx_err(ctx, EINVAL, "a flash needs a devlink instance");
	e = mlx_fw_flash_may_write(ctx, &w->t);
	if (e == 0)
		e = mlx_fw_stage(ctx, f, true);
	if (e < 0)
		return e;
	snprintf(what, sizeof(what), "%s%s%s (%s, %zu bytes, loaded as %s%s)", f->file,
		 f->component ? " component " : "", f->component ? f->component : "",
		 mlx_fw_image_kind_name(f->info.kind), f->len, f->staged ? FW_DIR "/" : "",
		 f->loader_name);
	return act_change(pl, "flash", NULL, what) < 0 ? mlx_err(ctx, ENOMEM, "out of memory") : 0;
}

struct flash_thread {
	struct mlx_ctx *ctx;
	char obj[96];
	uint8_t req[512];
	size_t len;
	int r;
	int wake;                     /* written when the request returned */
};

static void *flash_run(void *arg)
{
	struct flash_thread *t = arg;

	t->r = mlx_nl_query(t->ctx, MLX_NL_DEVLINK, t->obj, "flash-update", t->req, t->len, NULL,
			    NULL);
	while (write(t->wake, "x", 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* The notifications waiting on @fd for @bus/@dev. */
static void read_status(int fd, struct mlx_fw_flash *f, const char *bus, const char *dev,
			uint8_t *buf, size_t cap)
{
	for (;;) {
		ssize_t n = recv(fd, buf, cap, MSG_DONTWAIT);
		size_t off = 0;

		if (n < 0 && errno == EINTR)
			continue;
		/* ENOBUFS: some were lost to a storm; the next ones follow */
		if (n < 0 && errno == ENOBUFS)
			continue;
		if (n <= 0)
			return;
		while (off + NLMSG_HDRLEN <= (size_t)n) {
			struct nlmsghdr h;
			struct mlx_flash_status st;

			memcpy(&h, buf + off, sizeof(h));
			if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > (size_t)n - off)
				break;
			if (mlx_flash_status_decode((const struct nlmsghdr *)(buf + off), h.nlmsg_len,
						    bus, dev, &st) == 1) {
				/* the kernel has read the file: the copy can go */
				if (st.cmd == DEVLINK_CMD_FLASH_UPDATE)
					unstage(f);
				if (st.cmd == DEVLINK_CMD_FLASH_UPDATE_STATUS) {
					f->last = st;
					f->nstatus++;
				}
				if (f->progress)
					f->progress(f->progress_arg, &st, 0);
			}
			off += NLMSG_ALIGN(h.nlmsg_len);
		}
	}
}

static int held_signal(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	sigset_t p;

	if (sigpending(&p) < 0)
		return 0;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigismember(&p, sigs[i]) == 1)
			return sigs[i];
	return 0;
}

static int flash_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		       const struct mlx_val *v)
{
	static const struct mlx_nl_group config = {
		.proto = NETLINK_GENERIC, .genl_family = DEVLINK_GENL_NAME,
		.genl_group = DEVLINK_GENL_MCGRP_CONFIG_NAME, .what = "devlink flash status",
	};
	struct mlx_fw_act_writer *w = feat;
	struct mlx_fw_flash *f = (struct mlx_fw_flash *)w->obj;
	const struct mlx_function *fn = w->t.fn;
	struct flash_thread *t = NULL;
	pthread_t th;
	uint8_t *buf = NULL;
	int sub = -1, pipefd[2] = { -1, -1 }, e, len;
	bool started = false, done = false;

	(void)c;
	(void)v;
	e = mlx_fw_stage(ctx, f, false);
	if (e < 0)
		return e;
	t = calloc(1, sizeof(*t));
	buf = malloc(65536);
	if (!t || !buf) {
		e = mlx_err(ctx, ENOMEM, "out of memory");
		goto out;
	}
	t->ctx = ctx;
	mlx_devlink_object(fn, t->obj, sizeof(t->obj));
	len = mlx_flash_build(t->req, sizeof(t->req), mlx_fn_bus(fn), fn->bdf, f->loader_name,
			      f->component);
	if (len < 0) {
		e = mlx_err(ctx, -len, "cannot build the flash request");
		goto out;
	}
	t->len = (size_t)len;
	/* the notifications first, so that none is missed; without them the
	 * flash still runs, only without progress */
	{
		struct mlx_event_stream es = { .fd = -1 };

		sub = mlx_kernel_event_stream(ctx, &config, &es) == 0 ? es.fd : -1;
		if (sub < 0)
			mlx_err_clear(ctx);
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		e = mlx_err(ctx, errno, "pipe: %s", strerror(errno));
		goto out;
	}
	t->wake = pipefd[1];
	/* from here the context is the thread's until it is joined */
	e = pthread_create(&th, NULL, flash_run, t);
	if (e) {
		e = mlx_err(ctx, e, "cannot start the flash: %s", strerror(e));
		goto out;
	}
	started = true;
	while (!done) {
		struct pollfd p[2] = { { pipefd[0], POLLIN, 0 }, { sub, POLLIN, 0 } };
		int sig;

		if (poll(p, sub >= 0 ? 2 : 1, 250) < 0 && errno != EINTR)
			break;
		if (sub >= 0 && (p[1].revents & POLLIN))
			read_status(sub, f, mlx_fn_bus(fn), fn->bdf, buf, 65536);
		if (p[0].revents & POLLIN)
			done = true;
		/* a held signal: said once; the kernel's flash goes on */
		if (!f->signal && (sig = held_signal())) {
			f->signal = sig;
			if (f->progress)
				f->progress(f->progress_arg, &f->last, sig);
		}
	}
	pthread_join(th, NULL);
	started = false;
	if (sub >= 0)
		read_status(sub, f, mlx_fn_bus(fn), fn->bdf, buf, 65536);
	e = t->r;
	if (e < 0 && !*mlx_errmsg(ctx))
		mlx_err(ctx, -e, "the flash of %s failed: %s", fn->bdf, strerror(-e));
out:
	if (started)
		pthread_join(th, NULL);
	unstage(f);
	if (sub >= 0)
		close(sub);
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	free(buf);
	free(t);
	return e;
}

const struct mlx_write_ops mlx_fw_flash_ops = { .write = flash_write };

/* ---- activation: DEVLINK_CMD_RELOAD action fw_activate ---- */

struct caps_arg {
	struct mlx_reload_caps *out;
	int r;
	bool got;
};

static int caps_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct caps_arg *a = arg;

	if (a->got)
		return 0;
	a->r = mlx_devlink_caps_decode(h, len, a->out);
	a->got = a->r == 0;
	return a->r;
}

int mlx_devlink_reload_caps(struct mlx_ctx *ctx, const struct mlx_function *fn,
			    struct mlx_reload_caps *out)
{
	struct caps_arg a = { out, 0, false };
	uint8_t req[160];
	char obj[96];
	int len, r;

	memset(out, 0, sizeof(*out));
	mlx_devlink_object(fn, obj, sizeof(obj));
	len = mlx_devlink_get_build(req, sizeof(req), mlx_fn_bus(fn), fn->bdf);
	if (len < 0)
		return len;
	r = mlx_nl_query(ctx, MLX_NL_DEVLINK, obj, "dev-get", req, (size_t)len, caps_cb, &a);
	if (r < 0 && a.r < 0)
		return mlx_err(ctx, EBADMSG, "cannot decode the devlink reply of %s", fn->bdf);
	if (r < 0)
		return mlx_err(ctx, -r, "devlink dev of %s: %s%s%s", fn->bdf, strerror(-r),
			       *mlx_nl_extack(ctx) ? ": " : "", mlx_nl_extack(ctx));
	return a.got ? 0 : mlx_err(ctx, ENODATA, "no devlink reply for %s", fn->bdf);
}

static void action_list(uint32_t bits, char *buf, size_t len)
{
	size_t l = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < 32 && l < len; i++)
		if (bits & (1u << i))
			l += (size_t)snprintf(buf + l, len - l, "%s%s", l ? ", " : "",
					      mlx_reload_action_name(i) ? mlx_reload_action_name(i) : "?");
	if (!buf[0])
		snprintf(buf, len, "none");
}

int mlx_fw_activate_plan(struct mlx_ctx *ctx, void *feat, const void *obj, struct mlx_plan *pl)
{
	struct mlx_fw_act_writer *w = feat;
	struct mlx_fw_activate *a = (struct mlx_fw_activate *)obj;
	struct mlx_fw_info *fi;
	char what[160], list[80];
	bool no_reset;
	int e;

	w->obj = obj;
	if (!w->t.fn)
		return mlx_err(ctx, EINVAL, "an activation needs a devlink instance");
	e = mlx_fw_flash_may_write(ctx, &w->t);
	if (e == 0)
		e = mlx_devlink_reload_caps(ctx, w->t.fn, &w->caps);
	/* no DEVLINK_CMD_GET reply (a capture that recorded none): what the
	 * device can reload is unknown, and the reload request's answer says */
	if (e == -ENODATA) {
		mlx_err_clear(ctx);
		memset(&w->caps, 0, sizeof(w->caps));
		e = 0;
	}
	if (e < 0)
		return e;
	if (w->caps.known && !(w->caps.actions & (1u << DEVLINK_RELOAD_ACTION_FW_ACTIVATE))) {
		action_list(w->caps.actions, list, sizeof(list));
		return mlx_err(ctx, EOPNOTSUPP, "the driver of %s cannot activate firmware by a "
			       "reload (devlink reload actions it offers: %s)", w->t.fn->bdf, list);
	}
	fi = malloc(sizeof(*fi));
	if (!fi)
		return mlx_err(ctx, ENOMEM, "out of memory");
	mlx_fw_versions(ctx, w->t.fn, fi);
	mlx_err_clear(ctx);
	snprintf(a->running_before, sizeof(a->running_before), "%s", fi->running);
	snprintf(a->stored, sizeof(a->stored), "%s", fi->stored);
	/* nothing stored beyond what runs: nothing to activate (a change that
	 * changes nothing, as every write that finds its value in place) */
	if (fi->running[0] && fi->stored[0] && !fi->reset_pending && !fi->stored_query_failed) {
		free(fi);
		if (mlx_plan_note(pl, "%s runs the stored firmware %s: nothing to activate",
				  w->t.fn->bdf, a->stored) < 0)
			return mlx_err(ctx, ENOMEM, "out of memory");
		return 0;
	}
	free(fi);
	/* mlx5: limit no_reset is a live patch, no down time; the device
	 * refuses it when the new image cannot be patched in
	 * (devlink.c mlx5_devlink_reload_fw_activate) */
	no_reset = !a->reset && (w->caps.limits[DEVLINK_RELOAD_ACTION_FW_ACTIVATE] &
				 (1u << DEVLINK_RELOAD_LIMIT_NO_RESET));
	a->limit = no_reset ? DEVLINK_RELOAD_LIMIT_NO_RESET : DEVLINK_RELOAD_LIMIT_UNSPEC;
	snprintf(what, sizeof(what), "%s (fw_activate%s)", a->stored[0] ? a->stored : "the stored image",
		 no_reset ? ", limit no_reset: no down time" : ": a firmware reset, traffic stops");
	if (act_change(pl, "running_version", a->running_before[0] ? a->running_before : NULL,
		       what) < 0)
		return mlx_err(ctx, ENOMEM, "out of memory");
	return 0;
}

static int reload_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	uint32_t *performed = arg;

	return mlx_reload_reply_decode(h, len, performed) < 0 ? -EBADMSG : 0;
}

static int activate_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
			  const struct mlx_val *v)
{
	struct mlx_fw_act_writer *w = feat;
	struct mlx_fw_activate *a = (struct mlx_fw_activate *)w->obj;
	const struct mlx_function *fn = w->t.fn;
	uint8_t req[200];
	char obj[96];
	int len, r;

	(void)c;
	(void)v;
	mlx_devlink_object(fn, obj, sizeof(obj));
	len = mlx_reload_build(req, sizeof(req), mlx_fn_bus(fn), fn->bdf,
			       DEVLINK_RELOAD_ACTION_FW_ACTIVATE, a->limit);
	if (len < 0)
		return mlx_err(ctx, -len, "cannot build the reload request");
	r = mlx_nl_query(ctx, MLX_NL_DEVLINK, obj, "reload-fw-activate", req, (size_t)len, reload_cb,
			 &a->performed);
	if (r == -EBADMSG && !*mlx_errmsg(ctx))
		return mlx_err(ctx, EBADMSG, "cannot decode the reload reply of %s", fn->bdf);
	if (r < 0)
		return mlx_err(ctx, -r, "the firmware activation of %s failed: %s%s%s", fn->bdf,
			       r == -EOPNOTSUPP ? "not supported" : strerror(-r),
			       *mlx_nl_extack(ctx) ? ": " : "", mlx_nl_extack(ctx));
	return 0;
}

const struct mlx_write_ops mlx_fw_activate_ops = { .write = activate_write };
