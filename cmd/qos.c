/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli show qos` (= `qosconfig show`) and the command tables of the QoS
 * verbs; the write verbs themselves are in cmd/qos-write.c.  Issue 4.
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
#include "qos-cmd.h"
#include "settings-cmd.h"


/* What one port's view holds besides the DCB state. */
struct view {
	struct mlx_qos_settings qos;      /* the DCB state as the settings model has it */
	bool lldpad;
	char lldpad_pid[32];
	struct mlx_qos_state qs;          /* the RoCE / DCQCN side (cmd/qos-check.c) */
	struct mlx_lint_report rep;       /* --check */
};

/* ---- targets ---- */

static int port_of_name(struct cli *cli, const char *name, struct qport *q)
{
	struct mlx_devices *devs;

	if (strlen(name) >= sizeof(q->ifname) || !mlx_netdev_exists(cli->ctx, name))
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

int qos_one_target(struct cli *cli, struct qport *q)
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
	struct mlx_dcb_state *st = &v->qos.st;
	bool sysfs = false;
	int r;

	memset(v, 0, sizeof(*v));
	r = mlx_dcb_get(cli->ctx, q->ifname, st);
	if (r < 0)
		return r;
	if (!st->has_buffer && mlx_dcb_sysfs_buffer(cli->ctx, q->ifname, &st->buffer) == 0)
		st->has_buffer = sysfs = true;
	mlx_err_clear(cli->ctx);
	mlx_qos_settings_from_state(&v->qos, st, sysfs);
	v->lldpad = mlx_dcb_lldpad_running(cli->ctx, v->lldpad_pid, sizeof(v->lldpad_pid));
	mlx_qos_state_init(&v->qs, q->ifname);
	qos_read_dcqcn(cli, q->fn, q->port, &v->qs);
	return 0;
}

/* ---- rendering ---- */

const char *qos_dcbx_mode(uint8_t d)
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
	if (v->qos.st.has_dcbx && !(v->qos.st.dcbx & DCB_CAP_DCBX_HOST))
		return "firmware";
	return "host";
}

/* A u8 array: JSON only (the text shows it in mlnx_qos's columns). */
static void json_u8v(struct out *o, const char *key, const uint8_t *v, size_t n)
{
	out_list_begin(o, key, NULL);
	for (size_t i = 0; i < n; i++)
		out_u64(o, NULL, NULL, v[i]);
	out_list_end(o);
}

static void json_u64v(struct out *o, const char *key, const uint64_t *v, size_t n)
{
	out_list_begin(o, key, NULL);
	for (size_t i = 0; i < n; i++)
		out_u64(o, NULL, NULL, v[i]);
	out_list_end(o);
}

/* A value that may be unknown (-1): null in JSON, "-" in text. */
static void fmt_opt(struct out *o, const char *key, const char *fmt, int v)
{
	if (v >= 0)
		out_fmt_u64(o, OUT_ANY, key, fmt, (uint64_t)v);
	else
		out_fmt_null(o, OUT_ANY, key, fmt);
}

/* The priorities of one TC (or one DSCP group) in text: " 3 6". */
static void text_prios(struct out *o, const uint8_t *prio_tc, unsigned tc)
{
	bool none = true;

	for (int p = 0; p < 8; p++)
		if (prio_tc[p] == tc) {
			out_printf(o, " %d", p);
			none = false;
		}
	out_printf(o, "%s\n", none ? " (none)" : "");
}

/*
 * The DCB settings of one port: the one renderer of the structure, for
 * `show qos` (@x its view's other facts) and `state` (@x NULL), text and
 * JSON from the same calls (issue 14: the RoCE facts, the PFC cap and ETS
 * willing were in the JSON only while show qos was two renderers; issue
 * 26: state wrote the same structure out a second time).
 *
 * show qos: the text follows `mlnx_qos -i`, whose users read it; the lines
 * mlnx_qos has not (Owner, DCBX flags, PFC cap, ETS, RoCE) are ours.
 * Where mlnx_qos shows a fact in a layout JSON cannot share (the dscp2prio
 * groups, the PFC columns) the JSON form and the text form sit side by
 * side here, so a new fact is added to both or visibly to one.
 * state: the settings only (no capability, no count), one "path = value"
 * line each, the paths diff prints; an unlimited TC rate is 0 (null there
 * would be "unknown"), a TC that is not ETS has a null share.
 */
void qos_out_dcb(struct out *o, const struct mlx_qos_settings *q, const struct qos_show *x)
{
	const struct mlx_dcb_state *st = &q->st;
	struct spath s = { o, NULL };
	bool show = x != NULL;
	int map[MLX_DCB_NDSCP];
	size_t ndscp = 0, n = 0;
	unsigned cap;
	uint64_t v[8];

	if (q->have != MLX_SET) {
		/* No DCB on this port (or no netdev): every section unknown. */
		static const char *const keys[] = { "dcbx", "trust", "dscp2prio", "pfc", "ets", "tcs",
						    "buffer" };

		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			sp_null(&s, keys[i]);
		return;
	}

	if (q->dcbx == MLX_SET) {
		const char *ver = dcbx_ver(st->dcbx);

		if (show)
			out_printf(o, "DCBX mode: %s%s%s\n", st->dcbx & DCB_CAP_DCBX_HOST ?
				   "OS controlled" : "Firmware controlled", ver ? ", " : "",
				   ver ? (*ver == 'i' ? "IEEE" : "CEE") : "");
		out_obj_begin(o, "dcbx", NULL);
		s.pfx = "dcbx";
		if (show)
			out_fmt_str(o, OUT_JSON, "mode", NULL, qos_dcbx_mode(st->dcbx));
		else
			sp_str(&s, "mode", qos_dcbx_mode(st->dcbx));
		if (show) {
			out_fmt_str(o, OUT_JSON, "version", NULL, ver);
			out_fmt_u64(o, OUT_ANY, "flags", "DCBX flags: %s\n", st->dcbx);
		}
		out_obj_end(o);
		s.pfx = NULL;
	} else {
		if (show)
			out_null(o, "dcbx", NULL);
		else
			sp_null(&s, "dcbx");
	}
	if (show) {
		out_fmt_str(o, OUT_ANY, "owner", "Owner: %s", x->owner);
		out_fmt_str(o, OUT_JSON, "lldpad_pidfile", NULL, x->lldpad_pid);
		if (x->lldpad_pid)
			out_printf(o, " (%s): it may overwrite these settings", x->lldpad_pid);
		else if (st->has_dcbx && !(st->dcbx & DCB_CAP_DCBX_HOST))
			out_printf(o, " DCBX: settings follow the switch; 'mlxcli qosconfig dcbx -d %s "
				   "host' takes them back", x->ifname);
		out_printf(o, "\n");
	}

	for (size_t i = 0; i < st->napp; i++)
		ndscp += st->app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP;
	if (show) {
		out_fmt_str(o, OUT_ANY, "trust", "Priority trust state: %s",
			    mlx_dcb_trust_dscp(st) ? "dscp" : "pcp");
		if (ndscp)
			out_printf(o, " (%zu DSCP entries in the APP table)", ndscp);
		out_printf(o, "\n");
	} else {
		sp_str(&s, "trust", q->trust_dscp ? "dscp" : "pcp");
	}
	/* dscp2prio: the DSCP APP entries; state's text one line "d:p d:p ..." */
	mlx_dcb_dscp_map(st, map);
	if (!show)
		out_printf(o, "  dscp2prio =");
	out_list_begin(o, "dscp2prio", NULL);
	for (int d = 0; d < MLX_DCB_NDSCP; d++) {
		if (map[d] < 0)
			continue;
		out_obj_begin(o, NULL, NULL);
		out_fmt_u64(o, show ? OUT_JSON : OUT_ANY, "dscp", " %s", (uint64_t)d);
		out_fmt_u64(o, show ? OUT_JSON : OUT_ANY, "priority", ":%s", (uint64_t)map[d]);
		out_obj_end(o);
		n++;
	}
	out_list_end(o);
	if (!show)
		out_printf(o, "%s\n", n ? "" : " none");
	if (show && ndscp) {
		out_printf(o, "dscp2prio mapping:\n");
		for (int p = 0; p < 8; p++) {
			int k = 0;

			for (int d = 0; d < 64; d++) {
				if (map[d] != p)
					continue;
				if (k % 8 == 0)
					out_printf(o, "%s\tprio:%d dscp:", k ? "\n" : "", p);
				out_printf(o, "%s%02d", k % 8 ? "," : "", d);
				k++;
			}
			if (k)
				out_printf(o, "\n");
		}
	}

	/* mlnx_qos shows the buffers before PFC (the JSON's order is below) */
	if (show && q->buffer == MLX_SET) {
		out_printf(o, "Receive buffer size (bytes): ");
		for (int i = 0; i < 8; i++)
			out_printf(o, "%s%u", i ? "," : "", st->buffer.buffer_size[i]);
		out_fmt_u64(o, OUT_TEXT, NULL, " max_buffer_size=%s", st->buffer.total_size);
		out_printf(o, " (from %s)\n", q->buf_sysfs ? "qos/ sysfs" : "DCB netlink");
	}

	if (q->pfc == MLX_SET) {
		out_obj_begin(o, "pfc", NULL);
		s.pfx = "pfc";
		if (show)
			out_fmt_u64(o, OUT_ANY, "pfc_cap", "PFC cap: %s\n", st->pfc.pfc_cap);
		n = 0;
		for (int p = 0; p < 8; p++)
			if ((st->pfc.pfc_en >> p) & 1)
				v[n++] = (uint64_t)p;
		/* show: in text the "enabled" row below */
		if (show)
			json_u64v(o, "enabled_priorities", v, n);
		else
			sp_list(&s, "enabled_priorities", v, n);
		if (show) {
			out_fmt_u64(o, OUT_ANY, "cable_length_m", "Cable len: %s\n", st->pfc.delay);
			out_fmt_u64(o, OUT_ANY, "mbc", "PFC mbc: %s\n", st->pfc.mbc);
		} else {
			sp_u64(&s, "cable_length_m", st->pfc.delay);
		}
		out_obj_end(o);
		s.pfx = NULL;
		if (show) {
			out_printf(o, "PFC configuration:\n\tpriority ");
			for (int p = 0; p < 8; p++)
				out_printf(o, "   %d", p);
			out_printf(o, "\n\tenabled  ");
			for (int p = 0; p < 8; p++)
				out_printf(o, "   %d", (st->pfc.pfc_en >> p) & 1);
			if (q->buffer == MLX_SET) {
				out_printf(o, "\n\tbuffer   ");
				for (int p = 0; p < 8; p++)
					out_printf(o, "   %u", st->buffer.prio2buffer[p]);
			}
			out_printf(o, "\n");
		}
	} else {
		if (show)
			out_null(o, "pfc", NULL);
		else
			sp_null(&s, "pfc");
	}

	cap = q->ets == MLX_SET ? (st->ets.ets_cap && st->ets.ets_cap <= 8 ? st->ets.ets_cap : 8) : 0;
	if (q->ets == MLX_SET) {
		out_obj_begin(o, "ets", NULL);
		s.pfx = "ets";
		if (show) {
			out_fmt_u64(o, OUT_ANY, "ets_cap", "ETS: %s traffic classes", st->ets.ets_cap);
			out_fmt_bool(o, OUT_ANY, "willing", ", willing: %s\n", st->ets.willing);
		}
		if (show)
			json_u8v(o, "prio_tc", st->ets.prio_tc, 8);
		else
			sp_u8list(&s, "prio_tc", st->ets.prio_tc, 8);
		out_obj_end(o);
		s.pfx = NULL;
	} else {
		if (show)
			out_null(o, "ets", NULL);
		else
			sp_null(&s, "ets");
	}
	/* show lists no TC of a port without ETS; state says it is unknown */
	if (q->tcs != MLX_SET && !show) {
		sp_null(&s, "tcs");
	} else {
		out_list_begin(o, "tcs", NULL);
		for (unsigned tc = 0; tc < cap; tc++) {
			uint64_t kbps = st->has_maxrate ? st->maxrate.tc_maxrate[tc] : 0;
			uint8_t tsa = st->ets.tc_tsa[tc];
			char pfx[16];

			if (q->tc[tc] != MLX_SET)
				continue;
			snprintf(pfx, sizeof(pfx), "tcs.%u", tc);
			s.pfx = pfx;
			out_obj_begin(o, NULL, NULL);
			out_fmt_u64(o, OUT_JSON, "tc", NULL, tc);
			/* the kernel's unit is kb/s; mlx5 rounds to 100 Mb/s steps */
			if (show && kbps)
				out_printf(o, "tc: %u ratelimit: %.1f Gbps", tc, (double)kbps / 1e6);
			else if (show)
				out_printf(o, "tc: %u ratelimit: unlimited", tc);
			if (show)
				out_fmt_str(o, OUT_ANY, "tsa", ", tsa: %s", mlx_dcb_tsa_name(tsa));
			else
				sp_str(&s, "tsa", mlx_dcb_tsa_name(tsa));
			if (show && q->bw[tc] == MLX_SET)
				out_fmt_u64(o, OUT_ANY, "bandwidth_pct", ", bw: %s%%", st->ets.tc_tx_bw[tc]);
			else if (show)
				out_null(o, "bandwidth_pct", NULL);
			else
				sp_int(&s, "bandwidth_pct", q->bw[tc] == MLX_SET ? st->ets.tc_tx_bw[tc] : -1);
			/* unlimited: show says null, state 0 (as a VF's max_tx_rate_mbps) */
			if (show && kbps)
				out_u64(o, "max_rate_mbps", NULL, kbps / 1000);
			else if (show)
				out_null(o, "max_rate_mbps", NULL);
			else
				sp_u64(&s, "max_rate_mbps", kbps / 1000);
			if (show) {
				out_list_begin(o, "priorities", NULL);
				for (int p = 0; p < 8; p++)
					if (st->ets.prio_tc[p] == tc)
						out_u64(o, NULL, NULL, (uint64_t)p);
				out_list_end(o);
				out_printf(o, "\n\t priority: ");
				text_prios(o, st->ets.prio_tc, tc);
			}
			out_obj_end(o);
		}
		out_list_end(o);
		s.pfx = NULL;
	}

	if (q->buffer == MLX_SET) {
		/* the JSON keeps its key order (users diff it): show's source
		 * first, state's last (a fact, not a setting) */
		out_obj_begin(o, "buffer", NULL);
		s.pfx = "buffer";
		if (show)
			out_fmt_str(o, OUT_JSON, "source", NULL, q->buf_sysfs ? "sysfs" : "dcbnl");
		for (int i = 0; i < 8; i++)
			v[i] = st->buffer.buffer_size[i];
		if (show) {
			json_u8v(o, "prio2buffer", st->buffer.prio2buffer, 8);
			json_u64v(o, "size_bytes", v, 8);
		} else {
			sp_u8list(&s, "prio2buffer", st->buffer.prio2buffer, 8);
			sp_list(&s, "size_bytes", v, 8);
		}
		if (show)
			out_fmt_u64(o, OUT_JSON, "total_bytes", NULL, st->buffer.total_size);
		else
			out_fmt_str(o, OUT_JSON, "source", NULL, q->buf_sysfs ? "sysfs" : "dcbnl");
		out_obj_end(o);
		s.pfx = NULL;
	} else {
		if (show)
			out_null(o, "buffer", NULL);
		else
			sp_null(&s, "buffer");
	}
}

/* One port of show qos: its names, its DCB settings, its RoCE side. */
static void render_port(struct out *o, const struct qport *q, const struct view *v, bool chk)
{
	struct qos_show x = { .ifname = q->ifname, .owner = owner(v),
			      .lldpad_pid = v->lldpad ? v->lldpad_pid : NULL };
	bool known = false;

	out_fmt_str(o, OUT_ANY, "netdev", "Interface: %s", q->ifname);
	out_fmt_str(o, OUT_JSON, "pci_address", NULL, q->fn ? q->fn->bdf : NULL);
	if (q->fn)
		out_printf(o, " (%s)", q->fn->bdf);
	out_printf(o, "\n");
	qos_out_dcb(o, &v->qos, &x);

	out_obj_begin(o, "roce", "RoCE");
	for (int p = 0; p < 8; p++)
		known |= v->qs.rp_en[p] >= 0 || v->qs.np_en[p] >= 0;
	out_printf(o, "\tDCQCN priorities: ");
	if (known) {
		bool none = true;

		out_list_begin(o, "dcqcn_priorities", NULL);
		for (int p = 0; p < 8; p++)
			if (v->qs.rp_en[p] == 1 || v->qs.np_en[p] == 1) {
				out_fmt_u64(o, OUT_ANY, NULL, none ? "%s" : ",%s", (uint64_t)p);
				none = false;
			}
		out_list_end(o);
		out_printf(o, "%s\n", none ? "(none)" : "");
	} else {
		out_fmt_null(o, OUT_ANY, "dcqcn_priorities", "%s\n");
	}
	fmt_opt(o, "cnp_dscp", "\tCNP DSCP: %s\n", v->qs.cnp_dscp);
	fmt_opt(o, "cnp_802p_prio", "\tCNP 802.1p priority: %s\n", v->qs.cnp_prio);
	out_obj_end(o);
	if (chk)
		qos_check_out(o, &v->rep);
}

int qos_parse_prio(struct cli *cli, const char *s, const char *what, int *out)
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
	if (rp && (r = qos_parse_prio(cli, rp, "--roce-prio", &roce_prio)))
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
	out_list_begin(cli->out, "ports", NULL);
	for (size_t i = 0; i < n; i++) {
		e = read_view(cli, &t[i], v);
		if (e < 0) {
			int code = cli_fail(cli, e, "cannot read the QoS settings");

			if (!bad++)
				r = code;
			continue;
		}
		if (chk) {
			if ((e = qos_check(cli, &v->qs, &v->qos.st, roce_prio, &v->rep))) {
				r = e;
				goto out;
			}
			found += qos_check_problems(&v->rep);
		}
		if (v->lldpad)
			cli_warn(cli, "lldpad is running (%s) and may overwrite the DCB settings of %s",
				 v->lldpad_pid, t[i].ifname);
		if (i)
			out_printf(cli->out, "\n");
		out_obj_begin(cli->out, NULL, NULL);
		render_port(cli->out, &t[i], v, chk);
		out_obj_end(cli->out);
	}
	out_list_end(cli->out);
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

/* ---- tables (the verbs are entries of the qosconfig group, cmd/dcqcn.c) ---- */

const struct cmd_opt qos_show_opts[] = {
	{ "check", 0, NULL, "run the RoCE QoS rules (mlxcli-qos(8) CHECK): each finding with its "
	  "evidence and one fix; exit 1 on an error or a warning", NULL },
	{ "roce-prio", 0, "PRIO", "the RoCE priority, where the kernel does not say (upstream "
	  "mlx5 has no per-priority DCQCN enable)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

/* --dry-run comes from the dispatcher (CMD_WRITES). */
const struct cmd_opt qos_pfc_opts[] = {
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
	  NULL, NULL, NULL, modify_tc_bw_args },
	/* issue 17 (cmd/params.c) */
	{ "driverparams", "", "set knobs of one port, mlxtool style (as 'mlxcli params set')",
	  cmd_modify_driverparams, 2, -1, CMD_WRITES, NULL, params_set_opts, NULL, "mlxcli-params(8)",
	  params_modify_args },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group modify_group = {
	"modify", "mlxtool-style changes (modify tc-bw)", "mlxcli-qos(8)", modify_cmds
};
