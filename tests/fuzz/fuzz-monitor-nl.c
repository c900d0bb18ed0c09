/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the monitor's netlink decoders: the bytes are one
 * message, decoded as an rtnetlink link notification (twice, against a
 * small state table, so the change logic runs), as a devlink health
 * notification, a DCB notification and an ethtool settings notification.
 */
#include <errno.h>

#include "monitor.h"
#include "fuzz-util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = fuzz_copy(data, size);
	struct mlx_link_state st[2];
	struct mlx_event ev[4];
	int r;

	if (!copy)
		return 0;
	memset(st, 0, sizeof(st));
	for (int i = 0; i < 2; i++) {
		r = mlx_rtnl_link_events((const struct nlmsghdr *)copy, size, st, 2, ev, 4);
		if (r > 4 || (r < 0 && r != -EBADMSG))
			abort();
	}
	r = mlx_devlink_notify_event((const struct nlmsghdr *)copy, size, ev);
	if (r > 1 || (r == 1 && !mlx_ev_kind_info(ev[0].kind)))
		abort();
	r = mlx_dcb_notify_event((const struct nlmsghdr *)copy, size, ev);
	if (r > 1 || (r < 0 && r != -EBADMSG && r != -ENOMEM) || (r == 1 && ev[0].kind != MLX_EV_QOS_CHANGED))
		abort();
	r = mlx_ethtool_notify_event((const struct nlmsghdr *)copy, size, ev);
	if (r > 1 || (r < 0 && r != -EBADMSG) ||
	    (r == 1 && (mlx_ev_kind_info(ev[0].kind)->source != MLX_EVS_ETHTOOL || !ev[0].netdev[0])))
		abort();
	free(copy);
	return 0;
}
