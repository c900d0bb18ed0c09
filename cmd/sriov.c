/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli sriov show|set|vf|eswitch`: PF/VF topology, numvfs, per-VF
 * settings over rtnetlink, the devlink eswitch mode.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/devlink.h>
#include <linux/if_link.h>

#include "cli.h"
#include "lock.h"
#include "sriov.h"

/* --dry-run comes from the dispatcher (CMD_WRITES). */
static const struct cmd_opt numvfs_opts[] = {
	{ "yes", 'y', NULL, "do not ask before VFs and their settings are lost", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

void cli_out_sriov_cap(struct out *o, const struct mlx_function *fn)
{
	const struct mlx_sriov_info *s = &fn->cfg.sriov;
	char id[16];

	out_obj_begin(o, "capability", "SR-IOV capability");
	if (!fn->cfg_decoded || !s->present) {
		out_bool(o, "present", "present", false);
		if (fn->cfg_decoded && fn->cfg.ext_caps_truncated)
			out_text(o, "note", "extended config space not readable (run as root)");
		out_obj_end(o);
		return;
	}
	out_bool(o, "present", NULL, true);
	snprintf(id, sizeof(id), "0x%03x", s->offset);
	out_str(o, "offset", "offset", id);
	out_u64(o, "initial_vfs", "initial VFs", s->initial_vfs);
	out_u64(o, "total_vfs", "total VFs", s->total_vfs);
	out_u64(o, "num_vfs", "NumVFs", s->num_vfs);
	out_u64(o, "vf_offset", "first VF offset", s->vf_offset);
	out_u64(o, "vf_stride", "VF stride", s->vf_stride);
	snprintf(id, sizeof(id), "0x%04x", s->vf_device);
	out_str(o, "vf_device_id", "VF device ID", id);
	out_bool(o, "vf_enable", "VF enable", s->ctrl & 0x01);
	out_bool(o, "vf_mse", NULL, s->ctrl & 0x08);
	out_bool(o, "ari_capable_hierarchy", NULL, s->ctrl & 0x10);
	snprintf(id, sizeof(id), "0x%x", s->sup_pgsize);
	out_str(o, "supported_page_sizes", NULL, id);
	out_obj_end(o);
}

/* The PF of what -d named (a VF resolves to its PF); every PF without -d. */
static int pick_pf(struct cli *cli, struct mlx_function *sel, struct mlx_function **pf)
{
	*pf = sel;
	if (sel && sel->role == MLX_FN_VF) {
		if (!sel->pf) {
			cli_error(cli, "%s is a VF whose PF is not visible here", sel->bdf);
			return EXIT_NODEV;
		}
		*pf = sel->pf;
	}
	if (*pf && (*pf)->sriov_totalvfs < 0 && !(*pf)->cfg.sriov.present) {
		cli_error(cli, "%s has no SR-IOV (no sriov_totalvfs, no SR-IOV capability)",
			  (*pf)->bdf);
		return EXIT_NOTSUP;
	}
	return EXIT_OK;
}

static const struct mlx_function *vf_fn(const struct mlx_devices *devs,
					const struct mlx_function *pf, uint32_t idx)
{
	for (size_t i = 0; i < devs->nfn; i++)
		if (devs->fn[i].pf == pf && devs->fn[i].vf_index == (int)idx)
			return &devs->fn[i];
	return NULL;
}

static void fmt_mac(const uint8_t *m, char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

static void out_tri(struct out *o, const char *key, const char *label, int v)
{
	/* a JSON boolean; the text keeps ip link's on/off */
	if (v < 0)
		out_null(o, key, label);
	else if (out_is_json(o))
		out_bool(o, key, label, v);
	else
		out_str(o, key, label, v ? "on" : "off");
}

static void out_vf(struct cli *cli, const struct mlx_devices *devs, const struct mlx_function *pf,
		   uint32_t idx, const struct mlx_vf_info *vf)
{
	struct out *o = cli->out;
	const struct mlx_function *fn = vf_fn(devs, pf, idx);
	char buf[32];

	out_row_begin(o);
	out_u64(o, "vf", "VF", idx);
	out_str(o, "pci_address", "PCI", fn ? fn->bdf : NULL);
	out_str(o, "netdev", "NETDEV", fn && fn->nports ? fn->ports[0].ifname : NULL);
	out_str(o, "rdma_device", "RDMA", fn && fn->nrdma ? fn->rdma[0].name : NULL);
	out_str(o, "driver", "DRIVER", fn && fn->driver[0] ? fn->driver : NULL);
	if (vf && vf->has_mac) {
		fmt_mac(vf->mac, buf, sizeof(buf));
		out_str(o, "mac", "MAC", buf);
	} else {
		out_null(o, "mac", "MAC");
	}
	if (vf && vf->has_vlan) {
		out_u64(o, "vlan", "VLAN", vf->vlan);
		out_u64(o, "qos", "QOS", vf->qos);
	} else {
		out_null(o, "vlan", "VLAN");
		out_null(o, "qos", "QOS");
	}
	if (vf && vf->vlan_proto) {
		snprintf(buf, sizeof(buf), "0x%04x", vf->vlan_proto);
		out_str(o, "vlan_protocol", NULL, buf);
	} else {
		out_null(o, "vlan_protocol", NULL);
	}
	if (vf && (vf->has_rate || vf->max_tx_rate)) {
		out_u64(o, "min_tx_rate_mbps", "MIN_RATE", vf->min_tx_rate);
		out_u64(o, "max_tx_rate_mbps", "MAX_RATE", vf->max_tx_rate);
	} else {
		out_null(o, "min_tx_rate_mbps", "MIN_RATE");
		out_null(o, "max_tx_rate_mbps", "MAX_RATE");
	}
	out_tri(o, "spoofchk", "SPOOFCHK", vf ? vf->spoofchk : -1);
	out_tri(o, "trusted", "TRUST", vf ? vf->trust : -1);
	out_str(o, "link_state", "STATE", vf ? mlx_vf_link_state_str(vf->link_state) : NULL);
	if (vf && vf->stats.present) {
		const struct mlx_vf_stats *st = &vf->stats;

		out_obj_begin(o, "stats", NULL);
		out_u64(o, "rx_packets", NULL, st->rx_packets);
		out_u64(o, "tx_packets", NULL, st->tx_packets);
		out_u64(o, "rx_bytes", NULL, st->rx_bytes);
		out_u64(o, "tx_bytes", NULL, st->tx_bytes);
		out_u64(o, "broadcast", NULL, st->broadcast);
		out_u64(o, "multicast", NULL, st->multicast);
		out_u64(o, "rx_dropped", NULL, st->rx_dropped);
		out_u64(o, "tx_dropped", NULL, st->tx_dropped);
		out_obj_end(o);
		snprintf(buf, sizeof(buf), "%" PRIu64, st->rx_packets);
		out_text(o, "RX_PKTS", buf);
		snprintf(buf, sizeof(buf), "%" PRIu64, st->tx_packets);
		out_text(o, "TX_PKTS", buf);
		if (cli->verbose) {
			snprintf(buf, sizeof(buf), "%" PRIu64, st->rx_dropped);
			out_text(o, "RX_DROP", buf);
			snprintf(buf, sizeof(buf), "%" PRIu64, st->tx_dropped);
			out_text(o, "TX_DROP", buf);
		}
	} else {
		out_null(o, "stats", NULL);
		out_text(o, "RX_PKTS", "-");
		out_text(o, "TX_PKTS", "-");
	}
	out_row_end(o);
}

static void show_pf(struct cli *cli, const struct mlx_devices *devs, struct mlx_function *pf)
{
	struct out *o = cli->out;
	struct mlx_link_vfs l;
	struct mlx_eswitch esw;
	char label[96];
	int r, numvfs;

	snprintf(label, sizeof(label), "%s (%s%s%s)", pf->bdf, pf->id ? pf->id->product : "?",
		 pf->nports ? ", " : "", pf->nports ? pf->ports[0].ifname : "");
	out_obj_begin(o, NULL, label);
	out_str(o, "pci_address", NULL, pf->bdf);
	out_str(o, "product", NULL, pf->id ? pf->id->product : NULL);
	out_str(o, "netdev", NULL, pf->nports ? pf->ports[0].ifname : NULL);
	if (pf->sriov_totalvfs >= 0) {
		out_u64(o, "total_vfs", "total VFs", (uint64_t)pf->sriov_totalvfs);
		out_u64(o, "num_vfs", "enabled VFs", pf->sriov_numvfs > 0 ? (uint64_t)pf->sriov_numvfs : 0);
	} else {
		out_null(o, "total_vfs", "total VFs");
		out_null(o, "num_vfs", "enabled VFs");
	}
	numvfs = pf->sriov_numvfs > 0 ? pf->sriov_numvfs : 0;

	r = mlx_devlink_eswitch_get(cli->ctx, pf, &esw);
	out_str(o, "eswitch_mode", "eswitch mode", r == 0 ? mlx_eswitch_mode_str(esw.mode) : NULL);
	if (r < 0)
		mlx_log(cli->ctx, MLX_LOG_INFO, "%s: no eswitch mode: %s", pf->bdf,
			*mlx_errmsg(cli->ctx) ? mlx_errmsg(cli->ctx) : strerror(-r));
	cli_out_sriov_cap(o, pf);

	mlx_err_clear(cli->ctx);
	r = mlx_sriov_query(cli->ctx, pf, &l);
	out_str(o, "vf_source", NULL, r == 0 ? "rtnetlink" : NULL);
	if (r < 0 && numvfs > 0)
		cli_warn(cli, "%s: VF settings unavailable: %s", pf->bdf,
			 *mlx_errmsg(cli->ctx) ? mlx_errmsg(cli->ctx) : strerror(-r));
	out_table_begin(o, "vfs");
	if (r == 0 && l.nvf) {
		for (size_t i = 0; i < l.nvf; i++)
			out_vf(cli, devs, pf, l.vf[i].vf, &l.vf[i]);
	} else {
		/* No rtnetlink answer: the VFs the PCI bus shows, settings unknown. */
		for (int k = 0; k < numvfs; k++)
			out_vf(cli, devs, pf, (uint32_t)k, NULL);
	}
	out_table_end(o);
	if (r == 0)
		mlx_link_vfs_free(&l);
	out_obj_end(o);
}

static void say_none(struct cli *cli, const struct mlx_devices *devs)
{
	cli_say_no_devices(cli, devs);
}

static int cmd_sriov_show(struct cli *cli, int argc, char **argv)
{
	struct mlx_devices *devs;
	struct mlx_function *sel, *pf;
	int r;

	r = cli_select(cli, &sel, NULL);
	if (r)
		return r;
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	r = pick_pf(cli, sel, &pf);
	if (r)
		return r;
	/* The table gives each PF a JSON object; text prints PF blocks. */
	out_list_begin(cli->out, "pfs", NULL);
	for (size_t i = 0; i < devs->nfn; i++) {
		struct mlx_function *fn = &devs->fn[i];

		if (pf ? fn != pf : (fn->role != MLX_FN_PF || fn->sriov_totalvfs < 0))
			continue;
		show_pf(cli, devs, fn);
	}
	out_list_end(cli->out);
	if (!devs->nfn)
		say_none(cli, devs);
	return EXIT_OK;
}

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

static void out_change(struct out *o, const char *name, const char *old, const char *new)
{
	char buf[160];

	out_obj_begin(o, NULL, NULL);
	out_str(o, "setting", NULL, name);
	out_str(o, "old", NULL, old);
	out_str(o, "new", NULL, new);
	snprintf(buf, sizeof(buf), "%s -> %s", old ? old : "-", new);
	out_text(o, name, buf);
	out_obj_end(o);
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
	return pick_pf(cli, sel, pf);
}

static void out_dry(struct cli *cli)
{
	out_bool(cli->out, "dry_run", NULL, cli_opt(cli, "dry-run") != NULL);
}

/* The per-device lock of a write (as cmd/dcqcn.c): held from the read of
 * the old state to the last write, so concurrent writers of one PF are
 * serialised and none reads a state another is about to replace. */
static int lock_pf(struct cli *cli, const struct mlx_function *pf, int *fd)
{
	int e = mlx_lock_device(cli->ctx, pf->bdf, fd);

	return e < 0 ? cli_fail(cli, e, "cannot lock the device") : EXIT_OK;
}

static void unlock_pf(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
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
	const struct mlx_function *fn = vf_fn(devs, pf, (uint32_t)k);
	char mac[24] = "unknown", vlan[40] = "unknown", rate[48] = "unknown";

	if (vf && vf->has_mac)
		fmt_mac(vf->mac, mac, sizeof(mac));
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
		const struct mlx_function *fn = vf_fn(devs, pf, (uint32_t)k);

		out_obj_begin(o, NULL, NULL);
		out_u64(o, "vf", NULL, (uint64_t)k);
		out_str(o, "pci_address", NULL, fn ? fn->bdf : NULL);
		out_str(o, "netdev", NULL, fn && fn->nports ? fn->ports[0].ifname : NULL);
		out_str(o, "fate", NULL, (unsigned)k < n ? "reset" : "removed");
		if (vf && vf->has_mac) {
			fmt_mac(vf->mac, mac, sizeof(mac));
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
 * lost and needs --yes or a terminal's answer (as dbg restart and sw-reset).
 * EXIT_OK to go ahead, else the exit code; nothing was written either way.
 */
static int confirm_lost(struct cli *cli, const struct mlx_devices *devs,
			const struct mlx_function *pf, int cur, unsigned n,
			const struct mlx_link_vfs *l)
{
	char line[200], answer[16];
	bool tty = isatty(STDIN_FILENO);

	if (cli_opt(cli, "yes") || cli_opt(cli, "dry-run"))
		return EXIT_OK;
	if (tty)
		fprintf(cli->err_fp, "numvfs %d -> %u on %s takes every VF away first; this is lost:\n",
			cur, n, pf->bdf);
	else
		cli_error(cli, "numvfs %d -> %u on %s takes every VF away first and loses their "
			  "settings:", cur, n, pf->bdf);
	for (int k = 0; k < cur; k++) {
		lost_line(devs, pf, k, n, vf_of(l, k), line, sizeof(line));
		fprintf(cli->err_fp, "  %s\n", line);
	}
	if (!tty) {
		cli_hint(cli, "add --yes to go ahead, or --dry-run to see the change; nothing was changed");
		return EXIT_USAGE;
	}
	fprintf(cli->err_fp, "go ahead? [y/N] ");
	fflush(cli->err_fp);
	if (!fgets(answer, sizeof(answer), stdin) || (answer[0] != 'y' && answer[0] != 'Y')) {
		cli_error(cli, "not confirmed; nothing was changed");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int cmd_sriov_set(struct cli *cli, int argc, char **argv)
{
	struct mlx_function *pf;
	struct mlx_devices *devs;
	struct mlx_link_vfs l = { 0 };
	bool have_l = false;
	char old[16], new[16];
	int lockfd = -1, cur, r;
	unsigned n;

	(void)argc;
	r = need_pf(cli, &pf);
	if (r)
		return r;
	if (parse_uint(cli, "VF count", argv[0], 65535, &n))
		return EXIT_USAGE;
	if (n > (unsigned)pf->sriov_totalvfs) {
		cli_error(cli, "cannot set numvfs on %s to %u: the limit is %d (TotalVFs)", pf->bdf, n,
			  pf->sriov_totalvfs);
		return EXIT_USAGE;
	}
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	if (!cli_opt(cli, "dry-run")) {
		r = lock_pf(cli, pf, &lockfd);
		if (r)
			return r;
	}
	cur = pf->sriov_numvfs > 0 ? pf->sriov_numvfs : 0;
	if (cur > 0 && (unsigned)cur != n) {
		/* The settings about to be lost; without rtnetlink they are
		 * unknown, and the VFs are still listed. */
		have_l = mlx_sriov_query(cli->ctx, pf, &l) == 0;
		mlx_err_clear(cli->ctx);
		r = confirm_lost(cli, devs, pf, cur, n, have_l ? &l : NULL);
		if (r)
			goto out;
	}
	snprintf(old, sizeof(old), "%d", cur);
	snprintf(new, sizeof(new), "%u", n);
	if (!cli_opt(cli, "dry-run")) {
		r = mlx_sriov_set_numvfs(cli->ctx, pf, n);
		if (r < 0) {
			r = cli_fail(cli, r, "cannot set numvfs");
			goto out;
		}
	}
	out_str(cli->out, "pci_address", NULL, pf->bdf);
	out_dry(cli);
	out_list_begin(cli->out, "changes", NULL);
	out_change(cli->out, "numvfs", old, new);
	out_list_end(cli->out);
	out_lost(cli, devs, pf, (unsigned)cur != n ? cur : 0, n, have_l ? &l : NULL);
	r = EXIT_OK;
out:
	unlock_pf(&lockfd);
	if (have_l)
		mlx_link_vfs_free(&l);
	return r;
}

static const char *const vf_settings[] = {
	"mac", "vlan", "qos", "rate", "max-rate", "min-rate", "spoofchk", "trust", "state", NULL,
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

static int cmd_sriov_vf(struct cli *cli, int argc, char **argv)
{
	struct mlx_function *pf;
	struct mlx_link_vfs before;
	const struct mlx_vf_info *cur = NULL;
	struct mlx_vf_set set[6];
	size_t nset = 0;
	bool given[9] = { false };
	bool mac_set = false, vlan_set = false, rate_set = false, sp_set = false, tr_set = false,
	     st_set = false;
	uint8_t mac[6];
	unsigned vf, vlan = 0, qos = 0, minr = 0, maxr = 0, state = 0;
	bool spoof = false, trust = false;
	char o1[48], n1[48];
	int lockfd = -1, r;

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
	for (int i = 2; i < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];
		int idx = -1;

		for (int j = 0; vf_settings[j]; j++)
			if (!strcmp(vf_settings[j], k))
				idx = j;
		if (idx < 0) {
			const char *s = cli_suggest(k, vf_settings, 9);

			cli_error(cli, "unknown VF setting '%s'", k);
			if (s)
				cli_hint(cli, "did you mean '%s'?", s);
			return EXIT_USAGE;
		}
		if (given[idx]) {
			cli_error(cli, "VF setting '%s' given twice", k);
			return EXIT_USAGE;
		}
		given[idx] = true;
		if (!strcmp(k, "mac")) {
			if (mlx_parse_mac(v, mac) < 0) {
				cli_error(cli, "invalid MAC address '%s': expected xx:xx:xx:xx:xx:xx", v);
				return EXIT_USAGE;
			}
			if (mac[0] & 1) {
				cli_error(cli, "invalid MAC address '%s': a multicast address cannot be "
					  "a VF's address", v);
				return EXIT_USAGE;
			}
			mac_set = true;
		} else if (!strcmp(k, "vlan")) {
			if (parse_uint(cli, "VLAN", v, 4095, &vlan))
				return EXIT_USAGE;
			vlan_set = true;
		} else if (!strcmp(k, "qos")) {
			if (parse_uint(cli, "QoS", v, 7, &qos))
				return EXIT_USAGE;
			vlan_set = true;
		} else if (!strcmp(k, "rate") || !strcmp(k, "max-rate")) {
			if (given[3] && given[4]) {
				cli_error(cli, "'rate' and 'max-rate' are the same setting; give one");
				return EXIT_USAGE;
			}
			if (parse_uint(cli, "rate (Mb/s)", v, UINT32_MAX, &maxr))
				return EXIT_USAGE;
			rate_set = true;
		} else if (!strcmp(k, "min-rate")) {
			if (parse_uint(cli, "rate (Mb/s)", v, UINT32_MAX, &minr))
				return EXIT_USAGE;
			rate_set = true;
		} else if (!strcmp(k, "spoofchk")) {
			if (on_off(cli, "spoofchk", v, &spoof))
				return EXIT_USAGE;
			sp_set = true;
		} else if (!strcmp(k, "trust")) {
			if (on_off(cli, "trust", v, &trust))
				return EXIT_USAGE;
			tr_set = true;
		} else if (!strcmp(k, "state")) {
			if (!strcmp(v, "auto"))
				state = IFLA_VF_LINK_STATE_AUTO;
			else if (!strcmp(v, "enable"))
				state = IFLA_VF_LINK_STATE_ENABLE;
			else if (!strcmp(v, "disable"))
				state = IFLA_VF_LINK_STATE_DISABLE;
			else {
				cli_error(cli, "invalid state '%s': expected auto, enable or disable", v);
				return EXIT_USAGE;
			}
			st_set = true;
		}
	}
	if (given[5] && (given[3] || given[4]) && maxr && minr > maxr) {
		cli_error(cli, "invalid rate: min-rate %u is above max-rate %u Mb/s", minr, maxr);
		return EXIT_USAGE;
	}

	/* The current settings: unchanged halves of VLAN/QoS and of the rate
	 * pair, the old values to print, and what to put back on failure. */
	if (!cli_opt(cli, "dry-run")) {
		r = lock_pf(cli, pf, &lockfd);
		if (r)
			return r;
	}
	r = mlx_sriov_query(cli->ctx, pf, &before);
	if (r < 0) {
		r = cli_fail(cli, r, "cannot read the VF settings");
		unlock_pf(&lockfd);
		return r;
	}
	for (size_t i = 0; i < before.nvf; i++)
		if (before.vf[i].vf == vf)
			cur = &before.vf[i];
	if (!cur) {
		cli_error(cli, "the kernel did not report VF %u of %s", vf, pf->bdf);
		mlx_link_vfs_free(&before);
		unlock_pf(&lockfd);
		return EXIT_FAIL;
	}
	if (rate_set) {
		if (!given[5])
			minr = cur->min_tx_rate;
		if (!given[3] && !given[4])
			maxr = cur->max_tx_rate;
		if (maxr && minr > maxr) {
			cli_error(cli, "invalid rate: min-rate %u would be above max-rate %u Mb/s", minr,
				  maxr);
			mlx_link_vfs_free(&before);
			unlock_pf(&lockfd);
			return EXIT_USAGE;
		}
	}
	memset(set, 0, sizeof(set));
	out_str(cli->out, "pci_address", NULL, pf->bdf);
	out_u64(cli->out, "vf", NULL, vf);
	out_dry(cli);
	out_list_begin(cli->out, "changes", NULL);
	if (mac_set) {
		set[nset].attr = MLX_VF_SET_MAC;
		memcpy(set[nset++].mac, mac, 6);
		fmt_mac(cur->mac, o1, sizeof(o1));
		fmt_mac(mac, n1, sizeof(n1));
		out_change(cli->out, "mac", cur->has_mac ? o1 : NULL, n1);
	}
	if (vlan_set) {
		set[nset].attr = MLX_VF_SET_VLAN;
		set[nset].vlan = given[1] ? vlan : cur->vlan;
		set[nset].qos = given[2] ? qos : cur->qos;
		snprintf(o1, sizeof(o1), "vlan %u qos %u", cur->vlan, cur->qos);
		snprintf(n1, sizeof(n1), "vlan %u qos %u", set[nset].vlan, set[nset].qos);
		nset++;
		out_change(cli->out, "vlan", o1, n1);
	}
	if (rate_set) {
		set[nset].attr = MLX_VF_SET_RATE;
		set[nset].min_tx_rate = minr;
		set[nset++].max_tx_rate = maxr;
		snprintf(o1, sizeof(o1), "min %u max %u", cur->min_tx_rate, cur->max_tx_rate);
		snprintf(n1, sizeof(n1), "min %u max %u", minr, maxr);
		out_change(cli->out, "rate", o1, n1);
	}
	if (sp_set) {
		set[nset].attr = MLX_VF_SET_SPOOFCHK;
		set[nset++].on = spoof;
		out_change(cli->out, "spoofchk", cur->spoofchk < 0 ? NULL : cur->spoofchk ? "on" : "off",
			   spoof ? "on" : "off");
	}
	if (tr_set) {
		set[nset].attr = MLX_VF_SET_TRUST;
		set[nset++].on = trust;
		out_change(cli->out, "trust", cur->trust < 0 ? NULL : cur->trust ? "on" : "off",
			   trust ? "on" : "off");
	}
	if (st_set) {
		set[nset].attr = MLX_VF_SET_STATE;
		set[nset++].link_state = state;
		out_change(cli->out, "state", mlx_vf_link_state_str(cur->link_state),
			   mlx_vf_link_state_str((int)state));
	}
	out_list_end(cli->out);
	for (size_t i = 0; i < nset; i++)
		set[i].vf = vf;
	r = 0;
	if (!cli_opt(cli, "dry-run"))
		r = mlx_sriov_vf_set(cli->ctx, pf, &before, set, nset);
	unlock_pf(&lockfd);
	mlx_link_vfs_free(&before);
	if (r < 0)
		return cli_fail(cli, r, "cannot set the VF");
	return EXIT_OK;
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

		if (fn->role != MLX_FN_PF || fn->sriov_totalvfs < 0)
			continue;
		r = mlx_devlink_eswitch_get(cli->ctx, fn, &esw);
		if (r < 0)
			mlx_log(cli->ctx, MLX_LOG_INFO, "%s: no eswitch mode: %s", fn->bdf,
				*mlx_errmsg(cli->ctx) ? mlx_errmsg(cli->ctx) : strerror(-r));
		mlx_err_clear(cli->ctx);
		out_row_begin(cli->out);
		out_str(cli->out, "pci_address", "PCI", fn->bdf);
		out_str(cli->out, "eswitch_mode", "ESWITCH_MODE", r == 0 ? mlx_eswitch_mode_str(esw.mode) : NULL);
		out_row_end(cli->out);
	}
	out_table_end(cli->out);
	if (!devs->nfn)
		say_none(cli, devs);
	return EXIT_OK;
}

static int cmd_sriov_eswitch(struct cli *cli, int argc, char **argv)
{
	struct mlx_function *pf;
	struct mlx_eswitch esw;
	int mode = -1, lockfd = -1, r;

	if (argc) {
		if (!strcmp(argv[0], "legacy"))
			mode = DEVLINK_ESWITCH_MODE_LEGACY;
		else if (!strcmp(argv[0], "switchdev"))
			mode = DEVLINK_ESWITCH_MODE_SWITCHDEV;
		else {
			cli_error(cli, "invalid eswitch mode '%s': expected legacy or switchdev", argv[0]);
			return EXIT_USAGE;
		}
	}
	if (!cli->device) {
		/* DESIGN "Device selection": a read covers every device, a
		 * write refuses to guess. */
		if (mode >= 0) {
			cli_error(cli, "'mlxcli sriov eswitch %s' changes a device and will not guess "
				  "which: give -d DEV", argv[0]);
			return EXIT_USAGE;
		}
		return eswitch_all(cli);
	}
	r = need_pf(cli, &pf);
	if (r)
		return r;
	if (mode >= 0 && !cli_opt(cli, "dry-run")) {
		r = lock_pf(cli, pf, &lockfd);
		if (r)
			return r;
	}
	r = mlx_devlink_eswitch_get(cli->ctx, pf, &esw);
	if (r < 0 && (mode < 0 || r != -EOPNOTSUPP)) {
		r = cli_fail(cli, r, "cannot read the eswitch mode");
		unlock_pf(&lockfd);
		return r;
	}
	out_str(cli->out, "pci_address", NULL, pf->bdf);
	if (mode < 0) {
		out_str(cli->out, "eswitch_mode", "eswitch mode", mlx_eswitch_mode_str(esw.mode));
		return EXIT_OK;
	}
	out_dry(cli);
	out_list_begin(cli->out, "changes", NULL);
	out_change(cli->out, "eswitch_mode", r == 0 ? mlx_eswitch_mode_str(esw.mode) : NULL,
		   mlx_eswitch_mode_str(mode));
	out_list_end(cli->out);
	if (cli_opt(cli, "dry-run") || (r == 0 && esw.mode == mode)) {
		unlock_pf(&lockfd);
		return EXIT_OK;
	}
	r = mlx_devlink_eswitch_set(cli->ctx, pf, mode);
	unlock_pf(&lockfd);
	if (r < 0)
		return cli_fail(cli, r, "cannot set the eswitch mode");
	return EXIT_OK;
}

/* The settings of a PF: `sriov set numvfs N`. */
static const struct cmd sriov_set_cmds[] = {
	{ "numvfs", "N", "enable N VFs on a PF (0 disables SR-IOV)",
	  cmd_sriov_set, 1, 1, CMD_NEEDS_DEVICE | CMD_WRITES | CMD_NEEDS_ROOT, NULL, numvfs_opts, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

static const struct cmd_group sriov_set_group = { "set", "settings of a PF", "mlxcli-sriov(8)",
						  sriov_set_cmds };

static const char *const vf_verbs[] = { "set", NULL };

static const struct cmd_arg vf_args[] = {
	{ "VF", NULL, SRC_NONE, 0 },
	{ NULL, vf_verbs, SRC_NONE, 0 },
	{ "SETTING", vf_settings, SRC_NONE, ARG_REPEAT },
	{ "VALUE", NULL, SRC_NONE, 0 },
	CMD_ARG_END,
};

static const char *const eswitch_modes[] = { "legacy", "switchdev", NULL };

static const struct cmd_arg eswitch_args[] = {
	{ NULL, eswitch_modes, SRC_NONE, ARG_OPTIONAL },
	CMD_ARG_END,
};

static const struct cmd sriov_cmds[] = {
	{ "show", "", "PFs with their SR-IOV capability, eswitch mode and one row per VF",
	  cmd_sriov_show, 0, 0, 0, NULL, NULL, NULL },
	{ "set", "", "settings of a PF: numvfs",
	  NULL, 0, 0, 0, &sriov_set_group, NULL, NULL },
	{ "vf", "", "set mac, vlan, qos, rate/max-rate, min-rate, spoofchk, trust or state of one VF",
	  cmd_sriov_vf, 4, -1, CMD_NEEDS_DEVICE | CMD_WRITES | CMD_NEEDS_ROOT, NULL, NULL, NULL,
	  NULL, vf_args },
	{ "eswitch", "", "show the eswitch mode (every PF without -d) or set it on a PF (devlink)",
	  cmd_sriov_eswitch, 0, 1, CMD_WRITES, NULL, NULL, NULL, NULL, eswitch_args },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group sriov_group = { "sriov", "SR-IOV: VFs, their settings, the eswitch",
				       "mlxcli-sriov(8)", sriov_cmds };
