/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pure decoder of a devlink parameter (DEVLINK_CMD_PARAM_GET reply, one
 * message per parameter in a dump): include/uapi/linux/devlink.h
 * DEVLINK_ATTR_PARAM {NAME, GENERIC flag, TYPE u8, VALUES_LIST {VALUE
 * {CMODE u8, DATA}}}; net/devlink/param.c devlink_nl_param_value_fill_one()
 * writes DATA by type: u8/u16/u32/u64 as such, a string NUL-terminated, a
 * bool as a flag that is present when true (and absent when false).
 * Types are the kernel's NLA types (include/net/devlink.h, enum
 * devlink_param_type): U8 1, U16 2, U32 3, U64 4, STRING 5, BOOL 6.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>

#include "nl.h"
#include "params.h"

static int value_nest(const struct mlx_nla *v, uint8_t type, struct mlx_devlink_param *out)
{
	size_t off = 0;
	struct mlx_nla a;
	const struct mlx_nla *data = NULL;
	struct mlx_nla d;
	uint8_t cmode = UINT8_MAX;
	int r;

	while ((r = mlx_nla_next(v->data, v->len, &off, &a)) == 1) {
		if (a.type == DEVLINK_ATTR_PARAM_VALUE_CMODE && mlx_nla_u8(&a, &cmode) < 0)
			return -EBADMSG;
		if (a.type == DEVLINK_ATTR_PARAM_VALUE_DATA) {
			d = a;
			data = &d;
		}
	}
	if (r < 0)
		return r;
	if (cmode > DEVLINK_PARAM_CMODE_MAX)
		return -EBADMSG;
	if (out->ncmodes >= MLX_DL_CMODES)
		return -EBADMSG;        /* one value per cmode at most */
	out->val[out->ncmodes].cmode = cmode;
	out->val[out->ncmodes].have = data != NULL;
	if (data) {
		uint8_t u8;
		uint16_t u16;
		uint32_t u32;

		switch (type) {
		case MLX_DL_U8:
			if (mlx_nla_u8(data, &u8) < 0)
				return -EBADMSG;
			out->val[out->ncmodes].u = u8;
			break;
		case MLX_DL_U16:
			if (mlx_nla_u16(data, &u16) < 0)
				return -EBADMSG;
			out->val[out->ncmodes].u = u16;
			break;
		case MLX_DL_U32:
			if (mlx_nla_u32(data, &u32) < 0)
				return -EBADMSG;
			out->val[out->ncmodes].u = u32;
			break;
		case MLX_DL_U64:
			if (mlx_nla_u64(data, &out->val[out->ncmodes].u) < 0)
				return -EBADMSG;
			break;
		case MLX_DL_STRING:
			mlx_nla_str(data, out->val[out->ncmodes].str, sizeof(out->val[0].str));
			break;
		case MLX_DL_BOOL:
			out->val[out->ncmodes].u = 1;
			break;
		default:
			return -EBADMSG;        /* data of a type we cannot read */
		}
	}
	out->ncmodes++;
	return 0;
}

static int param_nest(const struct mlx_nla *p, struct mlx_devlink_param *out)
{
	size_t off = 0, o2 = 0;
	struct mlx_nla a, list = { 0 }, v;
	bool have_list = false;
	int r;

	while ((r = mlx_nla_next(p->data, p->len, &off, &a)) == 1) {
		if (a.type == DEVLINK_ATTR_PARAM_NAME)
			mlx_nla_str(&a, out->name, sizeof(out->name));
		else if (a.type == DEVLINK_ATTR_PARAM_GENERIC)
			out->generic = true;
		else if (a.type == DEVLINK_ATTR_PARAM_TYPE && mlx_nla_u8(&a, &out->type) < 0)
			return -EBADMSG;
		else if (a.type == DEVLINK_ATTR_PARAM_VALUES_LIST) {
			list = a;
			have_list = true;
		}
	}
	if (r < 0)
		return r;
	/* the type first: the values are read by it, wherever it stood */
	while (have_list && (r = mlx_nla_next(list.data, list.len, &o2, &v)) == 1) {
		if (v.type != DEVLINK_ATTR_PARAM_VALUE)
			continue;
		r = value_nest(&v, out->type, out);
		if (r < 0)
			return r;
	}
	if (r < 0)
		return r;
	return out->name[0] ? 0 : -EBADMSG;
}

int mlx_devlink_param_decode(const struct nlmsghdr *h, size_t len, struct mlx_devlink_param *out)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	struct genlmsghdr g;
	bool seen = false;
	int r;

	memset(out, 0, sizeof(*out));
	r = mlx_nlmsg_attrs(h, len, GENL_HDRLEN, &attrs, &alen);
	if (r < 0)
		return r;
	memcpy(&g, (const uint8_t *)h + NLMSG_HDRLEN, sizeof(g));
	if (g.cmd != DEVLINK_CMD_PARAM_GET && g.cmd != DEVLINK_CMD_PARAM_NEW)
		return -ENOMSG;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type == DEVLINK_ATTR_BUS_NAME)
			mlx_nla_str(&a, out->bus, sizeof(out->bus));
		else if (a.type == DEVLINK_ATTR_DEV_NAME)
			mlx_nla_str(&a, out->dev, sizeof(out->dev));
		else if (a.type == DEVLINK_ATTR_PARAM) {
			r = param_nest(&a, out);
			if (r < 0)
				return r;
			seen = true;
		}
	}
	if (r < 0)
		return r;
	return seen ? 0 : -ENODATA;
}

const char *mlx_devlink_cmode_name(uint8_t cmode)
{
	switch (cmode) {
	case DEVLINK_PARAM_CMODE_RUNTIME: return "runtime";
	case DEVLINK_PARAM_CMODE_DRIVERINIT: return "driverinit";
	case DEVLINK_PARAM_CMODE_PERMANENT: return "permanent";
	}
	return "?";
}

const char *mlx_devlink_ptype_name(uint8_t type)
{
	switch (type) {
	case MLX_DL_U8: return "u8";
	case MLX_DL_U16: return "u16";
	case MLX_DL_U32: return "u32";
	case MLX_DL_U64: return "u64";
	case MLX_DL_STRING: return "string";
	case MLX_DL_BOOL: return "bool";
	}
	return "?";
}

const char *mlx_devlink_param_str(const struct mlx_devlink_param *p, unsigned i, char *buf,
				  size_t len)
{
	if (i >= p->ncmodes || !len)
		return NULL;
	if (p->type == MLX_DL_BOOL)
		snprintf(buf, len, "%s", p->val[i].have ? "true" : "false");
	else if (!p->val[i].have)
		return NULL;
	else if (p->type == MLX_DL_STRING)
		snprintf(buf, len, "%s", p->val[i].str);
	else
		snprintf(buf, len, "%" PRIu64, p->val[i].u);
	return buf;
}
