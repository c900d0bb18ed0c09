/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the QoS lint (lib/qos/qos-lint.c, lib/qos/qos-lint-rules.c; issue
 * 15) on states built by hand: a RoCE host set up right (the cx5-ofed
 * sample's values) is clean; each rule fires on its mutation with its
 * evidence and the exact fix command; the state the fix describes, built
 * here by hand, is clean again.  Rules that cannot run say so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "qos-lint.h"

static struct mlx_lint_report rep;

/* trust dscp with the default map, PFC on 3 (RoCE) and 6 (CNPs), mlx5's
 * default priority->TC map, ETS 20/10/10/50/5/5 with TCs 6-7 strict,
 * buffers 0 and 1 of 130944 bytes with 3 and 6 on buffer 1, DCQCN on
 * priority 3 (RP and NP), CNPs DSCP 48 priority 6, rdma_cm's RoCE ToS 106
 * (DSCP 26). */
static void roce_host(struct mlx_qos_state *st)
{
	static const uint8_t bw[8] = { 20, 10, 10, 50, 5, 5, 0, 0 };

	mlx_qos_state_init(st, "eth0");
	st->has_pfc = st->has_ets = st->has_maxrate = st->has_buffer = true;
	st->trust_dscp = true;
	for (int d = 0; d < 64; d++)
		st->dscp2prio[d] = (int8_t)(d >> 3);
	st->pfc_en = 1u << 3 | 1u << 6;
	st->pfc_cap = 8;
	st->ets_cap = 8;
	for (int i = 0; i < 8; i++) {
		st->prio_tc[i] = (uint8_t)(i == 0 ? 1 : i == 1 ? 0 : i);
		st->tc_tsa[i] = i < 6 ? IEEE_8021QAZ_TSA_ETS : IEEE_8021QAZ_TSA_STRICT;
		st->tc_bw[i] = bw[i];
		st->rp_en[i] = st->np_en[i] = i == 3;
	}
	st->prio2buffer[3] = st->prio2buffer[6] = 1;
	st->buffer_size[0] = st->buffer_size[1] = 130944;
	st->buffer_total = 262016;
	st->cnp_dscp = 48;
	st->cnp_prio = 6;
	st->cnp_prio_mode = 0;
	st->speed_mbps = 100000;
	st->pause_rx = st->pause_tx = 0;   /* PFC, not global pause */
	st->roce_cm_tos = 106;
}

static const struct mlx_lint_finding *get(const char *id)
{
	for (size_t i = 0; i < rep.n; i++)
		if (!strcmp(rep.f[i].id, id))
			return &rep.f[i];
	return NULL;
}

/* The not-evaluated finding of rule @id. */
static const struct mlx_lint_finding *skipped(const char *id)
{
	for (size_t i = 0; i < rep.n; i++)
		if (!strcmp(rep.f[i].id, MLX_LINT_NOT_EVALUATED) && !strcmp(rep.f[i].ev[0].s, id))
			return &rep.f[i];
	return NULL;
}

static const struct mlx_lint_ev *evid(const struct mlx_lint_finding *f, const char *key)
{
	for (size_t i = 0; i < f->nev; i++)
		if (!strcmp(f->ev[i].key, key))
			return &f->ev[i];
	fail_msg("no evidence '%s' in %s", key, f->id);
	return NULL;
}

/* Lint @st: finding @id with severity @sev, fix @fix, raising nothing. */
static const struct mlx_lint_finding *expect(const struct mlx_qos_state *st, const char *id,
					     enum mlx_lint_sev sev, const char *fix)
{
	const struct mlx_lint_finding *f;

	assert_int_equal(mlx_qos_lint(st, &rep), 0);
	f = get(id);
	if (!f)
		fail_msg("no finding %s (%zu findings, first %s)", id, rep.n, rep.n ? rep.f[0].id : "-");
	assert_int_equal(f->sev, sev);
	assert_string_equal(f->fix, fix);
	assert_int_equal(f->nadds, 0);
	return f;
}

/* @st is clean: no finding at all, every rule evaluated. */
static void clean(const struct mlx_qos_state *st)
{
	size_t n;

	assert_int_equal(mlx_qos_lint(st, &rep), 0);
	if (rep.n)
		fail_msg("not clean: %s: %s", rep.f[0].id, rep.f[0].msg);
	mlx_qos_lint_rules(&n);
	for (size_t i = 0; i < n; i++)
		assert_true(rep.evaluated[i]);
}

static void test_table(void **state)
{
	size_t n;
	const struct mlx_lint_rule *r = mlx_qos_lint_rules(&n);

	(void)state;
	assert_true(n >= 13);
	for (size_t i = 0; i < n; i++) {
		assert_non_null(r[i].eval);
		assert_true(strlen(r[i].checks) > 10 && strlen(r[i].fix) > 10);
		assert_int_equal(strspn(r[i].id, "abcdefghijklmnopqrstuvwxyz0123456789-"), strlen(r[i].id));
		assert_true(r[i].id[0] != '-' && !strstr(r[i].id, "--"));
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(r[i].id, r[j].id);
		assert_string_not_equal(r[i].id, MLX_LINT_NOT_EVALUATED);
	}
}

static void test_clean_host(void **state)
{
	struct mlx_qos_state st;

	(void)state;
	roce_host(&st);
	clean(&st);
	assert_int_equal(rep.roce_prio, 3);
	assert_string_equal(rep.roce_source, "dcqcn");
	/* DCQCN on every priority (the firmware default): PFC tells */
	for (int p = 0; p < 8; p++)
		st.rp_en[p] = st.np_en[p] = 1;
	clean(&st);
	assert_int_equal(rep.roce_prio, 3);
	assert_string_equal(rep.roce_source, "pfc");
}

static void test_pfc_off_roce(void **state)
{
	struct mlx_qos_state st;
	const struct mlx_lint_finding *f;

	(void)state;
	roce_host(&st);
	st.pfc_en = 1u << 6;
	f = expect(&st, "pfc-off-roce-prio", MLX_LINT_ERROR, "mlxcli qosconfig pfc -d eth0 3,6");
	assert_int_equal(f->subject, 3);
	assert_int_equal(evid(f, "priority")->v, 3);
	assert_int_equal(evid(f, "pfc_enabled")->v, 1u << 6);
	assert_string_equal(evid(f, "roce_priority_source")->s, "dcqcn");
	/* priority 3, lossy now, shares buffer 1 with 6: the same PFC fix */
	assert_string_equal(get("lossless-shared-buffer")->fix, "mlxcli qosconfig pfc -d eth0 3,6");
	st.pfc_en |= 1u << 3;
	clean(&st);
}

static void test_dcqcn_off_roce(void **state)
{
	struct mlx_qos_state st;
	const struct mlx_lint_finding *f;

	(void)state;
	roce_host(&st);
	st.rp_en[3] = st.np_en[3] = 0;
	f = expect(&st, "dcqcn-off-roce-prio", MLX_LINT_WARNING, "mlxcli qosconfig dcqcn enable -d eth0 3");
	assert_string_equal(rep.roce_source, "pfc");
	assert_int_equal(evid(f, "rp_enabled")->type, MLX_EV_BOOL);
	assert_int_equal(evid(f, "rp_enabled")->v, 0);
	st.rp_en[3] = 1;
	f = expect(&st, "dcqcn-off-roce-prio", MLX_LINT_WARNING,
		   "mlxcli qosconfig dcqcn enable -d eth0 3 --np");
	assert_int_equal(evid(f, "rp_enabled")->v, 1);
	assert_int_equal(evid(f, "np_enabled")->v, 0);
	st.np_en[3] = 1;
	clean(&st);
}

/* Upstream: the per-priority enable is not exposed: never "off", never "on". */
static void test_dcqcn_unknown(void **state)
{
	struct mlx_qos_state st;
	const struct mlx_lint_finding *f;
	size_t n;
	const struct mlx_lint_rule *r = mlx_qos_lint_rules(&n);

	(void)state;
	roce_host(&st);
	for (int p = 0; p < 8; p++)
		st.rp_en[p] = st.np_en[p] = -1;
	assert_int_equal(mlx_qos_lint(&st, &rep), 0);
	assert_int_equal(rep.roce_prio, 3);
	assert_string_equal(rep.roce_source, "pfc");
	assert_null(get("dcqcn-off-roce-prio"));
	f = skipped("dcqcn-off-roce-prio");
	assert_non_null(f);
	assert_int_equal(f->sev, MLX_LINT_INFO);
	assert_non_null(strstr(evid(f, "reason")->s, "does not expose"));
	assert_non_null(strstr(evid(skipped("pfc-no-dcqcn"), "reason")->s, "does not expose"));
	assert_int_equal(rep.n, 2);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(rep.evaluated[i], strcmp(r[i].id, "dcqcn-off-roce-prio") != 0 &&
				 strcmp(r[i].id, "pfc-no-dcqcn") != 0);
	assert_int_equal(rep.count[MLX_LINT_WARNING] + rep.count[MLX_LINT_ERROR], 0);
}

/* Upstream, PFC off everywhere: the RoCE rules say why they did not run,
 * and the lossy CNP priority is found. */
static void test_roce_unknown(void **state)
{
	static const char *const roce_rules[] = {
		"pfc-off-roce-prio", "dcqcn-off-roce-prio", "dscp-map-no-roce-prio",
		"trust-pcp-dscp-setup", "roce-tc-zero-bw", "roce-tc-rate-limit",
	};
	struct mlx_qos_state st;
	const struct mlx_lint_finding *f;

	(void)state;
	roce_host(&st);
	for (int p = 0; p < 8; p++)
		st.rp_en[p] = st.np_en[p] = -1;
	st.pfc_en = 0;
	st.trust_dscp = false;
	memset(st.dscp2prio, 0xff, sizeof(st.dscp2prio));
	assert_int_equal(mlx_qos_lint(&st, &rep), 0);
	assert_int_equal(rep.roce_prio, -1);
	assert_null(rep.roce_source);
	for (size_t i = 0; i < sizeof(roce_rules) / sizeof(roce_rules[0]); i++) {
		f = skipped(roce_rules[i]);
		assert_non_null(f);
		assert_non_null(strstr(f->msg, "--roce-prio"));
	}
	f = get("cnp-prio-lossy");
	assert_non_null(f);
	assert_int_equal(rep.count[MLX_LINT_WARNING], 1);
	assert_int_equal(rep.count[MLX_LINT_INFO], 7);     /* and pfc-no-dcqcn's */
}

static void test_roce_prio_option(void **state)
{
	struct mlx_qos_state st;
	const struct mlx_lint_finding *f;

	(void)state;
	roce_host(&st);
	st.roce_prio = 5;
	assert_int_equal(mlx_qos_lint(&st, &rep), 0);
	assert_int_equal(rep.roce_prio, 5);
	assert_string_equal(rep.roce_source, "option");
	f = get("dcqcn-off-roce-prio");
	assert_non_null(f);
	assert_int_equal(evid(f, "rp_enabled")->v, 0);
	assert_non_null(get("pfc-off-roce-prio"));
	for (size_t i = 0; i < rep.n; i++)
		assert_null(strstr(rep.f[i].msg, "DCQCN is enabled"));
}

static void test_dscp_map_no_roce(void **state)
{
	struct mlx_qos_state st;

	(void)state;
	roce_host(&st);
	for (int d = 24; d < 32; d++)
		st.dscp2prio[d] = 2;
	expect(&st, "dscp-map-no-roce-prio", MLX_LINT_ERROR, "mlxcli qosconfig dscp2prio -d eth0 set 26 3");
	st.dscp2prio[26] = 3;
	clean(&st);
}

static void test_trust_pcp(void **state)
{
	struct mlx_qos_state st;
	const struct mlx_lint_finding *f;

	(void)state;
	roce_host(&st);
	st.trust_dscp = false;
	memset(st.dscp2prio, 0xff, sizeof(st.dscp2prio));
	st.vlan = 0;
	f = expect(&st, "trust-pcp-dscp-setup", MLX_LINT_WARNING, "mlxcli qosconfig trust -d eth0 dscp");
	assert_int_equal(rep.n, 1);     /* the CNP DSCP does not matter with trust pcp */
	assert_int_equal(evid(f, "vlan_device")->type, MLX_EV_BOOL);
	/* RoCE over a VLAN carries a PCP: trust pcp is a set-up of its own */
	st.vlan = 1;
	clean(&st);
	roce_host(&st);
	clean(&st);
}

static void test_cnp_lossy(void **state)
{
	struct mlx_qos_state st;
	const struct mlx_lint_finding *f;

	(void)state;
	roce_host(&st);
	st.pfc_en = 1u << 3;
	f = expect(&st, "cnp-prio-lossy", MLX_LINT_WARNING, "mlxcli qosconfig pfc -d eth0 3,6");
	assert_int_equal(evid(f, "cnp_802p_prio")->v, 6);
	/* CNPs that reflect the request's priority travel with RoCE */
	st.cnp_prio_mode = 1;
	assert_int_equal(mlx_qos_lint(&st, &rep), 0);
	assert_null(get("cnp-prio-lossy"));
	/* 6 cannot become lossless cleanly (it shares buffer 0 with lossy
	 * priorities): the fix moves the CNPs to the lossless priority */
	roce_host(&st);
	st.pfc_en = 1u << 3;
	st.prio2buffer[6] = 0;
	expect(&st, "cnp-prio-lossy", MLX_LINT_WARNING,
	       "mlxcli qosconfig dcqcn set -d eth0 DcqcnCnpDscp 24 DcqcnCnp802pPrio 3");
}

/* `dcqcn restore` with the manual's example: CNP DSCP 0, priority 7. */
static void test_cnp_mismatch(void **state)
{
	struct mlx_qos_state st;
	const struct mlx_lint_finding *f;

	(void)state;
	roce_host(&st);
	st.cnp_dscp = 0;
	st.cnp_prio = 7;
	f = expect(&st, "cnp-dscp-prio-mismatch", MLX_LINT_WARNING,
		   "mlxcli qosconfig dcqcn set -d eth0 DcqcnCnpDscp 48 DcqcnCnp802pPrio 6");
	assert_int_equal(evid(f, "cnp_dscp_priority")->v, 0);
	/* the lossy CNP priority gets the same DCQCN fix, not PFC on 7 */
	assert_string_equal(get("cnp-prio-lossy")->fix,
			    "mlxcli qosconfig dcqcn set -d eth0 DcqcnCnpDscp 48 DcqcnCnp802pPrio 6");
	for (size_t i = 0; i < rep.n; i++)
		assert_null(strstr(rep.f[i].fix, "dscp2prio"));
	st.cnp_dscp = 48;
	st.cnp_prio = 6;
	clean(&st);
	/* the map moved: the CNP DSCP follows the priority */
	st.dscp2prio[48] = 5;
	expect(&st, "cnp-dscp-prio-mismatch", MLX_LINT_WARNING,
	       "mlxcli qosconfig dcqcn set -d eth0 DcqcnCnpDscp 49");
	st.cnp_dscp = 49;
	clean(&st);
	/* a DSCP without an entry is received on priority 0 */
	roce_host(&st);
	st.dscp2prio[48] = -1;
	f = expect(&st, "cnp-dscp-prio-mismatch", MLX_LINT_WARNING,
		   "mlxcli qosconfig dcqcn set -d eth0 DcqcnCnpDscp 49");
	assert_int_equal(evid(f, "cnp_dscp_priority")->v, 0);
}

static void test_zero_buffer(void **state)
{
	struct mlx_qos_state st;
	const struct mlx_lint_finding *f;

	(void)state;
	roce_host(&st);
	st.buffer_size[1] = 0;
	f = expect(&st, "lossless-zero-buffer", MLX_LINT_ERROR, "mlxcli qosconfig buffer -d eth0 size 1:131072");
	assert_int_equal(evid(f, "lossless_priorities")->v, 1u << 3 | 1u << 6);
	st.buffer_size[1] = 131072;
	clean(&st);
	/* no free space: half of the lossy buffer, in 128-byte cells */
	roce_host(&st);
	st.buffer_size[0] = 262016;
	st.buffer_size[1] = 0;
	expect(&st, "lossless-zero-buffer", MLX_LINT_ERROR,
	       "mlxcli qosconfig buffer -d eth0 size 0:131072 1:130944");
	st.buffer_size[0] = 131072;
	st.buffer_size[1] = 130944;
	clean(&st);
}

static void test_shared_buffer(void **state)
{
	struct mlx_qos_state st;
	const struct mlx_lint_finding *f;

	(void)state;
	roce_host(&st);
	st.prio2buffer[0] = 1;
	f = expect(&st, "lossless-shared-buffer", MLX_LINT_WARNING,
		   "mlxcli qosconfig buffer -d eth0 prio-buffer 0:0");
	assert_int_equal(evid(f, "lossy_priorities")->v, 1);
	st.prio2buffer[0] = 0;
	clean(&st);
	/* one buffer for everything (mlx5's default): an empty one, sized */
	roce_host(&st);
	st.prio2buffer[3] = st.prio2buffer[6] = 0;
	st.buffer_size[0] = 262016;
	st.buffer_size[1] = 0;
	expect(&st, "lossless-shared-buffer", MLX_LINT_WARNING,
	       "mlxcli qosconfig buffer -d eth0 prio-buffer 3:1 6:1 size 0:131072 1:130944");
	st.prio2buffer[3] = st.prio2buffer[6] = 1;
	st.buffer_size[0] = 131072;
	st.buffer_size[1] = 130944;
	clean(&st);
}

static void test_shared_tc(void **state)
{
	struct mlx_qos_state st;

	(void)state;
	roce_host(&st);
	st.prio_tc[0] = 3;
	/* back to TC 1, unused with a share, which also ends that waste */
	expect(&st, "lossless-shared-tc", MLX_LINT_WARNING, "mlxcli qosconfig ets -d eth0 prio-tc 0:1");
	assert_non_null(get("ets-bw-unused-tc"));
	st.prio_tc[0] = 1;
	clean(&st);
}

static void test_roce_tc_bw(void **state)
{
	struct mlx_qos_state st;

	(void)state;
	roce_host(&st);
	st.tc_bw[3] = 0;
	st.tc_bw[0] = 70;
	expect(&st, "roce-tc-zero-bw", MLX_LINT_ERROR, "mlxcli qosconfig ets -d eth0 bw 0:35 3:35");
	st.tc_bw[0] = st.tc_bw[3] = 35;
	clean(&st);
}

static void test_roce_tc_rate(void **state)
{
	struct mlx_qos_state st;
	const struct mlx_lint_finding *f;

	(void)state;
	roce_host(&st);
	st.tc_maxrate_kbps[3] = 10000000;
	f = expect(&st, "roce-tc-rate-limit", MLX_LINT_WARNING, "mlxcli qosconfig tc-bw -d eth0 3 0");
	assert_int_equal(evid(f, "max_rate_mbps")->v, 10000);
	/* at the link speed it starves nothing */
	st.speed_mbps = 10000;
	clean(&st);
}

static void test_pfc_prio0(void **state)
{
	struct mlx_qos_state st;

	(void)state;
	roce_host(&st);
	st.pfc_en |= 1;
	expect(&st, "pfc-prio0", MLX_LINT_WARNING, "mlxcli qosconfig pfc -d eth0 3,6");
	st.pfc_en &= 0xfe;
	clean(&st);
}

static void test_unused_tc(void **state)
{
	struct mlx_qos_state st;

	(void)state;
	roce_host(&st);
	st.prio_tc[2] = 0;
	expect(&st, "ets-bw-unused-tc", MLX_LINT_INFO, "mlxcli qosconfig ets -d eth0 bw 2:0 3:60");
	assert_int_equal(rep.count[MLX_LINT_WARNING] + rep.count[MLX_LINT_ERROR], 0);
	st.tc_bw[2] = 0;
	st.tc_bw[3] = 60;
	clean(&st);
}

/* RoCE's own DSCP on a lossy priority (issue 25 item 7): after `dscp2prio
 * set 26 0` every RoCE v2 packet of rdma_cm (ToS 106) lands on lossy 0,
 * while other DSCPs still reach priority 3, so dscp-map-no-roce-prio is
 * silent. */
static void test_roce_dscp_lossy(void **state)
{
	struct mlx_qos_state st;
	const struct mlx_lint_finding *f;

	(void)state;
	roce_host(&st);
	st.dscp2prio[26] = 0;
	f = expect(&st, "roce-dscp-lossy", MLX_LINT_ERROR, "mlxcli qosconfig dscp2prio -d eth0 set 26 3");
	assert_null(get("dscp-map-no-roce-prio"));
	assert_int_equal(f->subject, 0);
	assert_int_equal(evid(f, "dscp")->v, 26);
	assert_string_equal(evid(f, "dscp_source")->s, "default_roce_tos");
	assert_int_equal(evid(f, "priority")->v, 0);
	assert_int_equal(evid(f, "pfc_enabled")->v, 1u << 3 | 1u << 6);
	assert_non_null(strstr(f->msg, "DSCP 26"));
	st.dscp2prio[26] = 3;
	clean(&st);
	/* MLNX_OFED's traffic_class wins over rdma_cm's ToS */
	st.roce_tclass = 160;               /* DSCP 40, priority 5: lossy */
	f = expect(&st, "roce-dscp-lossy", MLX_LINT_ERROR, "mlxcli qosconfig dscp2prio -d eth0 set 40 3");
	assert_string_equal(evid(f, "dscp_source")->s, "traffic_class");
	assert_int_equal(evid(f, "priority")->v, 5);
	st.roce_tclass = 106;
	clean(&st);
	/* a DSCP without an entry goes to priority 0 */
	st.dscp2prio[26] = -1;
	f = expect(&st, "roce-dscp-lossy", MLX_LINT_ERROR, "mlxcli qosconfig dscp2prio -d eth0 set 26 3");
	assert_non_null(strstr(f->msg, "no entry"));
	/* trust pcp: the DSCP does not choose the priority (trust-pcp's) */
	st.trust_dscp = false;
	assert_int_equal(mlx_qos_lint(&st, &rep), 0);
	assert_null(get("roce-dscp-lossy"));
	assert_null(skipped("roce-dscp-lossy"));
	/* no ToS set on the host (0 is the kernel's default): not evaluated */
	roce_host(&st);
	st.roce_cm_tos = 0;
	assert_int_equal(mlx_qos_lint(&st, &rep), 0);
	assert_non_null(strstr(evid(skipped("roce-dscp-lossy"), "reason")->s, "no RoCE DSCP"));
	assert_int_equal(rep.n, 1);
}

/* PFC without DCQCN (issue 25 item 8): `pfc 3,4,6` with DCQCN only on 3 */
static void test_pfc_no_dcqcn(void **state)
{
	struct mlx_qos_state st;
	const struct mlx_lint_finding *f;

	(void)state;
	roce_host(&st);
	st.pfc_en |= 1u << 4;
	st.prio2buffer[4] = 1;              /* no buffer finding besides */
	f = expect(&st, "pfc-no-dcqcn", MLX_LINT_WARNING, "mlxcli qosconfig dcqcn enable -d eth0 4");
	assert_int_equal(f->subject, 4);
	assert_int_equal(evid(f, "priority")->v, 4);
	assert_int_equal(evid(f, "rp_enabled")->v, 0);
	assert_int_equal(evid(f, "np_enabled")->v, 0);
	assert_int_equal(rep.roce_prio, 3);
	assert_int_equal(rep.n, 1);
	/* the fix: DCQCN on 4 too; the RoCE priority stays known (its DSCP) */
	st.rp_en[4] = st.np_en[4] = 1;
	clean(&st);
	assert_int_equal(rep.roce_prio, 3);
	assert_string_equal(rep.roce_source, "roce-dscp");
	/* the NP side alone off: its enable alone */
	st.np_en[4] = 0;
	f = expect(&st, "pfc-no-dcqcn", MLX_LINT_WARNING,
		   "mlxcli qosconfig dcqcn enable -d eth0 4 --np");
	assert_non_null(strstr(f->msg, "NP"));
	/* the CNPs' priority and the RoCE priority are other rules' */
	roce_host(&st);
	st.rp_en[6] = st.np_en[6] = 0;
	clean(&st);
	st.cnp_prio_mode = 1;               /* CNPs follow the data: 6 carries none */
	clean(&st);
	/* the buffer's fix first then this one: the sequence */
	roce_host(&st);
	st.pfc_en |= 1u << 4;
	assert_int_equal(mlx_qos_lint(&st, &rep), 0);
	assert_non_null(get("pfc-no-dcqcn"));
	assert_non_null(get("lossless-shared-buffer"));
}

/* Two PFC fixes of one report do not undo each other. */
static void test_pfc_fixes_add_up(void **state)
{
	struct mlx_qos_state st;

	(void)state;
	roce_host(&st);
	st.pfc_en = 0;
	assert_int_equal(mlx_qos_lint(&st, &rep), 0);
	assert_string_equal(get("pfc-off-roce-prio")->fix, "mlxcli qosconfig pfc -d eth0 3,6");
	assert_string_equal(get("cnp-prio-lossy")->fix, "mlxcli qosconfig pfc -d eth0 3,6");
}

/* No DCB and no DCQCN at all: nothing passes silently. */
/* Global pause and PFC both on (issue 27): the fix turns pause off (link
 * set), else PFC off; pause on a port without PFC is no finding; a port
 * that does not report pause: not evaluated. */
static void test_pfc_global_pause(void **state)
{
	struct mlx_qos_state st;
	const struct mlx_lint_finding *f;

	(void)state;
	roce_host(&st);
	st.pause_rx = 1;
	f = expect(&st, "pfc-global-pause", MLX_LINT_WARNING,
		   "mlxcli link set -d eth0 pause rx off tx off");
	assert_true(evid(f, "pause_rx")->v == 1 && evid(f, "pause_rx")->type == MLX_EV_BOOL);
	assert_int_equal(evid(f, "pfc_enabled")->v, st.pfc_en);
	assert_non_null(strstr(f->msg, "global pause (rx) and PFC (priorities 3,6)"));
	st.pause_tx = 1;
	f = expect(&st, "pfc-global-pause", MLX_LINT_WARNING,
		   "mlxcli link set -d eth0 pause rx off tx off");
	assert_non_null(strstr(f->msg, "(rx, tx)"));
	st.pause_rx = st.pause_tx = 0;
	clean(&st);
	/* pause without PFC: the other rules' business (RoCE's priority then
	 * lossy), not this one's */
	st.pause_rx = st.pause_tx = 1;
	st.pfc_en = 0;
	assert_int_equal(mlx_qos_lint(&st, &rep), 0);
	assert_null(get("pfc-global-pause"));
	roce_host(&st);
	st.pause_rx = st.pause_tx = -1;
	assert_int_equal(mlx_qos_lint(&st, &rep), 0);
	assert_non_null(skipped("pfc-global-pause"));
}

static void test_nothing_known(void **state)
{
	struct mlx_qos_state st;
	size_t n;

	(void)state;
	mlx_qos_state_init(&st, "eth0");
	assert_int_equal(mlx_qos_lint(&st, &rep), 0);
	mlx_qos_lint_rules(&n);
	assert_int_equal(rep.n, n);
	for (size_t i = 0; i < n; i++) {
		assert_false(rep.evaluated[i]);
		assert_string_equal(rep.f[i].id, MLX_LINT_NOT_EVALUATED);
	}
}

static void test_from_dcb(void **state)
{
	struct mlx_dcb_state *d = calloc(1, sizeof(*d));
	struct mlx_qos_state st;

	(void)state;
	assert_non_null(d);
	d->has_ets = d->has_pfc = true;
	d->ets.tc_tsa[0] = IEEE_8021QAZ_TSA_ETS;
	d->ets.tc_tx_bw[0] = 100;
	d->ets.tc_tsa[1] = IEEE_8021QAZ_TSA_STRICT;
	d->ets.tc_tx_bw[1] = 100;               /* mlx5 reports 100 for strict TCs */
	d->pfc.pfc_en = 0x48;
	d->napp = 1;
	d->app[0].selector = IEEE_8021QAZ_APP_SEL_DSCP;
	d->app[0].protocol = 26;
	d->app[0].priority = 3;
	mlx_qos_state_init(&st, "eth0");
	mlx_qos_state_from_dcb(&st, d);
	assert_true(st.trust_dscp);
	assert_int_equal(st.dscp2prio[26], 3);
	assert_int_equal(st.dscp2prio[27], -1);
	assert_int_equal(st.tc_bw[0], 100);
	assert_int_equal(st.tc_bw[1], 0);
	assert_int_equal(st.pfc_en, 0x48);
	assert_false(st.has_buffer);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_clean_host),
		cmocka_unit_test(test_pfc_off_roce),
		cmocka_unit_test(test_dcqcn_off_roce),
		cmocka_unit_test(test_dcqcn_unknown),
		cmocka_unit_test(test_roce_unknown),
		cmocka_unit_test(test_roce_prio_option),
		cmocka_unit_test(test_dscp_map_no_roce),
		cmocka_unit_test(test_trust_pcp),
		cmocka_unit_test(test_cnp_lossy),
		cmocka_unit_test(test_cnp_mismatch),
		cmocka_unit_test(test_zero_buffer),
		cmocka_unit_test(test_shared_buffer),
		cmocka_unit_test(test_shared_tc),
		cmocka_unit_test(test_roce_tc_bw),
		cmocka_unit_test(test_roce_tc_rate),
		cmocka_unit_test(test_pfc_prio0),
		cmocka_unit_test(test_unused_tc),
		cmocka_unit_test(test_pfc_fixes_add_up),
		cmocka_unit_test(test_roce_dscp_lossy),
		cmocka_unit_test(test_pfc_no_dcqcn),
		cmocka_unit_test(test_pfc_global_pause),
		cmocka_unit_test(test_nothing_known),
		cmocka_unit_test(test_from_dcb),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
