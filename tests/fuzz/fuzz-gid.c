/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the GID attributes (lib/rdma/gid.c): the sysfs
 * texts of a GID and its type (gids/N, gid_attrs/types/N), the IPv4 of a
 * mapped GID, and the rtnetlink reply that gives a GID netdev's VLAN
 * (IFLA_LINKINFO); and the pure RoCE rules on whatever numbers come.
 */
#include "fuzz-nl.h"
#include "rdma.h"

static int on_link(const struct nlmsghdr *h, size_t len, void *arg)
{
	int vid;

	(void)arg;
	if (mlx_rtnl_vlan_id(h, len, &vid) == 0 && (vid < 0 || vid > 4095))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_str(data, size), ip[16];
	uint8_t gid[16];
	int8_t map[64];
	int dscp, prio;

	if (!text)
		return 0;
	if (mlx_gid_parse(text, gid) == 0) {
		if (mlx_gid_ipv4(gid, ip, sizeof(ip)) && strnlen(ip, sizeof(ip)) == sizeof(ip))
			abort();
		(void)mlx_gid_is_zero(gid);
	}
	(void)mlx_gid_type_name(mlx_gid_type_parse(text, size & 1));
	free(text);
	fuzz_nl(data, size, on_link, NULL);
	if (size >= 3) {
		memset(map, data[2] & 0x8 ? -1 : (int8_t)(data[2] & 7), sizeof(map));
		mlx_roce_tos_prio(data[0] | (data[1] & 1) << 8, (int)(data[1] >> 1) % 3 - 1, map, &dscp,
				  &prio);
		if (prio > 7 || dscp > 63)
			abort();
		if (mlx_roce_active_mtu((unsigned)data[0] << 8 | data[1]) > 4096)
			abort();
	}
	return 0;
}
