/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The context object: the root of the target system, the error detail of
 * the last failure and the log sink.  No globals anywhere in lib/, so the
 * interactive shell can run many commands in one process.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/stat.h>
#include <unistd.h>

#include "incident.h"
#include "lock.h"
#include "mlx-private.h"

static int dir_ok(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

static char *fmt_alloc(const char *fmt, const char *a, const char *b)
{
	char *s = NULL;

	if (asprintf(&s, fmt, a, b) < 0)
		return NULL;
	return s;
}

int mlx_ctx_new(const char *root, struct mlx_ctx **out, char **errmsg)
{
	struct mlx_ctx *ctx;
	char probe[PATH_MAX];
	size_t n;
	int r;

	*out = NULL;
	if (errmsg)
		*errmsg = NULL;
	if (!root || !*root)
		root = "/";

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ctx->root_fd = -1;
	ctx->base_fd = -1;
	ctx->ioctl_fd = -1;
	ctx->log_max = MLX_LOG_WARN;
	ctx->lock_wait_ms = MLX_LOCK_WAIT_DEFAULT_MS;

	/* Normalise: no trailing slashes except for "/" itself. */
	ctx->root = strdup(root);
	if (!ctx->root) {
		free(ctx);
		return -ENOMEM;
	}
	n = strlen(ctx->root);
	while (n > 1 && ctx->root[n - 1] == '/')
		ctx->root[--n] = '\0';
	ctx->live = strcmp(ctx->root, "/") == 0;
	/* The one place that chooses the kernel boundary. */
	ctx->kops = ctx->live ? &mlx_kops_live : &mlx_kops_captured;
	ctx->emulators = mlx_emulators;

	if (!ctx->live) {
		r = dir_ok(ctx->root);
		if (r == -EACCES || r == -EPERM) {
			if (errmsg)
				*errmsg = fmt_alloc("cannot read the captured system '%s': %s",
						    ctx->root, "permission denied");
			goto fail;
		}
		if (r < 0) {
			if (errmsg)
				*errmsg = fmt_alloc("cannot use '%s' as system root: %s",
						    ctx->root, strerror(-r));
			goto fail;
		}
		/* A captured system has at least the PCI bus directory; anything
		 * else is a typo or the wrong directory, said plainly.  One this
		 * user may not enter is not a missing one: exit 5, not 2. */
		snprintf(probe, sizeof(probe), "%s/sys/bus/pci/devices", ctx->root);
		r = dir_ok(probe);
		if (r == -EACCES || r == -EPERM) {
			if (errmsg)
				*errmsg = fmt_alloc("cannot read the captured system '%s': permission "
						    "denied (%s)", ctx->root, "sys/bus/pci/devices");
			goto fail;
		}
		if (r < 0) {
			if (errmsg)
				*errmsg = fmt_alloc("'%s' is not a captured system: %s is missing",
						    ctx->root, "sys/bus/pci/devices");
			r = -EINVAL;
			goto fail;
		}
		ctx->root_fd = open(ctx->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (ctx->root_fd < 0) {
			r = -errno;
			if (errmsg)
				*errmsg = fmt_alloc("cannot open '%s': %s", ctx->root, strerror(-r));
			goto fail;
		}
		ctx->canon = realpath(ctx->root, NULL);
		if (!ctx->canon) {
			r = -errno;
			if (errmsg)
				*errmsg = fmt_alloc("cannot resolve '%s': %s", ctx->root, strerror(-r));
			goto fail;
		}
		/* inside an incident folder, at any depth (lib/incident.h) */
		ctx->incident = mlx_incident_of(ctx->canon);
	}
	*out = ctx;
	return 0;
fail:
	mlx_ctx_free(ctx);
	return r;
}

void mlx_ctx_free(struct mlx_ctx *ctx)
{
	if (!ctx)
		return;
	mlx_nl_ctx_free(ctx);
	mlx_chdir(ctx, NULL);
	mlx_batch_end(ctx);
	if (ctx->ioctl_fd >= 0)
		close(ctx->ioctl_fd);
	if (ctx->stats_map)
		munmap(ctx->stats_map, ctx->stats_map_len);
	if (ctx->root_fd >= 0)
		close(ctx->root_fd);
	free(ctx->root);
	free(ctx->canon);
	free(ctx->runtime_dir);
	free(ctx->incident);
	free(ctx);
}

int mlx_ctx_set_runtime_dir(struct mlx_ctx *ctx, const char *dir)
{
	char *d = NULL;

	if (dir && *dir && !(d = strdup(dir)))
		return -ENOMEM;
	free(ctx->runtime_dir);
	ctx->runtime_dir = d;
	return 0;
}

bool mlx_is_evidence(const struct mlx_ctx *ctx)
{
	return ctx->incident != NULL;
}

int mlx_may_write(struct mlx_ctx *ctx)
{
	if (!ctx->incident)
		return 0;
	return mlx_err(ctx, EROFS, "'%s' is inside the dump-me-now incident '%s': an "
		       "incident folder is evidence and mlxcli never writes into it; to experiment, "
		       "copy the snapshot elsewhere (cp -a '%s' DIR) and use --sysroot DIR",
		       ctx->root, ctx->incident, ctx->root);
}

const char *mlx_root(const struct mlx_ctx *ctx)
{
	return ctx->root;
}

bool mlx_kernel_at_least(unsigned major, unsigned minor)
{
	struct utsname u;
	unsigned ma = 0, mi = 0;

	if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

void mlx_set_log(struct mlx_ctx *ctx, mlx_log_fn fn, void *data, enum mlx_log_level max)
{
	ctx->log_fn = fn;
	ctx->log_data = data;
	ctx->log_max = max;
}

void mlx_log(struct mlx_ctx *ctx, enum mlx_log_level lvl, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!ctx->log_fn || lvl > ctx->log_max)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ctx->log_fn(ctx->log_data, lvl, msg);
}

/* Any argument may be mlx_errmsg() itself (a story that quotes the one
 * before it): format into a scratch buffer, then copy, so vsnprintf never
 * reads the bytes it is writing (valgrind: overlap in mempcpy). */
int mlx_err(struct mlx_ctx *ctx, int err, const char *fmt, ...)
{
	char msg[sizeof(ctx->errmsg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	memcpy(ctx->errmsg, msg, sizeof(msg));
	mlx_log(ctx, MLX_LOG_DEBUG, "%s", ctx->errmsg);
	return err > 0 ? -err : err;
}

const char *mlx_errmsg(const struct mlx_ctx *ctx)
{
	return ctx->errmsg;
}

void mlx_err_clear(struct mlx_ctx *ctx)
{
	ctx->errmsg[0] = '\0';
}
