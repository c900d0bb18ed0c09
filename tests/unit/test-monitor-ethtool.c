/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ethtool netlink notifications (issue 16, the "monitor" multicast group),
 * pure: messages built from the uapi as net/ethtool/netlink.c
 * ethnl_default_notify sends them (the genl command the NTF message type,
 * the ETHTOOL_A_*_HEADER nest with the device's index and name, then the
 * attributes of the GET reply) become one event of the setting's kind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <cmocka.h>

#include "monitor.h"
#include "nl-writer.h"

/* an ETHTOOL_MSG_*_NTF of veth0 (ifindex 7); the caller adds attributes */
static void ntf_begin(struct w *w, uint8_t cmd)
{
	struct nlmsghdr h = { .nlmsg_type = 0x15 };    /* the family id the kernel gave ethtool */
	struct genlmsghdr g = { .cmd = cmd, .version = ETHTOOL_GENL_VERSION };
	uint32_t ifindex = 7;
	size_t nest;

	w->n = NLMSG_LENGTH(sizeof(g));
	memcpy(w->b, &h, sizeof(h));
	memcpy(w->b + NLMSG_HDRLEN, &g, sizeof(g));
	nest = attr(w, 1 | NLA_F_NESTED, NULL, 0);      /* ETHTOOL_A_*_HEADER is 1 in every message */
	attr(w, ETHTOOL_A_HEADER_DEV_INDEX, &ifindex, 4);
	attr(w, ETHTOOL_A_HEADER_DEV_NAME, "veth0", 6);
	nest_end(w, nest);
}

static size_t ntf_end(struct w *w)
{
	((struct nlmsghdr *)w->b)->nlmsg_len = (uint32_t)w->n;
	return w->n;
}

static void test_pause(void **state)
{
	static struct w w;
	struct mlx_event ev;
	uint8_t off = 0, on = 1;
	size_t n;

	(void)state;
	ntf_begin(&w, ETHTOOL_MSG_PAUSE_NTF);
	attr(&w, ETHTOOL_A_PAUSE_AUTONEG, &off, 1);
	attr(&w, ETHTOOL_A_PAUSE_RX, &on, 1);
	attr(&w, ETHTOOL_A_PAUSE_TX, &off, 1);
	n = ntf_end(&w);
	assert_int_equal(mlx_ethtool_notify_event((void *)w.b, n, &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_PAUSE_CHANGED);
	assert_int_equal(ev.source, MLX_EVS_ETHTOOL);
	assert_string_equal(mlx_ev_source_str(ev.source), "ethtool");
	assert_string_equal(ev.netdev, "veth0");
	assert_true(mlx_ev_has(&ev, MLX_EVF_IFINDEX));
	assert_int_equal(ev.v[MLX_EVF_IFINDEX], 7);
	assert_string_equal(ev.detail, "ETHTOOL_MSG_PAUSE_NTF");
	assert_string_equal(ev.text, "veth0: pause settings changed: autoneg off, rx on, tx off");
}

static void test_kinds(void **state)
{
	static struct w w;
	struct mlx_event ev;
	uint32_t rx = 512, tx = 1024, combined = 8;
	size_t n;

	(void)state;
	ntf_begin(&w, ETHTOOL_MSG_RINGS_NTF);
	attr(&w, ETHTOOL_A_RINGS_RX, &rx, 4);
	attr(&w, ETHTOOL_A_RINGS_TX, &tx, 4);
	n = ntf_end(&w);
	assert_int_equal(mlx_ethtool_notify_event((void *)w.b, n, &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_RINGS_CHANGED);
	assert_string_equal(ev.text, "veth0: ring sizes changed: rx 512, tx 1024");
	ntf_begin(&w, ETHTOOL_MSG_CHANNELS_NTF);
	attr(&w, ETHTOOL_A_CHANNELS_COMBINED_COUNT, &combined, 4);
	n = ntf_end(&w);
	assert_int_equal(mlx_ethtool_notify_event((void *)w.b, n, &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_CHANNELS_CHANGED);
	assert_string_equal(ev.text, "veth0: channels changed: combined 8");
	/* a kind whose content is not decoded says what changed */
	ntf_begin(&w, ETHTOOL_MSG_FEATURES_NTF);
	n = ntf_end(&w);
	assert_int_equal(mlx_ethtool_notify_event((void *)w.b, n, &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_FEATURES_CHANGED);
	assert_string_equal(ev.detail, "ETHTOOL_MSG_FEATURES_NTF");
	assert_string_equal(ev.text, "veth0: features changed");
	const struct { uint8_t cmd; enum mlx_ev_kind kind; } all[] = {
		{ ETHTOOL_MSG_LINKINFO_NTF, MLX_EV_LINK_INFO_CHANGED },
		{ ETHTOOL_MSG_LINKMODES_NTF, MLX_EV_LINK_MODES_CHANGED },
		{ ETHTOOL_MSG_DEBUG_NTF, MLX_EV_MSGLEVEL_CHANGED },
		{ ETHTOOL_MSG_WOL_NTF, MLX_EV_WOL_CHANGED },
		{ ETHTOOL_MSG_PRIVFLAGS_NTF, MLX_EV_PRIVFLAGS_CHANGED },
		{ ETHTOOL_MSG_COALESCE_NTF, MLX_EV_COALESCE_CHANGED },
		{ ETHTOOL_MSG_EEE_NTF, MLX_EV_EEE_CHANGED },
		{ ETHTOOL_MSG_FEC_NTF, MLX_EV_FEC_CHANGED },
		{ ETHTOOL_MSG_MODULE_NTF, MLX_EV_MODULE_POWER_CHANGED },
	};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		ntf_begin(&w, all[i].cmd);
		n = ntf_end(&w);
		assert_int_equal(mlx_ethtool_notify_event((void *)w.b, n, &ev), 1);
		assert_int_equal(ev.kind, all[i].kind);
		assert_int_equal(mlx_ev_kind_info(ev.kind)->source, MLX_EVS_ETHTOOL);
	}
	/* a GET reply or a cable test result: no change, no event */
	ntf_begin(&w, ETHTOOL_MSG_PAUSE_GET_REPLY);
	n = ntf_end(&w);
	assert_int_equal(mlx_ethtool_notify_event((void *)w.b, n, &ev), 0);
	ntf_begin(&w, ETHTOOL_MSG_CABLE_TEST_NTF);
	n = ntf_end(&w);
	assert_int_equal(mlx_ethtool_notify_event((void *)w.b, n, &ev), 0);
	/* malformed: short, an attribute past the end, no header */
	ntf_begin(&w, ETHTOOL_MSG_PAUSE_NTF);
	n = ntf_end(&w);
	assert_int_equal(mlx_ethtool_notify_event((void *)w.b, 10, &ev), -EBADMSG);
	((struct nlmsghdr *)w.b)->nlmsg_len = (uint32_t)n + 8;
	assert_int_equal(mlx_ethtool_notify_event((void *)w.b, n, &ev), -EBADMSG);
	w.n = NLMSG_LENGTH(sizeof(struct genlmsghdr));
	n = ntf_end(&w);
	assert_int_equal(mlx_ethtool_notify_event((void *)w.b, n, &ev), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pause),
		cmocka_unit_test(test_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
