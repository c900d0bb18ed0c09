/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Help, suggestions and shell completion, all generated from the dispatch
 * tables, so a new command is documented and completed by being added.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dcqcn.h"
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
	{ "-b, --batch FILE", "run the command lines in FILE ('-': stdin), stop at the first failure" },
	{ "    --force", "with -b: run every line, exit with the first failure's status" },
};

/* Long option names for completion. */
static const char *const global_words[] = {
	"--json", "--pretty", "--device", "--sysroot", "--sample", "--verbose", "--help",
	"--version", "--batch", NULL,
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
			/* A long synopsis gets a line of its own. */
			if (strlen(left) > 22)
				fprintf(fp, "  %s\n  %-22s %s\n", left, "", k->summary);
			else
				fprintf(fp, "  %-22s %s\n", left, k->summary);
		}
	}
	fprintf(fp, "\nglobal options (anywhere on the line):\n");
	for (size_t i = 0; i < sizeof(global_opts) / sizeof(global_opts[0]); i++)
		fprintf(fp, "  %-24s %s\n", global_opts[i].opt, global_opts[i].help);
	fprintf(fp, "\nexit status: 0 ok, 1 failed, 2 bad usage or value, 3 no such device,\n"
		    "4 not supported by the driver/firmware, 5 permission denied\n");
	fprintf(fp, "see %s\n", c && c->man ? c->man : g->man);
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

struct emitter {
	void (*fn)(void *data, const char *cand);
	void *data;
	const char *prefix;
};

static void emit(struct emitter *e, const char *cand)
{
	if (!strncmp(cand, e->prefix, strlen(e->prefix)))
		e->fn(e->data, cand);
}

static void complete_devices(struct emitter *e, const char *root)
{
	struct mlx_ctx *ctx = NULL;
	struct mlx_devices devs;

	if (mlx_ctx_new(root, &ctx, NULL) < 0)
		return;
	if (mlx_devices_scan(ctx, &devs) == 0) {
		for (size_t i = 0; i < devs.nfn; i++) {
			const struct mlx_function *fn = &devs.fn[i];

			emit(e, fn->bdf);
			for (size_t k = 0; k < fn->nports; k++)
				emit(e, fn->ports[k].ifname);
			for (size_t k = 0; k < fn->nrdma; k++)
				emit(e, fn->rdma[k].name);
		}
		mlx_devices_free(&devs);
	}
	mlx_ctx_free(ctx);
}

/*
 * Positional arguments that come from a table: DCQCN parameter names in
 * both spellings (mlx5cmd's DcqcnRpgAiRate and the Linux file names), and
 * priorities.  Keyed by command path, so the group tables stay as they are.
 */
enum pos_kind { POS_DCQCN_PAIRS, POS_DCQCN_NAME, POS_PRIO, POS_PRIO_ALL };

static const struct {
	const char *path;
	enum pos_kind kind;
} pos_args[] = {
	{ "qosconfig dcqcn set", POS_DCQCN_PAIRS },
	{ "qosconfig dcqcn describe", POS_DCQCN_NAME },
	{ "qosconfig dcqcn enable", POS_PRIO_ALL },
	{ "qosconfig dcqcn disable", POS_PRIO_ALL },
	{ "qosconfig default-untagged-priority set", POS_PRIO },
};

static void complete_dcqcn_names(struct emitter *e, bool dashed)
{
	size_t n;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&n);
	char buf[80];

	for (size_t i = 0; i < n; i++) {
		if (p[i].mlx5cmd) {
			/* mlx5cmd's own form is "-Name VALUE" (-Set -DcqcnCnpDscp 3). */
			snprintf(buf, sizeof(buf), "%s%s", dashed ? "-" : "", p[i].mlx5cmd);
			emit(e, buf);
		}
		if (dashed)
			continue;
		if (p[i].ofed && p[i].prio < 0)
			emit(e, p[i].ofed);
		if (p[i].debugfs && (!p[i].ofed || strcmp(p[i].ofed, p[i].debugfs)))
			emit(e, p[i].debugfs);
	}
}

static void complete_positional(struct emitter *e, const char *path, int npos)
{
	static const char *const prios[] = { "0", "1", "2", "3", "4", "5", "6", "7", "all" };

	for (size_t i = 0; i < sizeof(pos_args) / sizeof(pos_args[0]); i++) {
		if (strcmp(pos_args[i].path, path))
			continue;
		switch (pos_args[i].kind) {
		case POS_DCQCN_PAIRS:
			if (npos % 2 == 0)
				complete_dcqcn_names(e, e->prefix[0] == '-');
			break;
		case POS_DCQCN_NAME:
			if (npos == 0)
				complete_dcqcn_names(e, false);
			break;
		case POS_PRIO:
		case POS_PRIO_ALL:
			if (npos == 0)
				for (size_t k = 0; k < 8 + (pos_args[i].kind == POS_PRIO_ALL); k++)
					emit(e, prios[k]);
			break;
		}
	}
}

static const struct cmd_opt *find_opt(const struct cmd *c, const char *w, const char **eq)
{
	*eq = NULL;
	if (!c || !c->opts || strncmp(w, "--", 2))
		return NULL;
	for (const struct cmd_opt *o = c->opts; o->name; o++) {
		size_t n = strlen(o->name);

		if (!strncmp(w + 2, o->name, n) && (!w[2 + n] || w[2 + n] == '=')) {
			if (w[2 + n] == '=')
				*eq = w + 3 + n;
			return o;
		}
	}
	return NULL;
}

void cli_complete(int argc, char **argv, void (*fn)(void *data, const char *cand), void *data)
{
	const struct cmd_group *g = &cli_top;
	const struct cmd *c = NULL;
	const struct cmd_opt *o;
	struct emitter e = { fn, data, argc ? argv[argc - 1] : "" };
	const char *root = "/", *eq;
	char samp[4096], path[128] = "";
	bool in_help = false;
	int npos = 0;

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
		if (c && (o = find_opt(c, w, &eq)) && o->arg && !eq) {
			if (i + 2 < argc && !strcmp(argv[i + 1], "="))
				i++;    /* bash's "--names = VALUE" */
			i++;            /* the option's value */
			continue;
		}
		if (w[0] == '-' && !(c && (c->flags & CMD_RAW_ARGS) && w[1] && w[1] != '-'))
			continue;
		if (c) {
			npos++;         /* positional arguments of a command */
			continue;
		}
		c = find(g->cmds, w);
		if (!c)
			return;
		if (!in_help && strlen(path) + strlen(w) + 2 < sizeof(path)) {
			if (*path)
				strcat(path, " ");
			strcat(path, w);
		}
		if (c->sub) {
			g = c->sub;
			c = NULL;
		} else if (c->fn == cmd_help && g == &cli_top && !in_help) {
			/* "help WORD...": the words are command words again. */
			in_help = true;
			c = NULL;
		}
	}
	if (argc >= 2 && (!strcmp(argv[argc - 2], "-d") || !strcmp(argv[argc - 2], "--device"))) {
		complete_devices(&e, root);
		return;
	}
	if (argc >= 2 && !strcmp(argv[argc - 2], "--sysroot"))
		return;         /* the shell completes file names */
	/* The value of an option with choices: "--names ml", "--names=ml", and
	 * "--names = ml" (bash splits words at '=', COMP_WORDBREAKS). */
	if (argc >= 3 && !in_help && !strcmp(argv[argc - 2], "=") &&
	    (o = find_opt(c, argv[argc - 3], &eq)) && o->arg && !eq) {
		for (const char *const *ch = o->choices; ch && *ch; ch++)
			emit(&e, *ch);
		return;
	}
	if (argc >= 2 && !in_help && (o = find_opt(c, argv[argc - 2], &eq)) && o->arg && !eq) {
		for (const char *const *ch = o->choices; ch && *ch; ch++)
			emit(&e, *ch);
		return;
	}
	if (!in_help && (o = find_opt(c, e.prefix, &eq)) && eq) {
		char buf[128];

		for (const char *const *ch = o->choices; ch && *ch; ch++) {
			snprintf(buf, sizeof(buf), "--%s=%s", o->name, *ch);
			emit(&e, buf);
		}
		return;
	}
	if (e.prefix[0] == '-') {
		if (in_help)
			return;
		for (const char *const *w = global_words; *w; w++)
			emit(&e, *w);
		if (c && c->opts)
			for (const struct cmd_opt *k = c->opts; k->name; k++) {
				char buf[64];

				snprintf(buf, sizeof(buf), "--%s", k->name);
				emit(&e, buf);
			}
		if (c && !in_help && (c->flags & CMD_RAW_ARGS))
			complete_positional(&e, path, npos);
		return;
	}
	if (!c) {
		for (const struct cmd *k = g->cmds; k->name; k++)
			if (!(k->flags & CMD_HIDDEN))
				emit(&e, k->name);
		return;
	}
	if (!in_help)
		complete_positional(&e, path, npos);
}

static void print_cand(void *data, const char *cand)
{
	fprintf(data, "%s\n", cand);
}

/*
 * `mlxcli __complete WORD... PARTIAL`: one candidate per line for PARTIAL
 * (the last word, possibly empty).  The bash and zsh scripts in
 * completions/ are thin wrappers around this.
 */
int cmd_complete(struct cli *cli, int argc, char **argv)
{
	cli_complete(argc, argv, print_cand, cli->out_fp);
	return EXIT_OK;
}
