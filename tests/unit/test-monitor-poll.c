/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `monitor --poll` decides (issue 16), pure: the ethtool -S counters
 * that only count events (a growth between two polls is one event of the
 * counter's kind, the first poll a baseline, a counter that went back a
 * reset and no event).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "monitor.h"

static void test_counter_event(void **state)
{
	struct mlx_event ev;
	size_t n = 0;

	(void)state;
	/* the names are the kernel's (en_stats.c), each of its own kind */
	assert_int_equal(mlx_counter_event_kind("tx_pause_storm_error_events"), MLX_EV_PAUSE_STORM_ERROR);
	assert_int_equal(mlx_counter_event_kind("tx_pause_storm_warning_events"), MLX_EV_PAUSE_STORM_WARNING);
	assert_int_equal(mlx_counter_event_kind("module_bus_stuck"), MLX_EV_MODULE_BUS_STUCK);
	assert_int_equal(mlx_counter_event_kind("link_down_events_phy"), MLX_EV_LINK_DOWN_COUNTED);
	assert_int_equal(mlx_counter_event_kind("outbound_pci_stalled_wr_events"), MLX_EV_PCI_STALLED);
	assert_int_equal(mlx_counter_event_kind("rx_bytes_phy"), MLX_EV_NONE);
	assert_int_equal(mlx_counter_event_kind("tx0_recover"), MLX_EV_NONE);   /* the total only */
	for (const char *name; (name = mlx_counter_event_name(n)) != NULL; n++) {
		enum mlx_ev_kind k = mlx_counter_event_kind(name);

		assert_int_not_equal(k, MLX_EV_NONE);
		assert_int_equal(mlx_ev_kind_info(k)->source, MLX_EVS_MONITOR);
	}
	assert_true(n >= 13);

	/* the first poll is the baseline */
	assert_int_equal(mlx_counter_event("module_unplug", "0000:5e:00.0", "enp94s0f0np0", false, 0, 4, &ev), 0);
	/* no growth, a reset (went back), another counter: no event */
	assert_int_equal(mlx_counter_event("module_unplug", "0000:5e:00.0", "enp94s0f0np0", true, 4, 4, &ev), 0);
	assert_int_equal(mlx_counter_event("module_unplug", "0000:5e:00.0", "enp94s0f0np0", true, 4, 1, &ev), 0);
	assert_int_equal(mlx_counter_event("rx_bytes_phy", "0000:5e:00.0", "enp94s0f0np0", true, 4, 9, &ev), 0);
	/* a growth: its kind, the counter, the delta and the total */
	assert_int_equal(mlx_counter_event("tx_pause_storm_error_events", "0000:5e:00.0", "enp94s0f0np0",
					   true, 2, 5, &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_PAUSE_STORM_ERROR);
	assert_int_equal(ev.source, MLX_EVS_MONITOR);
	assert_int_equal(ev.severity, mlx_ev_kind_info(MLX_EV_PAUSE_STORM_ERROR)->severity);
	assert_string_equal(ev.counter, "tx_pause_storm_error_events");
	assert_string_equal(ev.pci_address, "0000:5e:00.0");
	assert_string_equal(ev.netdev, "enp94s0f0np0");
	assert_true(mlx_ev_has(&ev, MLX_EVF_DELTA) && mlx_ev_has(&ev, MLX_EVF_TOTAL));
	assert_int_equal(ev.v[MLX_EVF_DELTA], 3);
	assert_int_equal(ev.v[MLX_EVF_TOTAL], 5);
	assert_string_equal(ev.text, "tx_pause_storm_error_events: 2 -> 5 (+3)");
	/* a 64-bit counter near its top still counts */
	assert_int_equal(mlx_counter_event("link_down_events_phy", "0000:5e:00.0", "", true,
					   UINT64_MAX - 1, UINT64_MAX, &ev), 1);
	assert_int_equal(ev.v[MLX_EVF_DELTA], 1);
	assert_string_equal(mlx_ev_kind_info(ev.kind)->dump ? mlx_dump_type_info(mlx_ev_kind_info(ev.kind)->dump)->name : "",
			    "PORT_STATE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_event),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
