#!/usr/bin/env bash
# Pack bin/dgtd and the GPU-relevant test binaries for a lent GPU machine (which has the
# NVIDIA driver but none of this project's libraries): wraps ../shared/gpu/pack.sh when it
# exists, and adds scripts/gpu-run.sh to the bundle.
#   usage: scripts/gpu-pack.sh        (from the project root, after `make tests`)
# Result: .gpu/dgtd-gpu.tar.gz. On the device machine: carry [".gpu"] and run
#   tar xzf .gpu/dgtd-gpu.tar.gz -C /tmp && bash /tmp/dgtd-gpu/gpu-run.sh
set -euo pipefail
pack=../shared/gpu/pack.sh
[ -x "$pack" ] || { echo "gpu-pack.sh: $pack not found (it comes with the workplace)" >&2; exit 2; }
build=${BUILD:-build}
tests=(test_cl_variants_match_reference test_src_cl_rhs_matches_reference_with_sources
       test_cl_lserk_steps_match_reference test_bench_face_flux_and_lift_blocking_match_reference
       test_cl_broken_variants_fail_cleanly)
bins=(bin/dgtd)
for t in "${tests[@]}"; do
  [ -x "$build/tests/$t" ] && bins+=("$build/tests/$t")
done
"$pack" "${bins[@]}"
# Add the run script to the bundle.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
tar xzf .gpu/dgtd-gpu.tar.gz -C "$stage"
cp scripts/gpu-run.sh "$stage/dgtd-gpu/"
tar czf .gpu/dgtd-gpu.tar.gz -C "$stage" dgtd-gpu
du -sh .gpu/dgtd-gpu.tar.gz
