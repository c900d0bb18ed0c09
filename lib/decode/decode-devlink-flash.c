/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The firmware life cycle's decoders and requests (lib/fw.h), pure:
 *  - the image file: MFA2 (drivers/net/ethernet/mellanox/mlxfw/
 *    mlxfw_mfa2*.{c,h}: the fingerprint, TLVs of a version byte, a type
 *    byte and a big-endian length, padded to 4; multi-part TLVs whose
 *    children follow their 4-byte header; the package descriptor, one
 *    device descriptor per PSID, one component descriptor per
 *    component), checked as mlxfw_mfa2_file_init() checks it; the raw
 *    FS3/FS4 images flint burns, by their magic patterns (mstflint
 *    fw_ops.cpp _cntx_magic_pattern, _fs4_magic_pattern, at the image
 *    start positions _cntx_image_start_pos);
 *  - DEVLINK_CMD_FLASH_UPDATE / _STATUS / _END notifications
 *    (net/devlink devlink_nl_flash_update_fill);
 *  - the reload capabilities in DEVLINK_CMD_GET's DEV_STATS
 *    (devlink_reload_stats_put) and a RELOAD reply's ACTIONS_PERFORMED
 *    (devlink_nl_reload_actions_performed_snd).
 * Nothing here reads past the buffer it is given.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>

#include "fw.h"
#include "nl.h"

/* ---- the image ---- */

#define MFA2_FP "MLNX.MFA2.XZ.00!"
#define MFA2_FP_LEN 16
enum { TLV_MULTI = 0x01, TLV_PACKAGE = 0x02, TLV_COMP_DESC = 0x04, TLV_COMP_PTR = 0x22,
       TLV_PSID = 0x2a };
#define PACKAGE_LEN 28           /* struct mlxfw_mfa2_tlv_package_descriptor */
#define COMP_DESC_LEN 16         /* struct mlxfw_mfa2_tlv_component_descriptor */
#define COMP_PTR_LEN 8           /* struct mlxfw_mfa2_tlv_component_ptr */
#define MULTI_LEN 4              /* struct mlxfw_mfa2_tlv_multi */
#define ALIGN4(x) (((x) + 3u) & ~(size_t)3u)

const char *mlx_fw_image_kind_name(enum mlx_fw_image_kind k)
{
	switch (k) {
	case MLX_FW_IMAGE_MFA2: return "mfa2";
	case MLX_FW_IMAGE_FS3: return "fs3";
	case MLX_FW_IMAGE_FS4: return "fs4";
	default: return "unknown";
	}
}

struct mfa2 {
	const uint8_t *b;
	size_t len;
};

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* mlxfw_mfa2_valid_ptr: strictly inside the file, never its first byte */
static bool valid(const struct mfa2 *m, size_t off)
{
	return off > 0 && off < m->len;
}

/* mlxfw_mfa2_tlv_get: a TLV header at @off (and a byte after it) */
static bool tlv_ok(const struct mfa2 *m, size_t off)
{
	return valid(m, off) && off <= m->len - 4 && valid(m, off + 4);
}

static uint8_t tlv_type(const struct mfa2 *m, size_t off)
{
	return m->b[off + 1];
}

static size_t tlv_len(const struct mfa2 *m, size_t off)
{
	return be16(m->b + off + 2);
}

/* mlxfw_mfa2_tlv_payload_get: the payload of a TLV of @type and @size
 * (at least @size when @varsize), whose last byte the kernel finds at the
 * TLV's own offset plus its length minus 1 (its check, kept as it is) */
static bool payload(const struct mfa2 *m, size_t off, uint8_t type, size_t size, bool varsize)
{
	size_t l = tlv_len(m, off);

	if (!valid(m, off) || !l || !valid(m, off + l - 1) || off + 4 + l > m->len)
		return false;
	if (tlv_type(m, off) != type)
		return false;
	return varsize ? l >= size : l == size;
}

/* mlxfw_mfa2_tlv_next: the TLV after the one at @off (0: none) */
static size_t tlv_next(const struct mfa2 *m, size_t off)
{
	size_t step = ALIGN4(4 + tlv_len(m, off));

	if (tlv_type(m, off) == TLV_MULTI) {
		if (!payload(m, off, TLV_MULTI, MULTI_LEN, false))
			return 0;
		step = ALIGN4(step + be16(m->b + off + 4 + 2));
	}
	if (off + step < off || !tlv_ok(m, off + step))
		return 0;
	return off + step;
}

/* mlxfw_mfa2_tlv_multi_child: the first child of the multi at @off */
static size_t multi_child(const struct mfa2 *m, size_t off, size_t *n)
{
	if (!payload(m, off, TLV_MULTI, MULTI_LEN, false))
		return 0;
	*n = (size_t)be16(m->b + off + 4) + 1;     /* num_extensions + 1 */
	return tlv_ok(m, off + 4 + MULTI_LEN) ? off + 4 + MULTI_LEN : 0;
}

/* The children of the multi at @off: each a valid TLV (the kernel's
 * mlxfw_mfa2_tlv_multi_validate); their offsets in @kids (up to @max). */
static int children(const struct mfa2 *m, size_t off, size_t *kids, size_t max, size_t *n)
{
	size_t c, k = 0;

	c = multi_child(m, off, n);
	if (!c)
		return -EBADMSG;
	for (size_t i = 0; i < *n; i++) {
		if (!c)
			return -EBADMSG;
		if (k < max)
			kids[k++] = c;
		c = i + 1 < *n ? tlv_next(m, c) : c;
	}
	if (*n > max)
		*n = max;
	return 0;
}

static int bad(char *why, size_t len, const char *text)
{
	if (why && len)
		snprintf(why, len, "%s", text);
	return -EBADMSG;
}

#define MAX_KIDS 64

static int mfa2_device(const struct mfa2 *m, size_t off, struct mlx_fw_image *out, char *why,
		       size_t whylen)
{
	size_t kids[MAX_KIDS], n, psid = 0, ptrs = 0;

	if (children(m, off, kids, MAX_KIDS, &n) < 0)
		return bad(why, whylen, "an MFA2 device descriptor is not a valid multi-part TLV");
	for (size_t i = 0; i < n; i++) {
		if (tlv_type(m, kids[i]) == TLV_PSID && !psid)
			psid = kids[i];
		else if (tlv_type(m, kids[i]) == TLV_COMP_PTR) {
			if (!payload(m, kids[i], TLV_COMP_PTR, COMP_PTR_LEN, false))
				return bad(why, whylen, "an MFA2 component pointer is malformed");
			ptrs++;
		}
	}
	if (!psid || !payload(m, psid, TLV_PSID, 0, true))
		return bad(why, whylen, "an MFA2 device descriptor has no valid PSID");
	if (!ptrs)
		return bad(why, whylen, "an MFA2 device descriptor has no components");
	if (out->npsid < MLX_FW_IMAGE_MAX_PSIDS) {
		size_t l = tlv_len(m, psid);

		/* a PSID is at most 16 characters (mlx5's board_id); a longer
		 * one matches no device: kept empty */
		char *p = out->psid[out->npsid++];

		p[0] = '\0';
		if (l <= 16 && !memchr(m->b + psid + 4, '\0', l)) {
			memcpy(p, m->b + psid + 4, l);
			p[l] = '\0';
		}
	}
	return 0;
}

static int mfa2_component(const struct mfa2 *m, size_t off, char *why, size_t whylen)
{
	size_t kids[1], n;

	if (children(m, off, kids, 1, &n) < 0 || !n ||
	    !payload(m, kids[0], TLV_COMP_DESC, COMP_DESC_LEN, false))
		return bad(why, whylen, "an MFA2 component has no valid descriptor");
	return 0;
}

static int mfa2(const uint8_t *buf, size_t len, struct mlx_fw_image *out, char *why, size_t whylen)
{
	struct mfa2 m = { buf, len };
	size_t first = ALIGN4(MFA2_FP_LEN), pd, dev, comp, n, cb, cbsize;
	uint32_t cb_off;

	out->kind = MLX_FW_IMAGE_MFA2;
	if (!tlv_ok(&m, first) || !(pd = multi_child(&m, first, &n)) ||
	    !payload(&m, pd, TLV_PACKAGE, PACKAGE_LEN, false))
		return bad(why, whylen, "the MFA2 package descriptor is missing or malformed");
	out->ncomponents = be16(buf + pd + 4);
	out->ndevices = be16(buf + pd + 4 + 2);
	cb_off = be32(buf + pd + 4 + 4);
	cbsize = be32(buf + pd + 4 + 8);
	cb = ALIGN4((size_t)cb_off);
	if (!valid(&m, cb) || !cbsize || cb + cbsize - 1 < cb || !valid(&m, cb + cbsize - 1))
		return bad(why, whylen, "the MFA2 component block lies outside the file");
	dev = tlv_next(&m, first);
	if (!dev)
		return bad(why, whylen, "the MFA2 file has no valid device descriptor");
	comp = dev;
	for (size_t i = 0; i < out->ndevices; i++) {
		if (!comp)
			return bad(why, whylen, "an MFA2 device descriptor is missing");
		if (mfa2_device(&m, comp, out, why, whylen) < 0)
			return -EBADMSG;
		comp = tlv_next(&m, comp);
	}
	for (size_t i = 0; i < out->ncomponents; i++) {
		if (!comp)
			return bad(why, whylen, "an MFA2 component descriptor is missing");
		if (mfa2_component(&m, comp, why, whylen) < 0)
			return -EBADMSG;
		comp = i + 1 < out->ncomponents ? tlv_next(&m, comp) : comp;
	}
	return 0;
}

int mlx_fw_image_decode(const uint8_t *buf, size_t len, struct mlx_fw_image *out, char *why,
			size_t whylen)
{
	/* big-endian words of the raw images' first 16 bytes */
	static const uint32_t fs3[4] = { 0x4D544657, 0x8CDFD000, 0xDEAD9270, 0x4154BEEF };
	static const uint32_t fs4[4] = { 0x4D544657, 0xABCDEF00, 0xFADE1234, 0x5678DEAD };
	static const uint32_t starts[] = { 0, 0x10000, 0x20000, 0x40000, 0x80000, 0x100000,
					   0x200000, 0x400000, 0x800000, 0x1000000, 0x2000000 };

	memset(out, 0, sizeof(*out));
	if (why && whylen)
		why[0] = '\0';
	/* mlxfw_mfa2_check: the fingerprint, and more than it */
	if (len > MFA2_FP_LEN && !memcmp(buf, MFA2_FP, MFA2_FP_LEN))
		return mfa2(buf, len, out, why, whylen);
	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		size_t at = starts[i];
		bool a = true, b = true;

		if (at > len || len - at < 16)
			break;
		for (int k = 0; k < 4; k++) {
			a &= be32(buf + at + 4 * k) == fs3[k];
			b &= be32(buf + at + 4 * k) == fs4[k];
		}
		if (a || b) {
			out->kind = a ? MLX_FW_IMAGE_FS3 : MLX_FW_IMAGE_FS4;
			out->raw_offset = (uint32_t)at;
			return 0;
		}
	}
	out->kind = MLX_FW_IMAGE_UNKNOWN;
	return 0;
}

bool mlx_fw_image_has_psid(const struct mlx_fw_image *img, const char *psid)
{
	for (size_t i = 0; i < img->npsid; i++)
		if (img->psid[i][0] && !strcmp(img->psid[i], psid))
			return true;
	return false;
}

/* ---- notifications and replies ---- */

int mlx_flash_status_decode(const struct nlmsghdr *h, size_t len, const char *bus,
			    const char *dev, struct mlx_flash_status *out)
{
	const uint8_t *attrs;
	char b[32] = "", d[64] = "";
	size_t alen, off = 0;
	struct mlx_nla a;
	uint8_t cmd;
	int r;

	memset(out, 0, sizeof(*out));
	if (mlx_genlmsg_attrs(h, len, &cmd, &attrs, &alen) < 0)
		return -EBADMSG;
	if (cmd != DEVLINK_CMD_FLASH_UPDATE && cmd != DEVLINK_CMD_FLASH_UPDATE_END &&
	    cmd != DEVLINK_CMD_FLASH_UPDATE_STATUS)
		return 0;
	out->cmd = cmd;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		switch (a.type) {
		case DEVLINK_ATTR_BUS_NAME:
			mlx_nla_str(&a, b, sizeof(b));
			break;
		case DEVLINK_ATTR_DEV_NAME:
			mlx_nla_str(&a, d, sizeof(d));
			break;
		case DEVLINK_ATTR_FLASH_UPDATE_STATUS_MSG:
			mlx_nla_str(&a, out->msg, sizeof(out->msg));
			break;
		case DEVLINK_ATTR_FLASH_UPDATE_COMPONENT:
			mlx_nla_str(&a, out->component, sizeof(out->component));
			break;
		case DEVLINK_ATTR_FLASH_UPDATE_STATUS_DONE:
			if (mlx_nla_u64(&a, &out->done) < 0)
				return -EBADMSG;
			break;
		case DEVLINK_ATTR_FLASH_UPDATE_STATUS_TOTAL:
			if (mlx_nla_u64(&a, &out->total) < 0)
				return -EBADMSG;
			break;
		case DEVLINK_ATTR_FLASH_UPDATE_STATUS_TIMEOUT:
			if (mlx_nla_u64(&a, &out->timeout_s) < 0)
				return -EBADMSG;
			break;
		default:
			break;
		}
	}
	if (r < 0)
		return -EBADMSG;
	/* a count past its total is the driver's business; shown as total */
	if (out->total && out->done > out->total)
		out->done = out->total;
	return (!bus || !strcmp(b, bus)) && (!dev || !strcmp(d, dev)) ? 1 : 0;
}

static int stats_entries(const struct mlx_nla *nest, struct mlx_reload_caps *out, unsigned act)
{
	struct mlx_nla e, f;
	size_t off = 0;
	int r;

	while ((r = mlx_nla_next(nest->data, nest->len, &off, &e)) == 1) {
		size_t o2 = 0;
		uint8_t limit = 0xff;
		uint32_t value = 0;

		if (e.type != DEVLINK_ATTR_RELOAD_STATS_ENTRY)
			continue;
		while ((r = mlx_nla_next(e.data, e.len, &o2, &f)) == 1) {
			if (f.type == DEVLINK_ATTR_RELOAD_STATS_LIMIT && mlx_nla_u8(&f, &limit) < 0)
				return -EBADMSG;
			if (f.type == DEVLINK_ATTR_RELOAD_STATS_VALUE && mlx_nla_u32(&f, &value) < 0)
				return -EBADMSG;
		}
		if (r < 0)
			return -EBADMSG;
		if (limit < 32 && act < 8) {
			out->limits[act] |= 1u << limit;
			if (limit < 4)
				out->count[act][limit] = value;
		}
	}
	return r < 0 ? -EBADMSG : 0;
}

int mlx_devlink_caps_decode(const struct nlmsghdr *h, size_t len, struct mlx_reload_caps *out)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a, s, info, x;
	uint8_t cmd, u8;
	int r;

	memset(out, 0, sizeof(*out));
	if (mlx_genlmsg_attrs(h, len, &cmd, &attrs, &alen) < 0)
		return -EBADMSG;
	if (cmd != DEVLINK_CMD_NEW && cmd != DEVLINK_CMD_GET)
		return -EBADMSG;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		size_t o2 = 0;

		if (a.type == DEVLINK_ATTR_RELOAD_FAILED) {
			if (mlx_nla_u8(&a, &u8) < 0)
				return -EBADMSG;
			out->reload_failed = u8 != 0;
			continue;
		}
		if (a.type != DEVLINK_ATTR_DEV_STATS)
			continue;
		/* the local stats only: the remote ones list every action */
		while ((r = mlx_nla_next(a.data, a.len, &o2, &s)) == 1) {
			size_t o3 = 0;

			if (s.type != DEVLINK_ATTR_RELOAD_STATS)
				continue;
			out->known = true;
			while ((r = mlx_nla_next(s.data, s.len, &o3, &info)) == 1) {
				size_t o4 = 0;
				int act = -1;

				if (info.type != DEVLINK_ATTR_RELOAD_ACTION_INFO)
					continue;
				while ((r = mlx_nla_next(info.data, info.len, &o4, &x)) == 1) {
					if (x.type == DEVLINK_ATTR_RELOAD_ACTION) {
						if (mlx_nla_u8(&x, &u8) < 0)
							return -EBADMSG;
						act = u8;
						if (act < 32)
							out->actions |= 1u << act;
					} else if (x.type == DEVLINK_ATTR_RELOAD_ACTION_STATS && act >= 0) {
						if (stats_entries(&x, out, (unsigned)act) < 0)
							return -EBADMSG;
					}
				}
				if (r < 0)
					return -EBADMSG;
			}
			if (r < 0)
				return -EBADMSG;
		}
		if (r < 0)
			return -EBADMSG;
	}
	return r < 0 ? -EBADMSG : 0;
}

int mlx_reload_reply_decode(const struct nlmsghdr *h, size_t len, uint32_t *performed)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	uint8_t cmd;
	int r;

	*performed = 0;
	if (mlx_genlmsg_attrs(h, len, &cmd, &attrs, &alen) < 0 || cmd != DEVLINK_CMD_RELOAD)
		return -EBADMSG;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1)
		if (a.type == DEVLINK_ATTR_RELOAD_ACTIONS_PERFORMED) {
			uint32_t v[2];

			/* struct nla_bitfield32 { value, selector } */
			if (a.len < sizeof(v))
				return -EBADMSG;
			memcpy(v, a.data, sizeof(v));
			*performed = v[0] & v[1];
		}
	return r < 0 ? -EBADMSG : 0;
}

const char *mlx_reload_action_name(unsigned action)
{
	switch (action) {
	case DEVLINK_RELOAD_ACTION_DRIVER_REINIT: return "driver_reinit";
	case DEVLINK_RELOAD_ACTION_FW_ACTIVATE: return "fw_activate";
	default: return NULL;
	}
}

/* ---- requests ---- */

static void start(struct mlx_nlbuf *b, void *buf, size_t cap, uint8_t cmd, uint16_t flags,
		  const char *bus, const char *dev)
{
	struct genlmsghdr g = { .cmd = cmd, .version = DEVLINK_GENL_VERSION };

	mlx_nlb_init(b, buf, cap);
	mlx_nlb_msg(b, 0, flags);
	mlx_nlb_put(b, &g, sizeof(g));
	mlx_nlb_str(b, DEVLINK_ATTR_BUS_NAME, bus);
	mlx_nlb_str(b, DEVLINK_ATTR_DEV_NAME, dev);
}

int mlx_devlink_get_build(void *buf, size_t cap, const char *bus, const char *dev)
{
	struct mlx_nlbuf b;

	start(&b, buf, cap, DEVLINK_CMD_GET, 0, bus, dev);
	return mlx_nlb_finish(&b);
}

int mlx_flash_build(void *buf, size_t cap, const char *bus, const char *dev, const char *name,
		    const char *component)
{
	struct mlx_nlbuf b;

	if (!name || !*name)
		return -EINVAL;
	start(&b, buf, cap, DEVLINK_CMD_FLASH_UPDATE, NLM_F_ACK, bus, dev);
	mlx_nlb_str(&b, DEVLINK_ATTR_FLASH_UPDATE_FILE_NAME, name);
	if (component)
		mlx_nlb_str(&b, DEVLINK_ATTR_FLASH_UPDATE_COMPONENT, component);
	return mlx_nlb_finish(&b);
}

int mlx_reload_build(void *buf, size_t cap, const char *bus, const char *dev, uint8_t action,
		     uint8_t limit)
{
	struct mlx_nlbuf b;

	start(&b, buf, cap, DEVLINK_CMD_RELOAD, NLM_F_ACK, bus, dev);
	mlx_nlb_u8(&b, DEVLINK_ATTR_RELOAD_ACTION, action);
	if (limit != DEVLINK_RELOAD_LIMIT_UNSPEC) {
		/* a bitfield32: the one limit, selected (net/devlink
		 * devlink_nl_cmd_reload refuses several) */
		uint32_t bf[2] = { 1u << limit, 1u << limit };

		mlx_nlb_attr(&b, DEVLINK_ATTR_RELOAD_LIMITS, bf, sizeof(bf));
	}
	return mlx_nlb_finish(&b);
}
