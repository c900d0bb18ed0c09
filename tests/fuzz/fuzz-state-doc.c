/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the desired-state parser (cmd/settings-json.c
 * doc_parse: apply's FILE and diff's state files, issue 29 item 13): any
 * bytes are the file.  What it must hold:
 *  - it answers 0 (a model) or 2 (a bad value, with its message), nothing
 *    else, and never crashes;
 *  - a model it returns holds only what the validators let through
 *    (lib/settings.h): a VF MAC that is unicast, VLAN 0-4095, VF QoS 0-7,
 *    a priority's TC 0-7, a TC's share 0-100, a DCQCN parameter in its
 *    range, the RoCE mode as the kernel names it, its ToS 0-255;
 *  - a copy of each port's model, merged with the model again, is the
 *    same model (mlx_settings_flatten equal): merge and copy lose nothing.
 * Parsed against the bundled cx5-ofed sample (read only: the parser reads
 * nothing from it but the context it needs for its messages).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "fuzz-util.h"
#include "settings-cmd.h"

#ifndef FUZZ_SAMPLES_DIR
#error "FUZZ_SAMPLES_DIR must name tests/data/samples"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);

static struct cli cli;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *err = NULL;

	(void)argc;
	(void)argv;
	cli.err_fp = fopen("/dev/null", "w");
	cli.out_fp = cli.err_fp;
	if (!cli.err_fp || mlx_ctx_new(FUZZ_SAMPLES_DIR "/cx5-ofed", &cli.ctx, &err) < 0)
		abort();
	return 0;
}

/* The flattened settings of a model, as one text. */
struct flat {
	char *buf;
	size_t len, cap;
};

static void flat_add(void *arg, const char *path, const struct mlx_val *v)
{
	struct flat *f = arg;
	char val[256], line[512];
	int n;

	mlx_val_fmt(v, val, sizeof(val));
	n = snprintf(line, sizeof(line), "%s=%d:%s\n", path, (int)v->kind, val);
	if (n < 0)
		abort();
	if (f->len + (size_t)n + 1 > f->cap) {
		size_t cap = (f->cap + (size_t)n + 1) * 2;
		char *b = realloc(f->buf, cap);

		if (!b)
			abort();
		f->buf = b;
		f->cap = cap;
	}
	memcpy(f->buf + f->len, line, (size_t)n + 1);
	f->len += (size_t)n;
}

static void check_port(const struct mlx_port_settings *p)
{
	const struct mlx_qos_settings *q = &p->qos;
	size_t np;
	const struct mlx_dcqcn_param *tab = mlx_dcqcn_params(&np);
	struct mlx_port_settings *c;
	struct flat a = { 0 }, b = { 0 };

	for (int i = 0; i < 8; i++) {
		if (q->ets == MLX_SET && q->prio_tc[i] == MLX_SET && q->st.ets.prio_tc[i] > 7)
			abort();
		if (q->bw[i] == MLX_SET && q->st.ets.tc_tx_bw[i] > 100)
			abort();
	}
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < np && i < MLX_DCQCN_MAXP; i++)
			if (p->dcqcn.side[s].h[i] == MLX_SET &&
			    (p->dcqcn.side[s].v[i] < tab[i].min || p->dcqcn.side[s].v[i] > tab[i].max))
				abort();
	if (p->roce.mode_h == MLX_SET && strcmp(p->roce.mode, "IB/RoCE v1") &&
	    strcmp(p->roce.mode, "RoCE v2"))
		abort();
	if (p->roce.tos_h == MLX_SET && p->roce.tos > 255)
		abort();
	for (size_t i = 0; i < p->sriov.nvf; i++) {
		const struct mlx_vf_settings *v = &p->sriov.vf[i];

		if (v->mac_h == MLX_SET && (v->mac[0] & 1))
			abort();
		if (v->vlan_h == MLX_SET && v->vlan > 4095)
			abort();
		if (v->qos_h == MLX_SET && v->qos > 7)
			abort();
	}
	/* copy and merge lose nothing */
	c = mlx_port_settings_copy(p);
	if (!c)
		abort();
	if (mlx_port_settings_merge(c, p, true) < 0)
		abort();
	mlx_settings_flatten(p, flat_add, &a);
	mlx_settings_flatten(c, flat_add, &b);
	if ((a.buf || b.buf) && (!a.buf || !b.buf || strcmp(a.buf, b.buf)))
		abort();
	free(a.buf);
	free(b.buf);
	mlx_port_settings_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct doc d = { 0 };
	json_error_t je;
	json_t *root;
	int rc;

	root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return 0;
	/* doc_parse keeps @root (doc_free drops it) */
	rc = doc_parse(&cli, "fuzz.json", root, "", &d);
	if (rc != EXIT_OK && rc != EXIT_USAGE)
		abort();
	if (rc == EXIT_OK)
		for (size_t i = 0; i < d.n; i++)
			check_port(d.p[i].want);
	doc_free(&d);
	mlx_err_clear(cli.ctx);
	return 0;
}
