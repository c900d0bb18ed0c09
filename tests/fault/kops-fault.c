/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fault injection at the kernel boundary, for the tests only: a wrapper of
 * the captured system's operations table (struct mlx_kops) that makes the
 * emulated driver refuse one DCB APP entry.  It does what the
 * `emul-fault` file in the capture did, without a test hook in the
 * product: the request is cut before the failing entry, the part the
 * kernel would have applied goes to the real emulator, and the reply
 * carries the driver's error (dcbnl replies with the op's status in the
 * DCB_ATTR_IEEE attribute, not NLMSG_ERROR).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/rtnetlink.h>

#include "dcb.h"
#include "kops-fault.h"
#include "mlx-private.h"

static struct {
	char kind[16];
	int err;
	unsigned nth;
} rule;

static int ignore(const struct nlmsghdr *h, size_t len, void *arg)
{
	(void)h;
	(void)len;
	(void)arg;
	return 0;
}

static int faulty_nl(struct mlx_ctx *ctx, enum mlx_nl_family fam, const char *object,
		     const char *request, const void *req, size_t len, mlx_nl_cb cb, void *arg)
{
	const struct mlx_kops *inner = &mlx_kops_captured;
	struct mlx_dcb_req *rq = NULL;
	struct nlmsghdr h;
	struct mlx_nlbuf b;
	uint8_t out[8192];
	char why[160];
	int n, r;

	memcpy(&h, req, sizeof(h));
	if (fam != MLX_NL_ROUTE || h.nlmsg_type != RTM_SETDCB || !(rq = calloc(1, sizeof(*rq))) ||
	    mlx_dcb_parse_req(req, len, rq, why, sizeof(why)) < 0 ||
	    rq->cmd == DCB_CMD_SDCBX || rq->m.napp < rule.nth ||
	    strcmp(rule.kind, rq->cmd == DCB_CMD_IEEE_DEL ? "app-del" : "app")) {
		free(rq);
		return inner->nl_request(ctx, fam, object, request, req, len, cb, arg);
	}
	/* What dcbnl_ieee_set() ran before the failing entry: ETS, MAXRATE,
	 * PFC, BUFFER and the entries before it. */
	rq->m.napp = rule.nth - 1;
	r = 0;
	if (rq->m.napp || rq->m.ets || rq->m.maxrate || rq->m.pfc || rq->m.buffer) {
		mlx_nlb_init(&b, out, sizeof(out));
		n = mlx_dcb_build_ieee(&b, rq->cmd, rq->ifname, &rq->m);
		r = n < 0 ? n : inner->nl_request(ctx, fam, object, request, out, (size_t)n, ignore,
						   NULL);
	}
	if (r == 0) {
		mlx_nlb_init(&b, out, sizeof(out));
		n = mlx_dcb_encode_set_reply(&b, rq->cmd, rule.err);
		r = n < 0 ? n : mlx_nl_replay(ctx, out, (size_t)n, cb, arg);
	}
	free(rq);
	return r;
}

static struct mlx_kops faulty;

int kfault_install(struct mlx_ctx *ctx, const char *text)
{
	int err = 0;
	unsigned nth = 1;

	if (mlx_ctx_kops(ctx) != &mlx_kops_captured ||
	    sscanf(text, "%15s %d %u", rule.kind, &err, &nth) < 2 || err <= 0 || !nth ||
	    (strcmp(rule.kind, "app") && strcmp(rule.kind, "app-del")))
		return -EINVAL;
	rule.err = -err;
	rule.nth = nth;
	faulty = mlx_kops_captured;
	faulty.name = "captured, faulty";
	faulty.nl_request = faulty_nl;
	mlx_ctx_set_kops(ctx, &faulty);
	return 0;
}
