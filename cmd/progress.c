/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Progress on a terminal (cmd/progress.h). */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"

bool progress_wanted(FILE *fp)
{
	int fd = fp ? fileno(fp) : -1;

	return fd >= 0 && isatty(fd);
}

void progress_begin(struct progress *p, struct cli *cli, const char *what, uint64_t total)
{
	memset(p, 0, sizeof(*p));
	p->fp = cli->err_fp ? cli->err_fp : stderr;
	p->on = progress_wanted(p->fp);
	p->total = total;
	snprintf(p->what, sizeof(p->what), "%s", what);
}

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

void progress_step(struct progress *p, uint64_t done)
{
	struct timespec now;

	if (!p->on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (p->shown && since(&p->last, &now) < 0.1 && done != p->total)
		return;
	p->last = now;
	/* "\r" to the start, then the line, then erase what a longer one left */
	if (p->total)
		fprintf(p->fp, "\r%s: %3u%% (%llu of %llu)\033[K", p->what,
			(unsigned)(done * 100 / p->total), (unsigned long long)done,
			(unsigned long long)p->total);
	else
		fprintf(p->fp, "\r%s: %llu\033[K", p->what, (unsigned long long)done);
	fflush(p->fp);
	p->shown = true;
}

void progress_end(struct progress *p)
{
	if (p->on && p->shown) {
		fputs("\r\033[K", p->fp);
		fflush(p->fp);
	}
	p->shown = false;
}
