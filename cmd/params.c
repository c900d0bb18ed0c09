/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli params [show] [-d DEV] [--source S] [--diff] [KNOB...]` and
 * `params info` (issue 17): the driver's knobs of every ConnectX port with
 * value, default, range, source, when a change applies and the Windows
 * registry key (mlxtool show regkeys config|diff|info, show driverparams,
 * mlx5cmd -RegKeys, -Features).  `params set` and `reset` are in
 * cmd/params-write.c.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "params.h"
#include "rdma.h"

static const char *const source_choices[] = {
	"privflag", "ring", "channel", "coalesce", "feature", "mtu", "devlink", "module", "rdma",
	"tunable", "napi", NULL,
};

const struct cmd_opt params_opts[] = {
	{ "source", 's', "S[,S...]", "only the knobs of these sources", source_choices, SRC_NONE,
	  OPT_LIST },
	{ "diff", 0, NULL, "only the knobs whose value differs from the default (regkeys diff)",
	  NULL },
	{ "any-netdev", 0, NULL, "accept any netdev as -d, not only a ConnectX port (ethtool and "
	  "MTU knobs only)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

/* How a port's knobs are printed: mlxcli's table, or mlx5cmd's layouts. */
enum view { V_TABLE, V_REGKEYS, V_FEATURES };

struct filter {
	bool src[MLX_KS_NSOURCES];
	bool diff;
	enum view view;
	bool dynamic;              /* V_REGKEYS: only what changes at run time */
	int argc;
	char **argv;               /* knob names; none: all */
	bool warned[MLX_KS_NSOURCES];  /* a source's failure said once */
};

/* info reads no device: --source only */
static const struct cmd_opt info_opts[] = {
	{ "source", 's', "S[,S...]", "only the knobs of these sources", source_choices, SRC_NONE,
	  OPT_LIST },
	{ NULL, 0, NULL, NULL, NULL },
};

static int parse_filter(struct cli *cli, int argc, char **argv, struct filter *f)
{
	const char *s = cli_opt(cli, "source");

	memset(f, 0, sizeof(*f));
	f->diff = cli_opt(cli, "diff") != NULL;
	f->argc = argc;
	f->argv = argv;
	for (int i = 0; i < argc; i++)
		if (!mlx_knob_find(argv[i])) {
			const char *c[256];
			size_t n = 0;

			for (size_t k = 0; k < mlx_nknobs && n < 256; k++)
				c[n++] = mlx_knobs[k].name;
			cli_error(cli, "no knob '%s'", argv[i]);
			if ((s = cli_suggest(argv[i], c, n)))
				cli_hint(cli, "did you mean '%s'?", s);
			else
				cli_hint(cli, "'mlxcli params info' lists them");
			return EXIT_USAGE;
		}
	if (!s) {
		for (unsigned i = 0; i < MLX_KS_NSOURCES; i++)
			f->src[i] = true;
		return 0;
	}
	/* a comma-separated list; the dispatcher checked each element */
	for (const char *p = s; *p;) {
		size_t l = strcspn(p, ",");
		char w[16];
		enum mlx_knob_source src;

		snprintf(w, sizeof(w), "%.*s", (int)(l < 15 ? l : 15), p);
		if (mlx_knob_source_parse(w, &src) < 0) {
			cli_error(cli, "no source '%s' (privflag, ring, channel, coalesce, feature, mtu, "
				  "devlink, module, rdma, tunable, napi)", w);
			return EXIT_USAGE;
		}
		f->src[src] = true;
		p += l + (p[l] == ',');
	}
	return 0;
}

static bool wanted(struct filter *f, const struct mlx_params *p, const struct mlx_knob_value *v)
{
	if (!f->src[v->src] ||
	    (f->diff && (!v->known || !mlx_params_default(p, v) || v->is_default)))
		return false;
	/* -RegKeys: the knobs with a registry key; -DynamicKeys: of those,
	 * the ones a change applies to at once */
	if (f->view == V_REGKEYS &&
	    (!v->k || !v->k->windows || (f->dynamic && v->apply != MLX_KA_RUNTIME)))
		return false;
	for (int i = 0; i < f->argc; i++)
		if (!strcmp(f->argv[i], v->name))
			return true;
	return f->argc == 0;
}

/* A value in its own JSON type: on/off and true/false as booleans, numbers
 * as integers, the rest as strings; NULL is null.  @fmt: its text line
 * (NULL: JSON only).  Also state's params (cmd/state.c): one typing. */
void params_out_value(struct out *o, const char *key, const char *fmt, const char *val, int t)
{
	enum out_to to = fmt ? OUT_ANY : OUT_JSON;
	uint64_t u;

	if (!val)
		out_fmt_null(o, to, key, fmt);
	else if (!strcmp(val, "on") || !strcmp(val, "true") ||
		 (t == MLX_KT_BOOL && !strcmp(val, "1")))
		out_fmt_bool(o, to, key, fmt, true);
	else if (!strcmp(val, "off") || !strcmp(val, "false") ||
		 (t == MLX_KT_BOOL && !strcmp(val, "0")))
		out_fmt_bool(o, to, key, fmt, false);
	else if (t != MLX_KT_STRING && mlx_parse_u64(val, &u) == 0)
		out_fmt_u64(o, to, key, fmt, u);
	else
		out_fmt_str(o, to, key, fmt, val);
}

static void out_scalar(struct out *o, const char *key, const char *val, enum mlx_knob_type t)
{
	params_out_value(o, key, NULL, val, t);
}

/* The catalogue's range as text (params info): choices, "64-8192", "1-"
 * (the device's maximum), or "-". */
static const char *range_str(const struct mlx_knob *k, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (!k)
		return "-";
	if (k->choices) {
		for (size_t i = 0; k->choices[i] && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "|" : "", k->choices[i]);
		return buf;
	}
	if (k->max)
		snprintf(buf, len, "%llu-%llu", (unsigned long long)k->min, (unsigned long long)k->max);
	else
		snprintf(buf, len, "%llu-", (unsigned long long)k->min);
	return buf;
}

static void out_choices(struct out *o, const struct mlx_knob *k)
{
	size_t n = 0;

	while (k->choices[n])
		n++;
	out_strv(o, "choices", NULL, k->choices, n);
}

static void out_range(struct out *o, const struct mlx_knob *k)
{
	if (!k)
		return;
	if (k->choices) {
		out_choices(o, k);
	} else {
		out_u64(o, "min", NULL, k->min);
		if (k->max)
			out_u64(o, "max", NULL, k->max);
	}
}

/* A knob's range on its device (issue 25): the device's own bounds (MTU,
 * ring and channel maxima), else the catalogue's where they hold for the
 * driver (mlx5's), else none beyond the type's: "68-65535", "0-" */
static void out_device_range(struct out *o, const struct mlx_params *p,
			     const struct mlx_knob_value *v)
{
	const struct mlx_knob *k = v->k;
	uint64_t lo, hi;
	char buf[96];

	if (!k) {
		out_text(o, "RANGE", "-");
		return;
	}
	if (k->choices || !mlx_params_range(p, v, &lo, &hi)) {
		out_text(o, "RANGE", range_str(k, buf, sizeof(buf)));
		if (k->choices)
			out_choices(o, k);
		return;
	}
	if (hi == (k->type == MLX_KT_U32 ? UINT32_MAX : UINT64_MAX) && !v->maximum[0])
		snprintf(buf, sizeof(buf), "%llu-", (unsigned long long)lo);
	else
		snprintf(buf, sizeof(buf), "%llu-%llu", (unsigned long long)lo, (unsigned long long)hi);
	out_text(o, "RANGE", buf);
	out_u64(o, "min", NULL, lo);
	if (buf[strlen(buf) - 1] != '-')
		out_u64(o, "max", NULL, hi);
}

static void out_knob_value(struct out *o, const struct mlx_params *p,
			   const struct mlx_knob_value *v)
{
	const struct mlx_knob *k = v->k;
	enum mlx_knob_type t = k ? k->type : v->src == MLX_KS_PRIVFLAG ? MLX_KT_BOOL : MLX_KT_U32;
	const char *dflt = mlx_params_default(p, v);
	char val[160];
	uint64_t u;

	out_row_begin(o);
	out_str(o, "name", "NAME", v->name);
	snprintf(val, sizeof(val), "%s%s", v->known ? v->value : "?", v->fixed ? " [fixed]" : "");
	out_text(o, "VALUE", val);
	out_scalar(o, "current", v->known ? v->value : NULL, t);
	/* a default that holds for another driver only is nobody's here */
	out_text(o, "DEFAULT", dflt ? dflt : "?");
	out_scalar(o, "default_value", dflt, t);
	out_device_range(o, p, v);
	if (v->maximum[0] && mlx_parse_u64(v->maximum, &u) == 0)
		out_u64(o, "device_max", NULL, u);
	out_text(o, "UNIT", k && k->unit ? k->unit : "-");
	if (k && k->unit)
		out_str(o, "unit", NULL, k->unit);
	out_str(o, "source", "SOURCE", mlx_knob_source_name(v->src));
	out_str(o, "applies", "APPLIES", mlx_knob_apply_name(v->apply));
	if (v->known && dflt)
		out_bool(o, "at_default", NULL, v->is_default);
	else
		out_null(o, "at_default", NULL);
	out_bool(o, "fixed", NULL, v->fixed);
	out_str(o, "windows_key", "WINDOWS", k ? k->windows : NULL);
	out_str(o, "default_from", NULL, !k ? "unknown: not in the catalogue" :
		dflt || !k->dflt ? k->dflt_from : "unknown on this driver: the catalogue's default "
		"is mlx5's");
	out_row_end(o);
}

static size_t count_wanted(const struct mlx_params *p, struct filter *f)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n; i++)
		n += wanted(f, p, &p->v[i]);
	return n;
}

/* mlx5cmd -RegKeys: "\tKEY (knob): VALUE", the layout of its -Dcqcn -Get */
static void out_regkey(struct out *o, const struct mlx_knob_value *v)
{
	char key[160];

	out_obj_begin(o, NULL, NULL);
	snprintf(key, sizeof(key), "%s (%s)", v->k->windows, v->name);
	out_str(o, "key", NULL, v->k->windows);
	out_str(o, "knob", NULL, v->name);
	out_fmt_str(o, OUT_TEXT, NULL, "\t%s: ", key);
	out_fmt_str(o, OUT_TEXT, NULL, "%s\n", v->known ? v->value : "?");
	out_scalar(o, "current", v->known ? v->value : NULL, v->k->type);
	out_bool(o, "dynamic", NULL, v->apply == MLX_KA_RUNTIME);
	out_obj_end(o);
}

/* mlx5cmd -Features: a name line and "\tState: Enabled|Disabled".  As in
 * the manual, a feature the device cannot turn on prints Disabled; the
 * JSON tells "unsupported" apart. */
static void out_feature(struct out *o, const struct mlx_knob_value *v)
{
	bool on = v->known && (!strcmp(v->value, "on") || !strcmp(v->value, "true"));
	const char *state = !v->known ? NULL : on ? "enabled" : v->fixed ? "unsupported" : "disabled";

	out_obj_begin(o, NULL, NULL);
	out_fmt_str(o, OUT_ANY, "name", "%s\n", v->name);
	out_str(o, "kernel_name", NULL, v->k ? v->k->kname : v->name);
	out_str(o, "source", NULL, mlx_knob_source_name(v->src));
	out_fmt_str(o, OUT_TEXT, NULL, "\tState: %s\n", !v->known ? "Unknown" :
		    on ? "Enabled" : "Disabled");
	out_str(o, "state", NULL, state);
	out_bool(o, "fixed", NULL, v->fixed);
	out_obj_end(o);
}

static void out_knobs(struct cli *cli, const struct mlx_params *p, struct filter *f)
{
	struct out *o = cli->out;

	if (f->view == V_TABLE) {
		out_table_begin(o, "knobs");
		for (size_t i = 0; i < p->n; i++)
			if (wanted(f, p, &p->v[i]))
				out_knob_value(o, p, &p->v[i]);
		out_table_end(o);
	} else {
		out_list_begin(o, f->view == V_REGKEYS ? "registry_keys" : "features", NULL);
		for (size_t i = 0; i < p->n; i++)
			if (wanted(f, p, &p->v[i]))
				(f->view == V_REGKEYS ? out_regkey : out_feature)(o, &p->v[i]);
		out_list_end(o);
	}
	/* a source that did not answer: its knobs are missing, say why (once;
	 * a kernel without the interface, or a file that is not there, is
	 * just an absent source) */
	for (unsigned s = 0; s < MLX_KS_NSOURCES; s++) {
		int e = p->err[s];

		if (!f->src[s] || !e || f->warned[s])
			continue;
		f->warned[s] = true;
		if (e == -ENODATA)
			cli_warn(cli, "%s knobs: the capture has no such replies (made before "
				 "'params' existed?)", mlx_knob_source_name(s));
		else if (e != -ENOENT && e != -EOPNOTSUPP)
			cli_warn(cli, "%s knobs of %s: %s", mlx_knob_source_name(s), p->object,
				 mlx_errmsg(cli->ctx)[0] ? mlx_errmsg(cli->ctx) : strerror(-e));
	}
}

/* One port's table. */
static int show_port(struct cli *cli, struct mlx_params_cache *c, const char *ifname,
		     const char *bdf, bool pf, const struct mlx_devlink_name *dl,
		     const struct mlx_port *port, struct filter *f)
{
	struct mlx_params p;
	struct out *o = cli->out;
	char label[160];
	int r;

	/* devlink parameters are per function: listed with its first port */
	r = mlx_params_port(cli->ctx, c, ifname, dl ? dl->bus : NULL, dl ? dl->dev : bdf, pf, &p);
	if (r == 0 && port && port->rdma_dev[0] && f->src[MLX_KS_RDMA])
		r = mlx_params_rdma(cli->ctx, port->rdma_dev, port->rdma_port ? port->rdma_port : 1,
				    &p);
	if (r < 0) {
		mlx_params_free(&p);
		return r;
	}
	/* a port the filter leaves empty is not listed (--diff: only the
	 * ports that differ) */
	if (count_wanted(&p, f)) {
		if (bdf)
			snprintf(label, sizeof(label), "%s (%s, %s)", ifname ? ifname : bdf, bdf,
				 pf ? "pf" : "vf");
		else if (dl)
			snprintf(label, sizeof(label), "%s (%s/%s, not a ConnectX port)", ifname,
				 dl->bus, dl->dev);
		else
			snprintf(label, sizeof(label), "%s (not a ConnectX port)", ifname);
		if (f->view == V_TABLE) {
			out_obj_begin(o, NULL, label);
		} else {
			/* mlx5cmd names the adapter in a heading line */
			out_obj_begin(o, NULL, NULL);
			out_printf(o, "%s for adapter \"%s\":\n", f->view == V_REGKEYS ?
				   "Registry keys" : "Features", ifname ? ifname : bdf);
		}
		out_str(o, "pci_address", NULL, bdf);
		out_str(o, "netdev", NULL, ifname);
		out_str(o, "role", NULL, bdf ? (pf ? "pf" : "vf") : NULL);
		if (dl) {
			char h[sizeof(dl->bus) + sizeof(dl->dev) + 1];

			snprintf(h, sizeof(h), "%s/%s", dl->bus, dl->dev);
			out_str(o, "devlink_handle", NULL, h);
		}
		out_knobs(cli, &p, f);
		out_obj_end(o);
	}
	mlx_params_free(&p);
	return 0;
}

/* --any-netdev -d NAME where NAME is no ConnectX port: that netdev's
 * ethtool knobs and MTU (a veth in the kernel tests), the RDMA CM's knobs
 * of the RDMA port on it, if any (rdma_rxe on a veth), and the devlink
 * parameters of the device it sits on, if any (a netdevsim port). */
static int show_other_netdev(struct cli *cli, struct filter *f, bool *done)
{
	struct mlx_params_cache *c;
	struct mlx_port rp = { .ifindex = -1 };
	struct mlx_devlink_name dl;
	bool have_dl;
	uint32_t pn = 0;
	int r = cli_other_netdev(cli, done);

	if (r || !*done)
		return r;
	if (mlx_rdma_port_of_netdev(cli->ctx, cli->device, rp.rdma_dev, sizeof(rp.rdma_dev), &pn) == 0)
		rp.rdma_port = pn;
	have_dl = mlx_netdev_device(cli->ctx, cli->device, dl.bus, sizeof(dl.bus), dl.dev,
				    sizeof(dl.dev)) == 0;
	mlx_err_clear(cli->ctx);     /* a veth sits on no device */
	r = mlx_params_cache_new(cli->ctx, &c);
	if (r == 0) {
		out_list_begin(cli->out, "params", NULL);
		r = show_port(cli, c, cli->device, NULL, false, have_dl ? &dl : NULL,
			      rp.rdma_dev[0] ? &rp : NULL, f);
		out_list_end(cli->out);
		mlx_params_cache_free(c);
	}
	return r < 0 ? cli_fail(cli, r, "params") : EXIT_OK;
}

static int show(struct cli *cli, struct filter *f)
{
	struct mlx_devices *devs;
	struct mlx_function *sel;
	struct mlx_params_cache *c;
	struct mlx_params p;
	struct out *o = cli->out;
	bool done;
	int r;

	r = show_other_netdev(cli, f, &done);
	if (r || done)
		return r;
	r = cli_select(cli, &sel, NULL);
	if (r)
		return r;
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	r = mlx_params_cache_new(cli->ctx, &c);
	if (r < 0)
		return cli_fail(cli, r, "params");
	out_list_begin(o, "params", NULL);
	for (size_t i = 0; i < devs->nfn && r == 0; i++) {
		const struct mlx_function *fn = &devs->fn[i];
		bool pf = fn->role == MLX_FN_PF;

		if (sel && fn != sel)
			continue;
		for (size_t j = 0; j < (fn->nports ? fn->nports : 1) && r == 0; j++) {
			const char *ifname = fn->nports && fn->ports[j].ifname[0] ? fn->ports[j].ifname
										     : NULL;

			r = show_port(cli, c, ifname, j == 0 ? fn->bdf : NULL, pf, NULL,
				      fn->nports ? &fn->ports[j] : NULL, f);
		}
	}
	out_list_end(o);
	if (r == 0 && (f->src[MLX_KS_MODULE]) && !sel) {
		r = mlx_params_module(cli->ctx, &p);
		if (r == 0 && !count_wanted(&p, f)) {
			mlx_params_free(&p);
		} else if (r == 0) {
			out_obj_begin(o, "kernel_module", "mlx5_core (module parameters)");
			out_str(o, "name", NULL, "mlx5_core");
			out_knobs(cli, &p, f);
			out_obj_end(o);
			mlx_params_free(&p);
		}
	}
	mlx_params_cache_free(c);
	if (r < 0)
		return cli_fail(cli, r, "params");
	if (!devs->nfn)
		cli_say_no_devices(cli, devs);
	return EXIT_OK;
}

int cmd_params_show(struct cli *cli, int argc, char **argv)
{
	struct filter f;
	int r = parse_filter(cli, argc, argv, &f);

	return r ? r : show(cli, &f);
}

/* `params info` (regkeys info): the catalogue: defaults, ranges, where the
 * default comes from, the Windows key; no device needed. */
static int cmd_params_info(struct cli *cli, int argc, char **argv)
{
	struct filter f;
	struct out *o = cli->out;
	int r = parse_filter(cli, argc, argv, &f);

	if (r)
		return r;
	out_table_begin(o, "knobs");
	for (size_t i = 0; i < mlx_nknobs; i++) {
		const struct mlx_knob *k = &mlx_knobs[i];
		char range[96];

		if (!f.src[k->src])
			continue;
		if (f.argc) {
			bool hit = false;

			for (int a = 0; a < f.argc; a++)
				hit |= !strcmp(f.argv[a], k->name);
			if (!hit)
				continue;
		}
		out_row_begin(o);
		out_str(o, "name", "NAME", k->name);
		out_str(o, "source", "SOURCE", mlx_knob_source_name(k->src));
		out_text(o, "DEFAULT", k->dflt ? k->dflt : "?");
		out_scalar(o, "default_value", k->dflt, k->type);
		out_text(o, "RANGE", range_str(k, range, sizeof(range)));
		out_range(o, k);
		out_text(o, "UNIT", k->unit ? k->unit : "-");
		if (k->unit)
			out_str(o, "unit", NULL, k->unit);
		out_str(o, "applies", "APPLIES", mlx_knob_apply_name(k->apply));
		out_str(o, "windows_key", "WINDOWS", k->windows);
		out_str(o, "default_from", NULL, k->dflt_from);
		out_str(o, "description", NULL, k->desc);
		out_row_end(o);
	}
	out_table_end(o);
	return EXIT_OK;
}

/* ---- mlxtool's forms (seeds-mlxtool-dmn-counters.md §1.2) ------------------ */

/* mlxtool names the interface as a word: "show regkeys config IF". */
static int tool_device(struct cli *cli, int argc, char **argv)
{
	if (!argc)
		return EXIT_OK;
	if (cli->device && strcmp(cli->device, argv[0])) {
		cli_error(cli, "give the interface once: '%s' or -d %s", argv[0], cli->device);
		return EXIT_USAGE;
	}
	cli->device = argv[0];
	return EXIT_OK;
}

/* show regkeys config [IF]: the values in effect (= params show) */
static int cmd_regkeys_config(struct cli *cli, int argc, char **argv)
{
	struct filter f;
	int r = tool_device(cli, argc, argv);

	if (!r)
		r = parse_filter(cli, 0, NULL, &f);
	return r ? r : show(cli, &f);
}

/* show regkeys diff [IF]: the knobs off their defaults (= params --diff) */
static int cmd_regkeys_diff(struct cli *cli, int argc, char **argv)
{
	struct filter f;
	int r = tool_device(cli, argc, argv);

	if (!r)
		r = parse_filter(cli, 0, NULL, &f);
	f.diff = true;
	return r ? r : show(cli, &f);
}

/* show regkeys info [IF]: default, min and max: the catalogue, or with IF
 * the device's table (its maxima) */
static int cmd_regkeys_info(struct cli *cli, int argc, char **argv)
{
	return argc ? cmd_regkeys_config(cli, argc, argv) : cmd_params_info(cli, 0, NULL);
}

/* params regkeys [--dynamic] (mlx5cmd -RegKeys [-DynamicKeys] [-Name IF]):
 * the knobs that have a Windows registry key, as those keys */
static int cmd_params_regkeys(struct cli *cli, int argc, char **argv)
{
	struct filter f;
	int r = tool_device(cli, argc, argv);

	if (!r)
		r = parse_filter(cli, 0, NULL, &f);
	if (r)
		return r;
	f.view = V_REGKEYS;
	f.dynamic = cli_opt(cli, "dynamic") != NULL;
	return show(cli, &f);
}

/* params features (mlx5cmd -Features [-Name IF]): the offload features and
 * private flags, each "State: Enabled|Disabled" */
static int cmd_params_features(struct cli *cli, int argc, char **argv)
{
	struct filter f;
	int r = tool_device(cli, argc, argv);

	if (!r)
		r = parse_filter(cli, 0, NULL, &f);
	if (r)
		return r;
	f.view = V_FEATURES;
	memset(f.src, 0, sizeof(f.src));
	f.src[MLX_KS_FEATURE] = f.src[MLX_KS_PRIVFLAG] = true;
	return show(cli, &f);
}

/* show driverparams IF: the data-path knobs a change applies at once
 * (rings, channels, coalescing, private flags), default, range, current */
int cmd_params_driverparams(struct cli *cli, int argc, char **argv)
{
	static const enum mlx_knob_source dp[] = { MLX_KS_RING, MLX_KS_CHANNEL, MLX_KS_COALESCE,
						   MLX_KS_PRIVFLAG };
	struct filter f;
	int r = tool_device(cli, argc, argv);

	if (!r)
		r = parse_filter(cli, 0, NULL, &f);
	if (r)
		return r;
	memset(f.src, 0, sizeof(f.src));
	for (size_t i = 0; i < sizeof(dp) / sizeof(dp[0]); i++)
		f.src[dp[i]] = true;
	return show(cli, &f);
}

/* modify driverparams IF NAME=VALUE... (= params set -d IF) */
int cmd_modify_driverparams(struct cli *cli, int argc, char **argv)
{
	int r;

	/* the form arrives as given, or with -d IF already */
	if (cli->device && argc && strchr(argv[0], '='))
		return cmd_params_set(cli, argc, argv);
	if (argc < 2) {
		cli_error(cli, "modify driverparams takes the interface and NAME=VALUE...");
		return EXIT_USAGE;
	}
	r = tool_device(cli, 1, argv);
	return r ? r : cmd_params_set(cli, argc - 1, argv + 1);
}

static const struct cmd_arg if_arg[] = {
	{ "IF", NULL, SRC_NETDEVS, ARG_OPTIONAL },
	CMD_ARG_END,
};

const struct cmd_arg params_if_arg[] = {
	{ "IF", NULL, SRC_NETDEVS, 0 },
	CMD_ARG_END,
};

const struct cmd_arg params_modify_args[] = {
	{ "IF", NULL, SRC_NETDEVS, 0 },
	{ "NAME=VALUE", NULL, SRC_KNOB_NAMES, ARG_REPEAT },
	CMD_ARG_END,
};

static const struct cmd regkeys_cmds[] = {
	{ "config", "", "the knobs' values in effect (as 'mlxcli params show')", cmd_regkeys_config,
	  0, 1, 0, NULL, NULL, NULL, NULL, if_arg },
	{ "diff", "", "the knobs off their defaults (as 'mlxcli params --diff')", cmd_regkeys_diff,
	  0, 1, 0, NULL, NULL, NULL, NULL, if_arg },
	{ "info", "", "default, range and unit of each knob (as 'mlxcli params info'; with IF "
	  "that port's table with its maxima)", cmd_regkeys_info, 0, 1, 0, NULL, NULL, NULL, NULL,
	  if_arg },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group regkeys_group = { "regkeys", "mlxtool's registry-key views of the knobs",
					 "mlxcli-params(8)", regkeys_cmds };


static const struct cmd_arg knob_args[] = {
	{ "KNOB", NULL, SRC_KNOB_NAMES, ARG_OPTIONAL | ARG_REPEAT },
	CMD_ARG_END,
};

static const struct cmd_opt regkeys_opts[] = {
	{ "dynamic", 0, NULL, "only the keys a change applies to at run time (-DynamicKeys)",
	  NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct cmd params_cmds[] = {
	{ "show", "", "every knob of every port: value, default, range, source, when it applies, "
	  "Windows key (as 'mlxcli params')", cmd_params_show, 0, -1, 0, NULL, params_opts, NULL,
	  NULL, knob_args },
	{ "info", "", "the catalogue: each knob's default and where it comes from, range, unit, "
	  "Windows key (regkeys info)", cmd_params_info, 0, -1, CMD_NO_SCAN, NULL, info_opts,
	  NULL, NULL, knob_args },
	{ "regkeys", "", "the knobs as the Windows registry keys they correspond to (mlx5cmd "
	  "-RegKeys)", cmd_params_regkeys, 0, 1, 0, NULL, regkeys_opts, NULL, NULL, if_arg },
	{ "features", "", "offload features and private flags as 'State: Enabled|Disabled' "
	  "(mlx5cmd -Features)", cmd_params_features, 0, 1, 0, NULL, NULL, NULL, NULL, if_arg },
	{ "set", "", "set knobs of one port, all or nothing, read back (regkeys and driverparams "
	  "modify)", cmd_params_set, 1, -1, CMD_WRITES | CMD_NEEDS_DEVICE, NULL, params_set_opts,
	  NULL, NULL, params_set_args },
	{ "reset", "", "return knobs of one port to their defaults (without KNOB: every one "
	  "with a known default)", cmd_params_reset, 0, -1, CMD_WRITES | CMD_NEEDS_DEVICE, NULL,
	  params_write_opts, NULL, NULL, knob_args },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group params_group = { "params", "the driver's knobs", "mlxcli-params(8)",
					params_cmds };
