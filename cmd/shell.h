/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interactive shell, batch mode and the Windows command syntax
 * (cmd/shell.c, cmd/compat.c): the pieces the unit tests reach directly.
 */
#ifndef MLX_CLI_SHELL_H
#define MLX_CLI_SHELL_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

/* A command line split into words; argv is NULL-terminated and owned. */
struct cli_words {
	int argc;
	char **argv;
	bool open;      /* the line ends inside a word (the one being typed) */
};

/*
 * Split one line into words, as a POSIX shell would for plain words:
 * blanks separate, '...' is literal, "..." takes \" and \\ escapes, a
 * backslash outside quotes escapes the next character, and a '#' that
 * starts a word starts a comment.  No expansion of any kind.
 * With @partial (completion of a line being typed) an unterminated quote
 * is not an error.  Returns 0, or -EINVAL with *why set; -ENOMEM.
 */
int cli_split(const char *line, bool partial, struct cli_words *w, const char **why);
void cli_words_free(struct cli_words *w);
/* Append a copy of @s; 0 or -ENOMEM. */
int cli_words_add(struct cli_words *w, const char *s);
/* The words from @from on, joined by one blank (the shell's `device 94 0 0`
 * is mlxtool's "94 0 0"); malloc'd, NULL on -ENOMEM. */
char *cli_words_join(const struct cli_words *w, int from);

/*
 * The Windows syntax (cmd/compat.c): mlx5cmd's "-Qosconfig -Dcqcn -Name IF
 * -Get" and mlxtool's "show qos B D F" are rewritten into native argv.
 * @top is the command table the native form must exist in (cli_top; the
 * tests pass their own).  NONE: argv is not a Windows form, use it as is;
 * MAPPED: *out holds the native argv (out->argv[0] = argv[0]); FAILED: the
 * error was printed on @err, the exit code is EXIT_USAGE; NOTSUP: a Windows
 * command Linux has nothing for, @err says what it has instead, the exit
 * code is EXIT_NOTSUP.
 */
enum { CLI_COMPAT_NONE, CLI_COMPAT_MAPPED, CLI_COMPAT_FAILED, CLI_COMPAT_NOTSUP };
int cli_compat_map(const struct cmd_group *top, int argc, char **argv, struct cli_words *out,
		   FILE *err);

/*
 * Completion of the mlx5cmd syntax: false when the line is not one (the
 * native completion goes on), else the candidates went to @cp.
 */
bool cli_compat_complete(struct completion *cp, int argc, char **argv);

/* The leaf command at "word word ..." in @top; NULL when there is none. */
const struct cmd *cli_lookup(const struct cmd_group *top, const char *path);

#endif
