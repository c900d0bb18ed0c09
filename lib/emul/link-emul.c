/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's side of SIOCSIFFLAGS on a captured system: what
 * dev_change_flags() (net/core/dev.c) makes sysfs show afterwards.  The
 * flags file takes the new flags; IFF_UP decides operstate: down when the
 * interface is down, else up with carrier and lowerlayerdown without
 * (rfc2863_policy() in net/core/link_watch.c).  carrier is the cable's,
 * left as it is: the kernel refuses to read it while the interface is
 * down, which a file cannot do, so it keeps its last value.
 */
#include "config.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emul.h"
#include "mlx-private.h"

int mlx_emul_link_flags(struct mlx_ctx *ctx, const char *ifname, unsigned set, unsigned clear)
{
	char dir[64], path[96], old[32], oper[32] = "", carrier[8] = "", val[32];
	uint64_t flags;
	unsigned nf;
	int r;

	snprintf(dir, sizeof(dir), "/sys/class/net/%s", ifname);
	if (!mlx_exists(ctx, dir))
		return mlx_err(ctx, ENODEV, "no network interface '%s' in '%s'", ifname,
			       mlx_root(ctx));
	snprintf(path, sizeof(path), "%s/flags", dir);
	r = mlx_read_str(ctx, path, old, sizeof(old));
	if (r == 0)
		r = mlx_read_u64(ctx, path, &flags);
	if (r < 0)
		return mlx_err(ctx, r, "cannot read '%s': %s", path, strerror(-r));
	nf = ((unsigned)flags | set) & ~clear;
	snprintf(val, sizeof(val), "0x%x\n", nf);
	r = mlx_write_str(ctx, path, val);
	if (r < 0)
		return mlx_err(ctx, r, "cannot write '%s': %s", path, strerror(-r));
	snprintf(path, sizeof(path), "%s/carrier", dir);
	mlx_read_str(ctx, path, carrier, sizeof(carrier));
	snprintf(oper, sizeof(oper), "%s\n",
		 !(nf & IFF_UP) ? "down" : carrier[0] == '1' ? "up" : "lowerlayerdown");
	snprintf(path, sizeof(path), "%s/operstate", dir);
	r = mlx_write_str(ctx, path, oper);
	if (r < 0) {
		/* one change or none: the flags go back */
		char back[40];

		snprintf(path, sizeof(path), "%s/flags", dir);
		snprintf(back, sizeof(back), "%s\n", old);
		(void)mlx_write_str(ctx, path, back);
		return mlx_err(ctx, r, "cannot write '%s/operstate': %s", dir, strerror(-r));
	}
	return 0;
}

/* the captured boundary's entry (emul.h) */
const struct mlx_emul mlx_emul_link = {
	.name = "link",
	.link_flags = mlx_emul_link_flags,
};
