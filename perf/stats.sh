#!/usr/bin/env bash
# perf/stats.sh: appends one measurement of the LHA benchmark to perf/STATS.md
# (`make stats`). Runs the 14 LHA parts under GNU time (`time -v`), records
# the commit hash, the command, the machine, wall/user/sys time, peak RSS,
# the summary line and the per-stage profile of the last part; then times
# ekoc on the four NNLO scale-variation parts (tables 14 and 15, parts 2 and 3)
# and, when eko is importable and STATS_EKO is not 0, eko on the same four
# (perf/eko_lha.py), so both figures come from the same machine and day.
#
# usage: perf/stats.sh BUILD/perf/lha [backend]      (env: STATS_EKO=0 to skip eko)
set -euo pipefail
lha=${1:?usage: perf/stats.sh path/to/lha [backend]}
backend=${2:-adaptive}
cd "$(dirname "$0")/.."
out=perf/STATS.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

hash=$(git rev-parse --short HEAD)
dirty=""
git diff --quiet HEAD -- src rust-bridge include perf 2>/dev/null || dirty=" (with uncommitted changes)"
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || echo unknown)
machine="$(nproc) cores, ${cpu}, $(uname -sr), $(gcc --version | head -1)"

/usr/bin/time -v "$lha" --backend "$backend" >"$tmp/lha.out" 2>"$tmp/time.out"
field() { grep -m1 "$1" "$tmp/time.out" | awk -F': ' '{print $2}'; }
wall=$(field "Elapsed (wall clock)")
user=$(field "User time")
sys=$(field "System time")
rss=$(field "Maximum resident set size")
summary=$(grep '^LHA summary' "$tmp/lha.out")
digits=$(grep '^LHA digits' "$tmp/lha.out")
profile=$(awk '/^profile/{buf=""; keep=1; next} keep && /^  /{buf=buf $0 "\n"; next} keep{keep=0} END{printf "%s", buf}' "$tmp/lha.out")

sv_parts="14/2,14/3,15/2,15/3"
/usr/bin/time -v "$lha" --backend "$backend" --parts "$sv_parts" --quiet >"$tmp/sv.out" 2>"$tmp/sv_time.out"
sv_wall=$(grep -m1 "Elapsed (wall clock)" "$tmp/sv_time.out" | awk -F': ' '{print $2}')
sv_summary=$(grep '^LHA summary' "$tmp/sv.out")

eko_line="eko not run (STATS_EKO=0 or eko not installed)"
if [ "${STATS_EKO:-1}" != "0" ] && python3 -c "import eko" 2>/dev/null; then
  # one warm-up part first: numba compiles eko's kernels on first use
  python3 perf/eko_lha.py --parts 14/2 --cores 0 >"$tmp/eko_warm.out" 2>&1 || true
  if python3 perf/eko_lha.py --parts "$sv_parts" --cores 0 >"$tmp/eko.out" 2>&1; then
    eko_line=$(grep '^eko total' "$tmp/eko.out")
  else
    eko_line="eko run failed: $(tail -1 "$tmp/eko.out")"
  fi
fi

{
  echo
  echo "## $(date -u +%Y-%m-%d) · ${hash}${dirty} · make stats (LHA benchmark, backend ${backend})"
  echo
  echo "Command: \`perf/stats.sh $lha $backend\` (i.e. \`/usr/bin/time -v $lha --backend $backend\`)."
  echo "Machine: ${machine}."
  echo
  echo "| figure | value |"
  echo "|---|---|"
  echo "| wall (14 parts) | ${wall} |"
  echo "| user / sys | ${user} s / ${sys} s |"
  echo "| peak RSS | ${rss} kB |"
  echo "| four NNLO sv parts (${sv_parts}), ekoc wall | ${sv_wall} |"
  echo "| same four parts, eko 0.15.7 | ${eko_line} |"
  echo
  echo '```'
  echo "$summary"
  echo "$digits"
  echo "$sv_summary"
  echo '```'
  echo
  echo "Profile of the last part (stage, start ms, end ms):"
  echo
  echo '```'
  printf "%s\n" "$profile"
  echo '```'
} >>"$out"
echo "stats: appended a section for ${hash} to ${out}"
tail -n 30 "$out"
