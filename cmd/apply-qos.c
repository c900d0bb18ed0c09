/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli apply`: the QoS sections of a port (dcbx, trust, dscp2prio, pfc,
 * ets, tcs, buffer) as the DCB state they lead to, planned by lib's DCB
 * plan builder under the lock, and the DCQCN section as the requests of
 * lib's DCQCN writer; cmd/apply.c runs both through the write engine.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "apply-cmd.h"

/* ---- QoS: the desired DCB state from the port's sections ---- */

static int tsa_value(const char *s)
{
	if (!strcmp(s, "strict"))
		return IEEE_8021QAZ_TSA_STRICT;
	if (!strcmp(s, "cbs"))
		return IEEE_8021QAZ_TSA_CB_SHAPER;
	if (!strcmp(s, "vendor"))
		return IEEE_8021QAZ_TSA_VENDOR;
	return IEEE_8021QAZ_TSA_ETS;
}

static void drop_dscp(struct mlx_dcb_state *n)
{
	size_t k = 0;

	for (size_t i = 0; i < n->napp; i++)
		if (n->app[i].selector != IEEE_8021QAZ_APP_SEL_DSCP)
			n->app[k++] = n->app[i];
	n->napp = k;
}

static void add_dscp(struct mlx_dcb_state *n, int dscp, int prio)
{
	if (n->napp >= MLX_DCB_MAX_APP)
		return;
	n->app[n->napp].selector = IEEE_8021QAZ_APP_SEL_DSCP;
	n->app[n->napp].protocol = (uint16_t)dscp;
	n->app[n->napp].priority = (uint8_t)prio;
	n->napp++;
}

/* What the port lacks: exit 4, with the section's path. */
#define LACKS(what) \
	(mlx_err(ctx, EOPNOTSUPP, "%s.%s: %s reports no " what " configuration", ap->path, key, \
		 ap->ifname), EXIT_NOTSUP)

static int want_dcb(struct mlx_ctx *ctx, const struct aport *ap, const struct mlx_dcb_state *old,
		    struct mlx_dcb_state *n)
{
	json_t *s = ap->spec, *x, *e;
	const char *key;
	char why[200];
	size_t i;
	int map[MLX_DCB_NDSCP];

	if ((x = json_object_get(s, key = "dcbx")) && json_is_string(json_object_get(x, "mode"))) {
		bool host = !strcmp(json_string_value(json_object_get(x, "mode")), "host");

		if (!old->has_dcbx)
			return LACKS("DCBX");
		n->dcbx = host ? DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE
			       : old->dcbx & (uint8_t)~DCB_CAP_DCBX_HOST;
	}
	if ((x = json_object_get(s, "dscp2prio")) && json_is_array(x)) {
		drop_dscp(n);
		json_array_foreach(x, i, e)
			add_dscp(n, (int)json_integer_value(json_object_get(e, "dscp")),
				 (int)json_integer_value(json_object_get(e, "priority")));
	}
	if ((x = json_object_get(s, "trust")) && json_is_string(x)) {
		if (!strcmp(json_string_value(x), "pcp")) {
			drop_dscp(n);
		} else if (!mlx_dcb_trust_dscp(n)) {
			/* as `qosconfig trust dscp`: the default map */
			mlx_dcb_dscp_map(n, map);
			for (int d = 0; d < MLX_DCB_NDSCP; d++)
				if (map[d] < 0)
					add_dscp(n, d, d >> 3);
		}
	}
	if ((x = json_object_get(s, key = "pfc")) && json_is_object(x)) {
		if (!old->has_pfc)
			return LACKS("PFC");
		if ((e = json_object_get(x, "enabled_priorities"))) {
			n->pfc.pfc_en = 0;
			json_array_foreach(e, i, x)
				n->pfc.pfc_en |= (uint8_t)(1u << json_integer_value(x));
			x = json_object_get(s, "pfc");
		}
		if ((e = json_object_get(x, "cable_length_m")))
			n->pfc.delay = (uint16_t)json_integer_value(e);
		if (mlx_dcb_validate_pfc(&n->pfc, why, sizeof(why)) < 0)
			return mlx_err(ctx, EINVAL, "%s.pfc: %s", ap->path, why), EXIT_USAGE;
	}
	if ((x = json_object_get(s, key = "ets")) && json_is_array(json_object_get(x, "prio_tc"))) {
		if (!old->has_ets)
			return LACKS("ETS");
		json_array_foreach(json_object_get(x, "prio_tc"), i, e)
			n->ets.prio_tc[i] = (uint8_t)json_integer_value(e);
	}
	if ((x = json_object_get(s, key = "tcs")) && json_is_array(x)) {
		unsigned cap = old->ets.ets_cap && old->ets.ets_cap <= 8 ? old->ets.ets_cap : 8;

		if (!old->has_ets)
			return LACKS("ETS");
		json_array_foreach(x, i, e) {
			unsigned tc = (unsigned)json_integer_value(json_object_get(e, "tc"));
			json_t *tsa = json_object_get(e, "tsa"), *bw = json_object_get(e, "bandwidth_pct");
			json_t *rate = json_object_get(e, "max_rate_mbps");

			if (tc >= cap)
				return mlx_err(ctx, EINVAL, "%s.tcs[%zu].tc: %s has %u traffic classes "
					       "(TC 0-%u)", ap->path, i, ap->ifname, cap, cap - 1), EXIT_USAGE;
			if (json_is_string(tsa))
				n->ets.tc_tsa[tc] = (uint8_t)tsa_value(json_string_value(tsa));
			/* mlx5 reports 100 for a strict TC: a share only for ETS */
			if (bw || json_is_string(tsa))
				n->ets.tc_tx_bw[tc] = n->ets.tc_tsa[tc] == IEEE_8021QAZ_TSA_ETS &&
					json_is_integer(bw) ? (uint8_t)json_integer_value(bw) : 0;
			if (rate) {
				uint64_t mbps = (uint64_t)json_integer_value(rate), applied = 0;
				int how;

				if (!old->has_maxrate) {
					if (!mbps)
						continue;
					key = "tcs";
					return LACKS("per-TC max rate");
				}
				if (mbps && mlx_dcb_rate_quantize(mbps, &applied, &how) < 0)
					return mlx_err(ctx, ERANGE, "%s.tcs[%zu].max_rate_mbps: %" PRIu64
						       " Mb/s is above the device's 255 Gb/s", ap->path,
						       i, mbps), EXIT_USAGE;
				n->maxrate.tc_maxrate[tc] = applied * 1000;
			}
		}
	}
	if ((json_object_get(s, "ets") || json_object_get(s, "tcs")) && n->has_ets &&
	    memcmp(&n->ets, &old->ets, sizeof(n->ets)) &&
	    mlx_dcb_validate_ets(&n->ets, why, sizeof(why)) < 0)
		return mlx_err(ctx, EINVAL, "%s.tcs: %s", ap->path, why), EXIT_USAGE;
	if ((x = json_object_get(s, key = "buffer")) && json_is_object(x)) {
		if (!old->has_buffer) {
			/* Buffers this driver shows only in sysfs (state's "source":
			 * "sysfs") are not written by DCB: equal is fine. */
			struct dcbnl_buffer b;
			bool same = mlx_dcb_sysfs_buffer(ctx, ap->ifname, &b) == 0;

			json_array_foreach(json_object_get(x, "prio2buffer"), i, e)
				same = same && b.prio2buffer[i] == json_integer_value(e);
			json_array_foreach(json_object_get(x, "size_bytes"), i, e)
				same = same && b.buffer_size[i] == json_integer_value(e);
			mlx_err_clear(ctx);
			if (same)
				return EXIT_OK;
			return LACKS("DCB buffer");
		}
		json_array_foreach(json_object_get(x, "prio2buffer"), i, e)
			n->buffer.prio2buffer[i] = (uint8_t)json_integer_value(e);
		json_array_foreach(json_object_get(x, "size_bytes"), i, e)
			n->buffer.buffer_size[i] = (uint32_t)json_integer_value(e);
		if (mlx_dcb_validate_buffer(&n->buffer, why, sizeof(why)) < 0)
			return mlx_err(ctx, EINVAL, "%s.buffer: %s", ap->path, why), EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The QoS plan, under the lock: the state read there, edited by the file. */
int apply_qos_plan(struct mlx_ctx *ctx, void *feat, struct mlx_plan *pl)
{
	struct run *r = feat;
	const struct mlx_dcb_state *st;
	struct mlx_dcb_state *n;
	int e;

	e = mlx_dcb_writer_state(ctx, &r->dw, &st);
	if (e < 0)
		return mlx_err(ctx, -e, "cannot read the QoS settings of %s: %s", r->ap->ifname,
			       *mlx_errmsg(ctx) ? mlx_errmsg(ctx) : strerror(-e));
	n = malloc(sizeof(*n));
	if (!n)
		return mlx_err(ctx, ENOMEM, "out of memory");
	*n = *st;
	r->plan_rc = want_dcb(ctx, r->ap, st, n);
	e = r->plan_rc ? (r->plan_rc == EXIT_NOTSUP ? -EOPNOTSUPP : -EINVAL)
		       : mlx_dcb_plan(pl, st, n);
	free(r->want);
	r->want = n;
	return e < 0 ? e : 0;
}

bool apply_has_qos(json_t *s)
{
	static const char *const k[] = { "dcbx", "trust", "dscp2prio", "pfc", "ets", "tcs", "buffer" };

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (json_object_get(s, k[i]) && !json_is_null(json_object_get(s, k[i])))
			return true;
	return false;
}

/* ---- DCQCN: the requests of the port's dcqcn section ---- */

static const struct mlx_dcqcn_param *enable_param(int prio)
{
	size_t n;
	const struct mlx_dcqcn_param *t = mlx_dcqcn_params(&n);

	for (size_t i = 0; i < n; i++)
		if (t[i].prio == prio)
			return &t[i];
	return NULL;
}

static int dcqcn_add(struct cli *cli, struct run *r, const struct mlx_dcqcn_param *p,
		     enum mlx_dcqcn_side side, uint64_t val, const char *path)
{
	if (mlx_dcqcn_writable(cli->ctx, &r->dp, p, side) < 0) {
		cli_error(cli, "%s: cannot set it on %s: %s; nothing was changed", path,
			  r->ap->ifname ? r->ap->ifname : r->ap->fn->bdf, mlx_errmsg(cli->ctx));
		return EXIT_NOTSUP;
	}
	if (mlx_dcqcn_plan_add(&r->pl, p, side, r->dp.layout, val) < 0) {
		cli_error(cli, "out of memory");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* Fill r->pl from the section; 0 with an empty plan when it names nothing. */
int apply_dcqcn_requests(struct cli *cli, struct run *r)
{
	json_t *d = json_object_get(r->ap->spec, "dcqcn");
	int rc;

	if (!json_is_object(d) ||
	    (!json_object_get(d, "rp") && !json_object_get(d, "np")))
		return EXIT_OK;
	if (mlx_dcqcn_open(cli->ctx, r->ap->fn, r->ap->port, &r->dp) < 0) {
		cli_error(cli, "%s.dcqcn: %s; nothing was changed", r->ap->path, mlx_errmsg(cli->ctx));
		return EXIT_NOTSUP;
	}
	r->cw.dp = &r->dp;
	r->cw.speed_mbps = r->ap->port ? r->ap->port->speed_mbps : -1;
	for (int si = 0; si < 2; si++) {
		enum mlx_dcqcn_side side = si ? MLX_DCQCN_NP : MLX_DCQCN_RP;
		json_t *s = json_object_get(d, si ? "np" : "rp"), *e;
		char path[160];
		size_t i;

		json_array_foreach(json_object_get(s, "enable"), i, e) {
			if (json_is_null(e))
				continue;
			snprintf(path, sizeof(path), "%s.dcqcn.%s.enable[%zu]", r->ap->path,
				 si ? "np" : "rp", i);
			if ((rc = dcqcn_add(cli, r, enable_param((int)i), side, json_is_true(e), path)))
				return rc;
		}
		json_array_foreach(json_object_get(s, "parameters"), i, e) {
			json_t *v = json_object_get(e, "value");

			if (!json_is_integer(v))
				continue;
			snprintf(path, sizeof(path), "%s.dcqcn.%s.parameters[%zu]", r->ap->path,
				 si ? "np" : "rp", i);
			rc = dcqcn_add(cli, r,
				       apply_dcqcn_param(json_string_value(json_object_get(e, "name")), side),
				       side, (uint64_t)json_integer_value(v), path);
			if (rc)
				return rc;
		}
	}
	return EXIT_OK;
}
