/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devlink replies and requests, pure: DEVLINK_CMD_INFO_GET (`devlink dev
 * info`) and DEVLINK_CMD_ESWITCH_GET/SET.  Layout: struct genlmsghdr then
 * attributes (include/uapi/linux/devlink.h, net/devlink/dev.c
 * devlink_nl_info_fill: each version is a nest of INFO_VERSION_NAME and
 * INFO_VERSION_VALUE under INFO_VERSION_FIXED/RUNNING/STORED).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>

#include "devlink.h"
#include "nl.h"
#include "sriov.h"

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EBADMSG;
}

static int genl_attrs(const struct nlmsghdr *h, size_t len, const uint8_t **attrs, size_t *alen,
		      uint8_t *cmd, char *err, size_t errlen)
{
	if (len < NLMSG_HDRLEN)
		return bad(err, errlen, "message of %zu bytes is shorter than a netlink header", len);
	if (h->nlmsg_type < NLMSG_MIN_TYPE)
		return bad(err, errlen, "message type %u is a control message", h->nlmsg_type);
	if (mlx_genlmsg_attrs(h, len, cmd, attrs, alen) < 0)
		return bad(err, errlen, "devlink message of %u bytes is truncated (buffer %zu)",
			   h->nlmsg_len, len);
	return 0;
}

static int decode_version(const struct mlx_nla *nest, struct mlx_devlink_version *v,
			  size_t *n, char *err, size_t errlen)
{
	struct mlx_devlink_version one;
	struct mlx_nla a;
	size_t off = 0;
	int r;

	memset(&one, 0, sizeof(one));

	while ((r = mlx_nla_next(nest->data, nest->len, &off, &a)) == 1) {
		if (a.type == DEVLINK_ATTR_INFO_VERSION_NAME)
			mlx_nla_str(&a, one.name, sizeof(one.name));
		else if (a.type == DEVLINK_ATTR_INFO_VERSION_VALUE)
			mlx_nla_str(&a, one.value, sizeof(one.value));
	}
	if (r < 0)
		return bad(err, errlen, "truncated attribute in a devlink version nest");
	if (!one.name[0])
		return bad(err, errlen, "devlink version without a name");
	if (*n < MLX_DEVLINK_MAX_VERSIONS)
		v[(*n)++] = one;
	return 0;
}

int mlx_devlink_info_decode(const struct nlmsghdr *h, size_t len, struct mlx_devlink_info *out,
			    char *err, size_t errlen)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	uint8_t cmd;
	int r;

	memset(out, 0, sizeof(*out));
	if (genl_attrs(h, len, &attrs, &alen, &cmd, err, errlen) < 0)
		return -EBADMSG;
	if (cmd != DEVLINK_CMD_INFO_GET)
		return bad(err, errlen, "devlink command %u is not INFO_GET", cmd);
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		switch (a.type) {
		case DEVLINK_ATTR_BUS_NAME:
			mlx_nla_str(&a, out->bus, sizeof(out->bus));
			break;
		case DEVLINK_ATTR_DEV_NAME:
			mlx_nla_str(&a, out->dev, sizeof(out->dev));
			break;
		case DEVLINK_ATTR_INFO_DRIVER_NAME:
			mlx_nla_str(&a, out->driver, sizeof(out->driver));
			break;
		case DEVLINK_ATTR_INFO_SERIAL_NUMBER:
			mlx_nla_str(&a, out->serial, sizeof(out->serial));
			break;
		case DEVLINK_ATTR_INFO_BOARD_SERIAL_NUMBER:
			mlx_nla_str(&a, out->board_serial, sizeof(out->board_serial));
			break;
		case DEVLINK_ATTR_INFO_VERSION_FIXED:
			r = decode_version(&a, out->fixed, &out->nfixed, err, errlen);
			break;
		case DEVLINK_ATTR_INFO_VERSION_RUNNING:
			r = decode_version(&a, out->running, &out->nrunning, err, errlen);
			break;
		case DEVLINK_ATTR_INFO_VERSION_STORED:
			r = decode_version(&a, out->stored, &out->nstored, err, errlen);
			break;
		default:
			break;
		}
		if (r < 0)
			return r;
	}
	if (r < 0)
		return bad(err, errlen, "truncated attribute in the devlink info reply");
	return 0;
}

const char *mlx_devlink_version(const struct mlx_devlink_version *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return v[i].value;
	return NULL;
}

int mlx_devlink_eswitch_decode(const struct nlmsghdr *h, size_t len, struct mlx_eswitch *out)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	uint8_t cmd, u8;
	uint16_t u16;
	int r;

	out->mode = out->inline_mode = out->encap_mode = -1;
	if (genl_attrs(h, len, &attrs, &alen, &cmd, NULL, 0) < 0)
		return -EBADMSG;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type == DEVLINK_ATTR_ESWITCH_MODE && mlx_nla_u16(&a, &u16) == 0)
			out->mode = u16;
		else if (a.type == DEVLINK_ATTR_ESWITCH_INLINE_MODE && mlx_nla_u8(&a, &u8) == 0)
			out->inline_mode = u8;
		else if (a.type == DEVLINK_ATTR_ESWITCH_ENCAP_MODE && mlx_nla_u8(&a, &u8) == 0)
			out->encap_mode = u8;
	}
	return r < 0 ? -EBADMSG : 0;
}

int mlx_devlink_build(void *buf, size_t cap, uint8_t cmd, const char *bus, const char *dev,
		      int eswitch_mode)
{
	struct genlmsghdr g = { .cmd = cmd, .version = DEVLINK_GENL_VERSION };
	struct mlx_nlbuf b;

	mlx_nlb_init(&b, buf, cap);
	mlx_nlb_msg(&b, 0, cmd == DEVLINK_CMD_ESWITCH_SET ? NLM_F_ACK : 0);
	mlx_nlb_put(&b, &g, sizeof(g));
	mlx_nlb_str(&b, DEVLINK_ATTR_BUS_NAME, bus);
	mlx_nlb_str(&b, DEVLINK_ATTR_DEV_NAME, dev);
	if (cmd == DEVLINK_CMD_ESWITCH_SET && eswitch_mode >= 0)
		mlx_nlb_u16(&b, DEVLINK_ATTR_ESWITCH_MODE, (uint16_t)eswitch_mode);
	return mlx_nlb_finish(&b);
}

const char *mlx_eswitch_mode_str(int mode)
{
	switch (mode) {
	case DEVLINK_ESWITCH_MODE_LEGACY: return "legacy";
	case DEVLINK_ESWITCH_MODE_SWITCHDEV: return "switchdev";
	default: return NULL;
	}
}
