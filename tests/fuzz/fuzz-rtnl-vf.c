/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the rtnetlink VF-info decoder (lib/decode/decode-rtnl-vf.c):
 * an RTM_NEWLINK reply with IFLA_VFINFO_LIST.  What decodes is encoded
 * again as the --sysroot emulator does and must decode to the same VFs.
 */
#include "fuzz-nl.h"
#include "sriov.h"

static int on_msg(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct mlx_link_vfs l, l2;
	static uint8_t buf[1 << 16];
	char err[128];
	int n;

	(void)arg;
	memset(&l, 0, sizeof(l));
	if (mlx_rtnl_vf_decode(h, len, &l, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < l.nvf; i++)
			(void)mlx_vf_link_state_str(l.vf[i].link_state);
		n = mlx_rtnl_vf_encode(h, len, &l, buf, sizeof(buf));
		if (n > 0) {
			memset(&l2, 0, sizeof(l2));
			if (mlx_rtnl_vf_decode((const struct nlmsghdr *)buf, (size_t)n, &l2, err,
					       sizeof(err)) != 0 || l2.nvf != l.nvf)
				abort();
			mlx_link_vfs_free(&l2);
		}
	}
	mlx_link_vfs_free(&l);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_nl(data, size, on_msg, NULL);
	return 0;
}
