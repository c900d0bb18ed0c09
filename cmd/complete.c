/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shell completion, generated from the dispatch tables: command words from
 * the groups, option names and their values from cmd_opt, positional words
 * from cmd_arg (a fixed list, or a source read now: the devices of the
 * system named on the line, the sample hosts, the incidents, lib's DCQCN
 * table).  `mlxcli __complete`, the bash and zsh scripts and the shell's
 * TAB all end here, so a command is completed by being in a table.
 */
#include "config.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "params.h"
#include "dcqcn.h"
#include "dmn.h"
#include "mlx.h"
#include "shell.h"

/* Long option names for completion. */
static const char *const global_words[] = {
	"--json", "--pretty", "--device", "--sysroot", "--sample", "--verbose", "--help",
	"--version", "--batch", "--wait", NULL,
};

void cli_complete_add(struct completion *cp, const char *cand)
{
	char buf[512];

	if (cp->deco && *cp->deco) {
		snprintf(buf, sizeof(buf), "%s%s", cp->deco, cand);
		cand = buf;
	}
	if (!strncmp(cand, cp->partial, strlen(cp->partial)))
		cp->fn(cp->data, cand);
}

static void add_list(struct completion *cp, const char *const *v)
{
	for (; v && *v; v++)
		cli_complete_add(cp, *v);
}

static void devices(struct completion *cp, bool netdevs_only)
{
	struct mlx_ctx *ctx = NULL;
	struct mlx_devices devs;

	if (mlx_ctx_new(cp->root, &ctx, NULL) < 0)
		return;
	if (mlx_devices_scan(ctx, &devs) == 0) {
		for (size_t i = 0; i < devs.nfn; i++) {
			const struct mlx_function *fn = &devs.fn[i];

			if (!netdevs_only)
				cli_complete_add(cp, fn->bdf);
			for (size_t k = 0; k < fn->nports; k++)
				if (fn->ports[k].ifname[0])
					cli_complete_add(cp, fn->ports[k].ifname);
			for (size_t k = 0; k < fn->nrdma && !netdevs_only; k++)
				cli_complete_add(cp, fn->rdma[k].name);
		}
		mlx_devices_free(&devs);
	}
	mlx_ctx_free(ctx);
}

/* The sample hosts: the directories of the samples folder. */
static void samples(struct completion *cp)
{
	DIR *d = opendir(cli_samples_dir());
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char p[4096];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", cli_samples_dir(), de->d_name);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			cli_complete_add(cp, de->d_name);
	}
	closedir(d);
}

/* The incidents in the dump root this line would use (--dir, the config). */
static void incidents(struct completion *cp)
{
	struct mlx_dmn_entry *e = NULL;
	struct cli cli;
	char dir[4096];
	size_t n = 0;

	int nopts = 0;

	memset(&cli, 0, sizeof(cli));
	cli.cmd = cp->cmd;
	while (cp->cmd && cp->cmd->opts && cp->cmd->opts[nopts].name)
		nopts++;
	cli.optval = calloc(nopts ? (size_t)nopts : 1, sizeof(*cli.optval));
	cli.err_fp = fopen("/dev/null", "we");
	if (!cli.err_fp || !cli.optval) {
		if (cli.err_fp)
			fclose(cli.err_fp);
		free(cli.optval);
		return;
	}
	for (int i = 0; i < nopts; i++)
		for (int k = 0; k < cp->nopt; k++)
			if (!strcmp(cp->optname[k], cp->cmd->opts[i].name))
				cli.optval[i] = cp->optval[k];
	if (cli_dmn_root(&cli, dir, sizeof(dir)) == EXIT_OK && mlx_dmn_list(dir, &e, &n) == 0) {
		for (size_t i = 0; i < n; i++)
			cli_complete_add(cp, e[i].name);
		free(e);
	}
	fclose(cli.err_fp);
	free(cli.optval);
}

/* DCQCN parameter names in both spellings; mlx5cmd's own "-Name VALUE"
 * form (-Set -DcqcnCnpDscp 3) when the word begins with a dash. */
static void dcqcn_names(struct completion *cp)
{
	bool dashed = cp->dashed || cp->partial[0] == '-';
	size_t n;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&n);
	char buf[80];

	for (size_t i = 0; i < n; i++) {
		if (p[i].mlx5cmd) {
			snprintf(buf, sizeof(buf), "%s%s", dashed ? "-" : "", p[i].mlx5cmd);
			cli_complete_add(cp, buf);
		}
		if (dashed)
			continue;
		if (p[i].ofed && p[i].prio < 0)
			cli_complete_add(cp, p[i].ofed);
		if (p[i].debugfs && (!p[i].ofed || strcmp(p[i].ofed, p[i].debugfs)))
			cli_complete_add(cp, p[i].debugfs);
	}
}

/*
 * Knob names, or after "NAME=" the values the catalogue lists for it (a
 * bool's on/off, a string knob's choices) as "NAME=VALUE": the same source
 * serves `params show KNOB...` and `params set NAME=VALUE...`.
 */
static void knobs(struct completion *cp)
{
	const char *eq = strchr(cp->partial, '=');
	static const char *const onoff[] = { "on", "off", NULL };
	char buf[160];

	for (size_t i = 0; i < mlx_nknobs; i++) {
		const struct mlx_knob *k = &mlx_knobs[i];
		const char *const *v = k->type == MLX_KT_BOOL ? onoff : k->choices;

		if (!eq) {
			cli_complete_add(cp, k->name);
			continue;
		}
		if (strlen(k->name) != (size_t)(eq - cp->partial) ||
		    strncmp(k->name, cp->partial, (size_t)(eq - cp->partial)))
			continue;
		for (; v && *v; v++) {
			snprintf(buf, sizeof(buf), "%s=%s", k->name, *v);
			cli_complete_add(cp, buf);
		}
	}
}

void cli_complete_source(struct completion *cp, enum cmd_source src)
{
	switch (src) {
	case SRC_NONE:
		break;
	case SRC_DEVICES:
		devices(cp, false);
		break;
	case SRC_NETDEVS:
		devices(cp, true);
		break;
	case SRC_SAMPLES:
		samples(cp);
		break;
	case SRC_INCIDENTS:
		incidents(cp);
		break;
	case SRC_DCQCN_NAMES:
		dcqcn_names(cp);
		break;
	case SRC_KNOB_NAMES:
		knobs(cp);
		break;
	}
}

/* The argument at positional index @npos (0-based), or NULL. */
static const struct cmd_arg *arg_at(const struct cmd *c, int npos)
{
	int n = 0, rep = -1;

	for (const struct cmd_arg *a = c->pos; a && !cmd_arg_end(a); a++, n++) {
		if ((a->flags & ARG_KEYWORDS) && n <= npos)
			return a;
		if ((a->flags & ARG_REPEAT) && rep < 0)
			rep = n;
	}
	if (npos < n)
		return &c->pos[npos];
	if (rep >= 0)
		return &c->pos[rep + (npos - rep) % (n - rep)];
	return NULL;
}

static void arg_values(struct completion *cp, const struct cmd_arg *a)
{
	if (!a)
		return;
	add_list(cp, a->choices);
	cli_complete_source(cp, a->src);
}

/* The value of option @o; @typed: what is typed of it so far. */
static void opt_values(struct completion *cp, const struct cmd_opt *o, const char *deco,
		       const char *typed)
{
	char buf[256];
	const char *comma = (o->flags & OPT_LIST) ? strrchr(typed, ',') : NULL;

	/* A list: complete the element after the last comma, keeping the
	 * ones before it ("--group port,vp" -> "port,vport"). */
	snprintf(buf, sizeof(buf), "%s%.*s", deco, comma ? (int)(comma + 1 - typed) : 0, typed);
	cp->deco = buf;
	add_list(cp, o->choices);
	cli_complete_source(cp, o->src);
	cp->deco = NULL;
}

static const struct cmd_opt *find_opt(const struct cmd *c, const char *w, const char **eq)
{
	*eq = NULL;
	if (!c || !c->opts || w[0] != '-')
		return NULL;
	for (const struct cmd_opt *o = c->opts; o->name; o++) {
		size_t n = strlen(o->name);

		if (w[1] != '-') {
			if (o->shortname && w[1] == o->shortname && !w[2])
				return o;       /* "-g port" */
			continue;
		}
		if (!strncmp(w + 2, o->name, n) && (!w[2 + n] || w[2 + n] == '=')) {
			if (w[2 + n] == '=')
				*eq = w + 3 + n;
			return o;
		}
	}
	return NULL;
}

/*
 * The system the line names (--sysroot DIR, --sample[=NAME]), bash's
 * split "--sample = NAME" included.  @buf holds a sample's tree.
 */
static const char *line_root(int argc, char **argv, char *buf, size_t len)
{
	const char *root = "/";

	for (int i = 0; i + 1 < argc; i++) {
		const char *w = argv[i], *name = NULL;

		if (!strcmp(w, "--sysroot") && i + 2 < argc)
			root = argv[++i];
		else if (!strncmp(w, "--sysroot=", 10))
			root = w + 10;
		else if (!strcmp(w, "--sample") && i + 3 < argc && !strcmp(argv[i + 1], "="))
			name = argv[i += 2];
		else if (!strcmp(w, "--sample"))
			name = CLI_DEFAULT_SAMPLE;
		else if (!strncmp(w, "--sample=", 9))
			name = w + 9;
		if (name && cli_sample_current(name, buf, len) == 0)
			root = buf;
	}
	return root;
}

/* Go into command @k: a group's words continue in it. */
static void enter(const struct cmd_group **g, const struct cmd **c, const struct cmd *k)
{
	*c = k;
	if (k->sub && !k->fn) {
		*g = k->sub;
		*c = NULL;
	} else if (k->sub) {
		*g = k->sub;
	}
}

static void command_words(struct completion *cp, const struct cmd_group *g)
{
	for (const struct cmd *k = g->cmds; k->name; k++)
		if (!(k->flags & CMD_HIDDEN))
			cli_complete_add(cp, k->name);
}

static void complete_line(struct completion *cp, int argc, char **argv)
{
	const struct cmd_group *g = &cli_top;
	const struct cmd *c = NULL, *k;
	const struct cmd_opt *o;
	const char *eq, *prev = argc >= 2 ? argv[argc - 2] : "";
	char samp[4096];
	bool in_help = false;
	int npos = 0;

	cp->root = line_root(argc, argv, samp, sizeof(samp));
	/* mlx5cmd's syntax (-Qosconfig -Dcqcn ...) has words of its own. */
	if (cli_compat_complete(cp, argc, argv))
		return;
	for (int i = 0; i + 1 < argc; i++) {
		const char *w = argv[i];

		if (!strcmp(w, "-d") || !strcmp(w, "--device") || !strcmp(w, "--sysroot") ||
		    !strcmp(w, "--wait")) {
			i++;
			continue;
		}
		if (!strcmp(w, "--sample") && i + 2 < argc && !strcmp(argv[i + 1], "=")) {
			i += 2;
			continue;
		}
		if (!in_help && (o = find_opt(c, w, &eq)) && o->arg) {
			const char *v = eq;

			if (!eq && i + 2 < argc && !strcmp(argv[i + 1], "="))
				i++;    /* bash's "--names = VALUE" */
			if (!eq && i + 2 < argc)
				v = argv[++i];  /* the option's value */
			if (v) {
				cp->optname[cp->nopt] = o->name;
				cp->optval[cp->nopt++] = v;
			}
			continue;
		}
		if (w[0] == '-' && !(c && (c->flags & CMD_RAW_ARGS) && w[1] && w[1] != '-'))
			continue;
		if (c && !in_help) {
			/* A sub-command of a command that is a group too. */
			if (c->sub && npos == 0 && (k = cli_find_cmd(c->sub->cmds, w)))
				enter(&g, &c, k);
			else
				npos++;         /* positional arguments of a command */
			continue;
		}
		k = cli_find_cmd(g->cmds, w);
		if (!k)
			return;
		if (k->fn == cmd_help && g == &cli_top && !in_help) {
			/* "help WORD...": the words are command words again. */
			in_help = true;
			continue;
		}
		enter(&g, &c, k);
		if (in_help && c && !c->sub)
			return;         /* help takes no words after a command */
		if (in_help)
			c = NULL;
	}
	cp->cmd = c;
	if (!strcmp(prev, "-d") || !strcmp(prev, "--device")) {
		cli_complete_source(cp, SRC_DEVICES);
		return;
	}
	if (!strcmp(prev, "--sysroot"))
		return;         /* the shell completes file names */
	if (!strcmp(prev, "--wait"))
		return;         /* seconds: nothing to offer */
	/* --sample=NAME: the attached form only ("--sample devices" is the
	 * default sample); bash hands it over as "--sample" "=" "NAME". */
	if (argc >= 3 && !strcmp(prev, "=") && !strcmp(argv[argc - 3], "--sample")) {
		cli_complete_source(cp, SRC_SAMPLES);
		return;
	}
	if (!strncmp(cp->partial, "--sample=", 9)) {
		cp->deco = "--sample=";
		cli_complete_source(cp, SRC_SAMPLES);
		return;
	}
	/* The value of an option: "--names ml", "--names=ml", and "--names =
	 * ml" (bash splits words at '=', COMP_WORDBREAKS). */
	if (!in_help && argc >= 3 && !strcmp(prev, "=") &&
	    (o = find_opt(c, argv[argc - 3], &eq)) && o->arg && !eq) {
		opt_values(cp, o, "", cp->partial);
		return;
	}
	if (!in_help && (o = find_opt(c, prev, &eq)) && o->arg && !eq) {
		opt_values(cp, o, "", cp->partial);
		return;
	}
	if (!in_help && (o = find_opt(c, cp->partial, &eq)) && eq) {
		char deco[80];

		snprintf(deco, sizeof(deco), "--%s=", o->name);
		opt_values(cp, o, deco, eq);
		return;
	}
	if (cp->partial[0] == '-') {
		if (in_help)
			return;
		add_list(cp, global_words);
		if (c && cli_takes_dry_run(c))
			cli_complete_add(cp, "--dry-run");
		if (c && c->opts)
			for (const struct cmd_opt *x = c->opts; x->name; x++) {
				char buf[64];

				snprintf(buf, sizeof(buf), "--%s", x->name);
				cli_complete_add(cp, buf);
			}
		if (c && (c->flags & CMD_RAW_ARGS))
			arg_values(cp, arg_at(c, npos));
		return;
	}
	if (!c || in_help) {
		command_words(cp, g);
		return;
	}
	if (c->sub && npos == 0)
		command_words(cp, c->sub);
	arg_values(cp, arg_at(c, npos));
}

void cli_complete(int argc, char **argv, void (*fn)(void *data, const char *cand), void *data)
{
	struct completion cp = { .fn = fn, .data = data, .partial = argc ? argv[argc - 1] : "" };

	/* every option of the line may have a value: room for each word */
	cp.optname = calloc((size_t)argc + 1, sizeof(*cp.optname));
	cp.optval = calloc((size_t)argc + 1, sizeof(*cp.optval));
	if (cp.optname && cp.optval)
		complete_line(&cp, argc, argv);
	free(cp.optname);
	free(cp.optval);
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
