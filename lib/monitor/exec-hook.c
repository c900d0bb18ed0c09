/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitor's per-event hook (--exec, DESIGN "Security"): the command
 * runs without a shell (posix_spawnp of the words the user gave), with the
 * event as JSON on its standard input and a timeout.  mlxcli runs no other
 * tool of its own; this is the user's command, on the user's request.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "monitor.h"

extern char **environ;

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int mlx_exec_hook(char *const argv[], const char *input, size_t len, unsigned timeout_ms)
{
	posix_spawn_file_actions_t fa;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	int pfd[2], status, r;
	pid_t pid;
	uint64_t end;

	if (!argv || !argv[0])
		return -EINVAL;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[0], STDIN_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
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
