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

static void link_text(const struct mlx_pcie_link *l, char *buf, size_t len)
{
	if (!l->speed && !l->width)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s x%u", mlx_pcie_speed_str(l->speed), l->width);
}

static void out_link(struct out *o, const char *key, const char *label,
		     const struct mlx_pcie_link *l)
{
	char buf[32];

	out_obj_begin(o, key, NULL);
	if (l->speed)
		out_str(o, "speed", NULL, mlx_pcie_speed_str(l->speed));
	else
		out_null(o, "speed", NULL);
	if (l->width)
		out_u64(o, "width", NULL, l->width);
	else
		out_null(o, "width", NULL);
	out_obj_end(o);
	link_text(l, buf, sizeof(buf));
	out_text(o, label, buf);
}

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
	struct mlx_pcie_link cap = { 0 }, sta = { 0 };
	struct mlx_aer_counts aer;
	const char *source = NULL;
	bool degraded = false;
	char label[96], buf[32];

	if (fn->cfg_decoded && e->present && e->cap.speed) {
		source = "config";
		cap = e->cap;
		sta = e->sta;
	} else if (fn->max_link_speed[0] || fn->max_link_width) {
		/* Unprivileged: the kernel's reading of the same registers. */
		source = "sysfs";
		cap.speed = mlx_pcie_speed_from_sysfs(fn->max_link_speed);
		cap.width = (uint8_t)fn->max_link_width;
		sta.speed = mlx_pcie_speed_from_sysfs(fn->cur_link_speed);
		sta.width = (uint8_t)fn->cur_link_width;
	}
	/* Same rule as `devices`: a VF's LnkSta is x0, never degraded. */
	if (source && fn->role == MLX_FN_PF && sta.width &&
	    ((cap.speed && sta.speed && sta.speed < cap.speed) || (cap.width && sta.width < cap.width)))
		degraded = true;

	snprintf(label, sizeof(label), "%s (%s, %s)", fn->bdf, fn->id ? fn->id->product : "?",
		 fn->role == MLX_FN_VF ? "vf" : "pf");
	out_obj_begin(o, NULL, label);
	out_str(o, "pci_address", NULL, fn->bdf);
	out_str(o, "role", NULL, fn->role == MLX_FN_VF ? "vf" : "pf");
	out_obj_begin(o, "pcie", NULL);
	out_str(o, "source", NULL, source);
	out_link(o, "capability", "link capability", &cap);
	out_link(o, "status", "link status", &sta);
	out_bool(o, "degraded", "degraded", degraded);
	out_obj_end(o);

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

	if (degraded) {
		char c[24], s[24];

		link_text(&cap, c, sizeof(c));
		link_text(&sta, s, sizeof(s));
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
	struct mlx_devices *devs;
	struct mlx_function *sel;
	int r;

	(void)argc;
	(void)argv;
	r = cli_select(cli, &sel, NULL);
	if (r)
		return r;
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	out_list_begin(cli->out, "pci", NULL);
	for (size_t i = 0; i < devs->nfn; i++)
		if (!sel || sel == &devs->fn[i])
			show_fn(cli, &devs->fn[i]);
	out_list_end(cli->out);
	if (!devs->nfn)
		cli_say_no_devices(cli, devs);
	return EXIT_OK;
}

/* `mlxcli pci` is `mlxcli pci show`. */
static const struct cmd pci_cmds[] = {
	{ "show", "", "PCIe link capability vs status, AER counters, capabilities (as 'mlxcli pci')",
	  cmd_pci, 0, 0, 0, NULL, NULL, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group pci_group = { "pci", "PCIe link and capabilities", "mlxcli-pci(8)", pci_cmds };
