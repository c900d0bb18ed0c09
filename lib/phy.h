/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The physical layer of a port: its transceiver module (EEPROM pages read
 * through ethtool netlink ETHTOOL_MSG_MODULE_EEPROM_GET, decoded by
 * module-eeprom.h).  Requests go through mlx_nl_query(), so a snapshot
 * records the replies and --sysroot replays them: one request per page
 * actually needed (the lower page first, then what it says exists).
 */
#ifndef MLX_PHY_H
#define MLX_PHY_H

#include <linux/netlink.h>

#include "mlx.h"
#include "module-eeprom.h"

#define MLX_MODULE_MAX_REQ 6

struct mlx_module {
	/* the pages read, in request order; eeprom points into data */
	size_t nreq;
	struct mlx_mod_want req[MLX_MODULE_MAX_REQ];
	uint16_t got[MLX_MODULE_MAX_REQ];     /* bytes the reply carried */
	uint8_t data[MLX_MODULE_MAX_REQ][MLX_MOD_PAGE_LEN];
	struct mlx_mod_eeprom eeprom;
	/* the decode: rc 0, -EBADMSG (checksum, info filled), -EPROTONOSUPPORT */
	int decode_rc;
	char decode_err[128];
	struct mlx_mod_info info;
};

/*
 * Read and decode the module of @ifname.  0 on success (see decode_rc);
 * -EOPNOTSUPP when the port has no module or the driver offers no module
 * EEPROM (veth, a VF, an empty cage): mlx_errmsg says "no module";
 * another -errno when a read failed.  Request names in a capture:
 * "module-eeprom-i2cXX-pageXX-bankN-offN".
 */
int mlx_module_read(struct mlx_ctx *ctx, const char *ifname, struct mlx_module *m);

/* The request and the reply decoder, pure (tests, the emulation). */
int mlx_module_eeprom_build(void *buf, size_t cap, const char *ifname, const struct mlx_mod_want *w);
int mlx_module_eeprom_decode(const struct nlmsghdr *h, size_t len, uint8_t *data, size_t cap,
			     uint16_t *got);

#endif
