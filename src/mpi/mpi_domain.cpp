// The scene's cells split along their Z-curve between the processes of an MPI communicator, as
// SPH-EXA splits its particles along a space-filling curve (Keller et al. 2023): each process
// owns a contiguous range of the cells' Morton codes, balanced by the number of fluid particles,
// and holds the particles of the cells around its own as a halo (the grid's cells are the
// support radius, so one layer of cells holds every neighbour).
#include "seiche/mpi.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>

#include "seiche/neighbor_grid.hpp"
#include "seiche/parallel.hpp"

namespace seiche::mpi {

Session::Session(int& argc, char**& argv) {
    int provided = 0;
    // Only the main thread calls MPI (the thread pool never does).
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

Session::~Session() {
    MPI_Finalize();
}

namespace {

// What travels with a particle: everything the next step reads of it.
template <int D>
struct Packed {
    Vec<D> x, x_prev, v;
    float rho;
    std::uint32_t id;
    Float2 carried;
};

template <int D>
Packed<D> pack(const ParticleSet<D>& p, std::size_t i) {
    return {p.x[i], p.x_prev[i], p.v[i], p.rho[i], p.id[i],
            p.carrying ? p.carried[i] : Float2{}};
}

template <int D>
void append(ParticleSet<D>& p, const Packed<D>& q) {
    p.x.push_back(q.x);
    p.x_prev.push_back(q.x_prev);
    p.v.push_back(q.v);
    p.rho.push_back(q.rho);
    p.id.push_back(q.id);
    if (p.carrying) p.carried.push_back(q.carried);
}

// Keeps the particles i with keep(i), in order.
template <int D, class Keep>
void compact(ParticleSet<D>& p, Keep&& keep) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (!keep(i)) continue;
        if (kept != i) p.move_particle(i, kept);
        ++kept;
    }
    p.resize(kept);
}

constexpr int tag_refresh = 7301;

template <int D>
class MpiDomain final : public Domain<D> {
  public:
    using Cell = typename NeighborGrid<D>::Cell;

    explicit MpiDomain(MPI_Comm comm) : comm_(comm) {
        MPI_Comm_rank(comm_, &rank_);
        MPI_Comm_size(comm_, &size_);
        split_.assign(std::size_t(size_) + 1, 0);
        split_.back() = ~std::uint64_t(0);
        send_.resize(static_cast<std::size_t>(size_));
        recv_.resize(static_cast<std::size_t>(size_));
        // Particles counted as particles, not bytes: an int of bytes ends at 2 GB (about 36M
        // particles gathered for a checkpoint).
        MPI_Type_contiguous(int(sizeof(Packed<D>)), MPI_BYTE, &particle_);
        MPI_Type_commit(&particle_);
    }
    ~MpiDomain() override {
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (!finalized) MPI_Type_free(&particle_);
    }
    MpiDomain(const MpiDomain&) = delete;
    MpiDomain& operator=(const MpiDomain&) = delete;

    int rank() const override { return rank_; }
    int size() const override { return size_; }
    std::span<const std::uint8_t> halo() const override { return halo_; }

    void plan(std::span<const Vec<D>> sample, double weight, float h) override {
        inv_cell_ = 1.0 / (double(h) * (1.0 + 1.0e-5));  // as NeighborGrid::build
        // Every process has the same sample: each computes the same split on its own.
        std::vector<std::uint64_t> keys(sample.size());
        for (std::size_t i = 0; i < sample.size(); ++i) keys[i] = key_of(sample[i]);
        std::sort(keys.begin(), keys.end());
        split_at_quantiles(keys, std::vector<double>(keys.size(), weight));
        halo_.clear();
        for (auto& s : send_) s.clear();
        for (auto& r : recv_) r.clear();
    }

    void scatter(ParticleSet<D>& p) override {
        std::vector<int> counts(static_cast<std::size_t>(size_), 0), offsets(counts.size(), 0);
        std::vector<Packed<D>> all;
        if (rank_ == 0) {
            // By owner, each owner's in p's order.
            std::vector<int> owner(p.size());
            for (std::size_t i = 0; i < p.size(); ++i) ++counts[std::size_t(owner[i] = owner_of_key(key_of(p.x[i])))];
            std::partial_sum(counts.begin(), counts.end() - 1, offsets.begin() + 1);
            std::vector<int> at = offsets;
            all.resize(p.size());
            for (std::size_t i = 0; i < p.size(); ++i) all[std::size_t(at[std::size_t(owner[i])]++)] = pack(p, i);
        }
        int mine = 0;
        MPI_Scatter(counts.data(), 1, MPI_INT, &mine, 1, MPI_INT, 0, comm_);
        std::vector<Packed<D>> in(static_cast<std::size_t>(mine));
        MPI_Scatterv(all.data(), counts.data(), offsets.data(), particle_, in.data(), mine,
                     particle_, 0, comm_);
        all = {};
        p.resize(0);
        for (const Packed<D>& q : in) append(p, q);
        halo_.assign(p.size(), 0);
    }

    void exchange(ParticleSet<D>& p) override {
        const double t0 = MPI_Wtime();
        // The halo of the last step goes; the owned particles stay in their order.
        if (!halo_.empty()) compact(p, [&](std::size_t i) { return halo_[i] == 0; });
        migrate(p);
        if (imbalanced(p.size())) {
            rebalance(p);
            migrate(p);
            ++traffic_.rebalances;
        }
        build_halo(p);
        traffic_.exchange_seconds += MPI_Wtime() - t0;
    }

    void reordered(std::span<const std::uint32_t> order) override {
        // where[j]: the new index of the particle that was at j (none: it was removed).
        constexpr std::uint32_t gone = ~std::uint32_t(0);
        where_.assign(halo_.size(), gone);
        for (std::size_t k = 0; k < order.size(); ++k) where_[order[k]] = std::uint32_t(k);
        std::vector<std::uint8_t> h(order.size());
        for (std::size_t k = 0; k < order.size(); ++k) h[k] = halo_[order[k]];
        halo_.swap(h);
        for (auto* lists : {&send_, &recv_})
            for (auto& list : *lists) {
                std::size_t kept = 0;
                for (const std::uint32_t i : list)
                    if (where_[i] != gone) list[kept++] = where_[i];
                list.resize(kept);
            }
    }

    void appended(std::size_t count) override { halo_.insert(halo_.end(), count, 0); }

    bool owns(const Vec<D>& x) const override { return owner_of_key(key_of(x)) == rank_; }

    void refresh(void* data, std::size_t stride) override {
        auto* bytes = static_cast<std::byte*>(data);
        std::vector<MPI_Request> requests;
        out_.resize(static_cast<std::size_t>(size_));
        in_.resize(static_cast<std::size_t>(size_));
        for (int r = 0; r < size_; ++r) {
            const auto& list = recv_[std::size_t(r)];
            if (list.empty()) continue;
            in_[std::size_t(r)].resize(list.size() * stride);
            requests.emplace_back();
            MPI_Irecv(in_[std::size_t(r)].data(), int(list.size() * stride), MPI_BYTE, r,
                      tag_refresh, comm_, &requests.back());
        }
        for (int r = 0; r < size_; ++r) {
            const auto& list = send_[std::size_t(r)];
            if (list.empty()) continue;
            auto& buf = out_[std::size_t(r)];
            buf.resize(list.size() * stride);
            for (std::size_t k = 0; k < list.size(); ++k)
                std::memcpy(buf.data() + k * stride, bytes + std::size_t(list[k]) * stride, stride);
            requests.emplace_back();
            MPI_Isend(buf.data(), int(buf.size()), MPI_BYTE, r, tag_refresh, comm_,
                      &requests.back());
            traffic_.bytes += buf.size();
            ++traffic_.messages;
        }
        MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
        for (int r = 0; r < size_; ++r) {
            const auto& list = recv_[std::size_t(r)];
            const auto& buf = in_[std::size_t(r)];
            for (std::size_t k = 0; k < list.size(); ++k)
                std::memcpy(bytes + std::size_t(list[k]) * stride, buf.data() + k * stride, stride);
        }
    }

    void sum(std::span<std::int64_t> values) override {
        MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_INT64_T, MPI_SUM, comm_);
    }
    void max(std::span<double> values) override {
        MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE, MPI_MAX, comm_);
    }

    void gather(const ParticleSet<D>& p, ParticleSet<D>& all) override {
        std::vector<Packed<D>> mine;
        for (std::size_t i = 0; i < p.size(); ++i)
            if (halo_.empty() || !halo_[i]) mine.push_back(pack(p, i));
        const int count = int(mine.size());
        std::vector<int> counts(static_cast<std::size_t>(size_)), offsets(static_cast<std::size_t>(size_), 0);
        MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_);
        std::vector<Packed<D>> every;
        if (rank_ == 0) {
            std::partial_sum(counts.begin(), counts.end() - 1, offsets.begin() + 1);
            every.resize(std::size_t(offsets.back()) + std::size_t(counts.back()));
        }
        MPI_Gatherv(mine.data(), count, particle_, every.data(), counts.data(), offsets.data(),
                    particle_, 0, comm_);
        all.carrying = p.carrying;
        all.mass = p.mass;
        all.radius = p.radius;
        all.resize(0);
        if (rank_ != 0) return;
        std::sort(every.begin(), every.end(),
                  [](const Packed<D>& a, const Packed<D>& b) { return a.id < b.id; });
        for (const Packed<D>& q : every) append(all, q);
    }

    Processes::Traffic traffic() const override {
        auto t = traffic_;
        t.halo = std::uint64_t(std::count(halo_.begin(), halo_.end(), std::uint8_t(1)));
        t.owned = halo_.size() - t.halo;
        return t;
    }

  private:
    // The grid's cell of x (NeighborGrid::cell_of) and its Morton code, coordinates offset so
    // that cells on both sides of the origin keep their order.
    Cell cell_of(const Vec<D>& x) const {
        Cell c;
        for (int a = 0; a < D; ++a)
            c[a] = static_cast<std::int32_t>(
                std::clamp(std::floor(double(x[a]) * inv_cell_), -2.0e9, 2.0e9));
        return c;
    }
    std::uint64_t key_of(const Vec<D>& x) const { return key_of_cell(cell_of(x)); }
    static std::uint64_t key_of_cell(const Cell& c) {
        std::uint64_t code = 0;
        const std::uint32_t bias = D == 3 ? (1u << 20) : (1u << 31);
        for (int a = 0; a < D; ++a)
            code |= spread_bits(static_cast<std::uint32_t>(c[a]) + bias, D) << a;
        return code;
    }
    bool inside_own_range(const Cell& c) const {
        constexpr std::int32_t reach = D == 3 ? (1 << 20) - 2 : (1 << 30);
        Cell lo = c, hi = c;
        for (int a = 0; a < D; ++a) {
            if (c[a] <= -reach || c[a] >= reach) return false;  // the codes wrap out there
            --lo[a];
            ++hi[a];
        }
        return key_of_cell(lo) >= split_[std::size_t(rank_)] &&
               key_of_cell(hi) < split_[std::size_t(rank_) + 1];
    }
    int owner_of_key(std::uint64_t key) const {
        const auto it = std::upper_bound(split_.begin() + 1, split_.end() - 1, key);
        return int(it - (split_.begin() + 1));
    }

    // Splits at the weighted quantiles of sorted keys, each split between two different keys
    // (a cell belongs to one process).
    void split_at_quantiles(const std::vector<std::uint64_t>& keys,
                            const std::vector<double>& weights) {
        const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
        double walked = 0;
        std::size_t k = 0;
        for (int r = 1; r < size_; ++r) {
            const double target = total * r / size_;
            while (k < keys.size() && walked + weights[k] <= target) walked += weights[k++];
            // The first key past the target starts process r's range.
            split_[std::size_t(r)] = k < keys.size() ? keys[k] : ~std::uint64_t(0);
            split_[std::size_t(r)] = std::max(split_[std::size_t(r)], split_[std::size_t(r) - 1]);
        }
    }

    bool imbalanced(std::size_t owned) {
        std::array<double, 2> v = {double(owned), -double(owned)};
        max(v);
        std::array<std::int64_t, 1> n = {std::int64_t(owned)};
        sum(n);
        const double mean = double(n[0]) / size_;
        return mean > 0 && v[0] > 1.1 * mean + 64;
    }

    // New splits from every process's keys, sampled: each sends up to 4,096 evenly spaced keys
    // of its sorted own, each standing for its share of the particles.
    void rebalance(const ParticleSet<D>& p) {
        std::vector<std::uint64_t> keys(p.size());
        for (std::size_t i = 0; i < p.size(); ++i) keys[i] = key_of(p.x[i]);
        std::sort(keys.begin(), keys.end());
        const std::size_t samples = std::min<std::size_t>(keys.size(), 4096);
        std::vector<std::uint64_t> mine(samples);
        std::vector<double> my_weights(samples, samples ? double(keys.size()) / samples : 0.0);
        for (std::size_t s = 0; s < samples; ++s) mine[s] = keys[s * keys.size() / samples];
        const int n = int(samples);
        std::vector<int> counts(static_cast<std::size_t>(size_)), offsets(static_cast<std::size_t>(size_), 0);
        MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_);
        std::partial_sum(counts.begin(), counts.end() - 1, offsets.begin() + 1);
        const std::size_t total = std::size_t(offsets.back() + counts.back());
        std::vector<std::uint64_t> all(total);
        std::vector<double> weights(total);
        MPI_Allgatherv(mine.data(), n, MPI_UINT64_T, all.data(), counts.data(), offsets.data(),
                       MPI_UINT64_T, comm_);
        MPI_Allgatherv(my_weights.data(), n, MPI_DOUBLE, weights.data(), counts.data(),
                       offsets.data(), MPI_DOUBLE, comm_);
        std::vector<std::size_t> order(total);
        std::iota(order.begin(), order.end(), std::size_t(0));
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return all[a] != all[b] ? all[a] < all[b] : a < b;
        });
        std::vector<std::uint64_t> k(total);
        std::vector<double> w(total);
        for (std::size_t i = 0; i < total; ++i) k[i] = all[order[i]], w[i] = weights[order[i]];
        split_at_quantiles(k, w);
    }

    // Sends each particle whose cell another process owns to that process, with all it carries.
    void migrate(ParticleSet<D>& p) {
        std::vector<std::vector<Packed<D>>> out(static_cast<std::size_t>(size_));
        // Each particle's owner on the threads; the few that leave packed in order.
        owner_.resize(p.size());
        int* owner = owner_.data();
        parallel_for(p.size(), [&](std::size_t i) { owner[i] = owner_of_key(key_of(p.x[i])); });
        bool any = false;
        for (std::size_t i = 0; i < p.size(); ++i) {
            if (owner[i] == rank_) continue;
            out[std::size_t(owner[i])].push_back(pack(p, i));
            any = true;
        }
        if (any) compact(p, [&](std::size_t i) { return owner[i] == rank_; });
        for (const Packed<D>& q : all_to_all(out)) append(p, q);
    }

    // The halo: each owned particle goes to every other process that owns a cell around its own.
    void build_halo(ParticleSet<D>& p) {
        const std::size_t owned = p.size();
        for (auto& s : send_) s.clear();
        for (auto& r : recv_) r.clear();
        std::vector<std::vector<Packed<D>>> out(static_cast<std::size_t>(size_));
        // Which particles stand in a cell whose 27 neighbours are all this process's (most of
        // them: nothing to send), on the threads; the others looked at in order below. A Morton
        // code grows with each coordinate, so the cells around c have codes from c − (1, 1, 1)'s
        // to c + (1, 1, 1)'s: when both are this process's, all are.
        interior_.resize(owned);
        std::uint8_t* interior = interior_.data();
        parallel_for(owned, [&](std::size_t i) { interior[i] = inside_own_range(cell_of(p.x[i])); });
        std::vector<int> ranks;
        std::uint64_t last_key = ~std::uint64_t(0);
        for (std::size_t i = 0; i < owned; ++i) {
            if (interior[i]) continue;
            const Cell c = cell_of(p.x[i]);
            const std::uint64_t key = key_of_cell(c);
            if (key != last_key) {  // particles come mostly cell by cell
                last_key = key;
                ranks.clear();
                NeighborGrid<D>::for_each_cell_around(c, [&](const Cell& n) {
                    const int r = owner_of_key(key_of_cell(n));
                    if (r != rank_ && std::find(ranks.begin(), ranks.end(), r) == ranks.end())
                        ranks.push_back(r);
                });
            }
            for (int r : ranks) {
                out[std::size_t(r)].push_back(pack(p, i));
                send_[std::size_t(r)].push_back(std::uint32_t(i));
            }
        }
        std::vector<int> from;
        const std::vector<Packed<D>> in = all_to_all(out, &from);
        for (std::size_t k = 0; k < in.size(); ++k) {
            recv_[std::size_t(from[k])].push_back(std::uint32_t(p.size()));
            append(p, in[k]);
        }
        halo_.assign(p.size(), 0);
        std::fill(halo_.begin() + std::ptrdiff_t(owned), halo_.end(), std::uint8_t(1));
    }

    // Every process's lists for every other, exchanged; what came in, process by process in rank
    // order, and (from) which process each came from.
    std::vector<Packed<D>> all_to_all(const std::vector<std::vector<Packed<D>>>& out,
                                      std::vector<int>* from = nullptr) {
        const std::size_t n = std::size_t(size_);
        std::vector<int> send_counts(n), recv_counts(n), send_off(n, 0), recv_off(n, 0);
        for (std::size_t r = 0; r < n; ++r) send_counts[r] = int(out[r].size());
        MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm_);
        std::partial_sum(send_counts.begin(), send_counts.end() - 1, send_off.begin() + 1);
        std::partial_sum(recv_counts.begin(), recv_counts.end() - 1, recv_off.begin() + 1);
        std::vector<Packed<D>> sendbuf, recvbuf;
        for (const auto& o : out) sendbuf.insert(sendbuf.end(), o.begin(), o.end());
        recvbuf.resize(std::size_t(recv_off.back()) + std::size_t(recv_counts.back()));
        MPI_Alltoallv(sendbuf.data(), send_counts.data(), send_off.data(), particle_,
                      recvbuf.data(), recv_counts.data(), recv_off.data(), particle_, comm_);
        for (std::size_t r = 0; r < n; ++r)
            if (send_counts[r] > 0 && int(r) != rank_) {
                traffic_.bytes += std::uint64_t(send_counts[r]) * sizeof(Packed<D>);
                ++traffic_.messages;
            }
        if (from) {
            from->clear();
            for (std::size_t r = 0; r < n; ++r)
                from->insert(from->end(), std::size_t(recv_counts[r]), int(r));
        }
        return recvbuf;
    }

    MPI_Comm comm_;
    MPI_Datatype particle_ = MPI_DATATYPE_NULL;  //!< one Packed<D>
    int rank_ = 0, size_ = 1;
    double inv_cell_ = 1.0;
    std::vector<std::uint64_t> split_;  // process r owns keys [split_[r], split_[r + 1])
    std::vector<std::uint8_t> halo_;
    std::vector<std::vector<std::uint32_t>> send_, recv_;  // refresh: per process, in order
    std::vector<std::uint32_t> where_;
    std::vector<std::vector<std::byte>> out_, in_;
    Processes::Traffic traffic_;
    std::vector<int> owner_;               //!< migrate(): each particle's process
    std::vector<std::uint8_t> interior_;   //!< build_halo(): 1 where no neighbour cell is another's
};

}  // namespace

template <int D>
std::shared_ptr<Domain<D>> make_domain(MPI_Comm comm) {
    return std::make_shared<MpiDomain<D>>(comm);
}

template std::shared_ptr<Domain<2>> make_domain<2>(MPI_Comm);
template std::shared_ptr<Domain<3>> make_domain<3>(MPI_Comm);

}  // namespace seiche::mpi
