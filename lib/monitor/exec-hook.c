/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitor's per-event hook (--exec, DESIGN "Security"): the command
 * runs without a shell (posix_spawn of the words the user gave, the first
 * resolved in PATH once, at start), with the
 * event as JSON on its standard input and a timeout.  mlxcli runs no other
 * tool of its own; this is the user's command, on the user's request.
 * PATH and the environment are the caller's (lib/ reads no environment:
 * DESIGN "Layers").
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "monitor.h"

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int executable(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EACCES;
	return access(path, X_OK) < 0 ? -errno : 0;
}

/*
 * Resolved once, when the monitor starts: a hook that cannot run is the
 * user's mistake, told at once (not a warning per event hours later), and
 * how posix_spawnp reports a failed exec is not something to rely on (under
 * valgrind or with an old libc it is just a child exiting 127).
 */
int mlx_exec_resolve(const char *name, const char *search_path, char **path)
{
	const char *env = search_path;
	int r = -ENOENT;

	*path = NULL;
	if (!name || !*name)
		return -EINVAL;
	if (strchr(name, '/')) {
		r = executable(name);
		if (r == 0 && !(*path = strdup(name)))
			r = -ENOMEM;
		return r;
	}
	/* an unset PATH means the default execvp uses */
	if (!env)
		env = "/bin:/usr/bin";
	for (const char *p = env;; p++) {
		const char *e = strchrnul(p, ':');
		char *cand;
		int q;

		/* an empty PATH element is the current directory, as for execvp */
		if (asprintf(&cand, "%.*s%s%s", (int)(e - p), p, e == p ? "./" : "/", name) < 0)
			return -ENOMEM;
		q = executable(cand);
		if (q == 0) {
			*path = cand;
			return 0;
		}
		free(cand);
		/* not found anywhere beats a permission problem in one place */
		if (q != -ENOENT && q != -ENOTDIR)
			r = q;
		if (!*e)
			break;
		p = e;
	}
	return r;
}

int mlx_exec_hook(const char *path, char *const argv[], char *const envp[], const char *input, size_t len,
		  unsigned timeout_ms)
{
	posix_spawn_file_actions_t fa;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	int pfd[2], status, r;
	pid_t pid;
	uint64_t end;

	static char *const no_env[] = { NULL };

	if (!path || !argv || !argv[0])
		return -EINVAL;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[0], STDIN_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	r = posix_spawn(&pid, path, &fa, NULL, argv, envp ? envp : no_env);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[0]);
	if (r) {
		close(pfd[1]);
		return -r;
	}
	/* a hook that exits without reading is not our failure: no SIGPIPE */
	sigaction(SIGPIPE, &ign, &old);
	for (size_t off = 0; off < len;) {
		ssize_t n = write(pfd[1], input + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	sigaction(SIGPIPE, &old, NULL);
	close(pfd[1]);
	end = mono_ms() + timeout_ms;
	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (mono_ms() >= end) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			return -ETIMEDOUT;
		}
		usleep(2000);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -ECHILD;
}
