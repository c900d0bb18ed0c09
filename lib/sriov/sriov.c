/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SR-IOV I/O: the VF table over rtnetlink (one RTM_GETLINK per PF, never
 * one per VF), sriov_numvfs, per-VF writes over RTM_SETLINK, the devlink
 * eswitch mode and devlink info.  Under a sysroot the reads replay the
 * capture and the writes go to lib/emul/sriov-emul.c.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/devlink.h>

#include "devlink.h"
#include "mlx-private.h"
#include "nl.h"
#include "sriov.h"

void mlx_devlink_object(const struct mlx_function *fn, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s", mlx_fn_bus(fn), fn->bdf);
}

/* The netdev rtnetlink knows the PF by. */
static int pf_netdev(struct mlx_ctx *ctx, const struct mlx_function *pf,
		     const struct mlx_port **port)
{
	if (!pf->nports)
		return mlx_err(ctx, ENODEV, "%s has no network interface; the VF settings are "
			       "read through the PF's interface (is the driver bound?)", pf->bdf);
	*port = &pf->ports[0];
	return 0;
}

/* The first reply of a query (rtnetlink's VF list, devlink info),
 * decoded once into @out; the decoders share one calling shape. */
struct first_arg {
	struct mlx_ctx *ctx;
	bool vfs;               /* @out is a struct mlx_link_vfs, else a struct mlx_devlink_info */
	void *out;
	bool got;
};

static int first_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct first_arg *a = arg;
	char err[160] = "";

	if (a->got)
		return 0;
	if (a->vfs) {
		struct mlx_link_vfs *v = a->out;

		if (mlx_rtnl_vf_decode(h, len, v, err, sizeof(err)) < 0)
			return mlx_err(a->ctx, EBADMSG, "cannot decode the VF list of %s: %s",
				       v->ifname[0] ? v->ifname : "the PF", err);
	} else if (mlx_devlink_info_decode(h, len, a->out, err, sizeof(err)) < 0) {
		return mlx_err(a->ctx, EBADMSG, "cannot decode the devlink info reply: %s", err);
	}
	a->got = true;
	return 0;
}

int mlx_sriov_query(struct mlx_ctx *ctx, const struct mlx_function *pf, struct mlx_link_vfs *out)
{
	const struct mlx_port *p = NULL;
	uint8_t req[128];
	struct first_arg a = { .ctx = ctx, .vfs = true, .out = out };
	int r, len;

	memset(out, 0, sizeof(*out));
	r = pf_netdev(ctx, pf, &p);
	if (r < 0)
		return r;
	len = mlx_rtnl_getlink_vf_build(req, sizeof(req), p->ifindex, p->ifname);
	if (len < 0)
		return len;
	r = mlx_nl_query(ctx, MLX_NL_ROUTE, p->ifname, MLX_REQ_GETLINK_VF, req, (size_t)len,
			 first_cb, &a);
	if (r < 0) {
		mlx_link_vfs_free(out);
		if (r == -ENODEV || r == -ENOENT)
			return mlx_err(ctx, ENODEV, "the kernel has no interface '%s'", p->ifname);
		if (r != -ENODATA && r != -EBADMSG)
			return mlx_err(ctx, r, "cannot read the VF list of %s: %s%s%s", p->ifname,
				       strerror(-r), *mlx_nl_extack(ctx) ? ": " : "",
				       mlx_nl_extack(ctx));
		return r;
	}
	if (!a.got)
		return mlx_err(ctx, ENODATA, "the kernel sent no link message for %s", p->ifname);
	return 0;
}

int mlx_sriov_set_numvfs(struct mlx_ctx *ctx, const struct mlx_function *pf, unsigned n)
{
	char path[PATH_MAX], val[16];
	int64_t cur;
	int r;

	/* A device of another bus may have sriov_numvfs and no
	 * sriov_totalvfs (netdevsim): its kernel refuses a count too high. */
	if (pf->role != MLX_FN_PF || (pf->sriov_totalvfs < 0 && pf->sriov_numvfs < 0))
		return mlx_err(ctx, EOPNOTSUPP, "%s has no SR-IOV (no sriov_totalvfs)", pf->bdf);
	if (pf->sriov_totalvfs >= 0 && n > (unsigned)pf->sriov_totalvfs)
		return mlx_err(ctx, EINVAL, "%s supports at most %d VFs (sriov_totalvfs); %u asked",
			       pf->bdf, pf->sriov_totalvfs, n);
	mlx_fn_sysfs_dir(pf, path, sizeof(path));
	strncat(path, "/sriov_numvfs", sizeof(path) - strlen(path) - 1);
	r = mlx_read_s64(ctx, path, &cur);
	if (r < 0)
		return mlx_err(ctx, r, "cannot read '%s': %s", path, strerror(-r));
	if (cur == (int64_t)n)
		return 0;
	snprintf(val, sizeof(val), "%u", n);
	/* The count as asked, in one write where the kernel takes it: from
	 * or to 0, and on a captured system, whose emulator makes the change
	 * one undoable step.  The kernel refuses a non-zero count over a
	 * non-zero one (EBUSY, drivers/pci/iov.c sriov_numvfs_store): then
	 * through 0. */
	r = mlx_kernel_write(ctx, path, val);
	if (r == -EBUSY && cur > 0 && n > 0) {
		r = mlx_kernel_write(ctx, path, "0");
		if (r < 0)
			return mlx_err(ctx, r, "cannot write 0 to '%s': %s", path, strerror(-r));
		r = mlx_kernel_write(ctx, path, val);
	} else if (r < 0) {
		cur = 0;        /* nothing was disabled: no note below */
	}
	if (r < 0)
		return mlx_err(ctx, r, "cannot write %u to '%s': %s%s", n, path, strerror(-r),
			       cur > 0 && n > 0 ? " (the VFs are now disabled: numvfs is 0)" : "");
	return 0;
}

static int setlink(struct mlx_ctx *ctx, const struct mlx_port *p, const struct mlx_vf_set *s)
{
	uint8_t req[256];
	int len;

	len = mlx_rtnl_setlink_vf_build(req, sizeof(req), p->ifindex, s);
	if (len < 0)
		return len;
	return mlx_nl_query(ctx, MLX_NL_ROUTE, p->ifname, "setlink-vf", req, (size_t)len, NULL,
			    NULL);
}

/* The write that puts back what @s changed, from the VF's state before. */
static void undo_of(const struct mlx_vf_info *b, const struct mlx_vf_set *s, struct mlx_vf_set *u)
{
	memset(u, 0, sizeof(*u));
	u->attr = s->attr;
	u->vf = s->vf;
	memcpy(u->mac, b->mac, 6);
	u->vlan = b->vlan;
	u->qos = b->qos;
	u->min_tx_rate = b->min_tx_rate;
	u->max_tx_rate = b->max_tx_rate;
	u->on = s->attr == MLX_VF_SET_TRUST ? b->trust > 0 : b->spoofchk > 0;
	u->link_state = b->link_state >= 0 ? (uint32_t)b->link_state : 0;
}

static const char *attr_name(enum mlx_vf_attr a)
{
	static const char *const n[] = { "mac", "vlan", "rate", "spoofchk", "trust", "state" };

	return (unsigned)a < sizeof(n) / sizeof(*n) ? n[a] : "?";
}

int mlx_sriov_vf_set(struct mlx_ctx *ctx, const struct mlx_function *pf,
		     const struct mlx_link_vfs *before, const struct mlx_vf_set *s, size_t n)
{
	const struct mlx_port *p = NULL;
	size_t k;
	int r = 0;

	r = pf_netdev(ctx, pf, &p);
	if (r < 0)
		return r;
	/* One RTM_SETLINK per setting, to the kernel or (captured) to
	 * lib/emul/sriov-vf-emul.c; a failure puts back the earlier ones. */
	for (k = 0; k < n; k++) {
		r = setlink(ctx, p, &s[k]);
		if (r < 0)
			break;
	}
	if (r == 0)
		return 0;
	{
		char why[256];
		size_t undone = 0, failed = k;

		snprintf(why, sizeof(why), "%s%s%s", strerror(-r), *mlx_nl_extack(ctx) ? ": " : "",
			 mlx_nl_extack(ctx));
		while (k-- > 0) {
			struct mlx_vf_set u;
			const struct mlx_vf_info *b = NULL;

			for (size_t i = 0; i < before->nvf; i++)
				if (before->vf[i].vf == s[k].vf)
					b = &before->vf[i];
			if (!b)
				continue;
			undo_of(b, &s[k], &u);
			if (setlink(ctx, p, &u) == 0)
				undone++;
		}
		return mlx_err(ctx, r, "cannot set %s of VF %u on %s: %s%s", attr_name(s[failed].attr),
			       s[failed].vf, p->ifname, why,
			       undone ? "; the earlier settings were put back" : "");
	}
}

struct esw_arg {
	struct mlx_eswitch *out;
	bool got;
};

static int esw_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct esw_arg *a = arg;

	if (!a->got && mlx_devlink_eswitch_decode(h, len, a->out) == 0)
		a->got = true;
	return 0;
}

int mlx_devlink_eswitch_get(struct mlx_ctx *ctx, const struct mlx_function *pf,
			    struct mlx_eswitch *out)
{
	struct esw_arg a = { .out = out };
	char obj[64];
	uint8_t req[128];
	int len, r;

	out->mode = out->inline_mode = out->encap_mode = -1;
	mlx_devlink_object(pf, obj, sizeof(obj));
	len = mlx_devlink_build(req, sizeof(req), DEVLINK_CMD_ESWITCH_GET, mlx_fn_bus(pf), pf->bdf, -1);
	if (len < 0)
		return len;
	r = mlx_nl_query(ctx, MLX_NL_DEVLINK, obj, MLX_REQ_ESWITCH_GET, req, (size_t)len, esw_cb,
			 &a);
	if (r < 0)
		return r;
	return a.got ? 0 : -ENODATA;
}

int mlx_devlink_eswitch_set(struct mlx_ctx *ctx, const struct mlx_function *pf, int mode)
{
	char obj[64];
	uint8_t req[128];
	int len, r;

	mlx_devlink_object(pf, obj, sizeof(obj));
	len = mlx_devlink_build(req, sizeof(req), DEVLINK_CMD_ESWITCH_SET, mlx_fn_bus(pf), pf->bdf, mode);
	if (len < 0)
		return len;
	r = mlx_nl_query(ctx, MLX_NL_DEVLINK, obj, "eswitch-set", req, (size_t)len, NULL, NULL);
	if (r < 0 && r != -EOPNOTSUPP)
		return mlx_err(ctx, r, "cannot set the eswitch of %s to %s: %s%s%s", pf->bdf,
			       mlx_eswitch_mode_str(mode), strerror(-r),
			       *mlx_nl_extack(ctx) ? ": " : "", mlx_nl_extack(ctx));
	return r;
}

int mlx_devlink_info_get(struct mlx_ctx *ctx, const struct mlx_function *fn,
			 struct mlx_devlink_info *out)
{
	struct first_arg a = { .ctx = ctx, .out = out };
	char obj[64];
	uint8_t req[128];
	int len, r;

	memset(out, 0, sizeof(*out));
	mlx_devlink_object(fn, obj, sizeof(obj));
	len = mlx_devlink_build(req, sizeof(req), DEVLINK_CMD_INFO_GET, mlx_fn_bus(fn), fn->bdf, -1);
	if (len < 0)
		return len;
	r = mlx_nl_query(ctx, MLX_NL_DEVLINK, obj, MLX_REQ_INFO_GET, req, (size_t)len, first_cb,
			 &a);
	if (r < 0)
		return r;
	return a.got ? 0 : -ENODATA;
}
