// Surface reconstruction: the SPH colour field φ(x) = Σ_j V W(|x − x_j|, h) (Monaghan 1992;
// the density field of Clavet et al. 2005, sec. 7, normalised) with V = 1 / Σ_lattice W, so φ = 1
// inside a fluid at rest spacing, contoured at φ = iso by marching cubes (Lorensen & Cline 1987)
// on a sparse grid of blocks near the particles, or marching squares in 2D.
//
// Why this field: at a flat surface of a rest lattice the 0.5 level of a symmetric kernel lies
// half a spacing (one particle radius r) above the top particles, where the fluid's volume ends,
// so a ball keeps its volume and a resting pool is flat; the field is smooth (C²) and made of
// the same kernel as the simulation. Blobby spheres (a fixed radius per particle) make beads on
// thin sheets; a colour field of support 4r averages them away, and a sheet thinner than about
// one particle fades out rather than bulging. Zhu & Bridson 2005's averaged-position field is
// flatter still on sheets but shrinks convex corners and needs a second neighbour pass.
//
// The grid: vertices at integer multiples of the cell size c; blocks of B^D vertices, B·c ≈ 2h,
// exist only within reach of a particle (never a dense box). Each block gathers the particles of
// the blocks around it and adds their kernels into its own vertices, so no two threads write the
// same value and the mesh is the same for any thread count. With narrow_band, a block whose
// whole neighbourhood is filled to at least 90% of the rest count is deep inside: its vertices
// are set to 1 without evaluating them (a hole that could carry a surface there would take out
// more than 10% of a block's particles).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "marching_cases.hpp"
#include "seiche/kernels.hpp"
#include "seiche/parallel.hpp"
#include "seiche/sph.hpp"
#include "seiche/surface.hpp"

namespace seiche {

namespace {

using IVec3 = glm::ivec3;
constexpr int key_bits = 21;
constexpr int key_bias = 1 << (key_bits - 1);

std::uint64_t pack(IVec3 b) {
    return std::uint64_t(b.x + key_bias) | std::uint64_t(b.y + key_bias) << key_bits |
           std::uint64_t(b.z + key_bias) << (2 * key_bits);
}

// Sorted keys with a binary search; -1 when absent.
long find_key(const std::vector<std::uint64_t>& keys, std::uint64_t k) {
    const auto it = std::lower_bound(keys.begin(), keys.end(), k);
    return it != keys.end() && *it == k ? long(it - keys.begin()) : -1;
}

// One vertex of the mesh before it gets its global index.
struct MeshVertex {
    Vec<3> x, n;
};

template <int D>
class BlockGrid {
  public:
    static constexpr int Z = D == 3 ? 1 : 0;  // 2D is one layer of the 3D code

    BlockGrid(std::span<const Vec<D>> x, float r, const SurfaceParams& p)
        : c_(float(p.cell_size * r)),
          h_(float(p.smoothing_radius * r)),
          iso_(float(p.iso)),
          kernel_(h_) {
        // B·c ≈ 2h keeps the gather to the 3^D blocks around, whatever the cell size.
        B_ = std::clamp(int(std::lround(2.0 * p.smoothing_radius / p.cell_size)), D == 3 ? 8 : 16,
                        32);
        const float L = float(B_) * c_;
        R_ = int(std::ceil((h_ + std::sqrt(float(D)) * c_) / L));
        volume_ = 1.0f / lattice_sums<D>(kernel_, 2.0f * r).w;
        kernel_norm_ = kernel_.W(0.0f);  // σ/h^D: W(q) = σ/h^D · w(q), w(0) = 1
        bin_particles(x, L);
        make_blocks();
        if (p.narrow_band) find_interior(r);
    }

    std::size_t size() const { return keys_.size(); }
    int B() const { return B_; }
    std::size_t interior_count() const {
        return std::size_t(std::count(interior_.begin(), interior_.end(), 1));
    }
    // Block b and the 3^D blocks around it are all deep inside: every value its cells and
    // edges can see is 1, so it has no surface.
    bool sealed(std::size_t b) const {
        if (!interior_[b]) return false;
        for (int z = -Z; z <= Z; ++z)
            for (int y = -1; y <= 1; ++y)
                for (int x = -1; x <= 1; ++x) {
                    const long nb = find_key(keys_, pack(coord_[b] + IVec3(x, y, z)));
                    if (nb < 0 || !interior_[nb]) return false;
                }
        return true;
    }

    void evaluate() {
        const std::size_t per = std::size_t(B_) * B_ * (Z ? B_ : 1);
        field_.assign(size() * per, 0.0f);
        parallel_for(
            size(), [&](std::size_t b) { evaluate_block(b); }, 2);
    }

    // Padded copy of block b's field and its neighbours': local coordinates −1 … B+1 per axis.
    void padded(std::size_t b, std::vector<float>& P) const {
        const int n = B_ + 3, nz = Z ? n : 1;
        P.assign(std::size_t(n) * n * nz, 0.0f);
        const IVec3 base = coord_[b];
        for (int oz = -Z; oz <= Z; ++oz)
            for (int oy = -1; oy <= 1; ++oy)
                for (int ox = -1; ox <= 1; ++ox) {
                    const long nb = find_key(keys_, pack(base + IVec3(ox, oy, oz)));
                    if (nb < 0) continue;  // no particle in reach: φ = 0
                    const IVec3 o(ox, oy, oz);
                    IVec3 lo, hi;  // padded-local range covered by this neighbour
                    for (int a = 0; a < 3; ++a) {
                        if (a == 2 && !Z) {
                            lo[a] = hi[a] = 0;
                            continue;
                        }
                        lo[a] = o[a] < 0 ? -1 : o[a] == 0 ? 0 : B_;
                        hi[a] = o[a] < 0 ? -1 : o[a] == 0 ? B_ - 1 : B_ + 1;
                    }
                    const bool in = interior_[nb] != 0;
                    const float* src = &field_[std::size_t(nb) * block_values()];
                    for (int z = lo.z; z <= hi.z; ++z)
                        for (int y = lo.y; y <= hi.y; ++y)
                            for (int xx = lo.x; xx <= hi.x; ++xx) {
                                const int sx = xx - o.x * B_, sy = y - o.y * B_, sz = z - o.z * B_;
                                P[pidx(xx, y, z)] =
                                    in ? 1.0f : src[(std::size_t(sz) * B_ + sy) * B_ + sx];
                            }
                }
    }

    std::size_t pidx(int x, int y, int z) const {
        const int n = B_ + 3;
        return (std::size_t(z + Z) * n + std::size_t(y + 1)) * n + std::size_t(x + 1);
    }
    std::size_t block_values() const { return std::size_t(B_) * B_ * (Z ? B_ : 1); }
    IVec3 coord(std::size_t b) const { return coord_[b]; }
    long find(IVec3 c) const { return find_key(keys_, pack(c)); }
    float cell() const { return c_; }
    float iso() const { return iso_; }

  private:
    void bin_particles(std::span<const Vec<D>> x, float L) {
        const std::size_t n = x.size();
        std::vector<std::pair<std::uint64_t, std::uint32_t>> order(n);
        const float limit = float(key_bias - 4 - R_);
        for (std::size_t i = 0; i < n; ++i)  // checked before the parallel loop, which can't throw
            for (int a = 0; a < D; ++a)
                if (!(std::abs(std::floor(x[i][a] / L)) < limit))
                    throw std::invalid_argument("surface: particle " + std::to_string(i) +
                                                (std::isfinite(x[i][a])
                                                     ? " is too far from the origin for the grid"
                                                     : " has a non-finite position"));
        parallel_for(n, [&](std::size_t i) {
            IVec3 b(0);
            for (int a = 0; a < D; ++a) b[a] = int(std::floor(x[i][a] / L));
            order[i] = {pack(b), std::uint32_t(i)};
        });
        std::sort(order.begin(), order.end());
        xs_.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            xs_[i] = x[order[i].second];
            if (i == 0 || order[i].first != order[i - 1].first) {
                pkeys_.push_back(order[i].first);
                pstart_.push_back(std::uint32_t(i));
            }
        }
        pstart_.push_back(std::uint32_t(n));
    }

    static IVec3 unpack(std::uint64_t k) {
        const std::uint64_t m = (std::uint64_t(1) << key_bits) - 1;
        return IVec3(int(k & m) - key_bias, int((k >> key_bits) & m) - key_bias,
                     int((k >> (2 * key_bits)) & m) - key_bias);
    }

    void make_blocks() {
        const int rz = Z ? R_ : 0;
        for (std::uint64_t k : pkeys_) {
            const IVec3 b = unpack(k);
            for (int z = -rz; z <= rz; ++z)
                for (int y = -R_; y <= R_; ++y)
                    for (int xx = -R_; xx <= R_; ++xx) keys_.push_back(pack(b + IVec3(xx, y, z)));
        }
        std::sort(keys_.begin(), keys_.end());
        keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
        coord_.resize(keys_.size());
        for (std::size_t i = 0; i < keys_.size(); ++i) coord_[i] = unpack(keys_[i]);
        interior_.assign(keys_.size(), 0);
    }

    void find_interior(float r) {
        const double full = std::pow(double(B_) * c_ / (2.0 * r), D);
        if (full < 8) return;  // too few particles per block to tell a hole from noise
        const int rz = Z ? R_ : 0;
        parallel_for(size(), [&](std::size_t b) {
            for (int z = -rz; z <= rz; ++z)
                for (int y = -R_; y <= R_; ++y)
                    for (int xx = -R_; xx <= R_; ++xx) {
                        const long p = find_key(pkeys_, pack(coord_[b] + IVec3(xx, y, z)));
                        if (p < 0 || pstart_[p + 1] - pstart_[p] < 0.9 * full) return;
                    }
            interior_[b] = 1;
        });
    }

    void evaluate_block(std::size_t b) {
        if (interior_[b]) return;
        float* phi = &field_[b * block_values()];
        const IVec3 g0 = coord_[b] * B_;
        const float h2 = h_ * h_, inv_c = 1.0f / c_;
        const int rz = Z ? R_ : 0;
        for (int oz = -rz; oz <= rz; ++oz)
            for (int oy = -R_; oy <= R_; ++oy)
                for (int ox = -R_; ox <= R_; ++ox) {
                    const long p = find_key(pkeys_, pack(coord_[b] + IVec3(ox, oy, oz)));
                    if (p < 0) continue;
                    for (std::uint32_t j = pstart_[p]; j < pstart_[p + 1]; ++j)
                        splat(phi, g0, xs_[j], h2, inv_c);
                }
    }

    // Adds V·W(|g·c − x|) to the vertices of this block within h of x. Measured slower: masked
    // full-row SIMD loops (rows are only B = 8 long) and exact per-row sphere spans.
    void splat(float* phi, IVec3 g0, const Vec<D>& x, float h2, float inv_c) const {
        IVec3 lo(0), hi(0);
        for (int a = 0; a < D; ++a) {
            lo[a] = std::max(0, int(std::ceil((x[a] - h_) * inv_c)) - g0[a]);
            hi[a] = std::min(B_ - 1, int(std::floor((x[a] + h_) * inv_c)) - g0[a]);
            if (lo[a] > hi[a]) return;
        }
        const float px = x[0], py = x[1], pz = D == 3 ? x[D - 1] : 0.0f;
        // Locals: stores through row could alias members, which stops vectorisation.
        const float inv_h = 1.0f / h_, wk = volume_ * kernel_norm_, c = c_;
        const int B = B_;
        for (int z = lo.z; z <= hi.z; ++z) {
            const float dz = Z ? float(g0.z + z) * c - pz : 0.0f;
            for (int y = lo.y; y <= hi.y; ++y) {
                const float dy = float(g0.y + y) * c - py;
                const float r2yz = dy * dy + dz * dz;
                if (r2yz >= h2) continue;
                float* row = phi + (std::size_t(z) * B + y) * B;
                for (int xx = lo.x; xx <= hi.x; ++xx) {
                    const float dx = float(g0.x + xx) * c - px;
                    const float r2 = r2yz + dx * dx;
                    if (r2 >= h2) continue;
                    const float q = std::sqrt(r2) * inv_h;
                    const float a = 1.0f - q;
                    const float inner = 6.0f * q * q * (q - 1.0f) + 1.0f;  // cubic spline, q ≤ ½
                    row[xx] += wk * (q <= 0.5f ? inner : 2.0f * a * a * a);
                }
            }
        }
    }

    float c_, h_, iso_;
    CubicSpline<D> kernel_;
    int B_ = 8, R_ = 1;
    float volume_ = 0, kernel_norm_ = 0;
    std::vector<Vec<D>> xs_;  // particles sorted by block
    std::vector<std::uint64_t> pkeys_;
    std::vector<std::uint32_t> pstart_;
    std::vector<std::uint64_t> keys_;  // blocks of the grid, sorted
    std::vector<IVec3> coord_;
    std::vector<std::uint8_t> interior_;
    std::vector<float> field_;
};

// Per block: the vertices on edges it owns (edge from vertex l along axis a), and the faces of
// the cells it owns (lower corner l).
struct BlockMesh {
    std::vector<MeshVertex> vertices;
    std::vector<std::int32_t> edge_vertex;  // (l, axis) → index in vertices, −1; empty: none
    std::vector<MeshVertex> centres;        // extra vertices of loops fanned around a centre
    std::vector<std::uint32_t> faces;       // high bit set: index into centres
};

constexpr std::uint32_t centre_flag = 1u << 31;

template <int D>
class Extractor {
  public:
    static constexpr int Z = BlockGrid<D>::Z;

    explicit Extractor(const BlockGrid<D>& g) : g_(g), B_(g.B()), blocks_(g.size()) {}

    SurfaceMesh run() {
        parallel_for(
            g_.size(), [&](std::size_t b) { edge_vertices(b); }, 2);
        vertex_offset_.assign(blocks_.size() + 1, 0);
        for (std::size_t b = 0; b < blocks_.size(); ++b)
            vertex_offset_[b + 1] = vertex_offset_[b] + blocks_[b].vertices.size();
        parallel_for(
            g_.size(), [&](std::size_t b) { cell_faces(b); }, 2);
        return gather();
    }

  private:
    std::size_t edge_slot(IVec3 l, int axis) const {
        return ((std::size_t(l.z) * B_ + l.y) * B_ + l.x) * D + axis;
    }

    void edge_vertices(std::size_t b) {
        if (g_.sealed(b)) return;
        std::vector<float> P;
        g_.padded(b, P);
        BlockMesh& m = blocks_[b];
        const float iso = g_.iso(), c = g_.cell();
        const IVec3 g0 = g_.coord(b) * B_;
        auto at = [&](IVec3 l) { return P[g_.pidx(l.x, l.y, l.z)]; };
        auto gradient = [&](IVec3 l) {
            Vec<3> gr(0.0f);
            for (int a = 0; a < D; ++a) {
                IVec3 e(0);
                e[a] = 1;
                gr[a] = (at(l + e) - at(l - e)) / (2.0f * c);
            }
            return gr;
        };
        for (int z = 0; z < (Z ? B_ : 1); ++z)
            for (int y = 0; y < B_; ++y)
                for (int x = 0; x < B_; ++x) {
                    const IVec3 l(x, y, z);
                    const float v0 = at(l);
                    for (int a = 0; a < D; ++a) {
                        IVec3 e(0);
                        e[a] = 1;
                        const float v1 = at(l + e);
                        if ((v0 >= iso) == (v1 >= iso)) continue;
                        if (m.edge_vertex.empty()) m.edge_vertex.assign(g_.block_values() * D, -1);
                        // Kept off the corners by 1e-3 c so no triangle collapses to a point.
                        const float t = std::clamp((iso - v0) / (v1 - v0), 1e-3f, 1.0f - 1e-3f);
                        MeshVertex v;
                        v.x = Vec<3>(g0 + l) * c;
                        v.x[a] += t * c;
                        Vec<3> n = -((1.0f - t) * gradient(l) + t * gradient(l + e));
                        const float len = glm::length(n);
                        if (len > 0.0f) {
                            v.n = n / len;
                        } else {  // flat field: the edge's own direction, outwards
                            v.n = Vec<3>(0.0f);
                            v.n[a] = v0 >= iso ? 1.0f : -1.0f;
                        }
                        m.edge_vertex[edge_slot(l, a)] = std::int32_t(m.vertices.size());
                        m.vertices.push_back(v);
                    }
                }
    }

    // The owner block of the edge from local vertex l (possibly one block up) and its slot.
    struct EdgeRef {
        std::size_t block;
        std::int32_t vertex;
    };
    EdgeRef edge_ref(std::size_t b, IVec3 l, int axis) const {
        IVec3 off(0);
        for (int a = 0; a < 3; ++a)
            if (l[a] >= B_) off[a] = 1, l[a] -= B_;
        std::size_t ob = b;
        if (off != IVec3(0)) {
            const long nb = g_.find(g_.coord(b) + off);
            if (nb < 0) throw std::logic_error("surface: crossing edge outside the block grid");
            ob = std::size_t(nb);
        }
        const BlockMesh& m = blocks_[ob];
        if (m.edge_vertex.empty()) throw std::logic_error("surface: missing edge vertex");
        const std::int32_t v = m.edge_vertex[edge_slot(l, axis)];
        if (v < 0) throw std::logic_error("surface: missing edge vertex");
        return {ob, v};
    }

    void cell_faces(std::size_t b) {
        // A cell's edges belong to its block or the blocks above it; none has a vertex: no face.
        bool any = false;
        for (int k = 0; k < (1 << D) && !any; ++k) {
            const long nb = g_.find(g_.coord(b) + IVec3(k & 1, k >> 1 & 1, k >> 2 & 1));
            any = nb >= 0 && !blocks_[std::size_t(nb)].vertices.empty();
        }
        if (!any) return;
        std::vector<float> P;
        g_.padded(b, P);
        const auto& table = surface::marching_cases<D>();
        BlockMesh& m = blocks_[b];
        const float iso = g_.iso();
        std::vector<EdgeRef> refs;
        for (int z = 0; z < (Z ? B_ : 1); ++z)
            for (int y = 0; y < B_; ++y)
                for (int x = 0; x < B_; ++x) {
                    int mask = 0;
                    for (int k = 0; k < (1 << D); ++k)
                        if (P[g_.pidx(x + (k & 1), y + (k >> 1 & 1), z + (k >> 2 & 1))] >= iso)
                            mask |= 1 << k;
                    if (mask == 0 || mask == (1 << (1 << D)) - 1) continue;
                    for (const surface::CellLoop& loop : table.cases[mask].loops) {
                        refs.clear();
                        for (std::uint8_t e : loop.edges) {
                            const int k = table.edge_corner[e];
                            refs.push_back(
                                edge_ref(b, IVec3(x + (k & 1), y + (k >> 1 & 1), z + (k >> 2 & 1)),
                                         table.edge_axis[e]));
                        }
                        emit(m, loop, refs);
                    }
                }
    }

    // Faces of one loop. Edge vertices get their global index (offsets are known after the
    // first pass); centre vertices stay flagged block-local until gather().
    void emit(BlockMesh& m, const surface::CellLoop& loop, const std::vector<EdgeRef>& refs) {
        if constexpr (D == 2) {
            m.faces.push_back(encode(refs[0]));
            m.faces.push_back(encode(refs[1]));
            return;
        }
        const std::size_t n = refs.size();
        if (!loop.needs_centre) {
            for (std::size_t i = 1; i + 1 < n; ++i) {
                m.faces.push_back(encode(refs[0]));
                m.faces.push_back(encode(refs[i]));
                m.faces.push_back(encode(refs[i + 1]));
            }
            return;
        }
        MeshVertex centre{Vec<3>(0.0f), Vec<3>(0.0f)};
        for (const EdgeRef& r : refs) {
            centre.x += blocks_[r.block].vertices[std::size_t(r.vertex)].x;
            centre.n += blocks_[r.block].vertices[std::size_t(r.vertex)].n;
        }
        centre.x /= float(n);
        const float len = glm::length(centre.n);
        centre.n = len > 0.0f ? centre.n / len
                              : blocks_[refs[0].block].vertices[std::size_t(refs[0].vertex)].n;
        const std::uint32_t cid = centre_flag | std::uint32_t(m.centres.size());
        m.centres.push_back(centre);
        for (std::size_t i = 0; i < n; ++i) {
            m.faces.push_back(encode(refs[i]));
            m.faces.push_back(encode(refs[(i + 1) % n]));
            m.faces.push_back(cid);
        }
    }

    std::uint32_t encode(const EdgeRef& r) const {
        return std::uint32_t(vertex_offset_[r.block] + std::size_t(r.vertex));
    }

    SurfaceMesh gather() {
        const std::size_t nb = blocks_.size();
        std::vector<std::size_t> centre_offset(nb + 1, 0), face_offset(nb + 1, 0);
        for (std::size_t b = 0; b < nb; ++b) {
            centre_offset[b + 1] = centre_offset[b] + blocks_[b].centres.size();
            face_offset[b + 1] = face_offset[b] + blocks_[b].faces.size();
        }
        const std::size_t edge_total = vertex_offset_[nb];
        const std::size_t total = edge_total + centre_offset[nb];
        if (total >= centre_flag) throw std::length_error("surface: more than 2^31 vertices");
        SurfaceMesh mesh;
        mesh.dimension = D;
        mesh.position.resize(3 * total);
        mesh.normal.resize(3 * total);
        mesh.index.resize(face_offset[nb]);
        parallel_for(
            nb,
            [&](std::size_t b) {
                const BlockMesh& m = blocks_[b];
                auto put = [&](std::size_t i, const MeshVertex& v) {
                    for (int a = 0; a < 3; ++a) {
                        mesh.position[3 * i + a] = v.x[a];
                        mesh.normal[3 * i + a] = v.n[a];
                    }
                };
                for (std::size_t i = 0; i < m.vertices.size(); ++i)
                    put(vertex_offset_[b] + i, m.vertices[i]);
                for (std::size_t i = 0; i < m.centres.size(); ++i)
                    put(edge_total + centre_offset[b] + i, m.centres[i]);
                for (std::size_t i = 0; i < m.faces.size(); ++i) {
                    const std::uint32_t f = m.faces[i];
                    mesh.index[face_offset[b] + i] =
                        f & centre_flag
                            ? std::uint32_t(edge_total + centre_offset[b] + (f & ~centre_flag))
                            : f;
                }
            },
            2);
        return mesh;
    }

    const BlockGrid<D>& g_;
    int B_;
    std::vector<BlockMesh> blocks_;
    std::vector<std::size_t> vertex_offset_;
};

}  // namespace

template <int D>
SurfaceMesh reconstruct_surface(std::span<const Vec<D>> x, float particle_radius,
                                const SurfaceParams& p, SurfaceStats* stats) {
    if (!(particle_radius > 0.0f) || !std::isfinite(particle_radius))
        throw std::invalid_argument("surface: particle radius must be positive");
    if (!(p.cell_size >= 0.1 && p.cell_size <= 8.0))
        throw std::invalid_argument("surface: cell_size must be in [0.1, 8] particle radii");
    if (!(p.iso > 0.0 && p.iso < 1.0))
        throw std::invalid_argument("surface: iso must be in (0, 1)");
    if (!(p.smoothing_radius >= 2.0 && p.smoothing_radius <= 16.0))
        throw std::invalid_argument("surface: smoothing_radius must be in [2, 16] particle radii");
    if (p.smoothing_iterations < 0 || p.smoothing_iterations > 100)
        throw std::invalid_argument("surface: smoothing_iterations must be in [0, 100]");
    SurfaceMesh mesh;
    mesh.dimension = D;
    if (x.empty()) return mesh;
    BlockGrid<D> grid(x, particle_radius, p);
    grid.evaluate();
    mesh = Extractor<D>(grid).run();
    if (p.smoothing_iterations > 0) smooth_mesh(mesh, p.smoothing_iterations);
    if (stats) {
        stats->blocks = grid.size();
        stats->interior_blocks = grid.interior_count();
        stats->field_vertices = (grid.size() - stats->interior_blocks) * grid.block_values();
    }
    return mesh;
}

template SurfaceMesh reconstruct_surface<2>(std::span<const Vec<2>>, float, const SurfaceParams&,
                                            SurfaceStats*);
template SurfaceMesh reconstruct_surface<3>(std::span<const Vec<3>>, float, const SurfaceParams&,
                                            SurfaceStats*);

}  // namespace seiche
