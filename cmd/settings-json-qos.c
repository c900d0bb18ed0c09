/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The QoS and DCQCN sections of a state document (cmd/settings-json.c is
 * the reader: the document, a port, the other sections): JSON in, the
 * model's mlx_qos_settings and mlx_dcqcn_settings out, each value through
 * its validator in lib (lib/settings.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "settings-cmd.h"

/* ---- QoS ---- */

static int qos_dcbx(struct rd *r, json_t *port, const char *path, struct mlx_qos_settings *q)
{
	static const char *const k[] = { "mode", NULL };
	char p[160], m[200];
	json_t *x = rd_section(port, "dcbx", &q->dcbx);
	const char *s;
	int e;

	if (!x)
		return EXIT_OK;
	P(p, "%s.dcbx", path);
	if ((e = rd_keys(r, x, p, k)))
		return e;
	q->have = q->dcbx = MLX_SET;
	if (!json_object_get(x, "mode"))
		return EXIT_OK;
	P(m, "%s.mode", p);
	if ((e = rd_string(r, json_object_get(x, "mode"), m, &s)))
		return e;
	if (strcmp(s, "host") && strcmp(s, "firmware"))
		return rd_bad(r, m, "'%s' is not one of the values it takes", s);
	q->dcbx_mode = MLX_SET;
	q->st.dcbx = !strcmp(s, "host") ? DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE : 0;
	return EXIT_OK;
}

static int qos_trust_map(struct rd *r, json_t *port, const char *path, struct mlx_qos_settings *q)
{
	static const char *const k[] = { "dscp", "priority", NULL };
	char p[160], m[200];
	json_t *x, *e;
	const char *s;
	size_t i;
	int rc;

	if ((x = rd_section(port, "trust", &q->trust))) {
		P(p, "%s.trust", path);
		if ((rc = rd_string(r, x, p, &s)))
			return rc;
		if (strcmp(s, "pcp") && strcmp(s, "dscp"))
			return rd_bad(r, p, "'%s' is not one of the values it takes", s);
		q->have = q->trust = MLX_SET;
		q->trust_dscp = !strcmp(s, "dscp");
	}
	if (!(x = rd_section(port, "dscp2prio", &q->dscp2prio)))
		return EXIT_OK;
	P(p, "%s.dscp2prio", path);
	if (!json_is_array(x))
		return rd_bad(r, p, "expected an array of {dscp, priority}");
	q->have = q->dscp2prio = MLX_SET;
	json_array_foreach(x, i, e) {
		int64_t d, pr;

		P(m, "%s[%zu]", p, i);
		if ((rc = rd_keys(r, e, m, k)))
			return rc;
		if (!json_object_get(e, "dscp") || !json_object_get(e, "priority"))
			return rd_bad(r, m, "needs both dscp and priority");
		P(m, "%s[%zu].dscp", p, i);
		if ((rc = rd_integer(r, json_object_get(e, "dscp"), m, &d)))
			return rc;
		P(m, "%s[%zu].priority", p, i);
		if ((rc = rd_integer(r, json_object_get(e, "priority"), m, &pr)))
			return rc;
		rc = mlx_qos_put_dscp(r->cli->ctx, q, d, pr);
		/* the fault is the DSCP's (its range, twice) or the priority's */
		if (rc == -EEXIST || (rc < 0 && (d < 0 || d >= MLX_DCB_NDSCP)))
			P(m, "%s[%zu].dscp", p, i);
		if (rc < 0)
			return rd_refused(r, m);
	}
	if (json_array_size(x) && q->trust == MLX_SET && !q->trust_dscp)
		return rd_bad(r, p, "a DSCP map with trust pcp: mlx5 trusts DSCP as soon as the map has an "
			   "entry (make the map [] or trust dscp)");
	return EXIT_OK;
}

static int qos_pfc(struct rd *r, json_t *port, const char *path, struct mlx_qos_settings *q)
{
	static const char *const k[] = { "enabled_priorities", "cable_length_m", NULL };
	char p[160], m[200];
	json_t *x = rd_section(port, "pfc", &q->pfc), *a, *e;
	size_t i;
	int rc;

	if (!x)
		return EXIT_OK;
	P(p, "%s.pfc", path);
	if ((rc = rd_keys(r, x, p, k)))
		return rc;
	q->have = q->pfc = MLX_SET;
	if ((a = json_object_get(x, "enabled_priorities"))) {
		P(m, "%s.enabled_priorities", p);
		if ((rc = rd_array(r, a, m, 0)))
			return rc;
		q->pfc_prios = MLX_SET;
		q->st.pfc.pfc_en = 0;
		json_array_foreach(a, i, e) {
			int64_t pr;

			P(m, "%s.enabled_priorities[%zu]", p, i);
			if ((rc = rd_integer(r, e, m, &pr)))
				return rc;
			if (mlx_qos_put_pfc_prio(r->cli->ctx, q, pr) < 0)
				return rd_refused(r, m);
		}
	}
	if ((a = json_object_get(x, "cable_length_m"))) {
		int64_t v;

		P(m, "%s.cable_length_m", p);
		if ((rc = rd_integer(r, a, m, &v)))
			return rc;
		if (mlx_qos_put_cable(r->cli->ctx, q, v) < 0)
			return rd_refused(r, m);
	}
	return EXIT_OK;
}

static int qos_ets(struct rd *r, json_t *port, const char *path, struct mlx_qos_settings *q)
{
	static const char *const ek[] = { "prio_tc", NULL };
	static const char *const tk[] = { "tc", "tsa", "bandwidth_pct", "max_rate_mbps", NULL };
	char p[160], m[200];
	json_t *x, *a, *e;
	size_t i;
	int rc;

	if ((x = rd_section(port, "ets", &q->ets))) {
		P(p, "%s.ets", path);
		if ((rc = rd_keys(r, x, p, ek)))
			return rc;
		q->have = q->ets = MLX_SET;
		if ((a = json_object_get(x, "prio_tc"))) {
			P(m, "%s.prio_tc", p);
			if ((rc = rd_array(r, a, m, 8)))
				return rc;
			json_array_foreach(a, i, e) {
				int64_t tc;

				P(m, "%s.prio_tc[%zu]", p, i);
				if ((rc = rd_integer(r, e, m, &tc)))
					return rc;
				if (mlx_qos_put_prio_tc(r->cli->ctx, q, (unsigned)i, tc) < 0)
					return rd_refused(r, m);
			}
		}
	}
	if (!(x = rd_section(port, "tcs", &q->tcs)))
		return EXIT_OK;
	P(p, "%s.tcs", path);
	if (!json_is_array(x) || json_array_size(x) > 8)
		return rd_bad(r, p, "expected an array of at most 8 traffic classes");
	q->have = q->tcs = MLX_SET;
	json_array_foreach(x, i, e) {
		json_t *v;
		int64_t tc, n;
		const char *s;

		P(m, "%s[%zu]", p, i);
		if ((rc = rd_keys(r, e, m, tk)))
			return rc;
		if (!json_object_get(e, "tc"))
			return rd_bad(r, m, "needs its tc");
		P(m, "%s[%zu].tc", p, i);
		if ((rc = rd_integer(r, json_object_get(e, "tc"), m, &tc)))
			return rc;
		if (mlx_qos_put_tc(r->cli->ctx, q, tc) < 0)
			return rd_refused(r, m);
		if ((v = json_object_get(e, "tsa"))) {
			P(m, "%s[%zu].tsa", p, i);
			if ((rc = rd_string(r, v, m, &s)))
				return rc;
			if (mlx_qos_put_tsa(r->cli->ctx, q, tc, s) < 0)
				return rd_refused(r, m);
		}
		v = json_object_get(e, "bandwidth_pct");
		P(m, "%s[%zu].bandwidth_pct", p, i);
		if (v && json_is_null(v))
			q->bw[tc] = MLX_NULL;
		else if (v && ((rc = rd_integer(r, v, m, &n)) || mlx_qos_put_bw(r->cli->ctx, q, tc, n) < 0))
			return rc ? rc : rd_refused(r, m);
		if ((v = json_object_get(e, "max_rate_mbps"))) {
			P(m, "%s[%zu].max_rate_mbps", p, i);
			if ((rc = rd_integer(r, v, m, &n)))
				return rc;
			if (mlx_qos_put_rate(r->cli->ctx, q, tc, n) < 0)
				return rd_refused(r, m);
		}
	}
	return EXIT_OK;
}

static int qos_buffer(struct rd *r, json_t *port, const char *path, struct mlx_qos_settings *q)
{
	static const char *const k[] = { "prio2buffer", "size_bytes", "source", NULL };
	char p[160], m[200];
	json_t *x = rd_section(port, "buffer", &q->buffer), *a, *e;
	size_t i;
	int rc;

	if (!x)
		return EXIT_OK;
	P(p, "%s.buffer", path);
	if ((rc = rd_keys(r, x, p, k)))
		return rc;
	q->have = q->buffer = MLX_SET;
	/* "source" says where state read them: a fact, not a setting */
	if ((a = json_object_get(x, "prio2buffer"))) {
		P(m, "%s.prio2buffer", p);
		if ((rc = rd_array(r, a, m, 8)))
			return rc;
		json_array_foreach(a, i, e) {
			int64_t v;

			P(m, "%s.prio2buffer[%zu]", p, i);
			if ((rc = rd_integer(r, e, m, &v)))
				return rc;
			if (mlx_qos_put_p2b(r->cli->ctx, q, (unsigned)i, v) < 0)
				return rd_refused(r, m);
		}
	}
	if ((a = json_object_get(x, "size_bytes"))) {
		P(m, "%s.size_bytes", p);
		if ((rc = rd_array(r, a, m, 8)))
			return rc;
		json_array_foreach(a, i, e) {
			int64_t v;

			P(m, "%s.size_bytes[%zu]", p, i);
			if ((rc = rd_integer(r, e, m, &v)))
				return rc;
			if (mlx_qos_put_size(r->cli->ctx, q, (unsigned)i, v) < 0)
				return rd_refused(r, m);
		}
	}
	return EXIT_OK;
}

/* ---- DCQCN ---- */

static int dcqcn_side(struct rd *r, json_t *s, const char *path, enum mlx_dcqcn_side side,
		      struct mlx_dcqcn_settings *d)
{
	static const char *const sk[] = { "enable", "parameters", NULL };
	static const char *const pk[] = { "name", "value", NULL };
	struct mlx_dcqcn_side_settings *ss = &d->side[mlx_dcqcn_side_index(side)];
	char p[200];
	json_t *x, *e;
	size_t i;
	int rc;

	if ((rc = rd_keys(r, s, path, sk)))
		return rc;
	if ((x = json_object_get(s, "enable"))) {
		P(p, "%s.enable", path);
		if (!json_is_array(x) || json_array_size(x) != 8)
			return rd_bad(r, p, "expected 8 entries (true, false or null), one per priority");
		json_array_foreach(x, i, e) {
			P(p, "%s.enable[%zu]", path, i);
			if (json_is_null(e)) {
				ss->en[i] = MLX_NULL;
				continue;
			}
			if (!json_is_boolean(e))
				return rd_bad(r, p, "expected true, false or null");
			if (mlx_dcqcn_put_enable(r->cli->ctx, d, side, (unsigned)i, json_is_true(e)) < 0)
				return rd_refused(r, p);
		}
	}
	if (!(x = json_object_get(s, "parameters")))
		return EXIT_OK;
	P(p, "%s.parameters", path);
	if (!json_is_array(x))
		return rd_bad(r, p, "expected an array of {name, value}");
	json_array_foreach(x, i, e) {
		const struct mlx_dcqcn_param *pa;
		size_t np, idx;
		json_t *v;

		P(p, "%s.parameters[%zu]", path, i);
		if ((rc = rd_keys(r, e, p, pk)))
			return rc;
		if (!json_is_string(json_object_get(e, "name")))
			return rd_bad(r, p, "needs its name (a string)");
		pa = mlx_dcqcn_state_param(json_string_value(json_object_get(e, "name")), side);
		if (!pa)
			return rd_bad(r, p, "no DCQCN parameter '%s' on the %s side",
				   json_string_value(json_object_get(e, "name")),
				   side == MLX_DCQCN_RP ? "rp" : "np");
		idx = (size_t)(pa - mlx_dcqcn_params(&np));
		v = json_object_get(e, "value");
		if (!rd_given(v)) {
			if (ss->h[idx] == MLX_SET)
				return rd_bad(r, p, "%s is given twice",
					   json_string_value(json_object_get(e, "name")));
			ss->h[idx] = MLX_NULL;
			d->have = MLX_SET;
			continue;
		}
		if (ss->h[idx] == MLX_SET)
			return rd_bad(r, p, "%s is given twice", json_string_value(json_object_get(e, "name")));
		P(p, "%s.parameters[%zu].value", path, i);
		if (!json_is_integer(v))
			return rd_bad(r, p, "expected an integer");
		if (json_integer_value(v) < 0)
			return rd_bad(r, p, "%" JSON_INTEGER_FORMAT " is out of range (%" PRIu64 "-%" PRIu64 ")",
				   json_integer_value(v), pa->min, pa->max);
		if (mlx_dcqcn_put(r->cli->ctx, d, pa, side, (uint64_t)json_integer_value(v)) < 0) {
			/* "given twice" is the element's, a range the value's */
			if (ss->h[idx] == MLX_SET)
				P(p, "%s.parameters[%zu]", path, i);
			return rd_refused(r, p);
		}
	}
	return EXIT_OK;
}

static int dcqcn(struct rd *r, json_t *port, const char *path, struct mlx_dcqcn_settings *d)
{
	static const char *const k[] = { "layout", "rp", "np", NULL };
	char p[160], q[200];
	json_t *x = rd_section(port, "dcqcn", &d->have);
	int rc;

	if (!x)
		return EXIT_OK;
	P(p, "%s.dcqcn", path);
	if ((rc = rd_keys(r, x, p, k)))
		return rc;
	/* "layout" says which files state read: a fact, not a setting */
	d->have = MLX_SET;
	P(q, "%s.rp", p);
	if (json_object_get(x, "rp") && (rc = dcqcn_side(r, json_object_get(x, "rp"), q, MLX_DCQCN_RP, d)))
		return rc;
	P(q, "%s.np", p);
	if (json_object_get(x, "np") && (rc = dcqcn_side(r, json_object_get(x, "np"), q, MLX_DCQCN_NP, d)))
		return rc;
	return EXIT_OK;
}

int rd_qos_dcqcn(struct rd *r, json_t *o, const char *path, struct mlx_port_settings *w)
{
	int rc;

	if ((rc = qos_dcbx(r, o, path, &w->qos)) || (rc = qos_trust_map(r, o, path, &w->qos)) ||
	    (rc = qos_pfc(r, o, path, &w->qos)) || (rc = qos_ets(r, o, path, &w->qos)) ||
	    (rc = qos_buffer(r, o, path, &w->qos)) || (rc = dcqcn(r, o, path, &w->dcqcn)))
		return rc;
	return EXIT_OK;
}
