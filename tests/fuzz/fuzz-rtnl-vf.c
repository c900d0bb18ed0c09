/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the rtnetlink VF-info decoder (lib/decode/decode-rtnl-vf.c):
 * an RTM_NEWLINK reply with IFLA_VFINFO_LIST.  What decodes is encoded
 * again as the --sysroot emulator does and must decode to the same VFs.
 * The same bytes as an RTM_SETLINK request (what the captured system's
 * emulator parses, lib/core/boundary-captured.c): what parses is built
 * again and must parse to the same setting.
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

static void as_request(const uint8_t *data, size_t size)
{
	static uint32_t in[1 << 14], out[128];      /* aligned as a socket buffer is */
	struct mlx_vf_set s, s2;
	int ifindex, ifindex2, n;
	char why[160];

	if (size > sizeof(in))
		return;
	memcpy(in, data, size);
	if (mlx_rtnl_setlink_vf_parse(in, size, &ifindex, &s, why, sizeof(why)) != 0)
		return;
	n = mlx_rtnl_setlink_vf_build(out, sizeof(out), ifindex, &s);
	if (n <= 0 || mlx_rtnl_setlink_vf_parse(out, (size_t)n, &ifindex2, &s2, why, sizeof(why)) ||
	    ifindex2 != ifindex || memcmp(&s, &s2, sizeof(s)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_nl(data, size, on_msg, NULL);
	as_request(data, size);
	return 0;
}
