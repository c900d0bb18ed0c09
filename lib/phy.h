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
/* Only the global pause of @ifname (the "pause-get" query; the QoS lint's
 * pfc-global-pause): *rx, *tx 1 on, 0 off, -1 unknown.  0 or -errno. */
int mlx_link_pause_get(struct mlx_ctx *ctx, const char *ifname, int *rx, int *tx);
/* Pure: the requests and one reply each (tests, fuzzing). */
int mlx_link_build(void *buf, size_t cap, uint8_t cmd, const char *ifname, bool stats);
int mlx_link_decode(const struct nlmsghdr *h, size_t len, struct mlx_link *out);
/* The speed in Mb/s a link mode name starts with ("25000baseCR/Full"): 0 if none. */
int64_t mlx_link_mode_speed(const char *name);

/* ---- link writes (lib/phy/link-settings.c): PAUSE_SET, LINKMODES_SET,
 * FEC_SET (net/ethtool/pause.c, linkmodes.c, fec.c) ------------------------ */

/* One setting of the link section (lib/settings.h struct mlx_link_settings):
 * the change's id, and the one attribute its request carries. */
enum mlx_link_field {
	MLX_LINK_PAUSE_AUTONEG,       /* ETHTOOL_A_PAUSE_AUTONEG */
	MLX_LINK_PAUSE_RX,            /* ETHTOOL_A_PAUSE_RX */
	MLX_LINK_PAUSE_TX,            /* ETHTOOL_A_PAUSE_TX */
	MLX_LINK_AUTONEG,             /* ETHTOOL_A_LINKMODES_AUTONEG */
	MLX_LINK_SPEED,               /* ETHTOOL_A_LINKMODES_SPEED, Mb/s */
	MLX_LINK_DUPLEX,              /* ETHTOOL_A_LINKMODES_DUPLEX (1 full, 0 half) */
	MLX_LINK_FEC,                 /* ETHTOOL_A_FEC_MODES + _AUTO: enum mlx_fec_mode */
	MLX_LINK_NFIELDS
};
/* Its setting name ("pause.rx", "speed_mbps", "fec"). */
const char *mlx_link_field_name(enum mlx_link_field f);

/* The request that sets @f to @v on @ifname (a bool 0/1, a speed, a FEC
 * mode: FEC_MODES as a verbose NOMASK bitset of the one mode's name, "None"
 * for off and none for auto, with FEC_AUTO).  Pure; the length or -errno. */
int mlx_link_set_build(void *buf, size_t cap, const char *ifname, enum mlx_link_field f,
		       uint64_t v);
/* What a set request asks (the emulator's view): 0, -ENOENT when it is no
 * PAUSE/LINKMODES/FEC_SET, -EINVAL with @why when malformed. */
struct mlx_link_set_req {
	char ifname[16];
	bool has[MLX_LINK_NFIELDS];
	uint64_t v[MLX_LINK_NFIELDS];
	/* FEC_MODES: the modes named (bits of enum mlx_fec_mode, auto apart) */
	uint8_t fec_modes;
	bool fec_modes_given;
};
int mlx_link_set_parse(const void *req, size_t len, struct mlx_link_set_req *out, char *why,
		       size_t whylen);
/* Send one change (a captured system: its emulator). */
int mlx_link_set(struct mlx_ctx *ctx, const char *ifname, enum mlx_link_field f, uint64_t v);

/* The configured FEC of a reply: the bits of enum mlx_fec_mode
 * (auto included) of @l; 0 unknown. */
uint8_t mlx_link_fec_bits(const struct mlx_link *l);
/* The one speed of the advertised modes (autonegotiation on): its Mb/s,
 * 0 when they are of several speeds (or none). */
int64_t mlx_link_advertised_speed(const struct mlx_link *l);

/* The write engine's side (MLX_SUB_LINK): the port's netdev. */
struct mlx_link_writer {
	const char *ifname;
	const char *on;
	bool pfc_on;                  /* the port's DCB state had PFC on at the plan */
	uint8_t pfc_en;               /* ... its priorities then */
	/* a pause-on write of this run turned that PFC off (mlx5: one
	 * register); a put-back of pause asks for it again, which the
	 * flush after the put-back sends */
	bool pfc_cleared, pfc_restore;
};

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
