// The pair loops' vector code, as this build compiled it (pair_lanes.hpp).
#include "pair_lanes.hpp"

#include "seiche/neighbor_grid.hpp"

namespace seiche {

std::string_view pair_loops_description() {
#if defined(SEICHE_LANES_WIDE)
    return "AVX-512, PBF's lambda and dx passes sixteen lanes wide, lengths by 1/sqrt (WIDE)";
#elif defined(SEICHE_LANES_PBF16)
    return "AVX-512, PBF's lambda and dx passes sixteen lanes wide, lengths by sqrt (WIDE_SQRT)";
#elif defined(SEICHE_LANES_AVX512)
    return "AVX-512, eight lanes, lengths by sqrt (NARROW)";
#elif defined(SEICHE_LANES_AVX2)
    return "AVX2, eight lanes, lengths by sqrt";
#else
    return "no AVX2: eight lanes computed lane by lane";
#endif
}

}  // namespace seiche
