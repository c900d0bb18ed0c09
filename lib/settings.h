/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The settings model (DESIGN.md "The settings model", issue 26): every
 * setting of a port that mlxcli reads and writes, typed, in one struct per
 * subsystem, behind one table of subsystems (struct mlx_subsys).
 *
 * One model serves three uses:
 *  - a port as read from the device (mlx_settings_read): `state` renders
 *    it, `diff` compares two of them (mlx_settings_flatten);
 *  - a desired state (cmd/settings-json.c parses apply's file into it,
 *    with the validators below; a write verb fills it from its words);
 *  - the plan: each subsystem compares a desired model with what the
 *    device holds and makes the changes (struct mlx_change) the write
 *    engine writes, in one transaction (lib/txn.h).
 *
 * A setting stands in a model in one of three ways (enum mlx_have): not
 * there (a desired state that leaves it alone; a model read from a device
 * has every setting it can have), unknown (JSON null: the device does not
 * say; in a desired state, also "leave it alone"), or a value.
 *
 * Adding a setting to an existing subsystem: a field here, its read, its
 * plan (lib/<feature>/<feature>-settings.c), its validator, its JSON key
 * (cmd/settings-json.c parses it, cmd's renderer shows it).  Adding a
 * subsystem: one entry in the table (lib/settings/settings.c) with those
 * functions.  ARCHITECTURE in the README walks through one.
 */
#ifndef MLX_SETTINGS_H
#define MLX_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dcb.h"
#include "dcqcn.h"
#include "device.h"
#include "params.h"
#include "write.h"

enum mlx_have {
	MLX_ABSENT = 0,           /* not in the model: leave it alone */
	MLX_NULL,                 /* unknown (JSON null) */
	MLX_SET,                  /* a value */
};

/* Where a port's settings live. */
struct mlx_port_ref {
	const struct mlx_function *fn;  /* NULL: a netdev that is no ConnectX port (--any-netdev) */
	const struct mlx_port *port;    /* NULL: a function without a network port */
	const char *ifname;             /* the port's netdev; NULL none */
	/* The device lock (lib/lock.h): the function's PCI address, else
	 * the netdev's name (as `params set --any-netdev` locks it). */
	const char *lock;
};

/* The target of port @port (NULL: none) of @fn, or of netdev @ifname that
 * is no ConnectX port (@fn NULL). */
void mlx_port_ref_init(struct mlx_port_ref *t, const struct mlx_function *fn,
		     const struct mlx_port *port, const char *ifname);
/*
 * The RDMA port of @t: its ConnectX port's, else, for a netdev that is no
 * ConnectX port (--any-netdev), the RDMA port on that netdev (rdma_rxe on
 * a veth), its device's name put in @buf.  NULL: none (*@port then 1).
 */
struct mlx_ctx;
const char *mlx_port_ref_rdma(struct mlx_ctx *ctx, const struct mlx_port_ref *t, char *buf,
			      size_t len, unsigned *port);

/*
 * The devlink instance whose parameters are @t's: its function's, with
 * the function's first port only (the parameters are the function's);
 * else, for a netdev that is no ConnectX port (--any-netdev), the device
 * that netdev sits on (netdevsim/netdevsimN for a netdevsim port), its
 * bus and name put in @d.  Returns its name (NULL: none: a veth, a
 * ConnectX port after the first), *@bus its bus.
 */
const char *mlx_port_ref_devlink(struct mlx_ctx *ctx, const struct mlx_port_ref *t,
				 struct mlx_devlink_name *d, const char **bus);

/* How messages name it: its netdev, else its PCI address. */
const char *mlx_port_ref_name(const struct mlx_port_ref *t);

/* ---- QoS: DCBX owner, trust, DSCP map, PFC, ETS, TC rates, buffers ---- */

struct mlx_qos_settings {
	struct mlx_dcb_state st;  /* the values (a desired state: where given) */
	uint8_t have;             /* MLX_NULL: no DCB state (no netdev, no DCB ops) */
	bool buf_sysfs;           /* the buffers are MLNX_OFED's qos/ sysfs files */
	uint8_t dcbx, dcbx_mode;  /* the dcbx object; its mode (st.dcbx & HOST) */
	uint8_t trust;            /* read: from st.app; desired: trust_dscp */
	bool trust_dscp;
	/* `qosconfig trust dscp`: the default entry for every DSCP without
	 * one (a desired state's trust dscp installs the default map only
	 * where the map has no DSCP entry at all: its map is what it says) */
	bool trust_fill;
	uint8_t dscp2prio;        /* the DSCP entries of st.app: the whole map */
	uint8_t pfc, pfc_prios, pfc_cable;      /* st.pfc.pfc_en, st.pfc.delay */
	uint8_t ets, prio_tc[8];  /* st.ets.prio_tc */
	/* per traffic class: the entry, its TSA, share (MLX_NULL: not an ETS
	 * TC), max rate (st.maxrate, kb/s; 0 no limit) */
	uint8_t tcs, tc[8], tsa[8], bw[8], rate[8];
	uint8_t buffer, p2b[8], size[8];
	/* Edits of the write verbs a desired state cannot say: `dscp2prio
	 * set` / `del` of single entries (bits by DSCP, the priority in
	 * d2p_prio; del refuses an entry that holds another priority). */
	uint64_t d2p_set, d2p_del;
	uint8_t d2p_prio[MLX_DCB_NDSCP];
};

/* Fill @q as read from a device: @st (with its has_* flags) as `state`
 * shows it; @st NULL: no DCB state. */
void mlx_qos_settings_from_state(struct mlx_qos_settings *q, const struct mlx_dcb_state *st,
				 bool buf_sysfs);
/* The validators a desired state and the write verbs share.  Each 0, or
 * -EINVAL/-ERANGE/-EEXIST with the story in mlx_errmsg (no path: the
 * caller says where). */
int mlx_qos_put_pfc_prio(struct mlx_ctx *ctx, struct mlx_qos_settings *q, int64_t prio);
int mlx_qos_put_cable(struct mlx_ctx *ctx, struct mlx_qos_settings *q, int64_t metres);
int mlx_qos_put_dscp(struct mlx_ctx *ctx, struct mlx_qos_settings *q, int64_t dscp, int64_t prio);
int mlx_qos_put_prio_tc(struct mlx_ctx *ctx, struct mlx_qos_settings *q, unsigned prio, int64_t tc);
/* A traffic class's entry (tcs[]): a TC 0-7, named once. */
int mlx_qos_put_tc(struct mlx_ctx *ctx, struct mlx_qos_settings *q, int64_t tc);
/* "strict", "ets", "vendor", "cbs" -> IEEE_8021QAZ_TSA_*; -EINVAL. */
int mlx_qos_tsa_parse(const char *s, uint8_t *tsa);
int mlx_qos_put_tsa(struct mlx_ctx *ctx, struct mlx_qos_settings *q, int64_t tc, const char *tsa);
int mlx_qos_put_bw(struct mlx_ctx *ctx, struct mlx_qos_settings *q, int64_t tc, int64_t pct);
int mlx_qos_put_rate(struct mlx_ctx *ctx, struct mlx_qos_settings *q, int64_t tc, int64_t mbps);
int mlx_qos_put_p2b(struct mlx_ctx *ctx, struct mlx_qos_settings *q, unsigned prio, int64_t buf);
int mlx_qos_put_size(struct mlx_ctx *ctx, struct mlx_qos_settings *q, unsigned buf, int64_t bytes);

/* ---- DCQCN: per side the per-priority enable and every parameter ---- */

#define MLX_DCQCN_MAXP 40

struct mlx_dcqcn_side_settings {
	uint8_t en[8];            /* per priority */
	bool on[8];
	uint8_t h[MLX_DCQCN_MAXP];    /* per parameter (its index in mlx_dcqcn_params) */
	uint64_t v[MLX_DCQCN_MAXP];
	int err[MLX_DCQCN_MAXP];      /* read: 0, or why it is unknown (-ENOENT: the layout lacks it) */
};

struct mlx_dcqcn_settings {
	uint8_t have;             /* MLX_NULL: no DCQCN files on this port */
	enum mlx_dcqcn_layout layout;
	struct mlx_dcqcn_side_settings side[2];   /* [0] RP, [1] NP */
};

/* Index of a side in .side[]. */
static inline int mlx_dcqcn_side_index(enum mlx_dcqcn_side s)
{
	return s == MLX_DCQCN_NP;
}

/* A parameter's value on @side (an enable: @p->prio >= 0, both sides when
 * @side is MLX_DCQCN_BOTH): in its range, and not given twice. */
int mlx_dcqcn_put(struct mlx_ctx *ctx, struct mlx_dcqcn_settings *d,
		  const struct mlx_dcqcn_param *p, enum mlx_dcqcn_side side, uint64_t v);
/* The per-priority enable of @side: a desired state's, not given twice. */
int mlx_dcqcn_put_enable(struct mlx_ctx *ctx, struct mlx_dcqcn_settings *d,
			 enum mlx_dcqcn_side side, unsigned prio, bool on);
/* The parameter `state` names @name on @side (MLNX_OFED's file name
 * first); NULL none. */
const struct mlx_dcqcn_param *mlx_dcqcn_state_param(const char *name, enum mlx_dcqcn_side side);
/* Read every parameter of @dp (values, per-priority enables). */
void mlx_dcqcn_settings_read(struct mlx_ctx *ctx, const struct mlx_dcqcn_port *dp,
			     struct mlx_dcqcn_settings *d);

/* ---- params: the driver's knobs of the port that change at run time ---- */

struct mlx_knob_setting {
	/* the catalogue's row; &mlx_knob_any_privflag for a private flag the
	 * catalogue lacks, named by @name (issue 25) */
	const struct mlx_knob *k;
	uint8_t have;
	struct mlx_val v;         /* as `params -j` types it */
	/* a return to the default (`params reset`): the plan refuses it on a
	 * driver the catalogue's default does not hold for (a veth) */
	bool reset;
	char name[33];            /* such a private flag's (MLX_BIT_NAME) */
	/* when the value read takes effect (enum mlx_knob_apply): runtime, or
	 * firmware-reset for a firmware NV setting (devlink cmode permanent);
	 * a desired state's knobs are runtime (the plan asks the device) */
	int apply;
};

/* The name of @ks's knob: the catalogue's, or the private flag's. */
const char *mlx_knob_setting_name(const struct mlx_knob_setting *ks);

struct mlx_params_settings {
	uint8_t have;             /* MLX_NULL: the knobs could not be read */
	struct mlx_knob_setting *kv;   /* in the order read or given */
	size_t n, cap;
	/* Written in the order given (`params set`'s arguments), not the
	 * catalogue's (a desired state's, whatever its key order). */
	bool in_order;
};

/* Whether a port's "params" hold knob @k: the port's, not the module's
 * or rdma_cm's (the "roce" section holds those). */
bool mlx_params_state_knob(const struct mlx_knob *k);
/* A knob's value as the device reports it (text) in its type: on/off and
 * true/false as booleans, numbers as numbers, else the text. */
struct mlx_val mlx_knob_value_typed(const char *text, enum mlx_knob_type t);
/* Add knob @k = @v to a desired state: a port knob, valid (the
 * catalogue's parser), not given twice. */
int mlx_params_put(struct mlx_ctx *ctx, struct mlx_params_settings *p, const struct mlx_knob *k,
		   struct mlx_val v);
/* The same for a private flag the catalogue lacks, by its name (the
 * device's; the plan refuses a name the device does not report). */
/* Add a devlink parameter the catalogue lacks (mlx_knob_any_devlink):
 * @v as given (a number, a word, or null), typed by the plan from what
 * the device reports. */
int mlx_params_put_devlink(struct mlx_ctx *ctx, struct mlx_params_settings *p, const char *name,
			   struct mlx_val v);
int mlx_params_put_privflag(struct mlx_ctx *ctx, struct mlx_params_settings *p, const char *name,
			    struct mlx_val v);

/* ---- roce: the RDMA CM's RoCE defaults (configfs) ---- */

struct mlx_roce_settings {
	uint8_t have;
	uint8_t mode_h, tos_h;
	char mode[24];            /* "IB/RoCE v1", "RoCE v2" */
	unsigned tos;
};

/*
 * The RoCE mode as the kernel names it from any of its spellings: the
 * kernel's ("IB/RoCE v1", "RoCE v2"; drivers/infiniband/core/cache.c
 * ib_cache_gid_type_str) and the Windows tools' and cma_roce_mode's
 * numbers (1 RoCE v1, 2 RoCE v2).  0, or -EINVAL with the story.
 */
int mlx_roce_mode_parse(struct mlx_ctx *ctx, const char *text, char *out, size_t len);
int mlx_roce_put_mode(struct mlx_ctx *ctx, struct mlx_roce_settings *r, const char *text);
int mlx_roce_put_tos(struct mlx_ctx *ctx, struct mlx_roce_settings *r, int64_t tos);

/* ---- sriov: numvfs, the eswitch mode, each VF's settings ---- */

struct mlx_vf_settings {
	uint32_t vf;
	uint8_t mac_h, vlan_h, qos_h, proto_h, min_h, max_h, spoofchk_h, trust_h, link_h;
	uint8_t mac[6];
	uint32_t vlan, qos;
	uint16_t proto;           /* 0x8100 */
	uint32_t min_rate, max_rate;   /* Mb/s, 0 no limit */
	bool spoofchk, trust;
	int link_state;           /* IFLA_VF_LINK_STATE_* */
	/* The order to write them in (enum mlx_sriov_setting): `sriov vf
	 * set`'s arguments; none: mac, vlan, qos, rates, spoofchk, trust,
	 * link state. */
	uint8_t order[10];
	uint8_t norder;
};

struct mlx_sriov_settings {
	uint8_t have;             /* MLX_NULL: no SR-IOV */
	uint8_t numvfs_h, esw_h, vfs_h;
	unsigned numvfs;
	int esw_mode;             /* DEVLINK_ESWITCH_MODE_* */
	struct mlx_vf_settings *vf;
	size_t nvf, cap;
};

struct mlx_vf_info;
/* A VF as the kernel reports it, as settings (unknown where it does not say). */
void mlx_vf_settings_from_info(struct mlx_vf_settings *s, const struct mlx_vf_info *vf);
/* The VF @vf of a desired state, added when it is not there yet; NULL
 * (-ENOMEM in mlx_errmsg) on failure. */
struct mlx_vf_settings *mlx_sriov_vf(struct mlx_ctx *ctx, struct mlx_sriov_settings *s,
				     uint32_t vf, bool add);
/* A VF's MAC address: xx:xx:xx:xx:xx:xx, not multicast (nor broadcast):
 * the kernel refuses them (is_valid_ether_addr).  Validators as above. */
int mlx_vf_put_mac(struct mlx_ctx *ctx, struct mlx_vf_settings *v, const char *text);
int mlx_vf_put_vlan(struct mlx_ctx *ctx, struct mlx_vf_settings *v, int64_t vlan);
int mlx_vf_put_qos(struct mlx_ctx *ctx, struct mlx_vf_settings *v, int64_t qos);
int mlx_vf_put_proto(struct mlx_ctx *ctx, struct mlx_vf_settings *v, const char *text);
int mlx_vf_put_rate(struct mlx_ctx *ctx, struct mlx_vf_settings *v, bool max, int64_t mbps);
int mlx_vf_put_link_state(struct mlx_ctx *ctx, struct mlx_vf_settings *v, const char *text);
/* "legacy", "switchdev" -> DEVLINK_ESWITCH_MODE_*; -EINVAL. */
int mlx_eswitch_mode_parse(const char *s, int *mode);

/* ---- health: each devlink health reporter's self-healing policy ---- */

/*
 * The policy devlink keeps per reporter (net/devlink health:
 * DEVLINK_ATTR_HEALTH_REPORTER_GRACEFUL_PERIOD, _AUTO_RECOVER,
 * _AUTO_DUMP): the minimum time between two automatic recoveries, whether
 * an error is recovered at once, whether it keeps a dump.  A reporter
 * without a recovery has no grace period and no auto_recover, one without
 * a dump no auto_dump (the kernel refuses them: MLX_NULL when read).
 * WinOF-2's self-healing keys, and how each maps, are in lib/health.h.
 */
#define MLX_HEALTH_POLICY_MAX 32

struct mlx_health_policy {
	char reporter[64];        /* "" in a desired state: every reporter (health set) */
	int64_t port_index;       /* -1: a device reporter; a desired state's: any */
	uint8_t grace_h, recover_h, dump_h;
	uint64_t grace_period_ms;
	bool auto_recover, auto_dump;
};

struct mlx_health_settings {
	uint8_t have;             /* MLX_NULL: no devlink health (a netdev, a captured gap) */
	size_t n;
	struct mlx_health_policy r[MLX_HEALTH_POLICY_MAX];
};

/* The entry of reporter @name (port @port_index, -1 any) of a desired
 * state, added: -EEXIST when named twice, -ENOSPC beyond the maximum,
 * -EINVAL for a name that is no devlink reporter's (NUL, '/', control
 * characters, longer than 63 bytes).  Returns the entry or NULL with the
 * story in mlx_errmsg. */
struct mlx_health_policy *mlx_health_put_reporter(struct mlx_ctx *ctx, struct mlx_health_settings *h,
						  const char *name, int64_t port_index);
/* grace_period_ms: 0 (none) up to INT64_MAX (devlink takes a u64). */
int mlx_health_put_grace(struct mlx_ctx *ctx, struct mlx_health_policy *p, int64_t ms);

/* ---- link: pause, speed/duplex/autonegotiation, FEC (ethtool netlink) ---- */

/* The FEC modes `link set fec` takes (ethtool's encodings). */
enum mlx_fec_mode { MLX_FEC_AUTO, MLX_FEC_OFF, MLX_FEC_RS, MLX_FEC_BASER, MLX_FEC_LLRS, MLX_FEC_NMODES };

struct mlx_link_settings {
	uint8_t have;             /* MLX_NULL: no netdev (no ethtool) */
	uint8_t pause_autoneg_h, pause_rx_h, pause_tx_h;
	bool pause_autoneg, pause_rx, pause_tx;
	uint8_t autoneg_h, speed_h, duplex_h;
	bool autoneg;
	uint32_t speed_mbps;
	bool duplex_full;
	uint8_t fec_h;
	/* one mode (a desired state, or a device that reports one); read: a
	 * device may report several configured modes: fec_modes as bits of
	 * enum mlx_fec_mode */
	uint8_t fec;
	uint8_t fec_modes;
};

/* "auto", "off", "rs", "baser", "llrs" <-> enum mlx_fec_mode; -EINVAL. */
int mlx_fec_mode_parse(const char *s, uint8_t *mode);
const char *mlx_fec_mode_name(unsigned mode);
int mlx_link_put_speed(struct mlx_ctx *ctx, struct mlx_link_settings *l, int64_t mbps);
int mlx_link_put_duplex(struct mlx_ctx *ctx, struct mlx_link_settings *l, const char *text);
int mlx_link_put_fec(struct mlx_ctx *ctx, struct mlx_link_settings *l, const char *text);

/* ---- netdevs: the child netdevs of a port (VLANs, IPoIB partitions) ---- */

/*
 * A child netdev to add (present) or delete, by its kind and id (a VLAN
 * id, an IPoIB pkey) on the port (lib/netview.h struct mlx_child_req has
 * the kernel's side).  `vlan add|del` and `ipoib add|del` fill it; a
 * desired state does not name child netdevs (yet): `state` does not read
 * them, `apply` leaves them alone.
 */
#define MLX_CHILD_WANT_MAX 8

struct mlx_child_setting {
	uint8_t kind;             /* enum mlx_child_kind */
	bool present;             /* add; else delete */
	uint16_t id;              /* VLAN id 1-4094; pkey with the full-member bit */
	char name[16];            /* "" the default (add), any (delete) */
	uint16_t proto;           /* VLAN: 0x8100, 0x88a8; 0 the kernel's (802.1Q) */
	int8_t mode;              /* IPoIB: 0 datagram, 1 connected, -1 the kernel's */
	uint8_t negress;
	struct { uint32_t from, to; } egress[16];   /* VLAN: skb priority -> PCP */
};

struct mlx_netdevs_settings {
	uint8_t have;
	size_t n;
	struct mlx_child_setting c[MLX_CHILD_WANT_MAX];
};

/* The validators the verbs share: an entry added to @d (-ENOSPC beyond
 * the maximum, -EEXIST the same kind and id twice); a VLAN id 1-4094
 * (-ERANGE); a pkey 0x0001-0x7fff, the full-member bit 0x8000 allowed
 * (the kernel sets it: ipoib_vlan.c), 0 and 0x8000 refused (-ERANGE); a
 * name as the kernel takes it (dev_valid_name: 1-15 bytes, no '/', no
 * blank, not "." or ".."; -EINVAL); an egress entry priority -> PCP 0-7
 * (-ERANGE).  Each 0, or -errno with the story in mlx_errmsg. */
struct mlx_child_setting *mlx_netdevs_put(struct mlx_ctx *ctx, struct mlx_netdevs_settings *d,
					  unsigned kind, int64_t id, bool present);
int mlx_child_put_name(struct mlx_ctx *ctx, struct mlx_child_setting *c, const char *name);
int mlx_child_put_egress(struct mlx_ctx *ctx, struct mlx_child_setting *c, int64_t from,
			 int64_t to);
/* The default name of a child of @parent: "<parent>.<id>" (VLAN, as
 * vconfig names it), "<parent>.<pkey as %04x>" (IPoIB, as the kernel's
 * create_child does); -ENAMETOOLONG when it does not fit IFNAMSIZ. */
int mlx_child_default_name(char *buf, size_t len, const char *parent, unsigned kind, uint16_t id);

/* ---- a port ---- */

struct mlx_port_settings {
	char pci_address[16];     /* "" none (JSON null) */
	char netdev[16];          /* "" none */
	struct mlx_qos_settings qos;
	struct mlx_dcqcn_settings dcqcn;
	struct mlx_params_settings params;
	struct mlx_roce_settings roce;
	struct mlx_sriov_settings sriov;
	struct mlx_link_settings link;
	struct mlx_health_settings health;
	struct mlx_netdevs_settings netdevs;
};

/* A model with nothing in it (every setting absent). */
struct mlx_port_settings *mlx_port_settings_new(void);
void mlx_port_settings_free(struct mlx_port_settings *p);
/* Lay every setting @src gives (MLX_SET: absent and null leave alone)
 * over @dst: a port a desired state names twice (the later entry's
 * setting wins), or a desired state over a port's state (apply --diff).
 * @add: the VFs and traffic classes @dst has not are added (else only a
 * section @dst lacks takes @src's whole).  0 or -ENOMEM. */
int mlx_port_settings_merge(struct mlx_port_settings *dst, const struct mlx_port_settings *src,
			    bool add);
/* A copy of @src (NULL: -ENOMEM). */
struct mlx_port_settings *mlx_port_settings_copy(const struct mlx_port_settings *src);

/* ---- the table of subsystems ---- */

/* In the order a transaction writes them (over every port): QoS before
 * DCQCN (the enables act on the priorities QoS sets up); the driver's
 * knobs before SR-IOV (mlx5 refuses a change of the devlink parameters
 * flow_steering_mode and esw_port_metadata in switchdev mode, fs_core.c
 * mlx5_fs_mode_validate and mlx5_devlink_esw_port_metadata_validate, and
 * SR-IOV may switch to it); numvfs (and the eswitch mode) before the VFs'
 * settings; the RDMA CM's defaults last of the port's settings (nothing
 * depends on them).  The link's pause after QoS: mlx5 keeps global pause
 * and PFC in one register (PFCC) and each write clears the other (port.c
 * mlx5_set_port_pause, mlx5_set_port_pfc), so a desired state with PFC on
 * and pause off, or pause on and PFC off, holds only when pause is
 * written after PFC.  The health policy last: it is the devlink
 * instance's, and a reload or numvfs change before it leaves it as is. */
enum mlx_sub {
	MLX_SUB_QOS,
	MLX_SUB_LINK,
	MLX_SUB_DCQCN,
	MLX_SUB_PARAMS,
	MLX_SUB_SRIOV,
	MLX_SUB_VF,
	MLX_SUB_ROCE,
	MLX_SUB_HEALTH,
	MLX_SUB_NETDEVS,          /* child netdevs: nothing else depends on them */
	MLX_NSUB
};

struct mlx_settings_reader;

struct mlx_subsys {
	enum mlx_sub id;
	const char *key;          /* "qos": the change records' "subsystem" */
	const char *name;         /* "QoS": messages */
	/* Device -> model: this subsystem's section of @out (NULL: none of
	 * its own, MLX_SUB_VF's VFs are in the SR-IOV section). */
	void (*read)(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		     struct mlx_port_settings *out);
	/* Does @want name anything of it (MLX_SUB_VF: its @vf-th VF)? */
	bool (*wanted)(const struct mlx_port_settings *want, size_t vf);
	/* Its writer: the state of one step of a transaction.  @parent: the
	 * writer of the same port's step of subsystem @parent_sub earlier in
	 * the transaction (a VF's: its PF's SR-IOV step), or NULL. */
	size_t feat_size;
	enum mlx_sub parent_sub;      /* MLX_NSUB: none */
	int (*open)(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t, void *parent);
	void (*close)(void *feat);
	/* Desired vs current -> the changes (@pl), in write order; checks
	 * @want against the device (a TC it lacks, a VF it has not). */
	int (*plan)(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
		    size_t vf, struct mlx_plan *pl);
	/* An action's (lib/txn.h mlx_txn_add_action), in place of plan: the
	 * change that does it to @obj.  Its ops have no read: nothing to read
	 * back, nothing to put back, nothing journaled. */
	int (*plan_action)(struct mlx_ctx *ctx, void *feat, const void *obj, struct mlx_plan *pl);
	const struct mlx_write_ops *ops;
	/* Optional: may this process write it at all (before any lock is
	 * taken)?  0, or -EPERM with the story. */
	int (*may_write)(struct mlx_ctx *ctx, const struct mlx_port_ref *t);
	/* Optional, after the step's changes were put back. */
	int (*after_put_back)(struct mlx_ctx *ctx, void *feat);
	/* Optional: the journal's record of what @feat needs for a put-back
	 * after a crash beyond the changes' old values (lines), and its
	 * reading back. */
	int (*journal_save)(void *feat, int (*line)(void *arg, const char *text), void *arg);
	int (*journal_load)(struct mlx_ctx *ctx, void *feat, const char *text);
	/* Its settings for diff (NULL: none of its own). */
	void (*flatten)(const struct mlx_port_settings *p,
			void (*fn)(void *arg, const char *path, const struct mlx_val *v), void *arg);
	/* Its section of a model (NULL: none of its own): lay what @src
	 * sets over @dst (mlx_port_settings_merge), and, where the section
	 * holds memory of its own, copy it into a shallow copy @dst (NULL
	 * pointers on -ENOMEM) and free it. */
	int (*merge)(struct mlx_port_settings *dst, const struct mlx_port_settings *src, bool add);
	int (*dup)(struct mlx_port_settings *dst, const struct mlx_port_settings *src);
	void (*release)(struct mlx_port_settings *p);
};

const struct mlx_subsys *mlx_subsys(enum mlx_sub id);
/* By its key ("qos"); NULL none. */
const struct mlx_subsys *mlx_subsys_find(const char *key);

/* Reading many ports: one ethtool and devlink dump per message type for
 * all of them (lib/params' cache). */
int mlx_settings_reader_new(struct mlx_ctx *ctx, struct mlx_settings_reader **rd);
void mlx_settings_reader_free(struct mlx_settings_reader *rd);
/* Every setting of the port @t into a new model (*out, free with
 * mlx_port_settings_free).  What cannot be read is unknown (MLX_NULL);
 * -ENOMEM only. */
int mlx_settings_read(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		      struct mlx_port_settings **out);

/*
 * The settings of @p as `diff` compares them: one scalar per setting,
 * named by the paths `state`'s text prints (pfc.enabled_priorities.3,
 * dcqcn.rp.rpg_ai_rate, tcs.3.tsa, sriov.vfs.2.vlan), in the document's
 * order; a section that is unknown is one setting (its key, null).
 */
void mlx_settings_flatten(const struct mlx_port_settings *p,
			  void (*fn)(void *arg, const char *path, const struct mlx_val *v), void *arg);

#endif /* MLX_SETTINGS_H */
