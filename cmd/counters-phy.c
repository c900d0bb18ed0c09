/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The physical layer in `mlxcli counters` (issue 18): per port, rows of
 * group "phy" after the port's counters: the module's temperature, supply
 * voltage and per-lane bias, Tx and Rx power (gauges), and the FEC block
 * counters, total and per lane (counts).  Names are the keys `module -j`
 * and `link -j` print for the same reading (temperature, voltage, bias,
 * tx_power, rx_power; corrected_blocks, uncorrectable_blocks), a lane in
 * labels.lane_number as there; units are module -j's integer units, so
 * both print the same number.  One module read per port through lib/phy.h
 * (the pages the decode needs) and one FEC_GET: a port without a module or
 * without FEC statistics has its rows with value null, never 0.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "counters-phy.h"
#include "phy.h"

static void add(struct phy_rows *r, const char *name, const char *unit, const char *source,
		unsigned lane, bool gauge, bool valid, int64_t v)
{
	struct phy_row *w;

	if (r->n >= PHY_MAX_ROWS)
		return;
	w = &r->row[r->n++];
	w->name = name;
	w->unit = unit;
	w->source = source;
	w->lane = lane;
	w->gauge = gauge;
	w->valid = valid;
	w->v = v;
}

static void add_mod(struct phy_rows *r, const char *name, const char *unit, unsigned lane,
		    bool have, const struct mlx_mod_value *mv, double scale)
{
	bool ok = have && mv && mv->valid;

	add(r, name, unit, "module", lane, true, ok, ok ? (int64_t)llround(mv->v * scale) : 0);
}

void phy_rows_read(struct cli *cli, const struct mlx_counter_port *p, struct phy_rows *r)
{
	static struct mlx_module m;     /* large: one at a time */
	const char *ifname = p->gone || p->no_device ? "" : p->ifname;
	struct mlx_link l;
	const struct mlx_mod_info *mi = &m.info;
	bool have;

	r->n = 0;
	if (!ifname[0]) {
		/* nothing to ask: the rows a port without module or FEC has
		 * (not a 100 KB module buffer cleared for each of 2,000 veths) */
		add(r, "temperature", "millidegrees C", "module", 0, true, false, 0);
		add(r, "voltage", "microvolts", "module", 0, true, false, 0);
		add(r, "corrected_blocks", "events", "fec", 0, false, false, 0);
		add(r, "uncorrectable_blocks", "events", "fec", 0, false, false, 0);
		return;
	}
	memset(&m, 0, sizeof(m));
	have = mlx_module_read(cli->ctx, ifname, &m) == 0 &&
	       (!m.decode_rc || m.decode_rc == -EBADMSG);
	/* the units and scales of module -j (cmd/module.c) */
	add_mod(r, "temperature", "millidegrees C", 0, have, &mi->temperature_c, 1000);
	add_mod(r, "voltage", "microvolts", 0, have, &mi->voltage_v, 1e6);
	for (unsigned i = 0; have && i < mi->nlanes; i++) {
		add_mod(r, "bias", "microamperes", i + 1, have, &mi->lane[i].bias_ma, 1000);
		add_mod(r, "tx_power", "nanowatts", i + 1, have, &mi->lane[i].tx_power_mw, 1e6);
		add_mod(r, "rx_power", "nanowatts", i + 1, have, &mi->lane[i].rx_power_mw, 1e6);
	}
	/* the lane flags (issue 25), 1 raised, a row where the module
	 * implements the flag (module -j's null is no row's value here) */
	for (unsigned i = 0; have && i < mi->nlanes; i++)
		for (int f = 0; f < MLX_MOD_NFLAGS; f++)
			add(r, mlx_mod_flag_key(f), "bool", "module", i + 1, true, mi->lane[i].flag[f] >= 0,
			    mi->lane[i].flag[f] > 0);
	memset(&l, 0, sizeof(l));
	if (!ifname[0] || mlx_link_get(cli->ctx, ifname, &l) < 0)
		l.fec_corrected = l.fec_uncorrectable = -1, l.fec_nlanes = 0;
	if (l.fec_err)
		l.fec_corrected = l.fec_uncorrectable = -1, l.fec_nlanes = 0;
	mlx_err_clear(cli->ctx);
	add(r, "corrected_blocks", "events", "fec", 0, false, l.fec_corrected >= 0, l.fec_corrected);
	add(r, "uncorrectable_blocks", "events", "fec", 0, false, l.fec_uncorrectable >= 0,
	    l.fec_uncorrectable);
	for (size_t i = 0; i < l.fec_nlanes && i < MLX_FEC_MAX_LANES; i++) {
		add(r, "corrected_blocks", "events", "fec", (unsigned)i + 1, false,
		    l.fec_corrected_lane[i] >= 0, l.fec_corrected_lane[i]);
		add(r, "uncorrectable_blocks", "events", "fec", (unsigned)i + 1, false,
		    l.fec_uncorrectable_lane[i] >= 0, l.fec_uncorrectable_lane[i]);
	}
}

const char *phy_row_desc(const struct phy_row *w)
{
	static const struct {
		const char *name, *desc;
	} d[] = {
		{ "temperature", "transceiver module temperature" },
		{ "voltage", "transceiver module supply voltage" },
		{ "bias", "laser bias current of a module lane" },
		{ "tx_power", "transmitted optical power of a module lane" },
		{ "rx_power", "received optical power of a module lane" },
		{ "rx_los", "a module lane's Rx loss of signal flag (latched)" },
		{ "tx_los", "a module lane's Tx loss of signal flag (latched)" },
		{ "tx_fault", "a module lane's Tx fault flag (latched)" },
		{ "rx_lol", "a module lane's Rx CDR loss of lock flag (latched)" },
		{ "tx_lol", "a module lane's Tx CDR loss of lock flag (latched)" },
		{ "corrected_blocks", "FEC blocks corrected" },
		{ "uncorrectable_blocks", "FEC blocks not correctable" },
	};

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		if (!strcmp(d[i].name, w->name))
			return d[i].desc;
	return "";
}

void phy_row_out(struct out *o, const struct phy_row *w)
{
	char name[48], desc[128];

	/* text: one NAME column, the lane in it; JSON: the lane a label */
	if (w->lane && !out_is_json(o))
		snprintf(name, sizeof(name), "%s lane %u", w->name, w->lane);
	else
		snprintf(name, sizeof(name), "%s", w->name);
	out_row_begin(o);
	out_str(o, "name", "NAME", name);
	if (w->valid)
		out_s64(o, "value", "VALUE", w->v);
	else
		out_null(o, "value", "VALUE");
	out_str(o, "unit", "UNIT", w->unit);
	out_str(o, "group", "GROUP", "phy");
	out_str(o, "source", "SOURCE", w->source);
	out_bool(o, "catalogued", NULL, true);
	if (w->gauge)
		out_null(o, "width", NULL);
	else
		out_u64(o, "width", NULL, 64);
	if (out_is_json(o)) {
		out_obj_begin(o, "labels", NULL);
		if (w->lane)
			out_u64(o, "lane_number", NULL, w->lane);
		out_obj_end(o);
	}
	snprintf(desc, sizeof(desc), "%s%s", phy_row_desc(w), w->lane ? " (per lane)" : "");
	out_str(o, "description", "DESCRIPTION", desc);
	out_row_end(o);
}
