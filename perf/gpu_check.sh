#!/usr/bin/env bash
# perf/gpu_check.sh: the one-call device check for a lent GPU machine (< 5 min).
#
#   bash perf/gpu_check.sh            (or: make gpu-check)
#   BUILD=... SEED=... JOBS=... POINTS=... bash perf/gpu_check.sh
#
# 1. builds libekoc (+ the Rust crate), libekoc_cuda.so (`make cuda`), the
#    harness tests/gpu/gpu_check.c, perf/bench_batch.c and the two test
#    programs, in $BUILD (default build-gpucheck);
# 2. tests/test_gpu_math (host-compiled device math; its backend test now runs
#    on the device) and tests/test_batch;
# 3. GPU against CPU batch on $JOBS fresh random jobs (seed printed; outputs
#    poisoned before each run), every element entry within 1e-10 relative or
#    the rounding bound of tests/gpu/gpu_check.c; E(N) throughput, $POINTS
#    points (NNLO singlet, iterate-exact, 10 iterations);
# 4. the 14 LHA parts (gpu and CPU batch, best of 3, and the LHA digits of
#    both), and the 200-point grid x 50 targets NNLO VFNS request (gpu, batch);
# 5. a short table last. A copy of everything goes to $OUT/gpu_check.log when
#    $OUT is set (the device tool's output folder), else /tmp/gpu_check.log.
# The machine needs the repository's toolchain (gcc, GSL, cmocka, cargo,
# nvcc); where cargo is missing, carry rust-bridge/target from a build here.
# Exit status: 0 all checks passed, 1 a check failed, 2 build failed, 3 no device.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${BUILD:-build-gpucheck}
J=${JOBS:-40}
P=${POINTS:-1e7}
SEED=${SEED:-$(date +%s)}
NPROC=$(nproc)
RULE="--panels 1 --points 36"
LOG=${OUT:-/tmp}/gpu_check.log
EMU=${EMULATE:-0}   # EMULATE=1: dry run without a device (kernels emulated on the host, no gpu timings)
mkdir -p "$(dirname "$LOG")"
exec > >(tee "$LOG") 2>&1
T0=$(date +%s)
say() { echo; echo "== [$(($(date +%s) - T0)) s] $*"; }
val() { grep -m1 "^RESULT $1 " "$2" 2>/dev/null | cut -d' ' -f3-; }

say "machine"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>/dev/null || echo "nvidia-smi: not available"
echo "cores: $NPROC   date: $(date -u +%FT%TZ)   commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo '+dirty')"

say "build ($B)"
mkdir -p "$B"
if ! make --no-print-directory BUILD="$B" -j"$NPROC" lib "$B/perf/bench_batch" "$B/perf/lha" "$B/tests/gpu/gpu_check" \
     "$B/tests/test_gpu_math" "$B/tests/test_batch" >"$B/gc.build.log" 2>&1; then
  tail -30 "$B/gc.build.log"; echo "gpu_check: build failed"; exit 2
fi
make --no-print-directory BUILD="$B" cuda || { echo "gpu_check: make cuda failed"; exit 2; }
[ -f "$B/libekoc_cuda.so" ] || { echo "gpu_check: $B/libekoc_cuda.so missing (nvcc?)"; exit 2; }
export EKOC_CUDA_LIBRARY="$PWD/$B/libekoc_cuda.so"

say "tests"
"$B/tests/test_gpu_math" 2>&1 | tail -4
"$B/tests/test_batch" 2>&1 | tail -2

say "gpu vs cpu batch: $J random jobs (seed $SEED), E(N) x $P"
EMUFLAG=""; [ "$EMU" = 1 ] && EMUFLAG=--emulate
timeout 170 "$B/tests/gpu/gpu_check" $EMUFLAG --seed "$SEED" --jobs "$J" --points "$P" | tee "$B/gc.check.txt"
CHECK_RC=${PIPESTATUS[0]}
if [ "$CHECK_RC" = 3 ]; then echo "gpu_check: no usable device"; exit 3; fi

say "LHA, 14 parts"
GPU=gpu; [ "$EMU" = 1 ] && GPU=batch   # dry run: the CPU stands in
timeout 60 "$B/perf/bench_batch" time --backend $GPU $RULE --repeat 3 | tee "$B/gc.lha_gpu.txt"
timeout 60 "$B/perf/bench_batch" time --backend batch $RULE --repeat 3 | tee "$B/gc.lha_cpu.txt"
timeout 60 "$B/perf/lha" --backend $GPU --quiet | grep -E "^LHA" | tee "$B/gc.digits_gpu.txt"
timeout 60 "$B/perf/lha" --backend batch --quiet | grep -E "^LHA" | tee "$B/gc.digits_cpu.txt"
timeout 60 "$B/perf/bench_batch" compare --backend $GPU --rules 1x36 --ref 1,36 | tail -1 | tee "$B/gc.lha_cmp.txt"

say "200-point grid x 50 targets, NNLO VFNS"
timeout 60 "$B/perf/bench_batch" big --backend $GPU $RULE --nx 200 --targets 50 | tee "$B/gc.big_gpu.txt"
timeout 90 "$B/perf/bench_batch" big --backend batch $RULE --nx 200 --targets 50 | tee "$B/gc.big_cpu.txt"

wall() { sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p' "$1" | head -1; }
say "summary"
printf '%-44s %s\n' "device" "$(val device "$B/gc.check.txt")"
printf '%-44s %s\n' "gpu vs cpu: jobs / entries" "$(val jobs "$B/gc.check.txt") / $(val entries "$B/gc.check.txt")"
printf '%-44s %s\n' "  entries beyond 1e-10 rel (rounding bound)" "$(val entries_beyond_1e-10_rel "$B/gc.check.txt")"
printf '%-44s %s\n' "  max |diff| / tolerance (must be <= 1)" "$(val max_diff_over_tol "$B/gc.check.txt")"
printf '%-44s %s\n' "  failed entries" "$(val jobs_failed_entries "$B/gc.check.txt")"
printf '%-44s %s\n' "E(N) NNLO singlet it-exact 10: points/s" "$(val en_per_s "$B/gc.check.txt") ($(val en_points "$B/gc.check.txt") in $(val en_kernel_ms "$B/gc.check.txt") ms)"
printf '%-44s %s\n' "  host ekore tower per N (ns, 1 core)" "$(val en_host_tower_ns "$B/gc.check.txt")"
printf '%-44s %s\n' "  max rel vs host" "$(val en_max_rel_vs_host "$B/gc.check.txt")"
printf '%-44s %s\n' "LHA 14 parts wall s: gpu / cpu batch" "$(wall "$B/gc.lha_gpu.txt") / $(wall "$B/gc.lha_cpu.txt")"
printf '%-44s %s\n' "LHA digits gpu" "$(sed -n 's/^LHA digits: //p' "$B/gc.digits_gpu.txt")"
printf '%-44s %s\n' "LHA digits cpu batch" "$(sed -n 's/^LHA digits: //p' "$B/gc.digits_cpu.txt")"
printf '%-44s %s\n' "LHA operators gpu vs cpu (composed)" "$(cut -d' ' -f3- "$B/gc.lha_cmp.txt")"
printf '%-44s %s\n' "200x50 NNLO VFNS wall s: gpu / cpu batch" "$(wall "$B/gc.big_gpu.txt") / $(wall "$B/gc.big_cpu.txt")"
printf '%-44s %s\n' "check" "$(val check "$B/gc.check.txt")   total $(($(date +%s) - T0)) s"
[ "$CHECK_RC" = 0 ] || exit 1
