/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SR-IOV: the VF table of a PF as rtnetlink reports it (IFLA_VFINFO_LIST),
 * the numvfs and per-VF writes, and the devlink eswitch mode.
 *
 * Wire format: include/uapi/linux/if_link.h (IFLA_VF_*, struct ifla_vf_*),
 * as the kernel fills it in net/core/rtnetlink.c rtnl_fill_vfinfo().
 */
#ifndef MLX_SRIOV_H
#define MLX_SRIOV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

#include "device.h"
#include "write.h"

struct mlx_vf_stats {
	bool present;
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
	uint64_t broadcast, multicast, rx_dropped, tx_dropped;
};

/* One VF; -1 in an int field = the kernel did not report it (the kernel
 * itself sends (u32)-1 for spoofchk/trust/rss_query_en a driver leaves
 * unset, rtnetlink.c do_getvfinfo). */
struct mlx_vf_info {
	uint32_t vf;
	bool has_mac;
	uint8_t mac[6];
	bool has_vlan;
	uint32_t vlan, qos;
	uint16_t vlan_proto;          /* host order, 0x8100/0x88a8; 0 unknown */
	bool has_rate;
	uint32_t min_tx_rate, max_tx_rate;   /* Mb/s, 0 = no limit */
	int spoofchk, trust, rss_query_en;
	int link_state;               /* IFLA_VF_LINK_STATE_AUTO/ENABLE/DISABLE */
	bool has_guids;
	uint64_t node_guid, port_guid;
	struct mlx_vf_stats stats;
};

struct mlx_link_vfs {
	int ifindex;
	char ifname[16];
	bool has_num_vf;
	uint32_t num_vf;              /* IFLA_NUM_VF */
	struct mlx_vf_info *vf;       /* nvf entries, malloc'ed */
	size_t nvf;
};

/* ---- pure: decode and build ------------------------------------------- */

/*
 * Decode one RTM_NEWLINK message (@len bytes from @h).  0, or -EBADMSG with
 * a reason in @err (truncated attribute, a VF attribute too short for its
 * struct, not an RTM_NEWLINK).  Never reads past @len.  Free with
 * mlx_link_vfs_free().
 */
int mlx_rtnl_vf_decode(const struct nlmsghdr *h, size_t len, struct mlx_link_vfs *out,
		       char *err, size_t errlen);
void mlx_link_vfs_free(struct mlx_link_vfs *l);

/* RTM_GETLINK for one interface with IFLA_EXT_MASK = RTEXT_FILTER_VF: the
 * request `ip link show DEV` sends.  Returns the length or -EMSGSIZE. */
int mlx_rtnl_getlink_vf_build(void *buf, size_t cap, int ifindex, const char *ifname);

/* What one VF write changes (one IFLA_VF_* attribute each). */
enum mlx_vf_attr {
	MLX_VF_SET_MAC,       /* mac */
	MLX_VF_SET_VLAN,      /* vlan + qos (IFLA_VF_VLAN carries both) */
	MLX_VF_SET_RATE,      /* min_tx_rate + max_tx_rate (IFLA_VF_RATE) */
	MLX_VF_SET_SPOOFCHK,
	MLX_VF_SET_TRUST,
	MLX_VF_SET_STATE,
};

struct mlx_vf_set {
	enum mlx_vf_attr attr;
	uint32_t vf;
	uint8_t mac[6];
	uint32_t vlan, qos;
	uint32_t min_tx_rate, max_tx_rate;
	bool on;                       /* spoofchk, trust */
	uint32_t link_state;
};

/* RTM_SETLINK (with NLM_F_ACK) setting one VF attribute. */
int mlx_rtnl_setlink_vf_build(void *buf, size_t cap, int ifindex, const struct mlx_vf_set *s);

/* The inverse, for the emulator of a captured system: the VF setting an
 * RTM_SETLINK request carries.  -EINVAL with @why when the bytes are not
 * one message with one IFLA_VFINFO_LIST holding one IFLA_VF_INFO with one
 * known VF attribute. */
int mlx_rtnl_setlink_vf_parse(const void *req, size_t len, int *ifindex, struct mlx_vf_set *s,
			      char *why, size_t whylen);

/* Apply a write to a decoded VF (what the kernel would then report). */
void mlx_vf_apply(struct mlx_vf_info *vf, const struct mlx_vf_set *s);

/*
 * Re-encode @l as an RTM_NEWLINK reply: the non-VF attributes of @orig
 * verbatim, then IFLA_NUM_VF and IFLA_VFINFO_LIST from @l.  Used by the
 * sysroot emulation to keep the recorded netlink state true after a write.
 * Returns the length or -EMSGSIZE / -EBADMSG.
 */
int mlx_rtnl_vf_encode(const struct nlmsghdr *orig, size_t origlen,
		       const struct mlx_link_vfs *l, void *buf, size_t cap);

/* Validation shared by the CLI and the library. */
int mlx_parse_mac(const char *s, uint8_t mac[6]);   /* -EINVAL bad syntax */
void mlx_fmt_mac(const uint8_t mac[6], char *buf, size_t len);   /* 02:c5:00:5e:01:02 */
const char *mlx_vf_link_state_str(int st);          /* "auto" "enable" "disable" */

/* ---- I/O ----------------------------------------------------------------- */

/* The VF table of a PF (one RTM_GETLINK on its first netdev, replayed from
 * the capture under a sysroot). */
int mlx_sriov_query(struct mlx_ctx *ctx, const struct mlx_function *pf, struct mlx_link_vfs *out);

/* Write sriov_numvfs (0 first when changing a non-zero count); refuses more
 * than sriov_totalvfs.  Under a sysroot, does what the kernel does to the
 * tree (lib/emul/sriov-emul.c). */
int mlx_sriov_set_numvfs(struct mlx_ctx *ctx, const struct mlx_function *pf, unsigned n);

/* Apply @n writes to VFs of @pf, all or nothing: when the k-th fails the
 * earlier ones are put back (from @before, the state read first). */
int mlx_sriov_vf_set(struct mlx_ctx *ctx, const struct mlx_function *pf,
		     const struct mlx_link_vfs *before, const struct mlx_vf_set *s, size_t n);

/* The current sriov_numvfs of @pf, read now (not the device model's). */
int mlx_sriov_numvfs(struct mlx_ctx *ctx, const struct mlx_function *pf, unsigned *n);

/*
 * SR-IOV in the write engine (lib/write.h, lib/sriov/sriov-write.c): one
 * typed change per setting, as `sriov show` names them.
 */
enum mlx_sriov_setting {
	MLX_SRIOV_NUMVFS,         /* uint */
	MLX_SRIOV_ESWITCH_MODE,   /* string: legacy, switchdev */
	MLX_VF_MAC,               /* string xx:xx:xx:xx:xx:xx */
	MLX_VF_VLAN,              /* uint 0-4095 */
	MLX_VF_QOS,               /* uint 0-7 */
	MLX_VF_MAX_TX_RATE,       /* uint Mb/s, 0 no limit */
	MLX_VF_MIN_TX_RATE,       /* uint Mb/s */
	MLX_VF_SPOOFCHK,          /* bool */
	MLX_VF_TRUST,             /* bool */
	MLX_VF_LINK_STATE,        /* string: auto, enable, disable */
};

struct mlx_sriov_writer {
	const struct mlx_function *pf;
	uint32_t vf;              /* for the MLX_VF_* settings */
	/* The VF table as last read; read again after a write. */
	struct mlx_link_vfs cur;
	bool have, fresh;
	/* Optional, borrowed: the PF's VF table as the caller read it under
	 * the same lock, read instead of a query until this writer's first
	 * write (a plan of many VFs of one PF reads the table once, not once
	 * per VF).  NULL: query. */
	const struct mlx_link_vfs *table;
	/* The VF as the kernel holds it and as the writes since ask for
	 * (gathered, sent by the flush). */
	struct mlx_vf_info sent, want;
	bool gathering;

	/* A transaction's step (lib/settings.h, lib/sriov/sriov-settings.c). */
	struct mlx_sriov_writer *parent;  /* a VF's step: its PF's SR-IOV step */
	unsigned cur_numvfs;          /* the PF's step: numvfs as its plan read it */
	bool recreates;               /* ... which plans to change it */
	bool numvfs_written;          /* ... and has written it */
	/* The VFs' settings before a numvfs change that takes them away:
	 * what the confirmation lists and a put-back writes again. */
	struct mlx_link_vfs before;
	bool have_before;
	/* The VF table, read once by the PF's step for its VFs' steps
	 * (numvfs unchanged): their `table`. */
	struct mlx_link_vfs vftable;
	bool have_vftable;
	/* A VF's step whose VF the PF's planned numvfs change makes: not
	 * there to read yet (it comes with the driver's defaults). */
	bool absent;
};

extern const struct mlx_write_ops mlx_sriov_write_ops;
int mlx_sriov_plan_add(struct mlx_plan *pl, enum mlx_sriov_setting s, struct mlx_val v);
/* Every setting of @vf the kernel reported, as changes to it: what puts a
 * VF back after a numvfs change recreated it with the defaults. */
int mlx_sriov_plan_vf(struct mlx_plan *pl, const struct mlx_vf_info *vf);
void mlx_sriov_writer_free(struct mlx_sriov_writer *w);

/* devlink eswitch mode: DEVLINK_ESWITCH_MODE_LEGACY 0, SWITCHDEV 1. */
struct mlx_eswitch {
	int mode;                /* -1 unknown */
	int inline_mode;         /* -1 not reported */
	int encap_mode;          /* -1 not reported */
};
int mlx_devlink_eswitch_decode(const struct nlmsghdr *h, size_t len, struct mlx_eswitch *out);
int mlx_devlink_eswitch_get(struct mlx_ctx *ctx, const struct mlx_function *pf,
			    struct mlx_eswitch *out);
int mlx_devlink_eswitch_set(struct mlx_ctx *ctx, const struct mlx_function *pf, int mode);
const char *mlx_eswitch_mode_str(int mode);

/* Capture names shared by the queries and the emulation. */
#define MLX_REQ_GETLINK_VF "getlink-vf"
#define MLX_REQ_ESWITCH_GET "eswitch-get"
#define MLX_REQ_INFO_GET "info-get"
/* "pci:0000:5e:00.0": the devlink handle as a capture object name. */
void mlx_devlink_object(const struct mlx_function *fn, char *buf, size_t len);

#endif /* MLX_SRIOV_H */
