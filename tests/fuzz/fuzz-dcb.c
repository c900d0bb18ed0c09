/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the DCB netlink parsers (lib/decode/decode-dcb.c): a
 * reply to IEEE_GET/GDCBX, a reply to a set, and a request as the
 * --sysroot emulator parses it.  What a parser accepted is then run
 * through the validators and the encoder that write it back.
 */
#include "dcb.h"
#include "fuzz-nl.h"

static int on_msg(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct mlx_dcb_state *st = arg;
	uint8_t cmd, buf[8192];
	struct mlx_nlbuf b;
	int kerr = 0, map[MLX_DCB_NDSCP];
	char why[128];

	(void)mlx_dcb_msg_cmd(h, len, &cmd);
	(void)mlx_dcb_parse_set_reply(h, len, &kerr);
	memset(st, 0, sizeof(*st));
	if (mlx_dcb_parse(h, len, st) == 0) {
		if (st->napp > MLX_DCB_MAX_APP)
			abort();
		if (st->has_ets)
			(void)mlx_dcb_validate_ets(&st->ets, why, sizeof(why));
		if (st->has_pfc)
			(void)mlx_dcb_validate_pfc(&st->pfc, why, sizeof(why));
		if (st->has_buffer)
			(void)mlx_dcb_validate_buffer(&st->buffer, why, sizeof(why));
		(void)mlx_dcb_trust_dscp(st);
		mlx_dcb_dscp_map(st, map);
		for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++)
			(void)mlx_dcb_tsa_name(st->ets.tc_tsa[i]);
		mlx_nlb_init(&b, buf, sizeof(buf));
		(void)mlx_dcb_encode_ieee(&b, st);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mlx_dcb_state *st = malloc(sizeof(*st));
	struct mlx_dcb_req *rq = malloc(sizeof(*rq));
	uint8_t *copy = fuzz_copy(data, size);
	char why[128];

	if (st && rq && copy) {
		fuzz_nl(data, size, on_msg, st);
		memset(rq, 0, sizeof(*rq));
		if (mlx_dcb_parse_req(copy, size, rq, why, sizeof(why)) == 0 &&
		    rq->m.napp > MLX_DCB_MAX_APP)
			abort();
	}
	free(copy);
	free(rq);
	free(st);
	return 0;
}
