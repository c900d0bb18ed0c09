#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The cli test scripts themselves: one that runs jq or python3 (not in a
# minimal install) says so with lib.sh's `need TOOL`, so that a machine
# without the tool skips it (exit 77) instead of failing it with
# "jq: not found" read as a wrong answer.
. "$(dirname "$0")/lib.sh"
n=0
for f in "$TOP_SRCDIR"/tests/cli/*.sh; do
	name=$(basename "$f")
	case $name in lib.sh | test-scripts.sh) continue ;; esac
	n=$((n + 1))
	for tool in jq python3; do
		# a command word: at the start, after a pipe, $( or &&
		grep -v '^\s*#' "$f" | grep -q "\(^\|[|(;&]\)\s*$tool\b" || continue
		grep -q "^\s*need\b.*\b$tool\b" "$f" || bad "$name runs $tool without 'need $tool'"
		grep -q '^\. .*lib\.sh' "$f" || bad "$name runs $tool but does not source lib.sh (need)"
	done
done
ok "$n test scripts read"
finish
