/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli module [-d DEV] [--raw]`: each port's transceiver: identity and
 * the live diagnostics (temperature, Vcc, per lane bias, Tx and Rx power)
 * with the module's own thresholds and flags, each value ok / warning /
 * alarm.  --raw: the EEPROM pages as read, in hex (`ethtool -m hex on`).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "phy.h"

const struct cmd_opt module_opts[] = {
	{ "raw", 0, NULL, "the EEPROM pages as read, in hex (as ethtool -m hex on)", NULL, SRC_NONE, 0 },
	{ "any-netdev", 0, NULL, "with -d IFNAME: any netdev, not only a ConnectX port", NULL, SRC_NONE, 0 },
	{ NULL, 0, NULL, NULL, NULL, SRC_NONE, 0 },
};

/*
 * JSON carries integers in a unit fine enough to be exact for every
 * standard (SFF-8472/8636/CMIS: 1/256 C, 100 uV, 2 uA, 0.1 uW), so no
 * reading is rounded twice; text prints ethtool's units and precision.
 */
struct unit {
	const char *name;   /* the JSON unit (mlxcli-json(7) UNITS) */
	double scale;       /* JSON value = decoded value x scale */
	const char *text;   /* after the number in text */
	const char *fmt;    /* ethtool's precision */
	bool dbm;           /* an optical power: text also in dBm */
};

static const struct unit U_TEMP = { "millidegrees C", 1000, " C", "%.2f", false };
static const struct unit U_VCC = { "microvolts", 1e6, " V", "%.4f", false };
static const struct unit U_BIAS = { "microamperes", 1000, " mA", "%.3f", false };
static const struct unit U_POWER = { "nanowatts", 1e6, " mW", "%.4f", true };

static void out_scaled(struct out *o, const char *key, const struct unit *u, double v)
{
	out_s64(o, key, NULL, (int64_t)llround(v * u->scale));
}

static enum mlx_mod_level worse(enum mlx_mod_level a, enum mlx_mod_level b)
{
	return a > b ? a : b;
}

static void fmt_val(char *buf, size_t len, const struct unit *u, double v)
{
	char num[32];

	snprintf(num, sizeof(num), u->fmt, v);
	if (u->dbm && v > 0)
		snprintf(buf, len, "%s%s / %.2f dBm", num, u->text, mlx_mod_mw_to_dbm(v));
	else
		snprintf(buf, len, "%s%s", num, u->text);
}

/* One monitored value at level @l: JSON {reading, unit, level,
 * thresholds, flags}; text one line "label: 35.34 C ok (warning below
 * 0.00 or above 70.00, alarm ...)", where a lane's level "off" reads
 * @off ("laser off", "no light"). */
static enum mlx_mod_level out_monitor_at(struct out *o, const char *key, const char *label,
					 const struct mlx_mod_value *v, const struct mlx_mod_thresh *t,
					 const struct unit *u, enum mlx_mod_level l, const char *off)
{
	const char *ln = l == MLX_MOD_OFF && off ? off : mlx_mod_level_name(l);
	char line[256], val[64], lo[32], hi[32];

	out_obj_begin(o, key, NULL);
	out_str(o, "unit", NULL, u->name);
	if (v->valid)
		out_scaled(o, "value", u, v->v);
	else
		out_null(o, "value", NULL);
	out_str(o, "level", NULL, mlx_mod_level_name(l));
	if (t && t->valid) {
		out_scaled(o, "high_alarm_threshold", u, t->high_alarm);
		out_scaled(o, "low_alarm_threshold", u, t->low_alarm);
		out_scaled(o, "high_warning_threshold", u, t->high_warning);
		out_scaled(o, "low_warning_threshold", u, t->low_warning);
	} else {
		out_null(o, "high_alarm_threshold", NULL);
		out_null(o, "low_alarm_threshold", NULL);
		out_null(o, "high_warning_threshold", NULL);
		out_null(o, "low_warning_threshold", NULL);
	}
	if (v->flags_valid) {
		out_bool(o, "high_alarm", NULL, v->high_alarm);
		out_bool(o, "low_alarm", NULL, v->low_alarm);
		out_bool(o, "high_warning", NULL, v->high_warning);
		out_bool(o, "low_warning", NULL, v->low_warning);
	} else {
		out_null(o, "high_alarm", NULL);
		out_null(o, "low_alarm", NULL);
		out_null(o, "high_warning", NULL);
		out_null(o, "low_warning", NULL);
	}
	out_obj_end(o);

	if (!label)
		return l;
	if (!v->valid) {
		out_text(o, label, "-");
		return l;
	}
	fmt_val(val, sizeof(val), u, v->v);
	snprintf(line, sizeof(line), "%s  %s", val, ln ? ln : "-");
	if (t && t->valid) {
		size_t n = strlen(line);

		snprintf(lo, sizeof(lo), u->fmt, t->low_warning);
		snprintf(hi, sizeof(hi), u->fmt, t->high_warning);
		n += (size_t)snprintf(line + n, sizeof(line) - n, " (warning below %s or above %s", lo, hi);
		snprintf(lo, sizeof(lo), u->fmt, t->low_alarm);
		snprintf(hi, sizeof(hi), u->fmt, t->high_alarm);
		if (n < sizeof(line))
			snprintf(line + n, sizeof(line) - n, ", alarm below %s or above %s)", lo, hi);
	}
	out_text(o, label, line);
	return l;
}

static enum mlx_mod_level out_monitor(struct out *o, const char *key, const char *label,
				      const struct mlx_mod_value *v, const struct mlx_mod_thresh *t,
				      const struct unit *u)
{
	return out_monitor_at(o, key, label, v, t, u, mlx_mod_value_level(v, t), NULL);
}

/*
 * A lane's status flags (issue 25): JSON rx_los, tx_los, tx_fault,
 * rx_lol, tx_lol, each a boolean, null where the module does not
 * implement it; text one line naming the raised ones in ethtool's words,
 * "none" when every known flag is clear, nothing when none is known.  A
 * raised flag is an alarm: the module says the lane carries no signal.
 */
static enum mlx_mod_level out_lane_flags(struct out *o, unsigned lane, const struct mlx_mod_lane *l)
{
	enum mlx_mod_level lv = MLX_MOD_LEVEL_UNKNOWN;
	char label[32], line[160] = "";
	size_t n = 0;

	for (int f = 0; f < MLX_MOD_NFLAGS; f++) {
		if (l->flag[f] < 0) {
			out_null(o, mlx_mod_flag_key(f), NULL);
			continue;
		}
		out_bool(o, mlx_mod_flag_key(f), NULL, l->flag[f] > 0);
		if (lv == MLX_MOD_LEVEL_UNKNOWN)
			lv = MLX_MOD_OK;
		if (!l->flag[f])
			continue;
		lv = MLX_MOD_ALARM;
		if (n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s", n ? ", " : "",
					      mlx_mod_flag_text(f));
	}
	if (lv == MLX_MOD_LEVEL_UNKNOWN)
		return lv;
	snprintf(label, sizeof(label), "channel %u flags", lane);
	if (n && n + 8 < sizeof(line))
		memcpy(line + n, "  alarm", 8);
	out_text(o, label, n ? line : "none");
	return lv;
}

static void out_opt_u(struct out *o, const char *key, const char *label, unsigned v, bool known,
		      const char *suffix)
{
	char buf[32];

	if (!known) {
		out_null(o, key, label);
		return;
	}
	snprintf(buf, sizeof(buf), "%u%s", v, suffix);
	out_u64_as(o, key, label, v, buf);
}

static void out_identity(struct out *o, const struct mlx_mod_info *mi)
{
	const char *idn = mlx_mod_identifier_name(mi->identifier);
	const char *cn = mlx_mod_connector_name(mi->connector);
	char buf[128];
	bool id = mi->identity_valid;

	out_str(o, "standard", "standard", mlx_mod_std_name(mi->std));
	snprintf(buf, sizeof(buf), "0x%02x (%s)", mi->identifier, idn ? idn : "unknown");
	out_str(o, "identifier", NULL, idn);
	out_u64_as(o, "identifier_code", "identifier", mi->identifier, buf);
	if (id) {
		snprintf(buf, sizeof(buf), "0x%02x (%s)", mi->connector, cn ? cn : "unknown");
		out_str(o, "connector", NULL, cn);
		out_u64_as(o, "connector_code", "connector", mi->connector, buf);
		out_str(o, "vendor_name", "vendor name", mi->vendor);
		snprintf(buf, sizeof(buf), "%02x:%02x:%02x", mi->oui[0], mi->oui[1], mi->oui[2]);
		out_str(o, "vendor_oui", "vendor OUI", buf);
		out_str(o, "vendor_part_number", "vendor PN", mi->part_number);
		out_str(o, "vendor_revision", "vendor rev", mi->revision);
		out_str(o, "vendor_serial", "vendor SN", mi->serial);
		out_str(o, "date_code", "date code", mi->date_code);
		out_bool(o, "checksum_ok", "checksums ok", mi->cc_base_ok && mi->cc_ext_ok);
	} else {
		static const char *const k[] = { "connector", "connector_code", "vendor_name", "vendor_oui",
						 "vendor_part_number", "vendor_revision", "vendor_serial",
						 "date_code", "checksum_ok" };

		for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
			out_null(o, k[i], NULL);
		out_text(o, "identity", "- (page 00h not read)");
	}
	if (mi->std == MLX_MOD_CMIS) {
		snprintf(buf, sizeof(buf), "%u.%u", mi->cmis_rev >> 4, mi->cmis_rev & 0xf);
		out_str(o, "cmis_revision", "CMIS revision", buf);
		static const char *const st[8] = { NULL, "low_power", "power_up", "ready", "power_down",
						   "fault", NULL, NULL };
		out_str(o, "module_state", "module state", st[mi->module_state & 7]);
	} else {
		out_null(o, "cmis_revision", NULL);
		out_null(o, "module_state", NULL);
	}
	out_opt_u(o, "nominal_rate_mbps", "nominal rate", mi->nominal_mbd, id && mi->nominal_mbd, " Mb/s");
	if (mi->wavelength_nm > 0) {
		/* picometres: exact for SFF-8636's 1/20 nm and CMIS' 0.05 nm */
		snprintf(buf, sizeof(buf), "%.3f nm", mi->wavelength_nm);
		out_u64_as(o, "wavelength_pm", "wavelength", (uint64_t)llround(mi->wavelength_nm * 1000), buf);
	} else {
		out_null(o, "wavelength_pm", "wavelength");
	}
	out_opt_u(o, "length_smf_m", "length (SMF)", mi->length_smf_m, id, " m");
	out_opt_u(o, "length_om3_m", "length (OM3)", mi->length_om3_m, id, " m");
	out_opt_u(o, "length_om2_m", "length (OM2)", mi->length_om2_m, id, " m");
	out_opt_u(o, "length_copper_m", "length (copper)", mi->length_copper_m,
		  id && mi->std != MLX_MOD_CMIS, " m");
	/* what ethtool -m shows besides (issue 25): OM1 (SFF-8472 byte 17,
	 * SFF-8636 145), OM4 and OM5 (CMIS page 01h 134, 133), the laser's
	 * wavelength tolerance, the power class, the CDRs */
	out_opt_u(o, "length_om1_m", "length (OM1)", mi->length_om1_m, id && mi->std != MLX_MOD_CMIS, " m");
	out_opt_u(o, "length_om4_m", "length (OM4)", mi->length_om4_m, id && mi->std == MLX_MOD_CMIS, " m");
	out_opt_u(o, "length_om5_m", "length (OM5)", mi->length_om5_m, id && mi->std == MLX_MOD_CMIS, " m");
	if (mi->wavelength_tol_nm > 0) {
		snprintf(buf, sizeof(buf), "%.3f nm", mi->wavelength_tol_nm);
		out_u64_as(o, "wavelength_tolerance_pm", "wavelength tolerance",
			   (uint64_t)llround(mi->wavelength_tol_nm * 1000), buf);
	} else {
		out_null(o, "wavelength_tolerance_pm", NULL);
	}
	out_opt_u(o, "power_class", "power class", mi->power_class, mi->power_class != 0, "");
	if (mi->max_power_w > 0) {
		/* milliwatts: exact for CMIS' 0.25 W and SFF-8636's 0.1 W */
		snprintf(buf, sizeof(buf), "%.2f W", mi->max_power_w);
		out_u64_as(o, "max_power_mw", "maximum power", (uint64_t)llround(mi->max_power_w * 1000), buf);
	} else {
		out_null(o, "max_power_mw", NULL);
	}
	if (mi->cdr_tx >= 0)
		out_bool(o, "tx_cdr_present", "Tx CDR", mi->cdr_tx > 0);
	else
		out_null(o, "tx_cdr_present", NULL);
	if (mi->cdr_rx >= 0)
		out_bool(o, "rx_cdr_present", "Rx CDR", mi->cdr_rx > 0);
	else
		out_null(o, "rx_cdr_present", NULL);
}

/* A code and its SFF-8024 name: "key" the name (null when not in the
 * table), "key_code" the number; text "0x40 (1310 nm DFB)". */
static void out_code(struct out *o, const char *key, const char *label, bool known, uint8_t code,
		     const char *name)
{
	char k[48], buf[160];

	snprintf(k, sizeof(k), "%s_code", key);
	if (!known) {
		out_null(o, key, NULL);
		out_null(o, k, label);
		return;
	}
	snprintf(buf, sizeof(buf), "0x%02x (%s)", code, name ? name : "unknown");
	out_str(o, key, NULL, name);
	out_u64_as(o, k, label, code, buf);
}

/* What the module is for: transmitter technology, SFF-8636's extended
 * compliance, CMIS' media type, banks and advertised applications. */
static void out_spec(struct out *o, const struct mlx_mod_info *mi)
{
	bool cmis = mi->std == MLX_MOD_CMIS;

	out_code(o, "transmitter_technology", "transmitter technology", mi->tx_tech_valid, mi->tx_tech,
		 mlx_mod_tx_tech_name(mi->std, mi->tx_tech));
	out_code(o, "extended_compliance", "extended compliance", mi->ext_compliance_valid,
		 mi->ext_compliance, mlx_mod_ext_compliance_name(mi->ext_compliance));
	out_code(o, "encoding", "encoding", mi->encoding_valid, mi->encoding,
		 mlx_mod_encoding_name(mi->std, mi->encoding));
	out_str(o, "media_type", "media type", cmis ? mlx_mod_media_type_name(mi->media_type) : NULL);
	if (cmis && mi->nbanks)
		out_u64(o, "banks", "banks", mi->nbanks);
	else
		out_null(o, "banks", NULL);
	out_list_begin(o, "applications", NULL);
	for (size_t i = 0; i < mi->napps; i++) {
		const struct mlx_mod_app *a = &mi->app[i];
		const char *h = mlx_mod_host_if_name(a->host_id);
		const char *md = mlx_mod_media_if_name(mi->media_type, a->media_id);
		unsigned mbps = mlx_mod_host_if_mbps(a->host_id);
		char label[32], line[192];

		out_obj_begin(o, NULL, NULL);
		out_fmt_u64(o, OUT_JSON, "application_number", NULL, i + 1);
		out_fmt_str(o, OUT_JSON, "host_interface", NULL, h);
		out_fmt_u64(o, OUT_JSON, "host_interface_code", NULL, a->host_id);
		out_fmt_str(o, OUT_JSON, "media_interface", NULL, md);
		out_fmt_u64(o, OUT_JSON, "media_interface_code", NULL, a->media_id);
		if (mbps)
			out_fmt_u64(o, OUT_JSON, "speed_mbps", NULL, mbps);
		else
			out_fmt_null(o, OUT_JSON, "speed_mbps", NULL);
		out_fmt_u64(o, OUT_JSON, "host_lanes", NULL, a->host_lanes);
		out_fmt_u64(o, OUT_JSON, "media_lanes", NULL, a->media_lanes);
		snprintf(label, sizeof(label), "application %zu", i + 1);
		snprintf(line, sizeof(line), "%s (0x%02x), %u lanes -> %s (0x%02x), %u lanes", h ? h : "unknown",
			 a->host_id, a->host_lanes, md ? md : "unknown", a->media_id, a->media_lanes);
		out_text(o, label, line);
		out_obj_end(o);
	}
	out_list_end(o);
}

static enum mlx_mod_level out_diag(struct out *o, const struct mlx_mod_info *mi)
{
	enum mlx_mod_level worst = MLX_MOD_LEVEL_UNKNOWN;

	out_bool(o, "diagnostics", "diagnostics", mi->dom);
	worst = worse(worst, out_monitor(o, "temperature", "temperature", &mi->temperature_c,
					 &mi->temperature_th, &U_TEMP));
	worst = worse(worst, out_monitor(o, "voltage", "voltage", &mi->voltage_v, &mi->voltage_th, &U_VCC));
	out_list_begin(o, "channels", NULL);
	for (unsigned i = 0; i < mi->nlanes; i++) {
		const struct mlx_mod_lane *l = &mi->lane[i];
		char label[32];

		out_obj_begin(o, NULL, NULL);
		out_u64(o, "lane_number", NULL, i + 1);
		/* a 0 the module does not flag is a laser off or a fibre
		 * without light, not "ok" (mlx_mod_lane_level) */
		snprintf(label, sizeof(label), "channel %u bias", i + 1);
		worst = worse(worst, out_monitor_at(o, "bias", label, &l->bias_ma, &mi->bias_th, &U_BIAS,
						    mlx_mod_lane_level(l, &l->bias_ma, &mi->bias_th, false),
						    "laser off"));
		snprintf(label, sizeof(label), "channel %u tx power", i + 1);
		worst = worse(worst, out_monitor_at(o, "tx_power", label, &l->tx_power_mw, &mi->tx_power_th,
						    &U_POWER,
						    mlx_mod_lane_level(l, &l->tx_power_mw, &mi->tx_power_th,
								       false),
						    "laser off"));
		snprintf(label, sizeof(label), "channel %u rx power", i + 1);
		worst = worse(worst, out_monitor_at(o, "rx_power", label, &l->rx_power_mw, &mi->rx_power_th,
						    &U_POWER,
						    mlx_mod_lane_level(l, &l->rx_power_mw, &mi->rx_power_th,
								       true),
						    "no light"));
		worst = worse(worst, out_lane_flags(o, i + 1, l));
		out_obj_end(o);
	}
	out_list_end(o);
	return worst;
}

static void out_raw(struct out *o, const struct mlx_module *m)
{
	out_list_begin(o, "pages", NULL);
	for (size_t k = 0; k < m->nreq; k++) {
		const struct mlx_mod_want *w = &m->req[k];
		char hex[2 * MLX_MOD_PAGE_LEN + 1], label[80], row[64];

		snprintf(label, sizeof(label), "i2c 0x%02x page 0x%02x bank %u", w->i2c, w->page, w->bank);
		out_obj_begin(o, NULL, label);
		out_u64(o, "i2c_address", NULL, w->i2c);
		out_u64(o, "page", NULL, w->page);
		out_u64(o, "bank", NULL, w->bank);
		out_u64(o, "offset_bytes", NULL, w->offset);
		out_u64(o, "length_bytes", NULL, m->got[k]);
		for (size_t i = 0; i < m->got[k]; i++)
			snprintf(hex + 2 * i, 3, "%02x", m->data[k][i]);
		hex[2 * m->got[k]] = '\0';
		out_str(o, "data_hex", NULL, hex);
		for (size_t r = 0; r < m->got[k]; r += 16) {
			size_t n = 0;

			for (size_t i = r; i < r + 16 && i < m->got[k]; i++)
				n += (size_t)snprintf(row + n, sizeof(row) - n, "%s%02x", i > r ? " " : "",
						      m->data[k][i]);
			snprintf(label, sizeof(label), "0x%04zx", w->offset + r);
			out_text(o, label, row);
		}
		out_obj_end(o);
	}
	out_list_end(o);
}

/* One port: 0, or the exit code of a failure (the entry says why). */
static int out_port(struct cli *cli, const char *ifname, const char *bdf, bool raw, struct mlx_module *m)
{
	struct out *o = cli->out;
	char label[96];
	int r, rc = EXIT_OK;
	enum mlx_mod_level worst;

	if (bdf)
		snprintf(label, sizeof(label), "%s (%s)", ifname, bdf);
	else
		snprintf(label, sizeof(label), "%s", ifname);
	out_obj_begin(o, NULL, label);
	out_str(o, "netdev", NULL, ifname);
	out_str(o, "pci_address", NULL, bdf);
	r = mlx_module_read(cli->ctx, ifname, m);
	if (r < 0) {
		out_bool(o, "present", "module", false);
		out_str(o, "error", "error", mlx_errmsg(cli->ctx));
		out_obj_end(o);
		return cli_exit_code(r);
	}
	out_bool(o, "present", NULL, true);
	if (m->decode_rc && m->decode_rc != -EBADMSG) {
		out_str(o, "error", "error", m->decode_err);
		rc = cli_exit_code(m->decode_rc);
	} else {
		out_str(o, "error", m->decode_rc ? "warning" : NULL, m->decode_rc ? m->decode_err : NULL);
	}
	if (raw) {
		out_raw(o, m);
	} else if (!m->decode_rc || m->decode_rc == -EBADMSG) {
		out_identity(o, &m->info);
		out_spec(o, &m->info);
		worst = out_diag(o, &m->info);
		out_str(o, "level", "overall", mlx_mod_level_name(worst));
	}
	out_obj_end(o);
	if (m->decode_rc == -EBADMSG)
		cli_warn(cli, "%s: %s: the identity may be corrupt", ifname, m->decode_err);
	return rc;
}

int cmd_module(struct cli *cli, int argc, char **argv)
{
	struct mlx_devices *devs;
	struct mlx_function *sel;
	struct mlx_port *selp;
	struct mlx_module *m;
	bool raw = cli_opt(cli, "raw") != NULL, other;
	int r, rc = EXIT_OK, shown = 0;

	(void)argc;
	(void)argv;
	m = malloc(sizeof(*m));
	if (!m)
		return cli_fail(cli, -ENOMEM, "module");
	/* any netdev (a veth in the kernel tests): the kernel says whether
	 * it has one; a ConnectX port is shown as without the option */
	r = cli_other_netdev(cli, &other);
	if (r) {
		free(m);
		return r;
	}
	if (other) {
		out_list_begin(cli->out, "modules", NULL);
		rc = out_port(cli, cli->device, NULL, raw, m);
		out_list_end(cli->out);
		if (rc)
			cli_error(cli, "%s", mlx_errmsg(cli->ctx));
		free(m);
		return rc;
	}
	r = cli_select(cli, &sel, &selp);
	if (!r)
		r = cli_devices(cli, &devs);
	if (r) {
		free(m);
		return r;
	}
	out_list_begin(cli->out, "modules", NULL);
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		/* a module sits in a physical port's cage: PFs, unless asked */
		if (sel ? fn != sel : fn->role != MLX_FN_PF)
			continue;
		for (size_t j = 0; j < fn->nports; j++) {
			const struct mlx_port *p = &fn->ports[j];
			int pr;

			if (selp && p != selp)
				continue;
			pr = out_port(cli, p->ifname, fn->bdf, raw, m);
			shown++;
			if (pr && sel) {
				/* asked for this device: say why it has none */
				cli_error(cli, "%s", mlx_errmsg(cli->ctx));
				rc = pr;
			}
		}
	}
	out_list_end(cli->out);
	free(m);
	if (!devs->nfn)
		cli_say_no_devices(cli, devs);
	return rc;
}
