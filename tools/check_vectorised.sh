#!/usr/bin/env bash
# Checks that the neighbour loops of the hot passes compiled to vector code (ymm/zmm registers).
# They vectorise only under conditions GCC does not report as errors (include/seiche/sph.hpp
# lists them), and a scalar fallback costs 20–40% of the step without failing any physics test.
#   tools/check_vectorised.sh build/seiche
# Exit 77 (skipped) when the binary was not built for a CPU with AVX2.
set -euo pipefail

binary=${1:?usage: check_vectorised.sh path/to/seiche}
for tool in nm objdump c++filt; do
    command -v "$tool" >/dev/null || { echo "check_vectorised: $tool not found (binutils)"; exit 77; }
done
if [[ $(objdump -d --no-show-raw-insn "$binary" | grep -c -E '%ymm|%zmm' || true) -eq 0 ]]; then
    echo "check_vectorised: no AVX instructions in $binary (not built with -march=native on AVX2?)"
    exit 77
fi

symbols=$(nm --defined-only "$binary" | awk '{print $3}')
demangled=$(printf '%s\n' "$symbols" | c++filt)

# name pattern (demangled) → the 3D cubic-spline instantiation of each pass's parallel body.
passes=(
    # The λ pass and XSPH have two instantiations each: positions padded or not
    # (FluidView::x_padded, fetch_points); the λ pass two more: a step's first pass or a later.
    'pbf_lambda_pass<3, seiche::CubicSpline<3> >.*operator\(\)<std::integral_constant<bool, false>, std::integral_constant<bool, false> >.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    'pbf_lambda_pass<3, seiche::CubicSpline<3> >.*operator\(\)<std::integral_constant<bool, false>, std::integral_constant<bool, true> >.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    'pbf_lambda_pass<3, seiche::CubicSpline<3> >.*operator\(\)<std::integral_constant<bool, true>, std::integral_constant<bool, false> >.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    'pbf_lambda_pass<3, seiche::CubicSpline<3> >.*operator\(\)<std::integral_constant<bool, true>, std::integral_constant<bool, true> >.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    'pbf_delta_pass<3, seiche::CubicSpline<3> >.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    'compute_density<3, seiche::CubicSpline<3> >.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    'xsph_pass<false, 3, seiche::CubicSpline<3> >.*<std::integral_constant<bool, false> >.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    'xsph_pass<false, 3, seiche::CubicSpline<3> >.*<std::integral_constant<bool, true> >.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    'xsph_pass<true, 3, seiche::CubicSpline<3> >.*<std::integral_constant<bool, false> >.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    'xsph_pass<true, 3, seiche::CubicSpline<3> >.*<std::integral_constant<bool, true> >.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    # WCSPH's force pass (uncorrected: the default).
    'accelerations<false, 3, seiche::CubicSpline<3> >.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    # DFSPH's two passes of every iteration.
    'acceleration_pass<3, seiche::CubicSpline<3> >.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    'update_pass<\(seiche::\(anonymous namespace\)::Residual\)0, 3, seiche::CubicSpline<3> >.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    # Vorticity confinement's two passes: ω (positions padded or not) and η.
    '^seiche::vorticity_confinement<3, seiche::CubicSpline<3> >.*<std::integral_constant<bool, false> >.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    '^seiche::vorticity_confinement<3, seiche::CubicSpline<3> >.*<std::integral_constant<bool, true> >.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    '^seiche::vorticity_confinement<3, seiche::CubicSpline<3> >.*::\{lambda\(unsigned long, int\)#4\}::operator\(\)'
    'surface_accelerations<3, seiche::CubicSpline<3> >.*::\{lambda\(unsigned long, int\)#2\}::operator\(\)'
    'surface_accelerations<3, seiche::CubicSpline<3> >.*::\{lambda\(unsigned long, int\)#3\}::operator\(\)'
    'ddr_viscosity<3>.*::\{lambda\(unsigned long, int\)#3\}::operator\(\)'
    'ddr_relax<3>.*::\{lambda\(unsigned long, int\)#1\}::operator\(\)'
    'ddr_relax<3>.*::\{lambda\(unsigned long, int\)#2\}::operator\(\)'
    # The neighbour search's distance tests, four queries and two at a time.
    'CandidateBlock::collect_many<3, 4>'
    'CandidateBlock::collect_many<3, 2>'
)

failed=0
for pattern in "${passes[@]}"; do
    line=$(printf '%s\n' "$demangled" | grep -n -E "$pattern" | head -1 | cut -d: -f1 || true)
    if [[ -z "$line" ]]; then
        echo "MISSING  $pattern (renamed? update tools/check_vectorised.sh)"
        failed=1
        continue
    fi
    mangled=$(printf '%s\n' "$symbols" | sed -n "${line}p")
    # Packed single-precision arithmetic or compares on 256/512-bit registers: the pair loop
    # itself, not just a few vectorised moves around it.
    count=$(objdump -d --no-show-raw-insn --disassemble="$mangled" "$binary" |
        grep -c -E 'v(add|sub|mul|div|sqrt|fn?m(add|sub)[0-9]+|cmp[a-z]*)ps .*%[yz]mm' || true)
    name=$(printf '%s\n' "$demangled" | sed -n "${line}p" | cut -c1-60)
    if [[ "$count" -eq 0 ]]; then
        echo "SCALAR   $name"
        failed=1
    else
        echo "vector   $name ($count packed float instructions)"
    fi
done
exit $failed
