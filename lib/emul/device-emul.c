/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What only the device itself does: a devlink reload (DEVLINK_CMD_RELOAD,
 * devlink_nl_reload_doit), a health reporter's dump taken or cleared
 * (DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET makes the driver take one;
 * DUMP_CLEAR forgets it; net/devlink/health.c), a reporter's recovery
 * (RECOVER), a firmware flash (DEVLINK_CMD_FLASH_UPDATE).  A captured system has no
 * device behind its files: such a request is refused the way a kernel
 * refuses an operation its driver lacks, -EOPNOTSUPP with the reason as
 * the extended ack, so the caller's message says what and why.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>

#include "emul.h"

static const char *action(enum mlx_nl_family fam, const void *req, size_t len)
{
	struct genlmsghdr g;

	if (fam != MLX_NL_DEVLINK || len < NLMSG_HDRLEN + GENL_HDRLEN)
		return NULL;
	memcpy(&g, (const uint8_t *)req + NLMSG_HDRLEN, sizeof(g));
	switch (g.cmd) {
	case DEVLINK_CMD_RELOAD:
		return "devlink reload";
	case DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET:
		return "a health dump (DUMP_GET makes one, DUMP_CLEAR forgets it)";
	case DEVLINK_CMD_HEALTH_REPORTER_DUMP_CLEAR:
		return "clearing a health dump";
	case DEVLINK_CMD_HEALTH_REPORTER_RECOVER:
		return "a health reporter's recovery";
	case DEVLINK_CMD_FLASH_UPDATE:
		return "a firmware flash";
	default:
		return NULL;
	}
}

static bool device_takes(enum mlx_nl_family fam, const void *req, size_t len)
{
	return action(fam, req, len) != NULL;
}

static int device_refuse(struct mlx_ctx *ctx, enum mlx_nl_family fam, const void *req,
			 size_t len, mlx_nl_cb cb, void *arg)
{
	char why[256];

	(void)cb;
	(void)arg;
	snprintf(why, sizeof(why), "%s needs the live device: %s is a captured system",
		 action(fam, req, len), mlx_root(ctx));
	mlx_nl_set_extack(ctx, why);
	return mlx_err(ctx, EOPNOTSUPP, "%s", why);
}

const struct mlx_emul mlx_emul_device = {
	.name = "device",
	.nl_takes = device_takes,
	.nl_request = device_refuse,
};
