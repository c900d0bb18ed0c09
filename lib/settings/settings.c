/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The settings model (lib/settings.h): the one table of subsystems, a
 * port's model read from the device, merged, flattened for diff.  What
 * each subsystem does is in its feature's folder (lib/settings-private.h).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlx-private.h"
#include "health.h"
#include "phy.h"
#include "rdma.h"
#include "settings-private.h"

/* The table, in write order (enum mlx_sub). */
static const struct mlx_subsys subsystems[MLX_NSUB] = {
	[MLX_SUB_QOS] = {
		.id = MLX_SUB_QOS, .key = "qos", .name = "QoS",
		.read = mlx_qos_read, .wanted = mlx_qos_wanted,
		.feat_size = sizeof(struct mlx_dcb_writer), .parent_sub = MLX_NSUB,
		.open = mlx_qos_open, .close = mlx_qos_close, .plan = mlx_qos_plan,
		.ops = &mlx_dcb_write_ops, .may_write = mlx_qos_may_write,
		.flatten = mlx_qos_flatten, .merge = mlx_qos_merge,
	},
	[MLX_SUB_LINK] = {
		.id = MLX_SUB_LINK, .key = "link", .name = "link",
		.read = mlx_link_sread, .wanted = mlx_link_wanted,
		.feat_size = sizeof(struct mlx_link_writer), .parent_sub = MLX_NSUB,
		.open = mlx_link_open_step, .plan = mlx_link_plan_step, .ops = &mlx_link_write_ops,
		.flatten = mlx_link_flatten, .merge = mlx_link_merge,
	},
	[MLX_SUB_DCQCN] = {
		.id = MLX_SUB_DCQCN, .key = "dcqcn", .name = "DCQCN",
		.read = mlx_dcqcn_sread, .wanted = mlx_dcqcn_wanted,
		.feat_size = sizeof(struct mlx_dcqcn_writer), .parent_sub = MLX_NSUB,
		.open = mlx_dcqcn_open_step, .plan = mlx_dcqcn_plan_step,
		.ops = &mlx_dcqcn_write_ops, .flatten = mlx_dcqcn_flatten, .merge = mlx_dcqcn_merge,
	},
	[MLX_SUB_PARAMS] = {
		.id = MLX_SUB_PARAMS, .key = "params", .name = "driver knob",
		.read = mlx_params_sread, .wanted = mlx_params_wanted,
		.feat_size = sizeof(struct mlx_params_writer), .parent_sub = MLX_NSUB,
		.open = mlx_params_open_step, .close = mlx_params_close_step,
		.plan = mlx_params_plan_step, .ops = &mlx_params_write_ops,
		.flatten = mlx_params_flatten, .merge = mlx_params_merge, .dup = mlx_params_dup,
		.release = mlx_params_release,
	},
	[MLX_SUB_SRIOV] = {
		.id = MLX_SUB_SRIOV, .key = "sriov", .name = "SR-IOV",
		.read = mlx_sriov_sread, .wanted = mlx_sriov_wanted,
		.feat_size = sizeof(struct mlx_sriov_writer), .parent_sub = MLX_NSUB,
		.open = mlx_sriov_open_step, .close = mlx_sriov_close_step,
		.plan = mlx_sriov_plan_step, .ops = &mlx_sriov_write_ops,
		.after_put_back = mlx_sriov_after_put_back,
		.journal_save = mlx_sriov_journal_save, .journal_load = mlx_sriov_journal_load,
		.flatten = mlx_sriov_flatten, .merge = mlx_sriov_merge, .dup = mlx_sriov_dup,
		.release = mlx_sriov_release,
	},
	[MLX_SUB_VF] = {
		.id = MLX_SUB_VF, .key = "sriov", .name = "SR-IOV VF",
		.wanted = mlx_vf_wanted,
		.feat_size = sizeof(struct mlx_sriov_writer), .parent_sub = MLX_SUB_SRIOV,
		.open = mlx_sriov_open_step, .close = mlx_sriov_close_step,
		.plan = mlx_vf_plan_step, .ops = &mlx_sriov_write_ops,
	},
	[MLX_SUB_ROCE] = {
		.id = MLX_SUB_ROCE, .key = "roce", .name = "RDMA CM",
		.read = mlx_roce_read, .wanted = mlx_roce_wanted,
		.feat_size = sizeof(struct mlx_roce_cm_writer), .parent_sub = MLX_NSUB,
		.open = mlx_roce_open, .plan = mlx_roce_plan, .ops = &mlx_roce_cm_write_ops,
		.flatten = mlx_roce_flatten, .merge = mlx_roce_merge,
	},
	[MLX_SUB_HEALTH] = {
		.id = MLX_SUB_HEALTH, .key = "health", .name = "health policy",
		.read = mlx_health_sread, .wanted = mlx_health_wanted,
		.feat_size = sizeof(struct mlx_health_writer), .parent_sub = MLX_NSUB,
		.open = mlx_health_open_step, .plan = mlx_health_plan_step,
		.ops = &mlx_health_write_ops, .flatten = mlx_health_flatten, .merge = mlx_health_merge,
	},
	/* no read, flatten or merge: `state` does not hold child netdevs */
	[MLX_SUB_NETDEVS] = {
		.id = MLX_SUB_NETDEVS, .key = "netdevs", .name = "child netdev",
		.wanted = mlx_netdevs_wanted,
		.feat_size = sizeof(struct mlx_netdevs_writer), .parent_sub = MLX_NSUB,
		.open = mlx_netdevs_open_step, .close = mlx_netdevs_close_step,
		.plan = mlx_netdevs_plan_step, .ops = &mlx_netdevs_write_ops,
	},
};

/* The order of the sections in the document `state` prints (and so of
 * diff's settings): params before roce before sriov, unlike the writes;
 * the link and the health policy (issue 27) last. */
static const enum mlx_sub doc_order[] = {
	MLX_SUB_QOS, MLX_SUB_DCQCN, MLX_SUB_PARAMS, MLX_SUB_ROCE, MLX_SUB_SRIOV, MLX_SUB_LINK,
	MLX_SUB_HEALTH,
};

const struct mlx_subsys *mlx_subsys(enum mlx_sub id)
{
	return id < MLX_NSUB ? &subsystems[id] : NULL;
}

const struct mlx_subsys *mlx_subsys_find(const char *key)
{
	for (size_t i = 0; i < MLX_NSUB; i++)
		if (!strcmp(subsystems[i].key, key))
			return &subsystems[i];
	return NULL;
}

void mlx_port_ref_init(struct mlx_port_ref *t, const struct mlx_function *fn,
		     const struct mlx_port *port, const char *ifname)
{
	memset(t, 0, sizeof(*t));
	t->fn = fn;
	t->port = port;
	t->ifname = port ? (port->ifname[0] ? port->ifname : NULL) : ifname;
	t->lock = fn ? fn->bdf : t->ifname;
}

const char *mlx_port_ref_rdma(struct mlx_ctx *ctx, const struct mlx_port_ref *t, char *buf,
			      size_t len, unsigned *port)
{
	const struct mlx_port *p = t->port;
	uint32_t pn = 0;

	*port = 1;
	if (t->fn) {
		if (!p || !p->rdma_dev[0])
			return NULL;
		*port = p->rdma_port ? p->rdma_port : 1;
		return p->rdma_dev;
	}
	if (!t->ifname || !len || mlx_rdma_port_of_netdev(ctx, t->ifname, buf, len, &pn) < 0)
		return NULL;
	*port = pn ? pn : 1;
	return buf;
}

const char *mlx_port_ref_devlink(struct mlx_ctx *ctx, const struct mlx_port_ref *t,
				 struct mlx_devlink_name *d, const char **bus)
{
	const struct mlx_function *fn = t->fn;

	*bus = NULL;
	if (fn) {
		if (t->port && t->port != &fn->ports[0])
			return NULL;
		*bus = mlx_fn_bus(fn);
		return fn->bdf;
	}
	if (!t->ifname ||
	    mlx_netdev_device(ctx, t->ifname, d->bus, sizeof(d->bus), d->dev, sizeof(d->dev)) < 0) {
		mlx_err_clear(ctx);    /* a veth: no device, no devlink */
		return NULL;
	}
	*bus = d->bus;
	return d->dev;
}

const char *mlx_port_ref_name(const struct mlx_port_ref *t)
{
	return t->ifname ? t->ifname : t->fn ? t->fn->bdf : "-";
}

/* ---- the model of a port ---- */

struct mlx_port_settings *mlx_port_settings_new(void)
{
	return calloc(1, sizeof(struct mlx_port_settings));
}

void mlx_port_settings_free(struct mlx_port_settings *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < MLX_NSUB; i++)
		if (subsystems[i].release)
			subsystems[i].release(p);
	free(p);
}

int mlx_port_settings_merge(struct mlx_port_settings *dst, const struct mlx_port_settings *src,
			    bool add)
{
	int r = 0;

	if (!dst->pci_address[0])
		memcpy(dst->pci_address, src->pci_address, sizeof(dst->pci_address));
	if (!dst->netdev[0])
		memcpy(dst->netdev, src->netdev, sizeof(dst->netdev));
	for (size_t i = 0; i < MLX_NSUB && r == 0; i++)
		if (subsystems[i].merge)
			r = subsystems[i].merge(dst, src, add);
	return r;
}

struct mlx_port_settings *mlx_port_settings_copy(const struct mlx_port_settings *src)
{
	struct mlx_port_settings *p = malloc(sizeof(*p));
	int r = 0;

	if (!p)
		return NULL;
	*p = *src;
	/* each section's own memory anew (a failed one leaves NULL: freed
	 * with the rest) */
	for (size_t i = 0; i < MLX_NSUB; i++)
		if (subsystems[i].dup && subsystems[i].dup(p, src) < 0)
			r = -ENOMEM;
	if (r < 0) {
		mlx_port_settings_free(p);
		return NULL;
	}
	return p;
}

/* ---- reading ---- */

int mlx_settings_reader_new(struct mlx_ctx *ctx, struct mlx_settings_reader **out)
{
	struct mlx_settings_reader *rd = calloc(1, sizeof(*rd));

	if (!rd)
		return mlx_err(ctx, ENOMEM, "out of memory");
	rd->ctx = ctx;
	/* one ethtool and devlink dump per message type for every port */
	if (mlx_params_cache_new(ctx, &rd->params) < 0) {
		mlx_err_clear(ctx);
		rd->params = NULL;
	}
	*out = rd;
	return 0;
}

void mlx_settings_reader_free(struct mlx_settings_reader *rd)
{
	if (!rd)
		return;
	mlx_params_cache_free(rd->params);
	free(rd);
}

int mlx_settings_read(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		      struct mlx_port_settings **out)
{
	struct mlx_port_settings *p = mlx_port_settings_new();

	if (!p)
		return mlx_err(rd->ctx, ENOMEM, "out of memory");
	if (t->fn)
		snprintf(p->pci_address, sizeof(p->pci_address), "%s", t->fn->bdf);
	if (t->ifname)
		snprintf(p->netdev, sizeof(p->netdev), "%s", t->ifname);
	for (size_t i = 0; i < sizeof(doc_order) / sizeof(doc_order[0]); i++)
		subsystems[doc_order[i]].read(rd, t, p);
	*out = p;
	return 0;
}

/* ---- flattening ---- */

void mlx_flat_null(mlx_flat_fn fn, void *arg, const char *path)
{
	struct mlx_val v = mlx_val_null();

	fn(arg, path, &v);
}

void mlx_flat_uint(mlx_flat_fn fn, void *arg, const char *path, uint64_t u)
{
	struct mlx_val v = mlx_val_uint(u);

	fn(arg, path, &v);
}

void mlx_flat_bool(mlx_flat_fn fn, void *arg, const char *path, bool b)
{
	struct mlx_val v = mlx_val_bool(b);

	fn(arg, path, &v);
}

void mlx_flat_str(mlx_flat_fn fn, void *arg, const char *path, const char *s)
{
	struct mlx_val v = s ? mlx_val_str(s) : mlx_val_null();

	fn(arg, path, &v);
}

void mlx_flat_val(mlx_flat_fn fn, void *arg, const char *path, uint8_t have, const struct mlx_val *v)
{
	if (have == MLX_SET)
		fn(arg, path, v);
	else if (have == MLX_NULL)
		mlx_flat_null(fn, arg, path);
}

void mlx_settings_flatten(const struct mlx_port_settings *p, mlx_flat_fn fn, void *arg)
{
	for (size_t i = 0; i < sizeof(doc_order) / sizeof(doc_order[0]); i++)
		subsystems[doc_order[i]].flatten(p, fn, arg);
}

/* ---- plans ---- */

int mlx_plan_fail(struct mlx_ctx *ctx, struct mlx_plan *pl, int err, const char *where,
		  const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(pl->where, sizeof(pl->where), "%s", where ? where : "");
	return mlx_err(ctx, err, "%s", msg);
}
