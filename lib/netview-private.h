/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Numbers of the ethtool netlink uapi (include/uapi/linux/ethtool_netlink.h,
 * generated from Documentation/netlink/specs/ethtool.yaml) newer than the
 * headers of Debian 12 (Linux 6.1): RSS_GET came with 6.4, INPUT_XFRM with
 * 6.8, START_CONTEXT with 6.12, FLOW_HASH with 6.17.  Shared by the
 * decoders and the queries of lib/netview.
 */
#ifndef MLX_NETVIEW_PRIVATE_H
#define MLX_NETVIEW_PRIVATE_H

enum {
	MLX_ETHTOOL_MSG_RSS_GET = 38,
	MLX_ETHTOOL_MSG_RSS_GET_REPLY = 38,
};

enum {
	MLX_ETHTOOL_A_RSS_HEADER = 1,
	MLX_ETHTOOL_A_RSS_CONTEXT,
	MLX_ETHTOOL_A_RSS_HFUNC,
	MLX_ETHTOOL_A_RSS_INDIR,
	MLX_ETHTOOL_A_RSS_HKEY,
	MLX_ETHTOOL_A_RSS_INPUT_XFRM,
	MLX_ETHTOOL_A_RSS_START_CONTEXT,
	MLX_ETHTOOL_A_RSS_FLOW_HASH,
};

/* ETHTOOL_A_FLOW_*: the attributes inside FLOW_HASH, one per flow type */
enum {
	MLX_ETHTOOL_A_FLOW_ETHER = 1,
	MLX_ETHTOOL_A_FLOW_IP4,
	MLX_ETHTOOL_A_FLOW_IP6,
	MLX_ETHTOOL_A_FLOW_TCP4,
	MLX_ETHTOOL_A_FLOW_TCP6,
	MLX_ETHTOOL_A_FLOW_UDP4,
	MLX_ETHTOOL_A_FLOW_UDP6,
	MLX_ETHTOOL_A_FLOW_SCTP4,
	MLX_ETHTOOL_A_FLOW_SCTP6,
};

#endif
