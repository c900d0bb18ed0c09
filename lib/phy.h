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

/* lower, 00h, 01h, 02h, 11h of up to 4 banks (CMIS) */
#define MLX_MODULE_MAX_REQ 9

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
 * a kernel without MODULE_EEPROM_GET (before 5.13): the SIOCETHTOOL
 * GMODULEINFO/GMODULEEEPROM flat read, split into the same pages;
 * another -errno when a read failed.  Request names in a capture:
 * "module-eeprom-i2cXX-pageXX-bankN-offN".
 */
int mlx_module_read(struct mlx_ctx *ctx, const char *ifname, struct mlx_module *m);

/* The pages of a flat dump of @len bytes already in m->data (the
 * SIOCETHTOOL GMODULEEEPROM layout, mlx_mod_from_flat): m->eeprom, and
 * m->req/m->got one entry per half page.  Pure (tests). */
int mlx_module_from_flat(struct mlx_module *m, size_t len);

/* The request and the reply decoder, pure (tests, the emulation). */
int mlx_module_eeprom_build(void *buf, size_t cap, const char *ifname, const struct mlx_mod_want *w);
int mlx_module_eeprom_decode(const struct nlmsghdr *h, size_t len, uint8_t *data, size_t cap,
			     uint16_t *got);

/* ---- link settings, FEC, pause (ETHTOOL_MSG_LINKMODES/FEC/PAUSE_GET) ---- */

#define MLX_LINK_MAX_MODES 128
#define MLX_LINK_MODE_LEN 48
#define MLX_FEC_MAX_LANES 8

struct mlx_link_modes {
	size_t n;
	char name[MLX_LINK_MAX_MODES][MLX_LINK_MODE_LEN];   /* "100000baseSR4/Full" */
};

struct mlx_link {
	/* LINKMODES_GET: modes_err 0 when answered */
	int modes_err;
	int autoneg;                  /* 1 on, 0 off, -1 unknown */
	int64_t speed_mbps;           /* -1 unknown (link down) */
	int duplex;                   /* 1 full, 0 half, -1 unknown */
	int64_t lanes;                /* -1 unknown */
	struct mlx_link_modes supported, advertised, partner;
	/* FEC_GET with statistics */
	int fec_err;
	int fec_auto;                 /* -1 unknown */
	struct mlx_link_modes fec_configured;   /* "FEC_RS", ... as the kernel names them */
	const char *fec_active;       /* "none", "rs", "baser", "llrs"; NULL unknown */
	bool fec_stats;               /* the driver reports FEC statistics */
	int64_t fec_corrected, fec_uncorrectable;   /* -1 not reported */
	size_t fec_nlanes;
	int64_t fec_corrected_lane[MLX_FEC_MAX_LANES], fec_uncorrectable_lane[MLX_FEC_MAX_LANES];
	/* PAUSE_GET with statistics */
	int pause_err;
	int pause_autoneg, pause_rx, pause_tx;   /* -1 unknown */
	int64_t pause_tx_frames, pause_rx_frames; /* -1 not reported */
};

/*
 * Query the three for @ifname; each part records its own -errno (a veth
 * has link modes but no FEC and no pause: -EOPNOTSUPP there).  Returns 0,
 * or -ENODEV when the interface does not exist.  Capture names:
 * "linkmodes-get", "fec-get", "pause-get".
 */
int mlx_link_get(struct mlx_ctx *ctx, const char *ifname, struct mlx_link *out);
/* Pure: the requests and one reply each (tests, fuzzing). */
int mlx_link_build(void *buf, size_t cap, uint8_t cmd, const char *ifname, bool stats);
int mlx_link_decode(const struct nlmsghdr *h, size_t len, struct mlx_link *out);
/* The speed in Mb/s a link mode name starts with ("25000baseCR/Full"): 0 if none. */
int64_t mlx_link_mode_speed(const char *name);

/* ---- sensors: the mlx5 hwmon device (KERNEL mlx5/core/hwmon.c) ---------- */

#define MLX_SENSORS_MAX 16

struct mlx_sensor {
	char label[32];               /* "asic", "Module0"; "" when unlabelled */
	int64_t temp_mc;              /* millidegrees C; INT64_MIN unknown */
	int64_t crit_mc, highest_mc;  /* INT64_MIN when absent */
};

struct mlx_sensors {
	char hwmon[32];               /* "hwmon3" */
	size_t n;
	struct mlx_sensor s[MLX_SENSORS_MAX];
};

/* The temperatures of @bdf's hwmon device named "mlx5" (sysfs
 * /sys/bus/pci/devices/BDF/hwmon/hwmonN/temp*_{input,crit,highest,label}).
 * -ENOENT when the function has none (older kernels, MLNX_OFED, VFs). */
int mlx_sensors_read(struct mlx_ctx *ctx, const char *bdf, struct mlx_sensors *out);

#endif
