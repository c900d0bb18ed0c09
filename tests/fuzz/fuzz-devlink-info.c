/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the devlink decoders (lib/decode/decode-devlink-info.c):
 * DEVLINK_CMD_INFO_GET and ESWITCH_GET replies.  Version lists must stay
 * within their arrays and every string must be terminated.
 */
#include "devlink.h"
#include "fuzz-nl.h"
#include "sriov.h"

static void check_list(const struct mlx_devlink_version *v, size_t n)
{
	if (n > MLX_DEVLINK_MAX_VERSIONS)
		abort();
	for (size_t i = 0; i < n; i++) {
		if (strnlen(v[i].name, sizeof(v[i].name)) == sizeof(v[i].name) ||
		    strnlen(v[i].value, sizeof(v[i].value)) == sizeof(v[i].value))
			abort();
		(void)mlx_devlink_version(v, n, v[i].name);
	}
}

static int on_msg(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct mlx_devlink_info *in = arg;
	struct mlx_eswitch e;
	char err[128];

	if (mlx_devlink_info_decode(h, len, in, err, sizeof(err)) == 0) {
		check_list(in->fixed, in->nfixed);
		check_list(in->running, in->nrunning);
		check_list(in->stored, in->nstored);
		if (strnlen(in->serial, sizeof(in->serial)) == sizeof(in->serial))
			abort();
	}
	if (mlx_devlink_eswitch_decode(h, len, &e) == 0)
		(void)mlx_eswitch_mode_str(e.mode);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mlx_devlink_info *in = malloc(sizeof(*in));

	if (in)
		fuzz_nl(data, size, on_msg, in);
	free(in);
	return 0;
}
