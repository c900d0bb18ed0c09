/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Progress of long work on a terminal (issue 27): CR-space dumps,
 * snapshots and dump-me-now of a large host, apply of many ports.  One
 * line on stderr rewritten in place ("\r"), at most ten times a second,
 * cleared at the end; nothing at all when stderr is no terminal, so a
 * pipe, a log or a test sees the same bytes as before.
 */
#ifndef MLX_CMD_PROGRESS_H
#define MLX_CMD_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct progress {
	FILE *fp;
	bool on;                 /* stderr is a terminal */
	bool shown;              /* a line is on the screen */
	char what[96];
	uint64_t total;          /* 0: unknown (a count without a percentage) */
	struct timespec last;
};

struct cli;
/* Start: @what names the work ("CR-space dump of 0000:5e:00.0"). */
void progress_begin(struct progress *p, struct cli *cli, const char *what, uint64_t total);
/* @done of total so far (drawn when 100 ms passed since the last draw). */
void progress_step(struct progress *p, uint64_t done);
/* Erase the line (the work's own output follows on a clean line). */
void progress_end(struct progress *p);
/* Whether progress would show on @fp: a terminal (lib's callbacks ask). */
bool progress_wanted(FILE *fp);

#endif
