/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SFF-8024 rev 4.11 code tables the module decoders name: the transmitter
 * technology (SFF-8636 byte 147 bits 7-4, CMIS page 00h byte 212; table
 * 6-19 of SFF-8636), the extended specification compliance codes
 * (SFF-8636 byte 192, SFF-8024 table 4-4), and the CMIS application
 * advertisement's interface codes: host electrical (table 4-5) and media
 * per module media type (tables 4-6 MMF, 4-7 SMF, 4-8 passive copper,
 * 4-9 active cable, 4-10 BASE-T).  Names are the standards' designations
 * without the clause references; where ethtool names a code, its spelling.
 * A code not here is NULL: the caller prints the number.
 */
#include <stddef.h>
#include <stdint.h>

#include "module-eeprom.h"

struct code {
	uint8_t code;
	const char *name;
};

static const char *lookup(const struct code *t, size_t n, uint8_t code)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].code == code)
			return t[i].name;
	return NULL;
}

#define LOOKUP(t, c) lookup(t, sizeof(t) / sizeof(t[0]), c)

const char *mlx_mod_tx_tech_name(enum mlx_mod_std std, uint8_t code)
{
	/* ethtool qsfp.c spells them so for SFF-8636 */
	static const char *const n[16] = {
		"850 nm VCSEL", "1310 nm VCSEL", "1550 nm VCSEL", "1310 nm FP", "1310 nm DFB",
		"1550 nm DFB", "1310 nm EML", "1550 nm EML", "Others/Undefined", "1490 nm DFB",
		"Copper cable unequalized", "Copper cable passive equalized",
		"Copper cable, near and far end limiting active equalizers",
		"Copper cable, far end limiting active equalizers",
		"Copper cable, near end limiting active equalizers", "Copper cable, linear active equalizers",
	};

	/* SFF-8636 holds the list in the high nibble, CMIS as the byte */
	if (std == MLX_MOD_SFF8636)
		code >>= 4;
	else if (std != MLX_MOD_CMIS)
		return NULL;
	return code < 16 ? n[code] : NULL;
}

const char *mlx_mod_ext_compliance_name(uint8_t code)
{
	static const struct code t[] = {
		{ 0x01, "100G AOC or 25GAUI C2M AOC with worst BER of 5x10^(-5)" },
		{ 0x02, "100G Base-SR4 or 25GBase-SR" },
		{ 0x03, "100G Base-LR4" },
		{ 0x04, "100G Base-ER4" },
		{ 0x05, "100G Base-SR10" },
		{ 0x06, "100G CWDM4 MSA with FEC" },
		{ 0x07, "100G PSM4 Parallel SMF" },
		{ 0x08, "100G ACC or 25GAUI C2M ACC with worst BER of 5x10^(-5)" },
		{ 0x09, "100G CWDM4 MSA without FEC" },
		{ 0x0b, "100G Base-CR4 or 25G Base-CR CA-L" },
		{ 0x0c, "25G Base-CR CA-S" },
		{ 0x0d, "25G Base-CR CA-N" },
		{ 0x10, "40G Base-ER4" },
		{ 0x11, "4 x 10G Base-SR" },
		{ 0x12, "40G PSM4 Parallel SMF" },
		{ 0x13, "G959.1 profile P1I1-2D1" },
		{ 0x14, "G959.1 profile P1S1-2D2" },
		{ 0x15, "G959.1 profile P1L1-2D2" },
		{ 0x16, "10G Base-T with SFI electrical interface" },
		{ 0x17, "100G CLR4" },
		{ 0x18, "100G AOC or 25GAUI C2M AOC with worst BER of 10^(-12)" },
		{ 0x19, "100G ACC or 25GAUI C2M ACC with worst BER of 10^(-12)" },
		{ 0x1a, "100GE-DWDM2" },
		{ 0x1b, "100G 1550nm WDM (4 wavelengths)" },
		{ 0x1c, "10GBASE-T Short Reach (30 meters)" },
		{ 0x1d, "5GBASE-T" },
		{ 0x1e, "2.5GBASE-T" },
		{ 0x1f, "40G SWDM4" },
		{ 0x20, "100G SWDM4" },
		{ 0x21, "100G PAM4 BiDi" },
		{ 0x22, "4WDM-10 MSA" },
		{ 0x23, "4WDM-20 MSA" },
		{ 0x24, "4WDM-40 MSA" },
		{ 0x25, "100GBASE-DR" },
		{ 0x26, "100G-FR or 100GBASE-FR1" },
		{ 0x27, "100G-LR or 100GBASE-LR1" },
		{ 0x30, "Active Copper Cable with 50GAUI, 100GAUI-2 or 200GAUI-4 C2M, BER 10^(-6)" },
		{ 0x31, "Active Optical Cable with 50GAUI, 100GAUI-2 or 200GAUI-4 C2M, BER 10^(-6)" },
		{ 0x32, "Active Copper Cable with 50GAUI, 100GAUI-2 or 200GAUI-4 C2M, BER 2.6x10^(-4)" },
		{ 0x33, "Active Optical Cable with 50GAUI, 100GAUI-2 or 200GAUI-4 C2M, BER 2.6x10^(-4)" },
		{ 0x40, "50GBASE-CR, 100GBASE-CR2, or 200GBASE-CR4" },
		{ 0x41, "50GBASE-SR, 100GBASE-SR2, or 200GBASE-SR4" },
		{ 0x42, "50GBASE-FR or 200GBASE-DR4" },
		{ 0x43, "200GBASE-FR4" },
		{ 0x44, "200G 1550 nm PSM4" },
		{ 0x45, "50GBASE-LR" },
		{ 0x46, "200GBASE-LR4" },
	};

	return LOOKUP(t, code);
}

/* name and line rate (Mb/s, 0 where the code does not fix one) */
static const struct host_if {
	uint8_t code;
	const char *name;
	unsigned mbps;
} host_ifs[] = {
	{ 0x01, "1000BASE-CX", 1000 },      { 0x02, "XAUI", 10000 },
	{ 0x03, "XFI", 10000 },             { 0x04, "SFI", 10000 },
	{ 0x05, "25GAUI C2M", 25000 },      { 0x06, "XLAUI C2M", 40000 },
	{ 0x07, "XLPPI", 40000 },           { 0x08, "LAUI-2 C2M", 50000 },
	{ 0x09, "50GAUI-2 C2M", 50000 },    { 0x0a, "50GAUI-1 C2M", 50000 },
	{ 0x0b, "CAUI-4 C2M", 100000 },     { 0x0c, "100GAUI-4 C2M", 100000 },
	{ 0x0d, "100GAUI-2 C2M", 100000 },  { 0x0e, "200GAUI-8 C2M", 200000 },
	{ 0x0f, "200GAUI-4 C2M", 200000 },  { 0x10, "400GAUI-16 C2M", 400000 },
	{ 0x11, "400GAUI-8 C2M", 400000 },  { 0x13, "10GBASE-CX4", 10000 },
	{ 0x14, "25GBASE-CR CA-L", 25000 }, { 0x15, "25GBASE-CR CA-S", 25000 },
	{ 0x16, "25GBASE-CR CA-N", 25000 }, { 0x17, "40GBASE-CR4", 40000 },
	{ 0x18, "50GBASE-CR", 50000 },      { 0x19, "100GBASE-CR10", 100000 },
	{ 0x1a, "100GBASE-CR4", 100000 },   { 0x1b, "100GBASE-CR2", 100000 },
	{ 0x1c, "200GBASE-CR4", 200000 },   { 0x1d, "400G CR8", 400000 },
	{ 0x1e, "1000BASE-T", 1000 },       { 0x1f, "2.5GBASE-T", 2500 },
	{ 0x20, "5GBASE-T", 5000 },         { 0x21, "10GBASE-T", 10000 },
	{ 0x22, "25GBASE-T", 25000 },       { 0x23, "40GBASE-T", 40000 },
	{ 0x24, "50GBASE-T", 50000 },
	{ 0x4b, "100GAUI-1-S C2M", 100000 }, { 0x4c, "100GAUI-1-L C2M", 100000 },
	{ 0x4d, "200GAUI-2-S C2M", 200000 }, { 0x4e, "200GAUI-2-L C2M", 200000 },
	{ 0x4f, "400GAUI-4-S C2M", 400000 }, { 0x50, "400GAUI-4-L C2M", 400000 },
	{ 0x51, "800G S C2M", 800000 },      { 0x52, "800G L C2M", 800000 },
	/* InfiniBand: the rate depends on the lane count */
	{ 0x2c, "IB SDR", 0 }, { 0x2d, "IB DDR", 0 }, { 0x2e, "IB QDR", 0 }, { 0x2f, "IB FDR", 0 },
	{ 0x30, "IB EDR", 0 }, { 0x31, "IB HDR", 0 }, { 0x32, "IB NDR", 0 },
};

const char *mlx_mod_host_if_name(uint8_t code)
{
	for (size_t i = 0; i < sizeof(host_ifs) / sizeof(host_ifs[0]); i++)
		if (host_ifs[i].code == code)
			return host_ifs[i].name;
	return NULL;
}

unsigned mlx_mod_host_if_mbps(uint8_t code)
{
	for (size_t i = 0; i < sizeof(host_ifs) / sizeof(host_ifs[0]); i++)
		if (host_ifs[i].code == code)
			return host_ifs[i].mbps;
	return 0;
}

const char *mlx_mod_media_type_name(uint8_t type)
{
	static const char *const n[] = { NULL, "mmf", "smf", "passive_copper", "active_cable", "base_t" };

	return type < sizeof(n) / sizeof(n[0]) ? n[type] : NULL;
}

const char *mlx_mod_media_if_name(uint8_t type, uint8_t code)
{
	static const struct code mmf[] = {
		{ 0x01, "10GBASE-SW" }, { 0x02, "10GBASE-SR" }, { 0x03, "25GBASE-SR" },
		{ 0x04, "40GBASE-SR4" }, { 0x05, "40GE SWDM4" }, { 0x06, "40GE BiDi" },
		{ 0x07, "50GBASE-SR" }, { 0x08, "100GBASE-SR10" }, { 0x09, "100GBASE-SR4" },
		{ 0x0a, "100GE SWDM4" }, { 0x0b, "100GE BiDi" }, { 0x0c, "100GBASE-SR2" },
		{ 0x0d, "100G-SR" }, { 0x0e, "200GBASE-SR4" }, { 0x0f, "400GBASE-SR16" },
		{ 0x10, "400GBASE-SR8" }, { 0x11, "400G-SR4" }, { 0x12, "800G-SR8" },
		{ 0x1a, "400GBASE-SR4.2" },
	};
	static const struct code smf[] = {
		{ 0x01, "10GBASE-LW" }, { 0x02, "10GBASE-EW" }, { 0x03, "10G-ZW" },
		{ 0x04, "10GBASE-LR" }, { 0x05, "10GBASE-ER" }, { 0x06, "10G-ZR" },
		{ 0x07, "25GBASE-LR" }, { 0x08, "25GBASE-ER" }, { 0x09, "40GBASE-LR4" },
		{ 0x0a, "40GBASE-FR" }, { 0x0b, "50GBASE-FR" }, { 0x0c, "50GBASE-LR" },
		{ 0x0d, "100GBASE-LR4" }, { 0x0e, "100GBASE-ER4" }, { 0x0f, "100G PSM4" },
		{ 0x10, "100G CWDM4" }, { 0x11, "100G 4WDM-10" }, { 0x12, "100G 4WDM-20" },
		{ 0x13, "100G 4WDM-40" }, { 0x14, "100GBASE-DR" }, { 0x15, "100G-FR/100GBASE-FR1" },
		{ 0x16, "100G-LR/100GBASE-LR1" }, { 0x17, "200GBASE-DR4" }, { 0x18, "200GBASE-FR4" },
		{ 0x19, "200GBASE-LR4" }, { 0x1a, "400GBASE-FR8" }, { 0x1b, "400GBASE-LR8" },
		{ 0x1c, "400GBASE-DR4" }, { 0x1d, "400G-FR4/400GBASE-FR4" }, { 0x1e, "400G-LR4-10" },
		{ 0x3e, "400ZR, DWDM, amplified" }, { 0x3f, "400ZR, single wavelength, unamplified" },
		{ 0x46, "ZR400-OFEC-16QAM" }, { 0x47, "ZR300-OFEC-8QAM" }, { 0x48, "ZR200-OFEC-QPSK" },
		{ 0x49, "ZR100-OFEC-QPSK" },
	};
	static const struct code copper[] = { { 0x01, "copper cable" }, { 0x02, "passive loopback module" } };
	static const struct code active[] = {
		{ 0x01, "active cable, BER < 10^-12" }, { 0x02, "active cable, BER < 5x10^-5" },
		{ 0x03, "active cable, BER < 2.6x10^-4" }, { 0x04, "active cable, BER < 10^-6" },
		{ 0xbf, "active loopback module" },
	};
	static const struct code baset[] = {
		{ 0x01, "1000BASE-T" }, { 0x02, "2.5GBASE-T" }, { 0x03, "5GBASE-T" }, { 0x04, "10GBASE-T" },
	};

	switch (type) {
	case 1: return LOOKUP(mmf, code);
	case 2: return LOOKUP(smf, code);
	case 3: return LOOKUP(copper, code);
	case 4: return LOOKUP(active, code);
	case 5: return LOOKUP(baset, code);
	default: return NULL;
	}
}
