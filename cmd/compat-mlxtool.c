/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mlxtool's positional forms (WinOF's mlxtool; reference/seeds-mlxtool-
 * dmn-counters.md §1.2), rewritten into native argv:
 *
 *   dbg get-state 94 0 0        -> dbg get-state -d "94 0 0"
 *   dbg pddrinfo 94 0 0 1       -> dbg pddrinfo -d "94 0 0"
 *   show selfhealing port IF    -> show selfhealing port -d IF
 *   show perfstats IF RXD 5     -> counters watch -d IF --group queue ...
 *   show device list            -> devices
 *   dbg help mstdump            -> help dbg mstdump
 *   show nd connections -p PID  -> show nd connections --pid PID
 *
 * "B D F" is mlxtool's: three decimal words (Device Manager's "PCI bus 130,
 * device 0, function 0"); it goes to -d as one word, and the device
 * selection (lib/core/select.c) reads it, so nothing here parses an
 * address.  A form the native command takes itself ("dbg pkeys IF", "dbg
 * dump-me-now B D F") is left alone.  Forms Linux has nothing for say what
 * it has instead, exit 4.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compat.h"

enum tool_shape {
	T_BDF,          /* [B D F]: -d "B D F" */
	T_BDF_PORT,     /* [B D F [PORT]]: the port must be 1 (a port is a function) */
	T_IF,           /* [IF]: -d IF */
	T_IF_ARGS,      /* IF ARGS...: -d IF ARGS */
	T_WORDS,        /* other words for the same ("show device list": "devices") */
	T_PERFSTATS,    /* [IF] RX|TX|RXD S|TXD S|...|ShowAll */
	T_ELSEWHERE,    /* nothing on Linux: exit 4, @native[0] says what there is */
};

struct tool_form {
	const char *words;              /* as mlxtool takes them */
	enum tool_shape shape;
	/* the native command: the first of these the tables have */
	const char *native[3];
};

/* The table of mlxcli-shell(8) "Windows syntax" (keep the two in step;
 * tests/cli/compat-table.sh runs every row of the page). */
static const struct tool_form tool_forms[] = {
	{ "show qos", T_BDF, { "show qos", "qosconfig show", NULL } },
	{ "dbg dump-me-now", T_BDF, { "dbg dump-me-now", "dump-me-now", NULL } },
	{ "dbg resources", T_BDF, { "dbg resources", "rdma show", NULL } },
	{ "dbg get-state", T_BDF, { "dbg get-state", NULL } },
	{ "dbg mstdump", T_BDF, { "dbg mstdump", NULL } },
	{ "dbg sw-reset", T_BDF, { "dbg sw-reset", NULL } },
	{ "dbg cmd-stats", T_BDF, { "dbg cmd-stats", NULL } },
	{ "dbg pddrinfo", T_BDF_PORT, { "dbg pddrinfo", NULL } },
	{ "show selfhealing port", T_IF, { "show selfhealing port", NULL } },
	{ "show vxlan", T_IF, { "show vxlan", "vxlan", NULL } },
	{ "show packet-filter", T_IF, { "show packet-filter", "packet-filter", NULL } },
	{ "show driverparams", T_IF, { "show driverparams", NULL } },
	{ "modify tc-bw", T_IF_ARGS, { "modify tc-bw", "qosconfig tc-bw set", "qosconfig tc-bw" } },
	{ "show perfstats", T_PERFSTATS, { "show perfstats", NULL } },
	{ "show device list", T_WORDS, { "devices", NULL } },
	{ "show port list", T_WORDS, { "ports", NULL } },
	/* the manual's own example writes "show regkey diff" */
	{ "show regkey config", T_WORDS, { "show regkeys config", NULL } },
	{ "show regkey diff", T_WORDS, { "show regkeys diff", NULL } },
	{ "show regkey info", T_WORDS, { "show regkeys info", NULL } },
	{ "dbg oid-stats", T_ELSEWHERE,
	  { "OIDs are Windows' requests to a network driver (NDIS); Linux keeps no timing of "
	    "the netlink and ethtool requests that stand for them. The firmware commands such "
	    "requests end in are timed by mlx5: 'mlxcli dbg cmd-stats' (mlxcli-dbg(8))", NULL } },
	{ "dbg nonrss-capture", T_ELSEWHERE,
	  { "mlx5 on Linux keeps no buffer of the packets RSS did not spread: 'tcpdump -i IF' "
	    "captures what the port receives, and 'mlxcli irq -d IF' shows how RSS spreads it "
	    "(indirection table, hash key and fields; mlxcli-netview(8))", NULL } },
};
#define NFORMS (sizeof(tool_forms) / sizeof(tool_forms[0]))

static bool is_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static int fail(struct cli_words *o)
{
	cli_words_free(o);
	return CLI_COMPAT_FAILED;
}

/* mlxtool's perfstats options (§1.3.5). */
enum pf_opt { PF_NONE, PF_SNAPSHOT, PF_DURATION, PF_RESET };

static enum pf_opt perfstats_opt(const char *w)
{
	static const char *const snap[] = { "RX", "TX", "ShowAll", NULL };
	static const char *const dur[] = { "RXD", "TXD", NULL };
	static const char *const reset[] = { "RxReset", "TxReset", "GlobalReset", "ResetAll", NULL };

	for (const char *const *s = snap; *s; s++)
		if (!strcasecmp(w, *s))
			return PF_SNAPSHOT;
	for (const char *const *s = dur; *s; s++)
		if (!strcasecmp(w, *s))
			return PF_DURATION;
	for (const char *const *s = reset; *s; s++)
		if (!strcasecmp(w, *s))
			return PF_RESET;
	return PF_NONE;
}

/*
 * show perfstats [IF] RX|TX|ShowAll: the per-ring table (RX and TX are
 * its columns); RXD|TXD S: the per-ring deltas over S seconds (counters
 * watch, one interval); the resets have no Linux meaning.  The options are
 * checked before anything is read (mlxtool bug 1081045: a bad option made
 * it wait forever).
 */
static int map_perfstats(struct cli *cli, const char *const *pos, int np, struct cli_words *o,
			 const char **native, const char **ifname, const char **secs)
{
	enum pf_opt opt = PF_NONE;
	const char *optw = NULL;

	*ifname = *secs = NULL;
	for (int i = 0; i < np; i++) {
		enum pf_opt x = perfstats_opt(pos[i]);

		if (x == PF_NONE && optw && opt == PF_DURATION && !*secs) {
			if (!is_digits(pos[i]) || strlen(pos[i]) > 6 || atoi(pos[i]) < 1) {
				cli_error(cli, "mlxtool's 'show perfstats %s' takes seconds (1 or more), "
					  "not '%s'", optw, pos[i]);
				return fail(o);
			}
			*secs = pos[i];
		} else if (x == PF_NONE && !*ifname && pos[i][0] != '-') {
			*ifname = pos[i];
		} else if (x != PF_NONE && !optw) {
			opt = x;
			optw = pos[i];
		} else {
			cli_error(cli, "unexpected '%s' in mlxtool's 'show perfstats'", pos[i]);
			cli_hint(cli, "mlxtool's form: show perfstats [IF] RX|TX|RXD S|TXD S|ShowAll");
			return fail(o);
		}
	}
	if (opt == PF_DURATION && !*secs) {
		cli_error(cli, "mlxtool's 'show perfstats %s' needs the seconds to watch", optw);
		return fail(o);
	}
	if (opt == PF_RESET) {
		cli_error(cli, "mlxtool's 'show perfstats %s': Linux never resets the driver's counters "
			  "(they count from the driver's load)", optw);
		cli_hint(cli, "'mlxcli counters watch -d IF --group queue' shows what they do from now on");
		cli_words_free(o);
		return CLI_COMPAT_NOTSUP;
	}
	if (opt == PF_NONE && !*ifname)
		return CLI_COMPAT_NONE;         /* plain "show perfstats": native */
	*native = opt == PF_DURATION ? "counters watch" : "show perfstats";
	return CLI_COMPAT_MAPPED;
}

static bool words_match(const char *words, int argc, char **argv, int k, int *n)
{
	char buf[64], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", words);
	*n = 0;
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (k + *n >= argc || strcmp(argv[k + *n], w))
			return false;
		(*n)++;
	}
	return true;
}

/*
 * mlxtool's "<sub-tool> help [<argument>]" (§1.1: "shows details about the
 * sub-tool and its arguments with a usage example"): "help <sub-tool>
 * [<argument>]", help's own form.
 */
static int map_subtool_help(const struct cmd_group *top, int argc, char **argv, int k,
			    struct cli_words *o)
{
	static const char *const subtools[] = { "dbg", "show", "modify", NULL };
	bool known = false;

	if (k + 1 >= argc || strcmp(argv[k + 1], "help"))
		return CLI_COMPAT_NONE;
	for (const char *const *t = subtools; *t; t++)
		known |= !strcmp(argv[k], *t);
	/* a native "help" under the group (none today) would be its own */
	if (!known || cli_lookup(top, "help") == NULL)
		return CLI_COMPAT_NONE;
	{
		char path[64];

		snprintf(path, sizeof(path), "%s help", argv[k]);
		if (cli_lookup(top, path))
			return CLI_COMPAT_NONE;
	}
	if (cli_words_add(o, "help") < 0 || cli_words_add(o, argv[k]) < 0)
		return fail(o);
	for (int i = k + 2; i < argc; i++)
		if (cli_words_add(o, argv[i]) < 0)
			return fail(o);
	return CLI_COMPAT_MAPPED;
}

/*
 * mlxtool's "show nd connections" flags (§1.3.3): "-p|--pid <Process Id>"
 * is its process id, where mlxcli's global -p is --pretty: "-p" before a
 * number becomes "--pid".  "-t|--time <seconds>" (fetch the QPs in error
 * again every so many seconds, NDFLTR's batches) has no Linux meaning: the
 * kernel's rdma netlink gives every QP in one dump (exit 4).  Anything else
 * is the native command's own (-a, -e, -n, --pid).
 */
static bool nd_flag(const char *w)
{
	static const char *const flags[] = { "-a", "--address", "-p", "--pid", "-e", "--error",
					     "-n", "--count", "-t", "--time", NULL };

	for (const char *const *f = flags; *f; f++)
		if (!strcmp(w, *f))
			return true;
	return false;
}

static int map_nd_connections(struct cli *cli, int argc, char **argv, int k, struct cli_words *o)
{
	static const char *const words[] = { "show", "nd", "connections" };
	bool pid = false;

	if (argc - k < 3)
		return CLI_COMPAT_NONE;
	for (int i = 0; i < 3; i++)
		if (strcmp(argv[k + i], words[i]))
			return CLI_COMPAT_NONE;
	for (int i = k + 3; i < argc; i++) {
		if (!strcmp(argv[i], "-t") || !strcmp(argv[i], "--time")) {
			char got[128] = "";

			for (int j = k + 3; j < argc; j++) {
				bool takes;

				/* native global options ("--sample") are not mlxtool's */
				if (!nd_flag(argv[j]) && compat_is_global(argv[j], &takes)) {
					j += takes;
					continue;
				}
				if (strlen(got) + strlen(argv[j]) + 2 < sizeof(got))
					snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s",
						 *got ? " " : "", argv[j]);
			}
			cli_error(cli, "mlxtool's 'show nd connections %s': Linux has no fetches to "
				  "space out: the kernel gives every QP in one dump", got);
			cli_hint(cli, "'mlxcli show nd connections -e' lists the QPs in error now; "
				 "'mlxcli monitor' reports QP errors as they come");
			cli_words_free(o);
			return CLI_COMPAT_NOTSUP;
		}
		if (!strcmp(argv[i], "-p") && i + 1 < argc && is_digits(argv[i + 1]))
			pid = true;
	}
	if (!pid)
		return CLI_COMPAT_NONE;
	for (int i = k; i < argc; i++) {
		bool p = !strcmp(argv[i], "-p") && i + 1 < argc && is_digits(argv[i + 1]);

		if (cli_words_add(o, p ? "--pid" : argv[i]) < 0)
			return fail(o);
	}
	return CLI_COMPAT_MAPPED;
}

int compat_map_mlxtool(struct cli *cli, const struct cmd_group *top, int argc, char **argv,
		       int k, struct cli_words *o)
{
	int m = map_subtool_help(top, argc, argv, k, o);

	if (m == CLI_COMPAT_NONE)
		m = map_nd_connections(cli, argc, argv, k, o);
	if (m != CLI_COMPAT_NONE)
		return m;
	for (size_t f = 0; f < NFORMS; f++) {
		const struct tool_form *tf = &tool_forms[f];
		const char *native = NULL, *pos[64], *glob[64], *ifname = NULL, *secs = NULL;
		char dev[64];
		int n, rest, np, ng, r;

		if (!words_match(tf->words, argc, argv, k, &n))
			continue;
		/* The words after the form; native global options ("-j",
		 * "--sample") may stand anywhere and are kept aside. */
		np = ng = 0;
		for (int i = k + n; i < argc && np < 64 && ng < 64; i++) {
			bool takes;

			if (compat_is_global(argv[i], &takes)) {
				glob[ng++] = argv[i];
				if (takes && i + 1 < argc)
					glob[ng++] = argv[++i];
			} else {
				pos[np++] = argv[i];
			}
		}
		dev[0] = '\0';
		rest = 0;
		switch (tf->shape) {
		case T_BDF:
		case T_BDF_PORT:
			/* Exactly the mlxtool form: three decimal words (and a port). */
			if ((np != 3 && (np != 4 || tf->shape != T_BDF_PORT)) || !is_digits(pos[0]) ||
			    !is_digits(pos[1]) || !is_digits(pos[2]) || (np == 4 && !is_digits(pos[3])))
				return CLI_COMPAT_NONE;
			if (np == 4 && strcmp(pos[3], "1")) {
				cli_error(cli, "mlxtool's '%s %s %s %s %s': a ConnectX-4 or later port is "
					  "a PCI function of its own, and its port is 1", tf->words,
					  pos[0], pos[1], pos[2], pos[3]);
				cli_hint(cli, "'mlxcli devices' lists the functions ('%s B D F 1' for each)",
					 tf->words);
				return fail(o);
			}
			snprintf(dev, sizeof(dev), "%s %s %s", pos[0], pos[1], pos[2]);
			rest = np;
			break;
		case T_IF:
			if (np != 1 || pos[0][0] == '-')
				return CLI_COMPAT_NONE;
			snprintf(dev, sizeof(dev), "%s", pos[0]);
			rest = 1;
			break;
		case T_IF_ARGS:
			if (np < 3 || pos[0][0] == '-')
				return CLI_COMPAT_NONE;
			snprintf(dev, sizeof(dev), "%s", pos[0]);
			rest = 1;
			break;
		case T_WORDS:
			break;
		case T_PERFSTATS:
			/* the native options ("show perfstats -d IF") are native */
			for (int i = 0; i < np; i++)
				if (pos[i][0] == '-')
					return CLI_COMPAT_NONE;
			r = map_perfstats(cli, pos, np, o, &native, &ifname, &secs);
			if (r != CLI_COMPAT_MAPPED)
				return r;
			if (ifname)
				snprintf(dev, sizeof(dev), "%s", ifname);
			rest = np;
			break;
		case T_ELSEWHERE:
			cli_error(cli, "mlxtool's '%s': %s", tf->words, tf->native[0]);
			cli_words_free(o);
			return CLI_COMPAT_NOTSUP;
		}
		for (size_t i = 0; i < 3 && tf->native[i] && !native; i++) {
			const struct cmd *c = cli_lookup(top, tf->native[i]);

			if (!c)
				continue;
			/* The native command takes mlxtool's words itself
			 * ("modify tc-bw IFNAME ...", "dbg dump-me-now B D F"):
			 * nothing to rewrite. */
			if (tf->shape != T_WORDS && !strcmp(tf->native[i], tf->words) &&
			    (c->max_args < 0 || c->max_args >= np))
				return CLI_COMPAT_NONE;
			native = tf->native[i];
		}
		if (!native || !cli_lookup(top, native)) {
			cli_error(cli, "mlxtool's '%s' is not available yet in mlxcli", tf->words);
			cli_hint(cli, "'mlxcli help' lists what there is");
			return fail(o);
		}
		if (compat_add_path(o, native) < 0)
			return fail(o);
		if (dev[0] && (cli_words_add(o, "-d") < 0 || cli_words_add(o, dev) < 0))
			return fail(o);
		if (secs && (cli_words_add(o, "--group") < 0 || cli_words_add(o, "queue") < 0 ||
			     cli_words_add(o, "--interval") < 0 || cli_words_add(o, secs) < 0 ||
			     cli_words_add(o, "--count") < 0 || cli_words_add(o, "1") < 0))
			return fail(o);
		for (int i = rest; i < np; i++)
			if (cli_words_add(o, pos[i]) < 0)
				return fail(o);
		for (int i = 0; i < ng; i++)
			if (cli_words_add(o, glob[i]) < 0)
				return fail(o);
		return CLI_COMPAT_MAPPED;
	}
	return CLI_COMPAT_NONE;
}
