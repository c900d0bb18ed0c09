/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli pci [show]`: PCIe link capability vs status, payload sizes, AER
 * counters, the vendor-specific capability and the SR-IOV capability of
 * each ConnectX function.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fw.h"

static void out_aer(struct out *o, const char *key, const char *label, int64_t v)
{
	if (v < 0)
		out_null(o, key, label);
	else
		out_u64(o, key, label, (uint64_t)v);
}

static void show_fn(struct cli *cli, const struct mlx_function *fn)
{
	struct out *o = cli->out;
	const struct mlx_pcie_info *e = &fn->cfg.pcie;
	struct cli_pcie pv;
	struct mlx_aer_counts aer;
	char label[96], buf[32];

	cli_pcie_view(fn, &pv);
	snprintf(label, sizeof(label), "%s (%s, %s)", fn->bdf, fn->id ? fn->id->product : "?",
		 fn->role == MLX_FN_VF ? "vf" : "pf");
	out_obj_begin(o, NULL, label);
	out_str(o, "pci_address", NULL, fn->bdf);
	out_str(o, "role", NULL, fn->role == MLX_FN_VF ? "vf" : "pf");
	cli_out_pcie(o, &pv, true);

	if (fn->cfg_decoded && e->present) {
		out_u64(o, "max_payload_supported_bytes", "max payload supported", e->max_payload_cap);
		out_u64(o, "max_payload_bytes", "max payload", e->max_payload);
		out_u64(o, "max_read_request_bytes", "max read request", e->max_read_req);
	} else {
		out_null(o, "max_payload_supported_bytes", "max payload supported");
		out_null(o, "max_payload_bytes", "max payload");
		out_null(o, "max_read_request_bytes", "max read request");
	}

	mlx_aer_read(cli->ctx, fn, &aer);
	out_obj_begin(o, "aer", "AER errors");
	if (fn->cfg_decoded && fn->cfg.aer_offset) {
		snprintf(buf, sizeof(buf), "0x%03x", fn->cfg.aer_offset);
		out_str(o, "offset", NULL, buf);
	} else {
		out_null(o, "offset", NULL);
	}
	out_aer(o, "correctable", "correctable", aer.correctable);
	out_aer(o, "nonfatal", "non-fatal", aer.nonfatal);
	out_aer(o, "fatal", "fatal", aer.fatal);
	out_obj_end(o);

	out_obj_begin(o, "vsec", "vendor-specific capability");
	if (fn->cfg_decoded && fn->cfg.vsec_offset) {
		out_bool(o, "present", "present", true);
		snprintf(buf, sizeof(buf), "0x%02x", fn->cfg.vsec_offset);
		out_str(o, "offset", "offset", buf);
		out_u64(o, "length_bytes", "length", fn->cfg.vsec_len);
	} else {
		out_bool(o, "present", "present", false);
		out_null(o, "offset", NULL);
		out_null(o, "length_bytes", NULL);
	}
	out_obj_end(o);
	if (fn->role == MLX_FN_PF)
		cli_out_sriov_cap(o, fn);
	out_u64(o, "config_space_bytes", cli->verbose ? "config space bytes" : NULL, fn->cfg_len);
	out_obj_end(o);

	if (pv.degraded) {
		char c[24], s[24];

		cli_pcie_link_str(&pv.cap, c, sizeof(c));
		cli_pcie_link_str(&pv.sta, s, sizeof(s));
		cli_warn(cli, "%s: PCIe link trained at %s, below its capability %s: "
			 "the adapter's bandwidth is capped; check the slot and riser", fn->bdf, s, c);
	}
	if (aer.fatal > 0 || aer.nonfatal > 0)
		cli_warn(cli, "%s: %lld fatal and %lld non-fatal PCIe errors were reported", fn->bdf,
			 (long long)(aer.fatal > 0 ? aer.fatal : 0),
			 (long long)(aer.nonfatal > 0 ? aer.nonfatal : 0));
}

int cmd_pci(struct cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_for_functions(cli, "pci", true, show_fn);
}

/* `mlxcli pci` is `mlxcli pci show`. */
static const struct cmd pci_cmds[] = {
	{ "show", "", "PCIe link capability vs status, AER counters, capabilities (as 'mlxcli pci')",
	  cmd_pci, 0, 0, 0, NULL, NULL, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group pci_group = { "pci", "PCIe link and capabilities", "mlxcli-pci(8)", pci_cmds };
