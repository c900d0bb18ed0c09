#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Issue 28: `devices -j` costs at most the syscalls a function that lspci
# pays for reading the same captured tree (strace -c).  Counted as the
# growth from a host of 64 functions to one of 256 (tests/bench/
# gen-big-host.py, one PF in 32 on both), so the start-up of either tool
# (the loader, lspci's pci.ids) does not count, only what one more
# function costs.  Each run starts from a process that holds no
# descriptor but 0-2 (a descriptor inherited in the middle of mlxcli's
# would split its one close_range a function in two).  The output must
# list every function, so a scan that stopped early cannot pass.
#
# And the files it looks up a function (strace's %file class: opens,
# readlinks, stats by name), the kernel's cost that syscall counts do not
# show (each name a dentry, cold on a big host): at most 8.25 a function
# since issue 28's third pass (8.19 on this host: a VF's directory,
# config, numa_node, its netdev's operstate and speed, its driver link
# and the two class links that name its netdev and RDMA device; a PF in
# 32 its SR-IOV counts and its RDMA files more; lspci looks up 7, main
# before it 11.09).  A file read more a function fails it.
# Skips without strace or lspci, and under check-valgrind (valgrind's own
# syscalls would be counted).  Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need strace lspci python3 jq
if [ "$MLXCLI" != "${MLXCLI_REAL:-$MLXCLI}" ]; then
	echo "SKIP: \$MLXCLI is a wrapper (check-valgrind): its syscalls are not mlxcli's"
	exit 77
fi

# A sanitizer build's leak check stops the world with ptrace, which
# strace holds: without it the run would end in LeakSanitizer's error.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

# calls CMD...: the syscalls of CMD (its children's too), or nothing
calls() {
	python3 -c 'import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:],
		stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))' \
		strace -f -c -o "$tmp/strace" "$@" || return 1
	awk '$NF == "total" { print $4 }' "$tmp/strace"
}

# lookups CMD...: the names CMD looks up (opens, readlinks, stats by name;
# an fstat of a descriptor, AT_EMPTY_PATH, is none), or nothing
lookups() {
	python3 -c 'import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:],
		stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))' \
		strace -f -e trace=%file -o "$tmp/files" "$@" || return 1
	grep -v -e AT_EMPTY_PATH -e '^[0-9]* +++' -e '^[0-9]* ---' "$tmp/files" | wc -l
}

for n in 2 8; do
	python3 "$TOP_SRCDIR/tests/bench/gen-big-host.py" "$tmp/h$n" "$n" 31 >/dev/null ||
		{ bad "gen-big-host.py $n 31"; finish; }
	got=$("$MLXCLI" --sysroot "$tmp/h$n" -j devices | jq '.devices | length')
	check "devices -j lists the $((n * 32)) functions of $n PFs x 31 VFs" "$got" "$((n * 32))"
	m=$(calls "$MLXCLI" --sysroot "$tmp/h$n" -j devices)
	l=$(calls lspci -A linux-sysfs -O "sysfs.path=$tmp/h$n/sys/bus/pci" -D -d 15b3:)
	[ -n "$m" ] && [ -n "$l" ] || { bad "strace -c of mlxcli or lspci on $n PFs gave no count"; finish; }
	eval "m$n=$m l$n=$l"
	f=$(lookups "$MLXCLI" --sysroot "$tmp/h$n" -j devices)
	[ -n "$f" ] || { bad "strace -e trace=%file of mlxcli on $n PFs gave no count"; finish; }
	eval "f$n=$f"
done
# per function: growth over the 192 functions more
per=$(awk -v a="$m2" -v b="$m8" 'BEGIN { printf "%.2f", (b - a) / 192 }')
lper=$(awk -v a="$l2" -v b="$l8" 'BEGIN { printf "%.2f", (b - a) / 192 }')
echo "  syscalls a function: mlxcli $per ($m2 at 64 functions, $m8 at 256), lspci $lper ($l2, $l8)"
if awk -v a="$per" -v b="$lper" 'BEGIN { exit !(a <= b) }'; then
	ok "mlxcli's syscalls a function ($per) at most lspci's ($lper)"
else
	bad "mlxcli devices -j costs $per syscalls a function, lspci $lper"
fi
fper=$(awk -v a="$f2" -v b="$f8" 'BEGIN { printf "%.2f", (b - a) / 192 }')
echo "  files looked up a function: $fper ($f2 at 64 functions, $f8 at 256)"
if awk -v a="$fper" 'BEGIN { exit !(a <= 8.25) }'; then
	ok "mlxcli looks up $fper files a function, at most 8.25"
else
	bad "mlxcli devices -j looks up $fper files a function, more than 8.25 (a per-function file read added?)"
fi
finish
