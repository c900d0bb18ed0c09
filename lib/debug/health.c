/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devlink health, devlink reload, ethtool link state and the mlx5 command
 * statistics: the queries (health.h).  The netlink ones go through
 * mlx_nl_query, so `mlxcli snapshot` records them and --sysroot replays
 * them:  netlink/devlink/pci:<BDF>/health-get.nl,
 *        netlink/devlink/pci:<BDF>/diagnose-<reporter>[-port<N>].nl,
 *        netlink/devlink/pci:<BDF>/dump-<reporter>[-port<N>].nl (live only
 *        in practice: the snapshot does not take dumps),
 *        netlink/ethtool/<ifname>/linkstate-get.nl.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/devlink.h>

#include "health.h"
#include "mlx-private.h"
#include "nl.h"
#include "sriov.h"

/* ---- reporters ---------------------------------------------------------------- */

struct get_arg {
	struct mlx_ctx *ctx;
	const struct mlx_function *fn;
	struct mlx_health *out;
};

static int get_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct get_arg *a = arg;
	char err[160] = "";

	if (mlx_health_reporter_decode(h, len, mlx_fn_bus(a->fn), a->fn->bdf, a->out, err,
				       sizeof(err)) < 0)
		return mlx_err(a->ctx, EBADMSG, "cannot decode the devlink health reply of %s: %s",
			       a->fn->bdf, err);
	return 0;
}

int mlx_health_get(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_health *out)
{
	struct get_arg a = { ctx, fn, out };
	uint8_t req[160];
	char obj[64];
	int len, r;

	memset(out, 0, sizeof(*out));
	mlx_devlink_object(fn, obj, sizeof(obj));
	len = mlx_health_build(req, sizeof(req), DEVLINK_CMD_HEALTH_REPORTER_GET, mlx_fn_bus(fn), fn->bdf,
			       NULL, -1);
	if (len < 0)
		return len;
	r = mlx_nl_query(ctx, MLX_NL_DEVLINK, obj, "health-get", req, (size_t)len, get_cb, &a);
	if (r < 0 && !*mlx_errmsg(ctx))
		mlx_err(ctx, -r, "devlink health of %s: %s%s%s", fn->bdf, strerror(-r),
			*mlx_nl_extack(ctx) ? ": " : "", mlx_nl_extack(ctx));
	return r;
}

/* ---- diagnose and dump: an fmsg stream over one or more messages ----------------- */

struct fmsg_arg {
	struct mlx_ctx *ctx;
	struct mlx_fmsg_parser p;
	const char *what;
	char err[160];
	int r;
};

static int fmsg_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct fmsg_arg *a = arg;

	a->r = mlx_fmsg_feed_msg(&a->p, h, len, a->err, sizeof(a->err));
	return a->r < 0 ? a->r : 0;
}

static int fmsg_query(struct mlx_ctx *ctx, const struct mlx_function *fn,
		      const struct mlx_health_reporter *rep, uint8_t cmd, const char *what,
		      struct mlx_fmsg_node **out)
{
	struct fmsg_arg *a;
	uint8_t req[256];
	char obj[64], name[128];
	int len, r;

	*out = NULL;
	mlx_devlink_object(fn, obj, sizeof(obj));
	len = mlx_health_build(req, sizeof(req), cmd, mlx_fn_bus(fn), fn->bdf, rep->name, rep->port_index);
	if (len < 0)
		return len;
	if (!mlx_name_is_safe(rep->name))
		return mlx_err(ctx, EINVAL, "reporter name '%s' is not a safe file name", rep->name);
	mlx_health_request_name(name, sizeof(name), what, rep);
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->ctx = ctx;
	mlx_fmsg_init(&a->p);
	r = mlx_nl_query(ctx, MLX_NL_DEVLINK, obj, name, req, (size_t)len, fmsg_cb, a);
	if (r < 0) {
		if (a->r < 0)
			mlx_err(ctx, -a->r, "cannot decode the %s of reporter %s of %s: %s", what,
				rep->name, fn->bdf, a->err);
		else if (r != -ENODATA || !*mlx_errmsg(ctx))
			mlx_err(ctx, -r, "devlink health %s of reporter %s of %s: %s%s%s", what,
				rep->name, fn->bdf, strerror(-r), *mlx_nl_extack(ctx) ? ": " : "",
				mlx_nl_extack(ctx));
	} else {
		r = mlx_fmsg_finish(&a->p, out, a->err, sizeof(a->err));
		if (r < 0)
			mlx_err(ctx, -r, "cannot decode the %s of reporter %s of %s: %s", what, rep->name,
				fn->bdf, a->err);
	}
	mlx_fmsg_parser_free(&a->p);
	free(a);
	return r;
}

int mlx_health_diagnose(struct mlx_ctx *ctx, const struct mlx_function *fn,
			const struct mlx_health_reporter *r, struct mlx_fmsg_node **out)
{
	return fmsg_query(ctx, fn, r, DEVLINK_CMD_HEALTH_REPORTER_DIAGNOSE, "diagnose", out);
}

int mlx_health_dump(struct mlx_ctx *ctx, const struct mlx_function *fn,
		    const struct mlx_health_reporter *r, struct mlx_fmsg_node **out)
{
	return fmsg_query(ctx, fn, r, DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, "dump", out);
}

int mlx_health_dump_clear(struct mlx_ctx *ctx, const struct mlx_function *fn,
			  const struct mlx_health_reporter *r)
{
	uint8_t req[256];
	char obj[64];
	int len, q;

	mlx_devlink_object(fn, obj, sizeof(obj));
	len = mlx_health_build(req, sizeof(req), DEVLINK_CMD_HEALTH_REPORTER_DUMP_CLEAR,
			       mlx_fn_bus(fn), fn->bdf, r->name, r->port_index);
	if (len < 0)
		return len;
	q = mlx_nl_query(ctx, MLX_NL_DEVLINK, obj, "dump-clear", req, (size_t)len, NULL, NULL);
	if (q < 0)
		mlx_err(ctx, -q, "cannot clear the %s health dump of %s: %s%s%s", r->name, fn->bdf,
			strerror(-q), *mlx_nl_extack(ctx) ? ": " : "", mlx_nl_extack(ctx));
	return q;
}

/* ---- reload ------------------------------------------------------------------ */

int mlx_devlink_reload(struct mlx_ctx *ctx, const struct mlx_function *fn)
{
	uint8_t req[160];
	char obj[64];
	int len, r;

	mlx_devlink_object(fn, obj, sizeof(obj));
	len = mlx_devlink_reload_build(req, sizeof(req), mlx_fn_bus(fn), fn->bdf,
				       DEVLINK_RELOAD_ACTION_DRIVER_REINIT);
	if (len < 0)
		return len;
	r = mlx_nl_query(ctx, MLX_NL_DEVLINK, obj, "reload", req, (size_t)len, NULL, NULL);
	if (r < 0)
		mlx_err(ctx, -r, "devlink reload of %s failed: %s%s%s", fn->bdf, strerror(-r),
			*mlx_nl_extack(ctx) ? ": " : "", mlx_nl_extack(ctx));
	return r;
}

/* ---- link state -------------------------------------------------------------- */

struct ls_arg {
	struct mlx_ctx *ctx;
	struct mlx_linkstate *out;
	bool got;
	char err[160];
	int r;
};

static int ls_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct ls_arg *a = arg;

	if (a->got)
		return 0;
	a->r = mlx_linkstate_decode(h, len, a->out, a->err, sizeof(a->err));
	if (a->r < 0)
		return a->r;
	a->got = true;
	return 0;
}

int mlx_linkstate_get(struct mlx_ctx *ctx, const char *ifname, struct mlx_linkstate *out)
{
	struct ls_arg a = { .ctx = ctx, .out = out };
	uint8_t req[128];
	int len, r;

	out->link = -1;
	out->sqi = out->sqi_max = -1;
	out->ext_state = out->ext_substate = -1;
	if (!mlx_name_is_safe(ifname) || strlen(ifname) >= 16)
		return mlx_err(ctx, EINVAL, "'%s' is not a valid interface name", ifname);
	len = mlx_linkstate_build(req, sizeof(req), ifname);
	if (len < 0)
		return len;
	r = mlx_nl_query(ctx, MLX_NL_ETHTOOL, ifname, "linkstate-get", req, (size_t)len, ls_cb, &a);
	if (r < 0 && a.r < 0)
		return mlx_err(ctx, EBADMSG, "cannot decode the link state of '%s': %s", ifname, a.err);
	if (r < 0)
		return r;
	return a.got ? 0 : mlx_err(ctx, ENODATA, "no link state reply for '%s'", ifname);
}

/* ---- command statistics ------------------------------------------------------- */

#define DBG_MLX5 "/sys/kernel/debug/mlx5"

int mlx_cmd_stat_cmp(const void *a, const void *b)
{
	const struct mlx_cmd_stat *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int64_t opt_u64(struct mlx_ctx *ctx, const char *dir, const char *file, int *err)
{
	char path[PATH_MAX];
	uint64_t v;
	int r;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	r = mlx_read_u64(ctx, path, &v);
	if (r == -EACCES || r == -EPERM)
		*err = r;
	return r < 0 || v > INT64_MAX ? -1 : (int64_t)v;
}

int mlx_cmd_stats_read(struct mlx_ctx *ctx, const char *bdf, struct mlx_cmd_stat **out, size_t *n)
{
	char dir[PATH_MAX], sub[PATH_MAX], **names = NULL;
	struct mlx_cmd_stat *v;
	size_t cnt = 0, k = 0;
	int r, perm = 0;

	*out = NULL;
	*n = 0;
	snprintf(dir, sizeof(dir), DBG_MLX5 "/%s/commands", bdf);
	r = mlx_list_dir(ctx, dir, &names, &cnt);
	if (r == -EACCES || r == -EPERM)
		return mlx_err(ctx, -r, "cannot read %s: %s (debugfs is readable by root only)", dir,
			       strerror(-r));
	if (r == -ENOENT || r == -ENOTDIR) {
		snprintf(sub, sizeof(sub), DBG_MLX5 "/%s", bdf);
		if (!mlx_is_dir(ctx, "/sys/kernel/debug/mlx5"))
			return mlx_err(ctx, ENOENT, "no %s: debugfs is not mounted at /sys/kernel/debug, "
				       "or mlx5_core has no debugfs (CONFIG_DEBUG_FS off, or this "
				       "capture has none)", DBG_MLX5);
		if (!mlx_is_dir(ctx, sub))
			return mlx_err(ctx, ENOENT, "no %s: mlx5_core has no debugfs entry for %s "
				       "(not bound to mlx5_core?)", sub, bdf);
		return mlx_err(ctx, ENOENT, "no %s: this mlx5_core keeps no command statistics", dir);
	}
	if (r < 0)
		return mlx_err(ctx, -r, "cannot list %s: %s", dir, strerror(-r));
	v = calloc(cnt ? cnt : 1, sizeof(*v));
	if (!v) {
		mlx_strv_free(names);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cnt; i++) {
		struct mlx_cmd_stat *s = &v[k];
		int64_t cntv;

		if (!mlx_name_is_safe(names[i]) || strlen(names[i]) >= sizeof(s->name))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, names[i]);
		cntv = opt_u64(ctx, sub, "n", &perm);
		if (cntv < 0)
			continue;       /* not a command directory */
		snprintf(s->name, sizeof(s->name), "%s", names[i]);
		s->n = (uint64_t)cntv;
		cntv = opt_u64(ctx, sub, "average", &perm);
		s->average = cntv < 0 ? 0 : (uint64_t)cntv;
		s->failed = opt_u64(ctx, sub, "failed", &perm);
		s->failed_mbox_status = opt_u64(ctx, sub, "failed_mbox_status", &perm);
		s->last_failed_errno = opt_u64(ctx, sub, "last_failed_errno", &perm);
		s->last_failed_mbox_status = opt_u64(ctx, sub, "last_failed_mbox_status", &perm);
		s->last_failed_syndrome = opt_u64(ctx, sub, "last_failed_syndrome", &perm);
		k++;
	}
	mlx_strv_free(names);
	if (!k && perm) {
		free(v);
		return mlx_err(ctx, -perm, "cannot read the files under %s: %s (debugfs is readable by "
			       "root only)", dir, strerror(-perm));
	}
	if (k > 1)
		qsort(v, k, sizeof(*v), mlx_cmd_stat_cmp);
	*out = v;
	*n = k;
	return 0;
}
