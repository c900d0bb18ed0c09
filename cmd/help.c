/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Help, suggestions and shell completion, all generated from the dispatch
 * tables, so a new command is documented and completed by being added.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mlx.h"

static const struct {
	const char *opt, *help;
} global_opts[] = {
	{ "-j, --json", "JSON output (one object, \"schema_version\" on top)" },
	{ "-p, --pretty", "indented JSON (implies --json)" },
	{ "-d, --device DEV", "PCI address (5e:00.0), 'BUS DEV FUNC' in decimal, netdev or RDMA device" },
	{ "    --sysroot DIR", "read (and write) a captured system instead of this one" },
	{ "    --sample[=NAME]", "use a bundled sample host (default " CLI_DEFAULT_SAMPLE ")" },
	{ "-v, --verbose", "say more on stderr (twice for debug)" },
	{ "-h, --help", "help for the command given" },
	{ "    --version", "print the version" },
};

/* Long option names for completion. */
static const char *const global_words[] = {
	"--json", "--pretty", "--device", "--sysroot", "--sample", "--verbose", "--help",
	"--version", NULL,
};

void cli_usage(struct cli *cli, FILE *fp, const struct cmd_group *g, const struct cmd *c,
	       const char *path)
{
	const char *sp = *path ? " " : "";

	if (c) {
		fprintf(fp, "usage: mlxcli %s%s%s [options]\n\n%s", path, *c->args ? " " : "", c->args,
			c->summary);
		if (c->alias_of)
			fprintf(fp, " (same as 'mlxcli %s')", c->alias_of);
		fprintf(fp, "\n");
		if (c->flags & CMD_NEEDS_DEVICE)
			fprintf(fp, "It changes a device, so -d DEV is required.\n");
		if (c->opts && c->opts[0].name) {
			fprintf(fp, "\noptions:\n");
			for (const struct cmd_opt *o = c->opts; o->name; o++) {
				char left[64];

				if (o->shortname)
					snprintf(left, sizeof(left), "-%c, --%s%s%s", o->shortname,
						 o->name, o->arg ? " " : "", o->arg ? o->arg : "");
				else
					snprintf(left, sizeof(left), "    --%s%s%s", o->name,
						 o->arg ? " " : "", o->arg ? o->arg : "");
				fprintf(fp, "  %-24s %s\n", left, o->help);
			}
		}
	} else {
		fprintf(fp, "usage: mlxcli %s%sCOMMAND [ARGS] [options]\n\n%s\n\ncommands:\n", path, sp,
			g->summary);
		for (const struct cmd *k = g->cmds; k->name; k++) {
			char left[64];

			if (k->flags & CMD_HIDDEN)
				continue;
			snprintf(left, sizeof(left), "%s%s%s", k->name, *k->args ? " " : "", k->args);
			fprintf(fp, "  %-22s %s\n", left, k->summary);
		}
	}
	fprintf(fp, "\nglobal options (anywhere on the line):\n");
	for (size_t i = 0; i < sizeof(global_opts) / sizeof(global_opts[0]); i++)
		fprintf(fp, "  %-24s %s\n", global_opts[i].opt, global_opts[i].help);
	fprintf(fp, "\nexit status: 0 ok, 1 failed, 2 bad usage or value, 3 no such device,\n"
		    "4 not supported by the driver/firmware, 5 permission denied\n");
	fprintf(fp, "see %s\n", g->man);
	(void)cli;
}

/* Levenshtein distance, small strings only. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), prev[64], cur[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1,
			       sub = prev[j - 1] + (a[i - 1] != b[j - 1]);

			cur[j] = del < ins ? (del < sub ? del : sub) : (ins < sub ? ins : sub);
		}
		memcpy(prev, cur, (lb + 1) * sizeof(*cur));
	}
	return prev[lb];
}

const char *cli_suggest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t bestd = 99, limit = strlen(word) / 3 > 2 ? strlen(word) / 3 : 2;

	for (size_t i = 0; i < n; i++) {
		size_t d = distance(word, cands[i]);

		/* A prefix is a strong hint too ("dev" -> "devices"), but we
		 * only suggest it; we never run it. */
		if (!strncmp(cands[i], word, strlen(word)) && strlen(word) >= 3)
			d = d < 1 ? d : 1;
		if (d < bestd) {
			bestd = d;
			best = cands[i];
		}
	}
	return bestd <= limit ? best : NULL;
}

static const struct cmd *find(const struct cmd *cmds, const char *w)
{
	for (const struct cmd *c = cmds; c->name; c++)
		if (!strcmp(c->name, w))
			return c;
	return NULL;
}

int cmd_help(struct cli *cli, int argc, char **argv)
{
	const struct cmd_group *g = &cli_top;
	const struct cmd *c = NULL;
	char path[128] = "";

	for (int i = 0; i < argc; i++) {
		c = find(g->cmds, argv[i]);
		if (!c) {
			const char *cands[64], *s;
			size_t n = 0;

			for (const struct cmd *k = g->cmds; k->name && n < 64; k++)
				if (!(k->flags & CMD_HIDDEN))
					cands[n++] = k->name;
			cli_error(cli, "no help for '%s': unknown command", argv[i]);
			s = cli_suggest(argv[i], cands, n);
			if (s)
				cli_hint(cli, "did you mean '%s'?", s);
			return EXIT_USAGE;
		}
		if (strlen(path) + strlen(argv[i]) + 2 < sizeof(path)) {
			if (*path)
				strcat(path, " ");
			strcat(path, argv[i]);
		}
		if (c->sub) {
			g = c->sub;
			c = NULL;
		} else if (i + 1 < argc) {
			cli_error(cli, "'%s' has no sub-command '%s'", path, argv[i + 1]);
			return EXIT_USAGE;
		}
	}
	if (out_is_json(cli->out)) {
		cli_error(cli, "'mlxcli help' has no JSON output");
		return EXIT_USAGE;
	}
	cli_usage(cli, cli->out_fp, g, c, path);
	return EXIT_OK;
}

/* ---- completion ---- */

static void emit(struct cli *cli, const char *cand, const char *prefix)
{
	if (!strncmp(cand, prefix, strlen(prefix)))
		fprintf(cli->out_fp, "%s\n", cand);
}

static void complete_devices(struct cli *cli, const char *root, const char *prefix)
{
	struct mlx_ctx *ctx = NULL;
	struct mlx_devices devs;

	if (mlx_ctx_new(root, &ctx, NULL) < 0)
		return;
	if (mlx_devices_scan(ctx, &devs) == 0) {
		for (size_t i = 0; i < devs.nfn; i++) {
			const struct mlx_function *fn = &devs.fn[i];

			emit(cli, fn->bdf, prefix);
			for (size_t k = 0; k < fn->nports; k++)
				emit(cli, fn->ports[k].ifname, prefix);
			for (size_t k = 0; k < fn->nrdma; k++)
				emit(cli, fn->rdma[k].name, prefix);
		}
		mlx_devices_free(&devs);
	}
	mlx_ctx_free(ctx);
}

/*
 * `mlxcli __complete WORD... PARTIAL`: one candidate per line for PARTIAL
 * (the last word, possibly empty).  The bash and zsh scripts in
 * completions/ are thin wrappers around this.
 */
int cmd_complete(struct cli *cli, int argc, char **argv)
{
	const struct cmd_group *g = &cli_top;
	const struct cmd *c = NULL;
	const char *partial = argc ? argv[argc - 1] : "";
	const char *root = "/";
	char samp[4096];

	for (int i = 0; i + 1 < argc; i++) {
		const char *w = argv[i];

		if (!strcmp(w, "-d") || !strcmp(w, "--device")) {
			i++;
			continue;
		}
		if (!strcmp(w, "--sysroot")) {
			if (i + 2 < argc)
				root = argv[i + 1];
			i++;
			continue;
		}
		if (!strncmp(w, "--sysroot=", 10))
			root = w + 10;
		if (!strncmp(w, "--sample", 8)) {
			if (cli_sample_current(w[8] == '=' ? w + 9 : CLI_DEFAULT_SAMPLE, samp,
					       sizeof(samp)) == 0)
				root = samp;
		}
		if (w[0] == '-')
			continue;
		if (c) {
			continue;       /* positional arguments of a command */
		}
		c = find(g->cmds, w);
		if (!c)
			return EXIT_OK;
		if (c->sub) {
			g = c->sub;
			c = NULL;
		}
	}
	if (argc >= 2 && (!strcmp(argv[argc - 2], "-d") || !strcmp(argv[argc - 2], "--device"))) {
		complete_devices(cli, root, partial);
		return EXIT_OK;
	}
	if (argc >= 2 && !strcmp(argv[argc - 2], "--sysroot"))
		return EXIT_OK;     /* the shell completes file names */
	if (partial[0] == '-') {
		for (const char *const *w = global_words; *w; w++)
			emit(cli, *w, partial);
		if (c && c->opts)
			for (const struct cmd_opt *o = c->opts; o->name; o++) {
				char buf[64];

				snprintf(buf, sizeof(buf), "--%s", o->name);
				emit(cli, buf, partial);
			}
		return EXIT_OK;
	}
	if (!c)
		for (const struct cmd *k = g->cmds; k->name; k++)
			if (!(k->flags & CMD_HIDDEN))
				emit(cli, k->name, partial);
	return EXIT_OK;
}
