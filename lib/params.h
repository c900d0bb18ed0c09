/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The driver's knobs (issue 17, `mlxcli params`): the catalogue of every
 * knob mlx5 exposes on Linux, the pure decoders of the replies that carry
 * their values, and the collection of one device's values.
 *
 * Eight interfaces hold them (reference/linux-mlx5-interfaces.md): ethtool
 * netlink (private flags, rings, channels, coalescing, features), the MTU,
 * devlink parameters, mlx5_core's module parameters, the RDMA knobs, and
 * (issue 27) an ethtool tunable (the ioctl) and threaded NAPI (sysfs).
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
	/* issue 27 (lib/params/params-tunable.c) */
	MLX_KS_TUNABLE,    /* ethtool --get-tunable (SIOCETHTOOL ETHTOOL_GTUNABLE) */
	MLX_KS_NAPI,       /* /sys/class/net/IF/threaded */
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
	 * parameter); NULL where an attribute number says it (@attr).  A
	 * feature knob that ethtool -K names (tso, sg, tx, ...) has ethtool's
	 * pattern (common.c off_flag_def kernel_name, one '*'): it is the
	 * group of every feature the pattern matches, as ethtool sets it. */
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
	unsigned flags;            /* enum mlx_knob_flags */
};

/*
 * Which drivers a row's facts hold for (issue 25: `--any-netdev` reaches a
 * veth, whose MTU goes to 65535 and whose GRO is off by default).  The
 * catalogue is mlx5's: a default or a range holds for any other driver
 * only when the row says so.
 */
enum mlx_knob_flags {
	/* the default holds for any driver (the Ethernet MTU of ether_setup,
	 * rdma_cm's defaults) */
	MLX_KF_DFLT_ANY = 1u << 0,
	/* min..max are mlx5's; the device reports its own bounds (IFLA_MIN_MTU
	 * and IFLA_MAX_MTU, the ring and channel maxima), which win; on another
	 * driver without them the kernel alone decides */
	MLX_KF_RANGE_MLX5 = 1u << 1,
};

extern const struct mlx_knob mlx_knobs[];
extern const size_t mlx_nknobs;

const char *mlx_knob_source_name(enum mlx_knob_source s);
/* "privflag" -> MLX_KS_PRIVFLAG; -EINVAL when unknown. */
int mlx_knob_source_parse(const char *s, enum mlx_knob_source *out);
const char *mlx_knob_apply_name(enum mlx_knob_apply a);
const struct mlx_knob *mlx_knob_find(const char *name);
/* Does feature string @name match ethtool's pattern @pattern (at most one
 * '*', ethtool's flag_pattern_match)?  Pure. */
bool mlx_feature_match(const char *name, const char *pattern);
/* A private flag the catalogue does not know, named by the device: its
 * name is safe and fits a bitset name (mlxcli params set takes it). */
bool mlx_privflag_name_ok(const char *name);
/* The row every such flag is validated against (a bool, on|off). */
extern const struct mlx_knob mlx_knob_any_privflag;
/* A devlink parameter in cmode permanent that the catalogue does not know
 * (a firmware NV setting a newer kernel lists, issue 27): typed by the
 * type the kernel reports for it, which only the plan knows; named like a
 * private flag (mlx_privflag_name_ok). */
extern const struct mlx_knob mlx_knob_any_devlink;
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

#define MLX_FEATURE_GROUP_MAX 8   /* tx-checksum-* has 5 members */

/* One knob's value on one object (a netdev, a PCI function, the module). */
struct mlx_knob_value {
	/* Its row: the catalogue's, or for a private flag the catalogue does
	 * not know one made for it (owned by the struct mlx_params: no default,
	 * on|off); NULL for another unknown knob (a module parameter) */
	const struct mlx_knob *k;
	char name[64];               /* k->name, or the kernel's name */
	enum mlx_knob_source src;
	bool known;              /* the kernel answered */
	char value[128];         /* as text: "on", "1024", "smfs" */
	char maximum[32];        /* the device's maximum (rings, channels, MTU), "" none */
	char minimum[32];        /* the device's minimum (MTU), "" none */
	bool fixed;              /* a feature the device cannot change */
	enum mlx_knob_apply apply;   /* devlink: from the reported cmode */
	bool is_default;         /* value equals k->dflt (false when either is unknown) */
	uint8_t dl_type;         /* devlink: the reported enum mlx_dl_ptype, else 0 */
	/* a feature group: the features a set changes (matched by the
	 * pattern, changeable: in HW, not in NOCHANGE) */
	unsigned nmembers;
	char members[MLX_FEATURE_GROUP_MAX][MLX_BIT_NAME];
};

struct mlx_own_knob;

struct mlx_params {
	char object[64];         /* netdev, "pci/0000:08:00.0" or "mlx5_core" */
	/* the netdev's driver (its device's driver link): "mlx5_core"; ""
	 * when it has no device (a veth) or none is bound */
	char driver[32];
	struct mlx_own_knob *own;    /* rows made for unknown private flags */
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
/* @bus/@bdf is the devlink instance whose parameters are listed (@bus NULL:
 * "pci"; a netdevsim device is netdevsim/netdevsimN); @bdf NULL: none. */
int mlx_params_port(struct mlx_ctx *ctx, struct mlx_params_cache *c, const char *ifname,
		    const char *bus, const char *bdf, bool pf, struct mlx_params *out);
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
/* That file of RDMA device @rdma_dev port @port, read and parsed: 0,
 * -ENOENT where there is none (upstream), -EINVAL for a bad name. */
int mlx_params_tclass_get(struct mlx_ctx *ctx, const char *rdma_dev, unsigned port, char *val,
			  size_t len);
/* mlx5_core's module parameters. */
int mlx_params_module(struct mlx_ctx *ctx, struct mlx_params *out);
void mlx_params_free(struct mlx_params *p);
/* @ifname's features (ETHTOOL_MSG_FEATURES_GET) from the cache's dump;
 * -ENODATA when the dump has no such netdev. */
int mlx_params_features(struct mlx_ctx *ctx, struct mlx_params_cache *c, const char *ifname,
			struct mlx_eth_features *out);

/* Is @p an mlx5 device's (the catalogue's defaults and ranges hold)? */
bool mlx_params_mlx5(const struct mlx_params *p);
/* @v's default on @p's device: the catalogue's where it holds for the
 * driver (MLX_KF_DFLT_ANY, or mlx5), else NULL (nobody knows). */
const char *mlx_params_default(const struct mlx_params *p, const struct mlx_knob_value *v);
/* @v's range on @p's device into *lo..*hi: the device's own bounds where
 * it reports them, else the catalogue's where they hold for the driver,
 * else the type's (*hi UINT64_MAX when only the kernel knows).  false for
 * a knob without a numeric range (a bool, a string). */
bool mlx_params_range(const struct mlx_params *p, const struct mlx_knob_value *v, uint64_t *lo,
		      uint64_t *hi);
/* A feature knob's value from a device's FEATURES reply, as ethtool -k
 * shows it (netlink/features.c): a group is on when any member is active,
 * fixed when none can change; kv->members are the ones a set changes.
 * 0, or -ENOENT when the device has no such feature. */
int mlx_params_feature_value(const struct mlx_eth_features *f, const struct mlx_knob *k,
			     struct mlx_knob_value *kv);

/* The MTU bounds of RTM_NEWLINK (include/uapi/linux/if_link.h IFLA_MTU,
 * IFLA_MIN_MTU, IFLA_MAX_MTU; net/core/rtnetlink.c rtnl_fill_ifinfo puts
 * them for every netdev): pure.  0, -EBADMSG, -ENOMSG for another message. */
struct mlx_link_mtu {
	char ifname[16];
	bool have_mtu, have_min, have_max;
	uint32_t mtu, min, max;
};
int mlx_link_mtu_decode(const struct nlmsghdr *h, size_t len, struct mlx_link_mtu *out);

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
 * the devlink parameter's cmode): a devlink parameter in cmode driverinit
 * is set for the next reload, one in cmode permanent is written to the
 * firmware's NV settings (in effect after a firmware reset: the change is
 * flagged MLX_CHG_DESTROYS, so it is confirmed); a module parameter that
 * takes effect at module load is refused, never applied silently.
 */
struct mlx_params_writer {
	const char *ifname;      /* the port's netdev */
	const char *bdf;         /* its PCI function (devlink parameters); NULL none */
	const char *bus;         /* bdf's bus: NULL "pci" */
	/* a netdev that is no ConnectX port (--any-netdev): the device it
	 * sits on, whose devlink parameters these are (netdevsim) */
	struct mlx_devlink_name dl;
	const char *rdma_dev;    /* its RDMA device (rdma_cm knobs); NULL none */
	unsigned rdma_port;
	/* A transaction's step (lib/settings.h): the port's RDMA device,
	 * which rdma_dev takes when the plan has an RDMA knob. */
	const char *rdma_dev_avail;
	char rdma_buf[64];       /* a netdev's RDMA port (--any-netdev): its name */
	/* firmware NV (devlink cmode permanent): mlx5 registers those
	 * parameters on a PF's devlink instance only (lib/nv_param.c
	 * mlx5_nv_param_register_dl_params), so a VF's plan is refused,
	 * naming its PF (@pf_bdf, NULL when not visible) */
	bool vf;
	const char *pf_bdf;
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
/* A name the catalogue does not know is a private flag of the device's
 * (MLNX_OFED has flags upstream lacks): an on|off value is planned with
 * id MLX_PARAMS_ID_PRIVFLAG, and the plan refuses it when the device
 * reports no such flag. */
int mlx_params_plan_set(struct mlx_ctx *ctx, struct mlx_plan *pl, const char *name,
			const char *value);
#define MLX_PARAMS_ID_PRIVFLAG (-2)
/* A devlink parameter the catalogue does not know (mlx_knob_any_devlink):
 * the value as given (a string), typed by the plan from the type the
 * device reports; the plan takes one in cmode permanent only.  A private
 * flag's change (on|off) the device has no flag for is one too, when the
 * device lists a devlink parameter of that name. */
#define MLX_PARAMS_ID_DEVLINK (-3)
/* Add @name's return to its default; -ENODATA when nobody knows the
 * default (the catalogue says why).  The change's arg is 1: the plan
 * refuses it (-EOPNOTSUPP) on a device whose driver the default does not
 * hold for (mlx5's defaults on a veth). */
int mlx_params_plan_reset(struct mlx_ctx *ctx, struct mlx_plan *pl, const char *name);
/* @k's default as a value (-ENODATA when none is known, or when it is a
 * state no write makes). */
int mlx_params_default_val(struct mlx_ctx *ctx, const struct mlx_knob *k, struct mlx_val *out);
void mlx_params_writer_free(struct mlx_params_writer *w);

/* The kernel request that sets @k to @v on @ifname (or devlink instance
 * @bus/@bdf, @bus NULL "pci"; @dl_type the parameter's reported type),
 * into @buf: pure.
 * Returns the length, -EOPNOTSUPP for a knob no request sets (module,
 * rdma: files), -EINVAL, -EMSGSIZE.  *fam is the netlink family. */
int mlx_params_req_build(const struct mlx_knob *k, const char *ifname, const char *bus,
			 const char *bdf, uint8_t dl_type, const struct mlx_val *v, void *buf, size_t cap,
			 int *fam);
/* The same with a devlink parameter's configuration mode @cmode (enum
 * devlink_param_cmode: a driverinit value is set for the next reload);
 * the plain form sets the runtime one. */
int mlx_params_req_build_cmode(const struct mlx_knob *k, const char *ifname, const char *bus,
			       const char *bdf, uint8_t dl_type, uint8_t cmode,
			       const struct mlx_val *v, void *buf, size_t cap, int *fam);
/* FEATURES_SET of the @n features @names (a group) to @on, as ethtool -K
 * sets a group (netlink/features.c fill_legacy_flag): pure; the length,
 * -EINVAL, -EMSGSIZE. */
int mlx_params_req_features(const char *ifname, const char (*names)[MLX_BIT_NAME], size_t n,
			    bool on, void *buf, size_t cap);

/* What a set request asks (the emulator's view of the same bytes). */
struct mlx_params_set {
	enum mlx_knob_source src;
	char ifname[16];
	char bus[16], dev[64];   /* devlink */
	char name[64];           /* the feature or private flag, the devlink parameter */
	/* features: every bit of the request (a group), name[] the first */
	unsigned nbits;
	struct { char name[MLX_BIT_NAME]; bool on; } bits[MLX_FEATURE_GROUP_MAX];
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

/* ---- ethtool tunables and threaded NAPI (issue 27,
 * lib/params/params-tunable.c) ------------------------------------------ */

/*
 * The PFC storm prevention timeout, ETHTOOL_PFC_PREVENTION_TOUT
 * (include/uapi/linux/ethtool.h: tunable 3, ETHTOOL_TUNABLE_U16, in ms;
 * PFC_STORM_PREVENTION_AUTO 0xffff, PFC_STORM_PREVENTION_DISABLE 0).
 * mlx5 (en_ethtool.c mlx5e_set_pfc_prevention_tout) takes 0, 80..8000 and
 * auto, which it writes as 100 ms (MLX5E_PFC_PREVEN_AUTO_TOUT_MSEC) into
 * the PFCC register, so auto reads back as 100.
 */
#define MLX_PFC_TOUT_AUTO 0xffffu
#define MLX_PFC_TOUT_MLX5_MIN 80u
#define MLX_PFC_TOUT_MLX5_MAX 8000u
#define MLX_PFC_TOUT_MLX5_AUTO_MS 100u
/* "auto", "off"/"disabled", or milliseconds 0..65535 into *@ms: 0, or
 * -EINVAL (not such a word or number), -ERANGE (above 65535).  Pure. */
int mlx_pfc_tout_parse(const char *s, uint16_t *ms);
/* mlx5's rule: 0 (off), 80..8000, or auto: 0 or -ERANGE.  Pure. */
int mlx_pfc_tout_mlx5_check(uint16_t ms);
/* What mlx5 holds after a write of @ms (auto: 100 ms).  Pure. */
uint16_t mlx_pfc_tout_mlx5_effective(uint16_t ms);

/* The struct ethtool_tunable of a GTUNABLE/STUNABLE of a u16 tunable, its
 * value after it (net/ethtool/ioctl.c ethtool_get_tunable copies the value
 * to the bytes after the header). */
struct mlx_tunable_u16 {
	uint32_t cmd, id, type_id, len;
	uint16_t data;
	uint16_t pad;
};
/* Is @t a well-formed u16 tunable request/reply of tunable @id
 * (ethtool_tunable_valid: the type and length the id requires)?  Pure. */
bool mlx_tunable_u16_valid(const struct mlx_tunable_u16 *t, uint32_t id);

/* A recorded GTUNABLE of u16 tunable @id (lib/backend/ethtool-record.c:
 * int32 result, then on success the header and the value): *@err the
 * recorded answer (0 or -errno), *@val the value when it is 0; -EBADMSG
 * for any other bytes (another tunable, a short or long record, an errno
 * out of range).  Pure (fuzzed: tests/fuzz/fuzz-tunable.c). */
#define MLX_TUNABLE_REC_LEN (4 + 16 + 2)
int mlx_tunable_rec_decode(const uint8_t *p, size_t len, uint32_t id, int *err, uint16_t *val);

/* @ifname's tunable @id (u16) over SIOCETHTOOL through the kernel
 * boundary (a capture answers from its recording, an emulator takes a
 * write): 0 or -errno (-EOPNOTSUPP: the driver has no such tunable). */
int mlx_ethtool_tunable_get_u16(struct mlx_ctx *ctx, const char *ifname, uint32_t id,
				uint16_t *val);
int mlx_ethtool_tunable_set_u16(struct mlx_ctx *ctx, const char *ifname, uint32_t id,
				uint16_t val);

/* The text of /sys/class/net/IF/threaded (net/core/net-sysfs.c
 * threaded_show: a decimal, 0 or 1) as the knob's value "off" or "on";
 * another number as itself; -EBADMSG when not a number.  Pure. */
int mlx_threaded_parse(const char *text, char *out, size_t len);
/* Its path for @ifname: -EINVAL for an unsafe name. */
int mlx_threaded_path(char *buf, size_t len, const char *ifname);

#endif /* MLX_PARAMS_H */
