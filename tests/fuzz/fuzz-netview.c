/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the decoders of issue 27's views (lib/netview.h).
 * The first byte chooses: the netlink replies (TUNNEL_INFO, RSS, RTM_NEWLINK,
 * the fdb dump's RTM_NEWNEIGH, a VLAN's egress map), fed as one message and
 * as a recorded stream, and the same bytes as a child netdev's create or
 * delete request (the captured system's emulator parses what it is sent); or one of the text parsers (/proc/net/dev_mcast, CPU lists and
 * masks, mlx5 IRQ names, PKeys, ipoib debugfs blocks) on the rest as a
 * string.  Kept within bounds: tables and entries at most their maxima,
 * every name terminated, a formatted CPU list fits its buffer.
 */
#include "fuzz-nl.h"
#include "netview.h"

static int on_msg(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct mlx_tunnel_info *ti = malloc(sizeof(*ti));
	struct mlx_rss *rss = malloc(sizeof(*rss));
	struct mlx_link_info li;
	struct mlx_child_req rq;
	struct mlx_hw_addr a;
	char why[80];

	(void)arg;
	if (ti && mlx_tunnel_info_decode(h, len, ti) == 0) {
		if (ti->ntables > MLX_TUNNEL_MAX_TABLES)
			abort();
		for (size_t t = 0; t < ti->ntables; t++)
			if (ti->t[t].n > MLX_TUNNEL_MAX_ENTRIES)
				abort();
		if (strnlen(ti->ifname, sizeof(ti->ifname)) == sizeof(ti->ifname))
			abort();
	}
	if (rss && mlx_rss_decode(h, len, rss) == 0 &&
	    (rss->nindir > MLX_RSS_MAX_INDIR || rss->key_len > MLX_RSS_MAX_KEY))
		abort();
	if (mlx_link_info_decode(h, len, &li) == 0 &&
	    (li.addr_len > sizeof(li.addr) || strnlen(li.kind, sizeof(li.kind)) == sizeof(li.kind) ||
	     li.vlan_negress > MLX_VLAN_QOS_MAX))
		abort();
	if (mlx_child_req_parse(h, len, &rq, why, sizeof(why)) == 0 &&
	    (strnlen(rq.name, sizeof(rq.name)) == sizeof(rq.name) || !rq.name[0] ||
	     rq.negress > MLX_VLAN_QOS_MAX))
		abort();
	if (mlx_fdb_decode(h, len, 4, &a) == 1 && strnlen(a.text, sizeof(a.text)) == sizeof(a.text))
		abort();
	free(ti);
	free(rss);
	return 0;
}

static void text(uint8_t mode, const char *s, size_t len)
{
	struct mlx_hw_addr *v = NULL;
	struct mlx_ipoib_ep *ep = NULL;
	struct mlx_cpuset c;
	char buf[64];
	size_t n = 0;
	uint16_t pk;
	int idx;

	switch (mode % 6) {
	case 0:
		if (mlx_dev_mcast_parse(s, len, "eth0", &v, &n) == 0)
			for (size_t i = 0; i < n; i++)
				if (strnlen(v[i].text, sizeof(v[i].text)) == sizeof(v[i].text))
					abort();
		free(v);
		break;
	case 1:
		if (mlx_cpulist_parse(s, &c) == 0 &&
		    strnlen(mlx_cpulist_format(&c, buf, sizeof(buf)), sizeof(buf)) == sizeof(buf))
			abort();
		break;
	case 2:
		if (mlx_cpumask_parse(s, &c) == 0 &&
		    strnlen(mlx_cpulist_format(&c, buf, sizeof(buf)), sizeof(buf)) == sizeof(buf))
			abort();
		break;
	case 3:
		(void)mlx_irq_name_parse(s, &idx, buf, sizeof(buf));
		if (strnlen(buf, sizeof(buf)) == sizeof(buf))
			abort();
		break;
	case 4:
		(void)mlx_pkey_parse(s, &pk);
		break;
	case 5:
		if (mlx_ipoib_debugfs_parse(s, len, &ep, &n) == 0)
			for (size_t i = 0; i < n; i++)
				if (strnlen(ep[i].gid, sizeof(ep[i].gid)) == sizeof(ep[i].gid) ||
				    strnlen(ep[i].rate, sizeof(ep[i].rate)) == sizeof(ep[i].rate))
					abort();
		free(ep);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (!size)
		return 0;
	if (data[0] < 0x80) {
		fuzz_nl(data + 1, size - 1, on_msg, NULL);
		return 0;
	}
	s = fuzz_str(data + 1, size - 1);
	if (s)
		text(data[0], s, strlen(s));
	free(s);
	return 0;
}
