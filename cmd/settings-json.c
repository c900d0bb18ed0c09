/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one reader of a state document (DESIGN.md "Security": desired-state
 * files are data, validated in full before anything is applied): JSON in,
 * the settings model (lib/settings.h) out, for `apply` (the desired state)
 * and `diff` (state files).  The schema is `mlxcli state -j`'s
 * (mlxcli-state(8)) plus a port's "match" selector.  Every key is known,
 * every value has its JSON type here and passes its setting's validator in
 * lib (the same the write verbs use), or the document is refused (exit 2)
 * with the JSON path of the first fault.  What depends on a device (a TC
 * beyond the port's count, a parameter its layout lacks) is the plans'.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "settings-cmd.h"

struct rd {
	struct cli *cli;
	const char *file;         /* for messages */
	const char *suffix;       /* "; nothing was changed" for apply */
};

static int bad(struct rd *r, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad(struct rd *r, const char *path, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cli_error(r->cli, "%s: %s: %s%s", r->file, path, msg, r->suffix);
	return EXIT_USAGE;
}

/* A lib validator said no (mlx_errmsg). */
static int refused(struct rd *r, const char *path)
{
	char msg[400];

	snprintf(msg, sizeof(msg), "%s", mlx_errmsg(r->cli->ctx));
	mlx_err_clear(r->cli->ctx);
	return bad(r, path, "%s", msg);
}

#define P(buf, ...) snprintf(buf, sizeof(buf), __VA_ARGS__)

/* @o is an object whose keys are all in @allowed (NULL-terminated). */
static int keys(struct rd *r, json_t *o, const char *path, const char *const *allowed)
{
	const char *k;
	json_t *v;

	if (!json_is_object(o))
		return bad(r, path, "expected an object");
	json_object_foreach(o, k, v) {
		size_t i;

		for (i = 0; allowed[i] && strcmp(allowed[i], k); i++)
			;
		if (!allowed[i])
			return bad(r, path, "unknown key '%s'", k);
	}
	return EXIT_OK;
}

/* A value that is there (null: leave it alone, or unknown). */
static bool given(json_t *x)
{
	return x && !json_is_null(x);
}

static int integer(struct rd *r, json_t *x, const char *path, int64_t *v)
{
	*v = 0;
	if (!json_is_integer(x))
		return bad(r, path, "expected an integer");
	*v = (int64_t)json_integer_value(x);
	return EXIT_OK;
}

static int string(struct rd *r, json_t *x, const char *path, const char **s)
{
	*s = "";
	if (!json_is_string(x))
		return bad(r, path, "expected a string");
	*s = json_string_value(x);
	return EXIT_OK;
}

static int boolean(struct rd *r, json_t *x, const char *path, bool *b)
{
	*b = false;
	if (!json_is_boolean(x))
		return bad(r, path, "expected true or false");
	*b = json_is_true(x);
	return EXIT_OK;
}

/* An array of exactly @n entries (0: up to 64). */
static int array(struct rd *r, json_t *a, const char *path, size_t n)
{
	if (!json_is_array(a))
		return bad(r, path, "expected an array");
	if (n ? json_array_size(a) != n : json_array_size(a) > 64)
		return bad(r, path, "expected %zu entries, it has %zu", n ? n : 64, json_array_size(a));
	return EXIT_OK;
}

/* The section @key of @o: absent, null (MLX_NULL), or there. */
static json_t *section(json_t *o, const char *key, uint8_t *have)
{
	json_t *x = json_object_get(o, key);

	if (x && json_is_null(x))
		*have = MLX_NULL;
	return given(x) ? x : NULL;
}

/* ---- QoS ---- */

static int qos_dcbx(struct rd *r, json_t *port, const char *path, struct mlx_qos_settings *q)
{
	static const char *const k[] = { "mode", NULL };
	char p[160], m[200];
	json_t *x = section(port, "dcbx", &q->dcbx);
	const char *s;
	int e;

	if (!x)
		return EXIT_OK;
	P(p, "%s.dcbx", path);
	if ((e = keys(r, x, p, k)))
		return e;
	q->have = q->dcbx = MLX_SET;
	if (!json_object_get(x, "mode"))
		return EXIT_OK;
	P(m, "%s.mode", p);
	if ((e = string(r, json_object_get(x, "mode"), m, &s)))
		return e;
	if (strcmp(s, "host") && strcmp(s, "firmware"))
		return bad(r, m, "'%s' is not one of the values it takes", s);
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

	if ((x = section(port, "trust", &q->trust))) {
		P(p, "%s.trust", path);
		if ((rc = string(r, x, p, &s)))
			return rc;
		if (strcmp(s, "pcp") && strcmp(s, "dscp"))
			return bad(r, p, "'%s' is not one of the values it takes", s);
		q->have = q->trust = MLX_SET;
		q->trust_dscp = !strcmp(s, "dscp");
	}
	if (!(x = section(port, "dscp2prio", &q->dscp2prio)))
		return EXIT_OK;
	P(p, "%s.dscp2prio", path);
	if (!json_is_array(x))
		return bad(r, p, "expected an array of {dscp, priority}");
	q->have = q->dscp2prio = MLX_SET;
	json_array_foreach(x, i, e) {
		int64_t d, pr;

		P(m, "%s[%zu]", p, i);
		if ((rc = keys(r, e, m, k)))
			return rc;
		if (!json_object_get(e, "dscp") || !json_object_get(e, "priority"))
			return bad(r, m, "needs both dscp and priority");
		P(m, "%s[%zu].dscp", p, i);
		if ((rc = integer(r, json_object_get(e, "dscp"), m, &d)))
			return rc;
		P(m, "%s[%zu].priority", p, i);
		if ((rc = integer(r, json_object_get(e, "priority"), m, &pr)))
			return rc;
		rc = mlx_qos_put_dscp(r->cli->ctx, q, d, pr);
		/* the fault is the DSCP's (its range, twice) or the priority's */
		if (rc == -EEXIST || (rc < 0 && (d < 0 || d >= MLX_DCB_NDSCP)))
			P(m, "%s[%zu].dscp", p, i);
		if (rc < 0)
			return refused(r, m);
	}
	if (json_array_size(x) && q->trust == MLX_SET && !q->trust_dscp)
		return bad(r, p, "a DSCP map with trust pcp: mlx5 trusts DSCP as soon as the map has an "
			   "entry (make the map [] or trust dscp)");
	return EXIT_OK;
}

static int qos_pfc(struct rd *r, json_t *port, const char *path, struct mlx_qos_settings *q)
{
	static const char *const k[] = { "enabled_priorities", "cable_length_m", NULL };
	char p[160], m[200];
	json_t *x = section(port, "pfc", &q->pfc), *a, *e;
	size_t i;
	int rc;

	if (!x)
		return EXIT_OK;
	P(p, "%s.pfc", path);
	if ((rc = keys(r, x, p, k)))
		return rc;
	q->have = q->pfc = MLX_SET;
	if ((a = json_object_get(x, "enabled_priorities"))) {
		P(m, "%s.enabled_priorities", p);
		if ((rc = array(r, a, m, 0)))
			return rc;
		q->pfc_prios = MLX_SET;
		q->st.pfc.pfc_en = 0;
		json_array_foreach(a, i, e) {
			int64_t pr;

			P(m, "%s.enabled_priorities[%zu]", p, i);
			if ((rc = integer(r, e, m, &pr)))
				return rc;
			if (mlx_qos_put_pfc_prio(r->cli->ctx, q, pr) < 0)
				return refused(r, m);
		}
	}
	if ((a = json_object_get(x, "cable_length_m"))) {
		int64_t v;

		P(m, "%s.cable_length_m", p);
		if ((rc = integer(r, a, m, &v)))
			return rc;
		if (mlx_qos_put_cable(r->cli->ctx, q, v) < 0)
			return refused(r, m);
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

	if ((x = section(port, "ets", &q->ets))) {
		P(p, "%s.ets", path);
		if ((rc = keys(r, x, p, ek)))
			return rc;
		q->have = q->ets = MLX_SET;
		if ((a = json_object_get(x, "prio_tc"))) {
			P(m, "%s.prio_tc", p);
			if ((rc = array(r, a, m, 8)))
				return rc;
			json_array_foreach(a, i, e) {
				int64_t tc;

				P(m, "%s.prio_tc[%zu]", p, i);
				if ((rc = integer(r, e, m, &tc)))
					return rc;
				if (mlx_qos_put_prio_tc(r->cli->ctx, q, (unsigned)i, tc) < 0)
					return refused(r, m);
			}
		}
	}
	if (!(x = section(port, "tcs", &q->tcs)))
		return EXIT_OK;
	P(p, "%s.tcs", path);
	if (!json_is_array(x) || json_array_size(x) > 8)
		return bad(r, p, "expected an array of at most 8 traffic classes");
	q->have = q->tcs = MLX_SET;
	json_array_foreach(x, i, e) {
		json_t *v;
		int64_t tc, n;
		const char *s;

		P(m, "%s[%zu]", p, i);
		if ((rc = keys(r, e, m, tk)))
			return rc;
		if (!json_object_get(e, "tc"))
			return bad(r, m, "needs its tc");
		P(m, "%s[%zu].tc", p, i);
		if ((rc = integer(r, json_object_get(e, "tc"), m, &tc)))
			return rc;
		if (mlx_qos_put_tc(r->cli->ctx, q, tc) < 0)
			return refused(r, m);
		if ((v = json_object_get(e, "tsa"))) {
			P(m, "%s[%zu].tsa", p, i);
			if ((rc = string(r, v, m, &s)))
				return rc;
			if (mlx_qos_put_tsa(r->cli->ctx, q, tc, s) < 0)
				return refused(r, m);
		}
		v = json_object_get(e, "bandwidth_pct");
		P(m, "%s[%zu].bandwidth_pct", p, i);
		if (v && json_is_null(v))
			q->bw[tc] = MLX_NULL;
		else if (v && ((rc = integer(r, v, m, &n)) || mlx_qos_put_bw(r->cli->ctx, q, tc, n) < 0))
			return rc ? rc : refused(r, m);
		if ((v = json_object_get(e, "max_rate_mbps"))) {
			P(m, "%s[%zu].max_rate_mbps", p, i);
			if ((rc = integer(r, v, m, &n)))
				return rc;
			if (mlx_qos_put_rate(r->cli->ctx, q, tc, n) < 0)
				return refused(r, m);
		}
	}
	return EXIT_OK;
}

static int qos_buffer(struct rd *r, json_t *port, const char *path, struct mlx_qos_settings *q)
{
	static const char *const k[] = { "prio2buffer", "size_bytes", "source", NULL };
	char p[160], m[200];
	json_t *x = section(port, "buffer", &q->buffer), *a, *e;
	size_t i;
	int rc;

	if (!x)
		return EXIT_OK;
	P(p, "%s.buffer", path);
	if ((rc = keys(r, x, p, k)))
		return rc;
	q->have = q->buffer = MLX_SET;
	/* "source" says where state read them: a fact, not a setting */
	if ((a = json_object_get(x, "prio2buffer"))) {
		P(m, "%s.prio2buffer", p);
		if ((rc = array(r, a, m, 8)))
			return rc;
		json_array_foreach(a, i, e) {
			int64_t v;

			P(m, "%s.prio2buffer[%zu]", p, i);
			if ((rc = integer(r, e, m, &v)))
				return rc;
			if (mlx_qos_put_p2b(r->cli->ctx, q, (unsigned)i, v) < 0)
				return refused(r, m);
		}
	}
	if ((a = json_object_get(x, "size_bytes"))) {
		P(m, "%s.size_bytes", p);
		if ((rc = array(r, a, m, 8)))
			return rc;
		json_array_foreach(a, i, e) {
			int64_t v;

			P(m, "%s.size_bytes[%zu]", p, i);
			if ((rc = integer(r, e, m, &v)))
				return rc;
			if (mlx_qos_put_size(r->cli->ctx, q, (unsigned)i, v) < 0)
				return refused(r, m);
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

	if ((rc = keys(r, s, path, sk)))
		return rc;
	if ((x = json_object_get(s, "enable"))) {
		P(p, "%s.enable", path);
		if (!json_is_array(x) || json_array_size(x) != 8)
			return bad(r, p, "expected 8 entries (true, false or null), one per priority");
		json_array_foreach(x, i, e) {
			P(p, "%s.enable[%zu]", path, i);
			if (json_is_null(e)) {
				ss->en[i] = MLX_NULL;
				continue;
			}
			if (!json_is_boolean(e))
				return bad(r, p, "expected true, false or null");
			if (mlx_dcqcn_put_enable(r->cli->ctx, d, side, (unsigned)i, json_is_true(e)) < 0)
				return refused(r, p);
		}
	}
	if (!(x = json_object_get(s, "parameters")))
		return EXIT_OK;
	P(p, "%s.parameters", path);
	if (!json_is_array(x))
		return bad(r, p, "expected an array of {name, value}");
	json_array_foreach(x, i, e) {
		const struct mlx_dcqcn_param *pa;
		size_t np, idx;
		json_t *v;

		P(p, "%s.parameters[%zu]", path, i);
		if ((rc = keys(r, e, p, pk)))
			return rc;
		if (!json_is_string(json_object_get(e, "name")))
			return bad(r, p, "needs its name (a string)");
		pa = mlx_dcqcn_state_param(json_string_value(json_object_get(e, "name")), side);
		if (!pa)
			return bad(r, p, "no DCQCN parameter '%s' on the %s side",
				   json_string_value(json_object_get(e, "name")),
				   side == MLX_DCQCN_RP ? "rp" : "np");
		idx = (size_t)(pa - mlx_dcqcn_params(&np));
		v = json_object_get(e, "value");
		if (!given(v)) {
			if (ss->h[idx] == MLX_SET)
				return bad(r, p, "%s is given twice",
					   json_string_value(json_object_get(e, "name")));
			ss->h[idx] = MLX_NULL;
			d->have = MLX_SET;
			continue;
		}
		if (ss->h[idx] == MLX_SET)
			return bad(r, p, "%s is given twice", json_string_value(json_object_get(e, "name")));
		P(p, "%s.parameters[%zu].value", path, i);
		if (!json_is_integer(v))
			return bad(r, p, "expected an integer");
		if (json_integer_value(v) < 0)
			return bad(r, p, "%" JSON_INTEGER_FORMAT " is out of range (%" PRIu64 "-%" PRIu64 ")",
				   json_integer_value(v), pa->min, pa->max);
		if (mlx_dcqcn_put(r->cli->ctx, d, pa, side, (uint64_t)json_integer_value(v)) < 0) {
			/* "given twice" is the element's, a range the value's */
			if (ss->h[idx] == MLX_SET)
				P(p, "%s.parameters[%zu]", path, i);
			return refused(r, p);
		}
	}
	return EXIT_OK;
}

static int dcqcn(struct rd *r, json_t *port, const char *path, struct mlx_dcqcn_settings *d)
{
	static const char *const k[] = { "layout", "rp", "np", NULL };
	char p[160], q[200];
	json_t *x = section(port, "dcqcn", &d->have);
	int rc;

	if (!x)
		return EXIT_OK;
	P(p, "%s.dcqcn", path);
	if ((rc = keys(r, x, p, k)))
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

/* ---- params ---- */

/* A knob's value in FILE as the text the catalogue's parser takes. */
static int knob_text(struct rd *r, const struct mlx_knob *k, json_t *x, const char *path, char *buf,
		     size_t len)
{
	switch (k->type) {
	case MLX_KT_BOOL:
		if (!json_is_boolean(x))
			return bad(r, path, "expected a boolean (%s is on or off)", k->name);
		snprintf(buf, len, "%s", json_is_true(x) ? "on" : "off");
		return EXIT_OK;
	case MLX_KT_U32:
	case MLX_KT_U64:
		if (!json_is_integer(x))
			return bad(r, path, "expected an integer");
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(x));
		return EXIT_OK;
	case MLX_KT_STRING:
		if (!json_is_string(x))
			return bad(r, path, "expected a string");
		if (strlen(json_string_value(x)) >= len)
			return bad(r, path, "'%s' is too long for %s", json_string_value(x), k->name);
		snprintf(buf, len, "%s", json_string_value(x));
		return EXIT_OK;
	}
	return bad(r, path, "a knob of no known type");
}

static int params(struct rd *r, json_t *port, const char *path, struct mlx_params_settings *ps)
{
	struct mlx_ctx *ctx = r->cli->ctx;
	json_t *o = section(port, "params", &ps->have), *x;
	char p[160], text[MLX_VAL_STR_MAX];
	const char *k;
	int rc;

	if (!o)
		return EXIT_OK;
	P(p, "%s.params", path);
	if (!json_is_object(o))
		return bad(r, p, "expected an object");
	ps->have = MLX_SET;
	json_object_foreach(o, k, x) {
		const struct mlx_knob *kn = mlx_knob_find(k);
		struct mlx_val v = mlx_val_null();

		P(p, "%s.params.%s", path, k);
		if (!kn)
			return bad(r, p, "no knob '%s' (mlxcli params info lists them)", k);
		if (kn->src == MLX_KS_MODULE)
			return bad(r, p, "a module parameter (mlx5_core's, the host's, not a port's): not "
				   "in the desired state; params set or modprobe.d sets it");
		if (!mlx_params_state_knob(kn))
			return bad(r, p, "an RDMA knob, not in a port's params (the RDMA CM's defaults are "
				   "its \"roce\" section)");
		if (!json_is_null(x)) {
			if ((rc = knob_text(r, kn, x, p, text, sizeof(text))))
				return rc;
			if (mlx_params_parse_value(ctx, kn, text, &v) < 0)
				return refused(r, p);
		}
		if (mlx_params_put(ctx, ps, kn, v) < 0)
			return refused(r, p);
	}
	return EXIT_OK;
}

/* ---- roce ---- */

static int roce(struct rd *r, json_t *port, const char *path, struct mlx_roce_settings *rs)
{
	static const char *const k[] = { "default_roce_mode", "default_roce_tos", NULL };
	json_t *x = section(port, "roce", &rs->have), *v;
	char p[160], q[200];
	int64_t tos;
	const char *s;
	int rc;

	if (!x)
		return EXIT_OK;
	P(p, "%s.roce", path);
	if ((rc = keys(r, x, p, k)))
		return rc;
	rs->have = MLX_SET;
	P(q, "%s.default_roce_mode", p);
	if ((v = section(x, "default_roce_mode", &rs->mode_h)) &&
	    ((rc = string(r, v, q, &s)) || mlx_roce_put_mode(r->cli->ctx, rs, s) < 0))
		return rc ? rc : refused(r, q);
	P(q, "%s.default_roce_tos", p);
	if ((v = section(x, "default_roce_tos", &rs->tos_h)) &&
	    ((rc = integer(r, v, q, &tos)) || mlx_roce_put_tos(r->cli->ctx, rs, tos) < 0))
		return rc ? rc : refused(r, q);
	return EXIT_OK;
}

/* ---- sriov ---- */

static int vf(struct rd *r, json_t *v, const char *p, struct mlx_sriov_settings *s)
{
	static const char *const k[] = {
		"vf", "mac", "vlan", "qos", "vlan_protocol", "min_tx_rate_mbps", "max_tx_rate_mbps",
		"spoofchk", "trusted", "link_state", NULL,
	};
	struct mlx_ctx *ctx = r->cli->ctx;
	struct mlx_vf_settings *vs;
	char q[200];
	int64_t n;
	json_t *x;
	const char *str;
	bool b;
	int rc;

	if (!json_is_object(v))
		return bad(r, p, "expected an object");
	if ((rc = keys(r, v, p, k)))
		return rc;
	P(q, "%s.vf", p);
	if ((rc = integer(r, json_object_get(v, "vf"), q, &n)))
		return rc;
	if (n < 0 || n > 65535)
		return bad(r, q, "%" PRId64 " is out of range (0-65535)", n);
	if (mlx_sriov_vf(ctx, s, (uint32_t)n, false))
		return bad(r, q, "VF %" PRId64 " is named twice", n);
	if (!(vs = mlx_sriov_vf(ctx, s, (uint32_t)n, true)))
		return refused(r, q);
#define FIELD(key, h, get, put) do { \
		P(q, "%s.%s", p, key); \
		x = section(v, key, &vs->h); \
		if (x && ((rc = get) || (put) < 0)) \
			return rc ? rc : refused(r, q); \
	} while (0)
	FIELD("mac", mac_h, string(r, x, q, &str), mlx_vf_put_mac(ctx, vs, str));
	FIELD("vlan", vlan_h, integer(r, x, q, &n), mlx_vf_put_vlan(ctx, vs, n));
	FIELD("qos", qos_h, integer(r, x, q, &n), mlx_vf_put_qos(ctx, vs, n));
	FIELD("vlan_protocol", proto_h, string(r, x, q, &str), mlx_vf_put_proto(ctx, vs, str));
	FIELD("min_tx_rate_mbps", min_h, integer(r, x, q, &n), mlx_vf_put_rate(ctx, vs, false, n));
	FIELD("max_tx_rate_mbps", max_h, integer(r, x, q, &n), mlx_vf_put_rate(ctx, vs, true, n));
	FIELD("spoofchk", spoofchk_h, boolean(r, x, q, &b), (vs->spoofchk = b, vs->spoofchk_h = MLX_SET, 0));
	FIELD("trusted", trust_h, boolean(r, x, q, &b), (vs->trust = b, vs->trust_h = MLX_SET, 0));
	FIELD("link_state", link_h, string(r, x, q, &str), mlx_vf_put_link_state(ctx, vs, str));
#undef FIELD
	return EXIT_OK;
}

static int sriov(struct rd *r, json_t *port, const char *path, struct mlx_sriov_settings *s)
{
	static const char *const k[] = { "num_vfs", "eswitch_mode", "vfs", NULL };
	json_t *x = section(port, "sriov", &s->have), *v, *e;
	char p[160], q[200];
	const char *str;
	int64_t n;
	size_t i;
	int rc;

	if (!x)
		return EXIT_OK;
	P(p, "%s.sriov", path);
	if ((rc = keys(r, x, p, k)))
		return rc;
	s->have = MLX_SET;
	P(q, "%s.num_vfs", p);
	if ((v = section(x, "num_vfs", &s->numvfs_h))) {
		if ((rc = integer(r, v, q, &n)))
			return rc;
		if (n < 0 || n > 65535)
			return bad(r, q, "%" PRId64 " is out of range (0-65535)", n);
		s->numvfs_h = MLX_SET;
		s->numvfs = (unsigned)n;
	}
	P(q, "%s.eswitch_mode", p);
	if ((v = section(x, "eswitch_mode", &s->esw_h))) {
		if ((rc = string(r, v, q, &str)))
			return rc;
		if (mlx_eswitch_mode_parse(str, &s->esw_mode) < 0)
			return bad(r, q, "'%s' is not one of the values it takes", str);
		s->esw_h = MLX_SET;
	}
	P(q, "%s.vfs", p);
	if (!(v = section(x, "vfs", &s->vfs_h)))
		return EXIT_OK;
	if (!json_is_array(v))
		return bad(r, q, "expected an array of VFs");
	s->vfs_h = MLX_SET;
	json_array_foreach(v, i, e) {
		P(q, "%s.vfs[%zu]", p, i);
		if ((rc = vf(r, e, q, s)))
			return rc;
	}
	return EXIT_OK;
}

/* ---- a port, a document ---- */

static int port(struct rd *r, json_t *o, const char *path, struct doc_port *dp)
{
	static const char *const k[] = {
		"pci_address", "netdev", "match", "dcbx", "trust", "dscp2prio", "pfc", "ets", "tcs",
		"buffer", "dcqcn", "params", "roce", "sriov", NULL,
	};
	static const char *const mk[] = { "product", "function", NULL };
	struct mlx_port_settings *w = dp->want;
	char p[160], q[200];
	json_t *x;
	const char *s;
	int rc;

	if ((rc = keys(r, o, path, k)))
		return rc;
	for (int i = 0; i < 2; i++) {
		const char *key = i ? "netdev" : "pci_address";

		x = json_object_get(o, key);
		P(p, "%s.%s", path, key);
		if (!given(x))
			continue;
		if (!json_is_string(x))
			return bad(r, p, "expected a string");
		if (!*json_string_value(x))
			return bad(r, p, "an empty string names no port");
		*(i ? &dp->netdev : &dp->pci) = json_string_value(x);
		snprintf(i ? w->netdev : w->pci_address, sizeof(w->netdev), "%s", json_string_value(x));
	}
	if ((x = json_object_get(o, "match"))) {
		P(p, "%s.match", path);
		if ((rc = keys(r, x, p, mk)))
			return rc;
		dp->match = true;
		P(q, "%s.product", p);
		if (json_object_get(x, "product") && (rc = string(r, json_object_get(x, "product"), q, &dp->product)))
			return rc;
		P(q, "%s.function", p);
		if (json_object_get(x, "function")) {
			if ((rc = string(r, json_object_get(x, "function"), q, &s)))
				return rc;
			if (strcmp(s, "pf") && strcmp(s, "vf"))
				return bad(r, q, "'%s' is not one of the values it takes", s);
			dp->vf = !strcmp(s, "vf");
		}
	}
	if (!dp->pci && !dp->netdev && !dp->match)
		return bad(r, path, "names no port: give pci_address, netdev or match");
	if ((rc = qos_dcbx(r, o, path, &w->qos)) || (rc = qos_trust_map(r, o, path, &w->qos)) ||
	    (rc = qos_pfc(r, o, path, &w->qos)) || (rc = qos_ets(r, o, path, &w->qos)) ||
	    (rc = qos_buffer(r, o, path, &w->qos)) || (rc = dcqcn(r, o, path, &w->dcqcn)) ||
	    (rc = params(r, o, path, &w->params)) || (rc = roce(r, o, path, &w->roce)) ||
	    (rc = sriov(r, o, path, &w->sriov)))
		return rc;
	return EXIT_OK;
}

static struct doc_port *doc_add(struct doc *d)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 8;
		struct doc_port *v = realloc(d->p, cap * sizeof(*v));

		if (!v)
			return NULL;
		d->p = v;
		d->cap = cap;
	}
	memset(&d->p[d->n], 0, sizeof(d->p[d->n]));
	d->p[d->n].want = mlx_port_settings_new();
	if (!d->p[d->n].want)
		return NULL;
	return &d->p[d->n++];
}

int doc_parse(struct cli *cli, const char *file, json_t *root, const char *suffix, struct doc *d)
{
	static const char *const k[] = { "schema_version", "ports", NULL };
	struct rd r = { cli, file, suffix };
	json_t *ports, *o, *sv, **roots;
	char p[32];
	size_t i;
	int rc;

	roots = realloc(d->roots, (d->nroots + 1) * sizeof(*roots));
	if (!roots) {
		json_decref(root);
		return cli_fail(cli, -ENOMEM, "cannot allocate memory");
	}
	d->roots = roots;
	d->roots[d->nroots++] = root;
	if ((rc = keys(&r, root, "$", k)))
		return rc;
	sv = json_object_get(root, "schema_version");
	if (sv) {
		int64_t v;

		if ((rc = integer(&r, sv, "schema_version", &v)))
			return rc;
		if (v < 1 || v > 2)
			return bad(&r, "schema_version", "%" PRId64 " is out of range (1-2)", v);
	}
	ports = json_object_get(root, "ports");
	if (!json_is_array(ports))
		return bad(&r, "ports", "expected an array of ports");
	json_array_foreach(ports, i, o) {
		struct doc_port *dp = doc_add(d);

		if (!dp)
			return cli_fail(cli, -ENOMEM, "cannot allocate memory");
		snprintf(dp->path, sizeof(dp->path), "ports[%zu]", i);
		dp->file = file;
		P(p, "ports[%zu]", i);
		if ((rc = port(&r, o, p, dp)))
			return rc;
	}
	return EXIT_OK;
}

int doc_load(struct cli *cli, const char *file, const char *suffix, struct doc *d)
{
	json_error_t je;
	json_t *root;
	FILE *fp = fopen(file, "r");

	/* the file's own error (no such file, no permission), not jansson's
	 * "line -1: unable to open" */
	if (!fp) {
		cli_error(cli, "cannot read %s: %s%s", file, strerror(errno), suffix);
		return errno == EACCES ? EXIT_PERM : EXIT_USAGE;
	}
	root = json_loadf(fp, JSON_REJECT_DUPLICATES, &je);
	fclose(fp);
	if (!root) {
		cli_error(cli, "%s: line %d: %s%s", file, je.line, je.text, suffix);
		return EXIT_USAGE;
	}
	return doc_parse(cli, file, root, suffix, d);
}

void doc_free(struct doc *d)
{
	for (size_t i = 0; i < d->n; i++)
		mlx_port_settings_free(d->p[i].want);
	for (size_t i = 0; i < d->nroots; i++)
		json_decref(d->roots[i]);
	free(d->p);
	free(d->roots);
	memset(d, 0, sizeof(*d));
}
