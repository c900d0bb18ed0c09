/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli link [-d DEV]`: each port's link as the kernel reports it through
 * ethtool netlink: speed, lanes, duplex, autonegotiation, supported,
 * advertised and partner link modes, FEC (configured, active, corrected and
 * uncorrectable blocks per lane), pause (settings and frames), the link
 * state with the driver's down reason, and a verdict that puts the physical
 * causes of an incident in one place: a speed below the best advertised,
 * uncorrectable FEC blocks, a module lane or temperature out of range.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "health.h"
#include "phy.h"

const struct cmd_opt link_opts[] = {
	{ "any-netdev", 0, NULL, "with -d IFNAME: any netdev, not only a ConnectX port", NULL, SRC_NONE, 0 },
	{ NULL, 0, NULL, NULL, NULL, SRC_NONE, 0 },
};

struct link_scratch {
	struct mlx_link link;
	struct mlx_module module;
};

static void out_tristate(struct out *o, const char *key, const char *label, int v)
{
	if (v < 0)
		out_null(o, key, label);
	else
		out_bool(o, key, label, v == 1);
}

static void out_opt_s64(struct out *o, const char *key, const char *label, int64_t v)
{
	if (v < 0)
		out_null(o, key, label);
	else
		out_s64(o, key, label, v);
}

static void out_modes(struct out *o, const char *key, const char *label, const struct mlx_link_modes *m,
		      bool known)
{
	const char *v[MLX_LINK_MAX_MODES];

	if (!known) {
		out_null(o, key, label);
		return;
	}
	for (size_t i = 0; i < m->n; i++)
		v[i] = m->name[i];
	out_strv(o, key, label, v, m->n);
}

static const char *err_text(int err)
{
	return err == -EOPNOTSUPP ? "not supported by the driver" : strerror(-err);
}

/* link down, speed, FEC, the five lane flags, 8 lanes' receive power,
 * the module temperature */
#define MAX_FINDINGS (3 + MLX_MOD_NFLAGS + MLX_MOD_MAX_LANES + 1)

/*
 * A lane flag the module raises, one finding for all its lanes: "Rx loss
 * of signal on lanes 1, 2, 3, 4" (issue 25: SFF-8636 bytes 3-5, SFF-8472
 * A2h byte 110, CMIS page 11h; the flags are latched, so a raised one
 * says the lane lost its signal since the last read).
 */
static bool lane_flag_finding(char *buf, size_t len, const struct mlx_mod_info *mi, enum mlx_mod_flag f)
{
	size_t n = 0;
	unsigned lanes = 0;

	for (unsigned i = 0; i < mi->nlanes; i++)
		lanes += mi->lane[i].flag[f] > 0;
	if (!lanes)
		return false;
	n = (size_t)snprintf(buf, len, "%s on lane%s", mlx_mod_flag_text(f), lanes > 1 ? "s" : "");
	for (unsigned i = 0, k = 0; i < mi->nlanes && n < len; i++)
		if (mi->lane[i].flag[f] > 0)
			n += (size_t)snprintf(buf + n, len - n, "%s %u", k++ ? "," : "", i + 1);
	return true;
}

/* The findings of one port, worst first; JSON an array of strings. */
static void out_verdict(struct out *o, const struct mlx_link *l, const struct mlx_linkstate *ls, int ls_err,
			const struct mlx_module *m, bool have_module)
{
	char f[MAX_FINDINGS][160];
	const char *v[MAX_FINDINGS];
	size_t n = 0;
	int64_t best = 0;

	if (!ls_err && ls->link == 0) {
		const char *es = mlx_link_ext_state_str(ls->ext_state);

		snprintf(f[n++], sizeof(f[0]), "link down%s%s", es ? ": " : "", es ? es : "");
	}
	for (size_t i = 0; i < l->advertised.n; i++) {
		int64_t s = mlx_link_mode_speed(l->advertised.name[i]);

		best = s > best ? s : best;
	}
	if (!l->modes_err && l->speed_mbps > 0 && best > l->speed_mbps)
		snprintf(f[n++], sizeof(f[0]), "degraded speed: %lld Mb/s, %lld Mb/s advertised",
			 (long long)l->speed_mbps, (long long)best);
	if (l->fec_uncorrectable > 0)
		snprintf(f[n++], sizeof(f[0]), "FEC uncorrectable blocks: %lld", (long long)l->fec_uncorrectable);
	if (have_module) {
		const struct mlx_mod_info *mi = &m->info;

		for (int fl = 0; fl < MLX_MOD_NFLAGS && n < MAX_FINDINGS - 1; fl++)
			n += lane_flag_finding(f[n], sizeof(f[0]), mi, fl);
		for (unsigned i = 0; i < mi->nlanes && n < MAX_FINDINGS - 1; i++) {
			const struct mlx_mod_value *rx = &mi->lane[i].rx_power_mw;
			enum mlx_mod_level lv = mlx_mod_value_level(rx, &mi->rx_power_th);
			bool low = rx->low_warning || rx->low_alarm ||
				   (mi->rx_power_th.valid && rx->v <= mi->rx_power_th.low_warning);

			if (lv >= MLX_MOD_WARNING && low)
				snprintf(f[n++], sizeof(f[0]), "receive power low on lane %u (%s)", i + 1,
					 mlx_mod_level_name(lv));
			else if (lv >= MLX_MOD_WARNING)
				snprintf(f[n++], sizeof(f[0]), "receive power out of range on lane %u (%s)", i + 1,
					 mlx_mod_level_name(lv));
		}
		if (n < MAX_FINDINGS && mlx_mod_value_level(&mi->temperature_c, &mi->temperature_th) >= MLX_MOD_WARNING)
			snprintf(f[n++], sizeof(f[0]), "module temperature %.1f C (%s)", mi->temperature_c.v,
				 mlx_mod_level_name(mlx_mod_value_level(&mi->temperature_c, &mi->temperature_th)));
	}
	char text[MAX_FINDINGS * 164] = "ok";
	size_t tl = 0;

	for (size_t i = 0; i < n; i++) {
		v[i] = f[i];
		tl += (size_t)snprintf(text + tl, sizeof(text) - tl, "%s%s", i ? "; " : "", f[i]);
	}
	out_strv(o, "verdict", NULL, v, n);
	out_text(o, "verdict", text);
	out_bool(o, "healthy", NULL, n == 0);
}

static int out_link(struct cli *cli, const char *ifname, const char *bdf, struct link_scratch *s)
{
	struct out *o = cli->out;
	struct mlx_link *l = &s->link;
	struct mlx_linkstate ls;
	char label[96], buf[64];
	int r, ls_err;
	bool have_module;

	r = mlx_link_get(cli->ctx, ifname, l);
	if (r < 0)
		return r;
	ls_err = mlx_linkstate_get(cli->ctx, ifname, &ls);
	have_module = mlx_module_read(cli->ctx, ifname, &s->module) == 0 &&
		      (!s->module.decode_rc || s->module.decode_rc == -EBADMSG);
	mlx_err_clear(cli->ctx);

	snprintf(label, sizeof(label), bdf ? "%s (%s)" : "%s", ifname, bdf);
	out_obj_begin(o, NULL, label);
	out_str(o, "netdev", NULL, ifname);
	out_str(o, "pci_address", NULL, bdf);
	out_tristate(o, "link", "link", ls_err ? -1 : ls.link);
	out_str(o, "ext_state", "down reason", ls_err ? NULL : mlx_link_ext_state_str(ls.ext_state));
	if (l->speed_mbps >= 0)
		out_u64_as(o, "speed_mbps", "speed", (uint64_t)l->speed_mbps,
			   cli_speed_str(l->speed_mbps, buf, sizeof(buf)));
	else
		out_null(o, "speed_mbps", "speed");
	out_opt_s64(o, "lanes", "lanes", l->lanes);
	out_str(o, "duplex", "duplex", l->duplex < 0 ? NULL : l->duplex ? "full" : "half");
	out_tristate(o, "autoneg", "autonegotiation", l->autoneg);
	out_modes(o, "supported_link_modes", "supported", &l->supported, !l->modes_err);
	out_modes(o, "advertised_link_modes", "advertised", &l->advertised, !l->modes_err);
	out_modes(o, "partner_link_modes", "partner", &l->partner, !l->modes_err);
	out_str(o, "link_modes_error", l->modes_err ? "link modes" : NULL,
		l->modes_err ? err_text(l->modes_err) : NULL);

	out_obj_begin(o, "fec", "FEC");
	out_modes(o, "configured", "configured", &l->fec_configured, !l->fec_err);
	out_tristate(o, "auto", "auto", l->fec_auto);
	out_str(o, "active", "active", l->fec_active);
	out_opt_s64(o, "corrected_blocks", "corrected blocks", l->fec_corrected);
	out_opt_s64(o, "uncorrectable_blocks", "uncorrectable blocks", l->fec_uncorrectable);
	out_list_begin(o, "per_lane", NULL);
	for (size_t i = 0; i < l->fec_nlanes; i++) {
		char lab[48], val[64];

		out_obj_begin(o, NULL, NULL);
		out_u64(o, "lane_number", NULL, i + 1);
		out_opt_s64(o, "corrected_blocks", NULL, l->fec_corrected_lane[i]);
		out_opt_s64(o, "uncorrectable_blocks", NULL, l->fec_uncorrectable_lane[i]);
		out_obj_end(o);
		snprintf(lab, sizeof(lab), "lane %zu", i + 1);
		snprintf(val, sizeof(val), "corrected %lld, uncorrectable %lld", (long long)l->fec_corrected_lane[i],
			 (long long)l->fec_uncorrectable_lane[i]);
		out_text(o, lab, val);
	}
	out_list_end(o);
	out_str(o, "error", l->fec_err ? "error" : NULL, l->fec_err ? err_text(l->fec_err) : NULL);
	out_obj_end(o);

	out_obj_begin(o, "pause", "pause");
	out_tristate(o, "autoneg", "autonegotiation", l->pause_autoneg);
	out_tristate(o, "rx", "rx", l->pause_rx);
	out_tristate(o, "tx", "tx", l->pause_tx);
	out_opt_s64(o, "rx_pause_frames", "rx pause frames", l->pause_rx_frames);
	out_opt_s64(o, "tx_pause_frames", "tx pause frames", l->pause_tx_frames);
	out_str(o, "error", l->pause_err ? "error" : NULL, l->pause_err ? err_text(l->pause_err) : NULL);
	out_obj_end(o);

	out_verdict(o, l, &ls, ls_err, &s->module, have_module);
	out_obj_end(o);
	return 0;
}

int cmd_link(struct cli *cli, int argc, char **argv)
{
	struct mlx_devices *devs;
	struct mlx_function *sel;
	struct mlx_port *selp;
	struct link_scratch *s;
	bool other;
	int r, rc = EXIT_OK;

	(void)argc;
	(void)argv;
	s = malloc(sizeof(*s));
	if (!s)
		return cli_fail(cli, -ENOMEM, "link");
	/* --any-netdev -d NAME: a ConnectX port is shown as without the
	 * option; any other netdev by its name alone */
	r = cli_other_netdev(cli, &other);
	if (r) {
		free(s);
		return r;
	}
	if (other) {
		out_list_begin(cli->out, "port_links", NULL);
		r = out_link(cli, cli->device, NULL, s);
		out_list_end(cli->out);
		free(s);
		return r < 0 ? cli_fail(cli, r, "link") : EXIT_OK;
	}
	r = cli_select(cli, &sel, &selp);
	if (!r)
		r = cli_devices(cli, &devs);
	if (r) {
		free(s);
		return r;
	}
	out_list_begin(cli->out, "port_links", NULL);
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		if (sel ? fn != sel : fn->role != MLX_FN_PF)
			continue;
		for (size_t j = 0; j < fn->nports; j++) {
			if (selp && &fn->ports[j] != selp)
				continue;
			r = out_link(cli, fn->ports[j].ifname, fn->bdf, s);
			if (r < 0)
				rc = cli_fail(cli, r, "link");
		}
	}
	out_list_end(cli->out);
	free(s);
	if (!devs->nfn)
		cli_say_no_devices(cli, devs);
	return rc;
}
