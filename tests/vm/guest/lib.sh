# SPDX-License-Identifier: GPL-2.0-or-later
# What the lab's guest tests share (they run only in the kernel lab, on
# Debian 12's kernel: tests/vm/tier.sh); each sources it first:
#
#     . "$(dirname "$0")/lib.sh"
#
# It brings the kernel tier's helpers (tests/kernel/lib.sh: need, ok, bad,
# check, run, finish, make_netns, nsx, ...) and adds
#
#     need_lab             exit 77 outside the lab (no netdevsim bus)
#     make_nsim [PORTS]    a netdevsim device with PORTS ports (default 1),
#                          deleted on exit: $nsim_id, $nsim (its devlink
#                          handle, netdevsim/netdevsimN), $nsim_dir (its
#                          sysfs directory), $nsim_dbg (its debugfs
#                          directory) and $nsim_if (the first port's netdev)

: "${TOP_SRCDIR:?the lab's tests run with TOP_SRCDIR set (tests/vm/tier.sh)}"
. "$TOP_SRCDIR/tests/kernel/lib.sh"

need_lab() {
	need_root
	if [ ! -w /sys/bus/netdevsim/new_device ]; then
		echo "SKIP: no netdevsim here (this test runs in the kernel lab, tests/vm)"
		exit 77
	fi
}

make_nsim() {
	# an id of this test's own: the lab runs two tests side by side
	nsim_id=$((1000 + $$ % 30000))
	echo "$nsim_id ${1:-1}" >/sys/bus/netdevsim/new_device || { bad "cannot make netdevsim $nsim_id"; exit 1; }
	on_exit="echo $nsim_id >/sys/bus/netdevsim/del_device 2>/dev/null; $on_exit"
	nsim=netdevsim/netdevsim$nsim_id
	nsim_dir=/sys/bus/netdevsim/devices/netdevsim$nsim_id
	nsim_dbg=/sys/kernel/debug/netdevsim/netdevsim$nsim_id
	# the ports' netdevs appear as the driver probes them
	i=0
	while [ -z "$(ls "$nsim_dir/net" 2>/dev/null)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	nsim_if=$(ls "$nsim_dir/net" 2>/dev/null | sort | head -n 1)
	[ -n "$nsim_if" ] || { bad "netdevsim $nsim_id has no netdev"; exit 1; }
}
