/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The driver's knobs (issue 17, `mlxcli params`): the catalogue of every
 * knob mlx5 exposes on Linux, the pure decoders of the replies that carry
 * their values, and the collection of one device's values.
 *
 * Six interfaces hold them (reference/linux-mlx5-interfaces.md): ethtool
 * netlink (private flags, rings, channels, coalescing, features), the MTU,
 * devlink parameters, mlx5_core's module parameters and the RDMA knobs.
 * Each knob names its source, its kernel name (the private flag, the
 * feature string, the devlink parameter, the module parameter) or its
 * netlink attribute, its default with where that default comes from, its
 * range or choices, when a change takes effect, and the Windows registry
 * key it corresponds to (WinOF-2's regkeys, mlxtool show regkeys info).
 */
#ifndef MLX_PARAMS_H
#define MLX_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

#include "device.h"

enum mlx_knob_source {
	MLX_KS_PRIVFLAG,   /* ethtool --show-priv-flags */
	MLX_KS_RING,       /* ethtool -g */
	MLX_KS_CHANNEL,    /* ethtool -l */
	MLX_KS_COALESCE,   /* ethtool -c */
	MLX_KS_FEATURE,    /* ethtool -k */
	MLX_KS_MTU,        /* ip link mtu */
	MLX_KS_DEVLINK,    /* devlink dev param */
	MLX_KS_MODULE,     /* /sys/module/mlx5_core/parameters */
	MLX_KS_RDMA,       /* rdma_cm configfs, RDMA device */
	MLX_KS_NSOURCES
};

enum mlx_knob_type { MLX_KT_BOOL, MLX_KT_U32, MLX_KT_U64, MLX_KT_STRING };

/* When a change takes effect. */
enum mlx_knob_apply {
	MLX_KA_RUNTIME,    /* at once (ethtool, devlink cmode runtime, writable module param) */
	MLX_KA_RELOAD,     /* driver reload (devlink cmode driverinit, module load) */
	MLX_KA_REBOOT,     /* reboot */
	MLX_KA_FIRMWARE,   /* firmware reset (devlink cmode permanent) */
};

struct mlx_knob {
	const char *name;          /* mlxcli's name, unique: "rx_cqe_moder", "rx_ring" */
	enum mlx_knob_source src;
	/* The kernel's name (private flag, feature string, devlink or module
	 * parameter); NULL where an attribute number says it (@attr). */
	const char *kname;
	uint16_t attr;             /* ETHTOOL_A_{RINGS,CHANNELS,COALESCE}_* */
	uint16_t max_attr;         /* the attribute with the device's maximum, 0 none */
	enum mlx_knob_type type;
	const char *unit;          /* mlxcli-json(7) UNITS: "microseconds", "entries", ...; NULL none */
	const char *dflt;          /* default as text; NULL: nobody knows */
	const char *dflt_from;     /* where the default comes from (driver file/function,
				    * a capture), or "unknown" */
	uint64_t min, max;         /* numeric range (max 0: the device's maximum or none) */
	const char *const *choices;/* string values, NULL-terminated; NULL none */
	enum mlx_knob_apply apply;
	const char *windows;       /* the WinOF-2 registry key / feature, NULL none */
	const char *desc;
};

extern const struct mlx_knob mlx_knobs[];
extern const size_t mlx_nknobs;

const char *mlx_knob_source_name(enum mlx_knob_source s);
/* "privflag" -> MLX_KS_PRIVFLAG; -EINVAL when unknown. */
int mlx_knob_source_parse(const char *s, enum mlx_knob_source *out);
const char *mlx_knob_apply_name(enum mlx_knob_apply a);
const struct mlx_knob *mlx_knob_find(const char *name);
/* The knob of a source with kernel name @kname; NULL none. */
const struct mlx_knob *mlx_knob_by_kname(enum mlx_knob_source src, const char *kname);

/* ---- decoders: pure, bounds-checked (lib/decode/decode-ethtool-params.c,
 * lib/decode/decode-devlink-param.c) ------------------------------------ */

#define MLX_BITSET_MAX 160       /* netdev features (~64) and private flags fit */
#define MLX_BIT_NAME 33          /* ETH_GSTRING_LEN + NUL */

struct mlx_bitset {
	uint32_t size;           /* ETHTOOL_A_BITSET_SIZE, 0 when absent */
	bool compact;            /* VALUE/MASK arrays: indexes, no names */
	bool nomask;
	size_t n;
	struct { uint32_t index; bool value; char name[MLX_BIT_NAME]; } bit[MLX_BITSET_MAX];
};

/* One ethtool bitset attribute's payload (include/uapi/linux/ethtool_netlink.h
 * ETHTOOL_A_BITSET_*), compact or verbose; -EBADMSG when malformed,
 * -E2BIG beyond MLX_BITSET_MAX bits. */
int mlx_ethtool_bitset_decode(const uint8_t *p, size_t len, struct mlx_bitset *out);
/* The ETHTOOL_A_*_HEADER nest of any ethtool message (request, reply or
 * notification): the device's name into @ifname ("" when absent) and its
 * index into *@ifindex (left as is when absent; @ifindex may be NULL);
 * -EBADMSG when malformed. */
struct mlx_nla;
int mlx_ethtool_header_decode(const struct mlx_nla *a, char *ifname, size_t n, uint32_t *ifindex);
/* A bit's value by name (verbose form); -1 absent, 0 absent from a NOMASK
 * list (which names only the set bits). */
int mlx_bitset_get(const struct mlx_bitset *b, const char *name);

/* The flat replies (RINGS, CHANNELS, COALESCE): u8/u32 attributes after a
 * header nest.  v[attr] is valid when present & (1 << attr). */
#define MLX_ETH_ATTRS 32
struct mlx_eth_attrs {
	char ifname[16];
	uint32_t ifindex;
	uint64_t present;
	uint32_t v[MLX_ETH_ATTRS];
};

struct mlx_eth_features {
	char ifname[16];
	uint32_t ifindex;
	struct mlx_bitset hw, wanted, active, nochange;
	bool have_hw, have_wanted, have_active, have_nochange;
};

struct mlx_eth_privflags {
	char ifname[16];
	uint32_t ifindex;
	struct mlx_bitset flags;
};

/* ETHTOOL_MSG_{RINGS,CHANNELS,COALESCE}_GET_REPLY; @cmd the reply's genl
 * command (checked).  -EBADMSG malformed, -ENOMSG another command. */
int mlx_ethtool_attrs_decode(const struct nlmsghdr *h, size_t len, uint8_t cmd,
			     struct mlx_eth_attrs *out);
int mlx_ethtool_features_decode(const struct nlmsghdr *h, size_t len,
				struct mlx_eth_features *out);
int mlx_ethtool_privflags_decode(const struct nlmsghdr *h, size_t len,
				 struct mlx_eth_privflags *out);

/* devlink parameters (DEVLINK_CMD_PARAM_GET reply, include/uapi/linux/
 * devlink.h; value types are the kernel's NLA types, include/net/devlink.h
 * enum devlink_param_type). */
enum mlx_dl_ptype {
	MLX_DL_U8 = 1, MLX_DL_U16 = 2, MLX_DL_U32 = 3, MLX_DL_U64 = 4,
	MLX_DL_STRING = 5, MLX_DL_BOOL = 6,
};
#define MLX_DL_CMODES 3          /* runtime, driverinit, permanent */
struct mlx_devlink_param {
	char bus[16], dev[64];
	char name[64];
	bool generic;
	uint8_t type;            /* enum mlx_dl_ptype; 0 when absent */
	unsigned ncmodes;
	struct {
		uint8_t cmode;   /* DEVLINK_PARAM_CMODE_* */
		bool have;       /* a DATA attribute (a bool false has none) */
		uint64_t u;      /* integers and bools */
		char str[128];
	} val[MLX_DL_CMODES];
};
int mlx_devlink_param_decode(const struct nlmsghdr *h, size_t len, struct mlx_devlink_param *out);
const char *mlx_devlink_cmode_name(uint8_t cmode);
const char *mlx_devlink_ptype_name(uint8_t type);
/* One cmode's value as text ("true", "1024", "smfs"); buf. */
const char *mlx_devlink_param_str(const struct mlx_devlink_param *p, unsigned i, char *buf,
				  size_t len);

/* ---- collection (lib/params/params.c) ------------------------------------ */

/* One knob's value on one object (a netdev, a PCI function, the module). */
struct mlx_knob_value {
	const struct mlx_knob *k;    /* NULL: a knob the catalogue does not know */
	char name[64];               /* k->name, or the kernel's name */
	enum mlx_knob_source src;
	bool known;              /* the kernel answered */
	char value[128];         /* as text: "on", "1024", "smfs" */
	char maximum[32];        /* the device's maximum (rings, channels), "" none */
	bool fixed;              /* a feature the device cannot change */
	enum mlx_knob_apply apply;   /* devlink: from the reported cmode */
	bool is_default;         /* value equals k->dflt (false when either is unknown) */
	uint8_t dl_type;         /* devlink: the reported enum mlx_dl_ptype, else 0 */
};

struct mlx_params {
	char object[64];         /* netdev, "pci/0000:08:00.0" or "mlx5_core" */
	int err[MLX_KS_NSOURCES];/* per source: 0, or why its values are unknown */
	struct mlx_knob_value *v;
	size_t n, cap;
};

/*
 * Every knob of one port (its netdev, its PCI function's devlink
 * parameters) into @out (freed by mlx_params_free).  The ethtool and devlink
 * replies come from one dump per message type for the whole host, made on
 * first use and kept in @cache (freed by mlx_params_cache_free).
 */
struct mlx_params_cache;
int mlx_params_cache_new(struct mlx_ctx *ctx, struct mlx_params_cache **out);
void mlx_params_cache_free(struct mlx_params_cache *c);
int mlx_params_port(struct mlx_ctx *ctx, struct mlx_params_cache *c, const char *ifname,
		    const char *bdf, bool pf, struct mlx_params *out);
/* rdma_cm's RoCE knobs of RDMA device @rdma_dev port @port, appended to
 * @out: configfs /sys/kernel/config/rdma_cm/<dev>/ports/<port>/
 * default_roce_mode and default_roce_tos (drivers/infiniband/core/
 * cma_configfs.c); they exist once someone made the device's directory
 * there, else -ENOENT in out->err[MLX_KS_RDMA] and no knob; and MLNX_OFED's
 * /sys/class/infiniband/<dev>/tc/<port>/traffic_class (knob traffic_class). */
int mlx_params_rdma(struct mlx_ctx *ctx, const char *rdma_dev, unsigned port,
		    struct mlx_params *out);
/* MLNX_OFED's traffic_class file ("Global tclass=106", empty before a
 * write) as the knob's value: "106" or "unset"; -EBADMSG otherwise. */
int mlx_params_tclass_parse(const char *text, char *out, size_t len);
/* mlx5_core's module parameters. */
int mlx_params_module(struct mlx_ctx *ctx, struct mlx_params *out);
void mlx_params_free(struct mlx_params *p);

/* The replies the snapshot records (lib/capture/snapshot.c). */
int mlx_params_record(struct mlx_ctx *ctx);

/* ---- writes (lib/params/params-write.c) ---------------------------------- */

/*
 * `params set` and `reset` through the write engine (lib/write.h).  Each
 * change is one knob (setting = the knob's name, id = its catalogue
 * index) and one kernel request: ethtool RINGS_SET, CHANNELS_SET,
 * COALESCE_SET, FEATURES_SET, PRIVFLAGS_SET; RTM_SETLINK IFLA_MTU; devlink
 * PARAM_SET in cmode runtime; a file write for the writable module
 * parameter and rdma_cm's configfs.  The plan checks every value against
 * what the device reports (its ring and channel maxima, a fixed feature,
 * the devlink parameter's cmode): a knob that takes effect at a driver
 * reload or a firmware reset is refused, never applied silently.
 */
struct mlx_params_writer {
	const char *ifname;      /* the port's netdev */
	const char *bdf;         /* its PCI function (devlink parameters); NULL none */
	const char *rdma_dev;    /* its RDMA device (rdma_cm knobs); NULL none */
	unsigned rdma_port;
	/* A transaction's step (lib/settings.h): the port's RDMA device,
	 * which rdma_dev takes when the plan has an RDMA knob. */
	const char *rdma_dev_avail;
	/* state: what the kernel reported at the last read */
	struct mlx_params cur, mod;
	bool have;
};
struct mlx_write_ops;
extern const struct mlx_write_ops mlx_params_write_ops;
struct mlx_plan;
struct mlx_val;

/* Parse @value against @k's catalogue row (type, range, choices) into
 * @out: -EINVAL / -ERANGE with the story in mlx_errmsg. */
int mlx_params_parse_value(struct mlx_ctx *ctx, const struct mlx_knob *k, const char *value,
			   struct mlx_val *out);
/* Add NAME=VALUE to @pl, validated against the catalogue. */
int mlx_params_plan_set(struct mlx_ctx *ctx, struct mlx_plan *pl, const char *name,
			const char *value);
/* Add @name's return to its default; -ENODATA when nobody knows the
 * default (the catalogue says why). */
int mlx_params_plan_reset(struct mlx_ctx *ctx, struct mlx_plan *pl, const char *name);
/* @k's default as a value (-ENODATA when none is known, or when it is a
 * state no write makes). */
int mlx_params_default(struct mlx_ctx *ctx, const struct mlx_knob *k, struct mlx_val *out);
void mlx_params_writer_free(struct mlx_params_writer *w);

/* The kernel request that sets @k to @v on @ifname (or devlink instance
 * pci/@bdf; @dl_type the parameter's reported type), into @buf: pure.
 * Returns the length, -EOPNOTSUPP for a knob no request sets (module,
 * rdma: files), -EINVAL, -EMSGSIZE.  *fam is the netlink family. */
int mlx_params_req_build(const struct mlx_knob *k, const char *ifname, const char *bdf,
			 uint8_t dl_type, const struct mlx_val *v, void *buf, size_t cap,
			 int *fam);

/* What a set request asks (the emulator's view of the same bytes). */
struct mlx_params_set {
	enum mlx_knob_source src;
	char ifname[16];
	char bus[16], dev[64];   /* devlink */
	char name[64];           /* the feature or private flag, the devlink parameter */
	uint16_t attr;           /* rings, channels, coalesce: the one attribute */
	uint8_t cmode, dl_type;  /* devlink */
	bool on;                 /* a bit, a devlink bool */
	uint64_t u;              /* an integer */
	char str[128];           /* a devlink string */
	bool is_u8;              /* the attribute is a u8 (coalesce's flags) */
};
/* Parse one set request of family @fam (enum mlx_nl_family): 0, -ENOENT
 * when it is no params request, -EINVAL when malformed (@why says how). */
int mlx_params_req_parse(int fam, const void *req, size_t len, struct mlx_params_set *out,
			 char *why, size_t whylen);

#endif /* MLX_PARAMS_H */
