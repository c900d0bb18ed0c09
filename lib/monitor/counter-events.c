/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ethtool -S counters of mlx5 that only count events (issue 16,
 * `monitor --poll`): nothing else says that a pause storm was stopped, a
 * module's I2C bus got stuck or the PCIe outbound path stalled (no log
 * line, no notification), so a growth between two polls is the event.
 * The names are the kernel's (drivers/net/ethernet/mellanox/mlx5/core/
 * en_stats.c: pport_pfc_stall_stats_desc, the phy and eth_ext groups,
 * pcie_perf_stats_desc, mlx5e_port_module_event's counters, the sw stats'
 * tx_recover/rx_recover); what each counts is counters.rst's.  Per-queue
 * copies (tx0_recover) are left out: their total says the same once.
 * The values are read by lib/counters (the one reader of ethtool -S).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "counters.h"
#include "monitor.h"

static const struct {
	const char *name;
	enum mlx_ev_kind kind;
} counter_events[] = {
	{ "tx_pause_storm_warning_events", MLX_EV_PAUSE_STORM_WARNING },
	{ "tx_pause_storm_error_events", MLX_EV_PAUSE_STORM_ERROR },
	{ "module_unplug", MLX_EV_MODULE_UNPLUG_COUNTED },
	{ "module_bus_stuck", MLX_EV_MODULE_BUS_STUCK },
	{ "module_high_temp", MLX_EV_MODULE_HIGH_TEMP },
	{ "module_bad_shorted", MLX_EV_MODULE_BAD_SHORTED },
	{ "link_down_events_phy", MLX_EV_LINK_DOWN_COUNTED },
	{ "total_success_recovery_phy", MLX_EV_PHY_RECOVERY },
	{ "outbound_pci_stalled_rd_events", MLX_EV_PCI_STALLED },
	{ "outbound_pci_stalled_wr_events", MLX_EV_PCI_STALLED },
	{ "rx_buffer_passed_thres_phy", MLX_EV_RX_BUFFER_ALMOST_FULL },
	{ "tx_recover", MLX_EV_SQ_RECOVERED },
	{ "rx_recover", MLX_EV_RQ_RECOVERED },
};
#define NCOUNTER_EVENTS (sizeof(counter_events) / sizeof(counter_events[0]))

const char *mlx_counter_event_name(size_t i)
{
	return i < NCOUNTER_EVENTS ? counter_events[i].name : NULL;
}

enum mlx_ev_kind mlx_counter_event_kind(const char *name)
{
	for (size_t i = 0; i < NCOUNTER_EVENTS; i++)
		if (!strcmp(counter_events[i].name, name))
			return counter_events[i].kind;
	return MLX_EV_NONE;
}

int mlx_counter_event(const char *name, const char *bdf, const char *netdev, bool have_prev,
		      uint64_t prev, uint64_t now, struct mlx_event *ev)
{
	enum mlx_ev_kind k = mlx_counter_event_kind(name);
	bool reset = false;
	uint64_t d;

	if (k == MLX_EV_NONE || !have_prev)
		return 0;
	/* these are 64-bit in the driver: back is a reset, never a wrap */
	d = mlx_counter_delta(prev, now, 64, &reset);
	if (reset || d == 0)
		return 0;
	memset(ev, 0, sizeof(*ev));
	ev->kind = k;
	ev->source = MLX_EVS_MONITOR;
	ev->severity = mlx_ev_kind_info(k)->severity;
	snprintf(ev->pci_address, sizeof(ev->pci_address), "%s", bdf ? bdf : "");
	snprintf(ev->netdev, sizeof(ev->netdev), "%s", netdev ? netdev : "");
	snprintf(ev->counter, sizeof(ev->counter), "%s", name);
	mlx_ev_set(ev, MLX_EVF_DELTA, d);
	mlx_ev_set(ev, MLX_EVF_TOTAL, now);
	snprintf(ev->text, sizeof(ev->text), "%s: %" PRIu64 " -> %" PRIu64 " (+%" PRIu64 ")", name,
		 prev, now, d);
	return 1;
}
