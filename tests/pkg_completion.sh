#!/usr/bin/env bash
# The bash completion (packaging/clbench.bash) completes the commands, the flags and the row
# names of the clbench being completed: every command of --help, every flag of --help, every
# row of run --list, and the values of the flags that take a fixed set.
# usage: pkg_completion.sh CLBENCH SOURCE_DIR
set -u
bin=$1 src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# shellcheck source=/dev/null
source "$src/packaging/clbench.bash"
complete -p clbench >/dev/null 2>&1 || fail "no completion registered for clbench"
comp() { # comp WORD... : the completions of the last word
    COMP_WORDS=("$bin" "$@")
    COMP_CWORD=$#
    COMPREPLY=()
    _clbench
    printf '%s\n' "${COMPREPLY[@]}" | sort
}
want_cmds=$("$bin" --help | sed -n '/^commands:/,/^[a-z]/s/^  \([a-z][a-z-]*\) .*/\1/p' | sort)
[ "$(comp "")" = "$want_cmds" ] || fail "commands: got '$(comp "" | tr '\n' ' ')', want '$(tr '\n' ' ' <<<"$want_cmds")'"
[ "$(comp su)" = suite ] || fail "'su' completed to '$(comp su)'"
[ "$(comp --vers)" = --version ] || fail "'--vers' completed to '$(comp --vers)'"
[ "$(comp suite --refer)" = --reference ] || fail "'suite --refer' completed to '$(comp suite --refer)'"
[ "$(comp suite --lis)" = --list ] || fail "'suite --lis' completed to '$(comp suite --lis)'"
for f in $("$bin" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    comp run "${f%?}" | grep -qxF -- "$f" || fail "flag $f is not completed from ${f%?}"
done
rows=$("$bin" run --list | awk '{print $1}' | sort)
[ "$(comp run "")" = "$rows" ] || fail "run: $(comp run "" | wc -l) rows completed, run --list has $(wc -l <<<"$rows")"
[ "$(comp --quick run app.sgemm.t)" = "$(grep '^app\.sgemm\.t' <<<"$rows")" ] || fail "'run app.sgemm.t' completed to '$(comp --quick run app.sgemm.t | tr '\n' ' ')'"
[ "$(comp run --type g)" = gpu ] || fail "'--type g' completed to '$(comp run --type g)'"
[ "$(comp tune "" | tr '\n' ' ')" = "euler gemm " ] || fail "tune completed to '$(comp tune "" | tr '\n' ' ')'"
[ "$(comp cache "" | tr '\n' ' ')" = "clear list " ] || fail "cache completed to '$(comp cache "" | tr '\n' ' ')'"
want_store=$("$bin" --help | sed -n 's/^  store \([a-z|]*\) .*/\1/p' | tr '|' '\n' | sort | tr '\n' ' ')
[ "$(comp store "" | tr '\n' ' ')" = "$want_store" ] || fail "store completed to '$(comp store "" | tr '\n' ' ')', --help lists '$want_store'"
grep -qw site <<<"$want_store" || fail "--help lists no store site: '$want_store'"
[ $fails -eq 0 ] && echo "PASS: commands, $(wc -l <<<"$rows") row names, every flag and the fixed values complete"
[ $fails -eq 0 ]
