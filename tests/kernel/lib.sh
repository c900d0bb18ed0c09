# SPDX-License-Identifier: GPL-2.0-or-later
# What the kernel test scripts share; each sources it first:
#
#     . "$(dirname "$0")/lib.sh"
#
# It brings the cli tests' helpers (tests/cli/lib.sh: MLXCLI, the sample
# hosts, a private MLXCLI_STATE_DIR and $tmp, need, ok, bad, run, finish,
# priv_setup and as_nobody) and adds
#
#     need_root            exit 77 unless root (a namespace needs CAP_SYS_ADMIN)
#     need_no_connectx     exit 77 when this machine has a ConnectX function
#                          (the tests expect none)
#     make_netns PREFIX    a private network namespace $ns, removed on exit
#     make_veth A B        a veth pair A <-> B inside $ns, both up
#     nsx CMD...           CMD inside $ns; nsx_nobody CMD... as uid 65534
#
# One rule for the tier: a test that cannot run here (no root, no tool, no
# namespace, no veth) says why and exits 77; all-tests.sh fails a CI run
# where this tier skipped.

# (by TOP_SRCDIR when set: the kernel lab's tests, tests/vm/guest, source this too)
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/cli/lib.sh"

need_root() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "SKIP: needs root to create a network namespace"
		exit 77
	fi
}

need_no_connectx() {
	for d in /sys/bus/pci/devices/*; do
		if [ "$(cat "$d/vendor" 2>/dev/null)" = 0x15b3 ]; then
			echo "SKIP: this machine has a Mellanox/NVIDIA function ($(basename "$d")); the test expects none"
			exit 77
		fi
	done
}

ns=
make_netns() {
	need ip
	ns=$1-$$
	if ! ip netns add "$ns" 2>"$tmp/netns.err"; then
		echo "SKIP: cannot create a network namespace: $(cat "$tmp/netns.err")"
		ns=
		exit 77
	fi
	on_exit="ip netns del '$ns' 2>/dev/null; $on_exit"
}

nsx() {
	ip netns exec "$ns" "$@"
}

nsx_nobody() {
	priv_prefix="ip netns exec $ns"
	as_nobody "$@"
	nobody_rc=$?
	priv_prefix=
	return $nobody_rc
}

make_veth() {
	if ! ip -n "$ns" link add "$1" type veth peer name "$2" 2>"$tmp/veth.err"; then
		echo "SKIP: cannot create a veth pair (no veth module?): $(cat "$tmp/veth.err")"
		exit 77
	fi
	ip -n "$ns" link set "$1" up && ip -n "$ns" link set "$2" up ||
		{ bad "cannot set the veths $1 and $2 up"; exit 1; }
}
