/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devlink health (issue 7 follow-up): the reporters of a devlink instance
 * (DEVLINK_CMD_HEALTH_REPORTER_GET), their diagnose and dump output
 * (HEALTH_REPORTER_DIAGNOSE / DUMP_GET: the "fmsg" stream), devlink reload
 * (DEVLINK_CMD_RELOAD, action driver_reinit), the ethtool link state with
 * its extended down reason (ETHTOOL_MSG_LINKSTATE_GET) and the mlx5
 * firmware command statistics in debugfs.
 *
 * Wire formats: include/uapi/linux/devlink.h, net/devlink/health.c
 * (devlink_nl_health_reporter_fill, devlink_fmsg_prepare_skb),
 * include/uapi/linux/ethtool_netlink.h, net/ethtool/linkstate.c;
 * numbers REF:§0.1, mlx5 reporters REF:§6.3.
 *
 * The decoders are pure and never read past the buffer they are given;
 * the queries go through mlx_nl_query (capture and replay as the rest).
 */
#ifndef MLX_HEALTH_H
#define MLX_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

#include "device.h"

/* ---- the fmsg stream: a small tree ------------------------------------- */

/*
 * The kernel sends a formatted message as a flat sequence of attributes
 * inside DEVLINK_ATTR_FMSG, possibly spread over several messages:
 *   OBJ_NEST_START / PAIR_NEST_START / ARR_NEST_START open a nest,
 *   NEST_END closes the innermost one, OBJ_NAME names the open pair,
 *   OBJ_VALUE_TYPE (an NLA_* number) then OBJ_VALUE_DATA give a value
 *   (of the open pair, or an element of the open array).
 * The decoder builds the tree below from that stream, message by message.
 */
#define MLX_FMSG_MAX_DEPTH 32
#define MLX_FMSG_MAX_NODES (1u << 20)
#define MLX_FMSG_MAX_BYTES (64u << 20)   /* binary + string bytes, all told */

enum mlx_fmsg_kind { MLX_FMSG_OBJ, MLX_FMSG_ARR, MLX_FMSG_VAL };
/* Value types: the kernel's NLA_* numbers (also DEVLINK_VAR_ATTR_TYPE_*). */
enum mlx_fmsg_vtype {
	MLX_FMSG_U8 = 1, MLX_FMSG_U32 = 3, MLX_FMSG_U64 = 4, MLX_FMSG_FLAG = 6,
	MLX_FMSG_STRING = 10, MLX_FMSG_BINARY = 11,
};

struct mlx_fmsg_node {
	char *name;                   /* the pair's name; NULL in arrays, root */
	enum mlx_fmsg_kind kind;
	uint8_t vtype;                /* MLX_FMSG_VAL: an enum mlx_fmsg_vtype or unknown */
	uint64_t u;                   /* U8/U32/U64/FLAG */
	char *s;                      /* STRING */
	uint8_t *bin;                 /* BINARY and unknown types: the raw bytes */
	size_t binlen;
	struct mlx_fmsg_node **child; /* OBJ (named) and ARR (unnamed) */
	size_t n, cap;
};

struct mlx_fmsg_parser {
	struct mlx_fmsg_node *root;
	/* open nests, innermost last: an object or array (its node), or a
	 * pair (its name until the value arrives) */
	struct {
		enum { MLX_FMSG_FR_OBJ, MLX_FMSG_FR_ARR, MLX_FMSG_FR_PAIR } kind;
		struct mlx_fmsg_node *node;
		char *name;
		bool has_name, has_value;
	} st[MLX_FMSG_MAX_DEPTH];
	size_t depth;
	int pending_type;             /* OBJ_VALUE_TYPE seen, DATA not yet: the type; else -1 */
	size_t nodes, bytes;
	unsigned unknown_types;       /* values of a type this decoder does not know */
	unsigned root_ends;           /* NEST_ENDs seen with only the root open */
};

void mlx_fmsg_init(struct mlx_fmsg_parser *p);
/* Feed the payload of one DEVLINK_ATTR_FMSG nest.  0 or -EBADMSG / -E2BIG
 * / -ENOMEM with the reason in @err. */
int mlx_fmsg_feed(struct mlx_fmsg_parser *p, const uint8_t *buf, size_t len, char *err,
		  size_t errlen);
/* Feed one reply message (genl header, attributes; the FMSG nest found
 * among them).  A message without DEVLINK_ATTR_FMSG is -EBADMSG. */
int mlx_fmsg_feed_msg(struct mlx_fmsg_parser *p, const struct nlmsghdr *h, size_t len, char *err,
		      size_t errlen);
/* The stream ended: every nest must be closed.  Hands the tree to *out
 * (the caller frees it with mlx_fmsg_free) and resets the parser. */
int mlx_fmsg_finish(struct mlx_fmsg_parser *p, struct mlx_fmsg_node **out, char *err, size_t errlen);
void mlx_fmsg_parser_free(struct mlx_fmsg_parser *p);
void mlx_fmsg_free(struct mlx_fmsg_node *n);
/* A direct member of an object by name; NULL when absent. */
const struct mlx_fmsg_node *mlx_fmsg_get(const struct mlx_fmsg_node *obj, const char *name);

/* ---- reporters ---------------------------------------------------------- */

#define MLX_HEALTH_MAX_REPORTERS 32

struct mlx_health_reporter {
	char name[64];
	int64_t port_index;           /* DEVLINK_ATTR_PORT_INDEX; -1 for a device reporter */
	int state;                    /* 0 healthy, 1 error; -1 absent */
	uint64_t err_count, recover_count;
	bool has_grace, has_auto_recover, has_auto_dump, has_dump_ts, has_dump_ts_ns;
	uint64_t grace_period_ms;     /* has_grace: the reporter can recover */
	bool auto_recover, auto_dump; /* has_auto_dump: the reporter can dump */
	uint64_t dump_ts_ms;          /* jiffies at the last dump, in ms */
	uint64_t dump_ts_ns;          /* CLOCK_REALTIME of the last dump */
};

struct mlx_health {
	struct mlx_health_reporter r[MLX_HEALTH_MAX_REPORTERS];
	size_t n;
};

/* Decode one HEALTH_REPORTER_GET reply message; keep it in @out when its
 * handle is @bus/@dev (a dump of an older kernel lists every device).
 * -EBADMSG with a reason when malformed. */
int mlx_health_reporter_decode(const struct nlmsghdr *h, size_t len, const char *bus,
			       const char *dev, struct mlx_health *out, char *err, size_t errlen);
const char *mlx_health_state_str(int state);

/* Requests (nlmsg_type 0, filled in by mlx_nl_query): HEALTH_REPORTER_GET
 * as a dump of the device (@reporter NULL) or of one reporter;
 * DIAGNOSE; DUMP_GET (a dump); DUMP_CLEAR (acked).  @port_index < 0: a device reporter. */
int mlx_health_build(void *buf, size_t cap, uint8_t cmd, const char *bus, const char *dev,
		     const char *reporter, int64_t port_index);
/* DEVLINK_CMD_RELOAD with DEVLINK_ATTR_RELOAD_ACTION @action, acked. */
int mlx_devlink_reload_build(void *buf, size_t cap, const char *bus, const char *dev,
			     uint8_t action);

/* The capture's request name of a reporter's diagnose/dump:
 * "diagnose-fw", "diagnose-tx-port65535". */
void mlx_health_request_name(char *buf, size_t len, const char *what,
			     const struct mlx_health_reporter *r);

/* Queries on a PF (replayed under a sysroot; object "pci:<BDF>"). */
int mlx_health_get(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_health *out);
int mlx_health_diagnose(struct mlx_ctx *ctx, const struct mlx_function *fn,
			const struct mlx_health_reporter *r, struct mlx_fmsg_node **out);
int mlx_health_dump(struct mlx_ctx *ctx, const struct mlx_function *fn,
		    const struct mlx_health_reporter *r, struct mlx_fmsg_node **out);
/* DEVLINK_CMD_HEALTH_REPORTER_DUMP_CLEAR: forget the reporter's held
 * dump, so that its next error takes a new one (auto_dump keeps the first
 * until cleared).  Live only: -EOPNOTSUPP on a captured system. */
int mlx_health_dump_clear(struct mlx_ctx *ctx, const struct mlx_function *fn,
			  const struct mlx_health_reporter *r);
/* devlink reload driver_reinit: live only. */
int mlx_devlink_reload(struct mlx_ctx *ctx, const struct mlx_function *fn);

/* ---- the self-healing policy (lib/debug/health-policy.c) ------------------ */

/* A reporter's policy setting (DEVLINK_CMD_HEALTH_REPORTER_SET). */
enum mlx_health_field {
	MLX_HEALTH_GRACE,             /* DEVLINK_ATTR_HEALTH_REPORTER_GRACEFUL_PERIOD, u64 ms */
	MLX_HEALTH_AUTO_RECOVER,      /* _AUTO_RECOVER, u8 */
	MLX_HEALTH_AUTO_DUMP,         /* _AUTO_DUMP, u8 */
	MLX_HEALTH_NFIELDS
};
/* Its JSON key and setting name: "grace_period_ms", "auto_recover", "auto_dump". */
const char *mlx_health_field_name(enum mlx_health_field f);
/* Does reporter @r have it (a reporter without a recovery has no grace
 * period and no auto_recover, one without a dump no auto_dump:
 * net/devlink health, HEALTH_REPORTER_SET refuses them with EOPNOTSUPP)? */
bool mlx_health_has(const struct mlx_health_reporter *r, enum mlx_health_field f);
/* Its value in @r (a bool as 0/1). */
uint64_t mlx_health_value(const struct mlx_health_reporter *r, enum mlx_health_field f);

/*
 * How WinOF-2's self-healing keys (reference seeds-mlxtool-dmn-counters.md
 * §8.4 and §7.2) correspond to a devlink reporter's policy.  Windows has
 * sensors with mask bits; Linux has reporters with a policy each:
 *  - SHMPResetActiveSensorsMask (sensors allowed to reset the miniport,
 *    default all): a reporter's auto_recover.  A sensor whose bit is clear
 *    still logs and dumps, as a reporter with auto_recover off still
 *    reports and dumps.  The recoveries differ in scope: mlx5's tx and rx
 *    reporters reopen the failing queue, fw_fatal reloads the function;
 *    Windows restarts the miniport.
 *  - SHSensorsDumpMask (sensors allowed to make a dump-me-now, default
 *    none): a reporter's auto_dump, which keeps the kernel's dump of the
 *    error (devlink health dump show); the incident folder is `mlxcli
 *    monitor --dump`'s.  Linux's default is the opposite: on.
 *  - SHCheckForHangTimeInSeconds (the health checker's period, 4 s): no
 *    devlink setting.  mlx5 polls the firmware's health buffer every
 *    HEALTH_POLL_INTERVAL (lib/tout.c, 2 s unless the firmware's DTOR
 *    register says otherwise) and the TX timeout is the netdev watchdog
 *    (en_main.c watchdog_timeo 15 s); grace_period_ms is another thing:
 *    the time after a recovery in which a new error is not recovered.
 * The sensors mlx5's reporters cover: @sensors, the Windows bits (0: no
 * Windows sensor: the firmware reporters; Windows handles firmware errors
 * in its bus driver).
 */
struct mlx_health_windows {
	const char *reporter;         /* mlx5's reporter name */
	uint32_t sensors;             /* the Windows sensor mask bits it covers */
	const char *what;             /* those sensors, in Windows' words */
};
/* The row of @reporter, NULL when it is no mlx5 reporter. */
const struct mlx_health_windows *mlx_health_windows_row(const char *reporter);
/* The Windows key of a field ("SHMPResetActiveSensorsMask"), NULL none. */
const char *mlx_health_windows_key(enum mlx_health_field f);

/* HEALTH_REPORTER_SET of one field of reporter @reporter (@port_index < 0:
 * a device reporter) to @v; RECOVER (acked).  Pure. */
int mlx_health_set_build(void *buf, size_t cap, const char *bus, const char *dev,
			 const char *reporter, int64_t port_index, enum mlx_health_field f,
			 uint64_t v);
/* What a HEALTH_REPORTER_SET request asks (the emulator's view of the
 * same bytes): 0, or -EINVAL with @why. */
struct mlx_health_set_req {
	char bus[32], dev[64], reporter[64];
	int64_t port_index;
	bool has[MLX_HEALTH_NFIELDS];
	uint64_t v[MLX_HEALTH_NFIELDS];
};
int mlx_health_set_parse(const void *req, size_t len, struct mlx_health_set_req *out, char *why,
			 size_t whylen);

/* Set one field of reporter @r of @fn (a captured system: its emulator). */
int mlx_health_set(struct mlx_ctx *ctx, const struct mlx_function *fn,
		   const struct mlx_health_reporter *r, enum mlx_health_field f, uint64_t v);
/* DEVLINK_CMD_HEALTH_REPORTER_RECOVER: recover reporter @r now (live
 * only).  mlx_health_recover_check: can this system do it at all. */
int mlx_health_recover(struct mlx_ctx *ctx, const struct mlx_function *fn,
		       const struct mlx_health_reporter *r);
int mlx_health_recover_check(struct mlx_ctx *ctx);
/* The reporters of @fn named @name (any port); 0 when there is none. */
size_t mlx_health_find(const struct mlx_health *h, const char *name, int64_t port_index,
		       size_t *idx, size_t max);

/* The write engine's side of the policy (lib/settings.h MLX_SUB_HEALTH):
 * one change per reporter and field, id the reporter's index in cur, arg
 * the field. */
struct mlx_health_writer {
	const struct mlx_function *fn;
	const char *on;               /* messages */
	struct mlx_health cur;        /* the reporters at the plan */
	bool have;
};

/* ---- ethtool link state --------------------------------------------------- */

struct mlx_linkstate {
	int link;                     /* 1 up, 0 down, -1 not reported */
	int64_t sqi, sqi_max;         /* -1 when absent */
	int ext_state, ext_substate;  /* -1 when absent */
};

int mlx_linkstate_build(void *buf, size_t cap, const char *ifname);
/* One ETHTOOL_MSG_LINKSTATE_GET_REPLY. */
int mlx_linkstate_decode(const struct nlmsghdr *h, size_t len, struct mlx_linkstate *out,
			 char *err, size_t errlen);
/* "no cable"; NULL for a number the header does not name. */
const char *mlx_link_ext_state_str(int state);
const char *mlx_link_ext_substate_str(int state, int substate);
/* object @ifname, request "linkstate-get". */
int mlx_linkstate_get(struct mlx_ctx *ctx, const char *ifname, struct mlx_linkstate *out);

/* ---- firmware command statistics (debugfs) ------------------------------- */

struct mlx_cmd_stat {
	char name[64];                /* the command, as the driver names its directory */
	uint64_t n, average;          /* count; average time (the driver's unit, ns) */
	int64_t failed, failed_mbox_status, last_failed_errno, last_failed_mbox_status;
	int64_t last_failed_syndrome; /* -1 when the kernel has no such file */
};

/* <debugfs>/mlx5/<BDF>/commands/<NAME>/{average,n,failed,...}, sorted by
 * count (most first), then name.  -ENOENT / -EACCES with mlx_errmsg. */
int mlx_cmd_stats_read(struct mlx_ctx *ctx, const char *bdf, struct mlx_cmd_stat **out, size_t *n);
int mlx_cmd_stat_cmp(const void *a, const void *b);

#endif
