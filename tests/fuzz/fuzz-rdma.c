/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the RDMA netlink decoders (lib/decode/decode-rdma.c):
 * the GET, PORT_GET, RES_GET, RES_<KIND>_GET, RES_*_GET_RAW and STAT_GET
 * replies, each message through every decoder, directly and as a recorded
 * reply stream.  Lists must stay consistent (n <= cap), strings
 * terminated, raw contexts exactly as long as they say, and the address
 * printers must not overrun.
 */
#include "fuzz-nl.h"
#include "rdma.h"

static void check_str(const char *s, size_t cap)
{
	if (strnlen(s, cap) == cap)
		abort();
}

static int on_msg(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct mlx_rdma_dev d;
	struct mlx_rdma_port p;
	struct mlx_rdma_summary s;
	struct mlx_rdma_stat st = { .mode = -1, .auto_mask = -1 };
	struct mlx_rdma_counter_list cl = { 0 };
	char err[128], buf[96];

	(void)arg;
	(void)mlx_rdma_msg_cmd(h, len);
	if (mlx_rdma_decode_dev(h, len, &d, err, sizeof(err)) == 0) {
		check_str(d.name, sizeof(d.name));
		check_str(d.fw_ver, sizeof(d.fw_ver));
		check_str(d.protocol, sizeof(d.protocol));
	}
	if (mlx_rdma_decode_port(h, len, &p, err, sizeof(err)) == 0) {
		check_str(p.netdev, sizeof(p.netdev));
		(void)mlx_rdma_port_state_name(p.state);
		(void)mlx_rdma_phys_state_name(p.phys_state);
	}
	(void)mlx_rdma_decode_summary(h, len, &s, err, sizeof(err));
	for (int k = 0; k < MLX_RDMA_NKINDS; k++) {
		struct mlx_rdma_res_list l = { 0 };
		struct mlx_rdma_raw_list rl = { 0 };

		(void)mlx_rdma_decode_res(h, len, (enum mlx_rdma_kind)k, &l, err, sizeof(err));
		if (l.n > l.cap)
			abort();
		for (size_t i = 0; i < l.n; i++) {
			check_str(l.v[i].kern, sizeof(l.v[i].kern));
			check_str(l.v[i].subtype, sizeof(l.v[i].subtype));
			check_str(l.v[i].srq_qps, sizeof(l.v[i].srq_qps));
			mlx_rdma_addr_str(&l.v[i].src, buf, sizeof(buf));
			mlx_rdma_addr_str(&l.v[i].dst, buf, 8);      /* a short buffer cuts */
			(void)mlx_rdma_qp_type_name(l.v[i].type);
			(void)mlx_rdma_cm_state_name(l.v[i].state);
		}
		mlx_rdma_res_list_free(&l);
		if (mlx_rdma_kind_has_raw((enum mlx_rdma_kind)k)) {
			(void)mlx_rdma_decode_raw(h, len, (enum mlx_rdma_kind)k, &rl, err, sizeof(err));
			for (size_t i = 0; i < rl.n; i++) {
				/* both ends read: ASan checks the length is the allocation's */
				volatile uint8_t sink = rl.v[i].len ?
					rl.v[i].data[0] ^ rl.v[i].data[rl.v[i].len - 1] : 0;

				(void)sink;
			}
			mlx_rdma_raw_list_free(&rl);
		}
	}
	(void)mlx_rdma_decode_stat(h, len, &st, err, sizeof(err));
	for (size_t i = 0; i < st.n; i++)
		check_str(st.c[i].name, sizeof(st.c[i].name));
	mlx_rdma_stat_free(&st);
	(void)mlx_rdma_decode_counters(h, len, &cl, err, sizeof(err));
	for (size_t i = 0; i < cl.n; i++)
		for (size_t j = 0; j < cl.v[i].nqpn; j++)
			(void)cl.v[i].qpn[j];
	mlx_rdma_counter_list_free(&cl);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_nl(data, size, on_msg, NULL);
	return 0;
}
