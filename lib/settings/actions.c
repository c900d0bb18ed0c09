/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The actions a transaction runs (lib/txn.h mlx_txn_add_action): a devlink
 * reload, a link restart, the clear of a health reporter's dump.  They are
 * no settings (nothing to read, nothing to put back: their write ops have
 * no read, lib/write.h), but they go through the same engine as every
 * write: the device's lock, --dry-run, a change record, the signals held,
 * one confirmation rule (the plan flags what destroys: cmd asks from it).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fw.h"
#include "health.h"
#include "mlx-private.h"
#include "settings-private.h"
#include "txn.h"

struct act_writer {
	struct mlx_port_ref t;
	const void *obj;          /* the action's object (a health reporter) */
};

static int act_open(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t, void *parent)
{
	struct act_writer *w = feat;

	(void)ctx;
	(void)parent;
	w->t = *t;
	return 0;
}

static int act_add(struct mlx_plan *pl, const char *setting, const char *what, unsigned flags)
{
	int k = mlx_plan_add(pl, setting, NULL, 0, 0, mlx_val_str(what));

	if (k < 0)
		return k;
	pl->c[k].flags = flags | MLX_CHG_ACTION;
	return 0;
}

/* ---- devlink reload driver_reinit: every netdev and RDMA device of the
 * function goes and comes back (its settings with them) ---- */

static int reload_may_write(struct mlx_ctx *ctx, const struct mlx_port_ref *t)
{
	(void)t;
	return mlx_may_write(ctx);
}

static int reload_plan(struct mlx_ctx *ctx, void *feat, const void *obj, struct mlx_plan *pl)
{
	struct act_writer *w = feat;

	(void)obj;
	if (!w->t.fn)
		return mlx_err(ctx, EINVAL, "a devlink reload needs a PCI function");
	return act_add(pl, "reload", "driver_reinit", MLX_CHG_DESTROYS) < 0 ? -ENOMEM : 0;
}

static int reload_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
			const struct mlx_val *v)
{
	const struct act_writer *w = feat;

	(void)c;
	(void)v;
	return mlx_devlink_reload(ctx, w->t.fn);
}

static const struct mlx_write_ops reload_ops = { .write = reload_write };

/* ---- link down, then up (SIOCSIFFLAGS; a captured system's emulator) ---- */

static int restart_may_write(struct mlx_ctx *ctx, const struct mlx_port_ref *t)
{
	(void)t;
	return mlx_may_write(ctx);
}

static int restart_plan(struct mlx_ctx *ctx, void *feat, const void *obj, struct mlx_plan *pl)
{
	struct act_writer *w = feat;

	(void)obj;
	if (!w->t.ifname)
		return mlx_err(ctx, EINVAL, "a link restart needs a network interface");
	return act_add(pl, "link", "restart", MLX_CHG_DESTROYS) < 0 ? -ENOMEM : 0;
}

static int restart_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
			 const struct mlx_val *v)
{
	const struct act_writer *w = feat;

	(void)c;
	(void)v;
	return mlx_netdev_restart(ctx, w->t.ifname);
}

static const struct mlx_write_ops restart_ops = { .write = restart_write };

/* ---- DEVLINK_CMD_HEALTH_REPORTER_DUMP_CLEAR: the dump kept, forgotten ---- */

static int dump_clear_may_write(struct mlx_ctx *ctx, const struct mlx_port_ref *t)
{
	(void)t;
	return mlx_may_write(ctx);
}

static int dump_clear_plan(struct mlx_ctx *ctx, void *feat, const void *obj, struct mlx_plan *pl)
{
	struct act_writer *w = feat;
	const struct mlx_health_reporter *r = obj;
	char setting[40];

	if (!w->t.fn || !r)
		return mlx_err(ctx, EINVAL, "clearing a health dump needs a PCI function and a reporter");
	w->obj = obj;
	snprintf(setting, sizeof(setting), "%s_dump", r->name);
	return act_add(pl, setting, "clear", 0) < 0 ? -ENOMEM : 0;
}

static int dump_clear_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
			    const struct mlx_val *v)
{
	const struct act_writer *w = feat;

	(void)c;
	(void)v;
	return mlx_health_dump_clear(ctx, w->t.fn, w->obj);
}

static const struct mlx_write_ops dump_clear_ops = { .write = dump_clear_write };

/* ---- DEVLINK_CMD_HEALTH_REPORTER_RECOVER: the reporter's recovery, now.
 * It resets what the reporter watches (mlx5: tx and rx reopen the failing
 * queues, fw_fatal reloads the function), so it is confirmed ---- */

static int recover_may_write(struct mlx_ctx *ctx, const struct mlx_port_ref *t)
{
	(void)t;
	return mlx_health_recover_check(ctx);
}

static int recover_plan(struct mlx_ctx *ctx, void *feat, const void *obj, struct mlx_plan *pl)
{
	struct act_writer *w = feat;
	const struct mlx_health_reporter *r = obj;
	char setting[40];

	if (!w->t.fn || !r)
		return mlx_err(ctx, EINVAL, "a recovery needs a devlink instance and a reporter");
	if (!r->has_grace)
		return mlx_err(ctx, EOPNOTSUPP, "health reporter %s of %s has no recovery", r->name,
			       w->t.fn->bdf);
	w->obj = obj;
	snprintf(setting, sizeof(setting), "%s", r->name);
	return act_add(pl, setting, "recover", MLX_CHG_DESTROYS) < 0 ? -ENOMEM : 0;
}

static int recover_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
			 const struct mlx_val *v)
{
	const struct act_writer *w = feat;

	(void)c;
	(void)v;
	return mlx_health_recover(ctx, w->t.fn, w->obj);
}

static const struct mlx_write_ops recover_ops = { .write = recover_write };

/* The table of actions (enum mlx_action).  id MLX_NSUB: no settings
 * subsystem (the settings' loops never see them). */
static const struct mlx_subsys actions[MLX_NACT] = {
	[MLX_ACT_RELOAD] = {
		.id = MLX_NSUB, .key = "reload", .name = "devlink reload",
		.feat_size = sizeof(struct act_writer), .parent_sub = MLX_NSUB,
		.open = act_open, .plan_action = reload_plan, .ops = &reload_ops,
		.may_write = reload_may_write,
	},
	[MLX_ACT_LINK_RESTART] = {
		.id = MLX_NSUB, .key = "link", .name = "link restart",
		.feat_size = sizeof(struct act_writer), .parent_sub = MLX_NSUB,
		.open = act_open, .plan_action = restart_plan, .ops = &restart_ops,
		.may_write = restart_may_write,
	},
	[MLX_ACT_DUMP_CLEAR] = {
		.id = MLX_NSUB, .key = "health", .name = "health dump clear",
		.feat_size = sizeof(struct act_writer), .parent_sub = MLX_NSUB,
		.open = act_open, .plan_action = dump_clear_plan, .ops = &dump_clear_ops,
		.may_write = dump_clear_may_write,
	},
	[MLX_ACT_HEALTH_RECOVER] = {
		.id = MLX_NSUB, .key = "health", .name = "health recovery",
		.feat_size = sizeof(struct act_writer), .parent_sub = MLX_NSUB,
		.open = act_open, .plan_action = recover_plan, .ops = &recover_ops,
		.may_write = recover_may_write,
	},
	[MLX_ACT_FW_FLASH] = {
		.id = MLX_NSUB, .key = "fw", .name = "firmware flash",
		.feat_size = sizeof(struct mlx_fw_act_writer), .parent_sub = MLX_NSUB,
		.open = mlx_fw_act_open, .plan_action = mlx_fw_flash_plan, .ops = &mlx_fw_flash_ops,
		.may_write = mlx_fw_flash_may_write,
	},
	[MLX_ACT_FW_ACTIVATE] = {
		.id = MLX_NSUB, .key = "fw", .name = "firmware activation",
		.feat_size = sizeof(struct mlx_fw_act_writer), .parent_sub = MLX_NSUB,
		.open = mlx_fw_act_open, .plan_action = mlx_fw_activate_plan,
		.ops = &mlx_fw_activate_ops, .may_write = mlx_fw_flash_may_write,
	},
};

const struct mlx_subsys *mlx_action(enum mlx_action id)
{
	return id < MLX_NACT ? &actions[id] : NULL;
}
