/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RDMA CM's RoCE defaults in configfs (lib/state.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlx-private.h"
#include "settings-private.h"
#include "state.h"

#define CM_DIR "/sys/kernel/config/rdma_cm"

int mlx_rdma_cm_path(char *buf, size_t len, const char *rdma_dev, unsigned port, const char *file)
{
	if (!rdma_dev || !*rdma_dev || !mlx_name_is_safe(rdma_dev) || !mlx_name_is_safe(file))
		return -EINVAL;
	return snprintf(buf, len, CM_DIR "/%s/ports/%u/%s", rdma_dev, port, file) >= (int)len ?
		       -ENAMETOOLONG : 0;
}

int mlx_roce_cm_get(struct mlx_ctx *ctx, const char *rdma_dev, unsigned port,
		    struct mlx_roce_cm *cm)
{
	char path[200];
	uint64_t tos;

	cm->mode[0] = '\0';
	cm->tos = -1;
	if (mlx_rdma_cm_path(path, sizeof(path), rdma_dev, port, "default_roce_mode") < 0)
		return -EINVAL;
	if (mlx_read_str(ctx, path, cm->mode, sizeof(cm->mode)) < 0)
		cm->mode[0] = '\0';
	mlx_rdma_cm_path(path, sizeof(path), rdma_dev, port, "default_roce_tos");
	if (mlx_read_u64(ctx, path, &tos) == 0 && tos <= 255)
		cm->tos = (int)tos;
	mlx_err_clear(ctx);
	return cm->mode[0] || cm->tos >= 0 ? 0 : -ENOENT;
}

/* ---- the write engine's side (lib/state.h) ---- */

static const char *const cm_file[] = {
	[MLX_ROCE_CM_MODE] = "default_roce_mode",
	[MLX_ROCE_CM_TOS] = "default_roce_tos",
};

int mlx_roce_cm_plan_add(struct mlx_plan *pl, enum mlx_roce_cm_setting s, struct mlx_val v)
{
	return mlx_plan_add(pl, cm_file[s], NULL, (int)s, 0, v);
}

static int cm_path(struct mlx_ctx *ctx, const struct mlx_roce_cm_writer *w, int s, char *buf,
		   size_t len)
{
	if (mlx_rdma_cm_path(buf, len, w->rdma_dev, w->port, cm_file[s]) < 0)
		return mlx_err(ctx, EINVAL, "no RDMA device: no RDMA CM defaults");
	return 0;
}

static int cm_read(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		   struct mlx_val *out)
{
	struct mlx_roce_cm_writer *w = feat;
	char path[200], buf[32];
	uint64_t tos;
	int r = cm_path(ctx, w, c->id, path, sizeof(path));

	if (r < 0)
		return r;
	if (!mlx_exists(ctx, path))
		return mlx_err(ctx, EOPNOTSUPP, "%s has no RDMA CM defaults in configfs (mkdir "
			       CM_DIR "/%s makes them, as cma_roce_mode does)", w->rdma_dev,
			       w->rdma_dev);
	if (c->id == MLX_ROCE_CM_MODE) {
		r = mlx_read_str(ctx, path, buf, sizeof(buf));
		if (r == 0)
			*out = mlx_val_str(buf);
		return r;
	}
	r = mlx_read_u64(ctx, path, &tos);
	if (r == 0)
		*out = mlx_val_uint(tos);
	return r;
}

static int cm_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		    const struct mlx_val *v)
{
	char path[200], buf[MLX_VAL_STR_MAX + 2];
	int r = cm_path(ctx, feat, c->id, path, sizeof(path));

	if (r < 0)
		return r;
	/* unknown before (null): nothing to put back */
	if (v->kind == MLX_VAL_NULL)
		return 0;
	if (v->kind == MLX_VAL_STR)
		snprintf(buf, sizeof(buf), "%s\n", v->s);
	else
		snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)v->u);
	return mlx_kernel_write(ctx, path, buf);
}

const struct mlx_write_ops mlx_roce_cm_write_ops = {
	.read = cm_read,
	.write = cm_write,
};

/* ---- the settings model (lib/settings.h) ---- */

int mlx_roce_mode_parse(struct mlx_ctx *ctx, const char *text, char *out, size_t len)
{
	/* the kernel's names (drivers/infiniband/core/cache.c gid_type_str);
	 * cma_roce_mode -m and the Windows tools (Set-MlnxDriverCoreSetting
	 * -RoceMode) say 1 and 2 */
	static const char *const names[] = { "IB/RoCE v1", "RoCE v2" };
	const char *m = !strcmp(text, "1") ? names[0] : !strcmp(text, "2") ? names[1] : NULL;

	for (size_t i = 0; !m && i < 2; i++)
		if (!strcmp(text, names[i]))
			m = names[i];
	if (!m)
		return mlx_err(ctx, EINVAL, "'%s' is not a RoCE mode: \"IB/RoCE v1\" (or 1) or "
			       "\"RoCE v2\" (or 2)", text);
	snprintf(out, len, "%s", m);
	return 0;
}

int mlx_roce_put_mode(struct mlx_ctx *ctx, struct mlx_roce_settings *r, const char *text)
{
	int e = mlx_roce_mode_parse(ctx, text, r->mode, sizeof(r->mode));

	if (e < 0)
		return e;
	r->have = r->mode_h = MLX_SET;
	return 0;
}

int mlx_roce_put_tos(struct mlx_ctx *ctx, struct mlx_roce_settings *r, int64_t tos)
{
	if (tos < 0 || tos > 255)
		return mlx_err(ctx, ERANGE, "%lld is out of range (0-255)", (long long)tos);
	r->have = r->tos_h = MLX_SET;
	r->tos = (unsigned)tos;
	return 0;
}

void mlx_roce_read(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		   struct mlx_port_settings *out)
{
	struct mlx_roce_settings *r = &out->roce;
	struct mlx_roce_cm cm;
	char buf[64];
	unsigned pn;
	const char *dev = mlx_port_ref_rdma(rd->ctx, t, buf, sizeof(buf), &pn);

	memset(r, 0, sizeof(*r));
	if (!t->fn && !dev) {
		/* a netdev that is no ConnectX port has RDMA CM defaults only
		 * when an RDMA port is on it (rdma_rxe) */
		r->have = MLX_NULL;
		return;
	}
	mlx_roce_cm_get(rd->ctx, dev, pn, &cm);
	r->have = MLX_SET;
	r->mode_h = cm.mode[0] ? MLX_SET : MLX_NULL;
	snprintf(r->mode, sizeof(r->mode), "%s", cm.mode);
	r->tos_h = cm.tos >= 0 ? MLX_SET : MLX_NULL;
	r->tos = cm.tos >= 0 ? (unsigned)cm.tos : 0;
}

bool mlx_roce_wanted(const struct mlx_port_settings *want, size_t vf)
{
	(void)vf;
	return want->roce.mode_h == MLX_SET || want->roce.tos_h == MLX_SET;
}

int mlx_roce_open(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t, void *parent)
{
	struct mlx_roce_cm_writer *w = feat;

	(void)parent;
	memset(w, 0, sizeof(*w));
	/* a netdev's (--any-netdev): the RDMA port on it, else none */
	w->rdma_dev = mlx_port_ref_rdma(ctx, t, w->dev_buf, sizeof(w->dev_buf), &w->port);
	w->on = mlx_port_ref_name(t);
	return 0;
}

int mlx_roce_plan(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
		  size_t vf, struct mlx_plan *pl)
{
	struct mlx_roce_cm_writer *w = feat;
	const struct mlx_roce_settings *r = &want->roce;

	(void)vf;
	if (!w->rdma_dev)
		return mlx_plan_fail(ctx, pl, EOPNOTSUPP, "roce", "%s has no RDMA device, so no RDMA "
				     "CM defaults", w->on);
	if ((r->mode_h == MLX_SET && mlx_roce_cm_plan_add(pl, MLX_ROCE_CM_MODE,
							   mlx_val_str(r->mode)) < 0) ||
	    (r->tos_h == MLX_SET && mlx_roce_cm_plan_add(pl, MLX_ROCE_CM_TOS,
							  mlx_val_uint(r->tos)) < 0))
		return mlx_err(ctx, ENOMEM, "out of memory");
	return 0;
}

void mlx_roce_flatten(const struct mlx_port_settings *p, mlx_flat_fn fn, void *arg)
{
	const struct mlx_roce_settings *r = &p->roce;
	struct mlx_val m = mlx_val_str(r->mode), t = mlx_val_uint(r->tos);

	if (r->have == MLX_NULL) {
		mlx_flat_null(fn, arg, "roce");
		return;
	}
	mlx_flat_val(fn, arg, "roce.default_roce_mode", r->mode_h, &m);
	mlx_flat_val(fn, arg, "roce.default_roce_tos", r->tos_h, &t);
}

int mlx_roce_merge(struct mlx_port_settings *pd, const struct mlx_port_settings *ps, bool add)
{
	struct mlx_roce_settings *dst = &pd->roce;
	const struct mlx_roce_settings *src = &ps->roce;

	(void)add;
	if (src->have != MLX_SET)
		return 0;
	dst->have = MLX_SET;
	if (src->mode_h == MLX_SET) {
		dst->mode_h = MLX_SET;
		memcpy(dst->mode, src->mode, sizeof(dst->mode));
	}
	if (src->tos_h == MLX_SET) {
		dst->tos_h = MLX_SET;
		dst->tos = src->tos;
	}
	return 0;
}
