/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Windows command syntax, rewritten into native argv before the normal
 * parse (mlx_cli_main), so that a line copied from a WinOF-2 manual works:
 *
 *   mlxcli -Qosconfig -Dcqcn -Name IF -Set -DcqcnRpgAiRate 5
 *     -> mlxcli qosconfig dcqcn set -d IF DcqcnRpgAiRate 5
 *   mlxcli show qos 8 0 0        (mlxtool, decimal bus dev func)
 *     -> mlxcli show qos -d "8 0 0"
 *
 * mlx5cmd words are case-insensitive (the manual itself writes both
 * -Qosconfig and -QoSConfig) and the manuals print an en dash (U+2013)
 * where '-' is meant ("–Depth 1"), so both dashes are taken, and the em
 * dash too.  Reference: reference/seeds-mlx5cmd-dcqcn-qos.md §2.
 * Only the verbs below are Windows syntax; every other word keeps its
 * native meaning, so no native command line changes meaning.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "shell.h"

enum win_kind {
	W_MODULE,       /* -Qosconfig: optional, it only names the tool area */
	W_GROUP,        /* -Dcqcn, -DefaultUntaggedPriority: the native group */
	W_NAME,         /* -Name IF: the device */
	W_ACTION,       /* -Get, -Set ...: the native verb; the rest are its args */
	W_MISSING,      /* a real mlx5cmd verb mlxcli has no counterpart for yet */
	W_VERB,         /* -RegKeys, -Features: a whole native command of its own */
	W_VFLAG,        /* -DynamicKeys: a native option of the W_VERB in @only */
};

struct win_word {
	const char *win;        /* as the manual prints it, without the dash */
	enum win_kind kind;
	const char *native;     /* the native word(s) */
	const char *only;       /* W_ACTION: the W_GROUP it needs; NULL: any */
};

/* The table of mlxcli-shell(8) "WINDOWS SYNTAX" (keep the two in step). */
static const struct win_word win_words[] = {
	{ "Qosconfig", W_MODULE, "qosconfig", NULL },
	{ "Dcqcn", W_GROUP, "qosconfig dcqcn", NULL },
	{ "DefaultUntaggedPriority", W_GROUP, "qosconfig default-untagged-priority", NULL },
	{ "Name", W_NAME, "-d", NULL },
	{ "Get", W_ACTION, "get", NULL },
	{ "Set", W_ACTION, "set", NULL },
	{ "Enable", W_ACTION, "enable", "qosconfig dcqcn" },
	{ "Disable", W_ACTION, "disable", "qosconfig dcqcn" },
	{ "Defaults", W_ACTION, "defaults", "qosconfig dcqcn" },
	{ "Restore", W_ACTION, "restore", "qosconfig dcqcn" },
	/* mlx5cmd verbs of other manual sections (seeds 004). */
	/* -Stat: the adapter's status, the RoCE mode both ends must agree on
	 * (seeds 004); -NdStat: the ND (RDMA) connections */
	{ "Stat", W_VERB, "rdma show", NULL },
	{ "NdStat", W_VERB, "rdma qp", NULL },
	{ "Features", W_VERB, "params features", NULL },
	{ "Dbg", W_MISSING, NULL, NULL },
	{ "RegKeys", W_VERB, "params regkeys", NULL },
	{ "DynamicKeys", W_VFLAG, "--dynamic", "params regkeys" },
	{ "Sniffer", W_MISSING, NULL, NULL },
};
#define NWIN (sizeof(win_words) / sizeof(win_words[0]))

/*
 * mlxtool forms with a device argument (seeds-mlxtool-dmn-counters.md
 * §1.2).  The native command is the first of @native that exists in the
 * tables; until one does, the form fails with a clear "not available yet".
 */
struct tool_form {
	const char *words;              /* as mlxtool takes them */
	bool bdf;                       /* B D F (decimal); else an interface */
	const char *native[3];
};

static const struct tool_form tool_forms[] = {
	{ "show qos", true, { "show qos", "qosconfig show", NULL } },
	{ "dbg dump-me-now", true, { "dbg dump-me-now", "dump-me-now", NULL } },
	{ "dbg resources", true, { "dbg resources", "rdma show", NULL } },
	{ "modify tc-bw", false, { "modify tc-bw", "qosconfig tc-bw set", "qosconfig tc-bw" } },
};
#define NFORMS (sizeof(tool_forms) / sizeof(tool_forms[0]))

/* The word after its leading '-', U+2013 or U+2014; NULL when it has none. */
static const char *undash(const char *w)
{
	if (w[0] == '-')
		return w + 1;
	if ((unsigned char)w[0] == 0xe2 && (unsigned char)w[1] == 0x80 &&
	    ((unsigned char)w[2] == 0x93 || (unsigned char)w[2] == 0x94))
		return w + 3;
	return NULL;
}

static const struct win_word *find_win(const char *w)
{
	const char *u = undash(w);

	if (!u)
		return NULL;
	for (size_t i = 0; i < NWIN; i++)
		if (!strcasecmp(u, win_words[i].win))
			return &win_words[i];
	return NULL;
}

/* The closest Windows word to @w (case-insensitive), or NULL. */
static const char *suggest_win(const char *w)
{
	static __thread char low[NWIN][32];
	const char *cands[NWIN], *best;
	char word[64];
	size_t i;

	for (i = 0; i + 1 < sizeof(word) && w[i]; i++)
		word[i] = (char)tolower((unsigned char)w[i]);
	word[i] = '\0';
	for (size_t k = 0; k < NWIN; k++) {
		size_t j;

		for (j = 0; j + 1 < sizeof(low[k]) && win_words[k].win[j]; j++)
			low[k][j] = (char)tolower((unsigned char)win_words[k].win[j]);
		low[k][j] = '\0';
		cands[k] = low[k];
	}
	best = cli_suggest(word, cands, NWIN);
	if (!best)
		return NULL;
	return win_words[(const char (*)[32])best - low].win;
}

static bool is_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/*
 * A native global option (kept as it is, in front of the native words).
 * *takes: it consumes the next word too.
 */
static bool is_global(const char *w, bool *takes)
{
	static const char *const with_value[] = { "--device", "--sysroot", "--batch", NULL };

	*takes = false;
	if (!strcmp(w, "--"))
		return false;
	if (w[0] == '-' && w[1] == '-') {
		for (const char *const *v = with_value; *v; v++)
			if (!strcmp(w, *v))
				*takes = true;
		return true;
	}
	/* -j, -p, -v, -h and clusters of them: no mlx5cmd word is that short. */
	if (w[0] == '-' && w[1] && strlen(w) <= 3 && strspn(w + 1, "jpvh") == strlen(w + 1))
		return true;
	return false;
}

const struct cmd *cli_lookup(const struct cmd_group *top, const char *path)
{
	const struct cmd_group *g = top;
	const struct cmd *c = NULL;
	char buf[128], *save = NULL;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return NULL;
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (!g)
			return NULL;
		c = cli_find_cmd(g->cmds, w);
		if (!c)
			return NULL;
		g = c->sub;
	}
	return c && c->fn ? c : NULL;
}

static int add_path(struct cli_words *o, const char *path)
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (cli_words_add(o, w) < 0)
			return -ENOMEM;
	return 0;
}

static int fail(struct cli *cli, struct cli_words *o)
{
	cli_words_free(o);
	return CLI_COMPAT_FAILED;
}

/* mlxtool: "show qos B D F", "dbg dump-me-now B D F", "modify tc-bw IF ...". */
static int map_tool(struct cli *cli, const struct cmd_group *top, int argc, char **argv, int k,
		    struct cli_words *o)
{
	for (size_t f = 0; f < NFORMS; f++) {
		const struct tool_form *tf = &tool_forms[f];
		const char *sp = strchr(tf->words, ' ');
		size_t n1 = (size_t)(sp - tf->words);
		const char *native = NULL, *pos[64], *glob[64];
		char dev[64];
		int rest, np, ng;

		if (k + 1 >= argc || strlen(argv[k]) != n1 || strncmp(argv[k], tf->words, n1) ||
		    strcmp(argv[k + 1], sp + 1))
			continue;
		/* The words after the form; native global options ("-j",
		 * "--sample") may stand anywhere and are kept aside. */
		np = ng = 0;
		for (int i = k + 2; i < argc && np < 64 && ng < 64; i++) {
			bool takes;

			if (is_global(argv[i], &takes)) {
				glob[ng++] = argv[i];
				if (takes && i + 1 < argc)
					glob[ng++] = argv[++i];
			} else {
				pos[np++] = argv[i];
			}
		}
		rest = 0;
		if (tf->bdf) {
			/* Exactly the mlxtool form: three decimal words. */
			if (np != 3 || !is_digits(pos[0]) || !is_digits(pos[1]) || !is_digits(pos[2]))
				return CLI_COMPAT_NONE;
			snprintf(dev, sizeof(dev), "%s %s %s", pos[0], pos[1], pos[2]);
			rest = 3;
		} else {
			if (np < 3 || pos[0][0] == '-')
				return CLI_COMPAT_NONE;
			snprintf(dev, sizeof(dev), "%s", pos[0]);
			rest = 1;
		}
		for (size_t i = 0; i < 3 && tf->native[i] && !native; i++) {
			const struct cmd *c = cli_lookup(top, tf->native[i]);

			if (!c)
				continue;
			/* The native command takes mlxtool's words itself
			 * ("modify tc-bw IFNAME ...", "dbg dump-me-now B D F"):
			 * nothing to rewrite. */
			if (!strcmp(tf->native[i], tf->words) && (c->max_args < 0 || c->max_args >= np))
				return CLI_COMPAT_NONE;
			native = tf->native[i];
		}
		if (!native) {
			cli_error(cli, "mlxtool's '%s' is not available yet in mlxcli", tf->words);
			cli_hint(cli, "'mlxcli help' lists what there is");
			return fail(cli, o);
		}
		if (add_path(o, native) < 0 || cli_words_add(o, "-d") < 0 || cli_words_add(o, dev) < 0)
			return fail(cli, o);
		for (int i = rest; i < np; i++)
			if (cli_words_add(o, pos[i]) < 0)
				return fail(cli, o);
		for (int i = 0; i < ng; i++)
			if (cli_words_add(o, glob[i]) < 0)
				return fail(cli, o);
		return CLI_COMPAT_MAPPED;
	}
	return CLI_COMPAT_NONE;
}

/* mlx5cmd -RegKeys [-DynamicKeys] [-Name IF], -Features [-Name IF]: the
 * native command @verb with its options and -d IF, the words in any order. */
static int map_verb(struct cli *cli, const struct win_word *verb, int argc, char **argv, int k,
		    struct cli_words *o)
{
	if (add_path(o, verb->native) < 0)
		return fail(cli, o);
	for (int i = k; i < argc; i++) {
		const struct win_word *w = find_win(argv[i]);
		bool takes;

		if (!w && is_global(argv[i], &takes)) {
			if (cli_words_add(o, argv[i]) < 0 ||
			    (takes && i + 1 < argc && cli_words_add(o, argv[++i]) < 0))
				return fail(cli, o);
			continue;
		}
		if (!w && !strcmp(argv[i], "-d"))
			w = &win_words[3];
		if (w == verb)
			continue;
		if (w && w->kind == W_NAME) {
			if (i + 1 >= argc) {
				cli_error(cli, "'%s' needs a network adapter name", argv[i]);
				return fail(cli, o);
			}
			if (cli_words_add(o, "-d") < 0 || cli_words_add(o, argv[++i]) < 0)
				return fail(cli, o);
			continue;
		}
		if (w && w->kind == W_VFLAG && !strcmp(w->only, verb->native)) {
			if (cli_words_add(o, w->native) < 0)
				return fail(cli, o);
			continue;
		}
		cli_error(cli, "unexpected '%s' after mlx5cmd's '-%s'", argv[i], verb->win);
		cli_hint(cli, "mlxcli-shell(8) lists the mlx5cmd syntax mlxcli takes");
		return fail(cli, o);
	}
	return CLI_COMPAT_MAPPED;
}

/* mlx5cmd: [-Qosconfig] -Dcqcn|-DefaultUntaggedPriority -Name IF -ACTION ARGS. */
static int map_mlx5cmd(struct cli *cli, const struct cmd_group *top, int argc, char **argv,
		       int k, struct cli_words *o)
{
	const struct win_word *group = NULL, *action = NULL;
	const char *name = NULL;
	char path[128];
	int i;

	/* A command of its own (-RegKeys, -Features): its words in any order. */
	for (i = k; i < argc; i++) {
		const struct win_word *w = find_win(argv[i]);

		if (w && w->kind == W_VERB)
			return map_verb(cli, w, argc, argv, k, o);
	}
	for (i = k; i < argc && !action; i++) {
		const struct win_word *w = find_win(argv[i]);
		bool takes;

		if (!w && is_global(argv[i], &takes)) {
			if (cli_words_add(o, argv[i]) < 0 ||
			    (takes && i + 1 < argc && cli_words_add(o, argv[++i]) < 0))
				return fail(cli, o);
			continue;
		}
		if (!w && !strcmp(argv[i], "-d"))
			w = &win_words[3];      /* the native -d DEV means -Name DEV */
		if (!w) {
			const char *u = undash(argv[i]), *s = u ? suggest_win(u) : NULL;

			if (u)
				cli_error(cli, "unknown mlx5cmd word '%s'", argv[i]);
			else
				cli_error(cli, "unexpected '%s' in an mlx5cmd command line", argv[i]);
			if (s)
				cli_hint(cli, "did you mean '-%s'?", s);
			cli_hint(cli, "mlxcli-shell(8) lists the mlx5cmd syntax mlxcli takes");
			return fail(cli, o);
		}
		switch (w->kind) {
		case W_MODULE:
			break;
		case W_GROUP:
			if (group && group != w) {
				cli_error(cli, "'-%s' and '-%s' in one mlx5cmd command", group->win,
					  w->win);
				return fail(cli, o);
			}
			group = w;
			break;
		case W_NAME:
			if (i + 1 >= argc) {
				cli_error(cli, "'%s' needs a network adapter name", argv[i]);
				return fail(cli, o);
			}
			name = argv[++i];
			break;
		case W_ACTION:
			action = w;
			break;
		case W_MISSING:
			cli_error(cli, "mlx5cmd's '-%s' is not available yet in mlxcli", w->win);
			if (w->native)
				cli_hint(cli, "'mlxcli %s' shows part of it", w->native);
			cli_hint(cli, "'mlxcli help' lists what there is");
			return fail(cli, o);
		case W_VERB:            /* taken above */
		case W_VFLAG:
			cli_error(cli, "mlx5cmd's '-%s' goes with '-RegKeys'", w->win);
			return fail(cli, o);
		}
	}
	if (!group) {
		cli_error(cli, "an mlx5cmd -Qosconfig command needs -Dcqcn or -DefaultUntaggedPriority");
		return fail(cli, o);
	}
	if (!action) {
		cli_error(cli, "the mlx5cmd command needs an action: -Get, -Set%s",
			  strcmp(group->win, "Dcqcn") ? "" :
			  ", -Enable, -Disable, -Defaults or -Restore");
		return fail(cli, o);
	}
	if (action->only && strcmp(action->only, group->native)) {
		cli_error(cli, "'-%s' is not an action of '-%s'", action->win, group->win);
		return fail(cli, o);
	}
	snprintf(path, sizeof(path), "%s %s", group->native, action->native);
	if (!cli_lookup(top, path)) {
		cli_error(cli, "mlx5cmd's '-%s -%s' is not available yet in mlxcli", group->win,
			  action->win);
		return fail(cli, o);
	}
	if (add_path(o, path) < 0)
		return fail(cli, o);
	/* The action's own words; "-Name IF" may still come after it. */
	for (int pos = 0; i < argc; i++) {
		const struct win_word *w = find_win(argv[i]);
		const char *u;
		bool takes;

		if (w && w->kind == W_NAME && i + 1 < argc && !name) {
			name = argv[++i];
			continue;
		}
		/* -Set -DcqcnClampTgtRate 1: the parameter name loses its dash
		 * (any dash), so the native parser sees a plain NAME. */
		if (is_global(argv[i], &takes)) {
			/* "-j", "--sample": native global options stay as they are. */
			if (cli_words_add(o, argv[i]) < 0 ||
			    (takes && i + 1 < argc && cli_words_add(o, argv[++i]) < 0))
				return fail(cli, o);
			continue;
		}
		u = undash(argv[i]);
		if (!strcmp(action->native, "set") && pos % 2 == 0 && u && isalpha((unsigned char)*u) &&
		    !strcmp(group->win, "Dcqcn")) {
			if (cli_words_add(o, u) < 0)
				return fail(cli, o);
		} else if (cli_words_add(o, argv[i]) < 0) {
			return fail(cli, o);
		}
		pos++;
	}
	if (name && (cli_words_add(o, "-d") < 0 || cli_words_add(o, name) < 0))
		return fail(cli, o);
	return CLI_COMPAT_MAPPED;
}

int cli_compat_map(const struct cmd_group *top, int argc, char **argv, struct cli_words *out,
		   FILE *err)
{
	struct cli cli;
	int k = 1, r;

	memset(&cli, 0, sizeof(cli));
	cli.err_fp = err;
	memset(out, 0, sizeof(*out));
	if (argc < 2)
		return CLI_COMPAT_NONE;
	/* Native global options may come first ("mlxcli --sample -Qosconfig ..."). */
	while (k < argc) {
		bool takes;

		if (!is_global(argv[k], &takes))
			break;
		k += takes ? 2 : 1;
	}
	if (k >= argc)
		return CLI_COMPAT_NONE;
	if (cli_words_add(out, argv[0]) < 0)
		return fail(&cli, out);
	for (int i = 1; i < k; i++)
		if (cli_words_add(out, argv[i]) < 0)
			return fail(&cli, out);

	if (!undash(argv[k])) {
		r = map_tool(&cli, top, argc, argv, k, out);
		if (r == CLI_COMPAT_NONE)
			cli_words_free(out);
		return r;
	}
	/* A dash and a letter: Windows syntax when the word is an mlx5cmd
	 * verb, or when it cannot be native (en dash; a long single-dash
	 * word close to a verb, such as "-Qosconfg"). */
	{
		const char *u = undash(argv[k]);
		const struct win_word *w = find_win(argv[k]);

		if (!isalpha((unsigned char)*u)) {
			cli_words_free(out);
			return CLI_COMPAT_NONE;
		}
		if (!w) {
			const char *s = strlen(u) >= 4 ? suggest_win(u) : NULL;

			if (argv[k][0] == '-' && !s) {
				cli_words_free(out);
				return CLI_COMPAT_NONE;
			}
			cli_error(&cli, "unknown mlx5cmd command '%s'", argv[k]);
			if (s)
				cli_hint(&cli, "did you mean '-%s'?", s);
			cli_hint(&cli, "mlxcli-shell(8) lists the mlx5cmd syntax mlxcli takes");
			return fail(&cli, out);
		}
		if (w->kind != W_MODULE && w->kind != W_GROUP && w->kind != W_MISSING &&
		    w->kind != W_VERB) {
			cli_words_free(out);
			return CLI_COMPAT_NONE;
		}
	}
	return map_mlx5cmd(&cli, top, argc, argv, k, out);
}

/* ---- completion of the mlx5cmd syntax ---- */

static bool is_name_word(const char *w)
{
	const struct win_word *x = find_win(w);

	return !strcmp(w, "-d") || (x && x->kind == W_NAME);
}

bool cli_compat_complete(struct completion *cp, int argc, char **argv)
{
	const struct win_word *group = NULL, *action = NULL, *w;
	bool named = false, takes;
	int k = 0, pos = 0;
	char buf[160];

	/* Native global options may come first (bash splits "--sample=X"). */
	while (k + 1 < argc && is_global(argv[k], &takes)) {
		k += takes ? 2 : 1;
		if (k + 2 < argc && !strcmp(argv[k], "="))
			k += 2;
	}
	if (k + 1 >= argc) {
		/* The first word: mlx5cmd's module word is one too. */
		if (cp->partial[0] == '-' && cp->partial[1] != '-') {
			cli_complete_add(cp, "-Qosconfig");
			for (size_t i = 0; i < NWIN; i++)
				if (win_words[i].kind == W_VERB) {
					snprintf(buf, sizeof(buf), "-%s", win_words[i].win);
					cli_complete_add(cp, buf);
				}
		}
		return false;
	}
	w = find_win(argv[k]);
	if (w && w->kind == W_VERB) {
		/* -RegKeys [-DynamicKeys] [-Name IF] */
		if (argc >= 2 && is_name_word(argv[argc - 2])) {
			cli_complete_source(cp, SRC_NETDEVS);
			return true;
		}
		for (size_t i = 0; i < NWIN; i++)
			if (win_words[i].kind == W_NAME ||
			    (win_words[i].kind == W_VFLAG && !strcmp(win_words[i].only, w->native))) {
				snprintf(buf, sizeof(buf), "-%s", win_words[i].win);
				cli_complete_add(cp, buf);
			}
		return true;
	}
	if (!w || (w->kind != W_MODULE && w->kind != W_GROUP))
		return false;
	for (int i = k; i + 1 < argc; i++) {
		w = is_name_word(argv[i]) ? &win_words[3] : find_win(argv[i]);
		if (!w && is_global(argv[i], &takes)) {
			i += takes;
			continue;
		}
		if (!w || action) {
			pos += !!action;        /* the action's own words */
			continue;
		}
		if (w->kind == W_GROUP)
			group = w;
		else if (w->kind == W_NAME) {
			named = true;
			i++;                    /* its value */
		}
		else if (w->kind == W_ACTION)
			action = w;
	}
	if (argc >= 2 && is_name_word(argv[argc - 2])) {
		cli_complete_source(cp, SRC_NETDEVS);
		return true;
	}
	if (action) {
		/* -Set -DcqcnRpgAiRate 5 -DcqcnRpgHaiRate 50 */
		if (group && !strcmp(group->win, "Dcqcn") && !strcmp(action->native, "set") &&
		    pos % 2 == 0) {
			cp->dashed = true;
			cli_complete_source(cp, SRC_DCQCN_NAMES);
		}
		if (!named)
			cli_complete_add(cp, "-Name");
		return true;
	}
	/* Before the action: the words still missing, the actions the group
	 * has in the native tables. */
	for (size_t i = 0; i < NWIN; i++) {
		const struct win_word *x = &win_words[i];

		if ((x->kind == W_GROUP && !group) || (x->kind == W_NAME && !named)) {
			snprintf(buf, sizeof(buf), "-%s", x->win);
			cli_complete_add(cp, buf);
		}
		if (x->kind != W_ACTION || !group || (x->only && strcmp(x->only, group->native)))
			continue;
		snprintf(buf, sizeof(buf), "%s %s", group->native, x->native);
		if (!cli_lookup(&cli_top, buf))
			continue;
		snprintf(buf, sizeof(buf), "-%s", x->win);
		cli_complete_add(cp, buf);
	}
	return true;
}
