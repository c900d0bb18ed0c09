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
#include "settings-cmd.h"
#include "sriov-cmd.h"
#include "sriov.h"

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
int sriov_pick_pf(struct cli *cli, struct mlx_function *sel, struct mlx_function **pf)
{
	*pf = sel;
	if (sel && sel->role == MLX_FN_VF) {
		if (!sel->pf) {
			cli_error(cli, "%s is a VF whose PF is not visible here", sel->bdf);
			return EXIT_NODEV;
		}
		*pf = sel->pf;
	}
	if (*pf && (*pf)->sriov_totalvfs < 0 && (*pf)->sriov_numvfs < 0 && !(*pf)->cfg.sriov.present) {
		cli_error(cli, "%s has no SR-IOV (no sriov_totalvfs, no SR-IOV capability)",
			  (*pf)->bdf);
		return EXIT_NOTSUP;
	}
	return EXIT_OK;
}

const struct mlx_function *sriov_vf_fn(const struct mlx_devices *devs,
					const struct mlx_function *pf, uint32_t idx)
{
	for (size_t i = 0; i < devs->nfn; i++)
		if (devs->fn[i].pf == pf && devs->fn[i].vf_index == (int)idx)
			return &devs->fn[i];
	return NULL;
}

/* One setting of a VF, in sriov show's table row (@label its column) or
 * state's "path = value" line (@sp). */
static void vf_field(struct out *o, const struct spath *sp, const char *key, const char *label,
		     uint8_t have, const char *val)
{
	if (sp && have == MLX_SET)
		sp_str(sp, key, val);
	else if (sp)
		sp_null(sp, key);
	else if (have == MLX_SET)
		out_str(o, key, label, val);
	else
		out_null(o, key, label);
}

static void vf_num(struct out *o, const struct spath *sp, const char *key, const char *label,
		   uint8_t have, uint64_t v)
{
	if (sp)
		sp_int(sp, key, have == MLX_SET ? (int64_t)v : -1);
	else if (have == MLX_SET)
		out_u64(o, key, label, v);
	else
		out_null(o, key, label);
}

static void vf_bool(struct out *o, const struct spath *sp, const char *key, const char *label,
		    uint8_t have, bool v)
{
	if (sp)
		sp_tri(sp, key, have == MLX_SET ? v : -1);
	else if (have != MLX_SET)
		out_null(o, key, label);
	else if (out_is_json(o))
		out_bool(o, key, label, v);
	else
		out_str(o, key, label, v ? "on" : "off");   /* the text keeps ip link's on/off */
}

/*
 * A VF's settings (lib/settings.h's VF section): the one renderer of the
 * structure, for sriov show's row (@sp NULL: columns MAC, VLAN, ...) and
 * state's VF object (@sp: its path, "sriov.vfs.2").
 */
void sriov_out_vf_settings(struct out *o, const struct mlx_vf_settings *v, const struct spath *sp)
{
	char buf[32];

	mlx_fmt_mac(v->mac, buf, sizeof(buf));
	vf_field(o, sp, "mac", "MAC", v->mac_h, buf);
	vf_num(o, sp, "vlan", "VLAN", v->vlan_h, v->vlan);
	vf_num(o, sp, "qos", "QOS", v->qos_h, v->qos);
	snprintf(buf, sizeof(buf), "0x%04x", v->proto);
	vf_field(o, sp, "vlan_protocol", NULL, v->proto_h, buf);
	vf_num(o, sp, "min_tx_rate_mbps", "MIN_RATE", v->min_h, v->min_rate);
	vf_num(o, sp, "max_tx_rate_mbps", "MAX_RATE", v->max_h, v->max_rate);
	vf_bool(o, sp, "spoofchk", "SPOOFCHK", v->spoofchk_h, v->spoofchk);
	vf_bool(o, sp, "trusted", "TRUST", v->trust_h, v->trust);
	vf_field(o, sp, "link_state", "STATE", v->link_h, mlx_vf_link_state_str(v->link_state));
}

static void out_vf(struct cli *cli, const struct mlx_devices *devs, const struct mlx_function *pf,
		   uint32_t idx, const struct mlx_vf_info *vf)
{
	struct out *o = cli->out;
	const struct mlx_function *fn = sriov_vf_fn(devs, pf, idx);
	struct mlx_vf_settings vs = {
		.mac_h = MLX_NULL, .vlan_h = MLX_NULL, .qos_h = MLX_NULL, .proto_h = MLX_NULL,
		.min_h = MLX_NULL, .max_h = MLX_NULL, .spoofchk_h = MLX_NULL, .trust_h = MLX_NULL,
		.link_h = MLX_NULL,
	};
	char buf[32];

	if (vf)
		mlx_vf_settings_from_info(&vs, vf);
	out_row_begin(o);
	out_u64(o, "vf", "VF", idx);
	out_str(o, "pci_address", "PCI", fn && mlx_fn_is_pci(fn) ? fn->bdf : NULL);
	out_str(o, "netdev", "NETDEV", fn && fn->nports ? fn->ports[0].ifname : NULL);
	out_str(o, "rdma_device", "RDMA", fn && fn->nrdma ? fn->rdma[0].name : NULL);
	out_str(o, "driver", "DRIVER", fn && fn->driver[0] ? fn->driver : NULL);
	sriov_out_vf_settings(o, &vs, NULL);
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
	out_str(o, "pci_address", NULL, mlx_fn_is_pci(pf) ? pf->bdf : NULL);
	out_str(o, "product", NULL, pf->id ? pf->id->product : NULL);
	out_str(o, "netdev", NULL, pf->nports ? pf->ports[0].ifname : NULL);
	if (pf->sriov_totalvfs >= 0 || pf->sriov_numvfs >= 0) {
		/* a device of another bus may have no sriov_totalvfs (netdevsim) */
		if (pf->sriov_totalvfs >= 0)
			out_u64(o, "total_vfs", "total VFs", (uint64_t)pf->sriov_totalvfs);
		else
			out_null(o, "total_vfs", "total VFs");
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

void sriov_say_none(struct cli *cli, const struct mlx_devices *devs)
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
	r = sriov_pick_pf(cli, sel, &pf);
	if (r)
		return r;
	/* The table gives each PF a JSON object; text prints PF blocks. */
	out_list_begin(cli->out, "pfs", NULL);
	for (size_t i = 0; i < devs->nfn; i++) {
		struct mlx_function *fn = &devs->fn[i];

		if (pf ? fn != pf : (fn->role != MLX_FN_PF || (fn->sriov_totalvfs < 0 &&
							       fn->sriov_numvfs < 0)))
			continue;
		show_pf(cli, devs, fn);
	}
	out_list_end(cli->out);
	if (!devs->nfn)
		sriov_say_none(cli, devs);
	return EXIT_OK;
}

/* The settings of a PF: `sriov set numvfs N`. */
static const struct cmd sriov_set_cmds[] = {
	{ "numvfs", "N", "enable N VFs on a PF (0 disables SR-IOV)",
	  cmd_sriov_set, 1, 1, CMD_NEEDS_DEVICE | CMD_WRITES | CMD_NEEDS_ROOT, NULL, sriov_numvfs_opts, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

static const struct cmd_group sriov_set_group = { "set", "settings of a PF", "mlxcli-sriov(8)",
						  sriov_set_cmds };

static const char *const vf_verbs[] = { "set", NULL };

/* -d naming a device that is no ConnectX function (cli_select) */
const struct cmd_opt sriov_any_opts[] = {
	{ "any-device", 0, NULL, CLI_ANY_DEVICE_HELP, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct cmd_arg vf_args[] = {
	{ "VF", NULL, SRC_NONE, 0 },
	{ NULL, vf_verbs, SRC_NONE, 0 },
	{ "SETTING", sriov_vf_settings, SRC_NONE, ARG_REPEAT },
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
	  cmd_sriov_show, 0, 0, 0, NULL, sriov_any_opts, NULL },
	{ "set", "", "settings of a PF: numvfs",
	  NULL, 0, 0, 0, &sriov_set_group, NULL, NULL },
	{ "vf", "", "set mac, vlan, qos, rate/max-rate, min-rate, spoofchk, trust or state of one VF",
	  cmd_sriov_vf, 4, -1, CMD_NEEDS_DEVICE | CMD_WRITES, NULL, sriov_any_opts, NULL,
	  NULL, vf_args },
	{ "eswitch", "", "show the eswitch mode (every PF without -d) or set it on a PF (devlink)",
	  cmd_sriov_eswitch, 0, 1, CMD_WRITES, NULL, sriov_any_opts, NULL, NULL, eswitch_args },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group sriov_group = { "sriov", "SR-IOV: VFs, their settings, the eswitch",
				       "mlxcli-sriov(8)", sriov_cmds };
