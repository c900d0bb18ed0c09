/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Transceiver (pluggable module) EEPROM decoders: pure functions, pages of
 * bytes in, struct out.  Three memory maps, from the public specifications:
 *  - SFF-8472 rev 12 (SFP, SFP+, SFP28): I2C address 0x50 (A0h, identity)
 *    and 0x51 (A2h, diagnostics: thresholds 0-39, live values 96-105, flags
 *    112-117; byte 92 of A0h says whether A2h exists and how it is
 *    calibrated).
 *  - SFF-8636 rev 2.10 (QSFP+, QSFP28): lower page 0-127 (live values and
 *    flags), upper page 00h (identity), upper page 03h (thresholds; absent
 *    on flat memory, lower byte 2 bit 2).
 *  - CMIS 4.0/5.x (QSFP-DD, OSFP, QSFP+ with CMIS): lower page (module
 *    temperature and Vcc, module flags, applications 1-8), page 00h
 *    (identity), 01h (advertising: which monitors exist, how many banks,
 *    applications 9-15), 02h (thresholds), 11h of each bank (lane flags
 *    and monitors, 8 lanes a bank).  Flat memory: lower byte 2 bit 7.
 *
 * The input is a set of pages as ethtool netlink returns them
 * (ETHTOOL_MSG_MODULE_EEPROM_GET: i2c address, bank, page, offset, length),
 * so a page that was not read is simply absent and every field that needs
 * it is left unknown.  The decoders only read through mlx_mod_bytes(), which
 * returns NULL unless the whole range is present: no read past a buffer.
 * Units follow ethtool (sff-common.c): temperature 1/256 degree C, Vcc 100
 * uV, bias 2 uA, optical power 0.1 uW.
 */
#ifndef MLX_MODULE_EEPROM_H
#define MLX_MODULE_EEPROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MLX_MOD_I2C_A0 0x50
#define MLX_MOD_I2C_A2 0x51
#define MLX_MOD_PAGE_LEN 128        /* half a 256-byte I2C page */
#define MLX_MOD_MAX_PAGES 64         /* a Junos dump of a 400ZR+ has 25 pages */
#define MLX_MOD_LANES_PER_BANK 8
#define MLX_MOD_MAX_BANKS 4          /* CMIS page 01h byte 142: up to banks 0-3 */
#define MLX_MOD_MAX_LANES (MLX_MOD_LANES_PER_BANK * MLX_MOD_MAX_BANKS)
#define MLX_MOD_MAX_APPS 15          /* CMIS: 8 in the lower page, 7 more on page 01h */

/* One run of bytes as read: offset is within the 256-byte I2C space of
 * (i2c, bank, page); 0-127 is the lower half, 128-255 the upper page. */
struct mlx_mod_page {
	uint8_t i2c, bank, page;
	uint16_t offset, len;
	const uint8_t *data;
};

struct mlx_mod_eeprom {
	struct mlx_mod_page p[MLX_MOD_MAX_PAGES];
	size_t n;
};

/* Add a run (the data is referenced, not copied): -ENOSPC when full,
 * -EINVAL when it crosses offset 256. */
int mlx_mod_add(struct mlx_mod_eeprom *e, uint8_t i2c, uint8_t bank, uint8_t page,
		uint16_t offset, uint16_t len, const uint8_t *data);
/* The bytes [offset, offset+len) of a page, or NULL when not all present. */
const uint8_t *mlx_mod_bytes(const struct mlx_mod_eeprom *e, uint8_t i2c, uint8_t bank,
			     uint8_t page, uint16_t offset, uint16_t len);
/*
 * Split a flat dump (the SIOCETHTOOL ETHTOOL_GMODULEEEPROM layout, which is
 * also `ethtool -m raw on` and `hex on`) into pages: SFF-8472 = A0h 0-255
 * then A2h 0-255; SFF-8636 = page 0 lower+upper, then upper page N at
 * 128 * (N + 1) (the kernel's 640-byte layout: 01h, 02h, 03h at 256, 384,
 * 512); anything else = lower page + page 00h.  The standard comes from
 * byte 0.
 */
int mlx_mod_from_flat(struct mlx_mod_eeprom *e, const uint8_t *buf, size_t len);

enum mlx_mod_std { MLX_MOD_STD_UNKNOWN, MLX_MOD_SFF8472, MLX_MOD_SFF8636, MLX_MOD_CMIS };
/* Which memory map an identifier byte (SFF-8024 table 4-1) uses. */
enum mlx_mod_std mlx_mod_std_of(uint8_t identifier);
const char *mlx_mod_std_name(enum mlx_mod_std s);   /* "sff-8472", "sff-8636", "cmis" */

/* A page the decoder of @std wants, after the lower page was read. */
struct mlx_mod_want {
	uint8_t i2c, bank, page;
	uint16_t offset, len;
};
/*
 * The requests worth making, given the lower page 0 bytes (@lower, 128):
 * page 00h upper always; diagnostics pages only when the module has them
 * (not flat memory, DOM implemented).  Returns the count (<= @max).
 */
size_t mlx_mod_pages_wanted(const uint8_t *lower, struct mlx_mod_want *w, size_t max);

/* MLX_MOD_OFF: a lane whose laser is off (bias and Tx power 0) or that
 * receives no light (Rx power 0), which the module does not flag: neither
 * ok nor an alarm (an unused lane of a 4-lane application in an 8-lane
 * module reads so), and not worse than ok in a verdict. */
enum mlx_mod_level { MLX_MOD_LEVEL_UNKNOWN, MLX_MOD_OFF, MLX_MOD_OK, MLX_MOD_WARNING,
		     MLX_MOD_ALARM };
/* "off", "ok", "warning", "alarm", NULL */
const char *mlx_mod_level_name(enum mlx_mod_level l);

struct mlx_mod_thresh {
	bool valid;
	double high_alarm, low_alarm, high_warning, low_warning;
};

/* A monitored value: the reading, and the module's own latched flags. */
struct mlx_mod_value {
	bool valid;
	double v;
	bool flags_valid;
	bool high_alarm, low_alarm, high_warning, low_warning;
};

/*
 * A lane's status flags (latched), 1 set, 0 clear, -1 unknown: the module
 * does not implement it (its option bits say), or the page was not read.
 * SFF-8636 lower bytes 3-5 (LOS, Tx fault, CDR LOL; implemented: page 00h
 * bytes 194-195), SFF-8472 A2h byte 110 (Rx_LOS, TX_Fault states;
 * implemented: A0h byte 93 bits 4-5), CMIS page 11h bytes 135-137 and
 * 147-148 (implemented: page 01h bytes 157-158): ethtool's
 * sff8636_show_signals and cmis_show_signals read the same bits.
 */
enum mlx_mod_flag { MLX_MOD_RX_LOS, MLX_MOD_TX_LOS, MLX_MOD_TX_FAULT, MLX_MOD_RX_LOL,
		    MLX_MOD_TX_LOL, MLX_MOD_NFLAGS };
/* "rx_los", ...: the JSON key; "Rx loss of signal", ...: ethtool's words */
const char *mlx_mod_flag_key(enum mlx_mod_flag f);
const char *mlx_mod_flag_text(enum mlx_mod_flag f);

struct mlx_mod_lane {
	struct mlx_mod_value bias_ma, tx_power_mw, rx_power_mw;
	int8_t flag[MLX_MOD_NFLAGS];
};

/* One CMIS application the module advertises (lower page 86-117, page
 * 01h 223-250): host and media interface codes of SFF-8024 tables 4-5 and
 * 4-6..4-10 (which media table: mlx_mod_info.media_type). */
struct mlx_mod_app {
	uint8_t host_id, media_id;
	uint8_t host_lanes, media_lanes;   /* lane counts, 0 = not given */
	uint8_t host_lane_options;         /* bit n: may start on host lane n+1 */
};

struct mlx_mod_info {
	enum mlx_mod_std std;
	uint8_t identifier, connector;
	uint8_t ext_identifier;
	char vendor[17], part_number[17], revision[5], serial[17], date_code[9];
	uint8_t oui[3];
	bool identity_valid;             /* page 00h (A0h) was there */
	bool cc_base_ok, cc_ext_ok;      /* checksums (SFF-8472/8636 CC_BASE, CC_EXT; CMIS page 00h) */
	bool cc_checked;
	unsigned cmis_rev;               /* CMIS: lower byte 1 (0x40 = 4.0), else 0 */
	uint8_t module_state;            /* CMIS: lower byte 3 bits 3-1 */
	unsigned nominal_mbd;            /* bit rate, MBd (0 = unknown) */
	double wavelength_nm;            /* 0 = not an optical laser / unknown */
	unsigned length_smf_m, length_om3_m, length_om2_m, length_om1_m, length_copper_m;
	unsigned length_om4_m, length_om5_m;   /* CMIS page 01h 134, 133 (SFF-8472/8636 share
						* OM4 with copper: length_copper_m) */
	double length_cable_m;           /* CMIS cable assembly length */
	double wavelength_tol_nm;        /* the laser's wavelength tolerance, 0 unknown */
	/* SFF-8472 byte 11, SFF-8636 byte 139 (SFF-8024 table 4-2) */
	bool encoding_valid;
	uint8_t encoding;
	/* power class 1-8 (0 unknown) and its maximum power in W (0 unknown):
	 * SFF-8636 byte 129 (and 107 for class 8), CMIS page 00h 200-201 */
	unsigned power_class;
	double max_power_w;
	/* CDR present in the Tx and Rx paths: 1, 0, -1 unknown (SFF-8636 byte
	 * 129 bits 3-2, CMIS page 01h bytes 161-162 bit 0) */
	int8_t cdr_tx, cdr_rx;
	bool flat_memory;
	bool dom;                        /* live diagnostics present */
	struct mlx_mod_value temperature_c, voltage_v;
	struct mlx_mod_thresh temperature_th, voltage_th, bias_th, tx_power_th, rx_power_th;
	/* transmitter technology as the module holds it: SFF-8636 byte 147
	 * bits 7-4 (0x40), CMIS page 00h byte 212 (0x06): the same list,
	 * mlx_mod_tx_tech_name */
	bool tx_tech_valid;
	uint8_t tx_tech;
	/* SFF-8636 byte 192, when byte 131 bit 7 says it applies */
	bool ext_compliance_valid;
	uint8_t ext_compliance;
	/* CMIS: the media type (lower byte 85) and the applications */
	uint8_t media_type;
	size_t napps;
	struct mlx_mod_app app[MLX_MOD_MAX_APPS];
	unsigned nbanks;                 /* CMIS: banks the module has (page 01h), 0 unknown */
	unsigned nlanes;
	struct mlx_mod_lane lane[MLX_MOD_MAX_LANES];
};

/*
 * Decode: 0 on success (fields the pages do not cover stay unknown);
 * -ENODATA when page 0 (A0h) byte 0 is missing; -EPROTONOSUPPORT for an
 * identifier no decoder knows (out->identifier is set); -EBADMSG when a
 * checksum over present bytes is wrong (out is still filled).  @err gets
 * the reason.  The three per-standard functions are also callable directly.
 */
int mlx_mod_decode(const struct mlx_mod_eeprom *e, struct mlx_mod_info *out, char *err, size_t errlen);
int mlx_sff8472_decode(const struct mlx_mod_eeprom *e, struct mlx_mod_info *out, char *err, size_t errlen);
int mlx_sff8636_decode(const struct mlx_mod_eeprom *e, struct mlx_mod_info *out, char *err, size_t errlen);
int mlx_cmis_decode(const struct mlx_mod_eeprom *e, struct mlx_mod_info *out, char *err, size_t errlen);

/* SFF-8024 names ("QSFP28", "LC"); NULL when the code is not in the table. */
const char *mlx_mod_identifier_name(uint8_t id);
const char *mlx_mod_connector_name(uint8_t c);
/* lib/decode/sff8024.c: names of SFF-8024 codes, NULL when not in the table.
 * Transmitter technology (of a standard's code), extended compliance (SFF-8636 byte
 * 192), CMIS host interface (and its line rate in Mb/s, 0 unknown), media
 * type ("mmf", "smf", "passive_copper", "active_cable", "base_t") and
 * media interface of a media type. */
const char *mlx_mod_tx_tech_name(enum mlx_mod_std std, uint8_t code);
const char *mlx_mod_ext_compliance_name(uint8_t code);
const char *mlx_mod_host_if_name(uint8_t code);
unsigned mlx_mod_host_if_mbps(uint8_t code);
const char *mlx_mod_media_type_name(uint8_t type);
const char *mlx_mod_media_if_name(uint8_t type, uint8_t code);

/* CMIS: the page 11h requests of the banks beyond 0 the module says it
 * has (page 01h byte 142), once page 01h is in @e.  Returns the count. */
size_t mlx_mod_banks_wanted(const struct mlx_mod_eeprom *e, struct mlx_mod_want *w, size_t max);

/* ok / warning / alarm of a value from its flags, else from the thresholds. */
enum mlx_mod_level mlx_mod_value_level(const struct mlx_mod_value *v, const struct mlx_mod_thresh *t);
/*
 * The level of lane @i's bias, Tx power (the laser) or Rx power (the
 * light it receives) @v: MLX_MOD_OFF where the reading is 0 (bias 0 and Tx
 * power 0: the laser is off; Rx power 0: no light) and the module raises
 * no flag for it, else mlx_mod_value_level.  @rx: @v is the Rx power.
 */
enum mlx_mod_level mlx_mod_lane_level(const struct mlx_mod_lane *l, const struct mlx_mod_value *v,
				      const struct mlx_mod_thresh *t, bool rx);
/* SFF-8024 table 4-2 encoding names ("64B/66B"); the meaning of 4-6
 * differs between SFF-8472 and SFF-8636; NULL reserved or unknown. */
const char *mlx_mod_encoding_name(enum mlx_mod_std std, uint8_t code);
/* 10*log10(mW): -inf for 0 (ethtool prints -inf there too). */
double mlx_mod_mw_to_dbm(double mw);

#endif /* MLX_MODULE_EEPROM_H */
