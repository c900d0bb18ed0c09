/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli counters [VIEW]` (issue 5) and `mlxcli show perfstats`.
 *
 * Views: show (default: every counter), watch (deltas and rates), cc (RoCE
 * congestion with the DCQCN state), prio (per-priority table), errors
 * (non-zero error and drop counters with what they usually mean).
 * `counters` is one command with a VIEW word rather than a group so that
 * the bare `mlxcli counters --group port` of the issue works.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "counters.h"
#include "dcqcn.h"
#include "counters-views.h"
#include "counters-phy.h"
#include "prom.h"

static const char *const formats[] = { "text", "json", "prometheus", NULL };

const struct cmd_opt counters_opts[] = {
	{ "group", 'g', "G[,G...]", "only the counters of these groups", mlx_counter_groups,
	  SRC_NONE, OPT_LIST },
	{ "filter", 'f', "REGEX", "only counters whose name matches REGEX (POSIX extended)", NULL },
	{ "nonzero", 'n', NULL, "only counters that are not zero", NULL },
	{ "format", 0, "FORMAT", "text, json (as -j) or prometheus", formats },
	{ "output", 0, "FILE", "with --format prometheus: write FILE atomically (a node_exporter "
	  "textfile)", NULL },
	{ "interval", 'i', "S", "watch: seconds between samples (default 1)", NULL },
	{ "count", 'c', "N", "watch: stop after N intervals (default: until interrupted)", NULL },
	{ "all", 'a', NULL, "watch: show counters that did not move too", NULL },
	{ "any-netdev", 0, NULL, "accept any netdev, not only a ConnectX port (ethtool "
	  "and netdev statistics only)", NULL },
	{ "describe", 0, NULL, "JSON: each counter an object with its catalogue entry (unit, "
	  "group, description...), as schema 2 had it", NULL },
	{ "catalogue", 0, NULL, "the catalogue entries of the counters shown, without values",
	  NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static bool group_ok(const struct sel *s, const struct mlx_counter *c)
{
	if (!s->ngroups)
		return true;
	for (size_t i = 0; i < s->ngroups; i++) {
		const char *g = s->groups[i];

		if (c && !strcmp(g, c->m->group))
			return true;
		if (!c && !strcmp(g, "phy"))
			return true;
		if (!c)
			continue;
		if (!strcmp(g, "errors") && (c->m->flags & (MLX_CF_ERROR | MLX_CF_DROP)))
			return true;
		if (!strcmp(g, "congestion") && (c->m->flags & MLX_CF_CC))
			return true;
	}
	return false;
}

bool keep(const struct mlx_counter *c, void *arg)
{
	const struct sel *s = arg;

	if (s->nonzero && (!c->valid || !c->value))
		return false;
	if (s->have_re && regexec(&s->re, c->name, 0, NULL, 0) != 0)
		return false;
	return group_ok(s, c);
}

bool phy_selected(const struct sel *s)
{
	return group_ok(s, NULL);
}

/* The phy rows are not catalogue counters: group "phy" only (c NULL above). */
bool phy_keep(const struct sel *s, const struct phy_row *w)
{
	if (s->nonzero && (!w->valid || !w->v))
		return false;
	if (s->have_re && regexec(&s->re, w->name, 0, NULL, 0) != 0)
		return false;
	return group_ok(s, NULL);
}

static int parse_sel(struct cli *cli, struct sel *s)
{
	const char *g = cli_opt(cli, "group"), *f = cli_opt(cli, "filter");

	memset(s, 0, sizeof(*s));
	s->nonzero = cli_opt(cli, "nonzero") != NULL;
	s->srcs = g ? 0 : MLX_CSRC_ALL;
	if (g) {
		char buf[256], *save = NULL;

		snprintf(buf, sizeof(buf), "%s", g);
		for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (!mlx_counter_group_valid(t)) {
				size_t ng = 0;
				const char *h;

				while (mlx_counter_groups[ng])
					ng++;
				h = cli_suggest(t, mlx_counter_groups, ng);

				cli_error(cli, "unknown counter group '%s'", t);
				if (h)
					cli_hint(cli, "did you mean '%s'?", h);
				return EXIT_USAGE;
			}
			if (s->ngroups < 16)
				snprintf(s->groups[s->ngroups++], sizeof(s->groups[0]), "%s", t);
			/* read only the sources the groups can select */
			s->srcs |= mlx_counter_group_sources(t);
		}
	}
	if (f) {
		int r = regcomp(&s->re, f, REG_EXTENDED | REG_NOSUB);

		if (r) {
			char msg[128];

			regerror(r, &s->re, msg, sizeof(msg));
			cli_error(cli, "invalid --filter '%s': %s", f, msg);
			return EXIT_USAGE;
		}
		s->have_re = true;
	}
	return EXIT_OK;
}

static void free_sel(struct sel *s)
{
	if (s->have_re)
		regfree(&s->re);
}

/* ---- targets --------------------------------------------------------------- */

void targets_free(struct targets *ts)
{
	free(ts->t);
	mlx_strv_free(ts->names);
	memset(ts, 0, sizeof(*ts));
}

/* The ConnectX port named @ifname, or NULL. */
static void find_port(struct mlx_devices *devs, const char *ifname, struct mlx_function **fn,
		      struct mlx_port **port)
{
	*fn = NULL;
	*port = NULL;
	for (size_t i = 0; i < devs->nfn; i++)
		for (size_t k = 0; k < devs->fn[i].nports; k++)
			if (!strcmp(devs->fn[i].ports[k].ifname, ifname)) {
				*fn = &devs->fn[i];
				*port = &devs->fn[i].ports[k];
				return;
			}
}

static int add_target(struct targets *ts, const struct mlx_function *fn, const struct mlx_port *p,
		      const char *ifname)
{
	struct mlx_ctarget *nt = realloc(ts->t, (ts->n + 1) * sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	ts->t = nt;
	ts->t[ts->n].fn = fn;
	ts->t[ts->n].port = p;
	ts->t[ts->n].ifname = ifname;
	ts->n++;
	return 0;
}

int get_targets(struct cli *cli, struct targets *ts)
{
	struct mlx_devices *devs;
	struct mlx_function *fn = NULL;
	struct mlx_port *port = NULL;
	int r;

	memset(ts, 0, sizeof(*ts));
	if (cli_opt(cli, "any-netdev") && !cli->device) {
		/* Every netdev of the system: ConnectX ports with all their
		 * sources, the others with ethtool and netdev statistics (a
		 * monitoring pipeline's one call). */
		size_t n = 0;

		r = cli_devices(cli, &devs);
		if (r)
			return r;
		r = mlx_netdev_list(cli->ctx, &ts->names, &n);
		if (r < 0)
			return cli_fail(cli, r, "cannot list the network interfaces");
		for (size_t i = 0; i < n; i++) {
			if (!mlx_name_is_safe(ts->names[i]) || strlen(ts->names[i]) >= MLX_IFNAME_LEN)
				continue;
			find_port(devs, ts->names[i], &fn, &port);
			if (add_target(ts, fn, port, port ? NULL : ts->names[i]) < 0)
				return EXIT_FAIL;
		}
		return EXIT_OK;
	}
	/* --any-netdev -d NAME: a netdev that is no ConnectX port has the
	 * ethtool and netdev sources; a ConnectX one is -d's usual path */
	if (cli->device) {
		bool other;

		r = cli_other_netdev(cli, &other);
		if (r)
			return r;
		if (other)
			return add_target(ts, NULL, NULL, cli->device) < 0 ? EXIT_FAIL : EXIT_OK;
	}
	r = cli_select(cli, &fn, &port);
	if (r)
		return r;
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	for (size_t i = 0; i < devs->nfn; i++) {
		struct mlx_function *f = &devs->fn[i];

		if (fn && f != fn)
			continue;
		for (size_t k = 0; k < f->nports; k++)
			if ((!port || &f->ports[k] == port) && add_target(ts, f, &f->ports[k], NULL) < 0)
				return EXIT_FAIL;
	}
	if (!devs->nfn)
		cli_say_no_devices(cli, devs);
	return EXIT_OK;
}

/* ---- rendering helpers ------------------------------------------------------ */

void out_port_ids(struct out *o, const struct mlx_counter_port *p)
{
	out_str(o, "pci_address", NULL, p->bdf[0] ? p->bdf : NULL);
	out_str(o, "netdev", NULL, p->ifname[0] ? p->ifname : NULL);
	if (p->rdma_dev[0]) {
		out_str(o, "rdma_device", NULL, p->rdma_dev);
		out_u64(o, "rdma_port", NULL, p->rdma_port);
	} else {
		out_null(o, "rdma_device", NULL);
		out_null(o, "rdma_port", NULL);
	}
	out_u64(o, "port", NULL, (uint64_t)p->port_label);
}

void port_title(const struct mlx_counter_port *p, char *buf, size_t len)
{
	if (p->rdma_dev[0])
		snprintf(buf, len, "%s %s (%s port %u)", p->bdf, p->ifname, p->rdma_dev, p->rdma_port);
	else
		snprintf(buf, len, "%s %s", p->bdf[0] ? p->bdf : "-", p->ifname);
}

/* Where each value came from: the sources read for the selection (a
 * --group reads only those its groups can select). */
static void out_sources(struct out *o, const struct mlx_counter_port *p, unsigned srcs)
{
	out_obj_begin(o, "sources", NULL);
	for (unsigned s = 0; s < MLX_CSRC_N; s++) {
		int e = p->err[s];

		if (!(srcs & (1u << s)))
			continue;
		out_str(o, mlx_csrc_name(s), NULL, e == 0 ? "ok" : e == -ENOENT ? "absent" :
			strerror(-e));
	}
	if (srcs & (1u << MLX_CSRC_ETHTOOL))
		out_str(o, "ethtool_names_from", NULL, p->err[MLX_CSRC_ETHTOOL] ? NULL :
			p->names_netlink ? "netlink" : "ioctl");
	out_obj_end(o);
}

void warn_port(struct cli *cli, const struct mlx_counter_port *p)
{
	if (p->gone)
		cli_warn(cli, "'%s' has vanished", p->ifname);
	/* A netdev that is not a ConnectX port may well have no driver
	 * statistics (lo, bridges, tun): its sources object says so. */
	else if (p->err[MLX_CSRC_ETHTOOL] && p->err[MLX_CSRC_ETHTOOL] != -ENOENT &&
		 !(p->err[MLX_CSRC_ETHTOOL] == -EOPNOTSUPP && !p->fn))
		cli_warn(cli, "no ethtool statistics for '%s': %s", p->ifname,
			 strerror(-p->err[MLX_CSRC_ETHTOOL]));
}

/* A port's object in a view: false (nothing begun) when its netdev is gone. */
static bool port_begin(struct cli *cli, const struct mlx_counter_port *p)
{
	char title[200];

	warn_port(cli, p);
	if (p->gone)
		return false;
	if (out_is_json(cli->out))
		title[0] = '\0';       /* a text label only */
	else
		port_title(p, title, sizeof(title));
	out_obj_begin(cli->out, NULL, title);
	out_port_ids(cli->out, p);
	return true;
}

/* ---- show ------------------------------------------------------------------ */

/* What a document shows besides the ports: its catalogue (compact JSON,
 * --catalogue), or schema 2's objects (--describe). */
struct doc {
	bool describe;
	bool only_catalogue;    /* --catalogue: the entries, no values */
	struct cat_set *cat;    /* NULL: none to collect */
};

/* The port's phy rows that pass @s; the module is read only when one can. */
static size_t out_phy_rows(struct cli *cli, const struct mlx_counter_port *p, const struct sel *s,
			   struct crender *r, struct cat_set *collect)
{
	static struct phy_rows rows;
	size_t shown = 0;

	if (!group_ok(s, NULL) || !p->ifname[0])
		return 0;
	phy_rows_read(cli, p, &rows);
	for (size_t k = 0; k < rows.n; k++)
		if (phy_keep(s, &rows.row[k])) {
			if (r)
				crender_phy(r, &rows.row[k]);
			else
				cat_collect_phy(collect, &rows.row[k]);
			shown++;
		}
	return shown;
}

/* Whether the view shows @c (errors: the error and drop counters above
 * zero). */
static bool view_keeps(const struct mlx_counter *c, struct sel *s, bool errors)
{
	if (!keep(c, s))
		return false;
	return !errors || ((c->m->flags & (MLX_CF_ERROR | MLX_CF_DROP)) && c->valid && c->value);
}

static int view_show(struct cli *cli, const struct mlx_counters *cs, struct sel *s, bool errors,
		     const struct doc *d)
{
	struct out *o = cli->out;
	size_t shown = 0;

	if (!d->only_catalogue)
		out_list_begin(o, "ports", NULL);
	for (size_t i = 0; i < cs->nports; i++) {
		const struct mlx_counter_port *p = &cs->ports[i];
		struct crender r;

		if (d->only_catalogue) {
			warn_port(cli, p);
			if (p->gone)
				continue;
			for (size_t k = 0; k < p->n; k++)
				if (view_keeps(&p->c[k], s, errors)) {
					cat_collect(d->cat, &p->c[k]);
					shown++;
				}
			if (!errors)
				shown += out_phy_rows(cli, p, s, NULL, d->cat);
			continue;
		}
		if (!port_begin(cli, p))
			continue;
		out_sources(o, p, s->srcs);
		crender_begin(&r, o, d->describe, errors, d->cat);
		for (size_t k = 0; k < p->n; k++)
			if (view_keeps(&p->c[k], s, errors)) {
				crender_counter(&r, &p->c[k]);
				shown++;
			}
		if (!errors)
			shown += out_phy_rows(cli, p, s, &r, NULL);
		crender_end(&r);
		out_obj_end(o);
	}
	if (!d->only_catalogue)
		out_list_end(o);
	if (errors && !shown)
		out_printf(o, "no error or drop counter is above zero\n");
	return EXIT_OK;
}

/* ---- cc -------------------------------------------------------------------- */

static void out_dcqcn(struct cli *cli, const struct mlx_counter_port *p,
		      const struct mlx_ctarget *t)
{
	struct out *o = cli->out;
	struct mlx_dcqcn_port dp;
	int state[2][8];

	out_obj_begin(o, "dcqcn", NULL);
	if (!t->fn || !t->port || mlx_dcqcn_open(cli->ctx, t->fn, t->port, &dp) < 0) {
		mlx_err_clear(cli->ctx);
		out_str(o, "layout", NULL, "none");
		out_text(o, "DCQCN", "not available on this port");
		out_obj_end(o);
		return;
	}
	mlx_dcqcn_prio_state(cli->ctx, &dp, state[0], state[1]);
	mlx_err_clear(cli->ctx);
	out_str(o, "layout", NULL, mlx_dcqcn_layout_name(dp.layout));
	for (int s = 0; s < 2; s++) {
		const char *key = s ? "np_enabled_priorities" : "rp_enabled_priorities";
		const char *label = s ? "DCQCN NP (notification point) enabled on priorities" :
				   "DCQCN RP (reaction point) enabled on priorities";
		char txt[64] = "";
		size_t at = 0, nen = 0;
		bool unknown = false;

		for (int prio = 0; prio < 8; prio++)
			unknown |= state[s][prio] < 0;
		/* No enable files (upstream): unknown, not "none". */
		if (unknown) {
			out_null(o, key, NULL);
			out_text(o, label, "unknown");
			continue;
		}
		out_list_begin(o, key, NULL);
		for (int prio = 0; prio < 8; prio++) {
			if (state[s][prio] != 1)
				continue;
			out_u64(o, NULL, NULL, (uint64_t)prio);
			at += (size_t)snprintf(txt + at, sizeof(txt) - at, "%s%d", nen++ ? "," : "", prio);
		}
		out_list_end(o);
		out_text(o, label, nen ? txt : "none");
	}
	out_obj_end(o);
}

/* cc shows the congestion counters; per-ring ECN marks are left out
 * (the port total is enough here). */
static bool cc_keeps(const struct mlx_counter *c, struct sel *s)
{
	return (c->m->flags & MLX_CF_CC) && keep(c, s) && strcmp(c->m->group, "queue");
}

static int view_cc(struct cli *cli, const struct mlx_counters *cs, struct sel *s,
		   const struct targets *ts, const struct doc *d)
{
	struct out *o = cli->out;

	if (!d->only_catalogue)
		out_list_begin(o, "ports", NULL);
	for (size_t i = 0; i < cs->nports; i++) {
		const struct mlx_counter_port *p = &cs->ports[i];
		struct crender r;

		if (d->only_catalogue) {
			warn_port(cli, p);
			for (size_t k = 0; !p->gone && k < p->n; k++)
				if (cc_keeps(&p->c[k], s))
					cat_collect(d->cat, &p->c[k]);
			continue;
		}
		if (!port_begin(cli, p))
			continue;
		out_dcqcn(cli, p, &ts->t[i]);
		crender_begin(&r, o, d->describe, false, d->cat);
		for (size_t k = 0; k < p->n; k++)
			if (cc_keeps(&p->c[k], s))
				crender_counter(&r, &p->c[k]);
		crender_end(&r);
		out_obj_end(o);
	}
	if (!d->only_catalogue)
		out_list_end(o);
	return EXIT_OK;
}

/* ---- prio ------------------------------------------------------------------ */

static const struct {
	const char *metric, *key, *label;
} prio_cols[] = {
	{ "prio_rx_bytes", "rx_bytes", "RX BYTES" },
	{ "prio_rx_packets", "rx_packets", "RX PACKETS" },
	{ "prio_tx_bytes", "tx_bytes", "TX BYTES" },
	{ "prio_tx_packets", "tx_packets", "TX PACKETS" },
	{ "prio_rx_pause", "rx_pause", "RX PAUSE" },
	{ "prio_rx_pause_duration", "rx_pause_duration_usec", "RX PAUSE us" },
	{ "prio_tx_pause", "tx_pause", "TX PAUSE" },
	{ "prio_tx_pause_duration", "tx_pause_duration_usec", "TX PAUSE us" },
	{ "prio_rx_discards", "rx_discards", "RX DISCARDS" },
	{ "prio_rx_buffer_discards", "rx_buffer_discards", "BUF DISCARDS" },
	{ "prio_rx_congestion_discards", "rx_congestion_discards", "CONG DISCARDS" },
	{ "prio_rx_ecn_marked", "rx_ecn_marked", "ECN MARKED" },
};
#define NPRIO_COLS (sizeof(prio_cols) / sizeof(prio_cols[0]))

static int view_prio(struct cli *cli, const struct mlx_counters *cs)
{
	struct out *o = cli->out;

	out_list_begin(o, "ports", NULL);
	for (size_t i = 0; i < cs->nports; i++) {
		const struct mlx_counter_port *p = &cs->ports[i];
		const struct mlx_counter *cell[8][NPRIO_COLS];
		char title[200];

		warn_port(cli, p);
		if (p->gone)
			continue;
		memset(cell, 0, sizeof(cell));
		for (size_t k = 0; k < p->n; k++) {
			const struct mlx_counter *c = &p->c[k];

			if (c->src != MLX_CSRC_ETHTOOL || !c->m->e || strcmp(c->m->group, "prio") ||
			    c->m->index < 0 || c->m->index > 7)
				continue;
			for (size_t col = 0; col < NPRIO_COLS; col++)
				if (!strcmp(c->m->metric, prio_cols[col].metric))
					cell[c->m->index][col] = c;
		}
		port_title(p, title, sizeof(title));
		out_obj_begin(o, NULL, title);
		out_port_ids(o, p);
		out_table_begin(o, "per_priority");
		for (int prio = 0; prio < 8; prio++) {
			out_row_begin(o);
			out_u64(o, "priority", "PRIO", (uint64_t)prio);
			for (size_t col = 0; col < NPRIO_COLS; col++) {
				if (cell[prio][col] && cell[prio][col]->valid)
					out_u64(o, prio_cols[col].key, prio_cols[col].label,
						cell[prio][col]->value);
				else
					out_null(o, prio_cols[col].key, prio_cols[col].label);
			}
			out_row_end(o);
		}
		out_table_end(o);
		out_obj_end(o);
	}
	out_list_end(o);
	return EXIT_OK;
}

/* ---- the command -------------------------------------------------------------- */

int cmd_counters(struct cli *cli, int argc, char **argv)
{
	/* The view is the command word ("counters watch"); "counters" alone
	 * is "counters show". */
	const char *view = cli->cmd->sub ? "show" : cli->cmd->name;
	const char *fmt = cli_opt(cli, "format");
	struct mlx_counters cs;
	struct mlx_cstate *st = NULL;
	struct doc d = { 0 };
	struct targets ts;
	struct sel s;
	int r;

	(void)argc;
	(void)argv;
	if (fmt && !strcmp(fmt, "json") && !cli->json) {
		/* --format json is -j: swap the (still empty) text output. */
		struct out *o = out_new(true, cli->pretty, cli->out_fp);

		if (!o)
			return EXIT_FAIL;
		out_free(cli->out);
		cli->out = o;
		cli->json = true;
	}
	if (fmt && !strcmp(fmt, "prometheus")) {
		if (cli->json) {
			cli_error(cli, "--format prometheus and -j/--json exclude each other");
			return EXIT_USAGE;
		}
		if (strcmp(view, "show")) {
			cli_error(cli, "--format prometheus is for 'mlxcli counters [show]', not '%s'",
				  view);
			return EXIT_USAGE;
		}
	}
	if (cli_opt(cli, "output") && (!fmt || strcmp(fmt, "prometheus"))) {
		cli_error(cli, "--output is for --format prometheus (a node_exporter textfile)");
		return EXIT_USAGE;
	}
	if (strcmp(view, "watch") && (cli_opt(cli, "interval") || cli_opt(cli, "count") ||
				      cli_opt(cli, "all"))) {
		cli_error(cli, "--interval, --count and --all belong to 'mlxcli counters watch'");
		return EXIT_USAGE;
	}
	d.describe = cli_opt(cli, "describe") != NULL;
	d.only_catalogue = cli_opt(cli, "catalogue") != NULL;
	if (d.describe || d.only_catalogue) {
		const char *opt = d.describe ? "--describe" : "--catalogue";

		if (d.describe && d.only_catalogue) {
			cli_error(cli, "--describe and --catalogue exclude each other");
			return EXIT_USAGE;
		}
		if (fmt && !strcmp(fmt, "prometheus")) {
			cli_error(cli, "%s and --format prometheus exclude each other", opt);
			return EXIT_USAGE;
		}
		if (!strcmp(view, "watch") || !strcmp(view, "prio")) {
			cli_error(cli, "%s is for 'mlxcli counters [show|cc|errors]', not '%s'", opt, view);
			return EXIT_USAGE;
		}
	}
	r = parse_sel(cli, &s);
	if (r)
		return r;
	r = get_targets(cli, &ts);
	if (r)
		goto out_sel;
	st = mlx_cstate_new();
	if (!st) {
		r = EXIT_FAIL;
		goto out;
	}
	if (!strcmp(view, "watch")) {
		r = view_watch(cli, st, &ts, &s);
		goto out;
	}
	/* The catalogue of what the document shows: once, at its end (the
	 * compact shape of show, cc and errors), or alone (--catalogue). */
	if (((cli->json && !d.describe) || d.only_catalogue) && strcmp(view, "prio") &&
	    !(fmt && !strcmp(fmt, "prometheus"))) {
		d.cat = cat_set_new();
		if (!d.cat) {
			r = EXIT_FAIL;
			goto out;
		}
	}
	/* Only the sources the view and the groups can show are read: prio
	 * is the driver's per-priority statistics. */
	r = mlx_counters_sample(cli->ctx, st, ts.t, ts.n,
				!strcmp(view, "prio") ? 1u << MLX_CSRC_ETHTOOL : s.srcs, &cs);
	if (r < 0) {
		r = cli_fail(cli, r, "cannot read the counters");
		goto out;
	}
	if (fmt && !strcmp(fmt, "prometheus")) {
		for (size_t i = 0; i < cs.nports; i++)
			warn_port(cli, &cs.ports[i]);
		r = prom_command(cli, &cs, keep, &s);
	} else if (!strcmp(view, "cc")) {
		r = view_cc(cli, &cs, &s, &ts, &d);
	} else if (!strcmp(view, "prio")) {
		r = view_prio(cli, &cs);
	} else {
		r = view_show(cli, &cs, &s, !strcmp(view, "errors"), &d);
	}
	if (r == EXIT_OK && d.cat) {
		if (cat_set_failed(d.cat))
			r = cli_fail(cli, -ENOMEM, "cannot list the catalogue of the counters");
		else
			out_catalogue(cli->out, d.cat);
	}
	mlx_counters_free(&cs);
out:
	cat_set_free(d.cat);
	mlx_cstate_free(st);
	targets_free(&ts);
out_sel:
	free_sel(&s);
	return r;
}


/* The views: each a command word of `mlxcli counters` (help and
 * completion see them), all run by cmd_counters. */
static const struct cmd counters_cmds[] = {
	{ "show", "", "every counter with group, unit and description (as 'mlxcli counters')",
	  cmd_counters, 0, 0, 0, NULL, counters_opts, NULL },
	{ "watch", "", "deltas and rates every --interval seconds, until interrupted or --count",
	  cmd_counters, 0, 0, 0, NULL, counters_opts, NULL },
	{ "cc", "", "RoCE congestion control: CNPs sent and handled, ECN marks, DCQCN layout",
	  cmd_counters, 0, 0, 0, NULL, counters_opts, NULL },
	{ "prio", "", "per-priority traffic and pause frames, one row per priority",
	  cmd_counters, 0, 0, 0, NULL, counters_opts, NULL },
	{ "errors", "", "every error or drop counter that is not zero, with what it means",
	  cmd_counters, 0, 0, 0, NULL, counters_opts, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group counters_group = { "counters", "counter views", "mlxcli-counters(8)",
					  counters_cmds };
