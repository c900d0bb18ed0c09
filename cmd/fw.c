/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli fw [query]`: running and stored firmware, PSID, board id, serial
 * numbers, VPD, and whether a flashed image waits for a reset.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "rdma.h"
#include "fw.h"

static void out_src(struct out *o, const char *key, const char *label, const char *val,
		    const char *src)
{
	char buf[192];

	out_str(o, key, NULL, val && *val ? val : NULL);
	if (val && *val && src)
		snprintf(buf, sizeof(buf), "%s (%s)", val, src);
	else
		snprintf(buf, sizeof(buf), "%s", val && *val ? val : "-");
	out_text(o, label, buf);
}

static void out_vpd(struct out *o, const struct mlx_fw_info *fi)
{
	const struct mlx_vpd *v = &fi->vpd;

	out_obj_begin(o, "vpd", "VPD");
	if (!fi->has_vpd) {
		out_bool(o, "present", NULL, false);
		out_str(o, "error", "error", fi->vpd_err == -ENOENT ? "no vpd file" : fi->vpd_errmsg);
		out_obj_end(o);
		return;
	}
	out_bool(o, "present", NULL, true);
	out_str(o, "product_name", "product name", v->product);
	out_list_begin(o, "fields", NULL);
	for (size_t i = 0; i < v->n; i++) {
		const struct mlx_vpd_field *f = &v->f[i];
		const char *name = mlx_vpd_keyword_name(f->keyword);
		char label[48];

		out_obj_begin(o, NULL, NULL);
		out_str(o, "keyword", NULL, f->keyword);
		out_str(o, "name", NULL, name);
		out_str(o, "text", NULL, f->value);
		out_bool(o, "read_only", NULL, !f->rw);
		out_obj_end(o);
		snprintf(label, sizeof(label), "[%s] %s%s", f->keyword, name ? name : "",
			 f->rw ? " (rw)" : "");
		out_text(o, label, f->value);
	}
	out_list_end(o);
	out_str(o, "checksum", "checksum",
		!v->has_rv ? "absent" : v->checksum_ok ? "good" : "bad");
	out_str(o, "error", NULL, fi->vpd_err ? fi->vpd_errmsg : NULL);
	out_obj_end(o);
}

static void out_fw(struct cli *cli, const struct mlx_function *fn)
{
	struct out *o = cli->out;
	struct mlx_fw_info fi;
	char label[96];

	mlx_fw_query(cli->ctx, fn, &fi);
	snprintf(label, sizeof(label), "%s (%s, %s)", fn->bdf, fn->id ? fn->id->product : "?",
		 fn->role == MLX_FN_VF ? "vf" : "pf");
	out_obj_begin(o, NULL, label);
	out_str(o, "pci_address", NULL, fn->bdf);
	out_str(o, "product", NULL, fn->id ? fn->id->product : NULL);
	out_str(o, "role", NULL, fn->role == MLX_FN_VF ? "vf" : "pf");
	/* mlx5cmd -DriverVersion: the driver and its module's version (an
	 * in-tree module has none: it is the kernel's) */
	{
		char ver[64];
		bool have = fn->driver[0] &&
			    mlx_rdma_driver_version(cli->ctx, fn->driver, ver, sizeof(ver)) == 0;

		out_str(o, "driver", "driver", fn->driver[0] ? fn->driver : NULL);
		out_str(o, "driver_version", "driver version", have ? ver : NULL);
		mlx_err_clear(cli->ctx);
	}
	out_src(o, "running_version", "running", fi.running, fi.running_source);
	out_str(o, "running_source", NULL, fi.running_source);
	out_src(o, "stored_version", "stored", fi.stored,
		fi.stored_query_failed ? "devlink: query failed" : fi.stored_source);
	out_str(o, "stored_source", NULL, fi.stored_source);
	out_bool(o, "stored_query_failed", NULL, fi.stored_query_failed);
	if (fi.stored[0] && !fi.stored_query_failed)
		out_bool(o, "reset_pending", "reset pending", fi.reset_pending);
	else
		out_null(o, "reset_pending", "reset pending");
	out_src(o, "psid", "PSID", fi.psid, fi.psid_source);
	out_str(o, "psid_source", NULL, fi.psid_source);
	out_str(o, "board_id", "board id", fi.board_id[0] ? fi.board_id : NULL);
	out_str(o, "serial_number", "serial number", fi.serial[0] ? fi.serial : NULL);
	out_src(o, "board_serial_number", "board serial number", fi.board_serial,
		fi.board_serial_source);
	out_str(o, "board_serial_number_source", NULL, fi.board_serial_source);
	out_obj_begin(o, "devlink", NULL);
	out_bool(o, "answered", NULL, fi.devlink_err == 0);
	out_str(o, "error", NULL, fi.devlink_err ? fi.devlink_errmsg : NULL);
	out_obj_end(o);
	out_vpd(o, &fi);
	out_obj_end(o);

	if (fi.reset_pending)
		cli_warn(cli, "%s: firmware %s is flashed but %s is running: it takes effect after a "
			 "firmware reset or a cold reboot", fn->bdf, fi.stored, fi.running);
	if (fi.stored_query_failed)
		cli_warn(cli, "%s: the driver could not query the stored firmware image (devlink "
			 "reports %s)", fn->bdf, MLX_FW_QUERY_FAILED);
	if (fi.has_vpd && fi.vpd_err)
		cli_warn(cli, "%s: VPD: %s", fn->bdf, fi.vpd_errmsg);
	if (fi.devlink_err && fn->role == MLX_FN_PF)
		mlx_log(cli->ctx, MLX_LOG_INFO, "%s: devlink dev info: %s", fn->bdf, fi.devlink_errmsg);
}

int cmd_fw(struct cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	/* VFs run their PF's firmware: listed only when asked for. */
	return cli_for_functions(cli, "firmware", false, out_fw);
}

/* `mlxcli fw` is `mlxcli fw query` (mlxfwmanager's word). */
static const struct cmd fw_cmds[] = {
	{ "query", "", "firmware versions (running, stored), PSID, serials, VPD (as 'mlxcli fw')",
	  cmd_fw, 0, 0, 0, NULL, NULL, NULL },
	/* issue 27: the firmware's life cycle (cmd/fw-flash.c) */
	{ "flash", "FILE", "write a firmware image (MFA2 for mlx5) into a device's flash through "
	  "devlink", cmd_fw_flash, 1, 1, CMD_NEEDS_DEVICE | CMD_WRITES, NULL, fw_flash_opts, NULL },
	{ "activate", "", "make a device run the firmware flashed into it (devlink reload "
	  "fw_activate)", cmd_fw_activate, 0, 0, CMD_NEEDS_DEVICE | CMD_WRITES, NULL,
	  fw_activate_opts, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group fw_group = { "fw", "firmware versions, flash, activation", "mlxcli-fw(8)",
				   fw_cmds };
