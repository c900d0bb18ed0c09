/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `mlxcli snapshot DIR`: capture the system in the --sysroot format. */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "snapshot.h"

int cmd_snapshot(struct cli *cli, int argc, char **argv)
{
	struct mlx_snapshot_meta meta = { .tool_version = PACKAGE_VERSION };
	struct mlx_snapshot_stats st;
	struct mlx_devices *devs;
	struct out *o = cli->out;
	int r;

	if (cli->device) {
		cli_error(cli, "'mlxcli snapshot' captures every ConnectX function; -d is not taken");
		return EXIT_USAGE;
	}
	if (access(argv[0], F_OK) == 0) {
		cli_error(cli, "'%s' already exists; give a new directory", argv[0]);
		return EXIT_USAGE;
	}
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	if (!devs->nfn)
		cli_warn(cli, "no ConnectX device was found: the snapshot holds the metadata and the "
			 "host-wide parts only (RDMA devices and their replies, rdma_cm, module "
			 "parameters)");
	r = mlx_snapshot(cli->ctx, devs, argv[0], &meta, &st);
	if (r < 0)
		return cli_fail(cli, r, "snapshot failed");
	out_str(o, "path", "snapshot", argv[0]);
	out_u64(o, "functions", "functions", devs->nfn);
	out_u64(o, "files", "files", st.files);
	out_u64(o, "links", "links", st.links);
	out_u64(o, "bytes", "bytes", st.bytes);
	out_u64(o, "skipped", "unreadable entries skipped", st.skipped);
	if (st.skipped && geteuid() != 0)
		cli_hint(cli, "%u entries could not be read as this user; run as root for a full capture",
			 st.skipped);
	return EXIT_OK;
}
