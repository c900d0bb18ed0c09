/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devlink health notifications (issue 16), pure.  net/devlink/health.c:
 * devlink_recover_notify() multicasts DEVLINK_CMD_HEALTH_REPORTER_RECOVER
 * to group "config" (DEVLINK_GENL_MCGRP_CONFIG_NAME) whenever a reporter's
 * state changes: in devlink_health_report (state error, error count
 * incremented) and after a recovery (state healthy, recover count
 * incremented).  The message carries what HEALTH_REPORTER_GET carries
 * (devlink_nl_health_reporter_fill): DEVLINK_ATTR_BUS_NAME, DEV_NAME,
 * PORT_INDEX for a port reporter, and the nest DEVLINK_ATTR_HEALTH_REPORTER
 * (name, state, err/recover counts, grace period, auto flags, dump time
 * stamps).  The error's message text is not in it: the kernel log line the
 * driver prints next to it has it (mlx5e_health_report: netdev_err).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>

#include "health.h"
#include "monitor.h"
#include "nl.h"

int mlx_devlink_notify_event(const struct nlmsghdr *h, size_t len, struct mlx_event *ev)
{
	const struct genlmsghdr *g;
	const struct mlx_health_reporter *r;
	struct mlx_health hl;
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	char bus[32] = "", dev[64] = "", err[128];
	int rc;

	memset(ev, 0, sizeof(*ev));
	if (len < sizeof(*h) || h->nlmsg_len > len ||
	    mlx_nlmsg_attrs(h, h->nlmsg_len, sizeof(*g), &attrs, &alen) < 0)
		return -EBADMSG;
	g = (const struct genlmsghdr *)(h + 1);
	if (g->cmd != DEVLINK_CMD_HEALTH_REPORTER_RECOVER)
		return 0;
	while ((rc = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type == DEVLINK_ATTR_BUS_NAME)
			mlx_nla_str(&a, bus, sizeof(bus));
		else if (a.type == DEVLINK_ATTR_DEV_NAME)
			mlx_nla_str(&a, dev, sizeof(dev));
	}
	if (rc < 0)
		return -EBADMSG;
	memset(&hl, 0, sizeof(hl));
	if (mlx_health_reporter_decode(h, h->nlmsg_len, NULL, NULL, &hl, err, sizeof(err)) < 0 ||
	    hl.n != 1)
		return -EBADMSG;
	r = &hl.r[0];
	if (r->state != 0 && r->state != 1)
		return -EBADMSG;
	ev->source = MLX_EVS_DEVLINK;
	ev->kind = r->state == 1 ? MLX_EV_HEALTH_REPORTER_ERROR : MLX_EV_HEALTH_REPORTER_HEALTHY;
	ev->severity = mlx_ev_kind_info(ev->kind)->severity;
	snprintf(ev->reporter, sizeof(ev->reporter), "%s", r->name);
	if (!strcmp(bus, "pci"))
		snprintf(ev->pci_address, sizeof(ev->pci_address), "%s", dev);
	mlx_ev_set(ev, MLX_EVF_ERR_COUNT, r->err_count);
	mlx_ev_set(ev, MLX_EVF_RECOVER_COUNT, r->recover_count);
	snprintf(ev->text, sizeof(ev->text), "%s/%s: reporter %s %s (errors %llu, recoveries %llu)",
		 bus, dev, r->name, r->state == 1 ? "error" : "healthy",
		 (unsigned long long)r->err_count, (unsigned long long)r->recover_count);
	return 1;
}
