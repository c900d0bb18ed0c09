/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli devices` and `mlxcli ports` (and their mlxtool spellings
 * `show devices`, `show ports`): the device model, rendered.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

const char *cli_speed_str(int64_t mbps, char *buf, size_t len)
{
	if (mbps <= 0)
		snprintf(buf, len, "-");
	else if (mbps % 1000 == 0)
		snprintf(buf, len, "%" PRId64 "G", mbps / 1000);
	else if (mbps > 1000)
		snprintf(buf, len, "%" PRId64 ".%" PRId64 "G", mbps / 1000, (mbps % 1000) / 100);
	else
		snprintf(buf, len, "%" PRId64 "M", mbps);
	return buf;
}

int cli_for_functions(struct cli *cli, const char *key, bool vfs,
		      void (*show)(struct cli *cli, const struct mlx_function *fn))
{
	struct mlx_devices *devs;
	struct mlx_function *sel;
	int r;

	r = cli_select(cli, &sel, NULL);
	if (r)
		return r;
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	out_list_begin(cli->out, key, NULL);
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		if (sel ? fn == sel : vfs || fn->role == MLX_FN_PF)
			show(cli, fn);
	}
	out_list_end(cli->out);
	if (!devs->nfn)
		cli_say_no_devices(cli, devs);
	return EXIT_OK;
}

void cli_pcie_view(const struct mlx_function *fn, struct cli_pcie *v)
{
	memset(v, 0, sizeof(*v));
	if (fn->cfg_decoded && fn->cfg.pcie.present && fn->cfg.pcie.cap.speed) {
		v->source = "config";
		v->cap = fn->cfg.pcie.cap;
		v->sta = fn->cfg.pcie.sta;
	} else if (fn->max_link_speed[0] || fn->max_link_width) {
		/* Unprivileged: 64 bytes of config only, but the kernel's own
		 * reading of the same registers is in sysfs. */
		v->source = "sysfs";
		v->cap.speed = mlx_pcie_speed_from_sysfs(fn->max_link_speed);
		v->cap.width = (uint8_t)fn->max_link_width;
		v->sta.speed = mlx_pcie_speed_from_sysfs(fn->cur_link_speed);
		v->sta.width = (uint8_t)fn->cur_link_width;
	}
	/* A VF has no link of its own (its LnkSta reads "x0"): never degraded. */
	if (v->source && fn->role == MLX_FN_PF && v->sta.width &&
	    ((v->cap.speed && v->sta.speed && v->sta.speed < v->cap.speed) ||
	     (v->cap.width && v->sta.width < v->cap.width)))
		v->degraded = true;
}

const char *cli_pcie_link_str(const struct mlx_pcie_link *l, char *buf, size_t len)
{
	if (!l->speed && !l->width)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s x%u", mlx_pcie_speed_str(l->speed), l->width);
	return buf;
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
	if (label && !out_is_json(o))
		out_text(o, label, cli_pcie_link_str(l, buf, sizeof(buf)));
}

void cli_out_pcie(struct out *o, const struct cli_pcie *v, bool text)
{
	out_obj_begin(o, "pcie", NULL);
	out_str(o, "source", NULL, v->source);
	out_link(o, "capability", text ? "link capability" : NULL, &v->cap);
	out_link(o, "status", text ? "link status" : NULL, &v->sta);
	out_bool(o, "degraded", text ? "degraded" : NULL, v->degraded);
	out_obj_end(o);
}

static void port_link(const struct mlx_port *p, char *buf, size_t len)
{
	char sp[16];

	if (p->speed_mbps > 0)
		snprintf(buf, len, "%s %s", p->operstate[0] ? p->operstate : "?",
			 cli_speed_str(p->speed_mbps, sp, sizeof(sp)));
	else
		snprintf(buf, len, "%s", p->operstate[0] ? p->operstate : "-");
}

/* "0x15b3": an ID as devices -j spells it (by hand: four a function). */
static const char *id_str(char buf[8], uint16_t v)
{
	static const char hex[] = "0123456789abcdef";

	buf[0] = '0';
	buf[1] = 'x';
	buf[2] = hex[v >> 12];
	buf[3] = hex[(v >> 8) & 15];
	buf[4] = hex[(v >> 4) & 15];
	buf[5] = hex[v & 15];
	buf[6] = '\0';
	return buf;
}

static void out_function(struct cli *cli, const struct mlx_function *fn)
{
	struct out *o = cli->out;
	const char *names[16];
	char buf[96], id[16];
	struct cli_pcie pv;
	size_t n;

	out_row_begin(o);
	out_str(o, "pci_address", "PCI", fn->bdf);
	out_str(o, "vendor_id", NULL, id_str(id, fn->vendor));
	out_str(o, "device_id", NULL, id_str(id, fn->device));
	out_str(o, "subsystem_vendor_id", NULL, id_str(id, fn->subsys_vendor));
	out_str(o, "subsystem_device_id", NULL, id_str(id, fn->subsys_device));
	if (fn->id) {
		out_str(o, "product", "PRODUCT", fn->id->product);
		out_str(o, "pci_name", NULL, fn->id->pciids);
	} else {
		snprintf(buf, sizeof(buf), "unknown 15b3:%04x", fn->device);
		out_str(o, "product", "PRODUCT", buf);
		out_null(o, "pci_name", NULL);
	}
	out_str(o, "role", "ROLE", fn->role == MLX_FN_VF ? "vf" : "pf");
	out_str(o, "pf", "PF", fn->pf ? fn->pf->bdf : NULL);
	if (fn->role == MLX_FN_VF && fn->vf_index >= 0)
		out_u64(o, "vf_index", NULL, (uint64_t)fn->vf_index);
	else
		out_null(o, "vf_index", NULL);
	out_str(o, "driver", "DRIVER", fn->driver[0] ? fn->driver : NULL);

	n = 0;
	for (size_t i = 0; i < fn->nports && n < 16; i++)
		names[n++] = fn->ports[i].ifname;
	out_strv(o, "netdevs", "NETDEV", names, n);
	n = 0;
	for (size_t i = 0; i < fn->nrdma && n < 16; i++)
		names[n++] = fn->rdma[i].name;
	out_strv(o, "rdma_devices", "RDMA", names, n);

	/* Ports in JSON; their link summarised in one text column. */
	out_list_begin(o, "ports", NULL);
	buf[0] = '\0';
	for (size_t i = 0; i < fn->nports; i++) {
		const struct mlx_port *p = &fn->ports[i];
		char one[48];

		out_obj_begin(o, NULL, NULL);
		out_str(o, "netdev", NULL, p->ifname);
		out_str(o, "rdma_device", NULL, p->rdma_dev[0] ? p->rdma_dev : NULL);
		if (p->rdma_port)
			out_u64(o, "rdma_port", NULL, p->rdma_port);
		else
			out_null(o, "rdma_port", NULL);
		out_str(o, "link_state", NULL, p->operstate[0] ? p->operstate : NULL);
		if (p->speed_mbps > 0)
			out_u64(o, "speed_mbps", NULL, (uint64_t)p->speed_mbps);
		else
			out_null(o, "speed_mbps", NULL);
		out_obj_end(o);
		if (out_is_json(o))
			continue;       /* the text column only */
		port_link(p, one, sizeof(one));
		if (strlen(buf) + strlen(one) + 2 < sizeof(buf)) {
			if (i)
				strcat(buf, ",");
			strcat(buf, one);
		}
	}
	out_list_end(o);
	out_text(o, "LINK", fn->nports ? buf : "-");

	if (fn->numa_node >= 0)
		out_s64(o, "numa_node", "NUMA", fn->numa_node);
	else
		out_str(o, "numa_node", "NUMA", NULL);
	out_str(o, "fw_version", "FW", fn->fw_version[0] ? fn->fw_version : NULL);
	out_str(o, "fw_version_source", NULL, fn->fw_source[0] ? fn->fw_source : NULL);
	out_str(o, "psid", cli->verbose ? "PSID" : NULL, fn->psid[0] ? fn->psid : NULL);

	cli_pcie_view(fn, &pv);
	cli_out_pcie(o, &pv, false);
	if (!pv.source) {
		out_text(o, "PCIE", "-");
	} else if (!out_is_json(o)) {
		char cap[24], sta[24];

		cli_pcie_link_str(&pv.cap, cap, sizeof(cap));
		cli_pcie_link_str(&pv.sta, sta, sizeof(sta));
		if (fn->role == MLX_FN_VF)
			snprintf(buf, sizeof(buf), "virtual");
		else if (pv.degraded)
			snprintf(buf, sizeof(buf), "%s (of %s)!", sta, cap);
		else
			snprintf(buf, sizeof(buf), "%s", sta);
		out_text(o, "PCIE", buf);
	}

	if (fn->role == MLX_FN_PF && fn->sriov_totalvfs >= 0) {
		out_obj_begin(o, "sriov", NULL);
		out_u64(o, "total_vfs", NULL, (uint64_t)fn->sriov_totalvfs);
		out_u64(o, "num_vfs", NULL, fn->sriov_numvfs > 0 ? (uint64_t)fn->sriov_numvfs : 0);
		out_obj_end(o);
	} else {
		out_null(o, "sriov", NULL);
	}
	out_u64(o, "config_space_bytes", cli->verbose ? "CFG" : NULL, fn->cfg_len);
	out_row_end(o);

	if (pv.degraded) {
		char cap[24], sta[24];

		cli_pcie_link_str(&pv.cap, cap, sizeof(cap));
		cli_pcie_link_str(&pv.sta, sta, sizeof(sta));
		cli_warn(cli, "%s: PCIe link trained at %s, below its capability %s: "
			 "the adapter's bandwidth is capped; check the slot and riser", fn->bdf,
			 sta, cap);
	}
}

static void say_none(struct cli *cli, const struct mlx_devices *devs)
{
	cli_say_no_devices(cli, devs);
}

int cmd_devices(struct cli *cli, int argc, char **argv)
{
	struct mlx_devices *devs;
	struct mlx_function *sel;
	int r;

	/* The port columns of `ports` (mac, mtu, carrier...) are not shown
	 * here: five sysfs files a port not read. */
	cli->scan_skip = MLX_SCAN_PORT_DETAILS | MLX_SCAN_VF_EXT_CONFIG;
	r = cli_select(cli, &sel, NULL);
	if (r)
		return r;
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	out_table_begin(cli->out, "devices");
	for (size_t i = 0; i < devs->nfn; i++)
		if (!sel || sel == &devs->fn[i])
			out_function(cli, &devs->fn[i]);
	out_table_end(cli->out);
	if (!devs->nfn)
		say_none(cli, devs);
	return EXIT_OK;
}

static void out_port(struct cli *cli, const struct mlx_port *p)
{
	struct out *o = cli->out;
	char sp[16];

	out_row_begin(o);
	out_str(o, "netdev", "NETDEV", p->ifname);
	if (p->ifindex >= 0)
		out_s64(o, "ifindex", NULL, p->ifindex);
	else
		out_null(o, "ifindex", NULL);
	out_str(o, "pci_address", "PCI", p->fn->bdf);
	out_str(o, "role", "ROLE", p->fn->role == MLX_FN_VF ? "vf" : "pf");
	out_str(o, "product", NULL, p->fn->id ? p->fn->id->product : NULL);
	out_str(o, "rdma_device", "RDMA", p->rdma_dev[0] ? p->rdma_dev : NULL);
	if (p->rdma_port)
		out_u64(o, "rdma_port", "PORT", p->rdma_port);
	else
		out_str(o, "rdma_port", "PORT", NULL);
	out_str(o, "link_layer", NULL, p->link_layer[0] ? p->link_layer : NULL);
	out_str(o, "link_state", "STATE", p->operstate[0] ? p->operstate : NULL);
	if (p->carrier_known)
		out_bool(o, "carrier", NULL, p->carrier);
	else
		out_null(o, "carrier", NULL);
	if (p->speed_mbps > 0)
		out_u64_as(o, "speed_mbps", "SPEED", (uint64_t)p->speed_mbps,
			   cli_speed_str(p->speed_mbps, sp, sizeof(sp)));
	else
		out_str(o, "speed_mbps", "SPEED", NULL);
	if (p->mtu)
		out_u64(o, "mtu", "MTU", p->mtu);
	else
		out_str(o, "mtu", "MTU", NULL);
	out_str(o, "mac", "MAC", p->mac[0] ? p->mac : NULL);
	out_str(o, "phys_port_name", NULL, p->phys_port_name[0] ? p->phys_port_name : NULL);
	if (p->dev_port >= 0)
		out_s64(o, "dev_port", NULL, p->dev_port);
	else
		out_null(o, "dev_port", NULL);
	out_row_end(o);
}

int cmd_ports(struct cli *cli, int argc, char **argv)
{
	struct mlx_devices *devs;
	struct mlx_function *sel;
	struct mlx_port *selp;
	int r;

	r = cli_select(cli, &sel, &selp);
	if (r)
		return r;
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	out_table_begin(cli->out, "ports");
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		if (sel && sel != fn)
			continue;
		for (size_t k = 0; k < fn->nports; k++)
			if (!selp || selp == &fn->ports[k])
				out_port(cli, &fn->ports[k]);
	}
	out_table_end(cli->out);
	if (!devs->nfn)
		say_none(cli, devs);
	return EXIT_OK;
}

/* mlxtool's spellings: `mlxtool show devices`, `mlxtool show ports`. */
static const struct cmd show_cmds[] = {
	{ "devices", "", "list every ConnectX PCI function (alias of 'devices')",
	  cmd_devices, 0, 0, 0, NULL, NULL, "devices" },
	{ "ports", "", "list every network port (alias of 'ports')",
	  cmd_ports, 0, 0, 0, NULL, NULL, "ports" },
	/* issue 4 (cmd/qos.c) */
	{ "qos", "", "the QoS of each port (alias of 'qosconfig show')",
	  cmd_qos_show, 0, 0, 0, NULL, qos_show_opts, "qosconfig show", "mlxcli-qos(8)" },
	/* issue 5 (cmd/counters.c) */
	{ "perfstats", "", "per-ring rx/tx statistics (mlxtool's perfstats; see mlxcli-counters(8))",
	  cmd_perfstats, 0, 0, 0, NULL, NULL, NULL, "mlxcli-counters(8)" },
	{ "selfhealing", "", "mlxtool's self-healing views: port (sensors and reset counts)",
	  NULL, 0, 0, 0, &selfhealing_group, NULL, NULL, "mlxcli-module(8)" },   /* issue 18 */
	/* issue 17 (cmd/params.c) */
	{ "regkeys", "", "mlxtool's registry-key views: config, diff, info (see mlxcli-params(8))",
	  NULL, 0, 0, 0, &regkeys_group, NULL, NULL, "mlxcli-params(8)" },
	{ "driverparams", "", "data-path knobs of one port: rings, channels, coalescing, private "
	  "flags (see mlxcli-params(8))", cmd_params_driverparams, 1, 1, 0, NULL, NULL, NULL,
	  "mlxcli-params(8)", params_if_arg },
	/* issue 24 (cmd/rdma.c): show nd connections */
	{ "nd", "", "mlxtool's NetworkDirect views: nd connections (see mlxcli-rdma(8))",
	  NULL, 0, 0, 0, &nd_group, NULL, NULL, "mlxcli-rdma(8)" },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group show_group = { "show", "mlxtool-style views", "mlxcli-devices(8)", show_cmds };
