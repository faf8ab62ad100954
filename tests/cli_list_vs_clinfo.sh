#!/usr/bin/env bash
# clbench list numbers platforms and devices exactly as clinfo -l does.
set -u
bin=$1
diff <(clinfo -l) <("$bin" list) && echo "cli_list_vs_clinfo: identical"
