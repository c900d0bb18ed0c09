/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the kernel-log classifier (lib/monitor/
 * kmsg-classify.c): any bytes are a /dev/kmsg record, classified with and
 * without the test option, and a message text.  An event's strings must be
 * terminated within their arrays and its kind in the catalogue.
 */
#include "monitor.h"
#include "fuzz-util.h"

static void check(const struct mlx_event *ev, int r)
{
	if (r < -200 || r > 1)
		abort();
	if (r == 1 && !mlx_ev_kind_info(ev->kind))
		abort();
	if (strnlen(ev->text, sizeof(ev->text)) == sizeof(ev->text) ||
	    strnlen(ev->pci_address, sizeof(ev->pci_address)) == sizeof(ev->pci_address) ||
	    strnlen(ev->netdev, sizeof(ev->netdev)) == sizeof(ev->netdev) ||
	    strnlen(ev->detail, sizeof(ev->detail)) == sizeof(ev->detail) ||
	    strnlen(ev->fw_command, sizeof(ev->fw_command)) == sizeof(ev->fw_command) ||
	    strnlen(ev->rdma_device, sizeof(ev->rdma_device)) == sizeof(ev->rdma_device))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = fuzz_copy(data, size);
	struct mlx_event ev;

	if (!copy)
		return 0;
	/* not NUL-terminated: the classifier is bounded by size */
	check(&ev, mlx_kmsg_classify((const char *)copy, size, 0, &ev));
	check(&ev, mlx_kmsg_classify((const char *)copy, size, MLX_KMSG_ACCEPT_USER, &ev));
	check(&ev, mlx_kmsg_classify_text((const char *)copy, size, &ev));
	free(copy);
	return 0;
}
