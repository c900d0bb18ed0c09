/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Help and suggestions, generated from the dispatch tables (synopses from
 * the commands' arguments), so a new command is documented by being added;
 * completion from the same tables is cmd/complete.c.
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
	{ "    --wait SEC", "how long a write waits for another writer of the device (default 30)" },
	{ "-v, --verbose", "say more on stderr (twice for debug)" },
	{ "-h, --help", "help for the command given" },
	{ "    --version", "print the version" },
	{ "-b, --batch FILE", "run the command lines in FILE ('-': stdin), stop at the first failure" },
	{ "    --force", "with -b: run every line, exit with the first failure's status" },
};

#define WIDTH 79

/* Print @text from column @col on, wrapped at blanks before WIDTH; the
 * lines after the first start at column @indent.  Never cuts a word. */
static void wrapped(FILE *fp, size_t col, size_t indent, const char *text)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, " ");

		if (p != text && col + 1 + n > WIDTH && col > indent) {
			fprintf(fp, "\n%*s", (int)indent, "");
			col = indent;
		} else if (p != text) {
			fputc(' ', fp);
			col++;
		}
		fprintf(fp, "%.*s", (int)n, p);
		col += n;
		p += n;
		p += strspn(p, " ");
	}
	fputc('\n', fp);
}

static size_t join(char *buf, size_t len, size_t at, const char *s)
{
	int n = snprintf(buf + at, at < len ? len - at : 0, "%s", s);

	return n < 0 ? at : at + (size_t)n;
}

/* "a|b|c" (@sep "|") or "a, b, c" of a choice list. */
static size_t join_list(char *buf, size_t len, size_t at, const char *const *v, const char *sep)
{
	for (size_t i = 0; v && v[i]; i++) {
		if (i)
			at = join(buf, len, at, sep);
		at = join(buf, len, at, v[i]);
	}
	return at;
}

static size_t arg_text(char *buf, size_t len, size_t at, const struct cmd_arg *a, bool brackets)
{
	if (brackets && (a->flags & ARG_OPTIONAL))
		at = join(buf, len, at, "[");
	at = a->name ? join(buf, len, at, a->name) : join_list(buf, len, at, a->choices, "|");
	if (brackets && (a->flags & ARG_OPTIONAL))
		at = join(buf, len, at, "]");
	return at;
}

const char *cli_synopsis(const struct cmd *c, char *buf, size_t len)
{
	const struct cmd_arg *rep = NULL;
	size_t at = 0;

	buf[0] = '\0';
	/* A command that is a group too: its own words are optional. */
	if (c->sub && c->fn) {
		at = join(buf, len, at, "[");
		for (const struct cmd *k = c->sub->cmds; k->name; k++) {
			if (k != c->sub->cmds)
				at = join(buf, len, at, "|");
			at = join(buf, len, at, k->name);
		}
		at = join(buf, len, at, "]");
	}
	if (!c->pos) {
		join(buf, len, at ? join(buf, len, at, *c->args ? " " : "") : at, c->args);
		return buf;
	}
	for (const struct cmd_arg *a = c->pos; !cmd_arg_end(a); a++) {
		if ((a->flags & ARG_REPEAT) && !rep)
			rep = a;
		at = arg_text(buf, len, at ? join(buf, len, at, " ") : at, a, true);
	}
	/* "NAME VALUE [NAME VALUE...]" */
	if (rep) {
		at = join(buf, len, at, " [");
		for (const struct cmd_arg *a = rep; !cmd_arg_end(a); a++)
			at = arg_text(buf, len, a == rep ? at : join(buf, len, at, " "), a, false);
		join(buf, len, at, "...]");
	}
	return buf;
}

/* What a source offers, for help. */
static const char *source_text(enum cmd_source src)
{
	switch (src) {
	case SRC_NONE:
		break;
	case SRC_DEVICES:
		return "a PCI address, netdev or RDMA device ('mlxcli devices')";
	case SRC_NETDEVS:
		return "a netdev of a ConnectX port ('mlxcli ports')";
	case SRC_SAMPLES:
		return "a bundled sample host ('mlxcli sample list')";
	case SRC_INCIDENTS:
		return "an incident ('mlxcli dump-me-now list') or its folder";
	case SRC_DCQCN_NAMES:
		return "a DCQCN parameter, mlx5cmd or Linux name ('mlxcli qosconfig dcqcn describe')";
	case SRC_KNOB_NAMES:
		return "a knob ('mlxcli params info')";
	}
	return "";
}

/* "  LABEL   values" of an argument, or (@label NULL) "values: ..." under
 * an option; wrapped under each other. */
static void values_line(FILE *fp, const char *label, const char *const *choices,
			enum cmd_source src)
{
	char buf[1024];
	size_t at = join_list(buf, sizeof(buf), 0, choices, ", ");

	if (src)
		join(buf, sizeof(buf), at ? join(buf, sizeof(buf), at, "; or ") : at, source_text(src));
	if (!label) {
		/* under an option's help */
		fprintf(fp, "%27svalues: ", "");
		wrapped(fp, 35, 35, buf);
		return;
	}
	if (strlen(label) > 22)
		fprintf(fp, "  %s\n  %-22s ", label, "");
	else
		fprintf(fp, "  %-22s ", label);
	wrapped(fp, 25, 25, buf);
}

static void list_cmds(FILE *fp, const struct cmd_group *g)
{
	char syn[512], left[600];

	for (const struct cmd *k = g->cmds; k->name; k++) {
		if (k->flags & CMD_HIDDEN)
			continue;
		cli_synopsis(k, syn, sizeof(syn));
		snprintf(left, sizeof(left), "%s%s%s", k->name, *syn ? " " : "", syn);
		/* A long synopsis gets lines of its own, wrapped, never cut. */
		if (strlen(left) > 22) {
			fprintf(fp, "  ");
			wrapped(fp, 2, 6, left);
			fprintf(fp, "  %-22s %s\n", "", k->summary);
		} else {
			fprintf(fp, "  %-22s %s\n", left, k->summary);
		}
	}
}

static void usage_cmd(FILE *fp, const struct cmd *c, const char *path)
{
	char syn[512], line[768];
	bool args = false;

	cli_synopsis(c, syn, sizeof(syn));
	snprintf(line, sizeof(line), "usage: mlxcli %s%s%s [options]", path, *syn ? " " : "", syn);
	wrapped(fp, 0, 8, line);
	fprintf(fp, "\n%s", c->summary);
	if (c->alias_of)
		fprintf(fp, " (same as 'mlxcli %s')", c->alias_of);
	fprintf(fp, "\n");
	if (c->flags & CMD_NEEDS_DEVICE)
		fprintf(fp, "It changes a device, so -d DEV is required.\n");
	/* The values of the named arguments (an unnamed one shows its
	 * choices in the synopsis already). */
	for (const struct cmd_arg *a = c->pos; a && !cmd_arg_end(a); a++) {
		if (!a->name || (!a->choices && !a->src) || (a->flags & ARG_KEYWORDS))
			continue;
		if (!args)
			fprintf(fp, "\narguments:\n");
		args = true;
		values_line(fp, a->name, a->choices, a->src);
	}
	if (c->sub && c->fn) {
		fprintf(fp, "\nWithout a command it does the above.\n\ncommands:\n");
		list_cmds(fp, c->sub);
	}
	if ((c->opts && c->opts[0].name) || cli_takes_dry_run(c)) {
		fprintf(fp, "\noptions:\n");
		/* The dispatcher's option of a writing command comes first. */
		for (const struct cmd_opt *o = cli_takes_dry_run(c) ? &cli_dry_run_opt : c->opts;
		     o && o->name; o = o == &cli_dry_run_opt ? c->opts : o + 1) {
			char left[64];

			if (o->shortname)
				snprintf(left, sizeof(left), "-%c, --%s%s%s", o->shortname, o->name,
					 o->arg ? " " : "", o->arg ? o->arg : "");
			else
				snprintf(left, sizeof(left), "    --%s%s%s", o->name, o->arg ? " " : "",
					 o->arg ? o->arg : "");
			fprintf(fp, "  %-24s %s\n", left, o->help);
			if (o->choices || o->src)
				values_line(fp, NULL, o->choices, o->src);
		}
	}
}

void cli_usage(struct cli *cli, FILE *fp, const struct cmd_group *g, const struct cmd *c,
	       const char *path)
{
	const char *sp = *path ? " " : "";

	if (c) {
		usage_cmd(fp, c, path);
	} else {
		fprintf(fp, "usage: mlxcli %s%sCOMMAND [ARGS] [options]\n\n%s\n\ncommands:\n", path, sp,
			g->summary);
		list_cmds(fp, g);
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

int cmd_help(struct cli *cli, int argc, char **argv)
{
	const struct cmd_group *g = &cli_top;
	const struct cmd *c = NULL, *k;
	char path[128] = "";

	for (int i = 0; i < argc; i++) {
		/* After a command, only the words of its group (if it is one). */
		const struct cmd *cmds = c ? (c->sub ? c->sub->cmds : NULL) : g->cmds;

		if (!cmds) {
			cli_error(cli, "'%s' has no sub-command '%s'", path, argv[i]);
			return EXIT_USAGE;
		}
		k = cli_find_cmd(cmds, argv[i]);
		if (!k) {
			const char *cands[64], *s;
			size_t n = 0;

			for (const struct cmd *x = cmds; x->name && n < 64; x++)
				if (!(x->flags & CMD_HIDDEN))
					cands[n++] = x->name;
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
		c = k;
		if (k->sub)
			g = k->sub;
		if (k->sub && !k->fn)
			c = NULL;
	}
	if (out_is_json(cli->out)) {
		cli_error(cli, "'mlxcli help' has no JSON output");
		return EXIT_USAGE;
	}
	cli_usage(cli, cli->out_fp, g, c, path);
	return EXIT_OK;
}
