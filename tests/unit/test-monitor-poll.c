/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `monitor --poll` decides (issue 16), pure: the ethtool -S counters
 * that only count events (a growth between two polls is one event of the
 * counter's kind, the first poll a baseline, a counter that went back a
 * reset and no event), and the VF monitor's thresholds (--vf-thresholds:
 * the SPEC, and an event when a function's vnic counter grows by more than
 * its threshold in one period); and a module's lane flags (issue 25: a
 * flag that turns on or off between two polls is one event, the first
 * read of a module a baseline).
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

static void test_vf_thresholds_parse(void **state)
{
	struct mlx_vf_thresholds t;
	char err[512];
	uint64_t max;

	(void)state;
	/* one number for every counter */
	assert_int_equal(mlx_vf_thresholds_parse("100", &t, err, sizeof(err)), 0);
	assert_true(mlx_vf_threshold_of(&t, "quota_exceeded_command", &max));
	assert_int_equal(max, 100);
	assert_true(mlx_vf_threshold_of(&t, "a_counter_of_a_later_kernel", &max));
	/* names: only those; a number with names is the others' */
	assert_int_equal(mlx_vf_thresholds_parse("quota_exceeded_command=0,invalid_command=10", &t, err,
						 sizeof(err)), 0);
	assert_true(mlx_vf_threshold_of(&t, "quota_exceeded_command", &max));
	assert_int_equal(max, 0);
	assert_true(mlx_vf_threshold_of(&t, "invalid_command", &max));
	assert_int_equal(max, 10);
	assert_false(mlx_vf_threshold_of(&t, "cq_overrun", &max));
	assert_int_equal(mlx_vf_thresholds_parse("5,cq_overrun=1", &t, err, sizeof(err)), 0);
	assert_true(mlx_vf_threshold_of(&t, "cq_overrun", &max));
	assert_int_equal(max, 1);
	assert_true(mlx_vf_threshold_of(&t, "invalid_command", &max));
	assert_int_equal(max, 5);
	/* bad: empty, an empty item, no counter name (the reporter's names
	 * are [a-z0-9_]), no number, a negative or too large one, twice the
	 * same, two defaults */
	const char *bad[] = { "", ",", "1,", "No-such=1", "cq_overrun=", "cq_overrun=x", "-1",
			      "cq_overrun=-1", "18446744073709551616", "cq_overrun=1,cq_overrun=2",
			      "1,2", "=3", "cq_overrun" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(mlx_vf_thresholds_parse(bad[i], &t, err, sizeof(err)), -EINVAL);
		assert_true(err[0] != '\0');
	}
	assert_int_equal(mlx_vf_thresholds_parse("cq overrun=1", &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "quota_exceeded_command"));     /* says which names there are */
	/* a counter this file does not know is a later kernel's (6.18's
	 * bar_uar_access was one): taken, checked against the reporters when
	 * the monitor reads them (issue 25 item 13) */
	assert_int_equal(mlx_vf_thresholds_parse("a_later_counter=3,bar_uar_access=1000", &t, err, sizeof(err)), 0);
	assert_true(mlx_vf_threshold_of(&t, "a_later_counter", &max));
	assert_int_equal(max, 3);
	assert_false(mlx_vf_threshold_of(&t, "cq_overrun", &max));
	/* the names are reporter_vnic.c's */
	assert_string_equal(mlx_vnic_counter_name(0), "total_error_queues");
}

static void test_vf_threshold_check(void **state)
{
	struct mlx_vf_thresholds t;
	struct mlx_event ev;
	char err[512];

	(void)state;
	assert_int_equal(mlx_vf_thresholds_parse("quota_exceeded_command=10", &t, err, sizeof(err)), 0);
	/* the baseline, a growth of the threshold itself, a counter not
	 * watched, a reset: no event */
	assert_int_equal(mlx_vf_threshold_check(&t, "quota_exceeded_command", "0000:5e:00.2", -1, false, 0, 500,
						&ev), 0);
	assert_int_equal(mlx_vf_threshold_check(&t, "quota_exceeded_command", "0000:5e:00.2", -1, true, 500, 510,
						&ev), 0);
	assert_int_equal(mlx_vf_threshold_check(&t, "invalid_command", "0000:5e:00.2", -1, true, 0, 900, &ev), 0);
	assert_int_equal(mlx_vf_threshold_check(&t, "quota_exceeded_command", "0000:5e:00.2", -1, true, 510, 3,
						&ev), 0);
	/* more than the threshold: the event */
	assert_int_equal(mlx_vf_threshold_check(&t, "quota_exceeded_command", "0000:5e:00.2", -1, true, 510, 521,
						&ev), 1);
	assert_int_equal(ev.kind, MLX_EV_VF_RESOURCE_THRESHOLD);
	assert_int_equal(ev.source, MLX_EVS_MONITOR);
	assert_string_equal(ev.pci_address, "0000:5e:00.2");
	assert_string_equal(ev.reporter, "vnic");
	assert_string_equal(ev.counter, "quota_exceeded_command");
	assert_int_equal(ev.v[MLX_EVF_DELTA], 11);
	assert_int_equal(ev.v[MLX_EVF_TOTAL], 521);
	assert_string_equal(ev.detail, "");
	assert_string_equal(ev.text, "quota_exceeded_command grew by 11 in one period (threshold 10): 510 -> 521");
	/* a 32-bit firmware counter that wrapped is still a growth */
	assert_int_equal(mlx_vf_threshold_check(&t, "quota_exceeded_command", "0000:5e:00.0", 65537, true,
						4294967290u, 20, &ev), 1);
	assert_int_equal(ev.v[MLX_EVF_DELTA], 26);
	assert_string_equal(ev.detail, "port 65537");   /* a representor's reporter */
	/* threshold 0: any growth */
	assert_int_equal(mlx_vf_thresholds_parse("0", &t, err, sizeof(err)), 0);
	assert_int_equal(mlx_vf_threshold_check(&t, "cq_overrun", "0000:5e:00.2", -1, true, 7, 8, &ev), 1);
}

struct seen {
	size_t n;
	struct mlx_event ev[8];
};

static int collect(void *arg, struct mlx_event *ev)
{
	struct seen *s = arg;

	if (s->n < 8)
		s->ev[s->n] = *ev;
	s->n++;
	return 0;
}

static int stop(void *arg, struct mlx_event *ev)
{
	(void)ev;
	++*(int *)arg;
	return 7;
}

static void four_lanes(struct mlx_mod_info *mi, int8_t rx_los)
{
	memset(mi, 0, sizeof(*mi));
	mi->nlanes = 4;
	for (unsigned i = 0; i < MLX_MOD_MAX_LANES; i++)
		for (int f = 0; f < MLX_MOD_NFLAGS; f++)
			mi->lane[i].flag[f] = f == MLX_MOD_TX_FAULT ? -1 : rx_los && f == MLX_MOD_RX_LOS;
}

static void test_mod_flag_events(void **state)
{
	static struct mlx_mod_info mi;
	struct mlx_modflags_prev prev;
	struct seen s = { 0 };
	int calls = 0;

	(void)state;
	memset(&prev, 0, sizeof(prev));
	/* the first read is the baseline: Rx LOS raised on every lane, no event */
	four_lanes(&mi, 1);
	assert_int_equal(mlx_mod_flag_events(&prev, &mi, "0000:5e:00.0", "enp94s0f0np0", collect, &s), 0);
	assert_int_equal(s.n, 0);
	assert_true(prev.have);
	/* lane 2's clears: one info event */
	mi.lane[1].flag[MLX_MOD_RX_LOS] = 0;
	mlx_mod_flag_events(&prev, &mi, "0000:5e:00.0", "enp94s0f0np0", collect, &s);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.ev[0].kind, MLX_EV_MODULE_LANE_FLAG_CLEARED);
	assert_int_equal(s.ev[0].severity, MLX_EVSEV_INFO);
	assert_int_equal(s.ev[0].source, MLX_EVS_MONITOR);
	assert_string_equal(s.ev[0].counter, "rx_los");
	assert_string_equal(s.ev[0].pci_address, "0000:5e:00.0");
	assert_string_equal(s.ev[0].netdev, "enp94s0f0np0");
	assert_true(mlx_ev_has(&s.ev[0], MLX_EVF_LANE));
	assert_int_equal(s.ev[0].v[MLX_EVF_LANE], 2);
	assert_string_equal(mlx_ev_field_key(MLX_EVF_LANE), "lane_number");
	assert_string_equal(s.ev[0].text, "module lane 2: Rx loss of signal cleared");
	/* the same again: no event */
	mlx_mod_flag_events(&prev, &mi, "0000:5e:00.0", "enp94s0f0np0", collect, &s);
	assert_int_equal(s.n, 1);
	/* Tx LOL of lane 4 and Rx LOS of lane 2 raised: two errors, lane order */
	mi.lane[3].flag[MLX_MOD_TX_LOL] = 1;
	mi.lane[1].flag[MLX_MOD_RX_LOS] = 1;
	mlx_mod_flag_events(&prev, &mi, "0000:5e:00.0", "enp94s0f0np0", collect, &s);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.ev[1].kind, MLX_EV_MODULE_LANE_FLAG);
	assert_int_equal(s.ev[1].severity, MLX_EVSEV_ERROR);
	assert_int_equal(s.ev[1].v[MLX_EVF_LANE], 2);
	assert_string_equal(s.ev[2].counter, "tx_lol");
	assert_int_equal(s.ev[2].v[MLX_EVF_LANE], 4);
	assert_string_equal(s.ev[2].detail, "Tx loss of lock");
	/* a flag unknown this time (a page not read) is no transition */
	mi.lane[3].flag[MLX_MOD_TX_LOL] = -1;
	mlx_mod_flag_events(&prev, &mi, "0000:5e:00.0", "enp94s0f0np0", collect, &s);
	mi.lane[3].flag[MLX_MOD_TX_LOL] = 1;
	mlx_mod_flag_events(&prev, &mi, "0000:5e:00.0", "enp94s0f0np0", collect, &s);
	assert_int_equal(s.n, 3);
	/* no module: the next read is a baseline */
	mlx_mod_flag_events(&prev, NULL, "0000:5e:00.0", "enp94s0f0np0", collect, &s);
	assert_false(prev.have);
	four_lanes(&mi, 0);
	mlx_mod_flag_events(&prev, &mi, "0000:5e:00.0", "enp94s0f0np0", collect, &s);
	assert_int_equal(s.n, 3);
	/* another lane count (another module): a baseline too */
	mi.nlanes = 8;
	mi.lane[0].flag[MLX_MOD_RX_LOS] = 1;
	mlx_mod_flag_events(&prev, &mi, "0000:5e:00.0", "enp94s0f0np0", collect, &s);
	assert_int_equal(s.n, 3);
	assert_int_equal(prev.nlanes, 8);
	/* the first non-zero return of the callback ends the walk */
	mi.lane[0].flag[MLX_MOD_RX_LOS] = 0;
	mi.lane[1].flag[MLX_MOD_RX_LOS] = 1;
	assert_int_equal(mlx_mod_flag_events(&prev, &mi, "0000:5e:00.0", "enp94s0f0np0", stop, &calls), 7);
	assert_int_equal(calls, 1);
	/* the catalogue knows both kinds */
	assert_string_equal(mlx_ev_kind_info(MLX_EV_MODULE_LANE_FLAG)->id, "module_lane_flag");
	assert_string_equal(mlx_ev_kind_info(MLX_EV_MODULE_LANE_FLAG_CLEARED)->id, "module_lane_flag_cleared");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_event),
		cmocka_unit_test(test_vf_thresholds_parse),
		cmocka_unit_test(test_vf_threshold_check),
		cmocka_unit_test(test_mod_flag_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
