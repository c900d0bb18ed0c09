/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli vxlan`, `mlxcli packet-filter`, `mlxcli dropless` (and mlxtool's
 * `show vxlan`, `show packet-filter`): views the Windows tools have that
 * Linux can give (issue 27; the interfaces are in lib/netview.h).
 *
 * vxlan          the UDP tunnel port tables the NIC offloads, the tunnel
 *                offload features, the VXLAN netdevs of the host
 * packet-filter  flags, promiscuity and allmulti counts, the unicast and
 *                multicast address lists
 * dropless       mlx5_ib's delay drop (debugfs) and MLNX_OFED's
 *                dropless_rq flag: WinOF's "dropless mode"
 */
#include "config.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "netview.h"
#include "netview-cmd.h"
#include "params.h"

/* ---- the ports a view covers ---- */

int netview_for_ports(struct cli *cli, netview_port_fn f, void *arg)
{
	struct mlx_devices *devs;
	struct mlx_function *sel;
	struct mlx_port *selp;
	bool other = false;
	int r;

	r = cli_other_netdev(cli, &other);
	if (r)
		return r;
	if (other) {
		f(cli, NULL, cli->device, arg);
		return EXIT_OK;
	}
	r = cli_select(cli, &sel, &selp);
	if (!r)
		r = cli_devices(cli, &devs);
	if (r)
		return r;
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		if (sel && fn != sel)
			continue;
		for (size_t j = 0; j < fn->nports; j++)
			if ((!selp || selp == &fn->ports[j]) && fn->ports[j].ifname[0])
				f(cli, fn, fn->ports[j].ifname, arg);
	}
	if (!devs->nfn)
		cli_say_no_devices(cli, devs);
	return EXIT_OK;
}

void netview_port_ids(struct out *o, const struct mlx_function *fn, const char *ifname)
{
	out_str(o, "netdev", NULL, ifname);
	out_str(o, "pci_address", NULL, fn ? fn->bdf : NULL);
}

/* "enp94s0f0np0 (0000:5e:00.0)" */
static const char *port_label(const struct mlx_function *fn, const char *ifname, char *buf, size_t len)
{
	if (fn)
		snprintf(buf, len, "%s (%s)", ifname, fn->bdf);
	else
		snprintf(buf, len, "%s", ifname);
	return buf;
}

/* The error of a lib call as the JSON's *_error text and its text line. */
static void out_err(struct cli *cli, const char *key, const char *label, int err)
{
	const char *msg = *mlx_errmsg(cli->ctx) ? mlx_errmsg(cli->ctx) : strerror(-err);

	out_str(cli->out, key, NULL, msg);
	out_text(cli->out, label, msg);
	mlx_err_clear(cli->ctx);
}

/* ---- vxlan ---- */

struct vx_arg {
	struct mlx_params_cache *pc;
	struct mlx_vxlan_dev *vx;
	size_t nvx;
	int vx_err;
};

static void vxlan_port(struct cli *cli, const struct mlx_function *fn, const char *ifname, void *arg)
{
	struct vx_arg *va = arg;
	struct out *o = cli->out;
	struct mlx_tunnel_info *ti = malloc(sizeof(*ti));
	struct mlx_tunnel_features tf;
	struct mlx_link_info li;
	char label[96];
	int r, ifindex = 0;

	out_obj_begin(o, NULL, port_label(fn, ifname, label, sizeof(label)));
	netview_port_ids(o, fn, ifname);
	if (!ti) {
		out_obj_end(o);
		return;
	}
	r = mlx_tunnel_info_get(cli->ctx, ifname, ti);
	out_bool(o, "udp_tunnel_offload", NULL, r == 0);
	out_list_begin(o, "udp_tunnel_tables", NULL);
	for (size_t t = 0; r == 0 && t < ti->ntables; t++) {
		const struct mlx_tunnel_table *tab = &ti->t[t];
		const char *types[MLX_TUNNEL_NTYPES];
		size_t nt = 0;
		char line[400];
		size_t w;

		for (int k = 0; k < MLX_TUNNEL_NTYPES; k++)
			if (tab->types & (1u << k))
				types[nt++] = mlx_tunnel_type_name(k);
		out_obj_begin(o, NULL, NULL);
		out_u64(o, "size", NULL, tab->size);
		out_strv(o, "tunnel_types", NULL, types, nt);
		out_bool(o, "static_iana", NULL, tab->types == 0);
		out_list_begin(o, "entries", NULL);
		for (size_t e = 0; e < tab->n; e++) {
			out_obj_begin(o, NULL, NULL);
			out_u64(o, "udp_port", NULL, tab->e[e].port);
			out_str(o, "tunnel_type", NULL, mlx_tunnel_type_name(tab->e[e].type));
			out_obj_end(o);
		}
		out_list_end(o);
		out_obj_end(o);
		/* "vxlan: 4790 (1 of 3 entries)", "static: 4789 (IANA VXLAN...)" */
		w = 0;
		line[0] = '\0';
		for (size_t k = 0; k < nt && w < sizeof(line); k++)
			w += (size_t)snprintf(line + w, sizeof(line) - w, "%s%s", k ? "," : "", types[k]);
		if (!nt && w < sizeof(line))
			w += (size_t)snprintf(line + w, sizeof(line) - w, "static");
		if (w < sizeof(line))
			w += (size_t)snprintf(line + w, sizeof(line) - w, ":");
		for (size_t e = 0; e < tab->n && w < sizeof(line); e++)
			w += (size_t)snprintf(line + w, sizeof(line) - w, " %u", tab->e[e].port);
		if (w < sizeof(line))
			snprintf(line + w, sizeof(line) - w, tab->types ? " (%zu of %u entries)" :
				 " (the IANA VXLAN port, always offloaded)", tab->n, tab->size);
		snprintf(label, sizeof(label), "udp port table %zu", t);
		out_text(o, label, line);
	}
	out_list_end(o);
	if (r < 0)
		out_err(cli, "udp_tunnel_error", "udp port tables", r);
	else
		out_null(o, "udp_tunnel_error", NULL);
	free(ti);

	r = mlx_tunnel_features_get(cli->ctx, va->pc, ifname, &tf);
	out_list_begin(o, "features", r == 0 ? "tunnel offload features" : NULL);
	for (size_t k = 0; r == 0 && mlx_tunnel_features[k]; k++) {
		char val[32];

		if (tf.active[k] < 0)
			continue;
		out_obj_begin(o, NULL, NULL);
		out_str(o, "name", NULL, mlx_tunnel_features[k]);
		out_bool(o, "enabled", NULL, tf.active[k]);
		out_bool(o, "fixed", NULL, tf.fixed[k] == 1);
		out_obj_end(o);
		snprintf(val, sizeof(val), "%s%s", tf.active[k] ? "on" : "off",
			 tf.fixed[k] == 1 ? " [fixed]" : "");
		out_text(o, mlx_tunnel_features[k], val);
	}
	out_list_end(o);
	if (r < 0)
		out_err(cli, "features_error", "tunnel offload features", r);
	else
		out_null(o, "features_error", NULL);

	/* The VXLAN netdevs whose lower device this port is, or that have
	 * none (a VXLAN device without a lower device asks every port). */
	if (mlx_link_info_get(cli->ctx, ifname, &li) == 0)
		ifindex = li.ifindex;
	mlx_err_clear(cli->ctx);
	out_list_begin(o, "vxlan_netdev_names", NULL);
	for (size_t k = 0; !va->vx_err && k < va->nvx; k++) {
		const struct mlx_vxlan_dev *d = &va->vx[k];
		char line[96];

		if (d->link && d->link != ifindex)
			continue;
		out_str(o, NULL, NULL, d->ifname);
		snprintf(line, sizeof(line), "udp %u, vni %lld%s%s", d->port, (long long)d->vni,
			 d->link ? "" : ", no lower device", d->up ? "" : ", down");
		snprintf(label, sizeof(label), "vxlan %s", d->ifname);
		out_text(o, label, line);
	}
	out_list_end(o);
	out_obj_end(o);
}

int cmd_vxlan(struct cli *cli, int argc, char **argv)
{
	struct vx_arg va = { NULL, NULL, 0, 0 };
	int r;

	(void)argc;
	(void)argv;
	if (mlx_params_cache_new(cli->ctx, &va.pc) < 0)
		return cli_fail(cli, -ENOMEM, "vxlan");
	va.vx_err = mlx_vxlan_devs_get(cli->ctx, &va.vx, &va.nvx);
	mlx_err_clear(cli->ctx);
	out_list_begin(cli->out, "ports", NULL);
	r = netview_for_ports(cli, vxlan_port, &va);
	out_list_end(cli->out);
	/* the host's VXLAN netdevs, once */
	out_list_begin(cli->out, "vxlan_netdevs", NULL);
	for (size_t k = 0; !va.vx_err && k < va.nvx; k++) {
		const struct mlx_vxlan_dev *d = &va.vx[k];

		out_obj_begin(cli->out, NULL, NULL);
		out_str(cli->out, "netdev", NULL, d->ifname);
		out_u64(cli->out, "udp_port", NULL, d->port);
		if (d->vni >= 0)
			out_u64(cli->out, "vni", NULL, (uint64_t)d->vni);
		else
			out_null(cli->out, "vni", NULL);
		if (d->link)
			out_u64(cli->out, "lower_ifindex", NULL, (uint64_t)d->link);
		else
			out_null(cli->out, "lower_ifindex", NULL);
		out_bool(cli->out, "up", NULL, d->up);
		out_obj_end(cli->out);
	}
	out_list_end(cli->out);
	out_str(cli->out, "vxlan_netdevs_error", NULL, va.vx_err == -ENODATA ?
		"the capture has no link dump" : va.vx_err ? strerror(-va.vx_err) : NULL);
	free(va.vx);
	mlx_params_cache_free(va.pc);
	return r;
}

/* ---- packet filter ---- */

static void out_addrs(struct out *o, const char *key, const char *label, const struct mlx_hw_addr *a,
		      size_t n)
{
	size_t len = 1;
	char *line;

	out_list_begin(o, key, NULL);
	for (size_t i = 0; i < n; i++) {
		out_obj_begin(o, NULL, NULL);
		out_str(o, "address", NULL, a[i].text);
		if (a[i].users >= 0) {
			out_u64(o, "users", NULL, (uint64_t)a[i].users);
			out_bool(o, "global", NULL, a[i].global);
		} else {
			out_null(o, "users", NULL);
			out_null(o, "global", NULL);
		}
		out_obj_end(o);
		len += strlen(a[i].text) + 1;
	}
	out_list_end(o);
	line = calloc(1, len + 8);
	if (!line)
		return;
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(line, " ");
		strcat(line, a[i].text);
	}
	out_text(o, label, n ? line : "(none)");
	free(line);
}

/* "yes (2 users)", "yes (1 user; the flag is off: the kernel or a program
 * holds it)", "no" */
static void filter_line(struct out *o, const char *label, bool flag, int64_t users)
{
	char line[160];

	if (users < 0)
		snprintf(line, sizeof(line), "%s", flag ? "yes" : "no");
	else if (!users)
		snprintf(line, sizeof(line), "no");
	else
		snprintf(line, sizeof(line), "yes (%lld user%s%s)", (long long)users, users == 1 ? "" : "s",
			 flag ? "" : "; the flag is off: the kernel or a program holds it");
	out_text(o, label, line);
}

static void filter_port(struct cli *cli, const struct mlx_function *fn, const char *ifname, void *arg)
{
	static const struct { unsigned bit; const char *name; } flags[] = {
		{ IFF_UP, "UP" }, { IFF_BROADCAST, "BROADCAST" }, { IFF_MULTICAST, "MULTICAST" },
		{ IFF_PROMISC, "PROMISC" }, { IFF_ALLMULTI, "ALLMULTI" }, { IFF_NOARP, "NOARP" },
	};
	struct mlx_filter f;
	struct out *o = cli->out;
	char label[96];
	int r;

	(void)arg;
	out_obj_begin(o, NULL, port_label(fn, ifname, label, sizeof(label)));
	netview_port_ids(o, fn, ifname);
	r = mlx_filter_get(cli->ctx, ifname, &f);
	if (r == 0 && f.link_err == 0) {
		const char *names[8];
		size_t n = 0;

		for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
			if (f.link.flags & flags[i].bit)
				names[n++] = flags[i].name;
		out_strv(o, "interface_flags", "flags", names, n);
		/* In effect while anyone holds it: the count.  The flag ip link
		 * shows is only what was asked with IFF_PROMISC (dev_get_flags
		 * reports gflags): the kernel holds a device that cannot filter
		 * unicast promiscuous for its unicast list without it. */
		out_bool(o, "promiscuous", NULL, f.link.promiscuity > 0 ||
			 (f.link.promiscuity < 0 && (f.link.flags & IFF_PROMISC)));
		out_bool(o, "all_multicast", NULL, f.link.allmulti > 0 ||
			 (f.link.allmulti < 0 && (f.link.flags & IFF_ALLMULTI)));
		if (f.link.promiscuity >= 0)
			out_u64(o, "promiscuity_count", NULL, (uint64_t)f.link.promiscuity);
		else
			out_null(o, "promiscuity_count", NULL);
		if (f.link.allmulti >= 0)
			out_u64(o, "all_multicast_count", NULL, (uint64_t)f.link.allmulti);
		else
			out_null(o, "all_multicast_count", NULL);
		filter_line(o, "promiscuous", f.link.flags & IFF_PROMISC, f.link.promiscuity);
		filter_line(o, "all multicast", f.link.flags & IFF_ALLMULTI, f.link.allmulti);
		out_null(o, "link_error", NULL);
	} else {
		out_strv(o, "interface_flags", NULL, NULL, 0);
		out_null(o, "promiscuous", NULL);
		out_null(o, "all_multicast", NULL);
		out_null(o, "promiscuity_count", NULL);
		out_null(o, "all_multicast_count", NULL);
		out_err(cli, "link_error", "link", r < 0 ? r : f.link_err);
	}
	if (r == 0) {
		if (f.link.addr_len && f.link_err == 0) {
			struct mlx_hw_addr a;

			mlx_hw_addr_format(f.link.addr, f.link.addr_len, &a);
			out_str(o, "address", "address", a.text);
		} else {
			out_null(o, "address", NULL);
		}
		out_str(o, "address_lists_source", "lists from", f.lists_source);
		out_addrs(o, "unicast_addresses", "unicast", f.uc, f.nuc);
		out_addrs(o, "multicast_addresses", "multicast", f.mc, f.nmc);
		if (!f.lists_source)
			out_str(o, "address_lists_error", "lists", f.lists_err == -ENODATA ?
				"the capture has no address lists" : strerror(-f.lists_err));
		else
			out_null(o, "address_lists_error", NULL);
		mlx_filter_free(&f);
	}
	mlx_err_clear(cli->ctx);
	out_obj_end(o);
}

int cmd_packet_filter(struct cli *cli, int argc, char **argv)
{
	int r;

	(void)argc;
	(void)argv;
	out_list_begin(cli->out, "ports", NULL);
	r = netview_for_ports(cli, filter_port, NULL);
	out_list_end(cli->out);
	return r;
}

/* ---- dropless ---- */

static void out_opt(struct out *o, const char *key, int64_t v)
{
	if (v >= 0)
		out_u64(o, key, NULL, (uint64_t)v);
	else
		out_null(o, key, NULL);
}

int cmd_dropless(struct cli *cli, int argc, char **argv)
{
	struct mlx_devices *devs;
	struct mlx_function *sel;
	struct mlx_params_cache *pc = NULL;
	struct out *o = cli->out;
	int r;

	(void)argc;
	(void)argv;
	r = cli_select(cli, &sel, NULL);
	if (!r)
		r = cli_devices(cli, &devs);
	if (r)
		return r;
	if (mlx_params_cache_new(cli->ctx, &pc) < 0)
		return cli_fail(cli, -ENOMEM, "dropless");
	out_list_begin(o, "devices", NULL);
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];
		struct mlx_delay_drop dd;
		char label[96], line[160];

		if (sel ? fn != sel : fn->role != MLX_FN_PF)
			continue;
		snprintf(label, sizeof(label), "%s%s%s", fn->bdf, fn->nports ? " " : "",
			 fn->nports ? fn->ports[0].ifname : "");
		out_obj_begin(o, NULL, label);
		out_str(o, "pci_address", NULL, fn->bdf);
		mlx_delay_drop_get(cli->ctx, fn->bdf, &dd);
		if (!dd.err || dd.timeout_usec >= 0) {
			out_obj_begin(o, "delay_drop", NULL);
			out_opt(o, "timeout_usec", dd.timeout_usec);
			out_opt(o, "timeout_events", dd.timeout_events);
			out_opt(o, "armed_rqs", dd.rqs);
			out_obj_end(o);
			/* the timeout is the most a receive queue waits for a buffer;
			 * each timeout event dropped packets and disarmed it */
			snprintf(line, sizeof(line), "timeout %lld us, %lld timeout events, %lld RQs armed",
				 (long long)dd.timeout_usec, (long long)dd.timeout_events, (long long)dd.rqs);
			out_text(o, "delay drop", line);
			out_null(o, "delay_drop_error", NULL);
		} else {
			const char *why = dd.err == -EACCES ? "reading debugfs needs root" :
				"no delay_drop/ in mlx5 debugfs: no mlx5_ib, no debugfs, or a device "
				"without delay drop (IB_RAW_PACKET_CAP_DELAY_DROP)";

			out_null(o, "delay_drop", NULL);
			out_str(o, "delay_drop_error", "delay drop", why);
		}
		out_list_begin(o, "ports", NULL);
		for (size_t j = 0; j < fn->nports; j++) {
			struct mlx_params p;
			int flag = -1;

			memset(&p, 0, sizeof(p));
			if (mlx_params_port(cli->ctx, pc, fn->ports[j].ifname, mlx_fn_bus(fn), fn->bdf,
					    fn->role == MLX_FN_PF, &p) == 0) {
				for (size_t k = 0; k < p.n; k++)
					if (!strcmp(p.v[k].name, "dropless_rq") && p.v[k].known)
						flag = !strcmp(p.v[k].value, "on");
				mlx_params_free(&p);
			}
			mlx_err_clear(cli->ctx);
			out_obj_begin(o, NULL, NULL);
			out_str(o, "netdev", NULL, fn->ports[j].ifname);
			if (flag >= 0)
				out_bool(o, "dropless_rq", NULL, flag);
			else
				out_null(o, "dropless_rq", NULL);
			out_obj_end(o);
			snprintf(label, sizeof(label), "%s dropless_rq", fn->ports[j].ifname);
			out_text(o, label, flag < 0 ? "- (no such private flag: MLNX_OFED only)" :
				 flag ? "on" : "off");
		}
		out_list_end(o);
		out_obj_end(o);
	}
	out_list_end(o);
	mlx_params_cache_free(pc);
	if (!devs->nfn)
		cli_say_no_devices(cli, devs);
	return EXIT_OK;
}

const struct cmd_opt netview_opts[] = {
	{ "any-netdev", 0, NULL, "with -d IFNAME: any netdev, not only a ConnectX port", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};
