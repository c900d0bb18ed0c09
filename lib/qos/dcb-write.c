/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DCB/QoS in the write engine (lib/write.h): one typed change per setting
 * of the DCB state (mlx_dcb_plan() compares two states).  Several settings
 * travel in one DCB message (prio_tc, tsa and tc_bw are one ieee_ets; pfc
 * and cable_len one ieee_pfc; prio_buffer and buffer_size one
 * dcbnl_buffer), and the kernel checks the message as a whole (mlx5:
 * the ETS shares must add up to 100): a write changes the settings'
 * state held here and sends a message only once its group is valid again,
 * so no half-changed ETS is ever sent, on the way in or on a put-back.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcb.h"
#include "write.h"

static const struct {
	const char *name, *unit;
} settings[] = {
	[MLX_DCB_DCBX] = { "dcbx", NULL },
	[MLX_DCB_PRIO_TC] = { "prio_tc", NULL },
	[MLX_DCB_TSA] = { "tsa", NULL },
	[MLX_DCB_TC_BW] = { "tc_bw", "percent" },
	[MLX_DCB_TC_MAXRATE] = { "tc_max_rate", "Mbit/s" },
	[MLX_DCB_PFC] = { "pfc", NULL },
	[MLX_DCB_CABLE_LEN] = { "cable_len", "metres" },
	[MLX_DCB_PRIO_BUFFER] = { "prio_buffer", NULL },
	[MLX_DCB_BUFFER_SIZE] = { "buffer_size", "bytes" },
	[MLX_DCB_DSCP2PRIO] = { "dscp2prio", NULL },
	[MLX_DCB_TRUST] = { "trust", NULL },
};

#define NSETTINGS (sizeof(settings) / sizeof(settings[0]))

/* @id of @st as a typed value. */
static struct mlx_val value(const struct mlx_dcb_state *st, enum mlx_dcb_setting id)
{
	uint8_t u8[MLX_DCB_NDSCP];
	uint32_t u32[MLX_DCB_NTC];
	const char *names[MLX_DCB_NTC];
	int map[MLX_DCB_NDSCP];
	size_t n = 0;

	switch (id) {
	case MLX_DCB_DCBX:
		if (!st->has_dcbx)
			return mlx_val_null();
		return mlx_val_str(st->dcbx & DCB_CAP_DCBX_HOST ? "host" : "firmware");
	case MLX_DCB_PRIO_TC:
		return st->has_ets ? mlx_val_u8list(st->ets.prio_tc, 8) : mlx_val_null();
	case MLX_DCB_TSA:
		if (!st->has_ets)
			return mlx_val_null();
		for (int i = 0; i < MLX_DCB_NTC; i++)
			names[i] = mlx_dcb_tsa_name(st->ets.tc_tsa[i]);
		return mlx_val_strlist(names, MLX_DCB_NTC);
	case MLX_DCB_TC_BW:
		if (!st->has_ets)
			return mlx_val_null();
		/* mlx5 reports 100 for a strict TC: a share only of ETS ones. */
		for (int i = 0; i < MLX_DCB_NTC; i++)
			u8[i] = st->ets.tc_tsa[i] == IEEE_8021QAZ_TSA_ETS ? st->ets.tc_tx_bw[i] : 0;
		return mlx_val_u8list(u8, MLX_DCB_NTC);
	case MLX_DCB_TC_MAXRATE:
		if (!st->has_maxrate)
			return mlx_val_null();
		for (int i = 0; i < MLX_DCB_NTC; i++)
			u32[i] = (uint32_t)(st->maxrate.tc_maxrate[i] / 1000);
		return mlx_val_u32list(u32, MLX_DCB_NTC);
	case MLX_DCB_PFC:
		if (!st->has_pfc)
			return mlx_val_null();
		for (int p = 0; p < MLX_DCB_NPRIO; p++)
			if (st->pfc.pfc_en & (1u << p))
				u8[n++] = (uint8_t)p;
		return mlx_val_u8list(u8, n);
	case MLX_DCB_CABLE_LEN:
		return st->has_pfc ? mlx_val_uint(st->pfc.delay) : mlx_val_null();
	case MLX_DCB_PRIO_BUFFER:
		return st->has_buffer ? mlx_val_u8list(st->buffer.prio2buffer, 8) : mlx_val_null();
	case MLX_DCB_BUFFER_SIZE:
		return st->has_buffer ? mlx_val_u32list(st->buffer.buffer_size, 8) : mlx_val_null();
	case MLX_DCB_DSCP2PRIO:
		mlx_dcb_dscp_map(st, map);
		for (int d = 0; d < MLX_DCB_NDSCP; d++)
			u8[d] = map[d] < 0 ? MLX_VAL_U8_NONE : (uint8_t)map[d];
		return mlx_val_u8list(u8, MLX_DCB_NDSCP);
	case MLX_DCB_TRUST:
		return mlx_val_str(mlx_dcb_trust_dscp(st) ? "dscp" : "pcp");
	}
	return mlx_val_null();
}

int mlx_dcb_plan(struct mlx_plan *pl, const struct mlx_dcb_state *old,
		 const struct mlx_dcb_state *new)
{
	for (size_t id = 0; id < NSETTINGS; id++) {
		struct mlx_val a = value(old, (enum mlx_dcb_setting)id);
		struct mlx_val b = value(new, (enum mlx_dcb_setting)id);

		if (mlx_val_eq(&a, &b))
			continue;
		if (mlx_plan_add(pl, settings[id].name, settings[id].unit, (int)id, 0, b) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Put @v as @id into @st. */
static void set_value(struct mlx_dcb_state *st, enum mlx_dcb_setting id, const struct mlx_val *v)
{
	static const uint8_t tsas[] = { IEEE_8021QAZ_TSA_STRICT, IEEE_8021QAZ_TSA_CB_SHAPER,
					IEEE_8021QAZ_TSA_ETS, IEEE_8021QAZ_TSA_VENDOR };
	size_t k = 0;

	switch (id) {
	case MLX_DCB_DCBX:
		if (v->kind != MLX_VAL_STR)
			return;     /* unknown before: nothing to put back */
		st->has_dcbx = true;
		st->dcbx = !strcmp(v->s, "host") ? DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE :
			   st->dcbx & (uint8_t)~DCB_CAP_DCBX_HOST;
		break;
	case MLX_DCB_PRIO_TC:
		memcpy(st->ets.prio_tc, v->u8, 8);
		break;
	case MLX_DCB_TSA:
		for (int i = 0; i < v->n && i < MLX_DCB_NTC; i++)
			for (size_t t = 0; t < sizeof(tsas); t++)
				if (!strcmp(mlx_dcb_tsa_name(tsas[t]), v->sl[i]))
					st->ets.tc_tsa[i] = tsas[t];
		break;
	case MLX_DCB_TC_BW:
		memcpy(st->ets.tc_tx_bw, v->u8, 8);
		break;
	case MLX_DCB_TC_MAXRATE:
		for (int i = 0; i < MLX_DCB_NTC; i++)
			st->maxrate.tc_maxrate[i] = (uint64_t)v->u32[i] * 1000;
		break;
	case MLX_DCB_PFC:
		st->pfc.pfc_en = 0;
		for (int i = 0; i < v->n; i++)
			st->pfc.pfc_en |= (uint8_t)(1u << v->u8[i]);
		break;
	case MLX_DCB_CABLE_LEN:
		st->pfc.delay = (uint16_t)v->u;
		break;
	case MLX_DCB_PRIO_BUFFER:
		memcpy(st->buffer.prio2buffer, v->u8, 8);
		break;
	case MLX_DCB_BUFFER_SIZE:
		memcpy(st->buffer.buffer_size, v->u32, sizeof(st->buffer.buffer_size));
		break;
	case MLX_DCB_DSCP2PRIO:
		/* The DSCP entries of the APP table are the map; the others stay. */
		for (size_t i = 0; i < st->napp; i++)
			if (st->app[i].selector != IEEE_8021QAZ_APP_SEL_DSCP)
				st->app[k++] = st->app[i];
		for (int d = 0; d < v->n && k < MLX_DCB_MAX_APP; d++) {
			if (v->u8[d] == MLX_VAL_U8_NONE)
				continue;
			st->app[k].selector = IEEE_8021QAZ_APP_SEL_DSCP;
			st->app[k].protocol = (uint16_t)d;
			st->app[k++].priority = v->u8[d];
		}
		st->napp = k;
		break;
	case MLX_DCB_TRUST:
		/* mlx5 trusts DSCP exactly when the APP table has a DSCP entry:
		 * trust follows dscp2prio, whose change carries it. */
		break;
	}
}

/* The part of the state that goes in one message, valid to send? */
static bool group_valid(const struct mlx_dcb_state *st, enum mlx_dcb_setting id)
{
	char why[160];

	switch (id) {
	case MLX_DCB_PRIO_TC:
	case MLX_DCB_TSA:
	case MLX_DCB_TC_BW:
		return mlx_dcb_validate_ets(&st->ets, why, sizeof(why)) == 0;
	case MLX_DCB_PFC:
	case MLX_DCB_CABLE_LEN:
		return mlx_dcb_validate_pfc(&st->pfc, why, sizeof(why)) == 0;
	case MLX_DCB_PRIO_BUFFER:
	case MLX_DCB_BUFFER_SIZE:
		return mlx_dcb_validate_buffer(&st->buffer, why, sizeof(why)) == 0;
	default:
		return true;
	}
}

/* Copy the message group of @id from @from to @to. */
static void copy_group(struct mlx_dcb_state *to, const struct mlx_dcb_state *from,
		       enum mlx_dcb_setting id)
{
	switch (id) {
	case MLX_DCB_PRIO_TC:
	case MLX_DCB_TSA:
	case MLX_DCB_TC_BW:
		to->ets = from->ets;
		break;
	case MLX_DCB_PFC:
	case MLX_DCB_CABLE_LEN:
		to->pfc = from->pfc;
		break;
	case MLX_DCB_PRIO_BUFFER:
	case MLX_DCB_BUFFER_SIZE:
		to->buffer = from->buffer;
		break;
	case MLX_DCB_TC_MAXRATE:
		to->maxrate = from->maxrate;
		break;
	case MLX_DCB_DCBX:
		to->has_dcbx = from->has_dcbx;
		to->dcbx = from->dcbx;
		break;
	case MLX_DCB_DSCP2PRIO:
	case MLX_DCB_TRUST:
		to->napp = from->napp;
		memcpy(to->app, from->app, from->napp * sizeof(from->app[0]));
		break;
	}
}

/* The port's state, read once per state (again after a write). */
static int state(struct mlx_ctx *ctx, struct mlx_dcb_writer *w)
{
	int r;

	if (w->fresh)
		return 0;
	r = mlx_dcb_get(ctx, w->ifname, w->now);
	if (r < 0)
		return r;
	if (!w->started) {
		/* What is sent and what the writes so far want start here. */
		*w->sent = *w->now;
		*w->want = *w->now;
		w->started = true;
	}
	w->fresh = true;
	return 0;
}

int mlx_dcb_writer_state(struct mlx_ctx *ctx, struct mlx_dcb_writer *w,
			 const struct mlx_dcb_state **st)
{
	int r = state(ctx, w);

	*st = w->now;
	return r;
}

static int dcb_read(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c, struct mlx_val *out)
{
	struct mlx_dcb_writer *w = feat;
	int r = state(ctx, w);

	if (r < 0)
		return r;
	*out = value(w->now, (enum mlx_dcb_setting)c->id);
	return 0;
}

static int dcb_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		     const struct mlx_val *v)
{
	struct mlx_dcb_writer *w = feat;
	enum mlx_dcb_setting id = (enum mlx_dcb_setting)c->id;
	struct mlx_dcb_result res;
	int r = state(ctx, w);

	if (r < 0)
		return r;
	set_value(w->want, id, v);
	/* Half a group: wait for the write that completes it. */
	if (!group_valid(w->want, id))
		return 0;
	*w->next = *w->sent;
	copy_group(w->next, w->want, id);
	w->fresh = false;
	r = mlx_dcb_apply(ctx, w->ifname, w->sent, w->next, &res);
	if (r < 0) {
		char msg[400];

		/* mlx_dcb_apply put back what the kernel had applied of this
		 * message (an APP table goes entry by entry): say so. */
		copy_group(w->want, w->sent, id);
		if (!res.failed_what)
			return r;       /* nothing was sent */
		snprintf(msg, sizeof(msg), "%s", mlx_errmsg(ctx));
		if (res.restored)
			return mlx_err(ctx, -r, "%s; what the kernel had applied of it was put back", msg);
		return mlx_err(ctx, -r, "%s; putting back what the kernel had applied of it failed "
			       "too (%s)", msg, strerror(-res.restore_err));
	}
	*w->sent = *w->next;
	return 0;
}

const struct mlx_write_ops mlx_dcb_write_ops = {
	.read = dcb_read,
	.write = dcb_write,
};

int mlx_dcb_writer_init(struct mlx_dcb_writer *w, const char *ifname)
{
	memset(w, 0, sizeof(*w));
	w->ifname = ifname;
	/* Four states of up to 256 APP entries each: on the heap. */
	w->now = calloc(4, sizeof(*w->now));
	if (!w->now)
		return -ENOMEM;
	w->sent = w->now + 1;
	w->want = w->now + 2;
	w->next = w->now + 3;
	return 0;
}

void mlx_dcb_writer_free(struct mlx_dcb_writer *w)
{
	free(w->now);
	free(w->planned);
	w->now = w->planned = NULL;
}
