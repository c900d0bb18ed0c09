/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The read-only views of a port's network stack that the Windows tools
 * have (issue 27, "views the seeds have and Linux can give"):
 *
 *   tunnel      the UDP tunnel port tables the NIC offloads (mlxtool show
 *               vxlan): ETHTOOL_MSG_TUNNEL_INFO_GET (net/ethtool/tunnels.c)
 *               and the tunnel offload features (ETHTOOL_MSG_FEATURES_GET)
 *   filter      the packet filter (mlxtool show packet-filter): flags and
 *               the promiscuity and allmulti counts (RTM_GETLINK), the
 *               unicast and multicast address lists (the PF_BRIDGE fdb
 *               dump, which a netdev that is no bridge port answers with
 *               its own lists: net/core/rtnetlink.c ndo_dflt_fdb_dump),
 *               /proc/net/dev_mcast where netlink has none
 *   placement   which CPUs serve each channel: the device's MSI-X IRQs and
 *               their affinity (/proc/irq/N), its NUMA node and local
 *               CPUs, the XPS and RPS maps of each queue, and the RSS
 *               indirection table, key and hash fields (ETHTOOL_MSG_RSS_GET,
 *               net/ethtool/rss.c)
 *   ipoib       the PKey table of an InfiniBand port (sysfs pkeys/N) and
 *               the IPoIB interfaces with their pkey and mode; their
 *               endpoints (mlxtool dbg ipoib-ep) from the interface address
 *               and ipoib debugfs (drivers/infiniband/ulp/ipoib/ipoib_fs.c)
 *   delay drop  mlx5_ib's dropless mode: debugfs delay_drop/ (timeout,
 *               num_timeout_events, num_rqs; drivers/infiniband/hw/mlx5/main.c)
 *   debugfs     mlx5_core's EQ, CQ and QP lists (debugfs EQs/, CQs/, QPs/:
 *               drivers/net/ethernet/mellanox/mlx5/core/debugfs.c), for
 *               dump-me-now
 *
 * Every netlink reply goes through mlx_nl_query (a snapshot records it, a
 * captured system replays it) into a pure decoder below; file reads go
 * through the root prefix.
 */
#ifndef MLX_NETVIEW_H
#define MLX_NETVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

#include "device.h"

/* ---- UDP tunnel port tables ------------------------------------------- */

#define MLX_TUNNEL_MAX_TABLES 8
#define MLX_TUNNEL_MAX_ENTRIES 32

/* ETHTOOL_UDP_TUNNEL_TYPE_* (include/uapi/linux/ethtool_netlink.h) */
enum { MLX_TUNNEL_VXLAN, MLX_TUNNEL_GENEVE, MLX_TUNNEL_VXLAN_GPE, MLX_TUNNEL_NTYPES };

struct mlx_tunnel_table {
	uint32_t size;                  /* ETHTOOL_A_TUNNEL_UDP_TABLE_SIZE */
	unsigned types;                 /* bit per MLX_TUNNEL_*: what it may hold */
	/* 0 types: the kernel's static table (UDP_TUNNEL_NIC_INFO_STATIC_IANA_VXLAN:
	 * the IANA VXLAN port, always offloaded) */
	size_t n;
	struct { uint16_t port; int type; } e[MLX_TUNNEL_MAX_ENTRIES];
};

struct mlx_tunnel_info {
	char ifname[MLX_IFNAME_LEN];    /* from the reply's header, "" absent */
	size_t ntables;
	struct mlx_tunnel_table t[MLX_TUNNEL_MAX_TABLES];
};

/* "vxlan", "geneve", "vxlan-gpe"; NULL for another number. */
const char *mlx_tunnel_type_name(int type);
/* Pure: the request for @ifname; its length or -EMSGSIZE. */
int mlx_tunnel_info_build(void *buf, size_t cap, const char *ifname);
/* Pure: one TUNNEL_INFO_GET_REPLY into @out (cleared first); -EBADMSG
 * when malformed, -ENOMSG for another message.  Tables and entries past
 * the limits above are counted in size but not kept. */
int mlx_tunnel_info_decode(const struct nlmsghdr *h, size_t len, struct mlx_tunnel_info *out);
/* The query ("tunnel-info-get"): -EOPNOTSUPP when the device reports no
 * tunnel offload (mlx_errmsg says so), -ENODEV no such interface. */
int mlx_tunnel_info_get(struct mlx_ctx *ctx, const char *ifname, struct mlx_tunnel_info *out);

/* The tunnel offload features of a netdev, from params' features dump
 * (ETHTOOL_MSG_FEATURES_GET, "features-dump", kept in @pc): each of
 * mlx_tunnel_features[] on, off or absent. */
extern const char *const mlx_tunnel_features[];   /* NULL-terminated */
#define MLX_TUNNEL_NFEATURES 8
struct mlx_tunnel_features {
	int active[MLX_TUNNEL_NFEATURES];   /* 1 on, 0 off, -1 the kernel has none */
	int fixed[MLX_TUNNEL_NFEATURES];    /* 1: the device cannot change it */
};
struct mlx_params_cache;
int mlx_tunnel_features_get(struct mlx_ctx *ctx, struct mlx_params_cache *pc, const char *ifname,
			    struct mlx_tunnel_features *out);

/* The VXLAN netdevs of the host (RTM_GETLINK dump, "getlink-dump"): each
 * one's UDP port, VNI and lower device, to say which ports the NIC is
 * asked to offload and why.  Live only (a dump); a captured system
 * answers from its recorded dump when it has one. */
struct mlx_vxlan_dev {
	char ifname[MLX_IFNAME_LEN];
	int ifindex;
	uint16_t port;                  /* IFLA_VXLAN_PORT, host order; 0 absent */
	int64_t vni;                    /* IFLA_VXLAN_ID, -1 absent */
	int link;                       /* IFLA_VXLAN_LINK, 0 none */
	bool up;
};

/* ---- RTM_NEWLINK, the fields the views read (pure) --------------------- */

struct mlx_link_info {
	char ifname[MLX_IFNAME_LEN];
	int ifindex;
	unsigned flags;                 /* ifi_flags: IFF_* */
	unsigned short type;            /* ifi_type: ARPHRD_* */
	int64_t promiscuity, allmulti;  /* IFLA_PROMISCUITY, IFLA_ALLMULTI; -1 absent */
	int64_t num_tx_queues, num_rx_queues;   /* -1 absent */
	int link;                       /* IFLA_LINK, 0 absent */
	uint8_t addr[32];
	size_t addr_len;                /* IFLA_ADDRESS */
	char kind[16];                  /* IFLA_INFO_KIND, "" none */
	/* kind "ipoib" (include/uapi/linux/if_link.h IFLA_IPOIB_*) */
	int pkey, mode, umcast;         /* -1 absent; mode 0 datagram, 1 connected */
	/* kind "vxlan" */
	struct mlx_vxlan_dev vxlan;
	int64_t mtu;                    /* IFLA_MTU, -1 absent */
	int operstate;                  /* IFLA_OPERSTATE (IF_OPER_*), -1 absent */
	/* kind "vlan" (include/uapi/linux/if_link.h IFLA_VLAN_*; net/8021q/
	 * vlan_netlink.c vlan_fill_info): the id (-1 absent), the protocol
	 * (ETH_P_8021Q/ETH_P_8021AD, host order; 0 absent), the egress map
	 * (skb priority -> PCP: what tags the traffic of a priority) */
	int vlan_id;
	uint16_t vlan_proto;
	size_t vlan_negress;            /* entries kept (at most MLX_VLAN_QOS_MAX) */
	struct mlx_vlan_qos { uint32_t from, to; } vlan_egress[16];
};
#define MLX_VLAN_QOS_MAX 16
/* One RTM_NEWLINK message; -EBADMSG malformed, -ENOMSG another type. */
int mlx_link_info_decode(const struct nlmsghdr *h, size_t len, struct mlx_link_info *out);
/* RTM_GETLINK for @ifname ("getlink-linkinfo", the request rdma's GID
 * table sends too: one request, one recording). */
int mlx_link_info_get(struct mlx_ctx *ctx, const char *ifname, struct mlx_link_info *out);
/* Every VXLAN netdev (see above); *out malloc'ed. */
int mlx_vxlan_devs_get(struct mlx_ctx *ctx, struct mlx_vxlan_dev **out, size_t *n);

/* ---- child netdevs of a port: VLANs and IPoIB partitions ------------------ */

/*
 * A VLAN is a netdev of its own stacked on a port (net/8021q/vlan_netlink.c:
 * RTM_NEWLINK with IFLA_LINK the port, kind "vlan", IFLA_VLAN_ID 1..4094,
 * IFLA_VLAN_PROTOCOL 802.1Q or 802.1ad, IFLA_VLAN_EGRESS_QOS the skb
 * priority -> PCP map); an IPoIB child is a partition of an IPoIB port
 * (drivers/infiniband/ulp/ipoib/ipoib_netlink.c: kind "ipoib",
 * IFLA_IPOIB_PKEY, IFLA_IPOIB_MODE 0 datagram / 1 connected; the parent
 * must be ARPHRD_INFINIBAND and no child itself, else -ENODEV / -EINVAL).
 * Both go away with RTM_DELLINK of their name.  Listed from the link dump
 * ("getlink-dump", the one recording the VXLAN view reads too).
 */
enum mlx_child_kind { MLX_CHILD_VLAN, MLX_CHILD_IPOIB, MLX_CHILD_NKINDS };
/* "vlan", "ipoib" */
const char *mlx_child_kind_name(enum mlx_child_kind k);

#define MLX_ETH_P_8021Q 0x8100
#define MLX_ETH_P_8021AD 0x88a8
#define MLX_IPOIB_FULL_MEMBER 0x8000

struct mlx_child_req {
	enum mlx_child_kind kind;
	bool del;                       /* RTM_DELLINK of @name */
	char name[MLX_IFNAME_LEN];
	uint32_t parent_index;          /* IFLA_LINK */
	uint16_t id;                    /* the VLAN id, the pkey */
	uint16_t proto;                 /* VLAN: ETH_P_8021Q/AD; 0 the kernel's default (802.1Q) */
	int mode;                       /* IPoIB: 0 datagram, 1 connected; -1 not sent */
	size_t negress;
	struct mlx_vlan_qos egress[MLX_VLAN_QOS_MAX];
	/* A child made again (the put-back of a delete): as it was, its index
	 * (ifi_index; 0 the kernel's choice), up (IFF_UP in ifi_flags and
	 * ifi_change: rtnl_newlink brings it up), its MTU (0 the parent's)
	 * and address (0 bytes: the parent's) */
	int ifindex;
	bool up;
	int64_t mtu;
	uint8_t addr[32];
	size_t addr_len;
};
/* Pure: the request (RTM_NEWLINK with NLM_F_CREATE|NLM_F_EXCL, or
 * RTM_DELLINK), its length; -EINVAL for a request no kernel takes (no
 * name, an id out of range), -EMSGSIZE. */
int mlx_child_req_build(void *buf, size_t cap, const struct mlx_child_req *rq);
/* Pure, the other way (the captured system's emulator): 0, -ENOENT for a
 * message that is neither, -EINVAL malformed (@why says what). */
int mlx_child_req_parse(const void *req, size_t len, struct mlx_child_req *out, char *why,
			size_t whylen);

/* Every netdev of the host (the link dump): *out malloc'ed. */
int mlx_links_dump(struct mlx_ctx *ctx, struct mlx_link_info **out, size_t *n);
/* Send @rq (object: the parent's name, or the child's for a delete).
 * 0, or -errno with the kernel's words in mlx_errmsg: -EOPNOTSUPP when
 * the kernel has no such kind (no 8021q, no ib_ipoib module), -EEXIST a
 * duplicate, -ENODEV no parent (or, IPoIB, one that is no IPoIB port). */
int mlx_child_send(struct mlx_ctx *ctx, const char *object, const struct mlx_child_req *rq);

/* ---- packet filter ------------------------------------------------------ */

#define MLX_ADDR_TEXT 64                /* 20-byte IPoIB addresses in hex with ':' */
struct mlx_hw_addr {
	char text[MLX_ADDR_TEXT];       /* "01:00:5e:00:00:01" */
	bool multicast;                 /* the group bit of the first byte */
	int64_t users;                  /* /proc/net/dev_mcast refcount, -1 unknown */
	bool global;                    /* dev_mcast's global_use */
};

struct mlx_filter {
	char ifname[MLX_IFNAME_LEN];
	struct mlx_link_info link;
	int link_err;                   /* 0, or why the link fields are unknown */
	/* the address lists: from the fdb dump, else dev_mcast (multicast only) */
	const char *lists_source;       /* "rtnetlink", "/proc/net/dev_mcast", NULL */
	int lists_err;
	struct mlx_hw_addr *uc, *mc;
	size_t nuc, nmc;
};

/* Pure: one RTM_NEWNEIGH of the PF_BRIDGE fdb dump: its interface index
 * and its link-layer address into @a.  1 when it is an entry of
 * @ifindex with an address, 0 another's or none, -EBADMSG malformed. */
int mlx_fdb_decode(const struct nlmsghdr *h, size_t len, int ifindex, struct mlx_hw_addr *a);
/* Pure: the lines of /proc/net/dev_mcast ("%-4d %-15s %-5d %-5d %*phN",
 * net/core/dev_addr_lists.c dev_mc_seq_show) for @ifname; *out malloc'ed.
 * -EBADMSG on a line that is not of that form. */
int mlx_dev_mcast_parse(const char *text, size_t len, const char *ifname,
			struct mlx_hw_addr **out, size_t *n);
/* Pure: bytes as "aa:bb:..", the group bit in *multicast. */
void mlx_hw_addr_format(const uint8_t *a, size_t n, struct mlx_hw_addr *out);
int mlx_filter_get(struct mlx_ctx *ctx, const char *ifname, struct mlx_filter *out);
void mlx_filter_free(struct mlx_filter *f);

/* ---- CPU sets ----------------------------------------------------------- */

#define MLX_CPUS_MAX 4096
struct mlx_cpuset {
	uint64_t w[MLX_CPUS_MAX / 64];
};
/* Pure: "0-3,8,10-11" (sysfs/procfs *_list files); "" is the empty set.
 * -EINVAL otherwise, -ERANGE for a CPU at or above MLX_CPUS_MAX. */
int mlx_cpulist_parse(const char *s, struct mlx_cpuset *out);
/* Pure: a hex mask in 32-bit words separated by ',' ("00000000,0000000f",
 * lib/bitmap.c bitmap_print_to_pagebuf's mask form: xps_cpus, rps_cpus). */
int mlx_cpumask_parse(const char *s, struct mlx_cpuset *out);
/* The list form back ("0-3,8"); "" when empty. */
const char *mlx_cpulist_format(const struct mlx_cpuset *c, char *buf, size_t len);
bool mlx_cpuset_empty(const struct mlx_cpuset *c);
/* Is every CPU of @a in @b? */
bool mlx_cpuset_subset(const struct mlx_cpuset *a, const struct mlx_cpuset *b);
unsigned mlx_cpuset_count(const struct mlx_cpuset *c);

/* ---- IRQ and RSS placement ----------------------------------------------- */

enum mlx_irq_kind {
	MLX_IRQ_COMP,          /* mlx5_comp<N>: completion vector N, channel N */
	MLX_IRQ_ASYNC,         /* mlx5_async<N>: commands, pages, events */
	MLX_IRQ_CTRL,          /* mlx5_ctrl: the control EQ of SFs and newer drivers */
	MLX_IRQ_OTHER,
};
/* Pure: an IRQ action name of mlx5 ("mlx5_comp3@pci:0000:5e:00.0",
 * drivers/net/ethernet/mellanox/mlx5/core/pci_irq.c irq_set_name and
 * "%s@pci:%s"): its kind and N (-1 none); the PCI address after "@pci:"
 * into @bdf ("" when absent). */
enum mlx_irq_kind mlx_irq_name_parse(const char *name, int *index, char *bdf, size_t len);
const char *mlx_irq_kind_name(enum mlx_irq_kind k);

struct mlx_irq {
	unsigned irq;
	char name[64];                  /* the action's name, "" unknown */
	enum mlx_irq_kind kind;
	int index;
	bool have_affinity, have_effective;
	struct mlx_cpuset affinity;     /* smp_affinity_list */
	struct mlx_cpuset effective;    /* effective_affinity_list */
	int node;                       /* /proc/irq/N/node, -1 unknown */
};

#define MLX_RSS_MAX_INDIR 4096
#define MLX_RSS_MAX_KEY 128
#define MLX_RSS_NFLOWS 8
struct mlx_rss {
	uint32_t hfunc;                 /* ETH_RSS_HASH_* bits; 0 unknown */
	uint32_t input_xfrm;            /* RXH_XFRM_* bits */
	uint32_t context;
	size_t indir_size;              /* entries the device has */
	size_t nindir;                  /* entries kept (<= MLX_RSS_MAX_INDIR) */
	uint32_t indir[MLX_RSS_MAX_INDIR];
	size_t key_len;
	uint8_t key[MLX_RSS_MAX_KEY];
	/* ETHTOOL_A_RSS_FLOW_HASH (Linux 6.17): per flow type the RXH_* fields
	 * hashed; have_flows false when the kernel does not say */
	bool have_flows;
	int64_t flow[MLX_RSS_NFLOWS];   /* -1 absent; index: mlx_rss_flow_names */
};
/* "tcp4", "udp4", "tcp6", "udp6", "ip4", "ip6", "sctp4", "sctp6" */
extern const char *const mlx_rss_flow_names[MLX_RSS_NFLOWS];
/* "toeplitz", "xor", "crc32" for an ETH_RSS_HASH_* bit (its index). */
const char *mlx_rss_hfunc_name(uint32_t hfunc);
/* The RXH_* field names of a flow hash ("l3-src", "l3-dst", "l4-b-0-1",
 * ...) into @names; their count. */
size_t mlx_rss_fields(uint64_t rxh, const char **names, size_t max);
int mlx_rss_build(void *buf, size_t cap, const char *ifname);
/* Pure: one RSS_GET_REPLY; -EBADMSG, -ENOMSG as above. */
int mlx_rss_decode(const struct nlmsghdr *h, size_t len, struct mlx_rss *out);
/* "rss-get": -EOPNOTSUPP when the driver has no RSS (mlx_errmsg says why;
 * kernels before 6.4 have no ETHTOOL_MSG_RSS_GET). */
int mlx_rss_get(struct mlx_ctx *ctx, const char *ifname, struct mlx_rss *out);

struct mlx_queue_map {
	unsigned queue;
	bool have;                      /* the file was there and readable */
	struct mlx_cpuset cpus;
};

struct mlx_port_placement {
	char ifname[MLX_IFNAME_LEN];
	size_t ntx, nrx;                /* queues (sysfs queues/tx-N, rx-N) */
	struct mlx_queue_map *xps;      /* per tx queue: xps_cpus */
	struct mlx_queue_map *rps;      /* per rx queue: rps_cpus */
	int xps_err;                    /* 0, -ENOENT (no queues/), ... */
	struct mlx_rss rss;
	int rss_err;
};

struct mlx_placement {
	char bdf[MLX_BDF_LEN];
	int numa_node;                  /* -1 unknown */
	bool have_local;
	struct mlx_cpuset local;        /* local_cpulist */
	struct mlx_cpuset online;       /* /sys/devices/system/cpu/online */
	bool have_online;
	struct mlx_irq *irq;
	size_t nirq;
	int irq_err;                    /* 0, or why the IRQs are unknown */
	struct mlx_port_placement *port;
	size_t nport;
};
/* @fn's IRQs (msi_irqs/ and /proc/irq), its NUMA placement and, for each
 * of its ports, the XPS/RPS maps and RSS.  0 or -errno (out of memory);
 * the parts that could not be read say so in their *_err. */
int mlx_placement_get(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_placement *out);
/* The same for a netdev that is no ConnectX port (--any-netdev): no IRQs
 * unless it has a PCI device. */
int mlx_placement_netdev(struct mlx_ctx *ctx, const char *ifname, struct mlx_placement *out);
void mlx_placement_free(struct mlx_placement *p);
/* The completion IRQs of @p whose effective CPUs (else their affinity)
 * are not all local to the device's NUMA node: their count; 0 when the
 * node is unknown. */
size_t mlx_placement_remote_irqs(const struct mlx_placement *p);

/* ---- IPoIB ------------------------------------------------------------- */

#define MLX_PKEYS_MAX 128
struct mlx_pkey_table {
	char rdma_dev[MLX_NAME_LEN];
	unsigned port;
	char link_layer[16];
	size_t n;                       /* valid entries (pkey != 0) */
	struct { unsigned index; uint16_t pkey; } e[MLX_PKEYS_MAX];
	size_t table_size;              /* entries the port has */
};
/* Pure: one pkeys/N value ("0xffff"): the pkey; -EINVAL otherwise. */
int mlx_pkey_parse(const char *s, uint16_t *pkey);
/* The PKey table of @dev port @port; -ENOENT when the port has none
 * (an Ethernet port has no pkeys/ in current kernels). */
int mlx_pkeys_get(struct mlx_ctx *ctx, const char *dev, unsigned port, struct mlx_pkey_table *out);

struct mlx_ipoib_if {
	char ifname[MLX_IFNAME_LEN];
	char parent[MLX_IFNAME_LEN];    /* "" for a parent */
	char bdf[MLX_BDF_LEN];          /* its PCI function, "" unknown */
	int pkey;                       /* -1 unknown */
	char mode[16];                  /* "datagram", "connected", "" */
	int umcast;                     /* -1 unknown */
	char address[MLX_ADDR_TEXT];    /* 20 bytes: flags+QPN, then the GID */
	uint32_t qpn;                   /* from the address, 0 unknown */
	char gid[48];                   /* from the address, "" unknown */
	unsigned mtu;
	char operstate[16];
	unsigned port;                  /* the IB port it runs on (dev_port + 1), 0 unknown */
};
/* Pure: a 20-byte IPoIB hardware address: QPN (24 bits after the flags
 * byte) and the GID as text.  -EINVAL for another length. */
int mlx_ipoib_addr(const uint8_t *a, size_t n, uint32_t *qpn, char *gid, size_t gidlen);
/* Every IPoIB netdev (type 32, ARPHRD_INFINIBAND) of the host, parents
 * and children, in name order.  *out malloc'ed; 0 and none on a host
 * without InfiniBand. */
int mlx_ipoib_list(struct mlx_ctx *ctx, struct mlx_ipoib_if **out, size_t *n);

/* ipoib debugfs (root): <if>_mcg and <if>_path. */
struct mlx_ipoib_ep {
	char gid[48];
	bool complete;
	int64_t created;                /* mcg: jiffies-based age the kernel prints, -1 */
	int64_t queuelen;               /* mcg, -1 */
	int send_only;                  /* mcg: 1, 0, -1 unknown */
	int64_t dlid;                   /* path: -1 */
	int64_t sl;                     /* path: -1 */
	char rate[16];                  /* path: "100.0 Gb/sec" */
};
/* Pure: the text of ipoib_fs.c's ipoib_mcg_seq_show or ipoib_path_seq_show
 * (blocks "GID: ...", indented "key: value" lines, a blank line). */
int mlx_ipoib_debugfs_parse(const char *text, size_t len, struct mlx_ipoib_ep **out, size_t *n);
/* @kind "mcg" or "path" of @ifname; -EACCES (debugfs needs root), -ENOENT. */
int mlx_ipoib_endpoints(struct mlx_ctx *ctx, const char *ifname, const char *kind,
			struct mlx_ipoib_ep **out, size_t *n);

/* ---- dropless (mlx5_ib delay drop) -------------------------------------- */

struct mlx_delay_drop {
	char bdf[MLX_BDF_LEN];
	int64_t timeout_usec;           /* -1 unknown */
	int64_t timeout_events;         /* num_timeout_events, -1 */
	int64_t rqs;                    /* num_rqs: RQs with delay drop armed, -1 */
	int err;                        /* 0; -ENOENT no delay_drop/ (no mlx5_ib, or
					 * no IB_RAW_PACKET_CAP_DELAY_DROP); -EACCES */
};
int mlx_delay_drop_get(struct mlx_ctx *ctx, const char *bdf, struct mlx_delay_drop *out);

/* ---- mlx5 debugfs EQ, CQ and QP lists ------------------------------------- */

enum mlx_rsc_kind { MLX_RSC_EQ, MLX_RSC_CQ, MLX_RSC_QP, MLX_RSC_NKINDS };
#define MLX_RSC_MAX_FIELDS 9
struct mlx_rsc {
	uint32_t number;                /* the directory's "0x1a" */
	size_t n;
	struct { const char *name; char value[24]; } f[MLX_RSC_MAX_FIELDS];
};
/* "eqs", "cqs", "qps"; the debugfs directory "EQs", "CQs", "QPs". */
const char *mlx_rsc_kind_name(enum mlx_rsc_kind k);
/* The objects of one kind of @bdf, at most @max (each field read is a
 * firmware query: a bounded read on a large host); *truncated when there
 * were more.  -ENOENT no such directory, -EACCES. */
int mlx_rsc_list(struct mlx_ctx *ctx, const char *bdf, enum mlx_rsc_kind kind, size_t max,
		 struct mlx_rsc **out, size_t *n, bool *truncated);

/* ---- snapshots ---------------------------------------------------------- */

/*
 * `mlxcli snapshot`: the netlink replies the views read (tunnel info,
 * features, RSS, the fdb lists, the link info of each port) are recorded
 * by running the queries while the capture records; the files they read
 * that a function's sysfs tree does not hold are named here for the
 * snapshot to copy: /proc/irq/N/{smp_affinity_list,effective_affinity_list,
 * node} and the action's name, each port's queues/{tx,rx}-N/{xps,rps}_cpus,
 * /proc/net/dev_mcast, /sys/devices/system/cpu/online.  @files and @dirs
 * are NULL-terminated (mlx_strv_free).
 */
int mlx_netview_record(struct mlx_ctx *ctx, const struct mlx_devices *devs);
int mlx_netview_capture_paths(struct mlx_ctx *ctx, const struct mlx_devices *devs, char ***files,
			      char ***dirs);

#endif /* MLX_NETVIEW_H */
