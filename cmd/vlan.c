/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli vlan [show] [-d DEV]`, `vlan add -d IF ID [name NAME] [protocol
 * 802.1Q|802.1ad] [egress-qos-map PRIO:PCP...]`, `vlan del -d IF ID`
 * (issue 27; WinOF-2's VlanID key, reference seeds-mlxtool-dmn-counters.md):
 * on Linux a VLAN is a netdev of its own stacked on the port (lib/netview.h
 * child netdevs), so the Windows adapter's one VlanID is here the list of
 * VLAN netdevs over the port, each with its id, protocol, state, MTU and
 * egress QoS map (the skb priority -> PCP map: the PCP its tagged traffic
 * carries, which PFC acts on).  add and del are one step of the write
 * engine (lib/netview/child-settings.c): validated first, a change record,
 * put back on failure, --dry-run; a delete drops the VLAN's traffic and
 * needs --yes.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "netview.h"
#include "netview-cmd.h"
#include "settings.h"
#include "txn.h"

/* IF_OPER_* (include/uapi/linux/if.h; RFC 2863 names, as ip prints them) */
static const char *oper_name(int s)
{
	static const char *const n[] = { "unknown", "notpresent", "down", "lowerlayerdown",
					 "testing", "dormant", "up" };

	return s >= 0 && (size_t)s < sizeof(n) / sizeof(n[0]) ? n[s] : NULL;
}

const char *vlan_proto_name(unsigned proto)
{
	return proto == MLX_ETH_P_8021Q ? "802.1Q" : proto == MLX_ETH_P_8021AD ? "802.1ad" : NULL;
}

/* ---- show ---- */

struct show {
	struct mlx_link_info *links;
	size_t n;
	int err;
};

/* One VLAN netdev: the one renderer of a VLAN (show, the plan's notes). */
static void out_vlan(struct out *o, const struct mlx_link_info *v)
{
	char map[16 * 14] = "";
	size_t off = 0;

	out_obj_begin(o, NULL, v->ifname);
	out_str(o, "netdev", NULL, v->ifname);
	if (v->vlan_id >= 0)
		out_u64(o, "vlan", "VLAN id", (uint64_t)v->vlan_id);
	else
		out_null(o, "vlan", "VLAN id");
	out_str(o, "vlan_protocol", "protocol", vlan_proto_name(v->vlan_proto));
	out_str(o, "operstate", "state", oper_name(v->operstate));
	if (v->mtu >= 0)
		out_u64(o, "mtu", "MTU", (uint64_t)v->mtu);
	else
		out_null(o, "mtu", "MTU");
	for (size_t i = 0; i < v->vlan_negress && off < sizeof(map); i++)
		off += (size_t)snprintf(map + off, sizeof(map) - off, "%s%u:%u", i ? " " : "",
					v->vlan_egress[i].from, v->vlan_egress[i].to);
	out_text(o, "egress QoS map (priority:PCP)", v->vlan_negress ? map : "none (PCP 0)");
	/* structured in JSON; the text has the line above */
	out_list_begin(o, "egress_qos_map", NULL);
	for (size_t i = 0; i < v->vlan_negress; i++) {
		out_obj_begin(o, NULL, NULL);
		out_fmt_u64(o, OUT_JSON, "skb_priority", "%s", v->vlan_egress[i].from);
		out_fmt_u64(o, OUT_JSON, "pcp", "%s", v->vlan_egress[i].to);
		out_obj_end(o);
	}
	out_list_end(o);
	out_obj_end(o);
}

static void vlan_port(struct cli *cli, const struct mlx_function *fn, const char *ifname, void *arg)
{
	struct show *s = arg;
	struct out *o = cli->out;
	char label[64];
	int index = 0;
	size_t nv = 0;

	if (fn)
		snprintf(label, sizeof(label), "%s (%s)", ifname, fn->bdf);
	else
		snprintf(label, sizeof(label), "%s", ifname);
	out_obj_begin(o, NULL, label);
	netview_port_ids(o, fn, ifname);
	for (size_t i = 0; !s->err && i < s->n; i++)
		if (!strcmp(s->links[i].ifname, ifname))
			index = s->links[i].ifindex;
	out_list_begin(o, "vlans", NULL);
	for (size_t i = 0; index && i < s->n; i++)
		if (s->links[i].link == index && !strcmp(s->links[i].kind, "vlan")) {
			out_vlan(o, &s->links[i]);
			nv++;
		}
	out_list_end(o);
	if (s->err)
		out_str(o, "vlans_error", "VLANs", s->err == -ENODATA ? "the capture has no link dump" :
			mlx_errmsg(cli->ctx)[0] ? mlx_errmsg(cli->ctx) : strerror(-s->err));
	else if (!index)
		out_str(o, "vlans_error", "VLANs", "the port is not in the kernel's list of links");
	else {
		out_null(o, "vlans_error", NULL);
		if (!nv)
			out_text(o, "VLANs", "none");
	}
	out_obj_end(o);
}

int cmd_vlan_show(struct cli *cli, int argc, char **argv)
{
	struct show s = { NULL, 0, 0 };
	int r;

	(void)argc;
	(void)argv;
	s.err = mlx_links_dump(cli->ctx, &s.links, &s.n);
	out_list_begin(cli->out, "ports", NULL);
	r = netview_for_ports(cli, vlan_port, &s);
	out_list_end(cli->out);
	mlx_err_clear(cli->ctx);
	free(s.links);
	return r;
}

/* ---- add, del ---- */

static const char *const add_words[] = { "name", "protocol", "egress-qos-map", NULL };

/* "PRIO:PCP" */
static int egress_entry(struct cli *cli, struct mlx_child_setting *c, const char *w)
{
	uint64_t from, to;
	char a[24], *colon;

	snprintf(a, sizeof(a), "%s", w);
	colon = strchr(a, ':');
	if (!colon || strlen(w) >= sizeof(a)) {
		cli_error(cli, "invalid egress-qos-map entry '%s': PRIORITY:PCP (0:3)", w);
		return EXIT_USAGE;
	}
	*colon = '\0';
	if (mlx_parse_u64(a, &from) < 0 || mlx_parse_u64(colon + 1, &to) < 0 || from > INT64_MAX ||
	    to > INT64_MAX || mlx_child_put_egress(cli->ctx, c, (int64_t)from, (int64_t)to) < 0) {
		cli_error(cli, "invalid egress-qos-map entry '%s': %s", w,
			  mlx_errmsg(cli->ctx)[0] ? mlx_errmsg(cli->ctx) : "PRIORITY:PCP (0:3)");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The words after ID into @c.  @add: add's words; del takes name only. */
static int parse_words(struct cli *cli, int argc, char **argv, struct mlx_child_setting *c, bool add)
{
	bool proto = false, map = false;

	for (int i = 0; i < argc; i++) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(k, "name")) {
			if (c->name[0]) {
				cli_error(cli, "name is given twice");
				return EXIT_USAGE;
			}
			if (!v || mlx_child_put_name(cli->ctx, c, v) < 0) {
				cli_error(cli, "%s", v ? mlx_errmsg(cli->ctx) :
					  "name needs a value: name NAME");
				return EXIT_USAGE;
			}
			i++;
		} else if (add && !strcmp(k, "protocol")) {
			if (proto) {
				cli_error(cli, "protocol is given twice");
				return EXIT_USAGE;
			}
			if (v && !strcasecmp(v, "802.1Q"))
				c->proto = MLX_ETH_P_8021Q;
			else if (v && !strcasecmp(v, "802.1ad"))
				c->proto = MLX_ETH_P_8021AD;
			else {
				cli_error(cli, "invalid protocol '%s': 802.1Q or 802.1ad", v ? v : "");
				return EXIT_USAGE;
			}
			proto = true;
			i++;
		} else if (add && !strcmp(k, "egress-qos-map")) {
			int r;

			if (map) {
				cli_error(cli, "egress-qos-map is given twice");
				return EXIT_USAGE;
			}
			map = true;
			/* PRIO:PCP words up to the next keyword */
			if (!v || !strchr(v, ':')) {
				cli_error(cli, "egress-qos-map takes PRIORITY:PCP entries (0:3 5:5)");
				return EXIT_USAGE;
			}
			while (i + 1 < argc && strchr(argv[i + 1], ':'))
				if ((r = egress_entry(cli, c, argv[++i])))
					return r;
		} else {
			const char *s = cli_suggest(k, add_words, 3);

			cli_error(cli, "unknown word '%s'%s", k, add ? "" : ": vlan del takes name NAME only");
			if (s && add)
				cli_hint(cli, "did you mean '%s'?", s);
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

int netdevs_parse_id(struct cli *cli, const char *text, unsigned kind, uint16_t *id)
{
	uint64_t u;

	if (mlx_parse_u64(text, &u) < 0 || u > 0xffff ||
	    (kind == MLX_CHILD_VLAN && (u < 1 || u > 4094)) ||
	    (kind == MLX_CHILD_IPOIB && (u & 0x7fff) == 0)) {
		if (kind == MLX_CHILD_VLAN)
			cli_error(cli, "invalid VLAN id '%s': 1-4094", text);
		else
			cli_error(cli, "invalid pkey '%s': 0x0001-0x7fff (the full-membership bit "
				  "0x8000 may be set)", text);
		return EXIT_USAGE;
	}
	*id = (uint16_t)u;
	return EXIT_OK;
}

int netdevs_write(struct cli *cli, struct mlx_port_settings *want, const struct mlx_port_ref *t,
		  bool del, const char *what)
{
	struct mlx_txn *txn = NULL;
	char refusal[300], question[300];
	int r = EXIT_OK, e;

	out_str(cli->out, "netdev", NULL, t->ifname);
	out_str(cli->out, "pci_address", NULL, t->fn ? t->fn->bdf : NULL);
	e = mlx_txn_new(cli->ctx, &txn);
	if (e == 0)
		e = mlx_txn_add(txn, MLX_SUB_NETDEVS, t, want, 0);
	/* the plan first, with no lock held: a delete is confirmed from it */
	if (e >= 0)
		e = mlx_txn_plan(txn, 0);
	if (e >= 0 && del && mlx_txn_destroys(txn)) {
		snprintf(refusal, sizeof(refusal), "deleting %s of %s drops the traffic on it: confirm "
			 "with --yes", what, mlx_port_ref_name(t));
		snprintf(question, sizeof(question), "delete %s of %s", what, mlx_port_ref_name(t));
		r = cli_confirm(cli, txn, refusal, NULL, question);
	}
	r = cli_txn_finish(cli, txn, e, r, mlx_port_ref_name(t));
	mlx_txn_free(txn);
	return r;
}

static int vlan_write(struct cli *cli, int argc, char **argv, bool add)
{
	struct mlx_port_settings *want = mlx_port_settings_new();
	struct mlx_child_setting *c;
	struct mlx_port_ref t;
	char what[24];
	uint16_t id;
	int r;

	if (!want)
		return cli_fail(cli, -ENOMEM, add ? "vlan add" : "vlan del");
	/* the words first: a bad one is exit 2 before any device is read */
	r = netdevs_parse_id(cli, argv[0], MLX_CHILD_VLAN, &id);
	if (r == EXIT_OK) {
		c = mlx_netdevs_put(cli->ctx, &want->netdevs, MLX_CHILD_VLAN, id, add);
		r = c ? parse_words(cli, argc - 1, argv + 1, c, add) : cli_fail(cli, -ENOMEM, "vlan");
	}
	if (r == EXIT_OK)
		r = cli_port_target(cli, false, &t);
	if (r == EXIT_OK) {
		snprintf(what, sizeof(what), "VLAN %u", id);
		r = netdevs_write(cli, want, &t, !add, what);
	}
	mlx_port_settings_free(want);
	return r;
}

static int cmd_vlan_add(struct cli *cli, int argc, char **argv)
{
	return vlan_write(cli, argc, argv, true);
}

static int cmd_vlan_del(struct cli *cli, int argc, char **argv)
{
	return vlan_write(cli, argc, argv, false);
}

static const struct cmd_arg vlan_add_args[] = {
	{ "ID", NULL, SRC_NONE, 0 },
	{ "[name NAME] [protocol 802.1Q|802.1ad] [egress-qos-map PRIO:PCP...]", add_words, SRC_NONE,
	  ARG_KEYWORDS | ARG_OPTIONAL },
	CMD_ARG_END,
};

static const char *const del_words[] = { "name", NULL };
static const struct cmd_arg vlan_del_args[] = {
	{ "ID", NULL, SRC_NONE, 0 },
	{ "[name NAME]", del_words, SRC_NONE, ARG_KEYWORDS | ARG_OPTIONAL },
	CMD_ARG_END,
};

const struct cmd_opt netdevs_write_opts[] = {
	{ "any-netdev", 0, NULL, "with -d IFNAME: any netdev, not only a ConnectX port", NULL,
	  SRC_NONE, 0 },
	{ "yes", 'y', NULL, "go ahead with a delete (it drops the traffic on the child)", NULL,
	  SRC_NONE, 0 },
	{ NULL, 0, NULL, NULL, NULL, SRC_NONE, 0 },
};

static const struct cmd vlan_cmds[] = {
	{ "show", "", "the VLAN netdevs on each port: id, protocol, state, MTU, egress QoS map",
	  cmd_vlan_show, 0, 0, 0, NULL, netview_opts, NULL, NULL },
	{ "add", "", "add a VLAN netdev on a port (ip link add ... type vlan)", cmd_vlan_add, 1, -1,
	  CMD_NEEDS_DEVICE | CMD_WRITES, NULL, netdevs_write_opts, NULL, NULL, vlan_add_args },
	{ "del", "", "delete a VLAN netdev of a port (drops its traffic: --yes)", cmd_vlan_del, 1, 3,
	  CMD_NEEDS_DEVICE | CMD_WRITES, NULL, netdevs_write_opts, NULL, NULL, vlan_del_args },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group vlan_group = { "vlan", "VLAN netdevs of a port: show, add, del",
				      "mlxcli-netview(8)", vlan_cmds };
