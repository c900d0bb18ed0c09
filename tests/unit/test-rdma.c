/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the RDMA decoders and rules (lib/decode/decode-rdma.c,
 * lib/rdma/gid.c): replies laid out byte by byte here with the uapi
 * numbers (include/uapi/rdma/rdma_netlink.h) in the order nldev.c fills
 * them, with the facts of real captures where there are some
 * (FIX rdma/mlx5-ofed-iproute2-rdma-resource-show-qp-cq-4-devices.txt: the
 * CQs of ib_core and mlx5_ib; rdma/mlx5-ib-rdma-resource-show-qp-dd-umr-2024
 * .txt: the summary "pd 3 cq 4 qp 3 cm_id 0 mr 0 ctx 0 srq 2" and a
 * REG_UMR driver QP; rdma/mlx5-ofed4.9-show_gids-...: the IPv4-mapped GID
 * 0000:...:ffff:0a10:f239 is 10.16.242.57), and every truncation and
 * garbage case a hostile or broken reply can bring.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <rdma/rdma_netlink.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "nl-writer.h"
#include "rdma.h"

#define T(cmd) ((uint16_t)((RDMA_NL_NLDEV << 10) + (cmd)))

static void msg(struct w *w, uint16_t type)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_flags = NLM_F_MULTI, .nlmsg_seq = 3,
			      .nlmsg_pid = 4242 };

	memset(w->b, 0, sizeof(w->b));
	memcpy(w->b, &h, sizeof(h));
	w->n = 16;
}

static const struct nlmsghdr *done(struct w *w)
{
	uint32_t l = (uint32_t)w->n;

	memcpy(w->b, &l, 4);
	return (const struct nlmsghdr *)w->b;
}

static void u32a(struct w *w, uint16_t t, uint32_t v) { attr(w, t, &v, 4); }
static void u64a(struct w *w, uint16_t t, uint64_t v) { attr(w, t, &v, 8); }
static void u8a(struct w *w, uint16_t t, uint8_t v) { attr(w, t, &v, 1); }
static void stra(struct w *w, uint16_t t, const char *s) { attr(w, t, s, strlen(s) + 1); }

static void handle(struct w *w, uint32_t idx, const char *name)
{
	u32a(w, RDMA_NLDEV_ATTR_DEV_INDEX, idx);
	stra(w, RDMA_NLDEV_ATTR_DEV_NAME, name);
}

static void test_dev(void **state)
{
	struct w w;
	struct mlx_rdma_dev d;
	char err[128];

	(void)state;
	msg(&w, T(RDMA_NLDEV_CMD_GET));
	handle(&w, 0, "mlx5_0");
	u32a(&w, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	u64a(&w, RDMA_NLDEV_ATTR_CAP_FLAGS, 0x1021361c36ull);
	stra(&w, RDMA_NLDEV_ATTR_FW_VERSION, "20.37.1700");
	u64a(&w, RDMA_NLDEV_ATTR_NODE_GUID, 0x88e9a4ffff25a462ull);
	u8a(&w, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, 1);
	stra(&w, RDMA_NLDEV_ATTR_DEV_PROTOCOL, "ib");
	assert_int_equal(mlx_rdma_decode_dev(done(&w), w.n, &d, err, sizeof(err)), 0);
	assert_string_equal(d.name, "mlx5_0");
	assert_int_equal(d.nports, 1);
	assert_string_equal(d.fw_ver, "20.37.1700");
	assert_true(d.node_guid == 0x88e9a4ffff25a462ull);
	assert_int_equal(d.node_type, 1);
	assert_string_equal(d.protocol, "ib");

	/* a message of another client (RDMA_NL_LS) is no NLDEV reply */
	msg(&w, (uint16_t)((RDMA_NL_LS << 10) + 1));
	handle(&w, 0, "mlx5_0");
	assert_int_equal(mlx_rdma_decode_dev(done(&w), w.n, &d, err, sizeof(err)), -EBADMSG);
	/* no name */
	msg(&w, T(RDMA_NLDEV_CMD_GET));
	u32a(&w, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	assert_int_equal(mlx_rdma_decode_dev(done(&w), w.n, &d, err, sizeof(err)), -EBADMSG);
	/* a u64 attribute of 4 bytes */
	msg(&w, T(RDMA_NLDEV_CMD_GET));
	handle(&w, 0, "mlx5_0");
	u32a(&w, RDMA_NLDEV_ATTR_NODE_GUID, 1);
	assert_int_equal(mlx_rdma_decode_dev(done(&w), w.n, &d, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "too short"));
	/* nlmsg_len beyond the buffer */
	msg(&w, T(RDMA_NLDEV_CMD_GET));
	handle(&w, 0, "mlx5_0");
	done(&w);
	assert_int_equal(mlx_rdma_decode_dev((const struct nlmsghdr *)w.b, w.n - 4, &d, err,
					     sizeof(err)), -EBADMSG);
	/* shorter than a header */
	assert_int_equal(mlx_rdma_decode_dev((const struct nlmsghdr *)w.b, 8, &d, err, sizeof(err)),
			 -EBADMSG);
}

static void test_port(void **state)
{
	struct w w;
	struct mlx_rdma_port p;
	char err[128];

	(void)state;
	/* FIX rdma link: "link mlx5_0/1: state ACTIVE physical_state LINK_UP netdev ens21f0" */
	msg(&w, T(RDMA_NLDEV_CMD_PORT_GET));
	handle(&w, 0, "mlx5_0");
	u32a(&w, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	u8a(&w, RDMA_NLDEV_ATTR_PORT_STATE, 4);
	u8a(&w, RDMA_NLDEV_ATTR_PORT_PHYS_STATE, 5);
	u32a(&w, RDMA_NLDEV_ATTR_NDEV_INDEX, 6);
	stra(&w, RDMA_NLDEV_ATTR_NDEV_NAME, "ens21f0");
	assert_int_equal(mlx_rdma_decode_port(done(&w), w.n, &p, err, sizeof(err)), 0);
	assert_string_equal(mlx_rdma_port_state_name(p.state), "ACTIVE");
	assert_string_equal(mlx_rdma_phys_state_name(p.phys_state), "LINK_UP");
	assert_string_equal(p.netdev, "ens21f0");
	assert_int_equal(p.netdev_index, 6);
	assert_false(p.has_ib);
	/* out-of-range states have no name */
	assert_null(mlx_rdma_port_state_name(0));
	assert_null(mlx_rdma_port_state_name(9));
	assert_null(mlx_rdma_phys_state_name(-1));
	/* a port message without its port index */
	msg(&w, T(RDMA_NLDEV_CMD_PORT_GET));
	handle(&w, 0, "mlx5_0");
	assert_int_equal(mlx_rdma_decode_port(done(&w), w.n, &p, err, sizeof(err)), -EBADMSG);
}

static size_t sum_entry(struct w *w, const char *name, uint64_t n)
{
	size_t e = attr(w, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY, NULL, 0);

	stra(w, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, name);
	u64a(w, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR, n);
	nest_end(w, e);
	return e;
}

static void test_summary(void **state)
{
	static const char *const names[] = { "pd", "cq", "qp", "cm_id", "mr", "ctx", "srq" };
	static const uint64_t fix[] = { 3, 4, 3, 0, 0, 0, 2 };   /* FIX ibp8s0f0 */
	struct w w;
	struct mlx_rdma_summary s;
	char err[128];
	size_t t;

	(void)state;
	msg(&w, T(RDMA_NLDEV_CMD_RES_GET));
	handle(&w, 0, "ibp8s0f0");
	t = attr(&w, RDMA_NLDEV_ATTR_RES_SUMMARY, NULL, 0);
	for (int i = 0; i < 7; i++)
		sum_entry(&w, names[i], fix[i]);
	sum_entry(&w, "unknown_kind", 9);        /* a newer kernel's: skipped */
	nest_end(&w, t);
	assert_int_equal(mlx_rdma_decode_summary(done(&w), w.n, &s, err, sizeof(err)), 0);
	assert_int_equal(s.count[MLX_RDMA_PD], 3);
	assert_int_equal(s.count[MLX_RDMA_CQ], 4);
	assert_int_equal(s.count[MLX_RDMA_QP], 3);
	assert_int_equal(s.count[MLX_RDMA_SRQ], 2);
	/* an entry without a count stays unknown */
	msg(&w, T(RDMA_NLDEV_CMD_RES_GET));
	handle(&w, 0, "ibp8s0f0");
	t = attr(&w, RDMA_NLDEV_ATTR_RES_SUMMARY, NULL, 0);
	{
		size_t e = attr(&w, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY, NULL, 0);

		stra(&w, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, "qp");
		nest_end(&w, e);
	}
	nest_end(&w, t);
	assert_int_equal(mlx_rdma_decode_summary(done(&w), w.n, &s, err, sizeof(err)), 0);
	assert_int_equal(s.count[MLX_RDMA_QP], -1);
	/* a summary nest cut short */
	msg(&w, T(RDMA_NLDEV_CMD_RES_GET));
	handle(&w, 0, "ibp8s0f0");
	t = attr(&w, RDMA_NLDEV_ATTR_RES_SUMMARY, NULL, 0);
	sum_entry(&w, "qp", 3);
	nest_end(&w, t);
	w.n -= 4;               /* the message ends inside the CURR payload the nest claims */
	assert_int_equal(mlx_rdma_decode_summary(done(&w), w.n, &s, err, sizeof(err)), -EBADMSG);
}

static void sockaddr4(struct w *w, uint16_t t, const char *ip, uint16_t port)
{
	uint8_t ss[128] = { 0 };
	uint16_t fam = AF_INET, p = htons(port);

	memcpy(ss, &fam, 2);
	memcpy(ss + 2, &p, 2);
	inet_pton(AF_INET, ip, ss + 4);
	attr(w, t, ss, sizeof(ss));
}

static void test_qp_and_cm(void **state)
{
	struct w w;
	struct mlx_rdma_res_list l = { 0 };
	char err[128], buf[64];
	size_t t, e;

	(void)state;
	msg(&w, T(RDMA_NLDEV_CMD_RES_QP_GET));
	handle(&w, 1, "ibp8s0f1");
	t = attr(&w, RDMA_NLDEV_ATTR_RES_QP, NULL, 0);
	/* FIX: "lqpn 465 type DRIVER subtype REG_UMR state RTS sq-psn 0 comm [mlx5_ib]" */
	e = attr(&w, RDMA_NLDEV_ATTR_RES_QP_ENTRY, NULL, 0);
	u32a(&w, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	u32a(&w, RDMA_NLDEV_ATTR_RES_LQPN, 465);
	stra(&w, RDMA_NLDEV_ATTR_RES_KERN_NAME, "mlx5_ib");
	u32a(&w, RDMA_NLDEV_ATTR_RES_SQ_PSN, 0);
	u8a(&w, RDMA_NLDEV_ATTR_RES_TYPE, 0xff);
	u8a(&w, RDMA_NLDEV_ATTR_RES_STATE, 3);
	stra(&w, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC + 3, "REG_UMR");   /* RES_SUBTYPE */
	nest_end(&w, e);
	/* a user RC QP in ERR */
	e = attr(&w, RDMA_NLDEV_ATTR_RES_QP_ENTRY, NULL, 0);
	u32a(&w, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	u32a(&w, RDMA_NLDEV_ATTR_RES_LQPN, 425);
	u32a(&w, RDMA_NLDEV_ATTR_RES_PDN, 5);
	u32a(&w, RDMA_NLDEV_ATTR_RES_PID, 5927);
	u32a(&w, RDMA_NLDEV_ATTR_RES_RQPN, 774);
	u32a(&w, RDMA_NLDEV_ATTR_RES_RQ_PSN, 0x11a0f0);
	u32a(&w, RDMA_NLDEV_ATTR_RES_SQ_PSN, 0x3b2c19);
	u8a(&w, RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE, 0);
	u8a(&w, RDMA_NLDEV_ATTR_RES_TYPE, 2);
	u8a(&w, RDMA_NLDEV_ATTR_RES_STATE, 6);
	nest_end(&w, e);
	nest_end(&w, t);
	assert_int_equal(mlx_rdma_decode_res(done(&w), w.n, MLX_RDMA_QP, &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.v[0].id, 465);
	assert_string_equal(mlx_rdma_qp_type_name(l.v[0].type), "DRIVER");
	assert_string_equal(l.v[0].subtype, "REG_UMR");
	assert_string_equal(l.v[0].kern, "mlx5_ib");
	assert_false(l.v[0].has & MLX_RES_PID);
	assert_int_equal(l.v[0].dev_index, 1);
	assert_int_equal(l.v[1].pid, 5927);
	assert_int_equal(l.v[1].rqpn, 774);
	assert_int_equal(l.v[1].pdn, 5);
	assert_string_equal(mlx_rdma_qp_state_name(l.v[1].state), "ERR");
	assert_true(mlx_rdma_qp_state_failed(l.v[1].state));
	assert_false(mlx_rdma_qp_state_failed(3));
	assert_int_equal(mlx_rdma_qp_state_parse("rts"), 3);
	assert_int_equal(mlx_rdma_qp_state_parse("BOGUS"), -1);

	/* a CM ID with IPv4 addresses (sockaddr_storage as nla_put copies it) */
	msg(&w, T(RDMA_NLDEV_CMD_RES_CM_ID_GET));
	handle(&w, 0, "mlx5_0");
	t = attr(&w, RDMA_NLDEV_ATTR_RES_CM_ID, NULL, 0);
	e = attr(&w, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY, NULL, 0);
	u32a(&w, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	u32a(&w, RDMA_NLDEV_ATTR_RES_LQPN, 423);
	u8a(&w, RDMA_NLDEV_ATTR_RES_TYPE, 2);
	u32a(&w, RDMA_NLDEV_ATTR_RES_PS, 0x0106);
	u8a(&w, RDMA_NLDEV_ATTR_RES_STATE, 5);
	sockaddr4(&w, RDMA_NLDEV_ATTR_RES_SRC_ADDR, "192.0.2.10", 36245);
	sockaddr4(&w, RDMA_NLDEV_ATTR_RES_DST_ADDR, "192.0.2.20", 7174);
	u32a(&w, RDMA_NLDEV_ATTR_RES_CM_IDN, 0);
	u32a(&w, RDMA_NLDEV_ATTR_RES_PID, 5926);
	nest_end(&w, e);
	nest_end(&w, t);
	mlx_rdma_res_list_free(&l);
	assert_int_equal(mlx_rdma_decode_res(done(&w), w.n, MLX_RDMA_CM_ID, &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.v[0].lqpn, 423);
	assert_true(l.v[0].has & MLX_RES_LQPN);
	assert_string_equal(mlx_rdma_cm_state_name(l.v[0].state), "CONNECT");
	assert_string_equal(mlx_rdma_ps_name(l.v[0].ps), "TCP");
	assert_string_equal(mlx_rdma_addr_str(&l.v[0].src, buf, sizeof(buf)), "192.0.2.10:36245");
	assert_string_equal(mlx_rdma_addr_ip(&l.v[0].dst, buf, sizeof(buf)), "192.0.2.20");
	mlx_rdma_res_list_free(&l);

	/* a sockaddr of 3 bytes is garbage */
	msg(&w, T(RDMA_NLDEV_CMD_RES_CM_ID_GET));
	handle(&w, 0, "mlx5_0");
	t = attr(&w, RDMA_NLDEV_ATTR_RES_CM_ID, NULL, 0);
	e = attr(&w, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY, NULL, 0);
	attr(&w, RDMA_NLDEV_ATTR_RES_SRC_ADDR, "\x02\x00\x01", 3);
	nest_end(&w, e);
	nest_end(&w, t);
	assert_int_equal(mlx_rdma_decode_res(done(&w), w.n, MLX_RDMA_CM_ID, &l, err, sizeof(err)),
			 -EBADMSG);
	mlx_rdma_res_list_free(&l);
	/* a QP entry whose u32 is one byte */
	msg(&w, T(RDMA_NLDEV_CMD_RES_QP_GET));
	handle(&w, 0, "mlx5_0");
	t = attr(&w, RDMA_NLDEV_ATTR_RES_QP, NULL, 0);
	e = attr(&w, RDMA_NLDEV_ATTR_RES_QP_ENTRY, NULL, 0);
	u8a(&w, RDMA_NLDEV_ATTR_RES_LQPN, 1);
	nest_end(&w, e);
	nest_end(&w, t);
	assert_int_equal(mlx_rdma_decode_res(done(&w), w.n, MLX_RDMA_QP, &l, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "qp"));
	mlx_rdma_res_list_free(&l);
	/* a resource reply without a device index */
	msg(&w, T(RDMA_NLDEV_CMD_RES_QP_GET));
	stra(&w, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	assert_int_equal(mlx_rdma_decode_res(done(&w), w.n, MLX_RDMA_QP, &l, err, sizeof(err)), -EBADMSG);
	/* an entry nest that claims more than its table holds */
	msg(&w, T(RDMA_NLDEV_CMD_RES_QP_GET));
	handle(&w, 0, "mlx5_0");
	t = attr(&w, RDMA_NLDEV_ATTR_RES_QP, NULL, 0);
	e = attr(&w, RDMA_NLDEV_ATTR_RES_QP_ENTRY, NULL, 0);
	u32a(&w, RDMA_NLDEV_ATTR_RES_LQPN, 7);
	nest_end(&w, e);
	nest_end(&w, t);
	{
		uint16_t big = 200;

		memcpy(w.b + e, &big, 2);
	}
	assert_int_equal(mlx_rdma_decode_res(done(&w), w.n, MLX_RDMA_QP, &l, err, sizeof(err)), -EBADMSG);
	mlx_rdma_res_list_free(&l);
	assert_int_equal(mlx_rdma_decode_res(done(&w), w.n, (enum mlx_rdma_kind)99, &l, err,
					     sizeof(err)), -EINVAL);
}

static void test_cq_srq_raw(void **state)
{
	struct w w;
	struct mlx_rdma_res_list l = { 0 };
	struct mlx_rdma_raw_list rl = { 0 };
	char err[128];
	size_t t, e, q, qe;

	(void)state;
	/* FIX: "cqn 1 cqe 1023 users 4 poll-ctx UNBOUND_WORKQUEUE comm ib_core" */
	msg(&w, T(RDMA_NLDEV_CMD_RES_CQ_GET));
	handle(&w, 0, "mlx5_0");
	t = attr(&w, RDMA_NLDEV_ATTR_RES_CQ, NULL, 0);
	e = attr(&w, RDMA_NLDEV_ATTR_RES_CQ_ENTRY, NULL, 0);
	u32a(&w, RDMA_NLDEV_ATTR_RES_CQE, 1023);
	u64a(&w, RDMA_NLDEV_ATTR_RES_USECNT, 4);
	u8a(&w, RDMA_NLDEV_ATTR_RES_POLL_CTX, 2);
	u8a(&w, RDMA_NLDEV_ATTR_DEV_DIM, 0);
	u32a(&w, RDMA_NLDEV_ATTR_RES_CQN, 1);
	stra(&w, RDMA_NLDEV_ATTR_RES_KERN_NAME, "ib_core");
	nest_end(&w, e);
	nest_end(&w, t);
	assert_int_equal(mlx_rdma_decode_res(done(&w), w.n, MLX_RDMA_CQ, &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.v[0].id, 1);
	assert_int_equal(l.v[0].cqe, 1023);
	assert_true(l.v[0].usecnt == 4);
	assert_string_equal(mlx_rdma_poll_ctx_name(l.v[0].poll_ctx), "UNBOUND_WORKQUEUE");
	mlx_rdma_res_list_free(&l);

	/* an SRQ with QPs 5, 6, 7 (a range) and 9 */
	msg(&w, T(RDMA_NLDEV_CMD_RES_SRQ_GET));
	handle(&w, 0, "mlx5_0");
	t = attr(&w, RDMA_NLDEV_ATTR_RES_SRQ, NULL, 0);
	e = attr(&w, RDMA_NLDEV_ATTR_RES_SRQ_ENTRY, NULL, 0);
	u32a(&w, RDMA_NLDEV_ATTR_RES_SRQN, 2);
	u8a(&w, RDMA_NLDEV_ATTR_RES_TYPE, 1);
	u32a(&w, RDMA_NLDEV_ATTR_RES_PDN, 2);
	u32a(&w, RDMA_NLDEV_ATTR_RES_CQN, 2);
	q = attr(&w, RDMA_NLDEV_ATTR_RES_QP, NULL, 0);
	qe = attr(&w, RDMA_NLDEV_ATTR_RES_QP_ENTRY, NULL, 0);
	u32a(&w, RDMA_NLDEV_ATTR_MIN_RANGE, 5);
	u32a(&w, RDMA_NLDEV_ATTR_MAX_RANGE, 7);
	nest_end(&w, qe);
	qe = attr(&w, RDMA_NLDEV_ATTR_RES_QP_ENTRY, NULL, 0);
	u32a(&w, RDMA_NLDEV_ATTR_RES_LQPN, 9);
	nest_end(&w, qe);
	nest_end(&w, q);
	stra(&w, RDMA_NLDEV_ATTR_RES_KERN_NAME, "mlx5_ib");
	nest_end(&w, e);
	nest_end(&w, t);
	assert_int_equal(mlx_rdma_decode_res(done(&w), w.n, MLX_RDMA_SRQ, &l, err, sizeof(err)), 0);
	assert_int_equal(l.v[0].id, 2);
	assert_int_equal(l.v[0].pdn, 2);
	assert_string_equal(mlx_rdma_srq_type_name(l.v[0].type), "XRC");
	assert_string_equal(l.v[0].srq_qps, "5-7,9");
	mlx_rdma_res_list_free(&l);

	/* raw contexts: opaque bytes, per object; an entry without RES_RAW is none */
	msg(&w, T(RDMA_NLDEV_CMD_RES_QP_GET_RAW));
	handle(&w, 0, "mlx5_0");
	t = attr(&w, RDMA_NLDEV_ATTR_RES_QP, NULL, 0);
	e = attr(&w, RDMA_NLDEV_ATTR_RES_QP_ENTRY, NULL, 0);
	u32a(&w, RDMA_NLDEV_ATTR_RES_LQPN, 425);
	attr(&w, RDMA_NLDEV_ATTR_RES_RAW, "\x01\x02\x03\x04\x05", 5);
	nest_end(&w, e);
	e = attr(&w, RDMA_NLDEV_ATTR_RES_QP_ENTRY, NULL, 0);
	u32a(&w, RDMA_NLDEV_ATTR_RES_LQPN, 426);
	nest_end(&w, e);
	nest_end(&w, t);
	assert_int_equal(mlx_rdma_decode_raw(done(&w), w.n, MLX_RDMA_QP, &rl, err, sizeof(err)), 0);
	assert_int_equal(rl.n, 1);
	assert_int_equal(rl.v[0].id, 425);
	assert_int_equal(rl.v[0].len, 5);
	assert_memory_equal(rl.v[0].data, "\x01\x02\x03\x04\x05", 5);
	mlx_rdma_raw_list_free(&rl);
	assert_int_equal(mlx_rdma_decode_raw(done(&w), w.n, MLX_RDMA_PD, &rl, err, sizeof(err)), -EINVAL);
}

static void hwc(struct w *w, const char *name, bool has_val, uint64_t v, int idx, int dyn)
{
	size_t e = attr(w, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, NULL, 0);

	stra(w, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name);
	if (has_val)
		u64a(w, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, v);
	if (idx >= 0)
		u32a(w, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, (uint32_t)idx);
	if (dyn >= 0)
		u8a(w, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC, (uint8_t)dyn);
	nest_end(w, e);
}

static void test_stat(void **state)
{
	struct w w;
	struct mlx_rdma_stat s = { .mode = -1, .auto_mask = -1 };
	struct mlx_rdma_counter_list cl = { 0 };
	char err[128];
	size_t t, e, q, qe;

	(void)state;
	/* STAT_GET: values (FIX sonic rdma statistic: rp_cnp_handled 144) */
	msg(&w, T(RDMA_NLDEV_CMD_STAT_GET));
	handle(&w, 0, "mlx5_1");
	u32a(&w, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	t = attr(&w, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, NULL, 0);
	hwc(&w, "rp_cnp_handled", true, 144, -1, -1);
	hwc(&w, "cc_rx_ce_pkts", true, 8, -1, -1);
	nest_end(&w, t);
	assert_int_equal(mlx_rdma_decode_stat(done(&w), w.n, &s, err, sizeof(err)), 0);
	/* STAT_GET_STATUS merges by name: optional, enabled, index */
	msg(&w, T(RDMA_NLDEV_CMD_STAT_GET_STATUS));
	handle(&w, 0, "mlx5_1");
	u32a(&w, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	t = attr(&w, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, NULL, 0);
	hwc(&w, "rp_cnp_handled", false, 0, 27, -1);
	hwc(&w, "cc_rx_ce_pkts", false, 0, 31, 1);
	hwc(&w, "cc_tx_cnp_pkts", false, 0, 33, 0);
	nest_end(&w, t);
	assert_int_equal(mlx_rdma_decode_stat(done(&w), w.n, &s, err, sizeof(err)), 0);
	/* the mode query */
	msg(&w, T(RDMA_NLDEV_CMD_STAT_GET));
	handle(&w, 0, "mlx5_1");
	u32a(&w, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	u32a(&w, RDMA_NLDEV_ATTR_STAT_MODE, 1);
	u32a(&w, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, 1);
	assert_int_equal(mlx_rdma_decode_stat(done(&w), w.n, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.c[0].name, "rp_cnp_handled");
	assert_true(s.c[0].value == 144 && s.c[0].has_value && s.c[0].enabled == -1 && s.c[0].index == 27);
	assert_true(s.c[1].enabled == 1 && s.c[1].value == 8);
	assert_true(s.c[2].enabled == 0 && !s.c[2].has_value);
	assert_int_equal(s.mode, 1);
	assert_int_equal(s.auto_mask, 1);
	assert_string_equal(mlx_rdma_counter_mode_name(s.mode), "auto");
	mlx_rdma_stat_free(&s);
	/* a counter entry without a name is garbage; a resource reply is no counter reply */
	msg(&w, T(RDMA_NLDEV_CMD_STAT_GET));
	handle(&w, 0, "mlx5_1");
	t = attr(&w, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, NULL, 0);
	e = attr(&w, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, NULL, 0);
	u64a(&w, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 1);
	nest_end(&w, e);
	nest_end(&w, t);
	assert_int_equal(mlx_rdma_decode_stat(done(&w), w.n, &s, err, sizeof(err)), -EBADMSG);
	mlx_rdma_stat_free(&s);
	msg(&w, T(RDMA_NLDEV_CMD_RES_QP_GET));
	handle(&w, 0, "mlx5_1");
	assert_int_equal(mlx_rdma_decode_stat(done(&w), w.n, &s, err, sizeof(err)), -EBADMSG);

	/* a bound counter (fill_res_counter_entry) */
	msg(&w, T(RDMA_NLDEV_CMD_STAT_GET));
	handle(&w, 0, "mlx5_0");
	t = attr(&w, RDMA_NLDEV_ATTR_STAT_COUNTER, NULL, 0);
	e = attr(&w, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY, NULL, 0);
	u32a(&w, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	u32a(&w, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 4);
	u32a(&w, RDMA_NLDEV_ATTR_STAT_MODE, 1);
	u8a(&w, RDMA_NLDEV_ATTR_RES_TYPE, 2);
	q = attr(&w, RDMA_NLDEV_ATTR_RES_QP, NULL, 0);
	for (uint32_t n = 310; n < 313; n++) {
		qe = attr(&w, RDMA_NLDEV_ATTR_RES_QP_ENTRY, NULL, 0);
		u32a(&w, RDMA_NLDEV_ATTR_RES_LQPN, n);
		nest_end(&w, qe);
	}
	nest_end(&w, q);
	q = attr(&w, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, NULL, 0);
	hwc(&w, "out_of_sequence", true, 3, -1, -1);
	nest_end(&w, q);
	nest_end(&w, e);
	nest_end(&w, t);
	assert_int_equal(mlx_rdma_decode_counters(done(&w), w.n, &cl, err, sizeof(err)), 0);
	assert_int_equal(cl.n, 1);
	assert_int_equal(cl.v[0].id, 4);
	assert_int_equal(cl.v[0].qp_type, 2);
	assert_int_equal(cl.v[0].nqpn, 3);
	assert_int_equal(cl.v[0].qpn[2], 312);
	assert_int_equal(cl.v[0].n, 1);
	assert_true(cl.v[0].c[0].value == 3);
	mlx_rdma_counter_list_free(&cl);
}

static void test_build(void **state)
{
	uint8_t b[64];
	struct nlmsghdr h;
	int n;

	(void)state;
	/* RES_QP_GET dump of device 3: header, DEV_INDEX */
	n = mlx_rdma_build(b, sizeof(b), RDMA_NLDEV_CMD_RES_QP_GET, true, 3, true, 0, 0, false);
	assert_int_equal(n, 24);
	memcpy(&h, b, sizeof(h));
	assert_int_equal(h.nlmsg_type, (RDMA_NL_NLDEV << 10) + RDMA_NLDEV_CMD_RES_QP_GET);
	assert_int_equal(h.nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
	assert_memory_equal(b + 16, "\x08\x00\x01\x00\x03\x00\x00\x00", 8);
	/* the mode query: DEV_INDEX, PORT_INDEX, STAT_RES = RES_QP, STAT_MODE */
	n = mlx_rdma_build(b, sizeof(b), RDMA_NLDEV_CMD_STAT_GET, false, 0, true, 1,
			   RDMA_NLDEV_ATTR_RES_QP, true);
	assert_int_equal(n, 48);
	memcpy(&h, b, sizeof(h));
	assert_int_equal(h.nlmsg_flags, NLM_F_REQUEST);
	assert_memory_equal(b + 32, "\x08\x00\x4b\x00\x13\x00\x00\x00", 8);
	/* too small a buffer */
	assert_true(mlx_rdma_build(b, 20, RDMA_NLDEV_CMD_GET, true, 3, true, 0, 0, false) < 0);
}

static void test_gid_rules(void **state)
{
	uint8_t g[16];
	char ip[INET_ADDRSTRLEN];

	(void)state;
	/* FIX show_gids: 0000:...:ffff:0a10:f239 is 10.16.242.57 */
	assert_int_equal(mlx_gid_parse("0000:0000:0000:0000:0000:ffff:0a10:f239\n", g), 0);
	assert_true(mlx_gid_ipv4(g, ip, sizeof(ip)));
	assert_string_equal(ip, "10.16.242.57");
	assert_int_equal(mlx_gid_parse("fe80:0000:0000:0000:0ac0:ebff:fe3b:3490", g), 0);
	assert_false(mlx_gid_ipv4(g, ip, sizeof(ip)));
	assert_false(mlx_gid_is_zero(g));
	assert_int_equal(mlx_gid_parse("0000:0000:0000:0000:0000:0000:0000:0000", g), 0);
	assert_true(mlx_gid_is_zero(g));
	assert_int_equal(mlx_gid_parse("not a gid", g), -EINVAL);
	assert_int_equal(mlx_gid_parse("", g), -EINVAL);
	assert_int_equal(mlx_gid_parse("fe80::1:2:3:4:5:6:7:8:9", g), -EINVAL);
	assert_int_equal(mlx_gid_type_parse("RoCE v2\n", true), MLX_GID_ROCE_V2);
	assert_int_equal(mlx_gid_type_parse("IB/RoCE v1", true), MLX_GID_ROCE_V1);
	assert_int_equal(mlx_gid_type_parse("IB/RoCE v1", false), MLX_GID_IB);
	assert_int_equal(mlx_gid_type_parse("RoCE v22", true), MLX_GID_UNKNOWN);
	assert_int_equal(mlx_gid_type_parse(NULL, true), MLX_GID_UNKNOWN);
	assert_string_equal(mlx_gid_type_name(MLX_GID_ROCE_V2), "RoCE v2");
	assert_null(mlx_gid_type_name(MLX_GID_UNKNOWN));
}

static void test_vlan(void **state)
{
	struct w w;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 104 };
	struct nlmsghdr h = { .nlmsg_type = RTM_NEWLINK };
	size_t li, d;
	uint16_t vid = 100;
	int v;

	(void)state;
	memset(w.b, 0, sizeof(w.b));
	memcpy(w.b, &h, sizeof(h));
	memcpy(w.b + 16, &ifi, sizeof(ifi));
	w.n = 16 + sizeof(ifi);
	stra(&w, IFLA_IFNAME, "vlan100");
	li = attr(&w, IFLA_LINKINFO, NULL, 0);
	stra(&w, IFLA_INFO_KIND, "vlan");
	d = attr(&w, IFLA_INFO_DATA, NULL, 0);
	attr(&w, IFLA_VLAN_ID, &vid, 2);
	nest_end(&w, d);
	nest_end(&w, li);
	assert_int_equal(mlx_rtnl_vlan_id(done(&w), w.n, &v), 0);
	assert_int_equal(v, 100);
	/* a VLAN ID above 4095 is garbage */
	vid = 5000;
	memcpy(w.b + w.n - 4 + 0, &vid, 2);
	assert_int_equal(mlx_rtnl_vlan_id(done(&w), w.n, &v), -EBADMSG);
	/* a netdev without IFLA_LINKINFO is no VLAN */
	w.n = 16 + sizeof(ifi);
	stra(&w, IFLA_IFNAME, "enp94s0f0np0");
	assert_int_equal(mlx_rtnl_vlan_id(done(&w), w.n, &v), -ENOENT);
	assert_int_equal(v, -1);
	/* another message type */
	h.nlmsg_type = RTM_NEWADDR;
	memcpy(w.b, &h, sizeof(h));
	assert_int_equal(mlx_rtnl_vlan_id(done(&w), w.n, &v), -EBADMSG);
}

static void test_roce_rules(void **state)
{
	int8_t map[64];
	int dscp, prio;

	(void)state;
	memset(map, -1, sizeof(map));
	map[26] = 3;
	/* ToS 106 (cma_roce_tos -t 106) -> DSCP 26 -> priority 3 under trust dscp */
	mlx_roce_tos_prio(106, 1, map, &dscp, &prio);
	assert_int_equal(dscp, 26);
	assert_int_equal(prio, 3);
	/* no APP entry for the DSCP: priority 0 */
	mlx_roce_tos_prio(0, 1, map, &dscp, &prio);
	assert_int_equal(prio, 0);
	/* trust pcp, untagged: priority 0 whatever the ToS */
	mlx_roce_tos_prio(106, 0, map, &dscp, &prio);
	assert_int_equal(prio, 0);
	/* trust unknown: priority unknown */
	mlx_roce_tos_prio(106, -1, NULL, &dscp, &prio);
	assert_int_equal(dscp, 26);
	assert_int_equal(prio, -1);
	mlx_roce_tos_prio(300, 1, map, &dscp, &prio);
	assert_int_equal(dscp, -1);
	/* ib_addr.h iboe_get_mtu: MTU less 96 header bytes, down to an IB MTU */
	assert_int_equal(mlx_roce_active_mtu(1500), 1024);
	assert_int_equal(mlx_roce_active_mtu(9000), 4096);
	assert_int_equal(mlx_roce_active_mtu(4200), 4096);
	assert_int_equal(mlx_roce_active_mtu(4191), 2048);
	assert_int_equal(mlx_roce_active_mtu(352), 256);
	assert_int_equal(mlx_roce_active_mtu(351), 0);
	assert_int_equal(mlx_roce_active_mtu(0), 0);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(mlx_rdma_kind_name(MLX_RDMA_CM_ID), "cm_id");
	assert_int_equal(mlx_rdma_kind_parse("cm-id"), MLX_RDMA_CM_ID);
	assert_int_equal(mlx_rdma_kind_parse("srq"), MLX_RDMA_SRQ);
	assert_int_equal(mlx_rdma_kind_parse("nope"), -1);
	assert_null(mlx_rdma_kind_name((enum mlx_rdma_kind)7));
	assert_null(mlx_rdma_qp_type_name(7));
	assert_string_equal(mlx_rdma_qp_type_name(8), "RAW_PACKET");
	assert_null(mlx_rdma_ps_name(0));
	assert_int_equal(mlx_rdma_cm_state_parse("listen"), 8);
	assert_true(mlx_rdma_kind_has_raw(MLX_RDMA_SRQ));
	assert_false(mlx_rdma_kind_has_raw(MLX_RDMA_CTX));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dev),
		cmocka_unit_test(test_port),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_qp_and_cm),
		cmocka_unit_test(test_cq_srq_raw),
		cmocka_unit_test(test_stat),
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_gid_rules),
		cmocka_unit_test(test_vlan),
		cmocka_unit_test(test_roce_rules),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
