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
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "counters.h"
#include "dcqcn.h"
#include "prom.h"

static const char *const formats[] = { "text", "json", "prometheus", NULL };

const struct cmd_opt counters_opts[] = {
	{ "group", 'g', "G[,G...]", "only the counters of these groups", mlx_counter_groups,
	  SRC_NONE, OPT_LIST },
	{ "filter", 'f', "REGEX", "only counters whose name matches REGEX (POSIX extended)", NULL },
	{ "nonzero", 'n', NULL, "only counters that are not zero", NULL },
	{ "format", 0, "FORMAT", "text, json (as -j) or prometheus", formats },
	{ "interval", 'i', "S", "watch: seconds between samples (default 1)", NULL },
	{ "count", 'c', "N", "watch: stop after N intervals (default: until interrupted)", NULL },
	{ "all", 'a', NULL, "watch: show counters that did not move too", NULL },
	{ "any-netdev", 0, NULL, "accept any netdev, not only a ConnectX port (ethtool "
	  "and netdev statistics only)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

struct sel {
	char groups[16][24];
	size_t ngroups;
	bool have_re, nonzero;
	regex_t re;
};

static bool group_ok(const struct sel *s, const struct mlx_counter *c)
{
	if (!s->ngroups)
		return true;
	for (size_t i = 0; i < s->ngroups; i++) {
		const char *g = s->groups[i];

		if (!strcmp(g, c->m->group))
			return true;
		if (!strcmp(g, "errors") && (c->m->flags & (MLX_CF_ERROR | MLX_CF_DROP)))
			return true;
		if (!strcmp(g, "congestion") && (c->m->flags & MLX_CF_CC))
			return true;
	}
	return false;
}

static bool keep(const struct mlx_counter *c, void *arg)
{
	const struct sel *s = arg;

	if (s->nonzero && (!c->valid || !c->value))
		return false;
	if (s->have_re && regexec(&s->re, c->name, 0, NULL, 0) != 0)
		return false;
	return group_ok(s, c);
}

static int parse_sel(struct cli *cli, struct sel *s)
{
	const char *g = cli_opt(cli, "group"), *f = cli_opt(cli, "filter");

	memset(s, 0, sizeof(*s));
	s->nonzero = cli_opt(cli, "nonzero") != NULL;
	if (g) {
		char buf[256], *save = NULL;

		snprintf(buf, sizeof(buf), "%s", g);
		for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (!mlx_counter_group_valid(t)) {
				const char *h = cli_suggest(t, mlx_counter_groups, 13);

				cli_error(cli, "unknown counter group '%s'", t);
				if (h)
					cli_hint(cli, "did you mean '%s'?", h);
				return EXIT_USAGE;
			}
			if (s->ngroups < 16)
				snprintf(s->groups[s->ngroups++], sizeof(s->groups[0]), "%s", t);
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

struct targets {
	struct mlx_ctarget *t;
	size_t n;
	char **names;           /* --any-netdev without -d: the netdev list */
};

static void targets_free(struct targets *ts)
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

static int get_targets(struct cli *cli, struct targets *ts)
{
	struct mlx_devices *devs;
	struct mlx_function *fn = NULL;
	struct mlx_port *port = NULL;
	int r;

	memset(ts, 0, sizeof(*ts));
	if (cli_opt(cli, "any-netdev")) {
		struct mlx_selector sel;
		char path[256];

		r = cli_devices(cli, &devs);
		if (r)
			return r;
		if (!cli->device) {
			/* Every netdev of the system: ConnectX ports with all
			 * their sources, the others with ethtool and netdev
			 * statistics (a monitoring pipeline's one call). */
			size_t n = 0;

			r = mlx_list_dir(cli->ctx, "/sys/class/net", &ts->names, &n);
			if (r < 0)
				return cli_fail(cli, r, "cannot list the network interfaces");
			for (size_t i = 0; i < n; i++) {
				if (!mlx_name_is_safe(ts->names[i]) ||
				    strlen(ts->names[i]) >= MLX_IFNAME_LEN)
					continue;
				find_port(devs, ts->names[i], &fn, &port);
				if (add_target(ts, fn, port, port ? NULL : ts->names[i]) < 0)
					return EXIT_FAIL;
			}
			return EXIT_OK;
		}
		if (mlx_selector_parse(cli->ctx, cli->device, &sel) == 0 &&
		    mlx_select(cli->ctx, devs, &sel, &fn, &port) == 0 && port) {
			add_target(ts, fn, port, NULL);
			return EXIT_OK;
		}
		mlx_err_clear(cli->ctx);
		snprintf(path, sizeof(path), "/sys/class/net/%s", cli->device);
		if (!mlx_name_is_safe(cli->device) || strlen(cli->device) >= MLX_IFNAME_LEN ||
		    !mlx_exists(cli->ctx, path)) {
			cli_error(cli, "no network interface '%s'", cli->device);
			return EXIT_NODEV;
		}
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
	return EXIT_OK;
}

/* ---- rendering helpers ------------------------------------------------------ */

static void out_port_ids(struct out *o, const struct mlx_counter_port *p)
{
	out_str(o, "device", NULL, p->bdf[0] ? p->bdf : NULL);
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

static void port_title(const struct mlx_counter_port *p, char *buf, size_t len)
{
	if (p->rdma_dev[0])
		snprintf(buf, len, "%s %s (%s port %u)", p->bdf, p->ifname, p->rdma_dev, p->rdma_port);
	else
		snprintf(buf, len, "%s %s", p->bdf[0] ? p->bdf : "-", p->ifname);
}

static void out_sources(struct out *o, const struct mlx_counter_port *p)
{
	out_obj_begin(o, "sources", NULL);
	for (unsigned s = 0; s < MLX_CSRC_N; s++) {
		int e = p->err[s];

		out_str(o, mlx_csrc_name(s), NULL, e == 0 ? "ok" : e == -ENOENT ? "absent" :
			strerror(-e));
	}
	out_str(o, "ethtool_names_from", NULL, p->err[MLX_CSRC_ETHTOOL] ? NULL :
		p->names_netlink ? "netlink" : "ioctl");
	out_obj_end(o);
}

/* The description: the catalogue's text, or @buf holding it prefixed. */
static const char *describe(const struct mlx_counter *c, char *buf, size_t len)
{
	if (!c->m->e)
		return "(uncatalogued)";
	if (!c->m->prefix || !c->m->prefix[0])
		return c->m->e->desc;
	snprintf(buf, len, "%s%s", c->m->prefix, c->m->e->desc);
	return buf;
}

static void out_labels(struct out *o, const struct mlx_counter *c)
{
	if (!out_is_json(o))
		return;
	out_obj_begin(o, "labels", NULL);
	for (unsigned l = 0; l < c->m->nlabels; l++)
		if (c->m->e)          /* uncatalogued: source and name are fields already */
			out_str(o, c->m->labels[l].name, NULL, c->m->labels[l].value);
	out_obj_end(o);
}

static void out_counter_row(struct out *o, const struct mlx_counter *c, bool meaning)
{
	char buf[400];
	const char *desc = describe(c, buf, sizeof(buf));
	out_row_begin(o);
	out_str(o, "name", "NAME", c->name);
	if (c->valid)
		out_u64(o, "value", "VALUE", c->value);
	else
		out_null(o, "value", "VALUE");
	out_str(o, "unit", "UNIT", c->m->unit);
	out_str(o, "group", "GROUP", c->m->group);
	out_str(o, "source", "SOURCE", mlx_csrc_name(c->src));
	if (c->m->scale > 1)
		out_u64(o, "raw_value", NULL, c->raw);
	out_bool(o, "catalogued", NULL, c->m->e != NULL);
	out_u64(o, "width", NULL, c->m->width);
	out_labels(o, c);
	if (meaning) {
		out_str(o, "description", NULL, desc);
		out_str(o, "meaning", "USUALLY MEANS",
			c->m->e && c->m->e->meaning ? c->m->e->meaning : desc);
	} else {
		out_str(o, "description", "DESCRIPTION", desc);
	}
	out_row_end(o);
}

static void warn_port(struct cli *cli, const struct mlx_counter_port *p)
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

/* ---- show ------------------------------------------------------------------ */

static int view_show(struct cli *cli, const struct mlx_counters *cs, struct sel *s, bool errors)
{
	struct out *o = cli->out;
	size_t shown = 0;

	out_list_begin(o, "ports", NULL);
	for (size_t i = 0; i < cs->nports; i++) {
		const struct mlx_counter_port *p = &cs->ports[i];
		char title[200];

		warn_port(cli, p);
		if (p->gone)
			continue;
		port_title(p, title, sizeof(title));
		out_obj_begin(o, NULL, title);
		out_port_ids(o, p);
		out_sources(o, p);
		out_table_begin(o, "counters");
		for (size_t k = 0; k < p->n; k++) {
			const struct mlx_counter *c = &p->c[k];

			if (!keep(c, s))
				continue;
			if (errors && (!(c->m->flags & (MLX_CF_ERROR | MLX_CF_DROP)) || !c->valid ||
				       !c->value))
				continue;
			out_counter_row(o, c, errors);
			shown++;
		}
		out_table_end(o);
		out_obj_end(o);
	}
	out_list_end(o);
	if (errors && !shown && !out_is_json(o))
		fprintf(cli->out_fp, "no error or drop counter is above zero\n");
	return EXIT_OK;
}

/* ---- cc -------------------------------------------------------------------- */

static void out_dcqcn(struct cli *cli, const struct mlx_counter_port *p,
		      const struct mlx_ctarget *t)
{
	struct out *o = cli->out;
	struct mlx_dcqcn_port dp;
	int side[2][8];
	size_t nen[2] = { 0, 0 };
	uint64_t en[2][8];

	out_obj_begin(o, "dcqcn", NULL);
	if (!t->fn || !t->port || mlx_dcqcn_open(cli->ctx, t->fn, t->port, &dp) < 0) {
		mlx_err_clear(cli->ctx);
		out_str(o, "layout", NULL, "none");
		out_text(o, "DCQCN", "not available on this port");
		out_obj_end(o);
		return;
	}
	for (int prio = 0; prio < 8; prio++) {
		char name[32];
		const struct mlx_dcqcn_param *par;

		snprintf(name, sizeof(name), "DcqcnEnablePrio%d", prio);
		par = mlx_dcqcn_find(name, NULL);
		for (int s = 0; s < 2; s++) {
			uint64_t v = 0;

			side[s][prio] = par ? mlx_dcqcn_read(cli->ctx, &dp, par,
							     s ? MLX_DCQCN_NP : MLX_DCQCN_RP, &v) : -ENOENT;
			if (side[s][prio] == 0 && v)
				en[s][nen[s]++] = (uint64_t)prio;
		}
	}
	mlx_err_clear(cli->ctx);
	out_str(o, "layout", NULL, mlx_dcqcn_layout_name(dp.layout));
	for (int s = 0; s < 2; s++) {
		char txt[64] = "";
		size_t at = 0;

		out_list_begin(o, s ? "np_enabled_priorities" : "rp_enabled_priorities", NULL);
		for (size_t k = 0; k < nen[s]; k++) {
			out_u64(o, NULL, NULL, en[s][k]);
			at += (size_t)snprintf(txt + at, sizeof(txt) - at, "%s%" PRIu64, k ? "," : "",
					       en[s][k]);
		}
		out_list_end(o);
		out_text(o, s ? "DCQCN NP (notification point) enabled on priorities" :
			 "DCQCN RP (reaction point) enabled on priorities", nen[s] ? txt : "none");
	}
	(void)side;
	out_obj_end(o);
}

static int view_cc(struct cli *cli, const struct mlx_counters *cs, struct sel *s,
		   const struct targets *ts)
{
	struct out *o = cli->out;

	out_list_begin(o, "ports", NULL);
	for (size_t i = 0; i < cs->nports; i++) {
		const struct mlx_counter_port *p = &cs->ports[i];
		char title[200];

		warn_port(cli, p);
		if (p->gone)
			continue;
		port_title(p, title, sizeof(title));
		out_obj_begin(o, NULL, title);
		out_port_ids(o, p);
		out_dcqcn(cli, p, &ts->t[i]);
		out_table_begin(o, "counters");
		for (size_t k = 0; k < p->n; k++) {
			const struct mlx_counter *c = &p->c[k];

			if (!(c->m->flags & MLX_CF_CC) || !keep(c, s))
				continue;
			/* per-ring ECN marks: the port total is enough here */
			if (!strcmp(c->m->group, "queue"))
				continue;
			out_counter_row(o, c, false);
		}
		out_table_end(o);
		out_obj_end(o);
	}
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
	{ "prio_rx_pause_duration", "rx_pause_duration_us", "RX PAUSE us" },
	{ "prio_tx_pause", "tx_pause", "TX PAUSE" },
	{ "prio_tx_pause_duration", "tx_pause_duration_us", "TX PAUSE us" },
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
		out_table_begin(o, "priorities");
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

/* ---- watch ----------------------------------------------------------------- */

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void human_rate(double v, const char *unit, char *buf, size_t len)
{
	static const char *const pfx[] = { "", "k", "M", "G", "T" };
	int i = 0;

	while (v >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%.*f %s%s", v < 10 && i ? 2 : v < 100 && i ? 1 : 0, v, pfx[i], unit);
}

static const struct mlx_counter *prev_of(const struct mlx_counter_port *pp, size_t k,
					 const struct mlx_counter *c)
{
	if (!pp || pp->gone)
		return NULL;
	if (k < pp->n && pp->c[k].name == c->name)
		return &pp->c[k];
	return mlx_counters_find(pp, c->src, c->name);
}

static int watch_emit(struct cli *cli, struct out *o, const struct mlx_counters *prev,
		      const struct mlx_counters *cur, struct sel *s, bool all, unsigned seq,
		      bool *warned)
{
	double dt = cur->t - prev->t;
	char ts[40];
	struct tm tm;

	gmtime_r(&cur->wall.tv_sec, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!out_is_json(o)) {
		if (isatty(fileno(cli->out_fp)))
			fputs("\033[H\033[2J", cli->out_fp);
		fprintf(cli->out_fp, "sample %u at %s, interval %.3f s%s\n", seq, ts, dt,
			all ? "" : " (counters that moved)");
	}
	out_str(o, "record", NULL, "sample");
	out_u64(o, "sample", NULL, seq);
	out_str(o, "time", NULL, ts);
	out_obj_begin(o, "interval", NULL);
	out_u64(o, "milliseconds", NULL, (uint64_t)(dt * 1000 + 0.5));
	out_obj_end(o);
	out_list_begin(o, "ports", NULL);
	for (size_t i = 0; i < cur->nports; i++) {
		const struct mlx_counter_port *p = &cur->ports[i];
		const struct mlx_counter_port *pp = i < prev->nports ? &prev->ports[i] : NULL;
		char title[200];

		if (p->gone && !warned[i]) {
			cli_warn(cli, "'%s' vanished; watching the others", p->ifname);
			warned[i] = true;
		} else if (!p->gone && warned[i]) {
			cli_warn(cli, "'%s' is back", p->ifname);
			warned[i] = false;
		}
		port_title(p, title, sizeof(title));
		out_obj_begin(o, NULL, p->gone ? NULL : title);
		out_port_ids(o, p);
		out_bool(o, "gone", NULL, p->gone);
		if (p->gone) {
			out_obj_end(o);
			continue;
		}
		out_table_begin(o, "counters");
		for (size_t k = 0; k < p->n; k++) {
			const struct mlx_counter *c = &p->c[k], *pc = prev_of(pp, k, c);
			uint64_t d;
			bool reset;
			double rate;
			char rbuf[48];

			if (!pc || !c->valid || !pc->valid || !keep(c, s))
				continue;
			if (c->m->flags & MLX_CF_GAUGE)
				continue;
			d = mlx_counter_delta(pc->raw, c->raw, c->m->width, &reset) * c->m->scale;
			if (!d && !all)
				continue;
			rate = mlx_counter_rate(d, dt);
			out_row_begin(o);
			out_str(o, "name", "NAME", c->name);
			out_str(o, "source", "SOURCE", mlx_csrc_name(c->src));
			out_u64(o, "delta", "DELTA", d);
			human_rate(rate, "/s", rbuf, sizeof(rbuf));
			out_u64_as(o, "rate_per_second", "RATE", (uint64_t)(rate + 0.5), rbuf);
			if (!strcmp(c->m->unit, "bytes")) {
				human_rate(rate * 8, "bit/s", rbuf, sizeof(rbuf));
				out_u64_as(o, "bits_per_second", "BITS", (uint64_t)(rate * 8 + 0.5), rbuf);
			} else {
				out_null(o, "bits_per_second", "BITS");
			}
			out_str(o, "unit", "UNIT", c->m->unit);
			out_u64(o, "value", NULL, c->value);
			out_bool(o, "reset", NULL, reset);
			out_row_end(o);
		}
		out_table_end(o);
		out_obj_end(o);
	}
	out_list_end(o);
	return 0;
}

static int parse_interval(struct cli *cli, double *iv, long *count)
{
	const char *i = cli_opt(cli, "interval"), *c = cli_opt(cli, "count");
	char *end;

	*iv = 1.0;
	*count = 0;
	if (i) {
		*iv = strtod(i, &end);
		if (*end || !(*iv >= 0.01 && *iv <= 86400)) {
			cli_error(cli, "invalid --interval '%s': seconds from 0.01 to 86400", i);
			return EXIT_USAGE;
		}
	}
	if (c) {
		*count = strtol(c, &end, 10);
		if (*end || *count < 1 || *count > 100000000) {
			cli_error(cli, "invalid --count '%s': a number from 1", c);
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

static int view_watch(struct cli *cli, struct mlx_cstate *st, const struct targets *ts,
		      struct sel *s)
{
	struct mlx_counters prev, cur;
	struct sigaction sa, old;
	double iv;
	long count;
	unsigned seq = 0;
	bool *warned, all = cli_opt(cli, "all") != NULL;
	int r;

	r = parse_interval(cli, &iv, &count);
	if (r)
		return r;
	warned = calloc(ts->n + 1, sizeof(*warned));
	if (!warned)
		return EXIT_FAIL;
	r = mlx_counters_sample(cli->ctx, st, ts->t, ts->n, MLX_CSRC_ALL, &prev);
	if (r < 0) {
		free(warned);
		return cli_fail(cli, r, "cannot read the counters");
	}
	for (size_t i = 0; i < prev.nports; i++) {
		const struct mlx_counter *ls = mlx_counters_find(&prev.ports[i], MLX_CSRC_HW, "lifespan");

		if (ls && ls->valid && (double)ls->value > iv * 1000 && mlx_is_live(cli->ctx))
			cli_warn(cli, "%s caches hw_counters for %" PRIu64 " ms, longer than the "
				 "interval: some samples will repeat", prev.ports[i].rdma_dev, ls->value);
	}
	if (cli->json) {
		/* The baseline is taken: say so at once, with what is watched,
		 * so a pipeline (or a test) knows that anything from now on
		 * shows in the first deltas. */
		struct out *o = out_new(true, false, cli->out_fp);
		char stamp[40];
		struct tm tm;

		if (!o) {
			mlx_counters_free(&prev);
			free(warned);
			return EXIT_FAIL;
		}
		gmtime_r(&prev.wall.tv_sec, &tm);
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
		out_str(o, "record", NULL, "start");
		out_str(o, "time", NULL, stamp);
		out_obj_begin(o, "interval", NULL);
		out_u64(o, "milliseconds", NULL, (uint64_t)(iv * 1000 + 0.5));
		out_obj_end(o);
		out_list_begin(o, "ports", NULL);
		for (size_t i = 0; i < prev.nports; i++) {
			out_obj_begin(o, NULL, NULL);
			out_port_ids(o, &prev.ports[i]);
			out_bool(o, "gone", NULL, prev.ports[i].gone);
			out_obj_end(o);
		}
		out_list_end(o);
		r = out_finish(o);
		out_free(o);
		if (r < 0) {
			mlx_counters_free(&prev);
			free(warned);
			return EXIT_OK;      /* stdout closed before the first sample */
		}
	}
	interrupted = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigaction(SIGINT, &sa, &old);
	while (!interrupted && (!count || (long)seq < count)) {
		struct timespec req = { (time_t)iv, (long)((iv - (double)(time_t)iv) * 1e9) };
		struct out *o;

		while (nanosleep(&req, &req) < 0 && errno == EINTR && !interrupted)
			;
		if (interrupted)
			break;
		r = mlx_counters_sample(cli->ctx, st, ts->t, ts->n, MLX_CSRC_ALL, &cur);
		if (r < 0)
			break;
		seq++;
		o = out_new(cli->json, false, cli->out_fp);
		if (!o) {
			mlx_counters_free(&cur);
			r = -ENOMEM;
			break;
		}
		watch_emit(cli, o, &prev, &cur, s, all, seq, warned);
		r = out_finish(o);
		out_free(o);
		mlx_counters_free(&prev);
		prev = cur;
		if (r < 0)
			break;     /* stdout closed (| head): stop quietly */
	}
	sigaction(SIGINT, &old, NULL);
	mlx_counters_free(&prev);
	free(warned);
	if (r < 0 && r != -EPIPE && r != -ENOMEM && r != -EIO)
		return cli_fail(cli, r, "cannot read the counters");
	/* The stream ends with one "end" record (cli->out, dumped by the
	 * dispatcher). */
	out_str(cli->out, "record", NULL, "end");
	out_u64(cli->out, "samples", NULL, seq);
	out_bool(cli->out, "interrupted", NULL, interrupted != 0);
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
	if (strcmp(view, "watch") && (cli_opt(cli, "interval") || cli_opt(cli, "count") ||
				      cli_opt(cli, "all"))) {
		cli_error(cli, "--interval, --count and --all belong to 'mlxcli counters watch'");
		return EXIT_USAGE;
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
	r = mlx_counters_sample(cli->ctx, st, ts.t, ts.n, MLX_CSRC_ALL, &cs);
	if (r < 0) {
		r = cli_fail(cli, r, "cannot read the counters");
		goto out;
	}
	if (fmt && !strcmp(fmt, "prometheus")) {
		for (size_t i = 0; i < cs.nports; i++)
			warn_port(cli, &cs.ports[i]);
		r = prom_write(cli->out_fp, &cs, keep, &s) < 0 ? EXIT_FAIL : EXIT_OK;
	} else if (!strcmp(view, "cc")) {
		r = view_cc(cli, &cs, &s, &ts);
	} else if (!strcmp(view, "prio")) {
		r = view_prio(cli, &cs);
	} else {
		r = view_show(cli, &cs, &s, !strcmp(view, "errors"));
	}
	mlx_counters_free(&cs);
out:
	mlx_cstate_free(st);
	targets_free(&ts);
out_sel:
	free_sel(&s);
	return r;
}

/* ---- show perfstats ------------------------------------------------------------ */

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

static const struct {
	const char *dir, *stem, *key, *label;
} ring_cols[] = {
	{ "rx", "queue_packets", "rx_packets", "RX PACKETS" },
	{ "rx", "queue_bytes", "rx_bytes", "RX BYTES" },
	{ "tx", "queue_packets", "tx_packets", "TX PACKETS" },
	{ "tx", "queue_bytes", "tx_bytes", "TX BYTES" },
	{ NULL, "channel_events", "interrupts", "INTERRUPTS" },
	{ NULL, "channel_poll", "polls", "POLLS" },
	{ NULL, "channel_arm", "arms", "ARMS" },
	{ "tx", "queue_stopped", "tx_stopped", "TX STOPPED" },
	{ "tx", "queue_dropped", "tx_dropped", "TX DROPPED" },
	{ "rx", "queue_buff_alloc_err", "rx_buff_alloc_err", "RX ALLOC ERR" },
};
#define NRING_COLS (sizeof(ring_cols) / sizeof(ring_cols[0]))
#define MAX_RINGS 1024

int cmd_perfstats(struct cli *cli, int argc, char **argv)
{
	struct mlx_counters cs;
	struct mlx_cstate *st;
	struct targets ts;
	struct out *o = cli->out;
	int r;

	(void)argc;
	(void)argv;
	r = get_targets(cli, &ts);
	if (r)
		return r;
	st = mlx_cstate_new();
	r = st ? mlx_counters_sample(cli->ctx, st, ts.t, ts.n, 1u << MLX_CSRC_ETHTOOL, &cs) : -ENOMEM;
	if (r < 0) {
		r = cli_fail(cli, r, "cannot read the ring statistics");
		goto out;
	}
	out_list_begin(o, "ports", NULL);
	for (size_t i = 0; i < cs.nports; i++) {
		const struct mlx_counter_port *p = &cs.ports[i];
		const struct mlx_counter *(*cell)[NRING_COLS];
		int maxq = -1;
		char title[200];

		warn_port(cli, p);
		if (p->gone)
			continue;
		cell = calloc(MAX_RINGS, sizeof(*cell));
		if (!cell)
			break;
		for (size_t k = 0; k < p->n; k++) {
			const struct mlx_counter *c = &p->c[k];
			int q = c->m->index;

			if (!c->m->e || q < 0 || q >= MAX_RINGS ||
			    (strcmp(c->m->group, "queue") && strcmp(c->m->group, "channel")))
				continue;
			for (size_t col = 0; col < NRING_COLS; col++)
				if (!strcmp(c->m->metric, ring_cols[col].stem) &&
				    (!ring_cols[col].dir || (c->m->dir && !strcmp(c->m->dir, ring_cols[col].dir)))) {
					cell[q][col] = c;
					if (q > maxq)
						maxq = q;
				}
		}
		port_title(p, title, sizeof(title));
		out_obj_begin(o, NULL, title);
		out_port_ids(o, p);
		out_table_begin(o, "rings");
		for (int q = 0; q <= maxq; q++) {
			const struct mlx_counter *rxp = cell[q][0], *polls = cell[q][5];
			char avg[32];

			out_row_begin(o);
			out_u64(o, "ring", "RING", (uint64_t)q);
			for (size_t col = 0; col < NRING_COLS; col++)
				if (cell[q][col])
					out_u64(o, ring_cols[col].key, ring_cols[col].label, cell[q][col]->value);
				else
					out_null(o, ring_cols[col].key, ring_cols[col].label);
			/* mlxtool's "Average Packets Per DPC": packets per NAPI poll. */
			if (rxp && polls && polls->value) {
				snprintf(avg, sizeof(avg), "%.2f", (double)rxp->value / (double)polls->value);
				out_u64_as(o, "rx_packets_per_poll_x100", "RX PKTS/POLL",
					   (uint64_t)(100.0 * (double)rxp->value / (double)polls->value + 0.5), avg);
			} else {
				out_null(o, "rx_packets_per_poll_x100", "RX PKTS/POLL");
			}
			out_row_end(o);
		}
		out_table_end(o);
		if (maxq < 0)
			out_text(o, "rings", "no per-ring statistics on this port");
		out_obj_end(o);
		free(cell);
	}
	out_list_end(o);
	mlx_counters_free(&cs);
	r = EXIT_OK;
out:
	mlx_cstate_free(st);
	targets_free(&ts);
	return r;
}
