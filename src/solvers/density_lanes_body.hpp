// The boundary sums of density_lanes.hpp, on the lanes of the namespace it is included in
// (seiche::lanes, seiche::lanes16). No include guard: included once per lane width.

template <int D, class K>
SEICHE_LANE_INLINE F boundary_w_sum(const K& kernel, const FluidView<D>& f, const Points<D>& xi,
                        std::size_t i0, int n) {
    const Vec<D>* bx = f.bx.data();
    const float* bv = f.bvolume.data();
    F w_boundary{};
    const Lists bn(f.boundary_nb, i0, n);
    for (int k = 0; k < bn.longest(); ++k) {
        Index b[width];
        bn.fetch(k, b);
        w_boundary += keep(bn.active(k),
                           fetch(bv, b) * W(kernel, separation<D>(xi, fetch_points<D>(bx, b))));
    }
    return w_boundary;
}

// The boundary's sums of eight particles at once, each over its boundary neighbours k:
// Σ_k V_k W_ik (w) and Σ_k V_k ∇_{x_i} W_ik (gx, gy, gz).
struct BoundarySums {
    F w, gx, gy, gz;
};
template <int D, class K>
inline BoundarySums boundary_sums(const K& kernel, const FluidView<D>& f, const Points<D>& xi,
                                  std::size_t i0, int n) {
    const Vec<D>* bx = f.bx.data();
    const float* bv = f.bvolume.data();
    BoundarySums s{F{}, F{}, F{}, F{}};
    const Lists bn(f.boundary_nb, i0, n);
    for (int k = 0; k < bn.longest(); ++k) {
        Index b[width];
        bn.fetch(k, b);
        const Separation r = separation<D>(xi, fetch_points<D>(bx, b));
        const F v = keep(bn.active(k), fetch(bv, b));
        s.w += v * W(kernel, r);
        const F g = v * grad_factor(kernel, r);
        s.gx += g * r.x;
        s.gy += g * r.y;
        s.gz += g * r.z;
    }
    return s;
}

