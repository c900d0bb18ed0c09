/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for issue 27's decoders: a firmware image's format and
 * MFA2 descriptors (lib/decode/decode-devlink-flash.c, the bytes of a file
 * the user names), the devlink flash status notifications, the reload
 * capabilities and reply, and the emulator's view of the HEALTH_REPORTER_SET
 * and PAUSE/LINKMODES/FEC_SET requests (lib/debug/health-policy.c,
 * lib/phy/link-settings.c).  Strings must stay terminated, counts within
 * their arrays.
 */
#include "fuzz-nl.h"
#include "fw.h"
#include "health.h"
#include "phy.h"

static void term(const char *s, size_t cap)
{
	if (strnlen(s, cap) == cap)
		abort();
}

static int on_msg(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct mlx_flash_status st;
	struct mlx_reload_caps caps;
	uint32_t performed;

	(void)arg;
	if (mlx_flash_status_decode(h, len, "pci", "0000:5e:00.0", &st) == 1) {
		term(st.msg, sizeof(st.msg));
		term(st.component, sizeof(st.component));
	}
	(void)mlx_flash_status_decode(h, len, "netdevsim", "netdevsim1", &st);
	(void)mlx_devlink_caps_decode(h, len, &caps);
	(void)mlx_reload_reply_decode(h, len, &performed);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mlx_fw_image *img = malloc(sizeof(*img));
	struct mlx_health_set_req hs;
	struct mlx_link_set_req ls;
	uint8_t *copy = fuzz_copy(data, size);
	char why[160];

	if (img && copy && mlx_fw_image_decode(copy, size, img, why, sizeof(why)) == 0) {
		if (img->npsid > MLX_FW_IMAGE_MAX_PSIDS)
			abort();
		for (size_t i = 0; i < img->npsid; i++)
			term(img->psid[i], sizeof(img->psid[i]));
		(void)mlx_fw_image_has_psid(img, "MT_0000000359");
	}
	if (copy && mlx_health_set_parse(copy, size, &hs, why, sizeof(why)) == 0) {
		term(hs.bus, sizeof(hs.bus));
		term(hs.dev, sizeof(hs.dev));
		term(hs.reporter, sizeof(hs.reporter));
	}
	if (copy && mlx_link_set_parse(copy, size, &ls, why, sizeof(why)) == 0)
		term(ls.ifname, sizeof(ls.ifname));
	fuzz_nl(data, size, on_msg, NULL);
	free(copy);
	free(img);
	return 0;
}
