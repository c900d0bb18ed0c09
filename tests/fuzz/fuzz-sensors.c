/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the mlx5 hwmon reader (lib/phy/sensors.c
 * mlx_sensors_read): what it parses are the files of a hwmon directory,
 * so the input becomes one, under a private captured root made per run.
 * Fields are separated by NUL: the hwmon entry's name ("hwmon3"), its
 * name file ("mlx5"), then per temperature channel 1, 2, ... its
 * temp_input, temp_crit, temp_highest and temp_label (an empty field is
 * an absent file).  The reader must stay within MLX_SENSORS_MAX, keep
 * every label and the hwmon name terminated, report only channels that
 * have an input, and answer 0 or -ENOENT.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz-util.h"
#include "mlx.h"
#include "phy.h"

#define BDF "0000:08:00.0"

static void put(const char *dir, const char *file, const char *text)
{
	char path[512];
	int fd;

	if (!*text)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) < 0)
		abort();
	close(fd);
}

static int rm(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag, (void)f;
	return remove(path);
}

/* The next NUL-terminated field of [*p, end), "" past the end. */
static const char *field(const char **p, const char *end)
{
	const char *f = *p;

	if (f >= end)
		return "";
	*p += strlen(f) + 1;
	return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char root[] = "/tmp/fuzz-sensors-XXXXXX", dir[256], hw[256], file[32];
	char *text = malloc(size + 1);
	const char *p = text, *end = text + size, *name;
	struct mlx_ctx *ctx = NULL;
	struct mlx_sensors *s = calloc(1, sizeof(*s));
	int r;

	if (!text || !s || !mkdtemp(root))
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	name = field(&p, end);
	/* a directory entry never holds '/', nor is it . or .. */
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..") || strlen(name) > 64)
		name = "hwmon0";
	snprintf(dir, sizeof(dir), "%s/sys/bus/pci/devices/" BDF "/hwmon", root);
	for (char *c = dir + strlen(root) + 1; *c; c++)
		if (*c == '/') {
			*c = '\0';
			mkdir(dir, 0755);
			*c = '/';
		}
	mkdir(dir, 0755);
	snprintf(hw, sizeof(hw), "%s/%s", dir, name);
	mkdir(hw, 0755);
	put(hw, "name", field(&p, end));
	for (unsigned i = 1; p < end && i <= MLX_SENSORS_MAX + 2; i++) {
		static const char *const what[] = { "input", "crit", "highest", "label" };

		for (size_t k = 0; k < 4; k++) {
			snprintf(file, sizeof(file), "temp%u_%s", i, what[k]);
			put(hw, file, field(&p, end));
		}
	}
	if (mlx_ctx_new(root, &ctx, NULL) == 0) {
		r = mlx_sensors_read(ctx, BDF, s);
		if (r != 0 && r != -ENOENT)
			abort();
		if (s->n > MLX_SENSORS_MAX || strnlen(s->hwmon, sizeof(s->hwmon)) == sizeof(s->hwmon))
			abort();
		for (size_t i = 0; i < s->n; i++)
			if (s->s[i].temp_mc == INT64_MIN ||
			    strnlen(s->s[i].label, sizeof(s->s[i].label)) == sizeof(s->s[i].label))
				abort();
		if (r != 0 && s->n)
			abort();
		mlx_ctx_free(ctx);
	}
	nftw(root, rm, 16, FTW_DEPTH | FTW_PHYS);
	free(s);
	free(text);
	return 0;
}
