/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli show qos` (= `qosconfig show`), the QoS write verbs of the
 * qosconfig group (trust, dscp2prio, pfc, ets, tc-bw, buffer, dcbx) and
 * mlxtool's `modify tc-bw`.  Issue 4.
 *
 * Every write: parse and validate everything first (exit 2, the rule in
 * the message), lock the device, read the current state, compute the new
 * one, and hand both to mlx_dcb_apply(), which sends one DCB message per
 * kind of change and puts the earlier ones back when one fails.  Then the
 * state is read back and compared (a driver that accepts and ignores a
 * value is reported, not trusted).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "dcb.h"
#include "dcqcn.h"
#include "lock.h"
#include "qos-check.h"

#define MAXPORTS 64

struct qport {
	char ifname[16];
	const struct mlx_function *fn;    /* NULL: a netdev that is no ConnectX */
	const struct mlx_port *port;
};

/* What one port's view holds besides the DCB state. */
struct view {
	struct mlx_dcb_state st;
	bool buf_sysfs;                   /* buffers from OFED qos/ sysfs */
	bool lldpad;
	char lldpad_pid[32];
	struct mlx_qos_state qs;          /* the RoCE / DCQCN side (cmd/qos-check.c) */
	struct mlx_lint_report rep;       /* --check */
};

/* ---- targets ---- */

static int port_of_name(struct cli *cli, const char *name, struct qport *q)
{
	struct mlx_devices *devs;
	char path[160];

	if (!mlx_name_is_safe(name) || strlen(name) >= sizeof(q->ifname))
		return -1;
	snprintf(path, sizeof(path), "/sys/class/net/%s", name);
	if (!mlx_exists(cli->ctx, path))
		return -1;
	memset(q, 0, sizeof(*q));
	snprintf(q->ifname, sizeof(q->ifname), "%s", name);
	if (cli_devices(cli, &devs) == EXIT_OK)
		for (size_t i = 0; i < devs->nfn; i++)
			for (size_t j = 0; j < devs->fn[i].nports; j++)
				if (!strcmp(devs->fn[i].ports[j].ifname, name)) {
					q->fn = &devs->fn[i];
					q->port = &devs->fn[i].ports[j];
				}
	return 0;
}

/* The ports to act on; an exit code. */
static int targets(struct cli *cli, struct qport *t, size_t *n)
{
	struct mlx_function *sel = NULL;
	struct mlx_port *selp = NULL;
	struct mlx_devices *devs;
	int r;

	*n = 0;
	/* Any netdev by name (the DCB interface is the netdev's; a netdev of
	 * another driver gets the kernel's answer, not "no such device"). */
	if (cli->device && port_of_name(cli, cli->device, &t[0]) == 0) {
		*n = 1;
		/* A VF has no DCB interface of its own: its PF's is the port's. */
		return t[0].fn && t[0].fn->role == MLX_FN_VF ? cli_need_pf(cli, t[0].fn) : EXIT_OK;
	}
	r = cli_select(cli, &sel, &selp);
	if (r)
		return r;
	if (sel && sel->role == MLX_FN_VF)
		return cli_need_pf(cli, sel);
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	for (size_t i = 0; i < devs->nfn && *n < MAXPORTS; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		if (sel ? fn != sel : fn->role != MLX_FN_PF)
			continue;
		for (size_t j = 0; j < fn->nports && *n < MAXPORTS; j++) {
			if ((selp && &fn->ports[j] != selp) || !fn->ports[j].ifname[0])
				continue;
			snprintf(t[*n].ifname, sizeof(t[*n].ifname), "%s", fn->ports[j].ifname);
			t[*n].fn = fn;
			t[*n].port = &fn->ports[j];
			(*n)++;
		}
	}
	if (sel && !*n) {
		cli_error(cli, "'%s' (%s) has no network interface: QoS is configured on a netdev",
			  cli->device, sel->bdf);
		return EXIT_NOTSUP;
	}
	return EXIT_OK;
}

static int one_target(struct cli *cli, struct qport *q)
{
	struct qport t[MAXPORTS];
	size_t n;
	int r = targets(cli, t, &n);

	if (r)
		return r;
	if (n != 1) {
		cli_error(cli, "'%s' has %zu network interfaces: name one of them with -d", cli->device,
			  n);
		return EXIT_USAGE;
	}
	*q = t[0];
	return EXIT_OK;
}

/* ---- reading the view ---- */

static int read_view(struct cli *cli, const struct qport *q, struct view *v)
{
	int r;

	memset(v, 0, sizeof(*v));
	r = mlx_dcb_get(cli->ctx, q->ifname, &v->st);
	if (r < 0)
		return r;
	if (!v->st.has_buffer && mlx_dcb_sysfs_buffer(cli->ctx, q->ifname, &v->st.buffer) == 0) {
		v->st.has_buffer = true;
		v->buf_sysfs = true;
	}
	mlx_err_clear(cli->ctx);
	v->lldpad = mlx_dcb_lldpad_running(cli->ctx, v->lldpad_pid, sizeof(v->lldpad_pid));
	mlx_qos_state_init(&v->qs, q->ifname);
	qos_read_dcqcn(cli, q->fn, q->port, &v->qs);
	return 0;
}

/* ---- rendering ---- */

static const char *dcbx_mode(uint8_t d)
{
	return d & DCB_CAP_DCBX_HOST ? "host" : "firmware";
}

static const char *dcbx_ver(uint8_t d)
{
	return d & DCB_CAP_DCBX_VER_IEEE ? "ieee" : d & DCB_CAP_DCBX_VER_CEE ? "cee" : NULL;
}

static const char *owner(const struct view *v)
{
	if (v->lldpad)
		return "lldpad";
	if (v->st.has_dcbx && !(v->st.dcbx & DCB_CAP_DCBX_HOST))
		return "firmware";
	return "host";
}

static void rate_text(uint64_t kbps, char *buf, size_t len)
{
	if (!kbps)
		snprintf(buf, len, "unlimited");
	else
		snprintf(buf, len, "%.1f Gbps", (double)kbps / 1e6);
}

static void text_port(struct cli *cli, const struct qport *q, const struct view *v, bool chk)
{
	FILE *fp = cli->out_fp;
	const struct mlx_dcb_state *st = &v->st;
	int map[MLX_DCB_NDSCP];
	size_t ndscp = 0;
	unsigned cap;

	fprintf(fp, "Interface: %s%s%s%s\n", q->ifname, q->fn ? " (" : "", q->fn ? q->fn->bdf : "",
		q->fn ? ")" : "");
	if (st->has_dcbx)
		fprintf(fp, "DCBX mode: %s%s%s\n", st->dcbx & DCB_CAP_DCBX_HOST ? "OS controlled" :
			"Firmware controlled", dcbx_ver(st->dcbx) ? ", " : "",
			dcbx_ver(st->dcbx) ? (st->dcbx & DCB_CAP_DCBX_VER_IEEE ? "IEEE" : "CEE") : "");
	if (v->lldpad)
		fprintf(fp, "Owner: lldpad (%s): it may overwrite these settings\n", v->lldpad_pid);
	else if (st->has_dcbx && !(st->dcbx & DCB_CAP_DCBX_HOST))
		fprintf(fp, "Owner: firmware DCBX: settings follow the switch; 'mlxcli qosconfig "
			"dcbx -d %s host' takes them back\n", q->ifname);
	for (size_t i = 0; i < st->napp; i++)
		ndscp += st->app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP;
	if (ndscp)
		fprintf(fp, "Priority trust state: dscp (%zu DSCP entries in the APP table)\n", ndscp);
	else
		fprintf(fp, "Priority trust state: pcp\n");
	if (ndscp) {
		mlx_dcb_dscp_map(st, map);
		fprintf(fp, "dscp2prio mapping:\n");
		for (int p = 0; p < 8; p++) {
			int k = 0;

			for (int d = 0; d < 64; d++) {
				if (map[d] != p)
					continue;
				if (k % 8 == 0)
					fprintf(fp, "%s\tprio:%d dscp:", k ? "\n" : "", p);
				fprintf(fp, "%s%02d", k % 8 ? "," : "", d);
				k++;
			}
			if (k)
				fputc('\n', fp);
		}
	}
	if (st->has_buffer) {
		fprintf(fp, "Receive buffer size (bytes): ");
		for (int i = 0; i < 8; i++)
			fprintf(fp, "%s%u", i ? "," : "", st->buffer.buffer_size[i]);
		fprintf(fp, " max_buffer_size=%u%s\n", st->buffer.total_size,
			v->buf_sysfs ? " (from qos/ sysfs)" : "");
	}
	if (st->has_pfc) {
		fprintf(fp, "Cable len: %u\n", st->pfc.delay);
		fprintf(fp, "PFC configuration:\n\tpriority ");
		for (int p = 0; p < 8; p++)
			fprintf(fp, "   %d", p);
		fprintf(fp, "\n\tenabled  ");
		for (int p = 0; p < 8; p++)
			fprintf(fp, "   %d", (st->pfc.pfc_en >> p) & 1);
		if (st->has_buffer) {
			fprintf(fp, "\n\tbuffer   ");
			for (int p = 0; p < 8; p++)
				fprintf(fp, "   %u", st->buffer.prio2buffer[p]);
		}
		fputc('\n', fp);
	}
	cap = st->has_ets ? (st->ets.ets_cap && st->ets.ets_cap <= 8 ? st->ets.ets_cap : 8) : 0;
	for (unsigned tc = 0; tc < cap; tc++) {
		char rate[32];
		uint8_t tsa = st->ets.tc_tsa[tc];
		bool first = true;

		rate_text(st->has_maxrate ? st->maxrate.tc_maxrate[tc] : 0, rate, sizeof(rate));
		fprintf(fp, "tc: %u ratelimit: %s, tsa: %s", tc, rate, mlx_dcb_tsa_name(tsa));
		if (tsa == IEEE_8021QAZ_TSA_ETS)
			fprintf(fp, ", bw: %u%%", st->ets.tc_tx_bw[tc]);
		fprintf(fp, "\n\t priority: ");
		for (int p = 0; p < 8; p++)
			if (st->ets.prio_tc[p] == tc) {
				fprintf(fp, " %d", p);
				first = false;
			}
		fprintf(fp, "%s\n", first ? " (none)" : "");
	}
	if (chk)
		qos_check_out(cli->out, &v->rep);
}

static void json_u8v(struct out *o, const char *key, const uint8_t *v, size_t n)
{
	out_list_begin(o, key, NULL);
	for (size_t i = 0; i < n; i++)
		out_u64(o, NULL, NULL, v[i]);
	out_list_end(o);
}

static void json_port(struct cli *cli, const struct qport *q, const struct view *v, bool chk)
{
	struct out *o = cli->out;
	const struct mlx_dcb_state *st = &v->st;
	int map[MLX_DCB_NDSCP];
	unsigned cap;
	bool known = false;

	(void)cli;
	out_str(o, "netdev", NULL, q->ifname);
	out_str(o, "pci_address", NULL, q->fn ? q->fn->bdf : NULL);
	if (st->has_dcbx) {
		out_obj_begin(o, "dcbx", NULL);
		out_str(o, "mode", NULL, dcbx_mode(st->dcbx));
		out_str(o, "version", NULL, dcbx_ver(st->dcbx));
		out_u64(o, "flags", NULL, st->dcbx);
		out_obj_end(o);
	} else {
		out_null(o, "dcbx", NULL);
	}
	out_str(o, "owner", NULL, owner(v));
	out_str(o, "lldpad_pidfile", NULL, v->lldpad ? v->lldpad_pid : NULL);
	out_str(o, "trust", NULL, mlx_dcb_trust_dscp(st) ? "dscp" : "pcp");
	mlx_dcb_dscp_map(st, map);
	out_table_begin(o, "dscp2prio");
	for (int d = 0; d < 64; d++) {
		if (map[d] < 0)
			continue;
		out_row_begin(o);
		out_u64(o, "dscp", NULL, (uint64_t)d);
		out_u64(o, "priority", NULL, (uint64_t)map[d]);
		out_row_end(o);
	}
	out_table_end(o);
	if (st->has_pfc) {
		out_obj_begin(o, "pfc", NULL);
		out_u64(o, "pfc_cap", NULL, st->pfc.pfc_cap);
		out_list_begin(o, "enabled_priorities", NULL);
		for (int p = 0; p < 8; p++)
			if ((st->pfc.pfc_en >> p) & 1)
				out_u64(o, NULL, NULL, (uint64_t)p);
		out_list_end(o);
		out_u64(o, "cable_length_m", NULL, st->pfc.delay);
		out_u64(o, "mbc", NULL, st->pfc.mbc);
		out_obj_end(o);
	} else {
		out_null(o, "pfc", NULL);
	}
	cap = st->has_ets ? (st->ets.ets_cap && st->ets.ets_cap <= 8 ? st->ets.ets_cap : 8) : 0;
	if (st->has_ets) {
		out_obj_begin(o, "ets", NULL);
		out_u64(o, "ets_cap", NULL, st->ets.ets_cap);
		out_bool(o, "willing", NULL, st->ets.willing);
		json_u8v(o, "prio_tc", st->ets.prio_tc, 8);
		out_obj_end(o);
	} else {
		out_null(o, "ets", NULL);
	}
	out_table_begin(o, "tcs");
	for (unsigned tc = 0; tc < cap; tc++) {
		uint64_t kbps = st->has_maxrate ? st->maxrate.tc_maxrate[tc] : 0;

		out_row_begin(o);
		out_u64(o, "tc", NULL, tc);
		out_str(o, "tsa", NULL, mlx_dcb_tsa_name(st->ets.tc_tsa[tc]));
		if (st->ets.tc_tsa[tc] == IEEE_8021QAZ_TSA_ETS)
			out_u64(o, "bandwidth_pct", NULL, st->ets.tc_tx_bw[tc]);
		else
			out_null(o, "bandwidth_pct", NULL);
		/* the kernel's unit is kb/s; mlx5 rounds to 100 Mb/s steps */
		if (kbps)
			out_u64(o, "max_rate_mbps", NULL, kbps / 1000);
		else
			out_null(o, "max_rate_mbps", NULL);
		out_list_begin(o, "priorities", NULL);
		for (int p = 0; p < 8; p++)
			if (st->ets.prio_tc[p] == tc)
				out_u64(o, NULL, NULL, (uint64_t)p);
		out_list_end(o);
		out_row_end(o);
	}
	out_table_end(o);
	if (st->has_buffer) {
		out_obj_begin(o, "buffer", NULL);
		out_str(o, "source", NULL, v->buf_sysfs ? "sysfs" : "dcbnl");
		json_u8v(o, "prio2buffer", st->buffer.prio2buffer, 8);
		out_list_begin(o, "size_bytes", NULL);
		for (int i = 0; i < 8; i++)
			out_u64(o, NULL, NULL, st->buffer.buffer_size[i]);
		out_list_end(o);
		out_u64(o, "total_bytes", NULL, st->buffer.total_size);
		out_obj_end(o);
	} else {
		out_null(o, "buffer", NULL);
	}
	out_obj_begin(o, "roce", NULL);
	for (int p = 0; p < 8; p++)
		known |= v->qs.rp_en[p] >= 0 || v->qs.np_en[p] >= 0;
	if (known) {
		out_list_begin(o, "dcqcn_priorities", NULL);
		for (int p = 0; p < 8; p++)
			if (v->qs.rp_en[p] == 1 || v->qs.np_en[p] == 1)
				out_u64(o, NULL, NULL, (uint64_t)p);
		out_list_end(o);
	} else {
		out_null(o, "dcqcn_priorities", NULL);
	}
	if (v->qs.cnp_dscp >= 0)
		out_u64(o, "cnp_dscp", NULL, (uint64_t)v->qs.cnp_dscp);
	else
		out_null(o, "cnp_dscp", NULL);
	if (v->qs.cnp_prio >= 0)
		out_u64(o, "cnp_802p_prio", NULL, (uint64_t)v->qs.cnp_prio);
	else
		out_null(o, "cnp_802p_prio", NULL);
	out_obj_end(o);
	if (chk)
		qos_check_out(o, &v->rep);
}

static int parse_prio(struct cli *cli, const char *s, const char *what, int *out)
{
	uint64_t v;

	if (mlx_parse_u64(s, &v) < 0 || v > 7) {
		cli_error(cli, "invalid %s '%s': priorities are 0-7", what, s);
		return EXIT_USAGE;
	}
	*out = (int)v;
	return EXIT_OK;
}

int cmd_qos_show(struct cli *cli, int argc, char **argv)
{
	struct qport t[MAXPORTS];
	struct view *v = calloc(1, sizeof(*v));
	bool chk = cli_opt(cli, "check") != NULL, json = out_is_json(cli->out);
	const char *rp = cli_opt(cli, "roce-prio");
	int roce_prio = -1, r = EXIT_OK, e;
	size_t n, bad = 0, found = 0;

	(void)argc;
	(void)argv;
	if (!v)
		return EXIT_FAIL;
	if (rp && (r = parse_prio(cli, rp, "--roce-prio", &roce_prio)))
		goto out;
	if ((r = targets(cli, t, &n)))
		goto out;
	if (!n && !cli->device) {
		struct mlx_devices *devs;

		/* No ConnectX on the host: a read of every port, empty (0). */
		if ((r = cli_devices(cli, &devs)) == EXIT_OK && !devs->nfn) {
			cli_say_no_devices(cli, devs);
			if (json) {
				out_table_begin(cli->out, "ports");
				out_table_end(cli->out);
			}
			goto out;
		}
	}
	if (!n) {
		cli_error(cli, "no ConnectX network interface on this system");
		cli_hint(cli, "'mlxcli ports' lists the ports; -d IFNAME names any interface");
		r = EXIT_NODEV;
		goto out;
	}
	if (json)
		out_table_begin(cli->out, "ports");
	for (size_t i = 0; i < n; i++) {
		e = read_view(cli, &t[i], v);
		if (e < 0) {
			int code = cli_fail(cli, e, "cannot read the QoS settings");

			if (!bad++)
				r = code;
			continue;
		}
		if (chk) {
			if ((e = qos_check(cli, &v->qs, &v->st, roce_prio, &v->rep))) {
				r = e;
				goto out;
			}
			found += qos_check_problems(&v->rep);
		}
		if (v->lldpad)
			cli_warn(cli, "lldpad is running (%s) and may overwrite the DCB settings of %s",
				 v->lldpad_pid, t[i].ifname);
		if (json) {
			out_row_begin(cli->out);
			json_port(cli, &t[i], v, chk);
			out_row_end(cli->out);
		} else {
			if (i)
				fputc('\n', cli->out_fp);
			text_port(cli, &t[i], v, chk);
		}
	}
	if (json)
		out_table_end(cli->out);
	if (r == EXIT_OK && found)
		r = EXIT_FAIL;
	/* Exit 1 (findings, or a port that failed) still prints what was
	 * read: the dispatcher dumps JSON only on success. */
	if (json && r != EXIT_OK && bad < n)
		out_finish(cli->out);
out:
	free(v);
	return r;
}

/* ---- writes ---- */

struct change {
	char what[32];
	char old[160], new[160];
};

struct wctx {
	struct qport q;
	struct mlx_dcb_state *old, *new;
	struct change ch[16];
	size_t nch;
	char notes[8][300];
	size_t nnotes;
};

static void note(struct wctx *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct wctx *w, const char *fmt, ...)
{
	va_list ap;

	if (w->nnotes >= 8)
		return;
	va_start(ap, fmt);
	vsnprintf(w->notes[w->nnotes++], sizeof(w->notes[0]), fmt, ap);
	va_end(ap);
}

static void add_change(struct wctx *w, const char *what, const char *old, const char *new)
{
	struct change *c;

	if (w->nch >= 16)
		return;
	c = &w->ch[w->nch++];
	snprintf(c->what, sizeof(c->what), "%s", what);
	snprintf(c->old, sizeof(c->old), "%s", old);
	snprintf(c->new, sizeof(c->new), "%s", new);
}

static void fmt_u8v(const uint8_t *v, char *buf, size_t len)
{
	size_t o = 0;

	for (int i = 0; i < 8; i++)
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%d:%u", i ? " " : "", i, v[i]);
}

static void fmt_tsa(const struct ieee_ets *e, char *buf, size_t len)
{
	size_t o = 0;

	for (int i = 0; i < 8; i++)
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%d:%s", i ? " " : "", i,
				      mlx_dcb_tsa_name(e->tc_tsa[i]));
}

static void fmt_bw(const struct ieee_ets *e, char *buf, size_t len)
{
	size_t o = 0;

	for (int i = 0; i < 8; i++)
		if (e->tc_tsa[i] == IEEE_8021QAZ_TSA_ETS)
			o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%d:%u", o ? " " : "", i,
					      e->tc_tx_bw[i]);
	if (!o)
		snprintf(buf, len, "none");
}

static void fmt_rates(const struct ieee_maxrate *m, char *buf, size_t len)
{
	size_t o = 0;

	for (int i = 0; i < 8; i++) {
		if (m->tc_maxrate[i])
			o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%d:%" PRIu64 "Mbit",
					      i ? " " : "", i, (uint64_t)(m->tc_maxrate[i] / 1000));
		else
			o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%d:unlimited",
					      i ? " " : "", i);
	}
}

/* The entries of @st's DSCP map that differ from @other's ("48:6 49:6"),
 * or a summary when there are many. */
static void fmt_dscp(const struct mlx_dcb_state *st, const struct mlx_dcb_state *other,
		     char *buf, size_t len)
{
	int map[MLX_DCB_NDSCP], om[MLX_DCB_NDSCP], n = 0, nd = 0;
	size_t o = 0;

	mlx_dcb_dscp_map(st, map);
	mlx_dcb_dscp_map(other, om);
	for (int d = 0; d < 64; d++) {
		n += map[d] >= 0;
		nd += map[d] != om[d];
	}
	if (!n) {
		snprintf(buf, len, "(empty: trust pcp)");
		return;
	}
	if (nd > 8) {
		snprintf(buf, len, "%d entries", n);
		return;
	}
	for (int d = 0; d < 64; d++)
		if (map[d] != om[d])
			o += map[d] < 0 ? (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%d:none",
							   o ? " " : "", d)
					: (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%d:%d",
							   o ? " " : "", d, map[d]);
	if (!o)
		snprintf(buf, len, "%d entries", n);
}

/* Describe what differs between old and new (for output and --dry-run). */
static void diff(struct wctx *w)
{
	const struct mlx_dcb_state *a = w->old, *b = w->new;
	char x[200], y[200];

	if (a->dcbx != b->dcbx)
		add_change(w, "dcbx", dcbx_mode(a->dcbx), dcbx_mode(b->dcbx));
	if (memcmp(a->ets.prio_tc, b->ets.prio_tc, 8)) {
		fmt_u8v(a->ets.prio_tc, x, sizeof(x));
		fmt_u8v(b->ets.prio_tc, y, sizeof(y));
		add_change(w, "prio-tc", x, y);
	}
	if (memcmp(a->ets.tc_tsa, b->ets.tc_tsa, 8)) {
		fmt_tsa(&a->ets, x, sizeof(x));
		fmt_tsa(&b->ets, y, sizeof(y));
		add_change(w, "tsa", x, y);
	}
	fmt_bw(&a->ets, x, sizeof(x));
	fmt_bw(&b->ets, y, sizeof(y));
	if (strcmp(x, y))
		add_change(w, "bw", x, y);
	if (memcmp(&a->maxrate, &b->maxrate, sizeof(a->maxrate))) {
		fmt_rates(&a->maxrate, x, sizeof(x));
		fmt_rates(&b->maxrate, y, sizeof(y));
		add_change(w, "tc-maxrate", x, y);
	}
	if (a->pfc.pfc_en != b->pfc.pfc_en) {
		mlx_prio_list(a->pfc.pfc_en, x, sizeof(x));
		mlx_prio_list(b->pfc.pfc_en, y, sizeof(y));
		add_change(w, "pfc", x, y);
	}
	if (a->pfc.delay != b->pfc.delay) {
		snprintf(x, sizeof(x), "%u m", a->pfc.delay);
		snprintf(y, sizeof(y), "%u m", b->pfc.delay);
		add_change(w, "cable-len", x, y);
	}
	if (memcmp(a->buffer.prio2buffer, b->buffer.prio2buffer, 8)) {
		fmt_u8v(a->buffer.prio2buffer, x, sizeof(x));
		fmt_u8v(b->buffer.prio2buffer, y, sizeof(y));
		add_change(w, "prio-buffer", x, y);
	}
	if (memcmp(a->buffer.buffer_size, b->buffer.buffer_size, sizeof(a->buffer.buffer_size))) {
		size_t o = 0, p = 0;

		for (int i = 0; i < 8; i++) {
			o += (size_t)snprintf(x + o, o < sizeof(x) ? sizeof(x) - o : 0, "%s%u", i ? "," : "",
					      a->buffer.buffer_size[i]);
			p += (size_t)snprintf(y + p, p < sizeof(y) ? sizeof(y) - p : 0, "%s%u", i ? "," : "",
					      b->buffer.buffer_size[i]);
		}
		add_change(w, "buffer-size", x, y);
	}
	{
		bool ta = mlx_dcb_trust_dscp(a), tb = mlx_dcb_trust_dscp(b);

		int ma[MLX_DCB_NDSCP], mb[MLX_DCB_NDSCP];

		mlx_dcb_dscp_map(a, ma);
		mlx_dcb_dscp_map(b, mb);
		fmt_dscp(a, b, x, sizeof(x));
		fmt_dscp(b, a, y, sizeof(y));
		if (memcmp(ma, mb, sizeof(ma)))
			add_change(w, "dscp2prio", x, y);
		if (ta != tb)
			add_change(w, "trust", ta ? "dscp" : "pcp", tb ? "dscp" : "pcp");
	}
}

/* Lock, read, let @edit compute the new state, apply, verify, report. */
typedef int (*edit_fn)(struct cli *cli, struct wctx *w, void *arg);

static int write_qos(struct cli *cli, edit_fn edit, void *arg)
{
	struct wctx *w = calloc(1, sizeof(*w));
	struct mlx_dcb_state *st = calloc(3, sizeof(*st));
	bool dry = cli_opt(cli, "dry-run") != NULL;
	struct mlx_dcb_result res;
	struct out *o = cli->out;
	int r, e, lockfd = -1;
	char lockname[40];

	if (!w || !st) {
		free(w);
		free(st);
		cli_error(cli, "out of memory");
		return EXIT_FAIL;
	}
	w->old = &st[0];
	w->new = &st[1];
	r = one_target(cli, &w->q);
	if (r)
		goto out;
	if (!dry && !mlx_dcb_may_write(cli->ctx)) {
		cli_error(cli, "cannot change the QoS settings of '%s': permission denied (DCB "
			  "changes need CAP_NET_ADMIN); nothing was changed", w->q.ifname);
		cli_hint(cli, "run as root");
		r = EXIT_PERM;
		goto out;
	}
	if (!dry) {
		snprintf(lockname, sizeof(lockname), "%s", w->q.fn ? w->q.fn->bdf : w->q.ifname);
		e = mlx_lock_device(cli->ctx, lockname, &lockfd);
		if (e < 0) {
			r = cli_fail(cli, e, "cannot lock the device");
			goto out;
		}
	}
	e = mlx_dcb_get(cli->ctx, w->q.ifname, w->old);
	if (e < 0) {
		r = cli_fail(cli, e, "cannot read the QoS settings");
		cli_error(cli, "nothing was changed");
		goto out;
	}
	*w->new = *w->old;
	r = edit(cli, w, arg);
	if (r)
		goto out;
	diff(w);
	if (!dry && w->nch) {
		e = mlx_dcb_apply(cli->ctx, w->q.ifname, w->old, w->new, &res);
		if (e < 0) {
			r = cli_exit_code(e);
			if (r == EXIT_OK || r == EXIT_NODEV)
				r = EXIT_FAIL;
			cli_error(cli, "%s", mlx_errmsg(cli->ctx));
			if (!res.nsent && res.restored)
				cli_error(cli, "the '%s' message failed; what the kernel had applied of it "
					  "was put back; nothing was changed", res.failed_what);
			else if (res.restored)
				cli_error(cli, "the '%s' message failed after %zu message(s) had been "
					  "applied: they were put back; nothing was changed",
					  res.failed_what, res.nsent);
			else
				cli_error(cli, "the '%s' message failed, and putting back the settings "
					  "failed too (%s): check with 'mlxcli show qos -d %s'",
					  res.failed_what, strerror(-res.restore_err), w->q.ifname);
			goto out;
		}
		/* Read back: a driver may accept and adjust. */
		e = mlx_dcb_get(cli->ctx, w->q.ifname, &st[2]);
		if (e == 0 && ((w->new->has_ets && memcmp(st[2].ets.prio_tc, w->new->ets.prio_tc, 8)) ||
			       (w->new->has_pfc && st[2].pfc.pfc_en != w->new->pfc.pfc_en) ||
			       mlx_dcb_trust_dscp(&st[2]) != mlx_dcb_trust_dscp(w->new)))
			cli_warn(cli, "reading back '%s' shows other values than were written: check "
				 "with 'mlxcli show qos -d %s'", w->q.ifname, w->q.ifname);
	}
	if (out_is_json(o)) {
		out_str(o, "netdev", NULL, w->q.ifname);
		out_bool(o, "dry_run", NULL, dry);
		out_table_begin(o, "changes");
		for (size_t i = 0; i < w->nch; i++) {
			out_row_begin(o);
			out_str(o, "setting", NULL, w->ch[i].what);
			out_str(o, "old", NULL, w->ch[i].old);
			out_str(o, "new", NULL, w->ch[i].new);
			out_row_end(o);
		}
		out_table_end(o);
		out_list_begin(o, "notes", NULL);
		for (size_t i = 0; i < w->nnotes; i++)
			out_str(o, NULL, NULL, w->notes[i]);
		out_list_end(o);
	} else {
		for (size_t i = 0; i < w->nch; i++)
			fprintf(cli->out_fp, "%s: %s -> %s\n", w->ch[i].what, w->ch[i].old, w->ch[i].new);
		if (!w->nch)
			fprintf(cli->out_fp, "no change: %s already has these settings\n", w->q.ifname);
		for (size_t i = 0; i < w->nnotes; i++)
			fprintf(cli->out_fp, "note: %s\n", w->notes[i]);
	}
	r = EXIT_OK;
out:
	if (lockfd >= 0)
		close(lockfd);
	free(w);
	free(st);
	return r;
}

/* ---- the verbs ---- */

static int need_ets(struct cli *cli, struct wctx *w)
{
	if (!w->old->has_ets) {
		cli_error(cli, "'%s' reports no ETS configuration (the driver has no ieee_getets); "
			  "nothing was changed", w->q.ifname);
		return EXIT_NOTSUP;
	}
	return EXIT_OK;
}

static int edit_trust(struct cli *cli, struct wctx *w, void *arg)
{
	const char *mode = arg;
	struct mlx_dcb_state *n = w->new;
	int map[MLX_DCB_NDSCP], added = 0;

	if (!strcmp(mode, "pcp")) {
		size_t k = 0;

		for (size_t i = 0; i < n->napp; i++)
			if (n->app[i].selector != IEEE_8021QAZ_APP_SEL_DSCP)
				n->app[k++] = n->app[i];
		if (k != n->napp)
			note(w, "mlx5 trusts PCP when the APP table has no DSCP entry: the %zu DSCP "
			     "entries were removed", n->napp - k);
		n->napp = k;
		return EXIT_OK;
	}
	mlx_dcb_dscp_map(n, map);
	for (int d = 0; d < 64; d++) {
		if (map[d] >= 0)
			continue;
		if (n->napp >= MLX_DCB_MAX_APP)
			break;
		n->app[n->napp].selector = IEEE_8021QAZ_APP_SEL_DSCP;
		n->app[n->napp].protocol = (uint16_t)d;
		n->app[n->napp].priority = (uint8_t)(d >> 3);
		n->napp++;
		added++;
	}
	if (added)
		note(w, "mlx5 trusts DSCP when the APP table has a DSCP entry: installed the default "
		     "map (priority = DSCP / 8) for the %d DSCP values that had no entry, as "
		     "mlnx_qos --trust dscp does", added);
	(void)cli;
	return EXIT_OK;
}

int cmd_qos_trust(struct cli *cli, int argc, char **argv)
{
	(void)argc;
	if (strcmp(argv[0], "pcp") && strcmp(argv[0], "dscp")) {
		cli_error(cli, "invalid trust state '%s': pcp or dscp", argv[0]);
		return EXIT_USAGE;
	}
	return write_qos(cli, edit_trust, argv[0]);
}

struct d2p {
	int op;                 /* 0 set, 1 del, 2 flush */
	int n;
	int dscp[64], prio[64];
};

static int edit_dscp2prio(struct cli *cli, struct wctx *w, void *arg)
{
	struct d2p *a = arg;
	struct mlx_dcb_state *n = w->new;
	bool was = mlx_dcb_trust_dscp(w->old);

	if (a->op == 2) {
		edit_trust(cli, w, "pcp");
		return EXIT_OK;
	}
	for (int i = 0; i < a->n; i++) {
		size_t k;

		for (k = 0; k < n->napp; k++)
			if (n->app[k].selector == IEEE_8021QAZ_APP_SEL_DSCP &&
			    n->app[k].protocol == a->dscp[i])
				break;
		if (a->op == 0) {
			if (k == n->napp) {
				if (n->napp >= MLX_DCB_MAX_APP)
					return EXIT_FAIL;
				n->napp++;
			}
			n->app[k].selector = IEEE_8021QAZ_APP_SEL_DSCP;
			n->app[k].protocol = (uint16_t)a->dscp[i];
			n->app[k].priority = (uint8_t)a->prio[i];
		} else {
			if (k == n->napp || n->app[k].priority != a->prio[i]) {
				cli_error(cli, "cannot delete DSCP %d -> priority %d on %s: the map has %s; "
					  "nothing was changed", a->dscp[i], a->prio[i], w->q.ifname,
					  k == n->napp ? "no entry for that DSCP" : "another priority for it");
				return EXIT_USAGE;
			}
			memmove(&n->app[k], &n->app[k + 1], (n->napp - k - 1) * sizeof(n->app[0]));
			n->napp--;
		}
	}
	if (!was && mlx_dcb_trust_dscp(n))
		note(w, "mlx5: the first DSCP entry switches the port to trust dscp; DSCP values "
		     "without an entry map to priority 0 ('trust dscp' installs the full default map)");
	if (was && !mlx_dcb_trust_dscp(n))
		note(w, "mlx5: deleting the last DSCP entry switches the port back to trust pcp");
	return EXIT_OK;
}

int cmd_qos_dscp2prio(struct cli *cli, int argc, char **argv)
{
	struct d2p a = { 0 };

	if (!strcmp(argv[0], "flush")) {
		if (argc != 1) {
			cli_error(cli, "'flush' takes no values");
			return EXIT_USAGE;
		}
		a.op = 2;
	} else if (!strcmp(argv[0], "set") || !strcmp(argv[0], "del")) {
		a.op = argv[0][0] == 'd';
		if (argc < 3 || (argc - 1) % 2) {
			cli_error(cli, "'%s' takes DSCP PRIO pairs", argv[0]);
			return EXIT_USAGE;
		}
		for (int i = 1; i < argc; i += 2) {
			uint64_t d;

			if (mlx_parse_u64(argv[i], &d) < 0 || d > 63) {
				cli_error(cli, "invalid DSCP '%s': DSCP values are 0-63", argv[i]);
				return EXIT_USAGE;
			}
			if (parse_prio(cli, argv[i + 1], "priority", &a.prio[a.n]))
				return EXIT_USAGE;
			a.dscp[a.n++] = (int)d;
		}
	} else {
		cli_error(cli, "unknown dscp2prio action '%s': set, del or flush", argv[0]);
		return EXIT_USAGE;
	}
	return write_qos(cli, edit_dscp2prio, &a);
}

struct pfc_arg {
	uint8_t mask;
	int cable;
};

static int edit_pfc(struct cli *cli, struct wctx *w, void *arg)
{
	struct pfc_arg *a = arg;
	char why[200];

	if (!w->old->has_pfc) {
		cli_error(cli, "'%s' reports no PFC configuration; nothing was changed", w->q.ifname);
		return EXIT_NOTSUP;
	}
	w->new->pfc.pfc_en = a->mask;
	if (a->cable >= 0)
		w->new->pfc.delay = (uint16_t)a->cable;
	if (mlx_dcb_validate_pfc(&w->new->pfc, why, sizeof(why)) < 0) {
		cli_error(cli, "cannot set PFC on %s: %s", w->q.ifname, why);
		return EXIT_USAGE;
	}
	if (a->cable >= 0)
		note(w, "mlx5 uses the cable length to size the receive buffers' xoff/xon thresholds");
	return EXIT_OK;
}

static int parse_prio_list(struct cli *cli, const char *s, uint8_t *mask)
{
	char buf[64], *tok, *save = NULL;

	*mask = 0;
	if (!strcmp(s, "none"))
		return EXIT_OK;
	if (strlen(s) >= sizeof(buf) || !*s) {
		cli_error(cli, "invalid priority list '%s'", s);
		return EXIT_USAGE;
	}
	if (s[0] == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,")) {
		/* strtok_r would skip the empty element: "3,,4" is a typo, not 3,4 */
		cli_error(cli, "invalid priority list '%s': an empty element; priorities are 0-7, "
			  "separated by single commas", s);
		return EXIT_USAGE;
	}
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int p;

		if (parse_prio(cli, tok, "priority", &p))
			return EXIT_USAGE;
		*mask |= (uint8_t)(1u << p);
	}
	return EXIT_OK;
}

int cmd_qos_pfc(struct cli *cli, int argc, char **argv)
{
	struct pfc_arg a = { .cable = -1 };
	const char *cl = cli_opt(cli, "cable-len");

	(void)argc;
	if (parse_prio_list(cli, argv[0], &a.mask))
		return EXIT_USAGE;
	if (cl) {
		uint64_t v;

		if (mlx_parse_u64(cl, &v) < 0 || v == 0 || v >= MLX_DCB_MAX_CABLE_LEN) {
			cli_error(cli, "invalid cable length '%s': 1-%d metres", cl,
				  MLX_DCB_MAX_CABLE_LEN - 1);
			return EXIT_USAGE;
		}
		a.cable = (int)v;
	}
	return write_qos(cli, edit_pfc, &a);
}

/* ets: prio-tc P:TC..., tsa TC:NAME..., bw TC:PCT... */
struct ets_arg {
	int prio_tc[8];         /* -1: keep */
	int tsa[8];
	int bw[8];
};

static int pair(struct cli *cli, const char *s, const char *kw, unsigned *idx, const char **val)
{
	const char *c = strchr(s, ':');
	char num[8];
	uint64_t v;

	if (!c || c == s || (size_t)(c - s) >= sizeof(num)) {
		cli_error(cli, "invalid '%s' value '%s': expected INDEX:VALUE", kw, s);
		return EXIT_USAGE;
	}
	memcpy(num, s, (size_t)(c - s));
	num[c - s] = '\0';
	if (mlx_parse_u64(num, &v) < 0 || v > 7) {
		cli_error(cli, "invalid '%s' index '%s': %s 0-7", kw, num,
			  strcmp(kw, "prio-tc") ? "traffic classes are" : "priorities are");
		return EXIT_USAGE;
	}
	*idx = (unsigned)v;
	*val = c + 1;
	return EXIT_OK;
}

static int edit_ets(struct cli *cli, struct wctx *w, void *arg)
{
	struct ets_arg *a = arg;
	struct ieee_ets *e = &w->new->ets;
	unsigned cap;
	char why[200];
	int r = need_ets(cli, w);

	if (r)
		return r;
	cap = e->ets_cap && e->ets_cap <= 8 ? e->ets_cap : 8;
	/* mlx5 reports 100 for strict/vendor TCs: start from 0 there. */
	for (int tc = 0; tc < 8; tc++)
		if (e->tc_tsa[tc] != IEEE_8021QAZ_TSA_ETS)
			e->tc_tx_bw[tc] = 0;
	for (int i = 0; i < 8; i++) {
		if (a->prio_tc[i] >= 0) {
			if ((unsigned)a->prio_tc[i] >= cap) {
				cli_error(cli, "cannot map priority %d to TC %d on %s: it has %u traffic "
					  "classes (TC 0-%u); nothing was changed", i, a->prio_tc[i],
					  w->q.ifname, cap, cap - 1);
				return EXIT_USAGE;
			}
			e->prio_tc[i] = (uint8_t)a->prio_tc[i];
		}
		if (a->tsa[i] >= 0) {
			if ((unsigned)i >= cap) {
				cli_error(cli, "TC %d does not exist on %s (TC 0-%u)", i, w->q.ifname, cap - 1);
				return EXIT_USAGE;
			}
			e->tc_tsa[i] = (uint8_t)a->tsa[i];
			if (a->tsa[i] != IEEE_8021QAZ_TSA_ETS)
				e->tc_tx_bw[i] = 0;
		}
	}
	for (int i = 0; i < 8; i++)
		if (a->bw[i] >= 0) {
			if (e->tc_tsa[i] != IEEE_8021QAZ_TSA_ETS && a->bw[i]) {
				cli_error(cli, "cannot give TC %d %d%% on %s: it is %s, and bandwidth shares "
					  "apply only to ETS traffic classes (add 'tsa %d:ets'); nothing "
					  "was changed", i, a->bw[i], w->q.ifname,
					  mlx_dcb_tsa_name(e->tc_tsa[i]), i);
				return EXIT_USAGE;
			}
			e->tc_tx_bw[i] = (uint8_t)a->bw[i];
		}
	if (mlx_dcb_validate_ets(e, why, sizeof(why)) < 0) {
		cli_error(cli, "cannot set ETS on %s: %s; nothing was changed", w->q.ifname, why);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_qos_ets(struct cli *cli, int argc, char **argv)
{
	struct ets_arg a;
	const char *kw = NULL;
	unsigned npairs = 0;

	memset(&a, 0xff, sizeof(a));
	for (int i = 0; i <= argc; i++) {
		unsigned idx;
		const char *val;
		uint64_t v;

		if (i == argc || !strcmp(argv[i], "prio-tc") || !strcmp(argv[i], "tsa") ||
		    !strcmp(argv[i], "bw")) {
			if (kw && npairs == 0) {
				cli_error(cli, "'%s' needs at least one %s pair", kw,
					  !strcmp(kw, "prio-tc") ? "PRIO:TC" :
					  !strcmp(kw, "tsa") ? "TC:TSA" : "TC:PCT");
				return EXIT_USAGE;
			}
			if (i == argc)
				break;
			kw = argv[i];
			npairs = 0;
			continue;
		}
		npairs++;
		if (!kw) {
			cli_error(cli, "'%s': expected prio-tc, tsa or bw first", argv[i]);
			return EXIT_USAGE;
		}
		if (pair(cli, argv[i], kw, &idx, &val))
			return EXIT_USAGE;
		if (!strcmp(kw, "prio-tc")) {
			if (mlx_parse_u64(val, &v) < 0 || v > 7) {
				cli_error(cli, "invalid TC '%s' for priority %u: traffic classes are 0-7",
					  val, idx);
				return EXIT_USAGE;
			}
			a.prio_tc[idx] = (int)v;
		} else if (!strcmp(kw, "tsa")) {
			if (!strcmp(val, "strict"))
				a.tsa[idx] = IEEE_8021QAZ_TSA_STRICT;
			else if (!strcmp(val, "ets"))
				a.tsa[idx] = IEEE_8021QAZ_TSA_ETS;
			else if (!strcmp(val, "vendor"))
				a.tsa[idx] = IEEE_8021QAZ_TSA_VENDOR;
			else {
				cli_error(cli, "invalid TSA '%s' for TC %u: strict, ets or vendor (mlx5 has "
					  "no cbs)", val, idx);
				return EXIT_USAGE;
			}
		} else {
			if (mlx_parse_u64(val, &v) < 0 || v > 100) {
				cli_error(cli, "invalid bandwidth '%s' for TC %u: a percentage 0-100; the "
					  "ETS TCs' shares must add up to 100", val, idx);
				return EXIT_USAGE;
			}
			a.bw[idx] = (int)v;
		}
	}
	return write_qos(cli, edit_ets, &a);
}

/* tc-bw: TC RATE pairs, RATE in Mb/s (or with a Mbit/Gbit suffix), 0 or
 * "unlimited" for no limit. */
struct rate_arg {
	int64_t mbps[8];        /* -1 keep */
	bool mlxtool;
};

static int parse_rate(const char *s, uint64_t *mbps)
{
	char *end;
	unsigned long long v;
	uint64_t mul = 1;

	if (!strcasecmp(s, "unlimited")) {
		*mbps = 0;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	if (!strcasecmp(end, "g") || !strcasecmp(end, "gbit") || !strcasecmp(end, "gbps"))
		mul = 1000;
	else if (*end && strcasecmp(end, "m") && strcasecmp(end, "mbit") && strcasecmp(end, "mbps"))
		return -EINVAL;
	if (v > UINT64_MAX / 1000)
		return -ERANGE;
	*mbps = v * mul;
	return 0;
}

static int edit_rates(struct cli *cli, struct wctx *w, void *arg)
{
	struct rate_arg *a = arg;

	if (!w->old->has_maxrate) {
		cli_error(cli, "'%s' reports no per-TC max rate (the driver has no ieee_getmaxrate); "
			  "nothing was changed", w->q.ifname);
		return EXIT_NOTSUP;
	}
	for (int tc = 0; tc < 8; tc++) {
		uint64_t applied;
		int how;

		if (a->mbps[tc] < 0)
			continue;
		mlx_dcb_rate_quantize((uint64_t)a->mbps[tc], &applied, &how);
		w->new->maxrate.tc_maxrate[tc] = applied * 1000;
		if (how == MLX_RATE_RAISED)
			note(w, "TC %d: %" PRId64 " Mb/s is below the minimum: raised to 100 Mb/s", tc,
			     a->mbps[tc]);
		else if (how == MLX_RATE_ROUNDED)
			note(w, "TC %d: %" PRId64 " Mb/s rounded down to %" PRIu64 " Mb/s (the device "
			     "takes 100 Mb/s steps up to 25.5 Gb/s, 1 Gb/s steps above)", tc,
			     a->mbps[tc], applied);
	}
	return EXIT_OK;
}

static int rates(struct cli *cli, int argc, char **argv, bool mlxtool)
{
	struct rate_arg a;

	memset(&a, 0xff, sizeof(a));
	a.mlxtool = mlxtool;
	if (argc % 2) {
		cli_error(cli, "'mlxcli %s' takes TC RATE pairs: '%s' has no rate", cli->path,
			  argv[argc - 1]);
		return EXIT_USAGE;
	}
	for (int i = 0; i < argc; i += 2) {
		uint64_t tc, mbps, applied;
		int how;

		if (mlx_parse_u64(argv[i], &tc) < 0 || tc > 7) {
			cli_error(cli, "invalid traffic class '%s': traffic classes are 0-7", argv[i]);
			return EXIT_USAGE;
		}
		if (parse_rate(argv[i + 1], &mbps) < 0 ||
		    mlx_dcb_rate_quantize(mbps, &applied, &how) < 0) {
			cli_error(cli, "invalid rate '%s' for TC %" PRIu64 ": Mb/s (or with a Gbit suffix) "
				  "from 100 Mb/s to %llu Gb/s, 0 or 'unlimited' for no limit",
				  argv[i + 1], tc, MLX_DCB_RATE_MAX_MBPS / 1000);
			return EXIT_USAGE;
		}
		a.mbps[tc] = (int64_t)mbps;
	}
	return write_qos(cli, edit_rates, &a);
}

int cmd_qos_tc_bw(struct cli *cli, int argc, char **argv)
{
	return rates(cli, argc, argv, false);
}

/* mlxtool: modify tc-bw IFNAME TC MBPS [TC MBPS...] */
int cmd_modify_tc_bw(struct cli *cli, int argc, char **argv)
{
	/* The mlxtool form arrives as given, or already mapped to "-d IFNAME"
	 * by the Windows-syntax layer (cmd/compat.c). */
	if (cli->device && argc % 2 == 0)
		return rates(cli, argc, argv, true);
	if (cli->device && strcmp(cli->device, argv[0])) {
		cli_error(cli, "give the interface once: '%s' or -d %s", argv[0], cli->device);
		return EXIT_USAGE;
	}
	cli->device = argv[0];
	return rates(cli, argc - 1, argv + 1, true);
}

struct buf_arg {
	int p2b[8];
	int64_t size[8];
};

static int edit_buffer(struct cli *cli, struct wctx *w, void *arg)
{
	struct buf_arg *a = arg;
	char why[200];

	if (!w->old->has_buffer) {
		cli_error(cli, "'%s' reports no receive buffer configuration (no DCB_ATTR_DCB_BUFFER: "
			  "the driver or firmware has no buffer support); nothing was changed",
			  w->q.ifname);
		return EXIT_NOTSUP;
	}
	for (int i = 0; i < 8; i++) {
		if (a->p2b[i] >= 0)
			w->new->buffer.prio2buffer[i] = (uint8_t)a->p2b[i];
		if (a->size[i] >= 0)
			w->new->buffer.buffer_size[i] = (uint32_t)a->size[i];
	}
	if (mlx_dcb_validate_buffer(&w->new->buffer, why, sizeof(why)) < 0) {
		cli_error(cli, "cannot set the buffers of %s: %s; nothing was changed", w->q.ifname, why);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_qos_buffer(struct cli *cli, int argc, char **argv)
{
	struct buf_arg a;
	const char *kw = NULL;

	memset(&a, 0xff, sizeof(a));
	for (int i = 0; i < argc; i++) {
		unsigned idx;
		const char *val;
		uint64_t v;

		if (!strcmp(argv[i], "prio-buffer") || !strcmp(argv[i], "size")) {
			kw = argv[i];
			continue;
		}
		if (!kw) {
			cli_error(cli, "'%s': expected prio-buffer or size first", argv[i]);
			return EXIT_USAGE;
		}
		if (pair(cli, argv[i], kw, &idx, &val))
			return EXIT_USAGE;
		if (!strcmp(kw, "prio-buffer")) {
			if (mlx_parse_u64(val, &v) < 0 || v >= DCBX_MAX_BUFFERS) {
				cli_error(cli, "invalid buffer '%s' for priority %u: buffers are 0-%d", val,
					  idx, DCBX_MAX_BUFFERS - 1);
				return EXIT_USAGE;
			}
			a.p2b[idx] = (int)v;
		} else {
			if (mlx_parse_u64(val, &v) < 0 || v > UINT32_MAX) {
				cli_error(cli, "invalid size '%s' for buffer %u: bytes, 0-%u", val, idx,
					  UINT32_MAX);
				return EXIT_USAGE;
			}
			a.size[idx] = (int64_t)v;
		}
	}
	return write_qos(cli, edit_buffer, &a);
}

static int edit_dcbx(struct cli *cli, struct wctx *w, void *arg)
{
	const char *m = arg;

	(void)cli;
	if (!strcmp(m, "host")) {
		w->new->dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	} else {
		w->new->dcbx = w->old->dcbx & (uint8_t)~DCB_CAP_DCBX_HOST;
		note(w, "the firmware now negotiates ETS, PFC and APP with the switch (LLDP/DCBX): "
		     "settings made here may be replaced by what the switch advertises");
	}
	w->new->has_dcbx = true;
	if (!w->old->has_dcbx) {
		w->old->has_dcbx = true;
		w->old->dcbx = (uint8_t)~w->new->dcbx;  /* unknown: always send */
	}
	return EXIT_OK;
}

int cmd_qos_dcbx(struct cli *cli, int argc, char **argv)
{
	(void)argc;
	if (strcmp(argv[0], "host") && strcmp(argv[0], "firmware")) {
		cli_error(cli, "invalid DCBX owner '%s': host (the OS) or firmware", argv[0]);
		return EXIT_USAGE;
	}
	return write_qos(cli, edit_dcbx, argv[0]);
}

/* ---- tables (the verbs are entries of the qosconfig group, cmd/dcqcn.c) ---- */

const struct cmd_opt qos_show_opts[] = {
	{ "check", 0, NULL, "run the RoCE QoS rules (mlxcli-qos(8) CHECK): each finding with its "
	  "evidence and one fix; exit 1 on an error or a warning", NULL },
	{ "roce-prio", 0, "PRIO", "the RoCE priority, where the kernel does not say (upstream "
	  "mlx5 has no per-priority DCQCN enable)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

const struct cmd_opt qos_write_opts[] = {
	{ "dry-run", 0, NULL, "show what would change (old -> new) and write nothing", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

const struct cmd_opt qos_pfc_opts[] = {
	{ "dry-run", 0, NULL, "show what would change (old -> new) and write nothing", NULL },
	{ "cable-len", 0, "METRES", "cable length (1-999 m), which mlx5 uses for the buffer "
	  "thresholds", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct cmd_arg modify_tc_bw_args[] = {
	{ "IFNAME", NULL, SRC_NETDEVS, 0 },
	{ "TC", cli_prio_choices, SRC_NONE, ARG_REPEAT },
	{ "MBPS", NULL, SRC_NONE, 0 },
	CMD_ARG_END,
};

static const struct cmd modify_cmds[] = {
	{ "tc-bw", "", "per-TC max rate, mlxtool style (100 Mb/s or "
	  "1 Gb/s steps, rounded down, at least 100 Mb/s)", cmd_modify_tc_bw, 2, -1, CMD_WRITES, NULL,
	  qos_write_opts, NULL, NULL, modify_tc_bw_args },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group modify_group = {
	"modify", "mlxtool-style changes (modify tc-bw)", "mlxcli-qos(8)", modify_cmds
};
