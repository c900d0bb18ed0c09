/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The physical layer in `counters --format prometheus` (issue 18): per
 * port the module's temperature, supply voltage and per-lane bias, Tx and
 * Rx power as gauges in Prometheus base units (celsius, volts, amperes,
 * watts), and the FEC block counters, per port and per lane (as `link`
 * has them in .fec.per_lane).  Same labels as the counters (pci_address,
 * netdev, port), plus lane_number, the JSON registry's key for a lane
 * (man/mlxcli-json.7); HELP and TYPE once per family.  The per-lane FEC
 * counters are families of their own: a sum over a family never counts
 * the port's total twice.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "counters.h"
#include "phy.h"
#include "prom.h"

struct phy_port {
	const struct mlx_counter_port *p;
	bool have_module;
	struct mlx_module m;
	struct mlx_link l;
};

enum fam {
	F_TEMP, F_VCC, F_BIAS, F_TX, F_RX, F_FEC_CORR, F_FEC_UNCORR, F_FEC_LANE_CORR, F_FEC_LANE_UNCORR, F_N
};

static const struct {
	const char *name, *type, *help;
	double scale;     /* decoded unit -> base unit */
} fams[F_N] = {
	{ "mlxcli_module_temperature_celsius", "gauge", "transceiver module temperature", 1 },
	{ "mlxcli_module_supply_voltage_volts", "gauge", "transceiver module supply voltage", 1 },
	{ "mlxcli_module_laser_bias_amperes", "gauge", "laser bias current of a module lane", 1e-3 },
	{ "mlxcli_module_tx_power_watts", "gauge", "transmitted optical power of a module lane", 1e-3 },
	{ "mlxcli_module_rx_power_watts", "gauge", "received optical power of a module lane", 1e-3 },
	{ "mlxcli_fec_corrected_blocks_total", "counter", "FEC blocks corrected (ethtool FEC statistics)", 1 },
	{ "mlxcli_fec_uncorrectable_blocks_total", "counter", "FEC blocks not correctable", 1 },
	{ "mlxcli_fec_per_lane_corrected_blocks_total", "counter", "FEC blocks corrected on a lane", 1 },
	{ "mlxcli_fec_per_lane_uncorrectable_blocks_total", "counter", "FEC blocks not correctable on a lane", 1 },
};

static void sample(FILE *fp, enum fam f, const struct mlx_counter_port *p, int lane, double v)
{
	char dev[64], nd[64], lab[32] = "";

	prom_escape_label(dev, sizeof(dev), p->bdf);
	prom_escape_label(nd, sizeof(nd), p->ifname);
	if (lane > 0)
		snprintf(lab, sizeof(lab), ",lane_number=\"%d\"", lane);
	fprintf(fp, "%s{pci_address=\"%s\",netdev=\"%s\",port=\"%d\"%s} %.9g\n", fams[f].name, dev, nd,
		p->port_label, lab, v * fams[f].scale);
}

/* Whether family @f has a value on @pp (lane @i for the lane families). */
static bool value(const struct phy_port *pp, enum fam f, unsigned i, double *v)
{
	const struct mlx_mod_info *mi = &pp->m.info;
	const struct mlx_mod_value *mv = NULL;

	switch (f) {
	case F_TEMP: mv = &mi->temperature_c; break;
	case F_VCC: mv = &mi->voltage_v; break;
	case F_BIAS: mv = i < mi->nlanes ? &mi->lane[i].bias_ma : NULL; break;
	case F_TX: mv = i < mi->nlanes ? &mi->lane[i].tx_power_mw : NULL; break;
	case F_RX: mv = i < mi->nlanes ? &mi->lane[i].rx_power_mw : NULL; break;
	case F_FEC_CORR:
		*v = (double)pp->l.fec_corrected;
		return pp->l.fec_corrected >= 0;
	case F_FEC_UNCORR:
		*v = (double)pp->l.fec_uncorrectable;
		return pp->l.fec_uncorrectable >= 0;
	case F_FEC_LANE_CORR:
		*v = (double)pp->l.fec_corrected_lane[i];
		return i < pp->l.fec_nlanes && pp->l.fec_corrected_lane[i] >= 0;
	case F_FEC_LANE_UNCORR:
		*v = (double)pp->l.fec_uncorrectable_lane[i];
		return i < pp->l.fec_nlanes && pp->l.fec_uncorrectable_lane[i] >= 0;
	default:
		return false;
	}
	if (!pp->have_module || !mv || !mv->valid)
		return false;
	*v = mv->v;
	return true;
}

int prom_write_phy(struct cli *cli, FILE *fp, const struct mlx_counters *cs)
{
	struct phy_port *pp = calloc(cs->nports ? cs->nports : 1, sizeof(*pp));

	if (!pp)
		return -ENOMEM;
	for (size_t k = 0; k < cs->nports; k++) {
		const struct mlx_counter_port *p = &cs->ports[k];

		pp[k].p = p;
		if (p->gone || !p->ifname[0])
			continue;
		pp[k].have_module = mlx_module_read(cli->ctx, p->ifname, &pp[k].m) == 0 &&
				    (!pp[k].m.decode_rc || pp[k].m.decode_rc == -EBADMSG);
		mlx_link_get(cli->ctx, p->ifname, &pp[k].l);
	}
	mlx_err_clear(cli->ctx);
	for (int f = 0; f < F_N; f++) {
		bool mod_lanes = f == F_BIAS || f == F_TX || f == F_RX;
		bool fec_lanes = f == F_FEC_LANE_CORR || f == F_FEC_LANE_UNCORR, head = false;

		for (size_t k = 0; k < cs->nports; k++) {
			size_t n = mod_lanes ? pp[k].m.info.nlanes : fec_lanes ? pp[k].l.fec_nlanes : 1;

			for (unsigned i = 0; i < n; i++) {
				double v;

				if (!pp[k].p->ifname[0] || pp[k].p->gone || !value(&pp[k], (enum fam)f, i, &v))
					continue;
				if (!head)
					fprintf(fp, "# HELP %s %s\n# TYPE %s %s\n", fams[f].name, fams[f].help,
						fams[f].name, fams[f].type);
				head = true;
				sample(fp, (enum fam)f, pp[k].p, mod_lanes || fec_lanes ? (int)i + 1 : 0, v);
			}
		}
	}
	free(pp);
	return 0;
}
