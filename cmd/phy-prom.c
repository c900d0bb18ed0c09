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
 * the port's total twice.  The values are the rows `counters --group phy`
 * reads (cmd/counters-phy.c: one module read and one FEC_GET per port, the
 * same null rules), rescaled from their integer units to base units.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "counters-phy.h"
#include "counters.h"
#include "prom.h"

static const struct fam {
	const char *row;       /* the phy row's name (cmd/counters-phy.c) */
	bool lanes;            /* the per-lane rows, else the port's */
	const char *name, *type, *help;
	double scale;          /* the row's integer unit -> base unit */
} fams[] = {
	{ "temperature", false, "mlxcli_module_temperature_celsius", "gauge",
	  "transceiver module temperature", 1e-3 },
	{ "voltage", false, "mlxcli_module_supply_voltage_volts", "gauge",
	  "transceiver module supply voltage", 1e-6 },
	{ "bias", true, "mlxcli_module_laser_bias_amperes", "gauge",
	  "laser bias current of a module lane", 1e-6 },
	{ "tx_power", true, "mlxcli_module_tx_power_watts", "gauge",
	  "transmitted optical power of a module lane", 1e-9 },
	{ "rx_power", true, "mlxcli_module_rx_power_watts", "gauge",
	  "received optical power of a module lane", 1e-9 },
	/* the lane flags (SFF-8636 bytes 3-5, SFF-8472 A2h 110, CMIS page
	 * 11h), 1 raised: latched, so 1 says "since the last read" */
	{ "rx_los", true, "mlxcli_module_rx_los", "gauge",
	  "1 when a module lane's Rx loss of signal flag is raised", 1 },
	{ "tx_los", true, "mlxcli_module_tx_los", "gauge",
	  "1 when a module lane's Tx loss of signal flag is raised", 1 },
	{ "tx_fault", true, "mlxcli_module_tx_fault", "gauge",
	  "1 when a module lane's Tx fault flag is raised", 1 },
	{ "rx_lol", true, "mlxcli_module_rx_lol", "gauge",
	  "1 when a module lane's Rx CDR loss of lock flag is raised", 1 },
	{ "tx_lol", true, "mlxcli_module_tx_lol", "gauge",
	  "1 when a module lane's Tx CDR loss of lock flag is raised", 1 },
	{ "corrected_blocks", false, "mlxcli_fec_corrected_blocks_total", "counter",
	  "FEC blocks corrected (ethtool FEC statistics)", 1 },
	{ "uncorrectable_blocks", false, "mlxcli_fec_uncorrectable_blocks_total", "counter",
	  "FEC blocks not correctable", 1 },
	{ "corrected_blocks", true, "mlxcli_fec_per_lane_corrected_blocks_total", "counter",
	  "FEC blocks corrected on a lane", 1 },
	{ "uncorrectable_blocks", true, "mlxcli_fec_per_lane_uncorrectable_blocks_total", "counter",
	  "FEC blocks not correctable on a lane", 1 },
};

static void sample(FILE *fp, const struct fam *f, const struct mlx_counter_port *p, const struct phy_row *w)
{
	char dev[64], nd[64], lab[32] = "";

	prom_escape_label(dev, sizeof(dev), p->bdf);
	prom_escape_label(nd, sizeof(nd), p->ifname);
	if (w->lane)
		snprintf(lab, sizeof(lab), ",lane_number=\"%u\"", w->lane);
	fprintf(fp, "%s{pci_address=\"%s\",netdev=\"%s\",port=\"%d\"%s} %.9g\n", f->name, dev, nd,
		p->port_label, lab, (double)w->v * f->scale);
}

int prom_write_phy(struct cli *cli, FILE *fp, const struct mlx_counters *cs)
{
	struct phy_rows *rows = calloc(cs->nports ? cs->nports : 1, sizeof(*rows));

	if (!rows)
		return -ENOMEM;
	for (size_t k = 0; k < cs->nports; k++)
		if (!cs->ports[k].gone && cs->ports[k].ifname[0])
			phy_rows_read(cli, &cs->ports[k], &rows[k]);
	/* HELP and TYPE once per family, then its samples of every port */
	for (size_t f = 0; f < sizeof(fams) / sizeof(fams[0]); f++) {
		bool head = false;

		for (size_t k = 0; k < cs->nports; k++) {
			for (size_t i = 0; i < rows[k].n; i++) {
				const struct phy_row *w = &rows[k].row[i];

				if (!w->valid || strcmp(w->name, fams[f].row) || !w->lane != !fams[f].lanes)
					continue;
				if (!head)
					fprintf(fp, "# HELP %s %s\n# TYPE %s %s\n", fams[f].name, fams[f].help,
						fams[f].name, fams[f].type);
				head = true;
				sample(fp, &fams[f], &cs->ports[k], w);
			}
		}
	}
	free(rows);
	return 0;
}
