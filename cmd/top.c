/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli top`: a live view of the ports on a terminal, refreshed in place
 * (issue 27, "Looking rather than reading"): per port the link, traffic
 * in Gb/s and packets/s, drops, pause frames per priority, CNPs and ECN
 * marks, PCIe stalls, the module's temperature and Rx power.  The rates
 * are `counters watch`'s: the same sample (mlx_counters_sample) and the
 * same change of each counter (mlx_counter_change, lib/counters), so both
 * show the same number for the same interval.
 *
 * The screen is plain ANSI (ECMA-48) escapes and the terminal's modes
 * through termios: no curses library for one table.  The alternate screen
 * (DEC private mode 1049, as less and top use it) keeps the shell's
 * scrollback as it was; the size is the terminal's window size
 * (TIOCGWINSZ, tty_ioctl(4): the one ioctl cmd/ makes, on the terminal,
 * not a device; tests/cli/boundary.py allows it), read again on SIGWINCH.
 * Not the cursor position report (ECMA-48 DSR 6): its answer has the
 * shape of a key (xterm's Ctrl-F3 is ESC [ 1 ; 5 R), and a key must never
 * resize the view.
 * Off a terminal it refuses: a program wants `counters watch -j`.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "counters-phy.h"
#include "counters-views.h"
#include "top-view.h"

const struct cmd_opt top_opts[] = {
	{ "interval", 'i', "S", "seconds between samples (default 1)", NULL },
	{ "count", 'c', "N", "stop after N screens (default: until q)", NULL },
	{ "view", 0, "VIEW", "the view to start with", top_view_names },
	{ "any-netdev", 0, NULL, "accept any netdev, not only a ConnectX port (ethtool "
	  "and netdev statistics only)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static volatile sig_atomic_t got_stop, got_winch, got_tstp;

static void on_signal(int sig)
{
	if (sig == SIGWINCH)
		got_winch = 1;
	else if (sig == SIGTSTP)
		got_tstp = 1;
	else
		got_stop = 1;
}

/* ---- the terminal ---------------------------------------------------------- */

struct term {
	FILE *fp;
	int in;                 /* stdin when it is a terminal, else -1 */
	struct termios saved;
	bool raw, screen;
	unsigned rows, cols;
	char esc[32];           /* an escape sequence being read */
	size_t nesc;
};

/* Leave the terminal as it was found: the modes, the main screen and the
 * cursor.  Safe to call twice. */
static void term_restore(struct term *t)
{
	if (t->screen) {
		fputs("\033[?25h\033[?1049l", t->fp);
		fflush(t->fp);
		t->screen = false;
	}
	if (t->raw) {
		tcsetattr(t->in, TCSAFLUSH, &t->saved);
		t->raw = false;
	}
}

/* The terminal's window size; kept as it was when the terminal does not
 * say (a serial line's 0 x 0). */
static void term_size(struct term *t)
{
	struct winsize ws;

	if (ioctl(fileno(t->fp), TIOCGWINSZ, &ws) == 0 && ws.ws_row >= 1 && ws.ws_col >= 1) {
		t->rows = ws.ws_row > 1000 ? 1000 : ws.ws_row;
		t->cols = ws.ws_col > TOP_MAX_COLS ? TOP_MAX_COLS : ws.ws_col;
	}
}

static int term_setup(struct term *t, FILE *fp)
{
	struct termios raw;
	const char *c = getenv("COLUMNS"), *l = getenv("LINES");

	memset(t, 0, sizeof(*t));
	t->fp = fp;
	t->in = isatty(STDIN_FILENO) ? STDIN_FILENO : -1;
	/* unless the terminal says: what the shell says, else VT100's */
	t->cols = c && atoi(c) >= 20 && atoi(c) <= 1000 ? (unsigned)atoi(c) : 80;
	t->rows = l && atoi(l) >= 5 && atoi(l) <= 1000 ? (unsigned)atoi(l) : 24;
	if (t->in >= 0 && tcgetattr(t->in, &t->saved) == 0) {
		raw = t->saved;
		/* keys one by one, unechoed; ^C still signals (ISIG) */
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		if (tcsetattr(t->in, TCSAFLUSH, &raw) == 0)
			t->raw = true;
	}
	/* the alternate screen, cursor hidden */
	fputs("\033[?1049h\033[?25l\033[H\033[2J", fp);
	t->screen = true;
	term_size(t);
	return fflush(fp) == EOF ? -EIO : 0;
}

/* One byte of input: a key (returned), or part of an escape sequence (0:
 * arrows and function keys are none of ours). */
static int term_byte(struct term *t, unsigned char b)
{
	if (!t->nesc && b != 0x1b)
		return b;
	if (t->nesc >= sizeof(t->esc) - 1)
		t->nesc = 0;    /* too long to be anything we asked for */
	t->esc[t->nesc++] = (char)b;
	t->esc[t->nesc] = 0;
	if (t->nesc == 2 && b != '[') {
		t->nesc = 0;    /* ESC and a key: Alt-key, ignored */
		return 0;
	}
	if (t->nesc > 2 && b >= 0x40 && b <= 0x7e)
		t->nesc = 0;    /* the sequence's final byte */
	return 0;
}

/* ---- the loop ---------------------------------------------------------------- */

static int parse_opts(struct cli *cli, double *iv, long *n, int *view)
{
	const char *v = cli_opt(cli, "view");
	int r = counters_parse_interval(cli, iv, n);

	if (r != EXIT_OK)
		return r;
	*view = 0;
	if (v)
		*view = top_view_index(v);     /* one of the table's: the dispatcher checked */
	return EXIT_OK;
}

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wait for a key, a signal or @deadline (monotonic seconds); the signals
 * are blocked outside the wait (ppoll), so none is lost between the
 * check of its flag and the sleep.  Returns a key, TOP_KEY_RESIZED, 0
 * (time is up, or nothing of ours) or -1 (a stop signal). */
static int wait_key(struct term *t, double deadline, const sigset_t *waitmask)
{
	for (;;) {
		double left = deadline - now_mono();
		struct timespec ts;
		struct pollfd pfd = { .fd = t->in, .events = POLLIN };
		unsigned char b;
		int r, k;

		if (got_stop)
			return -1;
		if (got_tstp) {
			got_tstp = 0;
			return TOP_KEY_SUSPEND;
		}
		if (got_winch) {
			got_winch = 0;
			term_size(t);
			return TOP_KEY_RESIZED;
		}
		if (left <= 0)
			return 0;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		r = ppoll(&pfd, t->in >= 0 ? 1 : 0, &ts, waitmask);
		if (r < 0 && errno != EINTR)
			return -1;
		if (r <= 0 || !(pfd.revents & POLLIN)) {
			if (r > 0 && (pfd.revents & (POLLHUP | POLLERR)))
				return -1;      /* the terminal went away */
			continue;
		}
		if (read(t->in, &b, 1) != 1)
			return -1;
		k = term_byte(t, b);
		if (k)
			return k;
	}
}

/*
 * ^Z (SIGTSTP, caught): the terminal as it was found, then stop as the
 * default action would; on SIGCONT (fg) take the terminal again and draw.
 * The signal is blocked here (outside ppoll): raised, it waits until
 * unblocked with the default action in place.
 */
static void suspend(struct term *t)
{
	struct sigaction dfl, mine;
	sigset_t m;

	term_restore(t);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGTSTP, &dfl, &mine);
	raise(SIGTSTP);
	sigemptyset(&m);
	sigaddset(&m, SIGTSTP);
	sigprocmask(SIG_UNBLOCK, &m, NULL);     /* stops here until SIGCONT */
	sigprocmask(SIG_BLOCK, &m, NULL);
	sigaction(SIGTSTP, &mine, NULL);
	got_tstp = 0;
	term_setup(t, t->fp);
}

struct run {
	struct cli *cli;
	struct mlx_cstate *st;
	const struct targets *ts;
	struct top_state v;
	struct mlx_counters prev, cur;
	bool have_prev, have_cur;
};

static int sample(struct run *R)
{
	struct mlx_counters s;
	int r = mlx_counters_sample(R->cli->ctx, R->st, R->ts->t, R->ts->n, TOP_SOURCES, &s);

	if (r < 0)
		return r;
	if (R->have_prev)
		mlx_counters_free(&R->prev);
	R->prev = R->cur;
	R->have_prev = R->have_cur;
	R->cur = s;
	R->have_cur = true;
	top_compute(R->cli, &R->v, R->ts, R->have_prev ? &R->prev : NULL, &R->cur);
	return 0;
}

static int loop(struct run *R, struct term *t, double iv, long n)
{
	sigset_t block, waitmask;
	long shown = 0;
	double next;
	int r = 0, k;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGWINCH);
	sigaddset(&block, SIGTSTP);
	sigprocmask(SIG_BLOCK, &block, &waitmask);
	r = sample(R);
	next = now_mono() + iv;
	while (r == 0) {
		if (top_draw(t->fp, &R->v, t->rows, t->cols) < 0) {
			r = -EIO;
			break;
		}
		if (++shown == n && n)
			break;
		for (;;) {
			k = wait_key(t, next, &waitmask);
			if (k < 0 || k == 'q' || k == 'Q')
				goto out;
			if (!k)
				break;                  /* time for a sample */
			if (top_key(&R->v, k)) {
				/* another view may read more (the module's) */
				top_compute(R->cli, &R->v, R->ts, R->have_prev ? &R->prev : NULL,
					    &R->cur);
				break;                  /* redraw now */
			}
			if (k == TOP_KEY_SUSPEND) {
				suspend(t);
				break;
			}
			if (k == TOP_KEY_RESIZED)
				break;
		}
		if (k)
			continue;
		r = sample(R);
		next += iv;
		if (next < now_mono())
			next = now_mono() + iv; /* a slow sample: no burst to catch up */
	}
out:
	sigprocmask(SIG_SETMASK, &waitmask, NULL);
	return r;
}

int cmd_top(struct cli *cli, int argc, char **argv)
{
	struct sigaction sa, old[4];
	static const int sigs[4] = { SIGINT, SIGTERM, SIGWINCH, SIGTSTP };
	struct targets ts;
	struct term t;
	struct run R;
	double iv;
	long n;
	int view, r, rc;

	(void)argc;
	(void)argv;
	r = parse_opts(cli, &iv, &n, &view);
	if (r)
		return r;
	r = get_targets(cli, &ts);
	if (r)
		return r;
	if (!isatty(fileno(cli->out_fp))) {
		targets_free(&ts);
		cli_error(cli, "'mlxcli top' draws on a terminal, and standard output is not one");
		cli_hint(cli, "for a program or a pipe: mlxcli counters watch -j (the same rates, "
			 "as JSON lines)");
		return EXIT_USAGE;
	}
	memset(&R, 0, sizeof(R));
	R.cli = cli;
	R.ts = &ts;
	R.st = mlx_cstate_new();
	if (!R.st || top_state_init(&R.v, ts.n, view, iv) < 0) {
		mlx_cstate_free(R.st);
		targets_free(&ts);
		return cli_fail(cli, -ENOMEM, "cannot start the view");
	}
	got_stop = got_winch = got_tstp = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	for (int i = 0; i < 4; i++)
		sigaction(sigs[i], &sa, &old[i]);
	/* a shell without job control ignores ^Z for its children: so do we */
	if (old[3].sa_handler == SIG_IGN)
		sigaction(SIGTSTP, &old[3], NULL);
	r = term_setup(&t, cli->out_fp);
	if (r == 0)
		r = loop(&R, &t, iv, n);
	/* the terminal first: an error below must be readable */
	term_restore(&t);
	for (int i = 0; i < 4; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (r == -EIO || r == -EPIPE)
		rc = EXIT_OK;           /* the terminal went away: nobody to tell */
	else if (r < 0)
		rc = cli_fail(cli, r, "cannot show the counters");
	else
		rc = EXIT_OK;
	if (R.have_prev)
		mlx_counters_free(&R.prev);
	if (R.have_cur)
		mlx_counters_free(&R.cur);
	top_state_free(&R.v);
	mlx_cstate_free(R.st);
	targets_free(&ts);
	return rc;
}
