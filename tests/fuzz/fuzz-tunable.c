/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for issue 27's params sources (lib/params/
 * params-tunable.c): a capture's GTUNABLE recording
 * (mlx_tunable_rec_decode, the bytes of ioctl-gtunable-3.bin), the
 * threaded file's text (mlx_threaded_parse) and the PFC prevention
 * timeout's words (mlx_pfc_tout_parse).  A decoded recording is either an
 * errno in 1..4095 or a value; what parses as a timeout is a u16 that
 * mlx5's rule and the write path take or refuse, never out of the type.
 */
#include <errno.h>
#include <stdio.h>

#include "fuzz-util.h"
#include "params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *p = fuzz_copy(data, size);
	char *s = fuzz_str(data, size), out[16];
	uint16_t v = 0, ms = 0;
	int e = 12345, r;

	if (!p || !s)
		goto done;
	r = mlx_tunable_rec_decode(p, size, 3, &e, &v);
	if (r == 0 && !(e == 0 ? size == MLX_TUNABLE_REC_LEN : e < 0 && e > -4096 && size == 4))
		abort();
	if (r != 0 && r != -EBADMSG)
		abort();
	memset(out, 'x', sizeof(out));
	r = mlx_threaded_parse(s, out, sizeof(out));
	if (r == 0 && !memchr(out, '\0', sizeof(out)))
		abort();
	if (r != 0 && r != -EBADMSG)
		abort();
	r = mlx_pfc_tout_parse(s, &ms);
	if (r == 0) {
		char back[8];

		/* a number parses back to itself; a word is auto or off */
		snprintf(back, sizeof(back), "%u", ms);
		if (strcmp(back, s) && !(ms == MLX_PFC_TOUT_AUTO && !strcmp(s, "auto")) &&
		    !(ms == 0 && (!strcmp(s, "off") || !strcmp(s, "disabled"))) &&
		    strtoull(s, NULL, 10) != ms)
			abort();
		(void)mlx_pfc_tout_mlx5_check(ms);
		if (mlx_pfc_tout_mlx5_check(ms) == 0 && mlx_pfc_tout_mlx5_effective(ms) > 8000)
			abort();
	} else if (r != -EINVAL && r != -ERANGE) {
		abort();
	}
done:
	free(p);
	free(s);
	return 0;
}
