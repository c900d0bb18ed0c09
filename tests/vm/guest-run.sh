#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs in the lab's guest (tests/vm/lab.sh run): the tests named on the
# command line (paths under $TOP_SRCDIR), in lanes separated by "--": the
# lanes run side by side (the guest has 2 vCPUs), the tests of a lane one
# after the other, each under a timeout, with its output in
# $LAB_OUT/logs/NAME.log and a line "STATUS SECONDS NAME" appended to
# $LAB_OUT/results as it ends, so a boot that dies half-way still reports
# what ran.  Exit 0; the host (tests/vm/tier.sh) judges the results.
: "${LAB_OUT:?runs in the lab (tests/vm/lab.sh run)}"
: "${TOP_SRCDIR:?TOP_SRCDIR names the source tree}"
mkdir -p "$LAB_OUT/logs"
: >"$LAB_OUT/results"
{
	echo "kernel $(uname -r) ($(cat /proc/version))"
	echo "cpus $(nproc), memory $(sed -n 's/^MemTotal: *//p' /proc/meminfo)"
	echo "modules: $(cut -d' ' -f1 /proc/modules | sort | tr '\n' ' ')"
} >"$LAB_OUT/guest-info"

run_one() {
	name=$(echo "$1" | tr / _)
	start=$(date +%s)
	echo "lab: $1"
	( cd "${TOP_BUILDDIR:-/}" && exec timeout -k 10 "${LAB_TEST_TIMEOUT:-600}" sh "$TOP_SRCDIR/$1" ) \
		>"$LAB_OUT/logs/$name.log" 2>&1 </dev/null
	rc=$?
	# one short line per append: the lanes share the file
	echo "$rc $(($(date +%s) - start)) $1" >>"$LAB_OUT/results"
	echo "lab: $1 exit $rc"
}

lane=
pids=
for t in "$@" --; do
	if [ "$t" = -- ]; then
		if [ -n "$lane" ]; then
			# shellcheck disable=SC2086
			(for x in $lane; do run_one "$x"; done) &
			pids="$pids $!"
		fi
		lane=
	else
		lane="$lane $t"
	fi
done
for p in $pids; do wait "$p"; done
exit 0
