/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli apply`: the validation of a desired-state file (DESIGN.md
 * "Security": desired-state files are data, validated in full before
 * anything is applied).  The schema is `mlxcli state -j`'s
 * (mlxcli-state(8)), plus a port's "match" selector.  Every key is known,
 * every value has its type and range, or the file is refused (exit 2) with
 * the JSON path of the first fault: nothing is read from a device before
 * the whole file passed.  The checks here need no device; what depends on
 * one (a TC beyond the port's count, a parameter its layout lacks) is
 * checked by the plans, which run in full as a dry run before any write.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "apply-cmd.h"
#include "dcb.h"
#include "dcqcn.h"
#include "params.h"
#include "state-cmd.h"

static int bad(struct apply_file *f, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad(struct apply_file *f, const char *path, const char *fmt, ...)
{
	char msg[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cli_error(f->cli, "%s: %s: %s; nothing was changed", f->name, path, msg);
	return EXIT_USAGE;
}

/* @o is an object whose keys are all in @allowed (NULL-terminated). */
static int keys(struct apply_file *f, json_t *o, const char *path, const char *const *allowed)
{
	const char *k;
	json_t *v;

	if (!json_is_object(o))
		return bad(f, path, "expected an object");
	json_object_foreach(o, k, v) {
		size_t i;

		for (i = 0; allowed[i] && strcmp(allowed[i], k); i++)
			;
		if (!allowed[i])
			return bad(f, path, "unknown key '%s'", k);
	}
	return EXIT_OK;
}

static int uint_in(struct apply_file *f, json_t *x, const char *path, json_int_t min,
		   json_int_t max)
{
	if (!json_is_integer(x))
		return bad(f, path, "expected an integer");
	if (json_integer_value(x) < min || json_integer_value(x) > max)
		return bad(f, path, "%" JSON_INTEGER_FORMAT " is out of range (%" JSON_INTEGER_FORMAT
			   "-%" JSON_INTEGER_FORMAT ")", json_integer_value(x), min, max);
	return EXIT_OK;
}

static int one_of(struct apply_file *f, json_t *x, const char *path, const char *const *words)
{
	if (!json_is_string(x))
		return bad(f, path, "expected a string");
	for (size_t i = 0; words[i]; i++)
		if (!strcmp(words[i], json_string_value(x)))
			return EXIT_OK;
	return bad(f, path, "'%s' is not one of the values it takes", json_string_value(x));
}

/* An array of integers @min-@max: exactly @n of them (0: any count up to 64). */
static int int_list(struct apply_file *f, json_t *a, const char *path, size_t n, json_int_t min,
		    json_int_t max)
{
	char p[160];
	size_t i;
	json_t *x;
	int r;

	if (!json_is_array(a))
		return bad(f, path, "expected an array");
	if (n ? json_array_size(a) != n : json_array_size(a) > 64)
		return bad(f, path, "expected %zu entries, it has %zu", n ? n : 64, json_array_size(a));
	json_array_foreach(a, i, x) {
		snprintf(p, sizeof(p), "%s[%zu]", path, i);
		r = uint_in(f, x, p, min, max);
		if (r)
			return r;
	}
	return EXIT_OK;
}

#define SUB(buf, path, key) snprintf(buf, sizeof(buf), "%s.%s", path, key)

static int check_dcb(struct apply_file *f, json_t *port, const char *path)
{
	static const char *const dcbx_keys[] = { "mode", NULL };
	static const char *const dcbx_modes[] = { "host", "firmware", NULL };
	static const char *const trusts[] = { "pcp", "dscp", NULL };
	static const char *const d2p_keys[] = { "dscp", "priority", NULL };
	static const char *const pfc_keys[] = { "enabled_priorities", "cable_length_m", NULL };
	static const char *const ets_keys[] = { "prio_tc", NULL };
	static const char *const tc_keys[] = { "tc", "tsa", "bandwidth_pct", "max_rate_mbps", NULL };
	static const char *const tsas[] = { "strict", "ets", "vendor", "cbs", NULL };
	static const char *const buf_keys[] = { "prio2buffer", "size_bytes", "source", NULL };
	char p[160], q[200];
	json_t *x, *e;
	size_t i;
	int r = EXIT_OK;

	if ((x = json_object_get(port, "dcbx")) && !json_is_null(x)) {
		SUB(p, path, "dcbx");
		r = keys(f, x, p, dcbx_keys);
		SUB(q, p, "mode");
		if (!r && json_object_get(x, "mode"))
			r = one_of(f, json_object_get(x, "mode"), q, dcbx_modes);
		if (r)
			return r;
	}
	if ((x = json_object_get(port, "trust")) && !json_is_null(x)) {
		SUB(p, path, "trust");
		r = one_of(f, x, p, trusts);
		if (r)
			return r;
	}
	if ((x = json_object_get(port, "dscp2prio")) && !json_is_null(x)) {
		uint64_t seen = 0;

		SUB(p, path, "dscp2prio");
		if (!json_is_array(x))
			return bad(f, p, "expected an array of {dscp, priority}");
		json_array_foreach(x, i, e) {
			snprintf(q, sizeof(q), "%s[%zu]", p, i);
			if ((r = keys(f, e, q, d2p_keys)))
				return r;
			if (!json_object_get(e, "dscp") || !json_object_get(e, "priority"))
				return bad(f, q, "needs both dscp and priority");
			snprintf(q, sizeof(q), "%s[%zu].dscp", p, i);
			if ((r = uint_in(f, json_object_get(e, "dscp"), q, 0, 63)))
				return r;
			if (seen >> json_integer_value(json_object_get(e, "dscp")) & 1)
				return bad(f, q, "DSCP %" JSON_INTEGER_FORMAT " is listed twice",
					   json_integer_value(json_object_get(e, "dscp")));
			seen |= 1ull << json_integer_value(json_object_get(e, "dscp"));
			snprintf(q, sizeof(q), "%s[%zu].priority", p, i);
			if ((r = uint_in(f, json_object_get(e, "priority"), q, 0, 7)))
				return r;
		}
		x = json_object_get(port, "trust");
		if (json_array_size(json_object_get(port, "dscp2prio")) && json_is_string(x) &&
		    !strcmp(json_string_value(x), "pcp"))
			return bad(f, p, "a DSCP map with trust pcp: mlx5 trusts DSCP as soon as the "
				   "map has an entry (make the map [] or trust dscp)");
	}
	if ((x = json_object_get(port, "pfc")) && !json_is_null(x)) {
		SUB(p, path, "pfc");
		if ((r = keys(f, x, p, pfc_keys)))
			return r;
		SUB(q, p, "enabled_priorities");
		if (json_object_get(x, "enabled_priorities") &&
		    (r = int_list(f, json_object_get(x, "enabled_priorities"), q, 0, 0, 7)))
			return r;
		SUB(q, p, "cable_length_m");
		if (json_object_get(x, "cable_length_m") &&
		    (r = uint_in(f, json_object_get(x, "cable_length_m"), q, 0, MLX_DCB_MAX_CABLE_LEN)))
			return r;
	}
	if ((x = json_object_get(port, "ets")) && !json_is_null(x)) {
		SUB(p, path, "ets");
		if ((r = keys(f, x, p, ets_keys)))
			return r;
		SUB(q, p, "prio_tc");
		if (json_object_get(x, "prio_tc") &&
		    (r = int_list(f, json_object_get(x, "prio_tc"), q, 8, 0, 7)))
			return r;
	}
	if ((x = json_object_get(port, "tcs")) && !json_is_null(x)) {
		SUB(p, path, "tcs");
		if (!json_is_array(x) || json_array_size(x) > 8)
			return bad(f, p, "expected an array of at most 8 traffic classes");
		json_array_foreach(x, i, e) {
			json_t *bw;

			snprintf(q, sizeof(q), "%s[%zu]", p, i);
			if ((r = keys(f, e, q, tc_keys)))
				return r;
			if (!json_object_get(e, "tc"))
				return bad(f, q, "needs its tc");
			snprintf(q, sizeof(q), "%s[%zu].tc", p, i);
			if ((r = uint_in(f, json_object_get(e, "tc"), q, 0, 7)))
				return r;
			snprintf(q, sizeof(q), "%s[%zu].tsa", p, i);
			if (json_object_get(e, "tsa") && (r = one_of(f, json_object_get(e, "tsa"), q, tsas)))
				return r;
			snprintf(q, sizeof(q), "%s[%zu].bandwidth_pct", p, i);
			bw = json_object_get(e, "bandwidth_pct");
			if (bw && !json_is_null(bw) && (r = uint_in(f, bw, q, 0, 100)))
				return r;
			snprintf(q, sizeof(q), "%s[%zu].max_rate_mbps", p, i);
			if (json_object_get(e, "max_rate_mbps") &&
			    (r = uint_in(f, json_object_get(e, "max_rate_mbps"), q, 0, 4000000)))
				return r;
		}
	}
	if ((x = json_object_get(port, "buffer")) && !json_is_null(x)) {
		SUB(p, path, "buffer");
		if ((r = keys(f, x, p, buf_keys)))
			return r;
		SUB(q, p, "prio2buffer");
		if (json_object_get(x, "prio2buffer") &&
		    (r = int_list(f, json_object_get(x, "prio2buffer"), q, 8, 0, DCBX_MAX_BUFFERS - 1)))
			return r;
		SUB(q, p, "size_bytes");
		if (json_object_get(x, "size_bytes") &&
		    (r = int_list(f, json_object_get(x, "size_bytes"), q, 8, 0, UINT32_MAX)))
			return r;
	}
	return EXIT_OK;
}

const struct mlx_dcqcn_param *apply_dcqcn_param(const char *name, enum mlx_dcqcn_side side)
{
	size_t n;
	const struct mlx_dcqcn_param *t = mlx_dcqcn_params(&n);

	for (size_t i = 0; i < n; i++) {
		char fname[64];

		if (t[i].prio >= 0 || t[i].side != side)
			continue;
		/* the name state renders (MLNX_OFED's file name first) */
		mlx_dcqcn_name(&t[i], side, MLX_DCQCN_NONE, MLX_DCQCN_FILE, fname, sizeof(fname));
		if (!strcmp(fname, name))
			return &t[i];
	}
	return NULL;
}

static int check_dcqcn_side(struct apply_file *f, json_t *s, const char *path,
			    enum mlx_dcqcn_side side)
{
	static const char *const side_keys[] = { "enable", "parameters", NULL };
	static const char *const par_keys[] = { "name", "value", NULL };
	char p[200];
	json_t *x, *e;
	size_t i;
	int r;

	if ((r = keys(f, s, path, side_keys)))
		return r;
	if ((x = json_object_get(s, "enable"))) {
		snprintf(p, sizeof(p), "%s.enable", path);
		if (!json_is_array(x) || json_array_size(x) != 8)
			return bad(f, p, "expected 8 entries (true, false or null), one per priority");
		json_array_foreach(x, i, e)
			if (!json_is_boolean(e) && !json_is_null(e)) {
				snprintf(p, sizeof(p), "%s.enable[%zu]", path, i);
				return bad(f, p, "expected true, false or null");
			}
	}
	if ((x = json_object_get(s, "parameters"))) {
		snprintf(p, sizeof(p), "%s.parameters", path);
		if (!json_is_array(x))
			return bad(f, p, "expected an array of {name, value}");
		json_array_foreach(x, i, e) {
			const struct mlx_dcqcn_param *pa;
			json_t *v;

			snprintf(p, sizeof(p), "%s.parameters[%zu]", path, i);
			if ((r = keys(f, e, p, par_keys)))
				return r;
			if (!json_is_string(json_object_get(e, "name")))
				return bad(f, p, "needs its name (a string)");
			pa = apply_dcqcn_param(json_string_value(json_object_get(e, "name")), side);
			if (!pa)
				return bad(f, p, "no DCQCN parameter '%s' on the %s side",
					   json_string_value(json_object_get(e, "name")),
					   side == MLX_DCQCN_RP ? "rp" : "np");
			v = json_object_get(e, "value");
			snprintf(p, sizeof(p), "%s.parameters[%zu].value", path, i);
			if (v && !json_is_null(v) &&
			    (r = uint_in(f, v, p, (json_int_t)pa->min,
					 pa->max > INT64_MAX ? INT64_MAX : (json_int_t)pa->max)))
				return r;
		}
	}
	return EXIT_OK;
}

/* A value that is there (null: leave it alone). */
#define GIVEN(o, k) (json_object_get(o, k) && !json_is_null(json_object_get(o, k)))

/* sriov.vfs: state -j's VF objects; "vf" names the VF. */
static int check_vfs(struct apply_file *f, json_t *vfs, const char *path)
{
	static const char *const vf_keys[] = {
		"vf", "mac", "vlan", "qos", "vlan_protocol", "min_tx_rate_mbps", "max_tx_rate_mbps",
		"spoofchk", "trusted", "link_state", NULL,
	};
	static const char *const states[] = { "auto", "enable", "disable", NULL };
	static const struct { const char *k; json_int_t max; } num[] = {
		{ "vlan", 4095 }, { "qos", 7 }, { "min_tx_rate_mbps", UINT32_MAX },
		{ "max_tx_rate_mbps", UINT32_MAX },
	};
	char p[160], q[200];
	uint8_t mac[6];
	json_t *v, *x;
	size_t i;
	int r;

	if (!json_is_array(vfs))
		return bad(f, path, "expected an array of VFs");
	json_array_foreach(vfs, i, v) {
		snprintf(p, sizeof(p), "%s[%zu]", path, i);
		if (!json_is_object(v))
			return bad(f, p, "expected an object");
		if ((r = keys(f, v, p, vf_keys)))
			return r;
		SUB(q, p, "vf");
		if ((r = uint_in(f, json_object_get(v, "vf"), q, 0, 65535)))
			return r;
		for (size_t k = 0; k < i; k++)
			if (json_equal(json_object_get(json_array_get(vfs, k), "vf"),
				       json_object_get(v, "vf")))
				return bad(f, q, "VF %" JSON_INTEGER_FORMAT " is named twice",
					   json_integer_value(json_object_get(v, "vf")));
		SUB(q, p, "mac");
		if (GIVEN(v, "mac") && (!json_is_string(x = json_object_get(v, "mac")) ||
					mlx_parse_mac(json_string_value(x), mac) < 0))
			return bad(f, q, "expected a MAC address (xx:xx:xx:xx:xx:xx)");
		for (size_t k = 0; k < sizeof(num) / sizeof(num[0]); k++) {
			SUB(q, p, num[k].k);
			if (GIVEN(v, num[k].k) && (r = uint_in(f, json_object_get(v, num[k].k), q, 0,
								 num[k].max)))
				return r;
		}
		for (const char *const *k = (const char *const[]){ "spoofchk", "trusted", NULL }; *k;
		     k++) {
			SUB(q, p, *k);
			if (GIVEN(v, *k) && !json_is_boolean(json_object_get(v, *k)))
				return bad(f, q, "expected true or false");
		}
		SUB(q, p, "link_state");
		if (GIVEN(v, "link_state") && (r = one_of(f, json_object_get(v, "link_state"), q, states)))
			return r;
		/* IFLA_VF_VLAN writes 802.1Q; 802.1ad needs IFLA_VF_VLAN_LIST */
		SUB(q, p, "vlan_protocol");
		if (GIVEN(v, "vlan_protocol") &&
		    (r = one_of(f, json_object_get(v, "vlan_protocol"), q,
				(const char *const[]){ "0x8100", NULL })))
			return r;
	}
	return EXIT_OK;
}

/* params: knob name -> value, each a knob of state's "params" (the
 * catalogue's, not the module's or rdma_cm's, or a private flag the
 * catalogue lacks) whose value has the knob's JSON type and passes the
 * catalogue's parser (range, choices). */
static int check_params(struct apply_file *f, json_t *o, const char *path)
{
	struct mlx_ctx *ctx = f->cli->ctx;
	const char *k;
	char p[160], text[MLX_VAL_STR_MAX];
	struct mlx_val v;
	json_t *x;

	if (!json_is_object(o))
		return bad(f, path, "expected an object");
	json_object_foreach(o, k, x) {
		const struct mlx_knob *kn = mlx_knob_find(k);

		SUB(p, path, k);
		/* a name the catalogue lacks: a private flag the port may
		 * report (state lists every one; the plan asks the device) */
		if (!kn && mlx_privflag_name_ok(k) && (json_is_boolean(x) || json_is_null(x)))
			kn = &mlx_knob_any_privflag;
		if (!kn)
			return bad(f, p, "no knob '%s' (mlxcli params info lists them; a private flag "
				   "the device reports takes true or false)", k);
		if (kn->src == MLX_KS_MODULE)
			return bad(f, p, "a module parameter (mlx5_core's, the host's, not a port's): "
				   "not in the desired state; params set or modprobe.d sets it");
		if (!state_knob_in(kn))
			return bad(f, p, "an RDMA knob, not in a port's params (the RDMA CM's "
				   "defaults are its \"roce\" section)");
		if (json_is_null(x))
			continue;
		if (apply_knob_text(ctx, kn, x, text, sizeof(text)) < 0 ||
		    mlx_params_parse_value(ctx, kn, text, &v) < 0) {
			bad(f, p, "%s", mlx_errmsg(ctx));
			mlx_err_clear(ctx);
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

static int check_port(struct apply_file *f, json_t *port, const char *path)
{
	static const char *const port_keys[] = {
		"pci_address", "netdev", "match", "dcbx", "trust", "dscp2prio", "pfc", "ets", "tcs",
		"buffer", "dcqcn", "params", "roce", "sriov", NULL,
	};
	static const char *const match_keys[] = { "product", "function", NULL };
	static const char *const fns[] = { "pf", "vf", NULL };
	static const char *const dcqcn_keys[] = { "layout", "rp", "np", NULL };
	static const char *const roce_keys[] = { "default_roce_mode", "default_roce_tos", NULL };
	static const char *const sriov_keys[] = { "num_vfs", "eswitch_mode", "vfs", NULL };
	char p[160], q[200];
	json_t *x;
	int r;

	if ((r = keys(f, port, path, port_keys)))
		return r;
	for (const char *const *k = (const char *const[]){ "pci_address", "netdev", NULL }; *k; k++) {
		x = json_object_get(port, *k);
		SUB(p, path, *k);
		if (x && !json_is_null(x) && !json_is_string(x))
			return bad(f, p, "expected a string");
	}
	if ((x = json_object_get(port, "match"))) {
		SUB(p, path, "match");
		if ((r = keys(f, x, p, match_keys)))
			return r;
		SUB(q, p, "product");
		if (json_object_get(x, "product") && !json_is_string(json_object_get(x, "product")))
			return bad(f, q, "expected a string");
		SUB(q, p, "function");
		if (json_object_get(x, "function") && (r = one_of(f, json_object_get(x, "function"), q, fns)))
			return r;
	}
	if (!json_is_string(json_object_get(port, "pci_address")) &&
	    !json_is_string(json_object_get(port, "netdev")) && !json_object_get(port, "match"))
		return bad(f, path, "names no port: give pci_address, netdev or match");
	if ((r = check_dcb(f, port, path)))
		return r;
	if ((x = json_object_get(port, "dcqcn")) && !json_is_null(x)) {
		SUB(p, path, "dcqcn");
		if ((r = keys(f, x, p, dcqcn_keys)))
			return r;
		SUB(q, p, "rp");
		if (json_object_get(x, "rp") &&
		    (r = check_dcqcn_side(f, json_object_get(x, "rp"), q, MLX_DCQCN_RP)))
			return r;
		SUB(q, p, "np");
		if (json_object_get(x, "np") &&
		    (r = check_dcqcn_side(f, json_object_get(x, "np"), q, MLX_DCQCN_NP)))
			return r;
	}
	if ((x = json_object_get(port, "params")) && !json_is_null(x)) {
		SUB(p, path, "params");
		if ((r = check_params(f, x, p)))
			return r;
	}
	if ((x = json_object_get(port, "roce")) && !json_is_null(x)) {
		SUB(p, path, "roce");
		if ((r = keys(f, x, p, roce_keys)))
			return r;
		SUB(q, p, "default_roce_mode");
		/* the kernel's names (ib_cache_gid_type_str) */
		if (GIVEN(x, "default_roce_mode") &&
		    (r = one_of(f, json_object_get(x, "default_roce_mode"), q,
				(const char *const[]){ "IB/RoCE v1", "RoCE v2", NULL })))
			return r;
		SUB(q, p, "default_roce_tos");
		if (json_object_get(x, "default_roce_tos") &&
		    !json_is_null(json_object_get(x, "default_roce_tos")) &&
		    (r = uint_in(f, json_object_get(x, "default_roce_tos"), q, 0, 255)))
			return r;
	}
	if ((x = json_object_get(port, "sriov")) && !json_is_null(x)) {
		SUB(p, path, "sriov");
		if ((r = keys(f, x, p, sriov_keys)))
			return r;
		SUB(q, p, "num_vfs");
		if (json_object_get(x, "num_vfs") && !json_is_null(json_object_get(x, "num_vfs")) &&
		    (r = uint_in(f, json_object_get(x, "num_vfs"), q, 0, 65535)))
			return r;
		SUB(q, p, "eswitch_mode");
		if (GIVEN(x, "eswitch_mode") &&
		    (r = one_of(f, json_object_get(x, "eswitch_mode"), q,
				(const char *const[]){ "legacy", "switchdev", NULL })))
			return r;
		SUB(q, p, "vfs");
		if (GIVEN(x, "vfs") && (r = check_vfs(f, json_object_get(x, "vfs"), q)))
			return r;
	}
	return EXIT_OK;
}

int apply_check(struct apply_file *f)
{
	static const char *const top_keys[] = { "schema_version", "ports", NULL };
	json_t *ports, *port, *sv;
	char p[32];
	size_t i;
	int r;

	if ((r = keys(f, f->doc, "$", top_keys)))
		return r;
	/* a state's shape is the same in every version so far (3 changed
	 * only counters' documents) */
	sv = json_object_get(f->doc, "schema_version");
	if (sv && (r = uint_in(f, sv, "schema_version", 1, OUT_SCHEMA_VERSION)))
		return r;
	ports = json_object_get(f->doc, "ports");
	if (!json_is_array(ports))
		return bad(f, "ports", "expected an array of ports");
	json_array_foreach(ports, i, port) {
		snprintf(p, sizeof(p), "ports[%zu]", i);
		if ((r = check_port(f, port, p)))
			return r;
	}
	return EXIT_OK;
}
