/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The RDMA half of a port (issue 24): RDMA netlink (NETLINK_RDMA, client
 * RDMA_NL_NLDEV; include/uapi/rdma/rdma_netlink.h, drivers/infiniband/core/
 * nldev.c), the GID table in sysfs, and the joins `mlxcli rdma` makes.
 *
 * Every request goes through mlx_nl_query() (MLX_NL_RDMA), so a live query
 * records itself into a snapshot being taken and --sysroot replays the same
 * bytes into the same decoders.  The capture files, under netlink/rdma/:
 *   all/get.nl                  RDMA_NLDEV_CMD_GET dump (every device)
 *   all/res-get.nl              RDMA_NLDEV_CMD_RES_GET dump (counts)
 *   <dev>/port-get.nl           RDMA_NLDEV_CMD_PORT_GET dump
 *   <dev>/res-<kind>-get.nl     RDMA_NLDEV_CMD_RES_<KIND>_GET dump
 *   <dev>/res-<kind>-get-raw.nl RES_{QP,CQ,MR,SRQ}_GET_RAW (root only)
 *   <dev>/stat-get-port<N>.nl   STAT_GET of the port's default counters
 *   <dev>/stat-mode-port<N>.nl  STAT_GET of the port's QP counter mode
 *   <dev>/stat-status-port<N>.nl STAT_GET_STATUS (optional counters)
 *   <dev>/stat-qp-get.nl        STAT_GET dump of the bound QP counters
 * and /proc/<pid>/comm of every process that owns a resource.  Requests
 * name a device by its index (the kernel's, from the GET dump), so a
 * capture answers with the indexes it recorded, consistently.
 *
 * What the kernel gives without CAP_NET_ADMIN (nldev.c): every resource,
 * but no MR rkey/lkey and no PD local_dma_lkey/unsafe_global_rkey; the
 * _RAW dumps answer EPERM (RDMA_NL_ADMIN_PERM).  Older kernels also hid
 * the resources of processes in other PID namespaces
 * (rdma_is_visible_in_pid_ns, since removed).
 */
#ifndef MLX_RDMA_H
#define MLX_RDMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

#include "mlx.h"

#define MLX_RDMA_NAME_LEN 64

/* The resource types, in the kernel's summary order (nldev.c fill_res_info:
 * pd, cq, qp, cm_id, mr, ctx, srq); the names are the kernel's. */
enum mlx_rdma_kind {
	MLX_RDMA_PD, MLX_RDMA_CQ, MLX_RDMA_QP, MLX_RDMA_CM_ID, MLX_RDMA_MR,
	MLX_RDMA_CTX, MLX_RDMA_SRQ, MLX_RDMA_NKINDS
};
/* "pd", "cq", "qp", "cm_id", "mr", "ctx", "srq"; NULL out of range. */
const char *mlx_rdma_kind_name(enum mlx_rdma_kind k);
/* The kind of a name above (also "cm-id"); -1 when none. */
int mlx_rdma_kind_parse(const char *name);
/* Has the kind a _RAW dump (QP, CQ, MR, SRQ)? */
bool mlx_rdma_kind_has_raw(enum mlx_rdma_kind k);

/* ---- enum names (pure) ------------------------------------------------- */
/* IB port state (ib_verbs.h enum ib_port_state): "DOWN", "INIT", "ARMED",
 * "ACTIVE", "ACTIVE_DEFER"; NULL when out of range. */
const char *mlx_rdma_port_state_name(int v);
/* Physical state (IBTA PortPhysicalState): "SLEEP", "POLLING", "DISABLED",
 * "PORT_CONFIGURATION_TRAINING", "LINK_UP", "LINK_ERROR_RECOVERY",
 * "PHY_TEST"; NULL when out of range. */
const char *mlx_rdma_phys_state_name(int v);
/* QP type (enum ib_qp_type): "SMI", "GSI", "RC", "UC", "UD", "RAW_IPV6",
 * "RAW_ETHERTYPE", "RAW_PACKET", "XRC_INI", "XRC_TGT", "DRIVER"; NULL. */
const char *mlx_rdma_qp_type_name(int v);
/* QP state (enum ib_qp_state): "RESET", "INIT", "RTR", "RTS", "SQD", "SQE",
 * "ERR"; NULL.  And the reverse, -1 when the name is none of them. */
const char *mlx_rdma_qp_state_name(int v);
int mlx_rdma_qp_state_parse(const char *name);
/* rdma_cm state (cma_priv.h enum rdma_cm_state): "IDLE", "ADDR_QUERY",
 * "ADDR_RESOLVED", "ROUTE_QUERY", "ROUTE_RESOLVED", "CONNECT", "DISCONNECT",
 * "ADDR_BOUND", "LISTEN", "DEVICE_REMOVAL", "DESTROYING"; NULL. */
const char *mlx_rdma_cm_state_name(int v);
int mlx_rdma_cm_state_parse(const char *name);
/* rdma_cm port space (rdma_cm.h enum rdma_ucm_port_space): "IPOIB", "TCP",
 * "UDP", "IB"; NULL. */
const char *mlx_rdma_ps_name(uint32_t v);
/* CQ poll context (enum ib_poll_context): "DIRECT", "SOFTIRQ", "WORKQUEUE",
 * "UNBOUND_WORKQUEUE"; NULL. */
const char *mlx_rdma_poll_ctx_name(int v);
/* SRQ type (enum ib_srq_type): "BASIC", "XRC", "TM"; NULL. */
const char *mlx_rdma_srq_type_name(int v);
/* Counter mode (enum rdma_nl_counter_mode): "none", "auto", "manual". */
const char *mlx_rdma_counter_mode_name(int v);
/* Is a QP or CM ID in this state a failure (--errors)?  QP: ERR, SQE.  CM
 * ID: no state says "failed" by itself; an ID that holds a QP in error does
 * (the caller joins), and so does one gone back to IDLE/ADDR_BOUND with a
 * destination set (a connect that was refused or timed out). */
bool mlx_rdma_qp_state_failed(int state);

/* ---- records ------------------------------------------------------------ */

struct mlx_rdma_dev {
	uint32_t index;
	char name[MLX_RDMA_NAME_LEN];
	uint32_t nports;              /* the GET reply's PORT_INDEX: the last port */
	uint64_t cap_flags;
	char fw_ver[MLX_RDMA_NAME_LEN];   /* "" none */
	uint64_t node_guid, sys_image_guid;
	int node_type;                /* -1 unknown */
	char protocol[16];            /* "roce", "ib", "iw", "opa", "usnic" or "" */
	char parent[MLX_RDMA_NAME_LEN];   /* a sub-device's parent, or "" */
};

struct mlx_rdma_port {
	uint32_t dev_index;
	char dev[MLX_RDMA_NAME_LEN];
	uint32_t port;
	int state, phys_state;        /* -1 unknown */
	int64_t netdev_index;         /* -1: none in this namespace */
	char netdev[16];
	bool has_ib;                  /* the IB fields below are set */
	uint64_t cap_flags, subnet_prefix;
	uint32_t lid, sm_lid;
	uint8_t lmc;
};

struct mlx_rdma_summary {
	uint32_t dev_index;
	char dev[MLX_RDMA_NAME_LEN];
	int64_t count[MLX_RDMA_NKINDS];   /* -1: the kernel did not say */
};

/* A socket address of a CM ID (__kernel_sockaddr_storage), decoded. */
struct mlx_rdma_addr {
	uint16_t family;              /* 0 none, AF_INET, AF_INET6, AF_IB */
	uint16_t port;                /* host order */
	uint8_t addr[16];             /* AF_INET: 4 bytes; AF_INET6/AF_IB: 16 */
};
/* "192.0.2.1:4791", "[fe80::1]:4791", "ib:<gid>"; "" for none.  Pure. */
const char *mlx_rdma_addr_str(const struct mlx_rdma_addr *a, char *buf, size_t len);
/* Without the port ("192.0.2.1"); "" for none.  Pure. */
const char *mlx_rdma_addr_ip(const struct mlx_rdma_addr *a, char *buf, size_t len);

/* Which optional fields of a resource the kernel sent. */
enum {
	MLX_RES_PORT = 1u << 0, MLX_RES_PID = 1u << 1, MLX_RES_KERN = 1u << 2,
	MLX_RES_RQPN = 1u << 3, MLX_RES_RQ_PSN = 1u << 4, MLX_RES_SQ_PSN = 1u << 5,
	MLX_RES_MIG = 1u << 6, MLX_RES_TYPE = 1u << 7, MLX_RES_STATE = 1u << 8,
	MLX_RES_PDN = 1u << 9, MLX_RES_CQN = 1u << 10, MLX_RES_CTXN = 1u << 11,
	MLX_RES_LQPN = 1u << 12, MLX_RES_PS = 1u << 13, MLX_RES_CQE = 1u << 14,
	MLX_RES_USECNT = 1u << 15, MLX_RES_POLL = 1u << 16, MLX_RES_DIM = 1u << 17,
	MLX_RES_RKEY = 1u << 18, MLX_RES_LKEY = 1u << 19, MLX_RES_IOVA = 1u << 20,
	MLX_RES_MRLEN = 1u << 21, MLX_RES_DMA_LKEY = 1u << 22, MLX_RES_GLOBAL_RKEY = 1u << 23,
	MLX_RES_ID = 1u << 24, MLX_RES_SUBTYPE = 1u << 25,
};

/* One resource of any kind (the fields its kind has; `has` says which). */
struct mlx_rdma_res {
	uint8_t kind;                 /* enum mlx_rdma_kind */
	uint8_t type, state, mig, poll_ctx, dim;
	uint32_t dev_index;
	uint32_t has;
	uint32_t id;                  /* lqpn, cm_idn, cqn, mrn, pdn, ctxn, srqn */
	uint32_t port, pid;
	uint32_t rqpn, rq_psn, sq_psn;
	uint32_t pdn, cqn, ctxn, lqpn, ps, cqe;
	uint32_t rkey, lkey, dma_lkey, global_rkey;
	uint64_t usecnt, iova, mrlen;
	struct mlx_rdma_addr src, dst;
	char kern[32];                /* kernel owner ("ib_core"), "" for a process */
	char subtype[16];             /* a driver QP's ("REG_UMR") */
	char srq_qps[48];             /* an SRQ's QPs as the kernel ranges them ("5-7,9") */
};

struct mlx_rdma_res_list {
	struct mlx_rdma_res *v;
	size_t n, cap;
};
void mlx_rdma_res_list_free(struct mlx_rdma_res_list *l);

/* A vendor context (RES_*_GET_RAW): opaque bytes, per object. */
struct mlx_rdma_raw {
	uint8_t kind;
	uint32_t dev_index, id;
	bool has_id;
	uint8_t *data;
	size_t len;
};
struct mlx_rdma_raw_list {
	struct mlx_rdma_raw *v;
	size_t n, cap;
};
void mlx_rdma_raw_list_free(struct mlx_rdma_raw_list *l);

/* A hardware counter (STAT_GET, STAT_GET_STATUS). */
struct mlx_rdma_hwc {
	char name[64];
	uint64_t value;
	bool has_value;
	int index;                    /* STAT_GET_STATUS's index, -1 */
	int enabled;                  /* optional counter: 1 on, 0 off; -1 not optional */
};

/* The counters of a port: STAT_GET (values), STAT_GET_STATUS (which are
 * optional, enabled), and the QP counter mode. */
struct mlx_rdma_stat {
	uint32_t dev_index, port;
	struct mlx_rdma_hwc *c;
	size_t n, cap;
	int mode;                     /* enum rdma_nl_counter_mode, -1 unknown */
	int64_t auto_mask;            /* -1 none */
};
void mlx_rdma_stat_free(struct mlx_rdma_stat *s);

/* A bound (per-QP) counter from the STAT_GET dump. */
struct mlx_rdma_counter {
	uint32_t dev_index, port, id;
	int mode;                     /* -1 unknown */
	int qp_type;                  /* auto mode by QP type: the type, else -1 */
	int64_t pid;                  /* auto mode by PID: the PID, else -1 */
	uint32_t *qpn;
	size_t nqpn;
	struct mlx_rdma_hwc *c;
	size_t n, cap;
};
struct mlx_rdma_counter_list {
	struct mlx_rdma_counter *v;
	size_t n, cap;
};
void mlx_rdma_counter_list_free(struct mlx_rdma_counter_list *l);

/* ---- pure decoders: one reply message each (-EBADMSG on garbage, with
 * the story in @err) ------------------------------------------------------- */

/* The NLDEV command a message carries (RDMA_NL_GET_OP of its type): -EBADMSG
 * when it is no RDMA_NL_NLDEV message or shorter than its header. */
int mlx_rdma_msg_cmd(const struct nlmsghdr *h, size_t len);
int mlx_rdma_decode_dev(const struct nlmsghdr *h, size_t len, struct mlx_rdma_dev *d,
			char *err, size_t errlen);
int mlx_rdma_decode_port(const struct nlmsghdr *h, size_t len, struct mlx_rdma_port *p,
			 char *err, size_t errlen);
int mlx_rdma_decode_summary(const struct nlmsghdr *h, size_t len, struct mlx_rdma_summary *s,
			    char *err, size_t errlen);
/* A RES_<KIND>_GET reply: every entry of its table appended to @out. */
int mlx_rdma_decode_res(const struct nlmsghdr *h, size_t len, enum mlx_rdma_kind kind,
			struct mlx_rdma_res_list *out, char *err, size_t errlen);
/* A RES_<KIND>_GET_RAW reply: each entry's RES_RAW bytes appended. */
int mlx_rdma_decode_raw(const struct nlmsghdr *h, size_t len, enum mlx_rdma_kind kind,
			struct mlx_rdma_raw_list *out, char *err, size_t errlen);
/* STAT_GET (values, mode) and STAT_GET_STATUS (optional, enabled) replies,
 * merged into @s by counter name. */
int mlx_rdma_decode_stat(const struct nlmsghdr *h, size_t len, struct mlx_rdma_stat *s,
			 char *err, size_t errlen);
/* A STAT_GET dump reply (RES=QP): its counters appended. */
int mlx_rdma_decode_counters(const struct nlmsghdr *h, size_t len,
			     struct mlx_rdma_counter_list *out, char *err, size_t errlen);

/* ---- requests (pure builders; tests compare the bytes) ------------------- */
/* @cmd with NLM_F_DUMP when @dump; @dev_index/@port: 0 = not sent;
 * @stat_res: RDMA_NLDEV_ATTR_STAT_RES value or 0; @stat_mode: send
 * STAT_MODE (the mode query). */
int mlx_rdma_build(void *buf, size_t cap, uint16_t cmd, bool dump, uint32_t dev_index,
		   bool has_dev, uint32_t port, uint32_t stat_res, bool stat_mode);

/* ---- queries (through the kernel boundary) ------------------------------- */

struct mlx_rdma_devs {
	struct mlx_rdma_dev *v;
	size_t n;
};
void mlx_rdma_devs_free(struct mlx_rdma_devs *d);
/* Every RDMA device (GET dump).  -EPROTONOSUPPORT/-ENODATA: no RDMA
 * netlink (no ib_core) or a capture without it. */
int mlx_rdma_devs_get(struct mlx_ctx *ctx, struct mlx_rdma_devs *out);
const struct mlx_rdma_dev *mlx_rdma_dev_find(const struct mlx_rdma_devs *d, const char *name);
int mlx_rdma_ports_get(struct mlx_ctx *ctx, const struct mlx_rdma_dev *d,
		       struct mlx_rdma_port **v, size_t *n);
/* The resource counts of every device (RES_GET dump). */
int mlx_rdma_summary_get(struct mlx_ctx *ctx, struct mlx_rdma_summary **v, size_t *n);
int mlx_rdma_res_get(struct mlx_ctx *ctx, const struct mlx_rdma_dev *d, enum mlx_rdma_kind k,
		     struct mlx_rdma_res_list *out);
int mlx_rdma_raw_get(struct mlx_ctx *ctx, const struct mlx_rdma_dev *d, enum mlx_rdma_kind k,
		     struct mlx_rdma_raw_list *out);
/* A port's counters, optional-counter status and QP counter mode; each
 * part the kernel refuses stays empty/unknown (0 if any part answered). */
int mlx_rdma_stat_get(struct mlx_ctx *ctx, const struct mlx_rdma_dev *d, uint32_t port,
		      struct mlx_rdma_stat *out);
int mlx_rdma_counters_get(struct mlx_ctx *ctx, const struct mlx_rdma_dev *d,
			  struct mlx_rdma_counter_list *out);
/* The RDMA port whose netdev is @ifname (RDMA netlink's PORT_GET, so a
 * software device on any netdev too: rdma_rxe on a veth): its device's
 * name into @dev and its port number.  0, -ENOENT when no RDMA port is on
 * that netdev (or the kernel has no RDMA netlink), else -errno. */
int mlx_rdma_port_of_netdev(struct mlx_ctx *ctx, const char *ifname, char *dev, size_t len,
			    uint32_t *port);
/* The name of a process (/proc/<pid>/comm, recorded with a snapshot):
 * "" when gone or unreadable. */
void mlx_rdma_comm(struct mlx_ctx *ctx, uint32_t pid, char *buf, size_t len);
/* Query everything above for every device (a snapshot is being recorded:
 * the queries record themselves); @raw: the vendor contexts too.  Failures
 * are not fatal (their error replies are recorded). */
void mlx_rdma_record(struct mlx_ctx *ctx, bool raw);

/* Can this reader see MR and PD keys and raw contexts (CAP_NET_ADMIN on a
 * live system; a capture says by what it holds)? */
bool mlx_rdma_privileged(struct mlx_ctx *ctx);
/* /sys/module/<module>/version (MLNX_OFED's modules have one; in-tree
 * modules do not): -ENOENT then. */
int mlx_rdma_driver_version(struct mlx_ctx *ctx, const char *module, char *buf, size_t len);
/* One hw_counters file of a port (the sysfs side of `rdma stats`). */
int mlx_rdma_hw_counter(struct mlx_ctx *ctx, const char *dev, uint32_t port, const char *name,
			uint64_t *v);
/* The MTU of any netdev (a veth under rxe too): 0 or -errno. */
int mlx_rdma_netdev_mtu(struct mlx_ctx *ctx, const char *ifname, unsigned *mtu);

/* ---- the GID table (sysfs ports/<p>/gids, gid_attrs/{types,ndevs}) ------ */

enum mlx_gid_type { MLX_GID_IB = 0, MLX_GID_ROCE_V1, MLX_GID_ROCE_V2, MLX_GID_UNKNOWN };

struct mlx_gid {
	unsigned index;
	uint8_t gid[16];
	char text[48];                /* as sysfs prints it */
	enum mlx_gid_type type;
	char netdev[16];              /* "" none */
	int vlan;                     /* -1 none */
	char ipv4[16];                /* the IPv4 address of a mapped GID, "" */
};

/* Pure: a GID in sysfs's "%pI6" form (or any inet6 text) into 16 bytes;
 * -EINVAL when it is none. */
int mlx_gid_parse(const char *text, uint8_t gid[16]);
/* Pure: gid_attrs/types text ("IB/RoCE v1", "RoCE v2"); the link layer
 * decides "IB/RoCE v1" (InfiniBand: IB).  MLX_GID_UNKNOWN otherwise. */
enum mlx_gid_type mlx_gid_type_parse(const char *text, bool ethernet);
const char *mlx_gid_type_name(enum mlx_gid_type t);   /* "IB", "RoCE v1", "RoCE v2" */
/* Pure: is it all zeros (an empty slot)? */
bool mlx_gid_is_zero(const uint8_t gid[16]);
/* Pure: the IPv4 address of an IPv4-mapped GID (::ffff:a.b.c.d) into
 * buf; false when not mapped. */
bool mlx_gid_ipv4(const uint8_t gid[16], char *buf, size_t len);
/* Pure: the VLAN ID of an RTM_NEWLINK reply (IFLA_LINKINFO kind "vlan",
 * IFLA_VLAN_ID); -ENOENT when the link is no VLAN, -EBADMSG. */
int mlx_rtnl_vlan_id(const struct nlmsghdr *h, size_t len, int *vid);

/* The GIDs of @dev port @port that are set (empty slots skipped); each
 * with its netdev and that netdev's VLAN (RTM_GETLINK, recorded).  @ethernet:
 * the port's link layer. */
int mlx_gids_get(struct mlx_ctx *ctx, const char *dev, unsigned port, bool ethernet,
		 struct mlx_gid **v, size_t *n);

/* ---- the RoCE traffic class (pure) --------------------------------------- */

/* Where rdma_cm's default ToS lands: DSCP = ToS >> 2; under trust dscp
 * (@trust_dscp 1) the priority is dscp2prio[DSCP] (-1 entries: no APP
 * entry, priority 0, as lib/qos-lint.h reads mlx5); under trust pcp (0) an
 * untagged RoCE packet carries no PCP and lands on priority 0 (rdma_cm's
 * iboe_tos_to_sl() is 0 on a netdev that is no VLAN, include/rdma/
 * ib_addr.h).  *prio -1 when trust is unknown (-1). */
void mlx_roce_tos_prio(int tos, int trust_dscp, const int8_t dscp2prio[64], int *dscp, int *prio);
/* The active MTU of a RoCE port from its netdev MTU, as ib_core computes it
 * (include/rdma/ib_addr.h iboe_get_mtu: the MTU less the GRH, UDP, BTH,
 * XRC, atomic and ICRC headers, 96 bytes, rounded down to an IB MTU, at
 * most 4096); 0 when below 256. */
unsigned mlx_roce_active_mtu(unsigned netdev_mtu);

#endif /* MLX_RDMA_H */
