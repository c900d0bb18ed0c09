/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SR-IOV writes: `sriov set numvfs`, `sriov vf N set`, `sriov eswitch
 * MODE`.  Each validates its words, then hands typed changes to the write
 * engine (lib/write.h) with the SR-IOV operations of lib/sriov: lock, read
 * the old values, write, read back, put back newest first.  A numvfs change
 * that loses VFs asks first, from the plan, with the count read under the
 * lock.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "sriov-cmd.h"
#include "settings.h"
#include "sriov.h"
#include "txn.h"
#include "write.h"

/* --dry-run comes from the dispatcher (CMD_WRITES). */
const struct cmd_opt sriov_numvfs_opts[] = {
	{ "yes", 'y', NULL, "do not ask before VFs and their settings are lost", NULL },
	{ "any-device", 0, NULL, CLI_ANY_DEVICE_HELP, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static int parse_uint(struct cli *cli, const char *what, const char *s, unsigned max, unsigned *v)
{
	uint64_t u;

	if (mlx_parse_u64(s, &u) < 0 || u > max) {
		cli_error(cli, "invalid %s '%s': expected a number from 0 to %u", what, s, max);
		return EXIT_USAGE;
	}
	*v = (unsigned)u;
	return EXIT_OK;
}

static int need_pf(struct cli *cli, struct mlx_function **pf)
{
	struct mlx_function *sel;
	int r;

	r = cli_select(cli, &sel, NULL);
	if (r)
		return r;
	if (sel->role == MLX_FN_VF) {
		return cli_need_pf(cli, sel);
	}
	return sriov_pick_pf(cli, sel, pf);
}

/*
 * What a numvfs change destroys.  The kernel takes every VF away before it
 * makes a new count (drivers/pci/iov.c sriov_numvfs_store refuses a change
 * between two non-zero counts, so mlxcli goes through 0): VFs [0, n) come
 * back with the defaults and VFs [n, cur) are gone, each with its MAC,
 * VLAN and rate.  One line per VF, for the change record and the question.
 */
static void lost_line(const struct mlx_devices *devs, const struct mlx_function *pf, int k,
		      unsigned n, const struct mlx_vf_info *vf, char *buf, size_t len)
{
	const struct mlx_function *fn = sriov_vf_fn(devs, pf, (uint32_t)k);
	char mac[24] = "unknown", vlan[40] = "unknown", rate[48] = "unknown";

	if (vf && vf->has_mac)
		mlx_fmt_mac(vf->mac, mac, sizeof(mac));
	if (vf && vf->has_vlan)
		snprintf(vlan, sizeof(vlan), "%u qos %u", vf->vlan, vf->qos);
	if (vf && (vf->has_rate || vf->max_tx_rate))
		snprintf(rate, sizeof(rate), "min %u max %u Mb/s", vf->min_tx_rate, vf->max_tx_rate);
	snprintf(buf, len, "VF %d (%s%s%s) %s: mac %s, vlan %s, rate %s", k, fn ? fn->bdf : "?",
		 fn && fn->nports ? " " : "", fn && fn->nports ? fn->ports[0].ifname : "",
		 (unsigned)k < n ? "reset to defaults" : "removed", mac, vlan, rate);
}

static const struct mlx_vf_info *vf_of(const struct mlx_link_vfs *l, int k)
{
	for (size_t i = 0; l && i < l->nvf; i++)
		if (l->vf[i].vf == (uint32_t)k)
			return &l->vf[i];
	return NULL;
}

/* The VFs a numvfs change loses, in the change record ("vfs_lost"). */
static void out_lost(struct cli *cli, const struct mlx_devices *devs, const struct mlx_function *pf,
		     int cur, unsigned n, const struct mlx_link_vfs *l)
{
	struct out *o = cli->out;
	char line[200], mac[24];

	out_list_begin(o, "vfs_lost", NULL);
	for (int k = 0; k < cur; k++) {
		const struct mlx_vf_info *vf = vf_of(l, k);
		const struct mlx_function *fn = sriov_vf_fn(devs, pf, (uint32_t)k);

		out_obj_begin(o, NULL, NULL);
		out_u64(o, "vf", NULL, (uint64_t)k);
		out_str(o, "pci_address", NULL, fn && mlx_fn_is_pci(fn) ? fn->bdf : NULL);
		out_str(o, "netdev", NULL, fn && fn->nports ? fn->ports[0].ifname : NULL);
		out_str(o, "fate", NULL, (unsigned)k < n ? "reset" : "removed");
		if (vf && vf->has_mac) {
			mlx_fmt_mac(vf->mac, mac, sizeof(mac));
			out_str(o, "mac", NULL, mac);
		} else {
			out_null(o, "mac", NULL);
		}
		if (vf && vf->has_vlan) {
			out_u64(o, "vlan", NULL, vf->vlan);
			out_u64(o, "qos", NULL, vf->qos);
		} else {
			out_null(o, "vlan", NULL);
			out_null(o, "qos", NULL);
		}
		if (vf && (vf->has_rate || vf->max_tx_rate)) {
			out_u64(o, "min_tx_rate_mbps", NULL, vf->min_tx_rate);
			out_u64(o, "max_tx_rate_mbps", NULL, vf->max_tx_rate);
		} else {
			out_null(o, "min_tx_rate_mbps", NULL);
			out_null(o, "max_tx_rate_mbps", NULL);
		}
		lost_line(devs, pf, k, n, vf, line, sizeof(line));
		out_text(o, "lost", line);
		out_obj_end(o);
	}
	out_list_end(o);
}

/*
 * DESIGN "Writes": a change that destroys other settings says what will be
 * lost and needs --yes or a terminal's answer (cli_confirm, the one rule),
 * asked from the plan before the transaction runs; the run goes ahead
 * only with the count the question named (lib/txn.h).  EXIT_OK to go
 * ahead, else the exit code of the refusal (its message out).
 */
static int confirm_lost(struct cli *cli, struct mlx_txn *t, const struct mlx_devices *devs,
			const struct mlx_sriov_writer *w, unsigned n)
{
	const struct mlx_function *pf = w->pf;
	unsigned cur = w->cur_numvfs;
	char line[200], refusal[300], question[200];

	if (cli_opt(cli, "yes") || cli->dry_run)
		return EXIT_OK;
	if (cli_will_ask(cli))
		fprintf(cli->err_fp, "numvfs %u -> %u on %s takes every VF away first; this is lost:\n",
			cur, n, pf->bdf);
	for (unsigned k = 0; k < cur; k++) {
		lost_line(devs, pf, (int)k, n, vf_of(w->have_before ? &w->before : NULL, (int)k), line,
			  sizeof(line));
		fprintf(cli->err_fp, "  %s\n", line);
	}
	snprintf(refusal, sizeof(refusal), "numvfs %u -> %u on %s takes every VF away first and loses "
		 "the settings listed above; nothing was changed", cur, n, pf->bdf);
	snprintf(question, sizeof(question), "go ahead");
	return cli_confirm(cli, t, refusal, "add --yes to go ahead, or --dry-run to see the change; "
			   "nothing was changed", question);
}

static struct mlx_port_settings *want_new(struct cli *cli)
{
	struct mlx_port_settings *w = mlx_port_settings_new();

	if (!w)
		cli_error(cli, "out of memory");
	return w;
}

int cmd_sriov_set(struct cli *cli, int argc, char **argv)
{
	struct mlx_port_settings *want = NULL;
	struct mlx_txn *txn = NULL;
	struct mlx_txn_step st;
	struct mlx_devices *devs;
	struct mlx_function *pf;
	struct mlx_port_ref ref;
	const struct mlx_sriov_writer *w;
	unsigned n;
	int r, e;

	(void)argc;
	r = need_pf(cli, &pf);
	if (r)
		return r;
	if (parse_uint(cli, "VF count", argv[0], 65535, &n))
		return EXIT_USAGE;
	if (pf->sriov_totalvfs >= 0 && n > (unsigned)pf->sriov_totalvfs) {
		cli_error(cli, "cannot set numvfs on %s to %u: the limit is %d (TotalVFs)", pf->bdf, n,
			  pf->sriov_totalvfs);
		return EXIT_USAGE;
	}
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	if (!(want = want_new(cli)))
		return EXIT_FAIL;
	want->sriov.have = want->sriov.numvfs_h = MLX_SET;
	want->sriov.numvfs = n;
	mlx_port_ref_init(&ref, pf, NULL, NULL);
	out_str(cli->out, "pci_address", NULL, mlx_fn_is_pci(pf) ? pf->bdf : NULL);
	e = mlx_txn_new(cli->ctx, &txn);
	if (e == 0)
		e = mlx_txn_add(txn, MLX_SUB_SRIOV, &ref, want, 0);
	/* The count and what it loses, read now: the question is asked from
	 * this plan, and the run writes only the change it named. */
	if (e >= 0)
		e = mlx_txn_plan(txn, 0);
	if (e >= 0) {
		mlx_txn_step(txn, 0, &st);
		w = st.writer;
		if (mlx_txn_destroys(txn))
			r = confirm_lost(cli, txn, devs, w, n);
		/* --yes takes what the count is under the lock; an answer at the
		 * terminal, only what it was asked about */
		if (!r && !cli->dry_run)
			e = mlx_txn_run(txn, cli_opt(cli, "yes") ? MLX_TXN_DESTROY_OK
							: MLX_TXN_DESTROY_AS_PLANNED);
	}
	if (e < 0) {
		r = cli_txn_fail(cli, txn, e, NULL, "write");
		if (r == EXIT_PERM)
			cli_hint(cli, "changing %s needs root", pf->bdf);
	}
	if (r == EXIT_OK) {
		mlx_txn_step(txn, 0, &st);
		w = st.writer;
		cli_out_changes(cli, st.plan);
		out_lost(cli, devs, pf, w->cur_numvfs != n ? (int)w->cur_numvfs : 0, n,
			 w->have_before ? &w->before : NULL);
		if (!cli->dry_run)
			r = cli_txn_done(cli, txn);
	}
	mlx_txn_free(txn);
	mlx_port_settings_free(want);
	return r;
}

const char *const sriov_vf_settings[] = {
	"mac", "vlan", "qos", "rate", "max-rate", "min-rate", "spoofchk", "trust", "state", NULL,
};
static const enum mlx_sriov_setting vf_setting_ids[] = {
	MLX_VF_MAC, MLX_VF_VLAN, MLX_VF_QOS, MLX_VF_MAX_TX_RATE, MLX_VF_MAX_TX_RATE,
	MLX_VF_MIN_TX_RATE, MLX_VF_SPOOFCHK, MLX_VF_TRUST, MLX_VF_LINK_STATE,
};

static int on_off(struct cli *cli, const char *what, const char *v, bool *on)
{
	if (!strcmp(v, "on"))
		*on = true;
	else if (!strcmp(v, "off"))
		*on = false;
	else {
		cli_error(cli, "invalid %s '%s': expected on or off", what, v);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* One SETTING VALUE pair of `sriov vf set`, validated (by the validators
 * apply's VF settings go through), into the VF's desired settings. */
static int vf_pair(struct cli *cli, const char *k, const char *v, struct mlx_vf_settings *vs)
{
	unsigned u;
	bool on;

	if (!strcmp(k, "mac")) {
		if (mlx_vf_put_mac(cli->ctx, vs, v) < 0) {
			cli_error(cli, "invalid MAC address '%s': %s", v, mlx_errmsg(cli->ctx));
			return EXIT_USAGE;
		}
	} else if (!strcmp(k, "vlan") || !strcmp(k, "qos")) {
		if (parse_uint(cli, k[0] == 'v' ? "VLAN" : "QoS", v, k[0] == 'v' ? 4095 : 7, &u))
			return EXIT_USAGE;
		if (k[0] == 'v')
			mlx_vf_put_vlan(cli->ctx, vs, u);
		else
			mlx_vf_put_qos(cli->ctx, vs, u);
	} else if (!strcmp(k, "rate") || !strcmp(k, "max-rate") || !strcmp(k, "min-rate")) {
		bool max = strcmp(k, "min-rate") != 0;

		if (max && vs->max_h == MLX_SET) {
			cli_error(cli, "'rate' and 'max-rate' are the same setting; give one");
			return EXIT_USAGE;
		}
		if (parse_uint(cli, "rate (Mb/s)", v, UINT32_MAX, &u))
			return EXIT_USAGE;
		mlx_vf_put_rate(cli->ctx, vs, max, u);
	} else if (!strcmp(k, "spoofchk") || !strcmp(k, "trust")) {
		if (on_off(cli, k, v, &on))
			return EXIT_USAGE;
		if (k[0] == 's') {
			vs->spoofchk = on;
			vs->spoofchk_h = MLX_SET;
		} else {
			vs->trust = on;
			vs->trust_h = MLX_SET;
		}
	} else if (mlx_vf_put_link_state(cli->ctx, vs, v) < 0) {
		cli_error(cli, "invalid state '%s': expected auto, enable or disable", v);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_sriov_vf(struct cli *cli, int argc, char **argv)
{
	struct mlx_port_settings *want = NULL;
	struct mlx_vf_settings *vs = NULL;
	struct mlx_port_ref ref;
	struct mlx_function *pf;
	struct mlx_txn *txn;
	bool given[9] = { false };
	unsigned vf;
	int r;

	if (strcmp(argv[1], "set")) {
		cli_error(cli, "unknown command '%s' in 'mlxcli sriov vf %s'", argv[1], argv[0]);
		cli_hint(cli, "usage: mlxcli sriov vf -d PF VF set SETTING VALUE...");
		return EXIT_USAGE;
	}
	r = need_pf(cli, &pf);
	if (r)
		return r;
	/* Validate everything before reading or writing anything. */
	if (parse_uint(cli, "VF index", argv[0], 65535, &vf))
		return EXIT_USAGE;
	if (pf->sriov_numvfs <= 0 || vf >= (unsigned)pf->sriov_numvfs) {
		if (pf->sriov_numvfs > 0)
			cli_error(cli, "VF %u does not exist on %s: it has %d VFs (0-%d)", vf, pf->bdf,
				  pf->sriov_numvfs, pf->sriov_numvfs - 1);
		else
			cli_error(cli, "VF %u does not exist on %s: SR-IOV is off (numvfs 0)", vf,
				  pf->bdf);
		return EXIT_USAGE;
	}
	if ((argc - 2) % 2 || argc < 4) {
		cli_error(cli, "'mlxcli sriov vf set' takes SETTING VALUE pairs");
		return EXIT_USAGE;
	}
	if (!(want = want_new(cli)) || !(vs = mlx_sriov_vf(cli->ctx, &want->sriov, vf, true))) {
		mlx_port_settings_free(want);
		return EXIT_FAIL;
	}
	for (int i = 2; i < argc && r == EXIT_OK; i += 2) {
		int idx = -1;

		for (int j = 0; sriov_vf_settings[j]; j++)
			if (!strcmp(sriov_vf_settings[j], argv[i]))
				idx = j;
		if (idx < 0) {
			const char *s = cli_suggest(argv[i], sriov_vf_settings, 9);

			cli_error(cli, "unknown VF setting '%s'", argv[i]);
			if (s)
				cli_hint(cli, "did you mean '%s'?", s);
			r = EXIT_USAGE;
			break;
		}
		if (given[idx]) {
			cli_error(cli, "VF setting '%s' given twice", argv[i]);
			r = EXIT_USAGE;
			break;
		}
		given[idx] = true;
		r = vf_pair(cli, argv[i], argv[i + 1], vs);
		/* written in the order given */
		if (r == EXIT_OK && vs->norder < sizeof(vs->order))
			vs->order[vs->norder++] = (uint8_t)vf_setting_ids[idx];
	}
	if (r == EXIT_OK && vs->max_h == MLX_SET && vs->min_h == MLX_SET && vs->max_rate &&
	    vs->min_rate > vs->max_rate) {
		cli_error(cli, "invalid rate: min-rate %" PRIu32 " is above max-rate %" PRIu32 " Mb/s",
			  vs->min_rate, vs->max_rate);
		r = EXIT_USAGE;
	}
	if (r == EXIT_OK) {
		mlx_port_ref_init(&ref, pf, NULL, NULL);
		out_str(cli->out, "pci_address", NULL, mlx_fn_is_pci(pf) ? pf->bdf : NULL);
		out_u64(cli->out, "vf", NULL, vf);
		r = cli_write_step(cli, MLX_SUB_VF, &ref, want, 0, &txn);
		if (r == EXIT_OK)
			mlx_txn_free(txn);
	}
	mlx_port_settings_free(want);
	return r;
}

/* The eswitch mode of every SR-IOV PF, one row each (unknown: null). */
static int eswitch_all(struct cli *cli)
{
	struct mlx_devices *devs;
	struct mlx_eswitch esw;
	int r;

	r = cli_devices(cli, &devs);
	if (r)
		return r;
	out_table_begin(cli->out, "eswitch");
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		if (fn->role != MLX_FN_PF || (fn->sriov_totalvfs < 0 && fn->sriov_numvfs < 0))
			continue;
		r = mlx_devlink_eswitch_get(cli->ctx, fn, &esw);
		if (r < 0)
			mlx_log(cli->ctx, MLX_LOG_INFO, "%s: no eswitch mode: %s", fn->bdf,
				*mlx_errmsg(cli->ctx) ? mlx_errmsg(cli->ctx) : strerror(-r));
		mlx_err_clear(cli->ctx);
		out_row_begin(cli->out);
		out_str(cli->out, "pci_address", "PCI", mlx_fn_is_pci(fn) ? fn->bdf : NULL);
		out_str(cli->out, "eswitch_mode", "ESWITCH_MODE", r == 0 ? mlx_eswitch_mode_str(esw.mode) : NULL);
		out_row_end(cli->out);
	}
	out_table_end(cli->out);
	if (!devs->nfn)
		sriov_say_none(cli, devs);
	return EXIT_OK;
}

int cmd_sriov_eswitch(struct cli *cli, int argc, char **argv)
{
	struct mlx_port_settings *want;
	struct mlx_port_ref ref;
	struct mlx_function *pf;
	struct mlx_eswitch esw;
	struct mlx_txn *txn;
	int r;

	if (argc && strcmp(argv[0], "legacy") && strcmp(argv[0], "switchdev")) {
		cli_error(cli, "invalid eswitch mode '%s': expected legacy or switchdev", argv[0]);
		return EXIT_USAGE;
	}
	if (!cli->device) {
		/* DESIGN "Device selection": a read covers every device, a
		 * write refuses to guess. */
		if (argc) {
			cli_error(cli, "'mlxcli sriov eswitch %s' changes a device and will not guess "
				  "which: give -d DEV", argv[0]);
			return EXIT_USAGE;
		}
		return eswitch_all(cli);
	}
	r = need_pf(cli, &pf);
	if (r)
		return r;
	out_str(cli->out, "pci_address", NULL, mlx_fn_is_pci(pf) ? pf->bdf : NULL);
	if (!argc) {
		r = mlx_devlink_eswitch_get(cli->ctx, pf, &esw);
		if (r < 0)
			return cli_fail(cli, r, "cannot read the eswitch mode");
		out_str(cli->out, "eswitch_mode", "eswitch mode", mlx_eswitch_mode_str(esw.mode));
		return EXIT_OK;
	}
	if (!(want = want_new(cli)))
		return EXIT_FAIL;
	want->sriov.have = want->sriov.esw_h = MLX_SET;
	mlx_eswitch_mode_parse(argv[0], &want->sriov.esw_mode);
	mlx_port_ref_init(&ref, pf, NULL, NULL);
	r = cli_write_step(cli, MLX_SUB_SRIOV, &ref, want, 0, &txn);
	if (r == EXIT_OK)
		mlx_txn_free(txn);
	mlx_port_settings_free(want);
	return r;
}
