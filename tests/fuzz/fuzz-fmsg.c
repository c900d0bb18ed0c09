/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the devlink health fmsg decoder
 * (lib/decode/decode-devlink-health.c): the DIAGNOSE and DUMP_GET reply
 * stream, message by message as the kernel sends it, and the same bytes
 * as the contents of one DEVLINK_ATTR_FMSG nest.  The tree it builds must
 * be walkable: every node's children within its count, every name and
 * string terminated, no more nodes than the parser's limit.
 */
#include "fuzz-nl.h"
#include "health.h"

static size_t walk(const struct mlx_fmsg_node *n, int depth)
{
	size_t count = 1;

	if (depth > MLX_FMSG_MAX_DEPTH + 1 || n->n > n->cap)
		abort();
	if (n->name)
		(void)strlen(n->name);
	if (n->s)
		(void)strlen(n->s);
	if (n->bin && n->binlen)
		(void)n->bin[n->binlen - 1];
	for (size_t i = 0; i < n->n; i++) {
		if (n->kind == MLX_FMSG_VAL || !n->child[i])
			abort();
		count += walk(n->child[i], depth + 1);
	}
	if (n->kind == MLX_FMSG_OBJ && n->name)
		(void)mlx_fmsg_get(n, n->name);
	return count;
}

static void finish(struct mlx_fmsg_parser *p)
{
	struct mlx_fmsg_node *root = NULL;
	char err[160];

	if (mlx_fmsg_finish(p, &root, err, sizeof(err)) == 0) {
		if (!root || walk(root, 0) > MLX_FMSG_MAX_NODES + 1)
			abort();
		mlx_fmsg_free(root);
	} else {
		if (!memchr(err, '\0', sizeof(err)))
			abort();
		mlx_fmsg_parser_free(p);
	}
}

static int on_msg(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct mlx_fmsg_parser *p = arg;
	char err[160];

	/* a failure ends the stream, as health.c does */
	return mlx_fmsg_feed_msg(p, h, len, err, sizeof(err)) < 0 ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mlx_fmsg_parser p;
	uint8_t *copy;
	char err[160];

	/* the reply stream, message by message */
	mlx_fmsg_init(&p);
	fuzz_nl(data, size, on_msg, &p);
	mlx_fmsg_parser_free(&p);
	mlx_fmsg_init(&p);
	if (size >= NLMSG_HDRLEN) {
		copy = fuzz_copy(data, size);
		if (copy && mlx_fmsg_feed_msg(&p, (const struct nlmsghdr *)copy, size, err,
					      sizeof(err)) == 0)
			finish(&p);
		else
			mlx_fmsg_parser_free(&p);
		free(copy);
	}
	/* the bytes as one FMSG nest's contents */
	mlx_fmsg_init(&p);
	copy = fuzz_copy(data, size);
	if (copy && mlx_fmsg_feed(&p, copy, size, err, sizeof(err)) == 0)
		finish(&p);
	else
		mlx_fmsg_parser_free(&p);
	free(copy);
	return 0;
}
