/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Transceiver module EEPROM through ethtool netlink (KERNEL
 * net/ethtool/eeprom.c, include/uapi/linux/ethtool_netlink.h): one
 * MODULE_EEPROM_GET per half page, never across offset 128 (the kernel
 * refuses that), the lower page first; what else to read follows from it
 * (mlx_mod_pages_wanted, then mlx_mod_banks_wanted from page 01h), so a
 * module without diagnostics costs two requests and a paged CMIS module
 * five (one more per bank beyond 0), not the 256-page space.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <net/if.h>

#include "mlx-private.h"
#include "nl.h"
#include "phy.h"

int mlx_module_eeprom_build(void *buf, size_t cap, const char *ifname, const struct mlx_mod_want *w)
{
	struct mlx_nlbuf b;

	mlx_nlb_init(&b, buf, cap);
	mlx_ethtool_req_start(&b, ETHTOOL_MSG_MODULE_EEPROM_GET, 0, ifname, 0);
	mlx_nlb_u32(&b, ETHTOOL_A_MODULE_EEPROM_OFFSET, w->offset);
	mlx_nlb_u32(&b, ETHTOOL_A_MODULE_EEPROM_LENGTH, w->len);
	mlx_nlb_u8(&b, ETHTOOL_A_MODULE_EEPROM_PAGE, w->page);
	mlx_nlb_u8(&b, ETHTOOL_A_MODULE_EEPROM_BANK, w->bank);
	mlx_nlb_u8(&b, ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS, w->i2c);
	return mlx_nlb_finish(&b);
}

int mlx_module_eeprom_decode(const struct nlmsghdr *h, size_t len, uint8_t *data, size_t cap,
			     uint16_t *got)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	int r;

	*got = 0;
	r = mlx_nlmsg_attrs(h, len, GENL_HDRLEN, &attrs, &alen);
	if (r < 0)
		return r;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type != ETHTOOL_A_MODULE_EEPROM_DATA)
			continue;
		/* the kernel returns what the driver read, at most what was asked */
		if (a.len > cap)
			return -EBADMSG;
		memcpy(data, a.data, a.len);
		*got = (uint16_t)a.len;
		return 0;
	}
	return r < 0 ? r : -ENODATA;
}

struct page_arg {
	uint8_t *data;
	uint16_t *got;
	int r;
};

static int page_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct page_arg *a = arg;

	a->r = mlx_module_eeprom_decode(h, len, a->data, MLX_MOD_PAGE_LEN, a->got);
	return 0;
}

static int read_page(struct mlx_ctx *ctx, const char *ifname, struct mlx_module *m,
		     const struct mlx_mod_want *w)
{
	size_t k = m->nreq;
	struct page_arg a = { m->data[k], &m->got[k], -ENODATA };
	char name[64];
	uint8_t req[128];
	int len, r;

	if (k >= MLX_MODULE_MAX_REQ)
		return -ENOSPC;
	len = mlx_module_eeprom_build(req, sizeof(req), ifname, w);
	if (len < 0)
		return len;
	snprintf(name, sizeof(name), "module-eeprom-i2c%02x-page%02x-bank%u-off%u", w->i2c, w->page,
		 w->bank, w->offset);
	r = mlx_nl_query(ctx, MLX_NL_ETHTOOL, ifname, name, req, (size_t)len, page_cb, &a);
	if (r < 0)
		return r;
	if (a.r < 0)
		return mlx_err(ctx, -a.r, "cannot decode the module EEPROM reply of '%s' (i2c 0x%02x page "
			       "%u offset %u)", ifname, w->i2c, w->page, w->offset);
	m->req[k] = *w;
	m->nreq++;
	return mlx_mod_add(&m->eeprom, w->i2c, w->bank, w->page, w->offset, m->got[k], m->data[k]);
}

int mlx_module_from_flat(struct mlx_module *m, size_t len)
{
	int r;

	/* m->data is one contiguous run of MLX_MODULE_MAX_REQ half pages,
	 * so half k of the flat buffer is m->data[k], as after paged reads */
	if (len > sizeof(m->data))
		len = sizeof(m->data);
	r = mlx_mod_from_flat(&m->eeprom, &m->data[0][0], len);
	if (r < 0)
		return r;
	m->nreq = 0;
	for (size_t i = 0; i < m->eeprom.n && m->nreq < MLX_MODULE_MAX_REQ; i++) {
		const struct mlx_mod_page *p = &m->eeprom.p[i];

		m->req[m->nreq] = (struct mlx_mod_want){ p->i2c, p->bank, p->page, p->offset, p->len };
		m->got[m->nreq++] = p->len;
	}
	return 0;
}

/*
 * Kernels before 5.13 have no MODULE_EEPROM_GET (the ethtool family
 * answers -EOPNOTSUPP; before 5.6 there is no family, the same errno):
 * SIOCETHTOOL ETHTOOL_GMODULEINFO says which map and how long
 * (include/uapi/linux/ethtool.h: ETH_MODULE_SFF_8079 256 bytes, _8472
 * 512, _8436/_8636 256 or 640), ETHTOOL_GMODULEEEPROM reads it flat.
 * Through the boundary, so a captured system's table answers there (it
 * has its recorded netlink replies, not an ioctl).
 */
static int read_ioctl(struct mlx_ctx *ctx, const char *ifname, struct mlx_module *m)
{
	struct ethtool_modinfo mi = { .cmd = ETHTOOL_GMODULEINFO };
	union {
		struct ethtool_eeprom h;
		uint8_t room[sizeof(struct ethtool_eeprom) + sizeof(m->data)];
	} ee;
	size_t len;
	int r;

	r = mlx_kernel_ethtool(ctx, ifname, &mi);
	if (r < 0)
		return r;
	len = mi.eeprom_len < sizeof(m->data) ? mi.eeprom_len : sizeof(m->data);
	if (len == 0)
		return -EIO;
	memset(&ee, 0, sizeof(ee));
	ee.h.cmd = ETHTOOL_GMODULEEEPROM;
	ee.h.len = (uint32_t)len;
	r = mlx_kernel_ethtool(ctx, ifname, &ee);
	if (r < 0)
		return r;
	memcpy(&m->data[0][0], ee.h.data, len);
	return mlx_module_from_flat(m, len);
}

int mlx_module_read(struct mlx_ctx *ctx, const char *ifname, struct mlx_module *m)
{
	const struct mlx_mod_want lower = { MLX_MOD_I2C_A0, 0, 0, 0, MLX_MOD_PAGE_LEN };
	struct mlx_mod_want w[MLX_MODULE_MAX_REQ];
	size_t n;
	int r;

	memset(m, 0, sizeof(*m));
	if (!mlx_name_is_safe(ifname) || strlen(ifname) >= IFNAMSIZ)
		return mlx_err(ctx, EINVAL, "'%s' is not a valid interface name", ifname);
	r = read_page(ctx, ifname, m, &lower);
	/* No MODULE_EEPROM_GET (before 5.13; before 5.6 no ethtool family:
	 * -EOPNOTSUPP live, and -ENODATA, no answer held, from a capture
	 * taken there): the ioctls, which a capture answers from its
	 * recording. */
	if (r == -EOPNOTSUPP || r == -ENODATA) {
		int nl_r = r;

		memset(m, 0, sizeof(*m));
		r = read_ioctl(ctx, ifname, m);
		if (r == -ENODATA && nl_r == -ENODATA)
			return r;       /* nothing recorded either: read_page said so */
		if (r == -ENODATA)      /* a capture from before ioctls were recorded */
			r = -EOPNOTSUPP;
		if (r == -EOPNOTSUPP)
			return mlx_err(ctx, EOPNOTSUPP, "no module on '%s': the driver reports no "
				       "transceiver EEPROM, neither over ethtool netlink nor SIOCETHTOOL "
				       "(no module plugged, or a port without a cage)", ifname);
		if (r == 0 && m->nreq == 0)
			r = -EIO;
		/* mlx5's legacy GMODULEINFO refuses a module type it has no
		 * flat layout for (QSFP-DD, OSFP) with -EINVAL */
		if (r < 0 && r != -EIO && r != -ENODEV)
			return mlx_err(ctx, -r, "cannot read the module EEPROM of '%s': the kernel has no "
				       "ethtool netlink module request (Linux 5.13), and SIOCETHTOOL "
				       "GMODULEINFO/GMODULEEEPROM failed: %s", ifname, strerror(-r));
	}
	if (r == -ENODEV)
		return mlx_err(ctx, ENODEV, "no network interface '%s'", ifname);
	/* mlx5 answers -EIO when no module answers on the cage's I2C bus */
	if (r == -EIO || (r == 0 && m->got[0] == 0))
		return mlx_err(ctx, EOPNOTSUPP, "no module on '%s': nothing answers in its cage (no module "
			       "plugged, or the module does not respond)", ifname);
	if (r < 0)
		return r;
	if (m->nreq == 1 && m->got[0] == MLX_MOD_PAGE_LEN) {
		n = mlx_mod_pages_wanted(m->data[0], w, MLX_MODULE_MAX_REQ - 1);
		for (size_t i = 0; i < n; i++) {
			r = read_page(ctx, ifname, m, &w[i]);
			/* a page the module does not have is not fatal: its
			 * fields stay unknown */
			if (r < 0 && r != -EINVAL && r != -EIO && r != -EOPNOTSUPP && r != -ENODATA)
				return r;
		}
		/* CMIS: the lanes of the banks beyond 0, which page 01h names */
		n = mlx_mod_banks_wanted(&m->eeprom, w, MLX_MODULE_MAX_REQ - m->nreq);
		for (size_t i = 0; i < n; i++) {
			r = read_page(ctx, ifname, m, &w[i]);
			if (r < 0 && r != -EINVAL && r != -EIO && r != -EOPNOTSUPP && r != -ENODATA)
				return r;
		}
	}
	m->decode_rc = mlx_mod_decode(&m->eeprom, &m->info, m->decode_err, sizeof(m->decode_err));
	return 0;
}
