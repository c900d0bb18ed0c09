/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The QoS lint behind `show qos --check` (issue 15): a table of rules over
 * one port's QoS state as read from the device, each rule with a stable id,
 * a severity, the evidence it read and ONE fix: an mlxcli command line that,
 * applied to the current state, removes that finding and raises no other.
 *
 * Pure: the caller fills struct mlx_qos_state (cmd/qos-check.c reads DCB
 * netlink and the DCQCN files), mlx_qos_lint() returns the findings.  A fix
 * is chosen by applying each candidate to a copy of the state and running
 * the rules again: the first candidate after which the finding is gone and
 * no other appeared wins.  When no candidate is clean, the best one is
 * given with the ids it would raise (fix_adds), never a silent conflict.
 *
 * A rule that cannot run (the RoCE priority unknown, the kernel does not
 * expose the DCQCN enable, the driver has no buffer op) adds a finding of
 * its own, id "not-evaluated", severity info, naming the rule and why.
 */
#ifndef MLX_QOS_LINT_H
#define MLX_QOS_LINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dcb.h"

/* One port's QoS state.  -1 in a signed field: unknown. */
struct mlx_qos_state {
	char ifname[16];
	bool has_pfc, has_ets, has_maxrate, has_buffer;
	/* mlx5 trusts DSCP iff the APP table has a DSCP entry; a DSCP
	 * without an entry then goes to priority 0 */
	bool trust_dscp;
	int8_t dscp2prio[MLX_DCB_NDSCP];        /* -1: no entry */
	uint8_t pfc_en, pfc_cap;
	uint8_t ets_cap;                        /* traffic classes, 1..8 */
	uint8_t prio_tc[MLX_DCB_NPRIO];
	uint8_t tc_tsa[MLX_DCB_NTC];            /* IEEE_8021QAZ_TSA_* */
	uint8_t tc_bw[MLX_DCB_NTC];             /* %, 0 for non-ETS TCs */
	uint64_t tc_maxrate_kbps[MLX_DCB_NTC];  /* 0 = unlimited */
	uint8_t prio2buffer[MLX_DCB_NPRIO];
	uint32_t buffer_size[MLX_DCB_NPRIO];
	uint32_t buffer_total;                  /* 0: unknown */
	/* DCQCN per priority, reaction point (sender) and notification
	 * point (receiver): 1 on, 0 off, -1 the layout does not say */
	int8_t rp_en[MLX_DCB_NPRIO], np_en[MLX_DCB_NPRIO];
	int cnp_dscp, cnp_prio;                 /* CNPs' DSCP and 802.1p priority */
	int cnp_prio_mode;                      /* 1: CNPs reflect the request's PCP */
	int64_t speed_mbps;
	/* a VLAN device on the port (its traffic carries a PCP): 1 yes, 0 no,
	 * -1 unknown */
	int vlan;
	int roce_prio;                          /* given (--roce-prio), else -1: inferred */
	/* The ToS RoCE v2 packets leave with (DSCP = ToS >> 2), where the host
	 * sets one: rdma_cm's default_roce_tos of the port's RDMA device
	 * (configfs; -1 without the group, and 0, the kernel's default, is
	 * "not set"), MLNX_OFED's global traffic_class (-1 unset, upstream) */
	int roce_cm_tos, roce_tclass;
	/* The port's global (802.3x) pause, ethtool -a: 1 on, 0 off, -1
	 * unknown (pfc-global-pause) */
	int pause_rx, pause_tx;
};

/* Everything unknown (has_* false, -1 fields), no DSCP entry. */
void mlx_qos_state_init(struct mlx_qos_state *st, const char *ifname);
/* The DCB part from what mlx_dcb_get() returned. */
void mlx_qos_state_from_dcb(struct mlx_qos_state *st, const struct mlx_dcb_state *dcb);

enum mlx_lint_sev { MLX_LINT_INFO, MLX_LINT_WARNING, MLX_LINT_ERROR };
const char *mlx_lint_sev_name(enum mlx_lint_sev s);

struct mlx_lint_ctx;

struct mlx_lint_rule {
	const char *id;           /* stable, kebab-case: an interface */
	enum mlx_lint_sev sev;
	const char *checks;       /* what it checks (mlxcli-qos(8)) */
	const char *fix;          /* the fix it proposes (mlxcli-qos(8)) */
	void (*eval)(struct mlx_lint_ctx *c);
};

/* The rule table; *n its length. */
const struct mlx_lint_rule *mlx_qos_lint_rules(size_t *n);

#define MLX_LINT_NOT_EVALUATED "not-evaluated"

enum mlx_lint_ev_type { MLX_EV_INT, MLX_EV_PRIOS, MLX_EV_STR, MLX_EV_BOOL, MLX_EV_NULL };

/* One piece of evidence: a JSON member of the finding's "evidence". */
struct mlx_lint_ev {
	const char *key;
	enum mlx_lint_ev_type type;
	int64_t v;                /* INT, BOOL; PRIOS: a bit mask of priorities */
	char s[320];              /* STR */
};

#define MLX_LINT_MAXEV 6
#define MLX_LINT_MAXADDS 4

struct mlx_lint_finding {
	const char *id;           /* a rule's id, or MLX_LINT_NOT_EVALUATED */
	enum mlx_lint_sev sev;
	int subject;              /* the priority, TC or buffer it is about; -1 */
	char msg[400];
	struct mlx_lint_ev ev[MLX_LINT_MAXEV];
	size_t nev;
	char fix[240];            /* "mlxcli qosconfig ..."; "" when there is none */
	const char *fix_adds[MLX_LINT_MAXADDS];  /* ids the fix would raise */
	size_t nadds;
};

#define MLX_LINT_MAXFIND 40
#define MLX_LINT_MAXRULES 24

struct mlx_lint_report {
	int roce_prio;            /* -1 unknown */
	/* "option", "dcqcn", "pfc", "roce-dscp"; NULL when unknown */
	const char *roce_source;
	char roce_why[240];       /* how it was found, or why not */
	bool evaluated[MLX_LINT_MAXRULES];     /* by index in the rule table */
	struct mlx_lint_finding f[MLX_LINT_MAXFIND];
	size_t n;
	unsigned count[3];        /* by severity */
};

/* Run every rule on @st.  0, or -ENOMEM. */
int mlx_qos_lint(const struct mlx_qos_state *st, struct mlx_lint_report *r);

/* "3,6" (or "none") from a bitmap of priorities: the one spelling the lint's
 * messages and show qos's text use. */
void mlx_prio_list(unsigned mask, char *buf, size_t len);

#endif /* MLX_QOS_LINT_H */
