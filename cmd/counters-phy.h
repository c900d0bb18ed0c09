/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The physical-layer rows of `mlxcli counters` (group "phy"), see cmd/counters-phy.c. */
#ifndef MLX_CMD_COUNTERS_PHY_H
#define MLX_CMD_COUNTERS_PHY_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "counters-views.h"
#include "phy.h"

/* 2 module + (3 values + 5 flags) per module lane (up to 4 banks of 8
 * lanes: a CMIS module) + 2 FEC + 2 per FEC lane */
#define PHY_MAX_ROWS (2 + 8 * MLX_MOD_MAX_LANES + 2 + 2 * MLX_FEC_MAX_LANES)

struct phy_row {
	const char *name;       /* module -j / link -j key */
	const char *unit;       /* mlxcli-json(7) UNITS */
	const char *source;     /* "module" or "fec" */
	unsigned lane;          /* 1-based; 0 the port's */
	bool gauge;             /* a level (watch shows it), else a count (watch: rate) */
	bool valid;             /* false: no module / no FEC statistics (null) */
	int64_t v;
};

struct phy_rows {
	size_t n;
	struct phy_row row[PHY_MAX_ROWS];
};

/* Read the module and FEC statistics of @p's netdev; all null without
 * asking for a port that is gone or has no netdev, and for a software
 * netdev (no parent device: no cage, no FEC), which would answer so. */
void phy_rows_read(struct cli *cli, const struct mlx_counter_port *p, struct phy_rows *r);
const char *phy_row_desc(const struct phy_row *w);
/* One row of a counters table (the keys of any counter row). */
void phy_row_out(struct out *o, const struct phy_row *w);

/* Whether row @w passes the selection (--group phy, --filter on its name, --nonzero). */
bool phy_keep(const struct sel *s, const struct phy_row *w);
/* Whether the selection has the phy group (no --group, or phy in it). */
bool phy_selected(const struct sel *s);

#endif
