/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli shell` and `mlxcli -b FILE`: many command lines in one process.
 *
 * Each line is split into words (cli_split: quotes, no expansion) and run
 * through the same dispatcher as argv (cli_run), with the options the
 * shell was started with (--sample, --sysroot, -d, -v) as defaults for
 * every line.  Nothing here exits: a failing line prints its error and
 * the shell goes on; batch mode stops at the first failure unless --force.
 *
 * On a terminal the prompt uses libedit (its readline interface): history
 * in $MLXCLI_STATE_DIR/history (else ~/.local/state/mlxcli/history) and
 * TAB completion from the same code as `mlxcli __complete`.  Without a
 * terminal, lines are read plainly and no prompt is printed.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <editline/readline.h>

#include "mlx.h"
#include "shell.h"

/* ---- words ---- */

int cli_words_add(struct cli_words *w, const char *s)
{
	char **n = realloc(w->argv, (size_t)(w->argc + 2) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	w->argv = n;
	n[w->argc] = strdup(s);
	if (!n[w->argc])
		return -ENOMEM;
	n[++w->argc] = NULL;
	return 0;
}

void cli_words_free(struct cli_words *w)
{
	for (int i = 0; i < w->argc; i++)
		free(w->argv[i]);
	free(w->argv);
	memset(w, 0, sizeof(*w));
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int cli_split(const char *line, bool partial, struct cli_words *w, const char **why)
{
	size_t len = strlen(line);
	char *buf = malloc(len + 1);
	const char *p = line;
	int r = 0;

	memset(w, 0, sizeof(*w));
	if (why)
		*why = NULL;
	if (!buf)
		return -ENOMEM;
	for (;;) {
		size_t n = 0;
		bool word = false;
		char quote = 0;

		while (is_blank(*p))
			p++;
		if (!*p || *p == '#')
			break;
		for (; *p; p++) {
			if (quote == '\'') {
				if (*p == '\'')
					quote = 0;
				else
					buf[n++] = *p;
			} else if (quote == '"') {
				if (*p == '"')
					quote = 0;
				else if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
					buf[n++] = *++p;
				else
					buf[n++] = *p;
			} else if (is_blank(*p)) {
				break;
			} else if (*p == '\'' || *p == '"') {
				quote = *p;
				word = true;
			} else if (*p == '\\' && p[1]) {
				buf[n++] = *++p;
			} else {
				buf[n++] = *p;
			}
			word = true;
		}
		if (quote && !partial) {
			if (why)
				*why = quote == '"' ? "unterminated double quote" :
						      "unterminated single quote";
			r = -EINVAL;
			break;
		}
		buf[n] = '\0';
		if (word && cli_words_add(w, buf) < 0) {
			r = -ENOMEM;
			break;
		}
		if (!*p) {
			w->open = word;
			break;
		}
	}
	free(buf);
	if (r)
		cli_words_free(w);
	return r;
}

char *cli_words_join(const struct cli_words *w, int from)
{
	size_t len = 1;
	char *out;

	for (int i = from; i < w->argc; i++)
		len += strlen(w->argv[i]) + 1;
	out = malloc(len);
	if (!out)
		return NULL;
	out[0] = '\0';
	for (int i = from; i < w->argc; i++) {
		if (i > from)
			strcat(out, " ");
		strcat(out, w->argv[i]);
	}
	return out;
}

/* ---- running lines ---- */

struct session {
	struct cli *cli;                /* the `shell` or `-b` invocation */
	struct cli_defaults d;
	char *device;                   /* current device (owned) */
	int status;                     /* of the last command */
	bool interactive, quit;
};

static void set_device(struct session *s, const char *dev)
{
	free(s->device);
	s->device = dev ? strdup(dev) : NULL;
	s->d.device = s->device;
}

static const char shell_help[] =
	"\nshell commands:\n"
	"  device [DEV]           show the current device, or make DEV the current one\n"
	"                         (commands without -d use it; 'device -' forgets it;\n"
	"                         mlxtool's 'device 94 0 0' needs no quotes)\n"
	"  exit, quit             leave the shell (so does end of input)\n"
	"Lines are split into words as by sh (quotes, no expansion); '#' starts a comment.\n";

/* `device DEV`: checked by running a selection through the dispatcher.
 * Its words are joined, so mlxtool's `device 94 0 0` needs no quotes. */
static int builtin_device(struct session *s, struct cli_words *w)
{
	char *dev;
	int r;

	if (w->argc == 1) {
		if (s->device)
			fprintf(s->cli->out_fp, "%s\n", s->device);
		else
			fprintf(s->cli->out_fp, "no current device (commands cover every device)\n");
		return EXIT_OK;
	}
	if (w->argc == 2 && !strcmp(w->argv[1], "-")) {
		set_device(s, NULL);
		return EXIT_OK;
	}
	dev = cli_words_join(w, 1);
	if (!dev)
		return cli_fail(s->cli, -ENOMEM, "cannot run the line");
	{
		/* "devices -d DEV" resolves DEV the way every command will,
		 * with the same messages; its listing is not wanted here. */
		char *argv[] = { "mlxcli", "devices", "-d", dev, NULL };
		FILE *null = fopen("/dev/null", "w");

		if (!null) {
			free(dev);
			return cli_fail(s->cli, -errno, "cannot open /dev/null");
		}
		r = cli_run(4, argv, null, s->cli->err_fp, &s->d);
		fclose(null);
	}
	if (!r)
		set_device(s, dev);
	free(dev);
	return r;
}

/* One line: 0 for an empty one, else the command's exit code. */
static int run_line(struct session *s, const char *line)
{
	struct cli_words w;
	const char *why;
	int r;

	r = cli_split(line, false, &w, &why);
	if (r == -EINVAL) {
		cli_error(s->cli, "%s", why);
		return EXIT_USAGE;
	}
	if (r < 0)
		return cli_fail(s->cli, r, "cannot read the line");
	if (!w.argc) {
		cli_words_free(&w);
		return EXIT_OK;
	}
	if (!strcmp(w.argv[0], "exit") || !strcmp(w.argv[0], "quit")) {
		s->quit = true;
		r = s->status;
	} else if (!strcmp(w.argv[0], "device")) {
		r = builtin_device(s, &w);
	} else {
		/* argv[0] in front, as main() would see it. */
		struct cli_words a = { 0 };

		r = cli_words_add(&a, "mlxcli");
		for (int i = 0; i < w.argc && !r; i++)
			r = cli_words_add(&a, w.argv[i]);
		if (r)
			r = cli_fail(s->cli, r, "cannot run the line");
		else
			r = cli_run(a.argc, a.argv, s->cli->out_fp, s->cli->err_fp, &s->d);
		if (!strcmp(w.argv[0], "help") && w.argc == 1)
			fputs(shell_help, s->cli->out_fp);
		cli_words_free(&a);
	}
	fflush(s->cli->out_fp);
	cli_words_free(&w);
	return r;
}

static void session_init(struct session *s, struct cli *cli)
{
	memset(s, 0, sizeof(*s));
	s->cli = cli;
	s->d.sysroot = cli->sysroot;
	s->d.sample = cli->sample;
	s->d.verbose = cli->verbose;
	s->d.lock_wait_given = cli->lock_wait_s >= 0;
	s->d.lock_wait_s = cli->lock_wait_s;
	s->d.json = cli->json;
	s->d.pretty = cli->pretty;
	set_device(s, cli->device);
}

static bool nested(struct cli *cli, const char *what)
{
	if (!cli->dflt)
		return false;
	cli_error(cli, "%s cannot run inside a shell or a batch", what);
	return true;
}

/* ---- batch mode ---- */

int cli_batch(struct cli *cli, const char *file, bool force)
{
	struct session s;
	FILE *fp = stdin;
	const char *name = "stdin";
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	int first = EXIT_OK;

	if (nested(cli, "'-b'"))
		return EXIT_USAGE;
	if (strcmp(file, "-")) {
		fp = fopen(file, "r");
		if (!fp) {
			cli_error(cli, "cannot open '%s': %s", file, strerror(errno));
			return errno == ENOENT ? EXIT_USAGE : cli_exit_code(-errno);
		}
		name = file;
	}
	session_init(&s, cli);
	while (!s.quit && getline(&line, &cap, fp) >= 0) {
		int r;

		lineno++;
		r = run_line(&s, line);
		if (!r)
			continue;
		s.status = r;
		if (!first)
			first = r;
		if (!force) {
			cli_error(cli, "%s:%u: failed with exit status %d; stopping (--force goes on)",
				  name, lineno, r);
			break;
		}
		cli_error(cli, "%s:%u: failed with exit status %d", name, lineno, r);
	}
	free(line);
	if (fp != stdin)
		fclose(fp);
	set_device(&s, NULL);
	return first;
}

/* ---- the interactive shell ---- */

static int history_path(char *buf, size_t len)
{
	char dir[PATH_MAX];

	if (cli_state_dir(dir, sizeof(dir)) < 0 || cli_mkdir_p(dir, 0700) < 0)
		return -1;
	return snprintf(buf, len, "%s/history", dir) < (int)len ? 0 : -1;
}

/* Completion state: libedit calls back without a user pointer. */
static struct {
	struct session *s;
	char **cands;
	size_t n, cap, next, skip;
} comp;

static void comp_add(void *data, const char *cand)
{
	(void)data;
	for (size_t i = 0; i < comp.n; i++)
		if (!strcmp(comp.cands[i], cand))
			return;
	if (comp.n == comp.cap) {
		size_t cap = comp.cap ? comp.cap * 2 : 32;
		char **n = realloc(comp.cands, cap * sizeof(*n));

		if (!n)
			return;
		comp.cands = n;
		comp.cap = cap;
	}
	comp.cands[comp.n] = strdup(cand);
	if (comp.cands[comp.n])
		comp.n++;
}

static void comp_clear(void)
{
	for (size_t i = 0; i < comp.n; i++)
		free(comp.cands[i]);
	comp.n = comp.next = 0;
}

/* libedit's generator: our candidates, minus what precedes its word. */
static char *comp_gen(const char *text, int state)
{
	(void)text;
	if (!state)
		comp.next = 0;
	while (comp.next < comp.n) {
		const char *c = comp.cands[comp.next++];

		if (strlen(c) >= comp.skip)
			return strdup(c + comp.skip);
	}
	return NULL;
}

static char **shell_complete(const char *text, int start, int end)
{
	struct session *s = comp.s;
	struct cli_words w, a = { 0 };
	char *upto = strndup(rl_line_buffer, (size_t)end);
	const char *partial;
	char samp[PATH_MAX];
	bool ok;

	(void)start;
	rl_attempted_completion_over = 1;       /* never fall back to file names */
	comp_clear();
	if (!upto || cli_split(upto, true, &w, NULL) < 0) {
		free(upto);
		return NULL;
	}
	free(upto);
	if (!w.open)
		cli_words_add(&w, "");
	partial = w.argv[w.argc - 1];
	/* libedit's word may be the tail of ours ("--names=ml": "ml"). */
	comp.skip = strlen(partial) > strlen(text) ? strlen(partial) - strlen(text) : 0;

	/* The shell's own options name the system the devices come from. */
	ok = true;
	if (s->d.sample) {
		snprintf(samp, sizeof(samp), "--sample%s%s", *s->d.sample ? "=" : "", s->d.sample);
		ok = cli_words_add(&a, samp) == 0;
	} else if (s->d.sysroot) {
		ok = cli_words_add(&a, "--sysroot") == 0 && cli_words_add(&a, s->d.sysroot) == 0;
	}
	if (w.argc == 1) {
		static const char *const builtins[] = { "device", "exit", "quit", NULL };

		for (const char *const *b = builtins; *b; b++)
			if (!strncmp(*b, partial, strlen(partial)))
				comp_add(NULL, *b);
	}
	if (w.argc == 2 && !strcmp(w.argv[0], "device")) {
		ok = ok && cli_words_add(&a, "-d") == 0;
		ok = ok && cli_words_add(&a, partial) == 0;
	} else if (w.argc >= 2 && !strcmp(w.argv[0], "device")) {
		ok = false;
	} else {
		for (int i = 0; i < w.argc && ok; i++)
			ok = cli_words_add(&a, w.argv[i]) == 0;
	}
	if (ok)
		cli_complete(a.argc, a.argv, comp_add, NULL);
	cli_words_free(&a);
	cli_words_free(&w);
	if (!comp.n)
		return NULL;
	return rl_completion_matches(text, comp_gen);
}

static void shell_plain(struct session *s)
{
	char *line = NULL;
	size_t cap = 0;

	while (!s->quit && getline(&line, &cap, stdin) >= 0) {
		int r = run_line(s, line);

		if (!s->quit)
			s->status = r;
	}
	free(line);
}

/*
 * Ctrl-C at the prompt discards the line being typed and gives a new
 * prompt, as in bash; it does not end the shell.  libedit restores the
 * terminal and then calls this handler, whose flag tells an interrupted
 * readline() (NULL) from end of input.  While a command runs, the flag is
 * only noted: `counters watch` installs its own handler and stops; other
 * commands are short, and stopping one midway could leave a write half
 * done, so they finish.
 */
static volatile sig_atomic_t got_sigint;

static void on_sigint(int sig)
{
	(void)sig;
	got_sigint = 1;
}

static void shell_tty(struct session *s)
{
	char hist[PATH_MAX], prompt[160];
	bool have_hist = history_path(hist, sizeof(hist)) == 0;
	struct sigaction sa, old;

	comp.s = s;
	rl_readline_name = "mlxcli";
	rl_attempted_completion_function = shell_complete;
	using_history();
	stifle_history(1000);
	if (have_hist)
		read_history(hist);
	else
		cli_warn(s->cli, "no state directory: history will not be kept");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;      /* no SA_RESTART: the read returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);
	while (!s->quit) {
		char *line;
		int r;

		if (s->device)
			snprintf(prompt, sizeof(prompt), "mlxcli %s> ", s->device);
		else
			snprintf(prompt, sizeof(prompt), "mlxcli> ");
		got_sigint = 0;
		line = readline(prompt);
		if (got_sigint) {
			/* the line is dropped; libedit turned the echo of ^C off */
			free(line);
			fputs("^C\n", s->cli->out_fp);
			fflush(s->cli->out_fp);
			continue;
		}
		if (!line) {
			fputc('\n', s->cli->out_fp);
			break;
		}
		if (line[strspn(line, " \t")]) {
			add_history(line);
			/* Saved after every line, so a killed shell loses nothing. */
			if (have_hist && write_history(hist) != 0)
				have_hist = false;
		}
		r = run_line(s, line);
		if (!s->quit)
			s->status = r;
		free(line);
	}
	sigaction(SIGINT, &old, NULL);
	comp_clear();
	free(comp.cands);
	memset(&comp, 0, sizeof(comp));
}

int cmd_shell(struct cli *cli, int argc, char **argv)
{
	struct session s;
	int status;

	(void)argc;
	(void)argv;
	if (nested(cli, "'mlxcli shell'"))
		return EXIT_USAGE;
	session_init(&s, cli);
	/* The device given to `shell` is checked like `device DEV`. */
	if (s.device) {
		char *dev = strdup(s.device);
		struct cli_words w = { 0 };

		set_device(&s, NULL);
		if (!dev || cli_words_add(&w, "device") < 0 || cli_words_add(&w, dev) < 0) {
			free(dev);
			cli_words_free(&w);
			return cli_fail(cli, -ENOMEM, "cannot start the shell");
		}
		status = builtin_device(&s, &w);
		free(dev);
		cli_words_free(&w);
		if (status)
			return status;
	}
	s.interactive = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	if (s.interactive)
		shell_tty(&s);
	else
		shell_plain(&s);
	set_device(&s, NULL);
	return s.status;
}
