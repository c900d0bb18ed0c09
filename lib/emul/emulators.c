/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every emulator of a captured system, in the order the captured kernel
 * boundary asks them (lib/core/boundary-captured.c): the first that takes
 * a request answers it.  A static table, written out: adding an emulator
 * is a line here and its entry beside its code (emul.h).
 */
#include "config.h"

#include <stddef.h>

#include "emul.h"

const struct mlx_emul *const mlx_emulators[] = {
	&mlx_emul_dcb,
	/* before the knobs and SR-IOV: a link created or deleted, not changed */
	&mlx_emul_netdevs,
	/* before SR-IOV: an RTM_SETLINK carrying IFLA_MTU is a knob */
	&mlx_emul_knobs,
	&mlx_emul_sriov,
	&mlx_emul_health_policy,
	&mlx_emul_link_settings,
	&mlx_emul_dcqcn,
	&mlx_emul_link,
	&mlx_emul_device,
	NULL,
};
