#!/usr/bin/env bash
# Bundle bin/dgtd, the GPU-relevant test binaries, clinfo, every shared library they load (the GPU
# machine has NVIDIA's driver but none of this project's libraries, and no ICD loader), an
# ICD file naming NVIDIA's OpenCL library, MPICH's mpiexec, cl_templates/, tuning/ and
# scripts/gpu-run.sh, and libparanumal's maxwell solver when bench/libparanumal/build.sh has
# built it in $LIBP (default /tmp/libp; its run-time files only, unpacked there on the GPU)
# into .gpu/dgtd-gpu.tar.gz (compressed: what travels to the device must stay under 64 MiB).
#   usage: scripts/gpu-pack.sh        (from the project root, after `make tests`)
# On the device machine:
#   tar xzf .gpu/dgtd-gpu.tar.gz -C /tmp && bash /tmp/dgtd-gpu/gpu-run.sh STAGE...
set -euo pipefail
build=${BUILD:-build}
bins=(bin/dgtd /usr/bin/mpiexec.hydra /usr/bin/hydra_pmi_proxy /usr/bin/clinfo)
for t in backend/test_cl_variants_match_reference backend/test_cl_edge_sizes_and_halo_match_reference \
         backend/test_cl_lserk_steps_match_reference backend/test_cl_multirate_matches_reference \
         backend/test_cl_broken_variants_fail_cleanly backend/test_cl_cavity_converges_and_matches_reference \
         sources/test_src_cl_rhs_matches_reference_with_sources sources/test_src_cl_lserk_with_sources_matches_reference \
         bench/test_bench_face_flux_and_lift_blocking_match_reference bench/test_bench_pml_case_verified_and_timed_apart \
         pml/test_pml_cl_stable_and_agrees_with_reference pml/test_pml_multirate_matches_global_lserk4 \
         dft/test_dft_device_sums_match_reference tfsf/test_tfsf_leakage_fresnel_and_backends; do
  [ -x "$build/tests/$t" ] && bins+=("$build/tests/$t")
done
libp=${LIBP:-/tmp/libp}
libp_exes=()
for p in double float; do
  e=$libp/$p/libparanumal/solvers/maxwell/maxwellMain
  [ -x "$e" ] && libp_exes+=("$e")
done
bins+=("${libp_exes[@]}") # for their libraries; the executables travel in libp.tar.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/dgtd-gpu
mkdir -p "$root/bin" "$root/lib" "$root/vendors"
for b in "${bins[@]}"; do
  case $b in */maxwellMain) ;; *) cp -L "$b" "$root/bin/" ;; esac
  # Every resolved library but the C runtime, which the device machine has.
  ldd "$b" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | while read -r so; do
    [[ $so == "$libp"/* ]] && continue # OCCA's, in the libparanumal tree
    case "${so##*/}" in
      libc.so.*|libm.so.*|libdl.so.*|librt.so.*|libpthread.so.*|ld-linux*|libgcc_s.so.*|libstdc++.so.*) ;;
      *) [ -e "$root/lib/${so##*/}" ] || cp -L "$so" "$root/lib/" ;;
    esac
  done
done
cp -r cl_templates tuning "$root/"
ln -s mpiexec.hydra "$root/bin/mpiexec.mpich"
cp scripts/gpu-run.sh "$root/"
if [ ${#libp_exes[@]} -gt 0 ]; then
  # the trees without sources, objects and OCCA's tests (the executables link libparanumal's
  # own libraries statically and find OCCA's by an rpath into the tree)
  tar czf "$root/libp.tar.gz" -C / --exclude='*.o' --exclude='*.a' \
    --exclude=.git --exclude='occa/src' --exclude='occa/obj' --exclude='occa/tests' \
    --exclude='occa/examples' --exclude='occa/docs' --exclude='.occa' --exclude='test' \
    --exclude='meshes' "${libp#/}"
  echo "$libp" > "$root/libp.path"
  cp bench/libparanumal/run.sh "$root/libp_run.sh"
fi
echo libnvidia-opencl.so.1 > "$root/vendors/nvidia.icd"
cat > "$root/env.sh" <<'ENV'
# Source on the GPU machine: the bundle's binaries and libraries, NVIDIA's ICD only.
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH="$dir/bin:$PATH"
export LD_LIBRARY_PATH="$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OCL_ICD_VENDORS="$dir/vendors"
export DGTD_TEMPLATES="$dir/cl_templates" DGTD_TUNING_DIR="$dir/tuning"
# The driver's OpenCL library is found by name: add the directories it may live in.
for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu /usr/lib64; do
  [ -e "$d/libnvidia-opencl.so.1" ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$d"
done
ENV
mkdir -p .gpu
tar czf .gpu/dgtd-gpu.tar.gz -C "$tmp" dgtd-gpu
du -h .gpu/dgtd-gpu.tar.gz
