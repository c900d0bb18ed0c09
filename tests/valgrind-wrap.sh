#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make check-valgrind` runs the cli tier with MLXCLI pointing here: every
# mlxcli invocation runs under memcheck; an invalid read or write, a use of
# uninitialised memory or a definite leak makes it exit 99, which no test
# accepts as a result.  The log of every run that found something is kept
# in $VALGRIND_LOGDIR.
dir=${VALGRIND_LOGDIR:-/tmp/mlxcli-valgrind}
# World-writable and sticky, like /tmp: tests run mlxcli as nobody too.
mkdir -p "$dir" 2>/dev/null && chmod 1777 "$dir" 2>/dev/null
exec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	--show-leak-kinds=definite --track-origins=yes --log-file="$dir/vg.%p.log" \
	"${MLXCLI_REAL:?}" "$@"
