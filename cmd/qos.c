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
		out_str(o, "mode", NULL, qos_dcbx_mode(st->dcbx));
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
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group modify_group = {
	"modify", "mlxtool-style changes (modify tc-bw)", "mlxcli-qos(8)", modify_cmds
};
