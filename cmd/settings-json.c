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
 * The QoS and DCQCN sections are cmd/settings-json-qos.c's.
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

int rd_bad(struct rd *r, const char *path, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cli_error(r->cli, "%s: %s: %s%s", r->file, path, msg, r->suffix);
	return EXIT_USAGE;
}

const char *rd_path(char *buf, size_t len, const char *parent, const char *key)
{
	size_t a = strlen(parent), b = strlen(key);

	if (!len)
		return buf;
	if (a >= len)
		a = len - 1;
	memcpy(buf, parent, a);
	if (a + 1 < len)
		buf[a++] = '.';
	if (a + b >= len)
		b = len - 1 - a;
	memcpy(buf + a, key, b);
	buf[a + b] = '\0';
	return buf;
}

/* A lib validator said no (mlx_errmsg). */
int rd_refused(struct rd *r, const char *path)
{
	char msg[400];

	snprintf(msg, sizeof(msg), "%s", mlx_errmsg(r->cli->ctx));
	mlx_err_clear(r->cli->ctx);
	return rd_bad(r, path, "%s", msg);
}

/* @o is an object whose keys are all in @allowed (NULL-terminated). */
int rd_keys(struct rd *r, json_t *o, const char *path, const char *const *allowed)
{
	const char *k;
	json_t *v;

	if (!json_is_object(o))
		return rd_bad(r, path, "expected an object");
	json_object_foreach(o, k, v) {
		size_t i;

		for (i = 0; allowed[i] && strcmp(allowed[i], k); i++)
			;
		if (!allowed[i])
			return rd_bad(r, path, "unknown key '%s'", k);
	}
	return EXIT_OK;
}

/* A value that is there (null: leave it alone, or unknown). */
bool rd_given(json_t *x)
{
	return x && !json_is_null(x);
}

int rd_integer(struct rd *r, json_t *x, const char *path, int64_t *v)
{
	*v = 0;
	if (!json_is_integer(x))
		return rd_bad(r, path, "expected an integer");
	*v = (int64_t)json_integer_value(x);
	return EXIT_OK;
}

int rd_string(struct rd *r, json_t *x, const char *path, const char **s)
{
	*s = "";
	if (!json_is_string(x))
		return rd_bad(r, path, "expected a string");
	*s = json_string_value(x);
	return EXIT_OK;
}

int rd_boolean(struct rd *r, json_t *x, const char *path, bool *b)
{
	*b = false;
	if (!json_is_boolean(x))
		return rd_bad(r, path, "expected true or false");
	*b = json_is_true(x);
	return EXIT_OK;
}

/* An array of exactly @n entries (0: up to 64). */
int rd_array(struct rd *r, json_t *a, const char *path, size_t n)
{
	if (!json_is_array(a))
		return rd_bad(r, path, "expected an array");
	if (n ? json_array_size(a) != n : json_array_size(a) > 64)
		return rd_bad(r, path, "expected %zu entries, it has %zu", n ? n : 64, json_array_size(a));
	return EXIT_OK;
}

/* The section @key of @o: absent, null (MLX_NULL), or there. */
json_t *rd_section(json_t *o, const char *key, uint8_t *have)
{
	json_t *x = json_object_get(o, key);

	if (x && json_is_null(x))
		*have = MLX_NULL;
	return rd_given(x) ? x : NULL;
}

/* ---- params ---- */

/* A knob's value in FILE as the text the catalogue's parser takes. */
static int knob_text(struct rd *r, const struct mlx_knob *k, json_t *x, const char *path, char *buf,
		     size_t len)
{
	switch (k->type) {
	case MLX_KT_BOOL:
		if (!json_is_boolean(x))
			return rd_bad(r, path, "expected a boolean (%s is on or off)", k->name);
		snprintf(buf, len, "%s", json_is_true(x) ? "on" : "off");
		return EXIT_OK;
	case MLX_KT_U32:
	case MLX_KT_U64:
		if (!json_is_integer(x))
			return rd_bad(r, path, "expected an integer");
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(x));
		return EXIT_OK;
	case MLX_KT_STRING:
		if (!json_is_string(x))
			return rd_bad(r, path, "expected a string");
		if (strlen(json_string_value(x)) >= len)
			return rd_bad(r, path, "'%s' is too long for %s", json_string_value(x), k->name);
		snprintf(buf, len, "%s", json_string_value(x));
		return EXIT_OK;
	}
	return rd_bad(r, path, "a knob of no known type");
}

static int params(struct rd *r, json_t *port, const char *path, struct mlx_params_settings *ps)
{
	struct mlx_ctx *ctx = r->cli->ctx;
	json_t *o = rd_section(port, "params", &ps->have), *x;
	char p[160], text[MLX_VAL_STR_MAX];
	const char *k;
	int rc;

	if (!o)
		return EXIT_OK;
	P(p, "%s.params", path);
	if (!json_is_object(o))
		return rd_bad(r, p, "expected an object");
	ps->have = MLX_SET;
	json_object_foreach(o, k, x) {
		const struct mlx_knob *kn = mlx_knob_find(k);
		struct mlx_val v = mlx_val_null();

		P(p, "%s.params.%s", path, k);
		/* a name the catalogue lacks: a private flag the port may report
		 * (state lists every one; the plan asks the device) */
		if (!kn && mlx_privflag_name_ok(k) && (json_is_boolean(x) || json_is_null(x))) {
			if (!json_is_null(x) && ((rc = knob_text(r, &mlx_knob_any_privflag, x, p, text,
								   sizeof(text))) ||
						 mlx_params_parse_value(ctx, &mlx_knob_any_privflag, text,
									&v) < 0))
				return rc ? rc : rd_refused(r, p);
			if (mlx_params_put_privflag(ctx, ps, k, v) < 0)
				return rd_refused(r, p);
			continue;
		}
		/* ... a number or a word: a devlink parameter in cmode permanent
		 * the catalogue lacks, which state names in params_applies (the
		 * file says it is one: else it is no knob, found here with its
		 * path), typed by the plan from the device's type */
		if (!kn && mlx_privflag_name_ok(k) && (json_is_integer(x) || json_is_string(x)) &&
		    json_is_string(json_object_get(json_object_get(port, "params_applies"), k)) &&
		    !strcmp(json_string_value(json_object_get(json_object_get(port, "params_applies"),
							       k)), "firmware-reset")) {
			if (json_is_integer(x) && json_integer_value(x) < 0)
				return rd_bad(r, p, "expected a number of at least 0");
			if (json_is_string(x) && strlen(json_string_value(x)) >= sizeof(text))
				return rd_bad(r, p, "'%s' is too long for %s", json_string_value(x), k);
			v = json_is_integer(x) ? mlx_val_uint((uint64_t)json_integer_value(x))
					       : mlx_val_str(json_string_value(x));
			if (mlx_params_put_devlink(ctx, ps, k, v) < 0)
				return rd_refused(r, p);
			continue;
		}
		if (!kn)
			return rd_bad(r, p, "no knob '%s' (mlxcli params info lists them; a private flag "
				      "the device reports takes true or false; a firmware NV setting the "
				      "catalogue lacks is named in params_applies)", k);
		if (kn->src == MLX_KS_MODULE)
			return rd_bad(r, p, "a module parameter (mlx5_core's, the host's, not a port's): not "
				   "in the desired state; params set or modprobe.d sets it");
		if (!mlx_params_state_knob(kn))
			return rd_bad(r, p, "an RDMA knob, not in a port's params (the RDMA CM's defaults are "
				   "its \"roce\" section)");
		if (!json_is_null(x)) {
			if ((rc = knob_text(r, kn, x, p, text, sizeof(text))))
				return rc;
			if (mlx_params_parse_value(ctx, kn, text, &v) < 0)
				return rd_refused(r, p);
		}
		if (mlx_params_put(ctx, ps, kn, v) < 0)
			return rd_refused(r, p);
	}
	return EXIT_OK;
}

/*
 * "params_applies" (issue 27): what `state` says of its firmware NV knobs
 * (knob -> "firmware-reset").  Information for the reader: the plan asks
 * the device when a knob applies, so apply checks the shape and names and
 * goes by the device's answer; a state without it (before issue 27) is
 * the same desired state.
 */
static int params_applies(struct rd *r, json_t *port, const char *path)
{
	json_t *o = json_object_get(port, "params_applies"), *x;
	char p[160];
	const char *k;

	if (!o || json_is_null(o))
		return EXIT_OK;
	P(p, "%s.params_applies", path);
	if (!json_is_object(o))
		return rd_bad(r, p, "expected an object (knob -> when it takes effect)");
	json_object_foreach(o, k, x) {
		const char *v = json_is_string(x) ? json_string_value(x) : NULL;
		bool known = false;

		P(p, "%s.params_applies.%s", path, k);
		if (!mlx_knob_find(k) && !(mlx_privflag_name_ok(k) &&
					    json_object_get(json_object_get(port, "params"), k)))
			return rd_bad(r, p, "no knob '%s' in params (mlxcli params info lists them)", k);
		for (int a = MLX_KA_RUNTIME; v && a <= MLX_KA_FIRMWARE && !known; a++)
			known = !strcmp(v, mlx_knob_apply_name((enum mlx_knob_apply)a));
		if (!known)
			return rd_bad(r, p, "expected one of runtime, driver-reload, reboot, "
				      "firmware-reset");
	}
	return EXIT_OK;
}

/* ---- roce ---- */

static int roce(struct rd *r, json_t *port, const char *path, struct mlx_roce_settings *rs)
{
	static const char *const k[] = { "default_roce_mode", "default_roce_tos", NULL };
	json_t *x = rd_section(port, "roce", &rs->have), *v;
	char p[160], q[200];
	int64_t tos;
	const char *s;
	int rc;

	if (!x)
		return EXIT_OK;
	P(p, "%s.roce", path);
	if ((rc = rd_keys(r, x, p, k)))
		return rc;
	rs->have = MLX_SET;
	P(q, "%s.default_roce_mode", p);
	if ((v = rd_section(x, "default_roce_mode", &rs->mode_h)) &&
	    ((rc = rd_string(r, v, q, &s)) || mlx_roce_put_mode(r->cli->ctx, rs, s) < 0))
		return rc ? rc : rd_refused(r, q);
	P(q, "%s.default_roce_tos", p);
	if ((v = rd_section(x, "default_roce_tos", &rs->tos_h)) &&
	    ((rc = rd_integer(r, v, q, &tos)) || mlx_roce_put_tos(r->cli->ctx, rs, tos) < 0))
		return rc ? rc : rd_refused(r, q);
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
		return rd_bad(r, p, "expected an object");
	if ((rc = rd_keys(r, v, p, k)))
		return rc;
	rd_path(q, sizeof(q), p, "vf");
	if ((rc = rd_integer(r, json_object_get(v, "vf"), q, &n)))
		return rc;
	if (n < 0 || n > 65535)
		return rd_bad(r, q, "%" PRId64 " is out of range (0-65535)", n);
	if (mlx_sriov_vf(ctx, s, (uint32_t)n, false))
		return rd_bad(r, q, "VF %" PRId64 " is named twice", n);
	if (!(vs = mlx_sriov_vf(ctx, s, (uint32_t)n, true)))
		return rd_refused(r, q);
#define FIELD(key, h, get, put) do { \
		rd_path(q, sizeof(q), p, key); \
		x = rd_section(v, key, &vs->h); \
		if (x && ((rc = get) || (put) < 0)) \
			return rc ? rc : rd_refused(r, q); \
	} while (0)
	FIELD("mac", mac_h, rd_string(r, x, q, &str), mlx_vf_put_mac(ctx, vs, str));
	FIELD("vlan", vlan_h, rd_integer(r, x, q, &n), mlx_vf_put_vlan(ctx, vs, n));
	FIELD("qos", qos_h, rd_integer(r, x, q, &n), mlx_vf_put_qos(ctx, vs, n));
	FIELD("vlan_protocol", proto_h, rd_string(r, x, q, &str), mlx_vf_put_proto(ctx, vs, str));
	FIELD("min_tx_rate_mbps", min_h, rd_integer(r, x, q, &n), mlx_vf_put_rate(ctx, vs, false, n));
	FIELD("max_tx_rate_mbps", max_h, rd_integer(r, x, q, &n), mlx_vf_put_rate(ctx, vs, true, n));
	FIELD("spoofchk", spoofchk_h, rd_boolean(r, x, q, &b), (vs->spoofchk = b, vs->spoofchk_h = MLX_SET, 0));
	FIELD("trusted", trust_h, rd_boolean(r, x, q, &b), (vs->trust = b, vs->trust_h = MLX_SET, 0));
	FIELD("link_state", link_h, rd_string(r, x, q, &str), mlx_vf_put_link_state(ctx, vs, str));
#undef FIELD
	return EXIT_OK;
}

static int sriov(struct rd *r, json_t *port, const char *path, struct mlx_sriov_settings *s)
{
	static const char *const k[] = { "num_vfs", "eswitch_mode", "vfs", NULL };
	json_t *x = rd_section(port, "sriov", &s->have), *v, *e;
	char p[160], q[200];
	const char *str;
	int64_t n;
	size_t i;
	int rc;

	if (!x)
		return EXIT_OK;
	P(p, "%s.sriov", path);
	if ((rc = rd_keys(r, x, p, k)))
		return rc;
	s->have = MLX_SET;
	P(q, "%s.num_vfs", p);
	if ((v = rd_section(x, "num_vfs", &s->numvfs_h))) {
		if ((rc = rd_integer(r, v, q, &n)))
			return rc;
		if (n < 0 || n > 65535)
			return rd_bad(r, q, "%" PRId64 " is out of range (0-65535)", n);
		s->numvfs_h = MLX_SET;
		s->numvfs = (unsigned)n;
	}
	P(q, "%s.eswitch_mode", p);
	if ((v = rd_section(x, "eswitch_mode", &s->esw_h))) {
		if ((rc = rd_string(r, v, q, &str)))
			return rc;
		if (mlx_eswitch_mode_parse(str, &s->esw_mode) < 0)
			return rd_bad(r, q, "'%s' is not one of the values it takes", str);
		s->esw_h = MLX_SET;
	}
	P(q, "%s.vfs", p);
	if (!(v = rd_section(x, "vfs", &s->vfs_h)))
		return EXIT_OK;
	if (!json_is_array(v))
		return rd_bad(r, q, "expected an array of VFs");
	s->vfs_h = MLX_SET;
	json_array_foreach(v, i, e) {
		P(q, "%s.vfs[%zu]", p, i);
		if ((rc = vf(r, e, q, s)))
			return rc;
	}
	return EXIT_OK;
}

/* ---- link: pause, speed/duplex/autonegotiation, FEC (issue 27) ---- */

/* A boolean of a section: absent or null leaves it alone. */
static int flag(struct rd *r, json_t *o, const char *parent, const char *key, uint8_t *have,
		bool *v, uint8_t *section)
{
	char q[200];
	json_t *x = rd_section(o, key, have);
	int rc;

	if (!x)
		return EXIT_OK;
	rd_path(q, sizeof(q), parent, key);
	if ((rc = rd_boolean(r, x, q, v)))
		return rc;
	*have = *section = MLX_SET;
	return EXIT_OK;
}

static int link(struct rd *r, json_t *port, const char *path, struct mlx_link_settings *l)
{
	static const char *const k[] = { "autoneg", "speed_mbps", "duplex", "fec", "pause", NULL };
	static const char *const pk[] = { "autoneg", "rx", "tx", NULL };
	struct mlx_ctx *ctx = r->cli->ctx;
	json_t *x = rd_section(port, "link", &l->have), *v;
	char p[160], q[200];
	const char *str;
	int64_t n;
	int rc;

	if (!x)
		return EXIT_OK;
	P(p, "%s.link", path);
	if ((rc = rd_keys(r, x, p, k)))
		return rc;
	if ((rc = flag(r, x, p, "autoneg", &l->autoneg_h, &l->autoneg, &l->have)))
		return rc;
	P(q, "%s.speed_mbps", p);
	if ((v = rd_section(x, "speed_mbps", &l->speed_h)) &&
	    ((rc = rd_integer(r, v, q, &n)) || mlx_link_put_speed(ctx, l, n) < 0))
		return rc ? rc : rd_refused(r, q);
	P(q, "%s.duplex", p);
	if ((v = rd_section(x, "duplex", &l->duplex_h)) &&
	    ((rc = rd_string(r, v, q, &str)) || mlx_link_put_duplex(ctx, l, str) < 0))
		return rc ? rc : rd_refused(r, q);
	P(q, "%s.fec", p);
	if ((v = rd_section(x, "fec", &l->fec_h)) &&
	    ((rc = rd_string(r, v, q, &str)) || mlx_link_put_fec(ctx, l, str) < 0))
		return rc ? rc : rd_refused(r, q);
	P(q, "%s.pause", p);
	if (!(v = json_object_get(x, "pause")) || json_is_null(v))
		return EXIT_OK;
	if ((rc = rd_keys(r, v, q, pk)) ||
	    (rc = flag(r, v, q, "autoneg", &l->pause_autoneg_h, &l->pause_autoneg, &l->have)) ||
	    (rc = flag(r, v, q, "rx", &l->pause_rx_h, &l->pause_rx, &l->have)) ||
	    (rc = flag(r, v, q, "tx", &l->pause_tx_h, &l->pause_tx, &l->have)))
		return rc;
	return EXIT_OK;
}

/* ---- health: each devlink health reporter's policy (issue 27) ---- */

static int reporter(struct rd *r, json_t *o, const char *p, struct mlx_health_settings *h)
{
	static const char *const k[] = {
		"reporter", "port_index", "grace_period_ms", "auto_recover", "auto_dump", NULL,
	};
	struct mlx_ctx *ctx = r->cli->ctx;
	struct mlx_health_policy *hp;
	uint8_t any = 0;
	int64_t port = -1, n;
	char q[200];
	const char *name;
	json_t *x;
	int rc;

	if ((rc = rd_keys(r, o, p, k)))
		return rc;
	rd_path(q, sizeof(q), p, "reporter");
	if ((rc = rd_string(r, json_object_get(o, "reporter"), q, &name)))
		return rc;
	if (!*name)
		return rd_bad(r, q, "an empty string names no reporter");
	rd_path(q, sizeof(q), p, "port_index");
	if (rd_given(x = json_object_get(o, "port_index"))) {
		if ((rc = rd_integer(r, x, q, &port)))
			return rc;
		if (port < 0 || port > UINT32_MAX)
			return rd_bad(r, q, "%" PRId64 " is out of range (0-4294967295)", port);
	}
	rd_path(q, sizeof(q), p, "reporter");
	if (!(hp = mlx_health_put_reporter(ctx, h, name, port)))
		return rd_refused(r, q);
	rd_path(q, sizeof(q), p, "grace_period_ms");
	if ((x = rd_section(o, "grace_period_ms", &hp->grace_h)) &&
	    ((rc = rd_integer(r, x, q, &n)) || mlx_health_put_grace(ctx, hp, n) < 0))
		return rc ? rc : rd_refused(r, q);
	if ((rc = flag(r, o, p, "auto_recover", &hp->recover_h, &hp->auto_recover, &any)) ||
	    (rc = flag(r, o, p, "auto_dump", &hp->dump_h, &hp->auto_dump, &any)))
		return rc;
	return EXIT_OK;
}

static int health(struct rd *r, json_t *port, const char *path, struct mlx_health_settings *h)
{
	json_t *x = rd_section(port, "health", &h->have), *e;
	char p[160];
	size_t i;
	int rc;

	if (!x)
		return EXIT_OK;
	P(p, "%s.health", path);
	if (!json_is_array(x))
		return rd_bad(r, p, "expected an array of health reporters");
	h->have = MLX_SET;
	json_array_foreach(x, i, e) {
		P(p, "%s.health[%zu]", path, i);
		if (!json_is_object(e))
			return rd_bad(r, p, "expected an object");
		if ((rc = reporter(r, e, p, h)))
			return rc;
	}
	return EXIT_OK;
}

/* ---- a port, a document ---- */

static int port(struct rd *r, json_t *o, const char *path, struct doc_port *dp)
{
	static const char *const k[] = {
		"pci_address", "netdev", "match", "dcbx", "trust", "dscp2prio", "pfc", "ets", "tcs",
		"buffer", "dcqcn", "params", "params_applies", "roce", "sriov", "link", "health",
		NULL,
	};
	static const char *const mk[] = { "product", "function", NULL };
	struct mlx_port_settings *w = dp->want;
	char p[160], q[200];
	json_t *x;
	const char *s;
	int rc;

	if ((rc = rd_keys(r, o, path, k)))
		return rc;
	for (int i = 0; i < 2; i++) {
		const char *key = i ? "netdev" : "pci_address";

		x = json_object_get(o, key);
		P(p, "%s.%s", path, key);
		if (!rd_given(x))
			continue;
		if (!json_is_string(x))
			return rd_bad(r, p, "expected a string");
		if (!*json_string_value(x))
			return rd_bad(r, p, "an empty string names no port");
		*(i ? &dp->netdev : &dp->pci) = json_string_value(x);
		snprintf(i ? w->netdev : w->pci_address, sizeof(w->netdev), "%s", json_string_value(x));
	}
	if ((x = json_object_get(o, "match"))) {
		P(p, "%s.match", path);
		if ((rc = rd_keys(r, x, p, mk)))
			return rc;
		dp->match = true;
		P(q, "%s.product", p);
		if (json_object_get(x, "product") && (rc = rd_string(r, json_object_get(x, "product"), q, &dp->product)))
			return rc;
		P(q, "%s.function", p);
		if (json_object_get(x, "function")) {
			if ((rc = rd_string(r, json_object_get(x, "function"), q, &s)))
				return rc;
			if (strcmp(s, "pf") && strcmp(s, "vf"))
				return rd_bad(r, q, "'%s' is not one of the values it takes", s);
			dp->vf = !strcmp(s, "vf");
		}
	}
	if (!dp->pci && !dp->netdev && !dp->match)
		return rd_bad(r, path, "names no port: give pci_address, netdev or match");
	if ((rc = rd_qos_dcqcn(r, o, path, w)) || (rc = params(r, o, path, &w->params)) ||
	    (rc = params_applies(r, o, path)) || (rc = roce(r, o, path, &w->roce)) ||
	    (rc = sriov(r, o, path, &w->sriov)) || (rc = link(r, o, path, &w->link)) ||
	    (rc = health(r, o, path, &w->health)))
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
	if ((rc = rd_keys(&r, root, "$", k)))
		return rc;
	sv = json_object_get(root, "schema_version");
	if (sv) {
		int64_t v;

		if ((rc = rd_integer(&r, sv, "schema_version", &v)))
			return rc;
		/* a state's shape is the same in every version so far (3
		 * changed only counters' documents) */
		if (v < 1 || v > OUT_SCHEMA_VERSION)
			return rd_bad(&r, "schema_version", "%" PRId64 " is out of range (1-%d)", v,
				      OUT_SCHEMA_VERSION);
	}
	ports = json_object_get(root, "ports");
	if (!json_is_array(ports))
		return rd_bad(&r, "ports", "expected an array of ports");
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
