/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The event monitor (issue 16): a catalogue of event kinds, the pure
 * decoders that turn what the kernel says into events (a /dev/kmsg record,
 * an rtnetlink link message), and the event source that reads them, live
 * or from a capture's recordings (lib/monitor/source.c).
 *
 * Every kernel-log kind names the exact format string the kernel prints
 * and the source file and function it comes from (struct mlx_ev_kind_info,
 * `mlxcli monitor --catalogue`): that table is the reference note of the
 * formats; lib/monitor/README says how they were checked.
 *
 * DESIGN "Security": only kernel records are events.  A /dev/kmsg record
 * written by a user process has a non-zero facility (the kernel forces
 * LOG_USER on writes without one and never lets a writer claim facility
 * 0), and is refused unless the caller passes MLX_KMSG_ACCEPT_USER (a test
 * option of the CLI).
 */
#ifndef MLX_MONITOR_H
#define MLX_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/netlink.h>

#include "mlx.h"
#include "module-eeprom.h"

enum mlx_ev_source { MLX_EVS_KMSG, MLX_EVS_RTNL, MLX_EVS_DEVLINK, MLX_EVS_MONITOR, MLX_EVS_ETHTOOL };
enum mlx_ev_severity {
	MLX_EVSEV_INFO, MLX_EVSEV_NOTICE, MLX_EVSEV_WARNING, MLX_EVSEV_ERROR, MLX_EVSEV_CRITICAL,
};

enum mlx_ev_kind {
	MLX_EV_NONE = 0,
	/* kernel log, mlx5_core */
	MLX_EV_LINK_UP, MLX_EV_LINK_DOWN,
	MLX_EV_MODULE_PLUGGED, MLX_EV_MODULE_UNPLUGGED, MLX_EV_MODULE_ERROR,
	MLX_EV_HIGH_TEMPERATURE,
	MLX_EV_PCIE_POWER_OK, MLX_EV_PCIE_POWER_INSUFFICIENT, MLX_EV_PCIE_POWER_UNKNOWN,
	MLX_EV_PCIE_BANDWIDTH, MLX_EV_PCIE_BANDWIDTH_LIMITED,
	MLX_EV_FIRMWARE_VERSION, MLX_EV_PROBE_FAILED,
	MLX_EV_HEALTH_COMPROMISED, MLX_EV_HEALTH_ISSUE, MLX_EV_HEALTH_BUFFER, MLX_EV_FATAL_ERROR,
	MLX_EV_HEALTH_RECOVERY, MLX_EV_HEALTH_RECOVERY_FAILED, MLX_EV_ERROR_STATE,
	MLX_EV_CMD_TIMEOUT, MLX_EV_CMD_FAILED,
	MLX_EV_TX_TIMEOUT, MLX_EV_RX_TIMEOUT, MLX_EV_NETDEV_WATCHDOG,
	MLX_EV_EQ_RECOVER, MLX_EV_EQ_RECOVERED,
	MLX_EV_CQE_ERROR, MLX_EV_SQ_ERR_CQE, MLX_EV_RQ_ERR_CQE,
	MLX_EV_PAGE_ALLOC_FAILED,
	MLX_EV_AER_CORRECTED, MLX_EV_AER_NONFATAL, MLX_EV_AER_FATAL,
	MLX_EV_CQ_ERROR,            /* mlx5_core: a CQ error event (EQE) */
	MLX_EV_MLX5_LOG,            /* an mlx5_core line no other kind describes */
	/* kernel log, mlx5_ib and ib_core: about an RDMA device */
	MLX_EV_RDMA_QP_ERROR, MLX_EV_RDMA_QP_RESET_FAILED, MLX_EV_RDMA_QP_CREATE_FAILED,
	MLX_EV_RDMA_CQE_ERROR, MLX_EV_RDMA_PORT_FAILED, MLX_EV_GID_ADD_FAILED,
	MLX_EV_DELAY_DROP_DISABLED, /* a delay-drop timeout could not be re-armed: dropless off */
	MLX_EV_RDMA_LOG,            /* a line of an mlx5 RDMA device no other kind describes */
	/* rtnetlink */
	MLX_EV_ADMIN_UP, MLX_EV_ADMIN_DOWN, MLX_EV_CARRIER_UP, MLX_EV_CARRIER_DOWN,
	MLX_EV_CARRIER_FLAPPED,
	MLX_EV_MTU_CHANGED, MLX_EV_ADDRESS_CHANGED, MLX_EV_MASTER_CHANGED,
	MLX_EV_VF_COUNT_CHANGED, MLX_EV_VF_CHANGED,
	MLX_EV_QOS_CHANGED,         /* RTNLGRP_DCB: a DCB set, or the driver/DCBX peer */
	/* devlink health */
	MLX_EV_HEALTH_REPORTER_ERROR, MLX_EV_HEALTH_REPORTER_HEALTHY,
	/* the monitor itself */
	MLX_EV_RECORDS_LOST,
	MLX_EV_AER_COUNTER_MOVED,   /* a polled AER total grew (--poll) */
	/* ethtool -S counters that only count events, polled (--poll) */
	MLX_EV_PAUSE_STORM_WARNING, MLX_EV_PAUSE_STORM_ERROR,
	MLX_EV_MODULE_UNPLUG_COUNTED, MLX_EV_MODULE_BUS_STUCK, MLX_EV_MODULE_HIGH_TEMP,
	MLX_EV_MODULE_BAD_SHORTED, MLX_EV_LINK_DOWN_COUNTED, MLX_EV_PHY_RECOVERY,
	MLX_EV_PCI_STALLED, MLX_EV_RX_BUFFER_ALMOST_FULL, MLX_EV_SQ_RECOVERED, MLX_EV_RQ_RECOVERED,
	/* the VF monitor (--vf-thresholds): a vnic counter grew too fast */
	MLX_EV_VF_RESOURCE_THRESHOLD,
	/* a module lane's status flag, polled (--poll): raised, cleared */
	MLX_EV_MODULE_LANE_FLAG, MLX_EV_MODULE_LANE_FLAG_CLEARED,
	/* ethtool netlink, group "monitor": a setting was changed */
	MLX_EV_LINK_INFO_CHANGED, MLX_EV_LINK_MODES_CHANGED, MLX_EV_MSGLEVEL_CHANGED,
	MLX_EV_WOL_CHANGED, MLX_EV_FEATURES_CHANGED, MLX_EV_PRIVFLAGS_CHANGED, MLX_EV_RINGS_CHANGED,
	MLX_EV_CHANNELS_CHANGED, MLX_EV_COALESCE_CHANGED, MLX_EV_PAUSE_CHANGED, MLX_EV_EEE_CHANGED,
	MLX_EV_FEC_CHANGED, MLX_EV_MODULE_POWER_CHANGED,
	MLX_EV_NKINDS
};

/* Table 19 of the WinOF-2 manual: the events that make a state dump; and
 * FATAL_ERROR, which Linux adds (issue 25 item 12: Windows bugchecks on
 * a fatal error, Linux keeps running and has the health dump to take). */
enum mlx_dump_type {
	MLX_DUMP_NONE = 0, MLX_DUMP_CMD_ERR, MLX_DUMP_EQ_STUCK, MLX_DUMP_TXCQ_STUCK,
	MLX_DUMP_RXCQ_STUCK, MLX_DUMP_PORT_STATE, MLX_DUMP_ON_OID, MLX_DUMP_FATAL_ERROR, MLX_DUMP_NTYPES
};
struct mlx_dump_type_info {
	const char *name;           /* "CMD_ERR" */
	char tag;                   /* 'c', ASCII (the manual prints Cyrillic homoglyphs) */
	bool on_by_default;         /* PORT_STATE off; ON_OID is on request only */
	const char *description;
};
const struct mlx_dump_type_info *mlx_dump_type_info(enum mlx_dump_type t);

struct mlx_ev_kind_info {
	enum mlx_ev_kind kind;
	const char *id;             /* "cqe_error": the JSON value of "kind" */
	enum mlx_ev_source source;
	enum mlx_ev_severity severity;
	const char *meaning, *action;
	const char *windows_event;  /* "E11" (reference seeds §7 numbering), NULL none */
	enum mlx_dump_type dump;
	/* the kernel's format string(s), '|' between alternatives, and where
	 * it is printed (file: function); NULL for non-kmsg sources, which
	 * name their uapi instead */
	const char *kernel_format, *kernel_source;
	/* when an event's severity is not always the kind's: how (NULL) */
	const char *severity_note;
};
/* The whole catalogue, in enum order (index 0 is MLX_EV_NONE's slot and
 * is not listed: the array starts at MLX_EV_NONE + 1). */
const struct mlx_ev_kind_info *mlx_ev_catalogue(size_t *n);
const struct mlx_ev_kind_info *mlx_ev_kind_info(enum mlx_ev_kind k);
const char *mlx_ev_source_str(enum mlx_ev_source s);
const char *mlx_ev_severity_str(enum mlx_ev_severity s);

/* Parsed numeric fields of an event: present when the bit is set in
 * mlx_event.have.  mlx_ev_field_key gives the JSON key. */
enum mlx_ev_field {
	MLX_EVF_QUEUE, MLX_EVF_CQN, MLX_EVF_QPN, MLX_EVF_SQN, MLX_EVF_RQN, MLX_EVF_EQN,
	MLX_EVF_CI, MLX_EVF_PI, MLX_EVF_OPCODE, MLX_EVF_SYNDROME, MLX_EVF_VENDOR_SYNDROME,
	MLX_EVF_FW_OPCODE, MLX_EVF_FW_OP_MOD, MLX_EVF_FW_STATUS, MLX_EVF_FW_SYNDROME,
	MLX_EVF_CMD_INDEX, MLX_EVF_ERRNO, MLX_EVF_MODULE, MLX_EVF_POWER_W,
	MLX_EVF_BANDWIDTH_MBPS, MLX_EVF_LINK_WIDTH, MLX_EVF_SENSOR_BITS_HIGH,
	MLX_EVF_SENSOR_BITS_LOW, MLX_EVF_HEALTH_SYNDROME, MLX_EVF_HEALTH_EXT_SYNDROME,
	MLX_EVF_FATAL_ERROR, MLX_EVF_NIC_MODE, MLX_EVF_DELAY_MS, MLX_EVF_TIME_SINCE_TX_US,
	MLX_EVF_EQES, MLX_EVF_IRQN, MLX_EVF_CPU, MLX_EVF_TIMEOUT_MS, MLX_EVF_CARRIER_CHANGES,
	MLX_EVF_IFINDEX, MLX_EVF_ERR_COUNT, MLX_EVF_RECOVER_COUNT, MLX_EVF_LOST,
	MLX_EVF_DELTA, MLX_EVF_TOTAL,   /* a polled counter: growth since the last poll, value */
	MLX_EVF_RDMA_PORT, MLX_EVF_QP_TYPE, MLX_EVF_WC_STATUS, MLX_EVF_GID_INDEX,
	MLX_EVF_HW_SYNDROME_TYPE, MLX_EVF_HW_ERROR_SYNDROME,
	MLX_EVF_MTU, MLX_EVF_MASTER_IFINDEX, MLX_EVF_NUM_VFS, MLX_EVF_VF,
	MLX_EVF_LANE,                   /* a module lane, from 1 */
	MLX_EVF_TIMEOUT_USEC,           /* mlx5_ib's delay-drop timeout */
	MLX_EVF_N
};
const char *mlx_ev_field_key(enum mlx_ev_field f);
/* The field reads best in hex (queue numbers, syndromes). */
bool mlx_ev_field_is_hex(enum mlx_ev_field f);

struct mlx_event {
	enum mlx_ev_kind kind;
	enum mlx_ev_severity severity;
	enum mlx_ev_source source;
	uint64_t seq;               /* kmsg sequence number (0 for other sources) */
	uint64_t usec;              /* CLOCK_MONOTONIC of the kernel's record, µs; 0 unknown */
	uint64_t realtime_us;       /* wall clock of the event (µs since the epoch); 0 unknown */
	bool time_estimated;        /* realtime_us is the kernel's timestamp from the boot time */
	char pci_address[16];       /* "0000:41:00.0"; "" unknown */
	char netdev[16];            /* "" unknown */
	char rdma_device[32];       /* "mlx5_0" (mlx5_ib, ib_core lines); "" none */
	char reporter[32];          /* devlink health reporter */
	char fw_command[48];        /* "ACCESS_REG" */
	char detail[96];            /* status/error text: "bad parameter", "Cable error, ..." */
	char counter[48];           /* a polled counter's name (JSON "name") */
	uint64_t have;              /* 1 << enum mlx_ev_field */
	uint64_t v[MLX_EVF_N];
	char text[512];             /* the raw message (kmsg: the text, unescaped as given) */
};
static inline void mlx_ev_set(struct mlx_event *e, enum mlx_ev_field f, uint64_t v)
{
	e->have |= 1ull << f;
	e->v[f] = v;
}
static inline bool mlx_ev_has(const struct mlx_event *e, enum mlx_ev_field f)
{
	return e->have & (1ull << f);
}

/* ---- /dev/kmsg records (lib/monitor/kmsg-classify.c, pure) ------------- */

#define MLX_KMSG_ACCEPT_USER 0x1    /* test option: classify user-facility records */

/*
 * Classify one record as read(2) from /dev/kmsg: "PRIO,SEQ,USEC,FLAGS[,..];
 * TEXT\n" then " KEY=VALUE\n" lines (DEVICE=+pci:..., SUBSYSTEM=...).
 * Returns 1 with *ev filled (kind MLX_EV_MLX5_LOG for an mlx5_core line no
 * other kind describes), 0 for a kernel record that is not about an mlx5
 * device (ev->seq and usec still filled), -EPERM for a record of a user
 * facility (not MLX_KMSG_ACCEPT_USER), -EBADMSG for a malformed record.
 */
int mlx_kmsg_classify(const char *rec, size_t len, unsigned flags, struct mlx_event *ev);
/* The same for the message text alone (what a snapshot or dmesg keeps):
 * the PCI address comes from the text. */
int mlx_kmsg_classify_text(const char *text, size_t len, struct mlx_event *ev);

/* Sequence numbers: a gap is records the kernel overwrote before we read
 * them (or a reader that started late).  Returns the number lost before
 * @seq (0 none) and remembers @seq. */
struct mlx_kmsg_seq {
	bool have;
	uint64_t next;
};
uint64_t mlx_kmsg_seq_gap(struct mlx_kmsg_seq *s, uint64_t seq);
/* The event that says so. */
void mlx_ev_records_lost(struct mlx_event *ev, uint64_t lost, uint64_t at_seq);

/* ---- rtnetlink link messages (lib/monitor/rtnl-link.c, pure) ----------- */

/* What the monitor remembers of one interface between two messages. */
#define MLX_LINK_VFS 128            /* VFs whose settings are compared */
struct mlx_link_state {
	int ifindex;
	char name[16];
	bool known, admin_up, carrier;
	uint32_t carrier_changes;
	uint32_t mtu;
	uint8_t addr[32], addr_len;
	int master;                 /* IFLA_MASTER: the bond or bridge, 0 none */
	bool has_vfs;               /* a message with the VF table was seen */
	bool want_vfs;              /* a notification of a link with VFs came: ask again */
	uint32_t num_vf;
	uint32_t vf_hash[MLX_LINK_VFS];     /* per VF: its settings, hashed */
};
/*
 * One RTM_NEWLINK/RTM_DELLINK message against the state last seen for its
 * interface (@st: an array of @nst slots, found by ifindex, a free slot
 * taken for a new one, the oldest reused when full): fills up to @max
 * events (admin change first, then carrier, then a flap that the two
 * messages hid: IFLA_CARRIER_CHANGES grew by more than the state change
 * accounts for; then the MTU, the address, the master, the number of VFs
 * and each VF whose settings changed, when the message has the VF table:
 * a reply to RTEXT_FILTER_VF) and returns their count, or -EBADMSG.  The
 * first message of an interface only records its state.  A notification
 * without the VF table of a link known to have VFs sets its want_vfs.
 */
int mlx_rtnl_link_events(const struct nlmsghdr *h, size_t len, struct mlx_link_state *st,
			 size_t nst, struct mlx_event *ev, size_t max);

/* ---- DCB notifications (lib/monitor/dcb-notify.c, pure) ---------------- */

/*
 * One RTNLGRP_DCB notification (net/dcb/dcbnl.c dcbnl_notify: RTM_SETDCB
 * after an IEEE_SET, IEEE_DEL or CEE SET_ALL; RTM_GETDCB IEEE_GET/CEE_GET
 * when the driver reports a change, the DCBX peer's): 1 with *ev a
 * qos_changed event (the netdev, detail "IEEE_SET" or ..., the text the
 * state decoded by lib's DCB decoder: PFC, ETS, APP entries, DCBX), 0 for
 * another message, -EBADMSG.  Who made the change the kernel does not
 * say: the notification's port id is 0.
 */
int mlx_dcb_notify_event(const struct nlmsghdr *h, size_t len, struct mlx_event *ev);

/* ---- ethtool notifications (lib/monitor/ethtool-notify.c, pure) -------- */

/*
 * One message of the ethtool genetlink family's "monitor" group
 * (net/ethtool/netlink.c ethnl_default_notify, after a SET request or a
 * driver's own change: ETHTOOL_MSG_*_NTF with the ETHTOOL_A_*_HEADER nest
 * naming the device, then what a GET reply carries): 1 with *ev the
 * setting's *_changed event (the netdev and ifindex, detail the message
 * type's uapi name, the text the new pause, ring and channel values), 0
 * for another message (a GET reply, a cable test result), -EBADMSG.  Who
 * made the change is not in it: the kernel multicasts it with port id 0.
 */
int mlx_ethtool_notify_event(const struct nlmsghdr *h, size_t len, struct mlx_event *ev);

/* ---- devlink health notifications (lib/monitor/devlink-notify.c, pure) - */

/*
 * One DEVLINK_CMD_HEALTH_REPORTER_RECOVER notification (multicast group
 * "config"; sent by devlink_health_report and after a recovery, with the
 * attributes of HEALTH_REPORTER_GET): 1 with *ev filled (reporter error or
 * healthy, counts in err_count/recover_count, the device in pci_address
 * for a "pci" handle), 0 for another devlink command, -EBADMSG.
 */
int mlx_devlink_notify_event(const struct nlmsghdr *h, size_t len, struct mlx_event *ev);

/* ---- automatic incidents: which events make one (lib/monitor/dump-policy.c, pure) */

#define MLX_DUMP_EVENTS_NUM 20      /* WinOF-2 DumpEventsNum: incidents per type */
/* A burst, one incident: events of one type and device, each within this
 * many seconds of the one before. */
#define MLX_DUMP_BURST_SEC 60

enum mlx_dump_verdict {
	MLX_DUMP_NO_TYPE,           /* the kind triggers no dump */
	MLX_DUMP_DISABLED,          /* its type is off (PORT_STATE by default) */
	MLX_DUMP_BURST,             /* same type and device within the window: folded */
	MLX_DUMP_BUDGET,            /* the type made its DumpEventsNum incidents */
	MLX_DUMP_MAKE,              /* make an incident */
};

struct mlx_dump_policy {
	bool enabled[MLX_DUMP_NTYPES];
	unsigned budget;            /* per type; 0 = no incident at all */
	unsigned burst_sec;
	unsigned made[MLX_DUMP_NTYPES];
	unsigned folded[MLX_DUMP_NTYPES];   /* events a burst folded into an incident */
	/* the last event of a burst per type and device (µs), a small ring */
	struct { enum mlx_dump_type type; char dev[16]; uint64_t at; } last[64];
	size_t nlast;
};
/* Table 19's defaults: every type on but PORT_STATE (and ON_OID, which is
 * on request), DumpEventsNum 20, a 60 s burst window. */
void mlx_dump_policy_init(struct mlx_dump_policy *p);
/* "CMD_ERR" (any case) or its tag "c": enable or disable it.  -EINVAL
 * unknown. */
int mlx_dump_policy_set(struct mlx_dump_policy *p, const char *type, bool on);
/* Exactly the types of @list enabled, the others off: names or tags,
 * comma separated ("CMD_ERR,t"), or "none".  -EINVAL (nothing changed)
 * for an unknown one or an empty list.  */
int mlx_dump_policy_set_list(struct mlx_dump_policy *p, const char *list);
/* Decide for @ev at @now_us (µs on one clock: the kernel log's
 * timestamps, else CLOCK_MONOTONIC); MLX_DUMP_MAKE counts it. */
enum mlx_dump_verdict mlx_dump_policy_decide(struct mlx_dump_policy *p, const struct mlx_event *ev,
					     uint64_t now_us);

/* ---- polled counters that only count (lib/monitor/counter-poll.c) -------- */

struct mlx_function;

/* The TOTAL_ERR_* line of an AER counter file (drivers/pci/pcie/aer.c
 * aer_stats_dev_attr: "NAME COUNT" lines, then "TOTAL_ERR_COR N",
 * "TOTAL_ERR_NONFATAL N" or "TOTAL_ERR_FATAL N").  Pure; -ENOENT none. */
int mlx_aer_total_parse(const char *text, size_t len, uint64_t *total);
/* The three AER totals of @fn (correctable, non-fatal, fatal; the order of
 * mlx_evidence_aer_names), UINT64_MAX for one the kernel does not have. */
void mlx_aer_totals(struct mlx_ctx *ctx, const struct mlx_function *fn, uint64_t tot[3]);
/* An aer_counter_moved event of @bdf: @which (0-2) went from @old to @now. */
void mlx_ev_aer_moved(struct mlx_event *ev, const char *bdf, unsigned which, uint64_t old, uint64_t now);

/*
 * A module's lane flags, polled (issue 25): Rx/Tx loss of signal, Tx
 * fault, Rx/Tx CDR loss of lock (lib/module-eeprom.h).  They are latched
 * and cleared by the read, so each poll reads what happened since the
 * last; a flag that turns on is a module_lane_flag event (error), one
 * that turns off module_lane_flag_cleared (info).  The first read of a
 * module (the monitor's start, a module plugged or replaced: another lane
 * count) is the baseline: a flag already raised then is no event.
 */
struct mlx_mod_info;
struct mlx_modflags_prev {
	bool have;                     /* flag[] holds the last read */
	unsigned nlanes;
	int8_t flag[MLX_MOD_MAX_LANES][MLX_MOD_NFLAGS];
};
typedef int (*mlx_modflags_emit)(void *arg, struct mlx_event *ev);
/* Pure: the events of @now (NULL: no module, the next read is a
 * baseline) against @prev, each given to @emit in lane order, @prev
 * updated; the first non-zero return of @emit is returned. */
int mlx_mod_flag_events(struct mlx_modflags_prev *prev, const struct mlx_mod_info *now, const char *bdf,
			const char *ifname, mlx_modflags_emit emit, void *arg);
/* Read @ifname's module (lib/phy.h) and mlx_mod_flag_events on it; a
 * port without a module (or one that does not answer) is no event. */
int mlx_mod_flags_poll(struct mlx_ctx *ctx, const char *bdf, const char *ifname,
		       struct mlx_modflags_prev *prev, mlx_modflags_emit emit, void *arg);

/*
 * The ethtool -S counters of mlx5 that only count events (en_stats.c; what
 * each counts: Documentation/networking/device_drivers/ethernet/mellanox/
 * mlx5/counters.rst): the event kind of @name, MLX_EV_NONE for any other.
 * mlx_counter_event_name gives the @i-th of them, NULL past the last.
 */
enum mlx_ev_kind mlx_counter_event_kind(const char *name);
const char *mlx_counter_event_name(size_t i);
/*
 * One poll of one such counter of @netdev (@bdf): 1 with *ev filled when
 * it grew since the last poll (@prev; @have_prev false on the first poll:
 * the baseline, no event), 0 when it did not, when it went backwards (a
 * reset: driver reload, counters cleared; not an event) or when @name is
 * not an event counter.  Pure.
 */
int mlx_counter_event(const char *name, const char *bdf, const char *netdev, bool have_prev,
		      uint64_t prev, uint64_t now, struct mlx_event *ev);

/* ---- the VF monitor (lib/monitor/vf-thresholds.c, pure) ------------------- */

/*
 * WinOF-2 24.4's "VF used too many resources" monitor, on Linux: the
 * devlink health "vnic" reporter's diagnose counters of each function
 * (drivers/net/ethernet/mellanox/mlx5/core/diag/reporter_vnic.c, object
 * "vNIC env counters"; on a VF's own devlink instance, or a representor's
 * port reporter), compared per poll period with a threshold per counter.
 */
#define MLX_VF_THRESHOLDS_MAX 16
struct mlx_vf_thresholds {
	bool has_default;           /* a bare N: every counter not named */
	uint64_t dflt;
	struct { char name[48]; uint64_t max; } c[MLX_VF_THRESHOLDS_MAX];
	size_t n;
};
/* The reporter's counter names this file knows (their widths), in its
 * order; NULL past the last.  A reporter may give more (newer kernels). */
const char *mlx_vnic_counter_name(size_t i);
/*
 * SPEC: comma-separated items, each NAME=N (that counter's threshold) or
 * a bare N (every counter not named; once).  N is a count per poll
 * period, 0 or more.  NAME is any counter name ([a-z0-9_], as the
 * reporter names them): whether a reporter gives it is checked against
 * what the reporters report, when the monitor reads them first (issue 25
 * item 13: kernels add counters).  0, or -EINVAL with the reason in @err
 * (nothing else changed in *t on failure is promised).
 */
int mlx_vf_thresholds_parse(const char *spec, struct mlx_vf_thresholds *t, char *err, size_t errlen);
/* The threshold of counter @name: true and *max, false when not watched. */
bool mlx_vf_threshold_of(const struct mlx_vf_thresholds *t, const char *name, uint64_t *max);
/*
 * One counter of one vnic reporter (function @bdf; @port_index >= 0 for
 * a devlink port's reporter: a representor's VF) over one period: 1 with
 * *ev a vf_resource_threshold event when it grew by more than its
 * threshold since @prev, else 0 (first poll: @have_prev false; a counter
 * not watched; a reset; 32-bit firmware counters wrap).
 */
int mlx_vf_threshold_check(const struct mlx_vf_thresholds *t, const char *name, const char *bdf,
			   int64_t port_index, bool have_prev, uint64_t prev, uint64_t now,
			   struct mlx_event *ev);

/* ---- the per-event hook (lib/monitor/exec-hook.c) -------------------------- */

/*
 * Find the hook command @name as execvp would (a name with a '/' as is,
 * else in the directories of @search_path, the caller's PATH; NULL:
 * execvp's default "/bin:/usr/bin"): 0 and a malloc'd path in *@path, or
 * -ENOENT / -EACCES.
 */
int mlx_exec_resolve(const char *name, const char *search_path, char **path);

/*
 * Run @path (from mlx_exec_resolve) with @argv and the environment @envp
 * (the caller's; NULL an empty one), never through a shell, with @input
 * on its standard input and /dev/null on its standard output, and wait
 * for it at most @timeout_ms, after which it is killed (SIGKILL).
 * Returns its exit status (0-255), 128 + the signal that ended it, or
 * -errno (-ETIMEDOUT when killed for the timeout, -ENOENT when @path has
 * gone since it was resolved).
 */
int mlx_exec_hook(const char *path, char *const argv[], char *const envp[], const char *input, size_t len,
		  unsigned timeout_ms);

/* ---- recorded streams, split (lib/monitor/stream-split.c, pure) ---------- */

/*
 * The length of the first /dev/kmsg record in @buf[0..@len) (its line and
 * the " KEY=VALUE" lines after it), 0 when it may go on past @len (more
 * bytes are needed; at @eof the rest is the record).
 */
size_t mlx_kmsg_split(const char *buf, size_t len, bool eof);
/* The bytes of the first netlink message in @buf[0..@len) (with its
 * alignment padding), 0 when more are needed, -EBADMSG when it is none. */
ssize_t mlx_nl_split(const void *buf, size_t len, bool eof);

/* ---- the event source (lib/monitor/source.c) ---------------------------- */

/*
 * Everything the monitor listens to, as one object (issue 26): the kernel
 * log, rtnetlink (link and DCB), devlink health and ethtool settings
 * notifications, and the polls.  Live, the kernel's; on a captured system
 * their recordings (<root>/dev/kmsg, <root>/monitor/{rtnl,devlink,
 * ethtool}.nl), replayed through the same decoders, after which the
 * source ends.  Only kernel records are events unless @kmsg_flags has
 * MLX_KMSG_ACCEPT_USER.
 */
struct mlx_evsrc;
struct mlx_devices;

struct mlx_evsrc_opts {
	bool since_boot;            /* the kernel log from the oldest record it holds */
	unsigned kmsg_flags;        /* MLX_KMSG_ACCEPT_USER */
	/* the device model (kept, not copied; NULL none): the function of a
	 * netdev, the netdev of a one-port function; the polls' targets */
	const struct mlx_devices *devs;
	unsigned poll_ms;           /* the polls' period (needs @devs); 0 none */
	const struct mlx_vf_thresholds *vf;     /* the VF monitor (kept), NULL none */
};

enum mlx_evs_stream { MLX_EVST_KMSG, MLX_EVST_RTNL, MLX_EVST_DEVLINK, MLX_EVST_ETHTOOL, MLX_EVST_N };
const char *mlx_evs_stream_name(enum mlx_evs_stream s);

/*
 * Open every stream there is, and with @poll_ms read the polls' baseline.
 * A stream that cannot be opened is left out (mlx_evsrc_stream_status
 * says why); fails (-errno with mlx_errmsg) only when none could be
 * opened for a reason other than there being none (a capture that
 * recorded nothing is an empty source), or when the baseline refuses the
 * VF thresholds (-EINVAL: a name no reporter has).
 */
int mlx_evsrc_open(struct mlx_ctx *ctx, const struct mlx_evsrc_opts *o, struct mlx_evsrc **out);
/* What opening stream @st gave: 0 open, -ENOENT there is none (a capture
 * without that recording, a kernel without that family), -errno; *@why
 * the story ("" when open). */
int mlx_evsrc_stream_status(const struct mlx_evsrc *s, enum mlx_evs_stream st, const char **why);
/* An fd that is readable when mlx_evsrc_next may have something (poll(2)
 * it after next returned 0). */
int mlx_evsrc_fd(const struct mlx_evsrc *s);
/*
 * The next event: 1 with *@ev filled (its time, the device model's
 * function or netdev); 0 none now (wait on the fd); -ENODATA every stream
 * ended (a replay is over); -errno with mlx_errmsg.
 */
int mlx_evsrc_next(struct mlx_evsrc *s, struct mlx_event *ev);
/* Kernel-log records written by user space that were not events. */
uint64_t mlx_evsrc_user_records(const struct mlx_evsrc *s);
/* The kernel's records the source read lately (the last 256 KiB, in the
 * /dev/kmsg format, oldest first), for an incident when the log cannot be
 * read again (a FIFO replayed): *@text malloc'ed; -ENOENT none. */
int mlx_evsrc_kernel_log(const struct mlx_evsrc *s, char **text, size_t *len);
void mlx_evsrc_close(struct mlx_evsrc *s);
/* Fill in what @devs knows of @ev's device: the function of its netdev
 * or RDMA device, the netdev of a one-port function. */
void mlx_ev_resolve(const struct mlx_devices *devs, struct mlx_event *ev);

#endif /* MLX_MONITOR_H */
