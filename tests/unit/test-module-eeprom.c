/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the module EEPROM decoders (lib/decode/sff8472.c,
 * sff8636.c, cmis.c, module-eeprom.c) on real dumps from
 * $FIXTURES/module: ethtool `hex on` tables, xxd of `raw on` files and the
 * page tables Junos prints.  Where the fixture holds ethtool's decode of
 * the same bytes, every field mlxcli decodes is compared with ethtool's
 * line; elsewhere with the values the fixture's .source states.  Every
 * decode runs on exactly-sized heap copies of each page, so a read past a
 * page trips ASan, and every prefix of every dump is decoded too.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "module-eeprom.h"
#include "module-fixtures.h"

/* Every prefix of a flat dump, and every page cut short, decodes without
 * reading past the bytes it was given (ASan) and with a clear code. */
static void decode_all_cuts(struct dump *d)
{
	struct mlx_mod_eeprom e;
	struct mlx_mod_info mi;
	char err[128];

	if (d->flat) {
		for (size_t n = 0; n <= d->flat_len; n++) {
			int rc;

			to_eeprom(d, n, &e);
			rc = mlx_mod_decode(&e, &mi, err, sizeof(err));
			assert_true(rc == 0 || rc == -ENODATA || rc == -EBADMSG || rc == -EPROTONOSUPPORT);
			if (n == 0)
				assert_int_equal(rc, -ENODATA);
			dump_free(d);
		}
		return;
	}
	for (int i = 0; i < d->npages; i++) {
		for (unsigned cut = 0; cut < 256; cut += 7) {
			bool save[256];

			memcpy(save, d->pg[i].have, sizeof(save));
			for (unsigned k = cut; k < 256; k++)
				d->pg[i].have[k] = false;
			to_eeprom(d, 0, &e);
			(void)mlx_mod_decode(&e, &mi, err, sizeof(err));
			memcpy(d->pg[i].have, save, sizeof(save));
			dump_free(d);
		}
	}
}

static int decode(struct dump *d, struct mlx_mod_info *mi)
{
	struct mlx_mod_eeprom e;
	char err[128] = "";
	int rc;

	to_eeprom(d, d->flat_len, &e);
	rc = mlx_mod_decode(&e, mi, err, sizeof(err));
	if (rc)
		fprintf(stderr, "# decode: %d %s\n", rc, err);
	dump_free(d);
	return rc;
}

/* ---- SFF-8472 ------------------------------------------------------------ */

#define MIKROTIK "sfp-plus-aoc-mikrotik-S+AO0005-ethtool-m-decoded-and-hex-512B-amd-xgbe.txt"

static void test_sff8472_mikrotik_equals_ethtool(void **state)
{
	struct dump d;
	struct mlx_mod_info mi;

	(void)state;
	if (!load_dump(MIKROTIK, "hex on", NULL, &d))
		skip();
	assert_int_equal(d.flat_len, 512);
	assert_int_equal(decode(&d, &mi), 0);
	assert_int_equal(mi.std, MLX_MOD_SFF8472);
	expect_line(MIKROTIK, NULL, "Identifier", "0x%02x (%s)", mi.identifier, mlx_mod_identifier_name(mi.identifier));
	expect_line(MIKROTIK, NULL, "Connector", "0x%02x (%s)", mi.connector, mlx_mod_connector_name(mi.connector));
	expect_line(MIKROTIK, NULL, "Vendor name", "%s", mi.vendor);
	expect_line(MIKROTIK, NULL, "Vendor OUI", "%02x:%02x:%02x", mi.oui[0], mi.oui[1], mi.oui[2]);
	expect_line(MIKROTIK, NULL, "Vendor PN", "%s", mi.part_number);
	expect_line(MIKROTIK, NULL, "Vendor rev", "%s", mi.revision);
	expect_line(MIKROTIK, NULL, "Vendor SN", "%s", mi.serial);
	expect_line(MIKROTIK, NULL, "Date code", "%s", mi.date_code);
	expect_line(MIKROTIK, NULL, "BR, Nominal", "%uMBd", mi.nominal_mbd);
	expect_line(MIKROTIK, NULL, "Length (Copper)", "%um", mi.length_copper_m);
	expect_line(MIKROTIK, NULL, "Length (50um)", "%um", mi.length_om2_m);
	expect_line(MIKROTIK, NULL, "Length (62.5um)", "%um", mi.length_om1_m);
	expect_line(MIKROTIK, NULL, "Length (OM3)", "%um", mi.length_om3_m);
	/* issue 25: what ethtool shows and mlxcli omitted */
	assert_true(mi.encoding_valid);
	expect_line(MIKROTIK, NULL, "Encoding", "0x%02x (%s)", mi.encoding,
		    mlx_mod_encoding_name(mi.std, mi.encoding));
	/* byte 92 = 0x00: no diagnostics, and ethtool prints none */
	assert_false(mi.dom);
	assert_null(ethtool_line(MIKROTIK, NULL, "Module temperature"));
	assert_true(mi.cc_checked && mi.cc_base_ok && mi.cc_ext_ok);
	load_dump(MIKROTIK, "hex on", NULL, &d);
	decode_all_cuts(&d);
}

#define FINISAR_SFP28 "sfp28-finisar-FTLF8536P4BCL-ethtool-m-raw-on-512B-bin-dentos-prestera.xxd.txt"

static void test_sff8472_finisar_diagnostics(void **state)
{
	struct dump d;
	struct mlx_mod_info mi;

	(void)state;
	if (!load_dump(FINISAR_SFP28, NULL, "hexdump version", &d))
		skip();
	assert_int_equal(d.flat_len, 512);
	assert_int_equal(decode(&d, &mi), 0);
	assert_string_equal(mi.vendor, "FINISAR CORP.");
	assert_string_equal(mi.part_number, "FTLF8536P4BCL");
	assert_string_equal(mi.serial, "UUH20FL");
	assert_string_equal(mi.date_code, "160212");
	assert_int_equal(mi.wavelength_nm, 850);
	/* the values the .source reads out of A2h: 0x26f1, 0x83b6, 0x0051,
	 * 0x0000, 0x0ac6; internally calibrated (A0h byte 92 = 0x68) */
	assert_true(mi.dom);
	assert_int_equal(mi.nlanes, 1);
	expect_near(mi.temperature_c.v, 0x26f1 / 256.0, 1e-9);
	expect_near(mi.voltage_v.v, 3.3718, 1e-9);
	expect_near(mi.lane[0].bias_ma.v, 0.162, 1e-9);
	expect_near(mi.lane[0].tx_power_mw.v, 0.0, 1e-9);
	expect_near(mi.lane[0].rx_power_mw.v, 0.2758, 1e-9);
	/* thresholds A2h 0-39: temperature 75 / -5 / 70 / 0 C */
	expect_near(mi.temperature_th.high_alarm, 75.0, 1e-9);
	expect_near(mi.temperature_th.low_alarm, -5.0, 1e-9);
	expect_near(mi.temperature_th.high_warning, 70.0, 1e-9);
	expect_near(mi.voltage_th.high_alarm, 3.6, 1e-9);
	/* Tx power 0 is below its low alarm: the flags (A2h 112) say so */
	assert_true(mi.lane[0].tx_power_mw.flags_valid);
	/* A2h byte 110's Rx_LOS and TX_Fault states, where A0h byte 93 bits
	 * 4 and 5 say they are monitored (the only lane flags SFF-8472 has) */
	assert_int_equal(mi.lane[0].flag[MLX_MOD_RX_LOS],
			 (d.flatbuf[93] & 0x10) ? (d.flatbuf[256 + 110] >> 1 & 1) : -1);
	assert_int_equal(mi.lane[0].flag[MLX_MOD_TX_FAULT],
			 (d.flatbuf[93] & 0x20) ? (d.flatbuf[256 + 110] >> 2 & 1) : -1);
	assert_int_equal(mi.lane[0].flag[MLX_MOD_TX_LOS], -1);
	assert_int_equal(mi.lane[0].flag[MLX_MOD_RX_LOL], -1);
	assert_int_equal(mi.lane[0].flag[MLX_MOD_TX_LOL], -1);
	/* the laser runs (bias 0.162 mA): a Tx power of 0 is the module's
	 * alarm, not a laser switched off */
	assert_int_equal(mlx_mod_lane_level(&mi.lane[0], &mi.lane[0].tx_power_mw, &mi.tx_power_th, false),
			 mlx_mod_value_level(&mi.lane[0].tx_power_mw, &mi.tx_power_th));
	assert_int_equal(mlx_mod_value_level(&mi.temperature_c, &mi.temperature_th), MLX_MOD_OK);
	load_dump(FINISAR_SFP28, NULL, "hexdump version", &d);
	decode_all_cuts(&d);
}

#define INTEL_SFP "sfp-plus-10g-sr-intel-E10GSFPSRX-FTLX8574D3BNL-hex-ice-correct-vs-bnxt-corrupted.txt"

static void test_sff8472_intel_correct_and_corrupted(void **state)
{
	struct dump d;
	struct mlx_mod_info mi;

	(void)state;
	if (!load_dump(INTEL_SFP, "E810 + ice", NULL, &d))
		skip();
	assert_int_equal(decode(&d, &mi), 0);
	assert_string_equal(mi.vendor, "Intel Corp");
	assert_string_equal(mi.part_number, "FTLX8574D3BNL-IT");
	assert_string_equal(mi.date_code, "200706");
	assert_true(mi.dom);
	/* the bnxt_en dump: A2h bytes where A0h should be; byte 0 still reads
	 * 0x03, so only the checksums can tell: a clear -EBADMSG */
	assert_true(load_dump(INTEL_SFP, "bnxt_en (corrupted)", "E810 + ice", &d));
	assert_int_equal(d.flat_len, 256);
	assert_int_equal(decode(&d, &mi), -EBADMSG);
	assert_true(mi.cc_checked);
	assert_false(mi.cc_base_ok && mi.cc_ext_ok);
	load_dump(INTEL_SFP, "E810 + ice", NULL, &d);
	decode_all_cuts(&d);
}

/* ---- SFF-8636 ------------------------------------------------------------ */

#define CWDM4_UP "qsfp28-cwdm4-finisar-FTLC1152RGPL6-FB-upper-page00h-128B.xxd.txt"
#define CWDM4_DEC "qsfp28-cwdm4-finisar-FTLC1152RGPL6-FB-cx4-mlx5-ethtool-m-full-dom-flags-before-after-oui-reprogram.txt"
#define CWDM4_FROM "Full ethtool -m ens16f1np1"

/* an upper page 00h alone (offsets 0x00-0x7f of the file = bytes 128-255) */
static void upper_only(struct dump *d)
{
	uint8_t b[128];

	assert_true(d->flat && d->flat_len == 128);
	memcpy(b, d->flatbuf, 128);
	d->flat = false;
	d->npages = 1;
	d->pg[0].page = 0;
	memcpy(d->pg[0].b + 128, b, 128);
	for (int i = 128; i < 256; i++)
		d->pg[0].have[i] = true;
}

static void test_sff8636_cwdm4_equals_ethtool(void **state)
{
	struct dump d;
	struct mlx_mod_info mi;

	(void)state;
	if (!load_dump(CWDM4_UP, NULL, NULL, &d))
		skip();
	upper_only(&d);
	assert_int_equal(decode(&d, &mi), 0);
	assert_int_equal(mi.std, MLX_MOD_SFF8636);
	expect_line(CWDM4_DEC, CWDM4_FROM, "Identifier", "0x%02x (%s)", mi.identifier,
		    mlx_mod_identifier_name(mi.identifier));
	expect_line(CWDM4_DEC, CWDM4_FROM, "Extended identifier", "0x%02x", mi.ext_identifier);
	expect_line(CWDM4_DEC, CWDM4_FROM, "Connector", "0x%02x (%s)", mi.connector,
		    mlx_mod_connector_name(mi.connector));
	expect_line(CWDM4_DEC, CWDM4_FROM, "Vendor name", "%s", mi.vendor);
	expect_line(CWDM4_DEC, CWDM4_FROM, "Vendor OUI", "%02x:%02x:%02x", mi.oui[0], mi.oui[1], mi.oui[2]);
	expect_line(CWDM4_DEC, CWDM4_FROM, "Vendor PN", "%s", mi.part_number);
	expect_line(CWDM4_DEC, CWDM4_FROM, "Vendor rev", "%s", mi.revision);
	expect_line(CWDM4_DEC, CWDM4_FROM, "Vendor SN", "%s", mi.serial);
	expect_line(CWDM4_DEC, CWDM4_FROM, "Date code", "%s", mi.date_code);
	/* the one field where we differ on purpose: byte 140 is 0xff, which
	 * SFF-8636 table 6-16 defines as "see byte 222, in 250 Mb/s units"
	 * (0x68: 26000); ethtool prints the escape value itself, 255 x 100 */
	assert_int_equal(mi.nominal_mbd, 0x68 * 250);
	expect_line(CWDM4_DEC, CWDM4_FROM, "BR, Nominal", "%uMbps", 0xffu * 100);
	expect_line(CWDM4_DEC, CWDM4_FROM, "Length (SMF,km)", "%ukm", mi.length_smf_m / 1000);
	expect_line(CWDM4_DEC, CWDM4_FROM, "Length (OM3 50um)", "%um", mi.length_om3_m);
	expect_line(CWDM4_DEC, CWDM4_FROM, "Length (OM2 50um)", "%um", mi.length_om2_m);
	expect_line(CWDM4_DEC, CWDM4_FROM, "Length (OM1 62.5um)", "%um", mi.length_om1_m);
	expect_line(CWDM4_DEC, CWDM4_FROM, "Laser wavelength", "%.3fnm", mi.wavelength_nm);
	/* issue 25: what ethtool shows and mlxcli omitted: the tolerance, the
	 * encoding (ethtool's text has a doubled '(' for code 7), the power
	 * class and the CDRs of the extended identifier */
	expect_line(CWDM4_DEC, CWDM4_FROM, "Laser wavelength tolerance", "%.3fnm", mi.wavelength_tol_nm);
	expect_line(CWDM4_DEC, CWDM4_FROM, "Encoding", "0x%02x (%s%s)", mi.encoding,
		    mi.encoding == 7 ? "(" : "", mlx_mod_encoding_name(mi.std, mi.encoding));
	assert_int_equal(mi.power_class, 4);
	expect_near(mi.max_power_w, 3.5, 1e-9);
	assert_int_equal(mi.cdr_tx, 1);
	assert_int_equal(mi.cdr_rx, 1);
	{
		/* ethtool's three description lines, in its words */
		char *p = fixture_path(CWDM4_DEC), line[256];
		FILE *f = p ? fopen(p, "r") : NULL;
		char want[3][96];
		int n = 0, found = 0;

		snprintf(want[0], sizeof(want[0]), "%.1fW max. Power consumption", mi.max_power_w);
		snprintf(want[1], sizeof(want[1]), "%s in TX, %s in RX",
			 mi.cdr_tx ? "CDR present" : "No CDR", mi.cdr_rx ? "CDR present" : "No CDR");
		snprintf(want[2], sizeof(want[2]), "High Power Class (> 3.5 W) %s",
			 mi.power_class <= 4 ? "not enabled" : "enabled");
		assert_non_null(f);
		while (fgets(line, sizeof(line), f) && n < 3) {
			const char *c = strstr(line, "Extended identifier description");

			if (!c || !(c = strchr(c, ':')))
				continue;
			c += 2;
			line[strcspn(line, "\n")] = '\0';
			print_message("ethtool: %s / mlxcli: %s\n", c, want[n]);
			found += !strcmp(c, want[n]);
			n++;
		}
		fclose(f);
		assert_int_equal(found, 3);
	}
	assert_true(mi.cc_base_ok && mi.cc_ext_ok);
	/* no lower page: no live values, and no guess at them */
	assert_false(mi.dom);
	assert_false(mi.temperature_c.valid);
	load_dump(CWDM4_UP, NULL, NULL, &d);
	upper_only(&d);
	decode_all_cuts(&d);
}

#define FIVE_UP "qsfp28-cwdm4-5-modules-finisar-innolight-intel-kaiam-upper-page00h-128B.xxd.txt"

static void test_sff8636_five_upper_pages(void **state)
{
	static const char *const vendor[] = { "FINISAR CORP.", "INNOLIGHT", "INNOLIGHT", NULL };
	struct mlx_mod_info mi;
	char *p = fixture_path(FIVE_UP), line[256];
	FILE *f = p ? fopen(p, "r") : NULL;
	int k = 0;

	(void)state;
	if (!f)
		skip();
	/* each "== programmings/NAME.bin" section is one module's page 00h */
	while (fgets(line, sizeof(line), f)) {
		struct dump d;

		if (strncmp(line, "== ", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		assert_true(load_dump(FIVE_UP, line, "== ", &d));
		upper_only(&d);
		assert_int_equal(decode(&d, &mi), 0);
		assert_int_equal(mi.identifier, 0x11);
		assert_true(mi.cc_base_ok && mi.cc_ext_ok);
		if (k < 3 && vendor[k])
			assert_string_equal(mi.vendor, vendor[k]);
		assert_true(mi.part_number[0] != '\0');
		k++;
	}
	fclose(f);
	assert_int_equal(k, 5);
}

#define ER4 "sff8636-qsfp28-er4-qsfptek-QT-QSFP28-ER4-junos-show-qsfp-info-lower-upper00-page03.txt"

static void test_sff8636_er4_paged(void **state)
{
	struct dump d;
	struct mlx_mod_info mi;

	(void)state;
	if (!load_dump(ER4, "QSFP IDEEPROM", NULL, &d))
		skip();
	assert_int_equal(d.npages, 2);
	assert_int_equal(decode(&d, &mi), 0);
	assert_string_equal(mi.vendor, "QSFPTEK");
	assert_string_equal(mi.part_number, "QT-QSFP28-ER4");
	assert_string_equal(mi.serial, "QT14241028004");
	assert_int_equal(mi.ext_identifier, 0xfc);
	/* .source: temperature 0x2356 = 35.34 C, Vcc 0x822b = 3.3323 V */
	expect_near(mi.temperature_c.v, 0x2356 / 256.0, 1e-9);
	expect_near(mi.voltage_v.v, 3.3323, 1e-9);
	assert_int_equal(mi.nlanes, 4);
	/* lane 1 rx power word at 0x22: 0x0063, bias at 0x2a: 0x8014 */
	expect_near(mi.lane[0].rx_power_mw.v, 0x0063 / 10000.0, 1e-9);
	expect_near(mi.lane[0].bias_ma.v, 0x8014 * 2 / 1000.0, 1e-9);
	/* page 03h: the thresholds (0x80-0xc7) */
	assert_true(mi.temperature_th.valid);
	expect_near(mi.temperature_th.high_alarm, 75.0, 1e-9);
	expect_near(mi.voltage_th.high_alarm, 0x8dcc / 10000.0, 1e-9);
	/* issue 25: the lane flags (lower bytes 3-5: 0x0f, 0x00, 0x0f, the
	 * receivers' LOS and CDR loss of lock on every lane) as ethtool
	 * reads them: page 00h byte 194 = 0x3f (Tx and Rx LOL implemented),
	 * 195 = 0xd6 (Tx LOS implemented, which stands for Rx LOS too; Tx
	 * fault not implemented) */
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(mi.lane[i].flag[MLX_MOD_RX_LOS], 1);
		assert_int_equal(mi.lane[i].flag[MLX_MOD_TX_LOS], 0);
		assert_int_equal(mi.lane[i].flag[MLX_MOD_RX_LOL], 1);
		assert_int_equal(mi.lane[i].flag[MLX_MOD_TX_LOL], 0);
		assert_int_equal(mi.lane[i].flag[MLX_MOD_TX_FAULT], -1);
	}
	/* 129 = 0xfc: classes 1-4 bits 11 (3.5 W), class 8 bit 5 but byte 107
	 * holds no power (0): class 4; CDRs in Tx and Rx.  139: NRZ.
	 * 188-189 = 0x061e: tolerance 1566 / 200 nm */
	assert_int_equal(mi.power_class, 4);
	assert_int_equal(mi.cdr_tx, 1);
	assert_int_equal(mi.cdr_rx, 1);
	assert_string_equal(mlx_mod_encoding_name(mi.std, mi.encoding), "NRZ");
	expect_near(mi.wavelength_tol_nm, 0x061e / 200.0, 1e-9);
	assert_int_equal(mi.length_om1_m, 0);
	load_dump(ER4, "QSFP IDEEPROM", NULL, &d);
	decode_all_cuts(&d);
}

/* ---- CMIS ---------------------------------------------------------------- */

#define CIG "cmis4-qsfp-dd-400g-cig-TRD5H20ENF-LF000-junos-eeprom-pages-00-01-02-10-11.txt"
#define EOPTO "cmis5-qsfp-dd-400g-eoptolink-EOLD-168HG-10-1-junos-eeprom-pages-00-01-02-03-10-11.txt"
#define ZR "cmis4.1-qsfp-dd-400zr-plus-module-fault-junos-picd-info-decoded-and-eeprom-pages.txt"
#define CMIS1E "cmis-qsfp-1e-five-modules-ethtool-m-hex-lower-page-128B.txt"

static void test_cmis4_cig(void **state)
{
	struct dump d;
	struct mlx_mod_info mi;

	(void)state;
	if (!load_dump(CIG, NULL, NULL, &d))
		skip();
	assert_int_equal(decode(&d, &mi), 0);
	assert_int_equal(mi.std, MLX_MOD_CMIS);
	assert_int_equal(mi.identifier, 0x18);
	assert_int_equal(mi.cmis_rev, 0x40);
	assert_int_equal(mi.module_state, 3);   /* byte 3 = 0x07: ModuleReady */
	assert_string_equal(mi.vendor, "CIG");
	assert_true(!strncmp(mi.part_number, "TRD5H20ENF-LF000", 16));
	expect_near(mi.temperature_c.v, 0x2fb8 / 256.0, 1e-9);
	expect_near(mi.voltage_v.v, 0x811f / 10000.0, 1e-9);
	assert_true(mi.cc_base_ok);
	assert_true(mi.temperature_th.valid);
	assert_int_equal(mi.nlanes, 8);
	assert_true(mi.lane[0].tx_power_mw.valid);
	/* issue 25: page 00h 200 = 0xa0 (class 6), 201 = 0x30 (12 W); page
	 * 01h 157 = 0x07, 158 = 0x06 (every lane flag implemented), 161 =
	 * 0x5d, 162 = 0x3d (CDRs in Tx and Rx), 140-141 = 0x0514 (6.5 nm);
	 * page 11h 135-137 and 147-148 all 0: no lane flag raised */
	assert_int_equal(mi.power_class, 6);
	expect_near(mi.max_power_w, 12.0, 1e-9);
	assert_int_equal(mi.cdr_tx, 1);
	assert_int_equal(mi.cdr_rx, 1);
	expect_near(mi.wavelength_tol_nm, 6.5, 1e-9);
	assert_int_equal(mi.length_om4_m, 0);
	for (unsigned i = 0; i < 8; i++)
		for (unsigned f = 0; f < MLX_MOD_NFLAGS; f++)
			assert_int_equal(mi.lane[i].flag[f], 0);
	load_dump(CIG, NULL, NULL, &d);
	decode_all_cuts(&d);
}

static void test_cmis5_eoptolink_lanes(void **state)
{
	struct dump d;
	struct mlx_mod_info mi;

	(void)state;
	if (!load_dump(EOPTO, NULL, NULL, &d))
		skip();
	assert_int_equal(decode(&d, &mi), 0);
	assert_int_equal(mi.cmis_rev, 0x50);
	assert_string_equal(mi.vendor, "Eoptolink");
	expect_near(mi.temperature_c.v, 0x31be / 256.0, 1e-9);
	expect_near(mi.voltage_v.v, 0x8195 / 10000.0, 1e-9);
	assert_int_equal(mi.nlanes, 8);
	/* .source: 8 live lanes, Tx about 1.49-1.72 mW, Rx 1.82-2.64 mW */
	for (unsigned i = 0; i < 8; i++) {
		assert_true(mi.lane[i].tx_power_mw.v > 1.48 && mi.lane[i].tx_power_mw.v < 1.73);
		assert_true(mi.lane[i].rx_power_mw.v > 1.81 && mi.lane[i].rx_power_mw.v < 2.65);
		assert_int_equal(mlx_mod_value_level(&mi.lane[i].rx_power_mw, &mi.rx_power_th), MLX_MOD_OK);
	}
	load_dump(EOPTO, NULL, NULL, &d);
	decode_all_cuts(&d);
}

static void test_cmis41_zr_matches_junos_decode(void **state)
{
	struct dump d;
	struct mlx_mod_info mi;
	const char *v;

	(void)state;
	if (!load_dump(ZR, "QSFP-DD Lower Page", NULL, &d))
		skip();
	assert_true(d.npages > 10);
	assert_int_equal(decode(&d, &mi), 0);
	/* Junos: "CMIS version : 0x41" */
	v = ethtool_line(ZR, NULL, "CMIS version");
	assert_non_null(v);
	assert_int_equal(mi.cmis_rev, strtoul(v, NULL, 16));
	/* lower byte 3 = 0x02: ModuleLowPwr, as the .source notes */
	assert_int_equal(mi.module_state, 1);
	load_dump(ZR, "QSFP-DD Lower Page", NULL, &d);
	decode_all_cuts(&d);
}

static void test_cmis_lower_page_only(void **state)
{
	static const unsigned temp[] = { 0x356a, 0x30ba, 0x2f57 };
	struct mlx_mod_info mi;

	(void)state;
	for (unsigned k = 0; k < 3; k++) {
		char from[64];
		struct dump d;

		snprintf(from, sizeof(from), "cmis-qsfp-plus-lower-page-%c/", 'a' + k);
		if (!load_dump(CMIS1E, from, "== ", &d))
			skip();
		assert_int_equal(d.flat_len, 128);
		assert_int_equal(decode(&d, &mi), 0);
		assert_int_equal(mi.identifier, 0x1e);
		assert_false(mi.identity_valid);
		expect_near(mi.temperature_c.v, temp[k] / 256.0, 1e-9);
		assert_false(mi.temperature_th.valid);
		assert_int_equal(mlx_mod_value_level(&mi.temperature_c, &mi.temperature_th),
				 mi.temperature_c.flags_valid ? MLX_MOD_OK : MLX_MOD_LEVEL_UNKNOWN);
		load_dump(CMIS1E, from, "== ", &d);
		decode_all_cuts(&d);
	}
}

/* ---- what to read, unknown identifiers, flat memory ----------------------- */

static void test_pages_wanted(void **state)
{
	uint8_t lower[128] = { 0 };
	struct mlx_mod_want w[8];

	(void)state;
	lower[0] = 0x03;
	assert_int_equal(mlx_mod_pages_wanted(lower, w, 8), 0);   /* no DOM */
	lower[92] = 0x40;
	assert_int_equal(mlx_mod_pages_wanted(lower, w, 8), 1);
	assert_int_equal(w[0].i2c, MLX_MOD_I2C_A2);
	lower[0] = 0x11;
	assert_int_equal(mlx_mod_pages_wanted(lower, w, 8), 2);
	assert_int_equal(w[1].page, 3);
	lower[2] = 0x04;                                           /* flat */
	assert_int_equal(mlx_mod_pages_wanted(lower, w, 8), 1);
	lower[0] = 0x18;
	lower[2] = 0;
	assert_int_equal(mlx_mod_pages_wanted(lower, w, 8), 4);
	assert_int_equal(w[3].page, 0x11);
	assert_int_equal(mlx_mod_pages_wanted(lower, w, 2), 2);    /* bounded */
	lower[2] = 0x80;                                           /* flat */
	assert_int_equal(mlx_mod_pages_wanted(lower, w, 8), 1);
	lower[0] = 0x99;
	assert_int_equal(mlx_mod_pages_wanted(lower, w, 8), 0);
}

static void test_unknown_and_empty(void **state)
{
	uint8_t *b = calloc(1, 256);
	struct mlx_mod_eeprom e;
	struct mlx_mod_info mi;
	char err[128];

	(void)state;
	assert_non_null(b);
	memset(&e, 0, sizeof(e));
	assert_int_equal(mlx_mod_decode(&e, &mi, err, sizeof(err)), -ENODATA);
	assert_int_equal(mlx_mod_from_flat(&e, b, 256), 0);
	assert_int_equal(mlx_mod_decode(&e, &mi, err, sizeof(err)), -EPROTONOSUPPORT);
	assert_non_null(strstr(err, "no module"));
	b[0] = 0x99;
	assert_int_equal(mlx_mod_decode(&e, &mi, err, sizeof(err)), -EPROTONOSUPPORT);
	assert_int_equal(mi.identifier, 0x99);
	assert_non_null(strstr(err, "0x99"));
	assert_int_equal(mlx_mod_add(&e, 0x50, 0, 0, 200, 100, b), -EINVAL);
	free(b);
}

/* A CMIS module that says it is flat (passive copper) is decoded from its
 * lower page and page 00h only, even when other pages were handed in. */
static void test_cmis_flat_ignores_pages(void **state)
{
	struct dump d;
	struct mlx_mod_info mi;

	(void)state;
	if (!load_dump(EOPTO, NULL, NULL, &d))
		skip();
	d.pg[0].b[2] |= 0x80;
	assert_int_equal(decode(&d, &mi), 0);
	assert_true(mi.flat_memory);
	assert_int_equal(mi.nlanes, 0);
	assert_false(mi.temperature_th.valid);
	assert_false(mi.temperature_c.valid);
}

/* ---- what the module is for: SFF-8024 codes ------------------------------ */

/* SFF-8636 byte 147 and 192 against ethtool's decode of the same bytes. */
static void test_sff8636_tech_and_compliance(void **state)
{
	struct dump d;
	struct mlx_mod_info mi;

	(void)state;
	if (!load_dump(CWDM4_UP, NULL, NULL, &d))
		skip();
	upper_only(&d);
	assert_int_equal(decode(&d, &mi), 0);
	assert_true(mi.tx_tech_valid && mi.ext_compliance_valid);
	expect_line(CWDM4_DEC, CWDM4_FROM, "Transmitter technology", "0x%02x (%s)", mi.tx_tech,
		    mlx_mod_tx_tech_name(mi.std, mi.tx_tech));
	/* ethtool: "100G Ethernet: " and the SFF-8024 table 4-4 name */
	expect_line(CWDM4_DEC, CWDM4_FROM, "Transceiver type", "100G Ethernet: %s",
		    mlx_mod_ext_compliance_name(mi.ext_compliance));
	/* the ER4 (.source: QT-QSFP28-ER4): 0x04, a 1310 nm DFB */
	if (!load_dump(ER4, "QSFP IDEEPROM", NULL, &d))
		skip();
	assert_int_equal(decode(&d, &mi), 0);
	assert_int_equal(mi.ext_compliance, 0x04);
	assert_string_equal(mlx_mod_ext_compliance_name(mi.ext_compliance), "100G Base-ER4");
	assert_string_equal(mlx_mod_tx_tech_name(mi.std, mi.tx_tech), "1310 nm DFB");
	assert_null(mlx_mod_ext_compliance_name(0x0a));   /* reserved */
}

/* CMIS applications (lower 86-117, page 01h 223-250), on the ZR+ (two,
 * .source: a 400ZR/ZR+ coherent module) and the Eoptolink (nine, the
 * ninth from page 01h); media interface technology from page 00h 212. */
static void test_cmis_applications(void **state)
{
	struct dump d;
	struct mlx_mod_info mi;

	(void)state;
	if (!load_dump(ZR, "QSFP-DD Lower Page", NULL, &d))
		skip();
	assert_int_equal(decode(&d, &mi), 0);
	assert_string_equal(mlx_mod_media_type_name(mi.media_type), "smf");
	assert_int_equal(mi.napps, 2);
	assert_string_equal(mlx_mod_host_if_name(mi.app[0].host_id), "400GAUI-8 C2M");
	assert_int_equal(mlx_mod_host_if_mbps(mi.app[0].host_id), 400000);
	assert_string_equal(mlx_mod_media_if_name(mi.media_type, mi.app[0].media_id), "400ZR, DWDM, amplified");
	assert_int_equal(mi.app[0].host_lanes, 8);
	assert_int_equal(mi.app[0].media_lanes, 1);
	assert_string_equal(mlx_mod_host_if_name(mi.app[1].host_id), "100GAUI-2 C2M");
	assert_int_equal(mi.app[1].host_lanes, 2);
	assert_int_equal(mi.app[1].host_lane_options, 0x55);
	assert_int_equal(mi.nbanks, 1);
	assert_int_equal(mi.tx_tech, 0x05);
	if (!load_dump(EOPTO, NULL, NULL, &d))
		skip();
	assert_int_equal(decode(&d, &mi), 0);
	assert_int_equal(mi.napps, 9);
	assert_int_equal(mi.app[8].host_id, 0x52);
	assert_int_equal(mi.app[8].host_lanes, 8);
	assert_string_equal(mlx_mod_host_if_name(mi.app[0].host_id), "400GAUI-4-S C2M");
	assert_string_equal(mlx_mod_media_if_name(mi.media_type, mi.app[0].media_id), "400G-LR4-10");
	/* an LR4-10 (1310 nm) is an EML, as the Arista 400G-XDR4's ethtool
	 * decode says of the same code */
	assert_string_equal(mlx_mod_tx_tech_name(mi.std, mi.tx_tech), "1310 nm EML");
	assert_string_equal(ethtool_line("qsfp-dd-cmis4-arista-QDD-400G-XDR4-ethtool-m-full-8lane-dom-flags-"
					 "thresholds.txt", NULL, "Transmitter technology"), "0x06 (1310 nm EML)");
}

/* Banks beyond 0 (page 01h byte 142): the module says banks 0-1, bank 1's
 * page 11h is asked for and its lanes are 9-16; a bank not read leaves
 * its lanes out. */
static void test_cmis_banks(void **state)
{
	struct dump d;
	struct mlx_mod_eeprom e;
	struct mlx_mod_info mi;
	struct mlx_mod_want w[4];
	char err[128];
	int p1 = -1, p11 = -1;

	(void)state;
	if (!load_dump(EOPTO, NULL, NULL, &d))
		skip();
	for (int i = 0; i < d.npages; i++) {
		if (d.pg[i].page == 1)
			p1 = i;
		if (d.pg[i].page == 0x11)
			p11 = i;
	}
	assert_true(p1 >= 0 && p11 >= 0);
	to_eeprom(&d, 0, &e);
	assert_int_equal(mlx_mod_banks_wanted(&e, w, 4), 0);
	dump_free(&d);
	d.pg[p1].b[142] = (uint8_t)((d.pg[p1].b[142] & ~0x03) | 0x01);
	/* bank 1 reads like bank 0 but for lane 1's Rx power */
	d.pg[p11].b[186] ^= 0x10;
	to_eeprom(&d, 0, &e);
	d.pg[p11].b[186] ^= 0x10;
	assert_int_equal(mlx_mod_banks_wanted(&e, w, 4), 1);
	assert_int_equal(w[0].bank, 1);
	assert_int_equal(w[0].page, 0x11);
	assert_int_equal(w[0].offset, 128);
	assert_int_equal(mlx_mod_decode(&e, &mi, err, sizeof(err)), 0);
	assert_int_equal(mi.nbanks, 2);
	assert_int_equal(mi.nlanes, 8);               /* bank 1 not read yet */
	assert_int_equal(mlx_mod_add(&e, MLX_MOD_I2C_A0, 1, 0x11, 128, 128, heap_copy(&d, d.pg[p11].b + 128, 128)),
			 0);
	assert_int_equal(mlx_mod_decode(&e, &mi, err, sizeof(err)), 0);
	assert_int_equal(mi.nlanes, 16);
	expect_near(mi.lane[8].bias_ma.v, mi.lane[0].bias_ma.v, 1e-12);
	assert_true(mi.lane[8].rx_power_mw.v != mi.lane[0].rx_power_mw.v);
	expect_near(mi.lane[15].tx_power_mw.v, mi.lane[7].tx_power_mw.v, 1e-12);
	dump_free(&d);
}

/* A lane at 0 (issue 25): "laser off" / "no light", not ok beside "alarm
 * below 5.492", unless the module raises the alarm itself. */
static void test_lane_dark(void **state)
{
	struct mlx_mod_lane l;
	struct mlx_mod_thresh t = { true, 15.0, 5.492, 12.0, 6.0 };

	(void)state;
	memset(&l, 0, sizeof(l));
	l.bias_ma = (struct mlx_mod_value){ .valid = true, .v = 0, .flags_valid = true };
	l.tx_power_mw = (struct mlx_mod_value){ .valid = true, .v = 0, .flags_valid = true };
	l.rx_power_mw = (struct mlx_mod_value){ .valid = true, .v = 0, .flags_valid = true };
	assert_int_equal(mlx_mod_lane_level(&l, &l.bias_ma, &t, false), MLX_MOD_OFF);
	assert_int_equal(mlx_mod_lane_level(&l, &l.tx_power_mw, &t, false), MLX_MOD_OFF);
	assert_int_equal(mlx_mod_lane_level(&l, &l.rx_power_mw, &t, true), MLX_MOD_OFF);
	assert_string_equal(mlx_mod_level_name(MLX_MOD_OFF), "off");
	/* no flags: the thresholds would say alarm; the 0 says off */
	l.bias_ma.flags_valid = false;
	assert_int_equal(mlx_mod_lane_level(&l, &l.bias_ma, &t, false), MLX_MOD_OFF);
	/* the module's own alarm wins */
	l.bias_ma.flags_valid = true;
	l.bias_ma.low_alarm = true;
	assert_int_equal(mlx_mod_lane_level(&l, &l.bias_ma, &t, false), MLX_MOD_ALARM);
	/* a laser with bias is no laser off: 0 Tx power is the thresholds' */
	l.bias_ma.low_alarm = false;
	l.bias_ma.v = 7.0;
	l.tx_power_mw.flags_valid = false;
	assert_int_equal(mlx_mod_lane_level(&l, &l.tx_power_mw, &t, false), MLX_MOD_ALARM);
	/* light: ok */
	l.rx_power_mw.v = 0.8;
	assert_int_equal(mlx_mod_lane_level(&l, &l.rx_power_mw, &(struct mlx_mod_thresh){ true, 2, 0.01,
							     1.5, 0.02 }, true), MLX_MOD_OK);
	/* off is not worse than ok in a verdict */
	assert_true(MLX_MOD_OFF < MLX_MOD_OK && MLX_MOD_OFF > MLX_MOD_LEVEL_UNKNOWN);
	assert_string_equal(mlx_mod_flag_key(MLX_MOD_TX_LOL), "tx_lol");
	assert_string_equal(mlx_mod_flag_text(MLX_MOD_RX_LOS), "Rx loss of signal");
	assert_null(mlx_mod_encoding_name(MLX_MOD_CMIS, 0x05));
	assert_string_equal(mlx_mod_encoding_name(MLX_MOD_SFF8472, 0x05), "SONET Scrambled");
	assert_string_equal(mlx_mod_encoding_name(MLX_MOD_SFF8636, 0x05), "64B/66B");
}

static void test_levels(void **state)
{
	struct mlx_mod_thresh t = { true, 80, -5, 70, 0 };
	struct mlx_mod_value v = { .valid = true, .v = 71 };

	(void)state;
	assert_int_equal(mlx_mod_value_level(&v, &t), MLX_MOD_WARNING);
	v.v = 85;
	assert_int_equal(mlx_mod_value_level(&v, &t), MLX_MOD_ALARM);
	v.v = 30;
	assert_int_equal(mlx_mod_value_level(&v, &t), MLX_MOD_OK);
	v.flags_valid = true;
	v.low_alarm = true;   /* the module's flag wins over our comparison */
	assert_int_equal(mlx_mod_value_level(&v, &t), MLX_MOD_ALARM);
	v.valid = false;
	assert_int_equal(mlx_mod_value_level(&v, &t), MLX_MOD_LEVEL_UNKNOWN);
	assert_string_equal(mlx_mod_level_name(MLX_MOD_WARNING), "warning");
	assert_null(mlx_mod_level_name(MLX_MOD_LEVEL_UNKNOWN));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sff8472_mikrotik_equals_ethtool),
		cmocka_unit_test(test_sff8472_finisar_diagnostics),
		cmocka_unit_test(test_sff8472_intel_correct_and_corrupted),
		cmocka_unit_test(test_sff8636_cwdm4_equals_ethtool),
		cmocka_unit_test(test_sff8636_five_upper_pages),
		cmocka_unit_test(test_sff8636_er4_paged),
		cmocka_unit_test(test_cmis4_cig),
		cmocka_unit_test(test_cmis5_eoptolink_lanes),
		cmocka_unit_test(test_cmis41_zr_matches_junos_decode),
		cmocka_unit_test(test_cmis_lower_page_only),
		cmocka_unit_test(test_pages_wanted),
		cmocka_unit_test(test_unknown_and_empty),
		cmocka_unit_test(test_cmis_flat_ignores_pages),
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_lane_dark),
		cmocka_unit_test(test_sff8636_tech_and_compliance),
		cmocka_unit_test(test_cmis_applications),
		cmocka_unit_test(test_cmis_banks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
