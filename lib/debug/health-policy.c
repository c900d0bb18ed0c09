/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The self-healing policy (issue 27): each devlink health reporter's grace
 * period, auto_recover and auto_dump, set with DEVLINK_CMD_HEALTH_REPORTER_SET
 * (net/devlink health: devlink_nl_cmd_health_reporter_set_doit), a
 * recovery on demand (HEALTH_REPORTER_RECOVER), and the policy as a
 * subsystem of the settings model (lib/settings.h MLX_SUB_HEALTH): read,
 * validated, planned, written through the engine, read back, put back.
 * How WinOF-2's self-healing keys map is lib/health.h's.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>

#include "health.h"
#include "mlx-private.h"
#include "nl.h"
#include "settings-private.h"
#include "sriov.h"

static const char *const field_names[MLX_HEALTH_NFIELDS] = {
	[MLX_HEALTH_GRACE] = "grace_period_ms",
	[MLX_HEALTH_AUTO_RECOVER] = "auto_recover",
	[MLX_HEALTH_AUTO_DUMP] = "auto_dump",
};

static const uint16_t field_attr[MLX_HEALTH_NFIELDS] = {
	[MLX_HEALTH_GRACE] = DEVLINK_ATTR_HEALTH_REPORTER_GRACEFUL_PERIOD,
	[MLX_HEALTH_AUTO_RECOVER] = DEVLINK_ATTR_HEALTH_REPORTER_AUTO_RECOVER,
	[MLX_HEALTH_AUTO_DUMP] = DEVLINK_ATTR_HEALTH_REPORTER_AUTO_DUMP,
};

const char *mlx_health_field_name(enum mlx_health_field f)
{
	return (unsigned)f < MLX_HEALTH_NFIELDS ? field_names[f] : "?";
}

bool mlx_health_has(const struct mlx_health_reporter *r, enum mlx_health_field f)
{
	switch (f) {
	case MLX_HEALTH_GRACE: return r->has_grace;
	case MLX_HEALTH_AUTO_RECOVER: return r->has_auto_recover;
	case MLX_HEALTH_AUTO_DUMP: return r->has_auto_dump;
	default: return false;
	}
}

uint64_t mlx_health_value(const struct mlx_health_reporter *r, enum mlx_health_field f)
{
	switch (f) {
	case MLX_HEALTH_GRACE: return r->grace_period_ms;
	case MLX_HEALTH_AUTO_RECOVER: return r->auto_recover;
	case MLX_HEALTH_AUTO_DUMP: return r->auto_dump;
	default: return 0;
	}
}

/* ---- WinOF-2's keys (lib/health.h) ---- */

/* The sensor bits of reference seeds-mlxtool-dmn-counters.md §8.4:
 * 0x08 lack of progress in hardware for Ethernet send queues, 0x10 the
 * same in software, 0x20000 send completion error; 0x40 lack of progress
 * in software for receive queues, 0x10000 receive completion error.
 * mlx5's tx reporter reports a TX timeout and an error CQE of a send
 * queue (en/reporter_tx.c mlx5e_reporter_tx_timeout, _err_cqe), its rx
 * reporter an RX timeout and an error CQE of a receive queue
 * (en/reporter_rx.c). */
static const struct mlx_health_windows windows_rows[] = {
	{ "tx", 0x00000008u | 0x00000010u | 0x00020000u,
	  "send queues: lack of progress in hardware (0x8) and software (0x10), send "
	  "completion error (0x20000)" },
	{ "rx", 0x00000040u | 0x00010000u,
	  "receive queues: lack of progress in software (0x40), receive completion error (0x10000)" },
	{ "fw", 0, "no Windows sensor: firmware errors are the bus driver's there" },
	{ "fw_fatal", 0, "no Windows sensor: a fatal firmware error resets the device there "
	  "(AllowResetOnError)" },
	{ "vnic", 0, "no Windows sensor (a VF's counters; diagnose only)" },
};

const struct mlx_health_windows *mlx_health_windows_row(const char *reporter)
{
	for (size_t i = 0; i < sizeof(windows_rows) / sizeof(windows_rows[0]); i++)
		if (!strcmp(windows_rows[i].reporter, reporter))
			return &windows_rows[i];
	return NULL;
}

const char *mlx_health_windows_key(enum mlx_health_field f)
{
	switch (f) {
	case MLX_HEALTH_AUTO_RECOVER: return "SHMPResetActiveSensorsMask";
	case MLX_HEALTH_AUTO_DUMP: return "SHSensorsDumpMask";
	default: return NULL;    /* SHCheckForHangTimeInSeconds is no grace period */
	}
}

/* ---- requests ---- */

int mlx_health_set_build(void *buf, size_t cap, const char *bus, const char *dev,
			 const char *reporter, int64_t port_index, enum mlx_health_field f,
			 uint64_t v)
{
	struct genlmsghdr g = { .cmd = DEVLINK_CMD_HEALTH_REPORTER_SET,
				.version = DEVLINK_GENL_VERSION };
	struct mlx_nlbuf b;

	if ((unsigned)f >= MLX_HEALTH_NFIELDS || !reporter)
		return -EINVAL;
	mlx_nlb_init(&b, buf, cap);
	mlx_nlb_msg(&b, 0, NLM_F_ACK);
	mlx_nlb_put(&b, &g, sizeof(g));
	mlx_nlb_str(&b, DEVLINK_ATTR_BUS_NAME, bus);
	mlx_nlb_str(&b, DEVLINK_ATTR_DEV_NAME, dev);
	if (port_index >= 0)
		mlx_nlb_u32(&b, DEVLINK_ATTR_PORT_INDEX, (uint32_t)port_index);
	mlx_nlb_str(&b, DEVLINK_ATTR_HEALTH_REPORTER_NAME, reporter);
	/* the policy's types: devlink_nl_policy GRACEFUL_PERIOD NLA_U64,
	 * AUTO_RECOVER and AUTO_DUMP NLA_U8 */
	if (f == MLX_HEALTH_GRACE)
		mlx_nlb_u64(&b, field_attr[f], v);
	else
		mlx_nlb_u8(&b, field_attr[f], v ? 1 : 0);
	return mlx_nlb_finish(&b);
}

static int why_say(char *why, size_t len, const char *text)
{
	if (why && len)
		snprintf(why, len, "%s", text);
	return -EINVAL;
}

int mlx_health_set_parse(const void *req, size_t len, struct mlx_health_set_req *out, char *why,
			 size_t whylen)
{
	const struct nlmsghdr *h = req;
	const uint8_t *attrs;
	struct mlx_nla a;
	size_t alen, off = 0;
	uint32_t u32;
	uint8_t u8, cmd;
	int r;

	memset(out, 0, sizeof(*out));
	out->port_index = -1;
	if (mlx_genlmsg_attrs(h, len, &cmd, &attrs, &alen) < 0 || h->nlmsg_len != len)
		return why_say(why, whylen, "a short or malformed request");
	if (cmd != DEVLINK_CMD_HEALTH_REPORTER_SET)
		return -ENOENT;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		switch (a.type) {
		case DEVLINK_ATTR_BUS_NAME:
			mlx_nla_str(&a, out->bus, sizeof(out->bus));
			break;
		case DEVLINK_ATTR_DEV_NAME:
			mlx_nla_str(&a, out->dev, sizeof(out->dev));
			break;
		case DEVLINK_ATTR_PORT_INDEX:
			if (mlx_nla_u32(&a, &u32) < 0)
				return why_say(why, whylen, "a short port index");
			out->port_index = u32;
			break;
		case DEVLINK_ATTR_HEALTH_REPORTER_NAME:
			mlx_nla_str(&a, out->reporter, sizeof(out->reporter));
			break;
		case DEVLINK_ATTR_HEALTH_REPORTER_GRACEFUL_PERIOD:
			if (mlx_nla_u64(&a, &out->v[MLX_HEALTH_GRACE]) < 0)
				return why_say(why, whylen, "a short grace period");
			out->has[MLX_HEALTH_GRACE] = true;
			break;
		case DEVLINK_ATTR_HEALTH_REPORTER_AUTO_RECOVER:
		case DEVLINK_ATTR_HEALTH_REPORTER_AUTO_DUMP: {
			enum mlx_health_field f = a.type == DEVLINK_ATTR_HEALTH_REPORTER_AUTO_DUMP ?
						  MLX_HEALTH_AUTO_DUMP : MLX_HEALTH_AUTO_RECOVER;

			if (mlx_nla_u8(&a, &u8) < 0)
				return why_say(why, whylen, "a short flag");
			out->has[f] = true;
			out->v[f] = u8 != 0;
			break;
		}
		default:
			break;
		}
	}
	if (r < 0)
		return why_say(why, whylen, "a truncated attribute");
	if (!out->bus[0] || !out->dev[0] || !out->reporter[0])
		return why_say(why, whylen, "no device or reporter named");
	return 0;
}

/* ---- queries ---- */

/* Whether the target may be written at all (an incident may not); a
 * captured system's device emulator refuses the recovery itself
 * (lib/emul/device-emul.c), as a kernel refuses what its driver lacks. */
static int live_only(struct mlx_ctx *ctx, const char *what)
{
	(void)what;
	return mlx_may_write(ctx);
}

int mlx_health_recover_check(struct mlx_ctx *ctx)
{
	return live_only(ctx, "a health reporter's recovery");
}

static const char *extack_sep(struct mlx_ctx *ctx)
{
	return *mlx_nl_extack(ctx) ? ": " : "";
}

int mlx_health_set(struct mlx_ctx *ctx, const struct mlx_function *fn,
		   const struct mlx_health_reporter *r, enum mlx_health_field f, uint64_t v)
{
	uint8_t req[256];
	char obj[64];
	int len, q;

	mlx_devlink_object(fn, obj, sizeof(obj));
	len = mlx_health_set_build(req, sizeof(req), mlx_fn_bus(fn), fn->bdf, r->name,
				   r->port_index, f, v);
	if (len < 0)
		return mlx_err(ctx, -len, "cannot build the request for reporter %s", r->name);
	q = mlx_nl_query(ctx, MLX_NL_DEVLINK, obj, "health-set", req, (size_t)len, NULL, NULL);
	if (q < 0)
		mlx_err(ctx, -q, "cannot set %s of health reporter %s of %s: %s%s%s",
			field_names[f], r->name, fn->bdf, q == -EOPNOTSUPP ?
			(f == MLX_HEALTH_AUTO_DUMP ? "the reporter takes no dumps" :
			 "the reporter has no recovery") : strerror(-q), extack_sep(ctx),
			mlx_nl_extack(ctx));
	return q;
}

int mlx_health_recover(struct mlx_ctx *ctx, const struct mlx_function *fn,
		       const struct mlx_health_reporter *r)
{
	uint8_t req[256];
	char obj[64];
	int len, q = mlx_health_recover_check(ctx);

	if (q < 0)
		return q;
	mlx_devlink_object(fn, obj, sizeof(obj));
	len = mlx_health_build(req, sizeof(req), DEVLINK_CMD_HEALTH_REPORTER_RECOVER, mlx_fn_bus(fn),
			       fn->bdf, r->name, r->port_index);
	if (len < 0)
		return mlx_err(ctx, -len, "cannot build the request for reporter %s", r->name);
	q = mlx_nl_query(ctx, MLX_NL_DEVLINK, obj, "health-recover", req, (size_t)len, NULL, NULL);
	if (q < 0)
		mlx_err(ctx, -q, "the recovery of health reporter %s of %s failed: %s%s%s", r->name,
			fn->bdf, q == -EOPNOTSUPP && !*mlx_nl_extack(ctx) ? "the reporter has no recovery" :
			strerror(-q),
			extack_sep(ctx), mlx_nl_extack(ctx));
	return q;
}

size_t mlx_health_find(const struct mlx_health *h, const char *name, int64_t port_index,
		       size_t *idx, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < h->n && n < max; i++)
		if ((!name[0] || !strcmp(h->r[i].name, name)) &&
		    (port_index < 0 || h->r[i].port_index == port_index))
			idx[n++] = i;
	return n;
}

/* ---- the settings model: validators ---- */

struct mlx_health_policy *mlx_health_put_reporter(struct mlx_ctx *ctx, struct mlx_health_settings *h,
						  const char *name, int64_t port_index)
{
	struct mlx_health_policy *p;
	size_t len = strlen(name);

	/* devlink names a reporter with a string a driver chose: no file
	 * name; a request's NUL-terminated attribute, so no NUL inside */
	if (len >= sizeof(p->reporter)) {
		mlx_err(ctx, EINVAL, "'%.40s...' is too long for a health reporter's name", name);
		return NULL;
	}
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)name[i] < 0x20 || name[i] == '/' || name[i] == 0x7f) {
			mlx_err(ctx, EINVAL, "'%s' is not a health reporter's name", name);
			return NULL;
		}
	if (port_index < -1 || port_index > UINT32_MAX) {
		mlx_err(ctx, ERANGE, "port index %" PRId64 " is out of range (0-4294967295)", port_index);
		return NULL;
	}
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->r[i].reporter, name) && h->r[i].port_index == port_index) {
			mlx_err(ctx, EEXIST, "health reporter '%s' is named twice", name);
			return NULL;
		}
	if (h->n == MLX_HEALTH_POLICY_MAX) {
		mlx_err(ctx, ENOSPC, "more than %d health reporters", MLX_HEALTH_POLICY_MAX);
		return NULL;
	}
	p = &h->r[h->n++];
	memset(p, 0, sizeof(*p));
	memcpy(p->reporter, name, len + 1);
	p->port_index = port_index;
	h->have = MLX_SET;
	return p;
}

int mlx_health_put_grace(struct mlx_ctx *ctx, struct mlx_health_policy *p, int64_t ms)
{
	if (ms < 0)
		return mlx_err(ctx, ERANGE, "%" PRId64 " is out of range (0-%" PRId64 " ms)", ms,
			       INT64_MAX);
	p->grace_h = MLX_SET;
	p->grace_period_ms = (uint64_t)ms;
	return 0;
}

/* ---- the settings model: a port's section ---- */

void mlx_health_sread(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		      struct mlx_port_settings *out)
{
	struct mlx_health_settings *hs = &out->health;
	struct mlx_health *h;

	memset(hs, 0, sizeof(*hs));
	hs->have = MLX_NULL;
	/* devlink health is a PF's (a VF's reporters are read through itself,
	 * not its PF's section); a netdev that is no ConnectX port has none */
	if (!t->fn || t->fn->role == MLX_FN_VF || !(h = malloc(sizeof(*h))))
		return;
	if (mlx_health_get(rd->ctx, t->fn, h) == 0) {
		hs->have = MLX_SET;
		for (size_t i = 0; i < h->n && hs->n < MLX_HEALTH_POLICY_MAX; i++) {
			const struct mlx_health_reporter *r = &h->r[i];
			struct mlx_health_policy *p = &hs->r[hs->n++];

			snprintf(p->reporter, sizeof(p->reporter), "%s", r->name);
			p->port_index = r->port_index;
			p->grace_h = r->has_grace ? MLX_SET : MLX_NULL;
			p->grace_period_ms = r->grace_period_ms;
			p->recover_h = r->has_auto_recover ? MLX_SET : MLX_NULL;
			p->auto_recover = r->auto_recover;
			p->dump_h = r->has_auto_dump ? MLX_SET : MLX_NULL;
			p->auto_dump = r->auto_dump;
		}
	}
	mlx_err_clear(rd->ctx);
	free(h);
}

static bool policy_wanted(const struct mlx_health_policy *p)
{
	return p->grace_h == MLX_SET || p->recover_h == MLX_SET || p->dump_h == MLX_SET;
}

bool mlx_health_wanted(const struct mlx_port_settings *want, size_t vf)
{
	(void)vf;
	for (size_t i = 0; i < want->health.n; i++)
		if (policy_wanted(&want->health.r[i]))
			return true;
	return false;
}

int mlx_health_open_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t, void *parent)
{
	struct mlx_health_writer *w = feat;

	(void)ctx;
	(void)parent;
	memset(w, 0, sizeof(*w));
	w->fn = t->fn;
	w->on = mlx_port_ref_name(t);
	return 0;
}

/* The settings' names in a plan: "<reporter>.<field>", a port reporter's
 * "<reporter>@<port>.<field>" where another of that name exists. */
static void setting_name(const struct mlx_health *h, size_t i, enum mlx_health_field f, char *buf,
			 size_t len)
{
	const struct mlx_health_reporter *r = &h->r[i];
	bool twice = false;

	for (size_t k = 0; k < h->n && !twice; k++)
		twice = k != i && !strcmp(h->r[k].name, r->name);
	if (twice && r->port_index >= 0)
		snprintf(buf, len, "%s@%" PRId64 ".%s", r->name, r->port_index, field_names[f]);
	else
		snprintf(buf, len, "%s.%s", r->name, field_names[f]);
}

static const char *const field_unit[MLX_HEALTH_NFIELDS] = { "milliseconds", NULL, NULL };

int mlx_health_plan_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
			 size_t vf, struct mlx_plan *pl)
{
	struct mlx_health_writer *w = feat;
	const struct mlx_health_settings *hs = &want->health;
	char where[96], name[48];
	int e;

	(void)vf;
	if (!w->fn)
		return mlx_plan_fail(ctx, pl, EOPNOTSUPP, "health", "%s is no ConnectX function: it has "
				     "no devlink health reporters here", w->on);
	if (w->fn->role == MLX_FN_VF)
		return mlx_plan_fail(ctx, pl, EOPNOTSUPP, "health", "%s is a VF: its health reporters "
				     "are set on the VF itself, not in its PF's state", w->on);
	e = mlx_health_get(ctx, w->fn, &w->cur);
	if (e < 0)
		return mlx_plan_fail(ctx, pl, e == -ENODATA ? EOPNOTSUPP : -e, "health", "%s",
				     e == -ENODATA ? "the captured system has no devlink health reply "
				     "for this device" : mlx_errmsg(ctx));
	w->have = true;
	for (size_t i = 0; i < hs->n; i++) {
		const struct mlx_health_policy *p = &hs->r[i];
		const uint8_t hv[MLX_HEALTH_NFIELDS] = { p->grace_h, p->recover_h, p->dump_h };
		const uint64_t vv[MLX_HEALTH_NFIELDS] = { p->grace_period_ms, p->auto_recover,
							   p->auto_dump };
		size_t idx[MLX_HEALTH_MAX_REPORTERS], n;

		if (!policy_wanted(p))
			continue;
		snprintf(where, sizeof(where), "health[%zu].reporter", i);
		n = mlx_health_find(&w->cur, p->reporter, p->port_index, idx, MLX_HEALTH_MAX_REPORTERS);
		if (!n) {
			char names[400] = "";
			size_t l = 0;

			for (size_t k = 0; k < w->cur.n && l < sizeof(names); k++)
				l += (size_t)snprintf(names + l, sizeof(names) - l, "%s%s", k ? ", " : "",
						      w->cur.r[k].name);
			return mlx_plan_fail(ctx, pl, p->reporter[0] ? EINVAL : EOPNOTSUPP, where,
					     p->reporter[0] ? "%s has no health reporter '%s' (it has: %s)"
					     : "%s has no health reporters%s", w->on, p->reporter,
					     w->cur.n ? names : "none");
		}
		for (enum mlx_health_field f = 0; f < MLX_HEALTH_NFIELDS; f++) {
			size_t added = 0;

			if (hv[f] != MLX_SET)
				continue;
			for (size_t k = 0; k < n; k++) {
				const struct mlx_health_reporter *r = &w->cur.r[idx[k]];
				int c;

				/* every reporter (health set without a name): those that
				 * have it; a named one must have it */
				if (!mlx_health_has(r, f)) {
					if (!p->reporter[0])
						continue;
					snprintf(where, sizeof(where), "health[%zu].%s", i, field_names[f]);
					return mlx_plan_fail(ctx, pl, EOPNOTSUPP, where, "health reporter %s "
							     "of %s %s, so no %s (the kernel refuses it)",
							     r->name, w->on, f == MLX_HEALTH_AUTO_DUMP ?
							     "takes no dumps" : "has no recovery",
							     field_names[f]);
				}
				setting_name(&w->cur, idx[k], f, name, sizeof(name));
				c = mlx_plan_add(pl, name, field_unit[f], (int)idx[k], (int)f,
						 f == MLX_HEALTH_GRACE ? mlx_val_uint(vv[f]) : mlx_val_bool(vv[f]));
				if (c < 0)
					return mlx_err(ctx, ENOMEM, "out of memory");
				added++;
			}
			if (!added) {
				snprintf(where, sizeof(where), "health[%zu].%s", i, field_names[f]);
				return mlx_plan_fail(ctx, pl, EOPNOTSUPP, where, "no health reporter of %s has "
						     "%s", w->on, field_names[f]);
			}
		}
	}
	return 0;
}

/* ---- the write engine's operations ---- */

/* The reporter a change is about, found again by name and port in a
 * fresh read (its index may move if the driver re-created reporters). */
static int reporter_now(struct mlx_ctx *ctx, struct mlx_health_writer *w, const struct mlx_change *c,
			const struct mlx_health_reporter **out)
{
	const struct mlx_health_reporter *was;
	struct mlx_health *now;
	int e;

	if (c->id < 0 || (size_t)c->id >= w->cur.n)
		return mlx_err(ctx, EINVAL, "no reporter %d", c->id);
	was = &w->cur.r[c->id];
	now = malloc(sizeof(*now));
	if (!now)
		return mlx_err(ctx, ENOMEM, "out of memory");
	e = mlx_health_get(ctx, w->fn, now);
	for (size_t i = 0; e == 0 && i < now->n; i++)
		if (!strcmp(now->r[i].name, was->name) && now->r[i].port_index == was->port_index) {
			w->cur.r[c->id] = now->r[i];
			*out = &w->cur.r[c->id];
			free(now);
			return 0;
		}
	free(now);
	if (e < 0)
		return e;
	return mlx_err(ctx, ENOENT, "health reporter %s of %s is gone", was->name, w->on);
}

static int hp_read(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c, struct mlx_val *out)
{
	struct mlx_health_writer *w = feat;
	const struct mlx_health_reporter *r = NULL;
	int e = reporter_now(ctx, w, c, &r);

	if (e < 0)
		return e;
	if (!mlx_health_has(r, (enum mlx_health_field)c->arg)) {
		*out = mlx_val_null();
		return 0;
	}
	*out = c->arg == MLX_HEALTH_GRACE ? mlx_val_uint(r->grace_period_ms) :
	       mlx_val_bool(mlx_health_value(r, (enum mlx_health_field)c->arg) != 0);
	return 0;
}

static int hp_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		    const struct mlx_val *v)
{
	struct mlx_health_writer *w = feat;

	if (c->id < 0 || (size_t)c->id >= w->cur.n || c->arg < 0 || c->arg >= MLX_HEALTH_NFIELDS)
		return mlx_err(ctx, EINVAL, "no such health setting");
	/* unknown before (null): nothing to put back */
	if (v->kind == MLX_VAL_NULL)
		return 0;
	return mlx_health_set(ctx, w->fn, &w->cur.r[c->id], (enum mlx_health_field)c->arg,
			      v->kind == MLX_VAL_BOOL ? v->b : v->u);
}

const struct mlx_write_ops mlx_health_write_ops = {
	.read = hp_read,
	.write = hp_write,
};

/* ---- diff, merge ---- */

void mlx_health_flatten(const struct mlx_port_settings *p, mlx_flat_fn fn, void *arg)
{
	const struct mlx_health_settings *hs = &p->health;
	char path[128];

	if (hs->have == MLX_NULL) {
		mlx_flat_null(fn, arg, "health");
		return;
	}
	for (size_t i = 0; i < hs->n; i++) {
		const struct mlx_health_policy *r = &hs->r[i];
		struct mlx_val g = mlx_val_uint(r->grace_period_ms), a = mlx_val_bool(r->auto_recover),
			       d = mlx_val_bool(r->auto_dump);

		snprintf(path, sizeof(path), "health.%s.grace_period_ms", r->reporter);
		mlx_flat_val(fn, arg, path, r->grace_h, &g);
		snprintf(path, sizeof(path), "health.%s.auto_recover", r->reporter);
		mlx_flat_val(fn, arg, path, r->recover_h, &a);
		snprintf(path, sizeof(path), "health.%s.auto_dump", r->reporter);
		mlx_flat_val(fn, arg, path, r->dump_h, &d);
	}
}

int mlx_health_merge(struct mlx_port_settings *pd, const struct mlx_port_settings *ps, bool add)
{
	struct mlx_health_settings *dst = &pd->health;
	const struct mlx_health_settings *src = &ps->health;

	if (src->have != MLX_SET)
		return 0;
	if (dst->have != MLX_SET) {
		*dst = *src;
		return 0;
	}
	for (size_t i = 0; i < src->n; i++) {
		const struct mlx_health_policy *s = &src->r[i];
		struct mlx_health_policy *d = NULL;

		for (size_t k = 0; k < dst->n && !d; k++)
			if (!strcmp(dst->r[k].reporter, s->reporter) &&
			    (s->port_index < 0 || dst->r[k].port_index < 0 ||
			     dst->r[k].port_index == s->port_index))
				d = &dst->r[k];
		if (!d) {
			if (!add || dst->n == MLX_HEALTH_POLICY_MAX)
				continue;
			d = &dst->r[dst->n++];
			*d = *s;
			continue;
		}
		if (s->grace_h == MLX_SET) {
			d->grace_h = MLX_SET;
			d->grace_period_ms = s->grace_period_ms;
		}
		if (s->recover_h == MLX_SET) {
			d->recover_h = MLX_SET;
			d->auto_recover = s->auto_recover;
		}
		if (s->dump_h == MLX_SET) {
			d->dump_h = MLX_SET;
			d->auto_dump = s->auto_dump;
		}
	}
	return 0;
}
