/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `params set` and `reset` in the write engine (issue 17; lib/write.h):
 * the values checked against the catalogue, the plan against what the
 * device reports (its range, a fixed feature, when a change applies, the
 * default a reset needs), one kernel request per knob
 * (lib/params/params-request.c builds them, the emulator parses them
 * back).  The writable module parameter, rdma_cm's configfs and MLNX_OFED's
 * traffic_class are files.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/devlink.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>

#include "mlx-private.h"
#include "nl.h"
#include "params.h"
#include "settings.h"
#include "write.h"

static bool parse_bool(const char *s, bool *b)
{
	static const char *const t[] = { "on", "true", "1", "yes", "Y", NULL };
	static const char *const f[] = { "off", "false", "0", "no", "N", NULL };

	for (size_t i = 0; t[i]; i++)
		if (!strcmp(s, t[i])) {
			*b = true;
			return true;
		}
	for (size_t i = 0; f[i]; i++)
		if (!strcmp(s, f[i])) {
			*b = false;
			return true;
		}
	return false;
}

int mlx_params_parse_value(struct mlx_ctx *ctx, const struct mlx_knob *k, const char *value,
			   struct mlx_val *out)
{
	char *end;
	unsigned long long u;
	uint64_t hi;
	bool b;

	switch (k->type) {
	case MLX_KT_BOOL:
		if (!parse_bool(value, &b))
			return mlx_err(ctx, EINVAL, "'%s' is not a value of %s: it takes on or off",
				       value, k->name);
		*out = mlx_val_bool(b);
		return 0;
	case MLX_KT_U32:
	case MLX_KT_U64:
		if (k->src == MLX_KS_TUNABLE) {
			/* the PFC prevention timeout: auto, off, or ms in a u16 */
			uint16_t ms;
			int r = mlx_pfc_tout_parse(value, &ms);

			if (r == -ERANGE)
				return mlx_err(ctx, ERANGE, "%s %s is out of its range 0..65535 "
					       "(auto, off, or milliseconds)", k->name, value);
			if (r < 0)
				return mlx_err(ctx, EINVAL, "'%s' is not a value of %s: it takes "
					       "auto, off or milliseconds", value, k->name);
			*out = mlx_val_uint(ms);
			return 0;
		}
		errno = 0;
		u = strtoull(value, &end, 0);
		if (!*value || *end || errno || value[0] == '-')
			return mlx_err(ctx, EINVAL, "'%s' is not a number (%s)", value, k->name);
		hi = k->max ? k->max : k->type == MLX_KT_U32 ? UINT32_MAX : UINT64_MAX;
		/* mlx5's range where the device reports its own: the plan
		 * checks the device's (pw_plan); here only the type's */
		if (k->flags & MLX_KF_RANGE_MLX5) {
			if (u > (k->type == MLX_KT_U32 ? UINT32_MAX : UINT64_MAX))
				return mlx_err(ctx, ERANGE, "%s %s is out of its range 0..%" PRIu64,
					       k->name, value, (uint64_t)UINT32_MAX);
		} else if (u < k->min || u > hi)
			return mlx_err(ctx, ERANGE, "%s %s is out of its range %" PRIu64 "..%" PRIu64,
				       k->name, value, k->min, hi);
		*out = mlx_val_uint(u);
		return 0;
	case MLX_KT_STRING:
		/* rdma_cm's mode: the one validator of the roce section's too */
		if (k->src == MLX_KS_RDMA && !strcmp(k->kname, "default_roce_mode")) {
			char mode[24];
			int r = mlx_roce_mode_parse(ctx, value, mode, sizeof(mode));

			if (r == 0)
				*out = mlx_val_str(mode);
			return r;
		}
		if (k->choices) {
			size_t i;

			for (i = 0; k->choices[i] && strcmp(k->choices[i], value); i++)
				;
			if (!k->choices[i])
				return mlx_err(ctx, EINVAL, "'%s' is not a value of %s", value,
					       k->name);
		}
		if (strlen(value) >= MLX_VAL_STR_MAX)
			return mlx_err(ctx, EINVAL, "'%s' is too long for %s", value, k->name);
		*out = mlx_val_str(value);
		return 0;
	}
	return -EINVAL;
}

int mlx_params_plan_set(struct mlx_ctx *ctx, struct mlx_plan *pl, const char *name,
			const char *value)
{
	const struct mlx_knob *k = mlx_knob_find(name);
	struct mlx_val v;
	int r;

	if (mlx_plan_find(pl, name))
		return mlx_err(ctx, EINVAL, "%s is given twice", name);
	if (!k) {
		/* not catalogued: a private flag the device may report (the
		 * plan asks it) when its value is one */
		bool b;

		if (!mlx_privflag_name_ok(name) || !parse_bool(value, &b))
			return mlx_err(ctx, EINVAL, "no knob '%s' (mlxcli params info lists them; a "
				       "private flag the device reports takes on or off)", name);
		r = mlx_plan_add(pl, name, NULL, MLX_PARAMS_ID_PRIVFLAG, 0, mlx_val_bool(b));
		return r < 0 ? r : 0;
	}
	r = mlx_params_parse_value(ctx, k, value, &v);
	if (r < 0)
		return r;
	r = mlx_plan_add(pl, k->name, k->unit, (int)(k - mlx_knobs), 0, v);
	return r < 0 ? r : 0;
}

int mlx_params_default_val(struct mlx_ctx *ctx, const struct mlx_knob *k, struct mlx_val *out)
{
	if (!k->dflt)
		return mlx_err(ctx, ENODATA, "cannot reset %s: its default is not known (%s)",
			       k->name, k->dflt_from);
	/* a default that is a state no write makes: MLNX_OFED's traffic_class
	 * is empty until written, and nothing writes it empty again */
	if (k->type != MLX_KT_STRING && !strcmp(k->dflt, "unset"))
		return mlx_err(ctx, ENODATA, "cannot reset %s: its default is 'unset', which no "
			       "write restores (%s); set a value instead", k->name, k->dflt_from);
	return mlx_params_parse_value(ctx, k, k->dflt, out);
}

int mlx_params_plan_reset(struct mlx_ctx *ctx, struct mlx_plan *pl, const char *name)
{
	const struct mlx_knob *k = mlx_knob_find(name);
	struct mlx_val v;
	int r;

	if (!k)
		return mlx_err(ctx, EINVAL, "no knob '%s' (mlxcli params info lists them)", name);
	r = mlx_params_default_val(ctx, k, &v);
	if (r < 0)
		return r;
	r = mlx_params_plan_set(ctx, pl, name, k->dflt);
	if (r == 0)
		pl->c[pl->n - 1].arg = 1;       /* a reset: the plan checks the driver */
	return r;
}

/* ---- the write engine's ops ------------------------------------------------ */

void mlx_params_writer_free(struct mlx_params_writer *w)
{
	if (w->have) {
		mlx_params_free(&w->cur);
		mlx_params_free(&w->mod);
	}
	w->have = false;
}

/* What the kernel reports now: one fresh collection per read after a
 * write (a write invalidates it), so read-back sees the kernel's answer. */
static int refresh(struct mlx_ctx *ctx, struct mlx_params_writer *w)
{
	struct mlx_params_cache *c;
	int r;

	if (w->have)
		return 0;
	r = mlx_params_cache_new(ctx, &c);
	if (r < 0)
		return r;
	r = mlx_params_port(ctx, c, w->ifname, w->bus, w->bdf, true, &w->cur);
	if (r == 0 && w->rdma_dev)
		r = mlx_params_rdma(ctx, w->rdma_dev, w->rdma_port ? w->rdma_port : 1, &w->cur);
	mlx_params_cache_free(c);
	if (r == 0)
		r = mlx_params_module(ctx, &w->mod);
	else
		memset(&w->mod, 0, sizeof(w->mod));
	w->have = true;
	if (r < 0)
		mlx_params_writer_free(w);
	return r;
}

/* The device's row of @k: for a devlink parameter the runtime one when it
 * has one, else its first (whose cmode the plan refuses). */
static const struct mlx_knob_value *find_row(const struct mlx_params_writer *w,
					     const struct mlx_knob *k)
{
	const struct mlx_params *p = k->src == MLX_KS_MODULE ? &w->mod : &w->cur;
	const struct mlx_knob_value *first = NULL;

	for (size_t i = 0; i < p->n; i++) {
		if (p->v[i].k != k)
			continue;
		if (p->v[i].apply == MLX_KA_RUNTIME)
			return &p->v[i];
		if (!first)
			first = &p->v[i];
	}
	return first;
}

/* The row of change @c on the device (NULL: the device reports none) and
 * its knob in *kp: the catalogue's by index, or for a private flag the
 * catalogue does not know, the one the collection made for it (by name:
 * NULL when the device reports no such flag); for a devlink parameter the
 * catalogue does not know (MLX_PARAMS_ID_DEVLINK, or an on|off name the
 * device has no private flag of), the device's row of that name,
 * permanent first, with mlx_knob_any_devlink. */
static const struct mlx_knob_value *row_of(const struct mlx_params_writer *w,
					   const struct mlx_change *c, const struct mlx_knob **kp)
{
	const struct mlx_knob_value *dl = NULL;

	*kp = NULL;
	if (c->id >= 0 && (size_t)c->id < mlx_nknobs) {
		*kp = &mlx_knobs[c->id];
		return w->have ? find_row(w, *kp) : NULL;
	}
	if ((c->id != MLX_PARAMS_ID_PRIVFLAG && c->id != MLX_PARAMS_ID_DEVLINK) || !w->have)
		return NULL;
	for (size_t i = 0; i < w->cur.n && c->id == MLX_PARAMS_ID_PRIVFLAG; i++)
		if (w->cur.v[i].src == MLX_KS_PRIVFLAG && w->cur.v[i].k &&
		    !strcmp(w->cur.v[i].name, c->setting)) {
			*kp = w->cur.v[i].k;
			return &w->cur.v[i];
		}
	for (size_t i = 0; i < w->cur.n; i++)
		if (w->cur.v[i].src == MLX_KS_DEVLINK && !w->cur.v[i].k &&
		    !strcmp(w->cur.v[i].name, c->setting) &&
		    (!dl || w->cur.v[i].apply == MLX_KA_FIRMWARE))
			dl = &w->cur.v[i];
	if (dl)
		*kp = &mlx_knob_any_devlink;
	return dl;
}

/* A devlink parameter the catalogue lacks: @text (or an on|off value) as
 * the type the device reports for it (include/net/devlink.h
 * devlink_param_type; a string fits DEVLINK_PARAM_MAX_STRING_VALUE, 32
 * bytes with its NUL).  -EINVAL / -ERANGE with the story. */
static int dl_typed(struct mlx_ctx *ctx, const struct mlx_knob_value *kv, const char *on,
		    const struct mlx_val *in, struct mlx_val *out)
{
	char text[MLX_VAL_STR_MAX];
	unsigned long long u;
	char *end;
	bool b;

	if (in->kind == MLX_VAL_BOOL)
		snprintf(text, sizeof(text), "%s", in->b ? "true" : "false");
	else if (in->kind == MLX_VAL_STR)
		snprintf(text, sizeof(text), "%s", in->s);
	else
		mlx_val_fmt(in, text, sizeof(text));
	switch (kv->dl_type) {
	case MLX_DL_BOOL:
		if (!parse_bool(text, &b))
			return mlx_err(ctx, EINVAL, "'%s' is not a value of %s on %s: a devlink bool "
				       "takes true or false", text, kv->name, on);
		*out = mlx_val_bool(b);
		return 0;
	case MLX_DL_U8:
	case MLX_DL_U16:
	case MLX_DL_U32:
	case MLX_DL_U64: {
		unsigned bits = 8u << (kv->dl_type - 1);
		uint64_t hi = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;

		errno = 0;
		u = strtoull(text, &end, 0);
		if (!*text || *end || text[0] == '-' || (errno && errno != ERANGE))
			return mlx_err(ctx, EINVAL, "'%s' is not a number (%s on %s, a devlink u%u)",
				       text, kv->name, on, bits);
		if (errno == ERANGE || u > hi)
			return mlx_err(ctx, ERANGE, "%s %s is out of its range 0..%" PRIu64 " on %s "
				       "(a devlink u%u)", kv->name, text, hi, on, bits);
		*out = mlx_val_uint(u);
		return 0;
	}
	case MLX_DL_STRING:
		if (in->kind != MLX_VAL_STR || strlen(text) >= 32)
			return mlx_err(ctx, EINVAL, "'%s' is not a value of %s on %s: a devlink string "
				       "of at most 31 bytes", text, kv->name, on);
		*out = mlx_val_str(text);
		return 0;
	}
	return mlx_err(ctx, EBADMSG, "%s's devlink parameter %s has type %u, which mlxcli does "
		       "not write", on, kv->name, kv->dl_type);
}

static int pw_read(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		   struct mlx_val *out)
{
	struct mlx_params_writer *w = feat;
	const struct mlx_knob *k;
	const struct mlx_knob_value *kv;
	int r;

	if (c->id < 0 && c->id != MLX_PARAMS_ID_PRIVFLAG && c->id != MLX_PARAMS_ID_DEVLINK)
		return -EINVAL;
	r = refresh(ctx, w);
	if (r < 0)
		return r;
	kv = row_of(w, c, &k);
	if (!kv || !kv->known) {
		*out = mlx_val_null();
		return 0;
	}
	/* the device's own spelling goes through the catalogue's parser;
	 * a value outside the catalogue's range is still what it holds; a
	 * devlink parameter the catalogue lacks, by its devlink type */
	if (k == &mlx_knob_any_devlink) {
		bool b;
		uint64_t u;

		if (kv->dl_type == MLX_DL_BOOL && parse_bool(kv->value, &b))
			*out = mlx_val_bool(b);
		else if (kv->dl_type != MLX_DL_STRING && mlx_parse_u64(kv->value, &u) == 0)
			*out = mlx_val_uint(u);
		else
			*out = mlx_val_str(kv->value);
	} else if (k->type == MLX_KT_BOOL) {
		bool b;

		*out = parse_bool(kv->value, &b) ? mlx_val_bool(b) : mlx_val_str(kv->value);
	} else if (k->type == MLX_KT_STRING) {
		*out = mlx_val_str(kv->value);
	} else {
		uint64_t u;

		/* a state in words ("unset": traffic_class never written) stays one */
		*out = mlx_parse_u64(kv->value, &u) == 0 ? mlx_val_uint(u) : mlx_val_str(kv->value);
	}
	return 0;
}

/* Against what the device reports: the knob is there, changeable now,
 * within the device's maximum. */
static int pw_plan(struct mlx_ctx *ctx, void *feat, struct mlx_plan *pl)
{
	struct mlx_params_writer *w = feat;
	const char *on = w->ifname ? w->ifname : w->bdf;

	for (size_t i = 0; i < pl->n; i++) {
		struct mlx_change *c = &pl->c[i];
		const struct mlx_knob *k;
		const struct mlx_knob_value *kv = row_of(w, c, &k);
		uint64_t lo, hi;

		if (!k && (c->id == MLX_PARAMS_ID_PRIVFLAG || c->id == MLX_PARAMS_ID_DEVLINK))
			return mlx_err(ctx, EINVAL, "no knob '%s': not in the catalogue, and %s "
				       "reports no private flag of that name, nor a devlink parameter "
				       "(mlxcli params -d %s lists them)", c->setting, on, on);
		if (!k)
			return -EINVAL;
		/* a devlink parameter the catalogue lacks (issue 27): written in
		 * cmode permanent only (a firmware NV setting a newer kernel
		 * lists), typed by the type the device reports */
		if (k == &mlx_knob_any_devlink) {
			struct mlx_val typed;
			int e;

			if (!kv->known || kv->apply != MLX_KA_FIRMWARE)
				return mlx_err(ctx, EOPNOTSUPP, "cannot set %s on %s: a devlink parameter "
					       "the catalogue does not know, in cmode %s; mlxcli writes "
					       "such a one in cmode permanent only (a firmware NV "
					       "setting)", c->setting, on, mlx_knob_apply_name(kv->apply));
			if ((e = dl_typed(ctx, kv, on, &c->new, &typed)) < 0)
				return e;
			c->new = typed;
			c->note = "stored in firmware NV: takes effect after a firmware reset "
				  "(mlxcli fw activate, or a cold reboot)";
			c->flags |= MLX_CHG_DESTROYS;
			continue;
		}
		/* a firmware NV setting is the PF's (mlx5 registers these
		 * parameters on the PF's devlink only: lib/nv_param.c) */
		if (k->src == MLX_KS_DEVLINK && k->apply == MLX_KA_FIRMWARE && w->vf)
			return mlx_err(ctx, EOPNOTSUPP, "cannot set %s on %s: it is a VF, and %s is a "
				       "firmware NV setting of its PF (mlx5 registers it on the PF's "
				       "devlink instance only); give its PF%s%s", k->name, on, k->name,
				       w->pf_bdf ? " " : "", w->pf_bdf ? w->pf_bdf : "");
		/* a firmware NV setting the kernel does not offer: mlx5 has
		 * these from Linux 6.17 (lib/nv_param.c); before, only the
		 * firmware's own tools reach them */
		if ((!kv || !kv->known) && k->src == MLX_KS_DEVLINK && k->apply == MLX_KA_FIRMWARE)
			return mlx_err(ctx, EOPNOTSUPP, "%s reports no %s (devlink cmode permanent: "
				       "mlx5 registers it from Linux 6.17 on): this kernel offers no "
				       "way to it; mlxconfig (mstflint) writes the firmware's NV "
				       "settings through its access registers", on, k->name);
		if ((!kv || !kv->known) && k->src == MLX_KS_TUNABLE)
			return mlx_err(ctx, EOPNOTSUPP, "%s has no PFC storm prevention timeout: its "
				       "driver answers ETHTOOL_GTUNABLE pfc-prevention-tout with '%s' "
				       "(mlx5 needs the pcam pfcc_mask and stall_detect capabilities)",
				       on, strerror(-(w->cur.err[MLX_KS_TUNABLE] ?
						      w->cur.err[MLX_KS_TUNABLE] : -EOPNOTSUPP)));
		if ((!kv || !kv->known) && k->src == MLX_KS_NAPI)
			return mlx_err(ctx, EOPNOTSUPP, "%s has no threaded NAPI switch "
				       "(/sys/class/net/%s/threaded: %s; Linux 5.12 added it)", on, on,
				       strerror(-(w->cur.err[MLX_KS_NAPI] ? w->cur.err[MLX_KS_NAPI]
									  : -ENOENT)));
		if (!kv || !kv->known)
			return mlx_err(ctx, EOPNOTSUPP, "%s reports no %s (%s): nothing to set", on,
				       k->name, mlx_knob_source_name(k->src));
		/* a driverinit devlink value is the driver's to take at its next
		 * reload (net/devlink param.c keeps it for reload_up): set now,
		 * read back now, in effect after `mlxcli dbg sw-reset` */
		if (kv->apply == MLX_KA_RELOAD && k->src == MLX_KS_DEVLINK && !kv->fixed) {
			c->note = "driverinit: takes effect at the next devlink reload "
				  "(mlxcli dbg sw-reset)";
		} else if (kv->apply == MLX_KA_FIRMWARE && k->src == MLX_KS_DEVLINK && !kv->fixed) {
			/* permanent: a firmware NV setting (mlx5's enable_sriov,
			 * total_vfs: lib/nv_param.c writes the MNVDA register),
			 * read back from NV at once, in effect only after a
			 * firmware reset; it changes what the next firmware boot
			 * does (VFs offered or gone): confirmed like the other
			 * changes that undo settings */
			c->note = "stored in firmware NV: takes effect after a firmware reset "
				  "(mlxcli fw activate, or a cold reboot)";
			c->flags |= MLX_CHG_DESTROYS;
		} else if (kv->apply != MLX_KA_RUNTIME) {
			return mlx_err(ctx, EOPNOTSUPP, "%s takes effect at a %s, not at run time: "
				       "set it where the module is loaded (modprobe.d)", k->name,
				       mlx_knob_apply_name(kv->apply));
		}
		if (kv->fixed)
			return mlx_err(ctx, EOPNOTSUPP, "%s is fixed on %s: the device cannot "
				       "change it", k->name, on);
		/* a reset to a default that holds for mlx5 only (issue 25:
		 * GRO turned on on a veth, whose default is off) */
		if (c->arg == 1 && !mlx_params_default(&w->cur, kv))
			return mlx_err(ctx, EOPNOTSUPP, "cannot reset %s on %s: its default (%s) is "
				       "mlx5's (%s) and %s's driver is %s; set a value instead",
				       k->name, on, k->dflt ? k->dflt : "?", k->dflt_from, on,
				       w->cur.driver[0] ? w->cur.driver : "not mlx5_core");
		/* the device's range: its own bounds, else mlx5's on mlx5 */
		if (c->new.kind == MLX_VAL_UINT && mlx_params_range(&w->cur, kv, &lo, &hi)) {
			if (c->new.u > hi && kv->maximum[0])
				return mlx_err(ctx, ERANGE, "cannot set %s on %s: %" PRIu64 " is above "
					       "the device's maximum %s", k->name, on, c->new.u,
					       kv->maximum);
			if (c->new.u < lo && kv->minimum[0])
				return mlx_err(ctx, ERANGE, "cannot set %s on %s: %" PRIu64 " is below "
					       "the device's minimum %s", k->name, on, c->new.u,
					       kv->minimum);
			if (c->new.u < lo || c->new.u > hi)
				return mlx_err(ctx, ERANGE, "cannot set %s on %s: %" PRIu64 " is out "
					       "of mlx5's range %" PRIu64 "..%" PRIu64, k->name, on,
					       c->new.u, lo, hi);
		}
		/* auto on mlx5 is 100 ms: mlx5e_set_pfc_prevention_tout writes
		 * the same stall watermarks for 0xffff and for 100, and reads
		 * back 100; so auto is planned as 100, and a port already at
		 * 100 is already at auto (apply of a state saying auto is then
		 * a no-op, not a write on every run) */
		if (k->src == MLX_KS_TUNABLE && c->new.kind == MLX_VAL_UINT &&
		    c->new.u == MLX_PFC_TOUT_AUTO) {
			if (mlx_params_mlx5(&w->cur))
				c->new.u = MLX_PFC_TOUT_MLX5_AUTO_MS;
			c->note = mlx_params_mlx5(&w->cur) ? "auto: mlx5's auto is 100 ms"
							   : "auto: the driver picks the timeout";
		}
		/* mlx5's rule for the PFC prevention timeout (en_ethtool.c
		 * mlx5e_set_pfc_prevention_tout: -EINVAL outside it) */
		if (k->src == MLX_KS_TUNABLE && c->new.kind == MLX_VAL_UINT &&
		    mlx_params_mlx5(&w->cur) && mlx_pfc_tout_mlx5_check((uint16_t)c->new.u) < 0)
			return mlx_err(ctx, ERANGE, "cannot set %s on %s: %" PRIu64 " is not mlx5's: "
				       "0 (off), %u..%u ms, or auto", k->name, on, c->new.u,
				       MLX_PFC_TOUT_MLX5_MIN, MLX_PFC_TOUT_MLX5_MAX);
		if (k->src == MLX_KS_DEVLINK && !kv->dl_type)
			return mlx_err(ctx, EBADMSG, "%s's devlink parameter %s has no type",
				       on, k->kname);
	}
	return 0;
}

static int ignore(const struct nlmsghdr *h, size_t len, void *arg)
{
	(void)h;
	(void)len;
	(void)arg;
	return 0;
}

static int pw_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		    const struct mlx_val *v)
{
	struct mlx_params_writer *w = feat;
	const struct mlx_knob *k;
	const struct mlx_knob_value *kv;
	uint8_t req[1024];
	char path[320], val[64];
	int fam, len, r;

	r = refresh(ctx, w);
	if (r < 0)
		return r;
	kv = row_of(w, c, &k);
	if (!k) {
		mlx_params_writer_free(w);
		return mlx_err(ctx, EINVAL, "%s: no such knob on %s", c->setting, w->ifname);
	}
	/* whatever happens next, the state read is stale */
	if (k->src == MLX_KS_MODULE || k->src == MLX_KS_RDMA) {
		if (k->src == MLX_KS_MODULE) {
			snprintf(path, sizeof(path), "/sys/module/mlx5_core/parameters/%s", k->kname);
		} else if (!strcmp(k->kname, "traffic_class") && v->kind == MLX_VAL_STR) {
			/* a rollback to "unset": nothing writes the file empty */
			mlx_params_writer_free(w);
			return mlx_err(ctx, ENODATA, "cannot put %s back to '%s': no write "
				       "restores it", k->name, v->s);
		} else if (!strcmp(k->kname, "traffic_class")) {
			snprintf(path, sizeof(path), "/sys/class/infiniband/%s/tc/%u/traffic_class",
				 w->rdma_dev ? w->rdma_dev : "", w->rdma_port ? w->rdma_port : 1);
		} else if (mlx_rdma_cm_path(path, sizeof(path), w->rdma_dev,
					    w->rdma_port ? w->rdma_port : 1, k->kname) < 0) {
			mlx_params_writer_free(w);
			return mlx_err(ctx, EINVAL, "%s: no RDMA device: no RDMA CM defaults", k->name);
		}
		mlx_val_fmt(v, val, sizeof(val));
		if (v->kind == MLX_VAL_BOOL)
			snprintf(val, sizeof(val), "%d", v->b);
		mlx_params_writer_free(w);
		r = mlx_kernel_write(ctx, path, val);
		return r < 0 ? mlx_err(ctx, -r, "cannot write %s: %s", path, strerror(-r)) : 0;
	}
	if (k->src == MLX_KS_TUNABLE) {
		/* SIOCETHTOOL ETHTOOL_STUNABLE (issue 27) */
		mlx_params_writer_free(w);
		if (v->kind != MLX_VAL_UINT || v->u > 0xffff)
			return mlx_err(ctx, EINVAL, "%s: not a timeout in ms", k->name);
		/* the message, if any, is the emulator's: none left from the read */
		mlx_err_clear(ctx);
		r = mlx_ethtool_tunable_set_u16(ctx, w->ifname, ETHTOOL_PFC_PREVENTION_TOUT,
						(uint16_t)v->u);
		return r < 0 ? mlx_err(ctx, -r, "SIOCETHTOOL ETHTOOL_STUNABLE: %s",
				       mlx_errmsg(ctx)[0] ? mlx_errmsg(ctx) : strerror(-r)) : 0;
	}
	if (k->src == MLX_KS_NAPI) {
		/* /sys/class/net/IF/threaded takes 0 or 1 (net-sysfs.c) */
		mlx_params_writer_free(w);
		if (v->kind != MLX_VAL_BOOL || mlx_threaded_path(path, sizeof(path), w->ifname) < 0)
			return mlx_err(ctx, EINVAL, "%s: not on or off, or no netdev", k->name);
		r = mlx_kernel_write(ctx, path, v->b ? "1" : "0");
		if (r == -EOPNOTSUPP)
			return mlx_err(ctx, EOPNOTSUPP, "cannot set threaded on %s: the device has no "
				       "NAPI instance now (net-sysfs.c modify_napi_threaded: a port "
				       "that is down, a veth without GRO or XDP)", w->ifname);
		return r < 0 ? mlx_err(ctx, -r, "cannot write %s: %s", path, strerror(-r)) : 0;
	}
	if (k->src == MLX_KS_FEATURE && k->kname && strchr(k->kname, '*')) {
		/* a group: its changeable members, as the device named them */
		fam = MLX_NL_ETHTOOL;
		len = v->kind != MLX_VAL_BOOL || !kv ? -EINVAL :
		      mlx_params_req_features(w->ifname, kv->members, kv->nmembers, v->b, req,
					      sizeof(req));
	} else {
		/* the row the plan took: runtime, or driverinit or permanent
		 * (find_row: a parameter with no runtime row) */
		uint8_t cmode = !kv ? DEVLINK_PARAM_CMODE_RUNTIME :
				kv->apply == MLX_KA_RELOAD ? DEVLINK_PARAM_CMODE_DRIVERINIT :
				kv->apply == MLX_KA_FIRMWARE ? DEVLINK_PARAM_CMODE_PERMANENT :
				DEVLINK_PARAM_CMODE_RUNTIME;

		/* a devlink parameter the catalogue lacks: the device's name */
		struct mlx_knob dk;

		if (k == &mlx_knob_any_devlink) {
			dk = *k;
			dk.kname = kv ? kv->name : NULL;
			k = &dk;
		}
		len = !k->kname && k->src == MLX_KS_DEVLINK ? -EINVAL :
		      mlx_params_req_build_cmode(k, w->ifname, w->bus, w->bdf, kv ? kv->dl_type : 0,
						 cmode, v, req, sizeof(req), &fam);
	}
	mlx_params_writer_free(w);
	if (len < 0)
		return mlx_err(ctx, -len, "cannot build the request that sets %s: %s", k->name,
			       strerror(-len));
	return mlx_nl_query(ctx, (enum mlx_nl_family)fam,
			    fam == MLX_NL_DEVLINK ? "all" : w->ifname,
			    fam == MLX_NL_DEVLINK ? "param-set" : "params-set", req, (size_t)len,
			    ignore, NULL);
}

/* A write of auto to the PFC prevention timeout reads back as what the
 * driver chose (mlx5: 100 ms): any timeout that is not off holds it. */
static bool pw_same(const struct mlx_change *c, const struct mlx_val *want,
		    const struct mlx_val *got)
{
	if (c->id >= 0 && (size_t)c->id < mlx_nknobs && mlx_knobs[c->id].src == MLX_KS_TUNABLE &&
	    want->kind == MLX_VAL_UINT && want->u == MLX_PFC_TOUT_AUTO &&
	    got->kind == MLX_VAL_UINT && got->u != 0)
		return true;
	return mlx_val_eq(want, got);
}

const struct mlx_write_ops mlx_params_write_ops = {
	.read = pw_read,
	.plan = pw_plan,
	.write = pw_write,
	.same = pw_same,
};
