// Checkpoints: everything the next step of a world needs, so that a run continued from one is
// bitwise the run that was never stopped. The particles go out in storage order (the Z-curve
// order of the last step: the sums of the next step run in that order), with the time, the step
// count, the object poses and a copy of the definition to check the continuing world against.
#include <algorithm>
#include <bit>
#include <cstring>
#include <istream>
#include <ostream>

#include "seiche/world.hpp"

#include "bodies/rigid_dynamics.hpp"

namespace seiche {

namespace {

// 2: bodies, emitters; 3: the values the solver carries between steps (ParticleSet::carried);
// 4: time.target_iterations' share of the CFL step and the last step's iterations.
constexpr std::string_view magic = "SEICHE checkpoint 4\n";
constexpr std::string_view magic_family = "SEICHE checkpoint ";
constexpr std::uint32_t byte_order = 0x01020304u;
// A front end's own state and the definition are small; anything larger is a damaged file.
constexpr std::uint64_t max_text = 64u << 20;

std::uint64_t fnv1a(std::string_view bytes) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ull;
    }
    return h;
}

std::string value_text(const ParamValue& v) {
    char buf[96];
    if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
    if (const auto* d = std::get_if<double>(&v)) {
        std::snprintf(buf, sizeof buf, "%.17g", *d);
        return buf;
    }
    if (const auto* s = std::get_if<std::string>(&v)) return "\"" + *s + "\"";
    auto point = [&](const Vec3d& a) {
        std::snprintf(buf, sizeof buf, "(%.17g, %.17g, %.17g)", a[0], a[1], a[2]);
        return std::string(buf);
    };
    if (const auto* a = std::get_if<Vec3d>(&v)) return point(*a);
    std::string s = "[";
    for (const Vec3d& a : std::get<std::vector<Vec3d>>(v)) s += (s.size() > 1 ? ", " : "") + point(a);
    return s + "]";
}

// One "key = value" line per key of the definition, list elements by index: the form the
// check compares and the error quotes.
std::vector<std::pair<std::string, std::string>> definition_lines(const WorldDef& def) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& p : world_params()) out.emplace_back(std::string(p.key), value_text(p.get(def)));
    auto list = [&](std::string_view key, const auto& items, auto params) {
        out.emplace_back(std::string(key), std::to_string(items.size()));
        for (std::size_t i = 0; i < items.size(); ++i)
            for (const auto& p : params())
                out.emplace_back(std::string(key) + "[" + std::to_string(i) + "]." + std::string(p.key),
                                 value_text(p.get(items[i])));
    };
    list("fluid", def.fluid, fluid_block_params);
    list("obstacles", def.obstacles, obstacle_params);
    list("bodies", def.bodies, body_params);
    list("emitters", def.emitters, emitter_params);
    list("sinks", def.sinks, sink_params);
    return out;
}

std::string join_lines(const std::vector<std::pair<std::string, std::string>>& lines) {
    std::string s;
    for (const auto& [k, v] : lines) s += k + " = " + v + "\n";
    return s;
}

std::vector<std::pair<std::string, std::string>> split_lines(std::string_view text) {
    std::vector<std::pair<std::string, std::string>> out;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        const std::size_t eq = line.find(" = ");
        if (eq == std::string_view::npos) throw CheckpointError("the definition in it is damaged");
        out.emplace_back(std::string(line.substr(0, eq)), std::string(line.substr(eq + 3)));
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    return out;
}

class Writer {
  public:
    template <class T>
    void put(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes_.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    template <class T>
    void put_array(const std::vector<T>& a) {
        bytes_.append(reinterpret_cast<const char*>(a.data()), a.size() * sizeof(T));
    }
    void put_text(std::string_view s) {
        put(std::uint64_t(s.size()));
        bytes_.append(s);
    }
    std::string& bytes() { return bytes_; }

  private:
    std::string bytes_;
};

class Reader {
  public:
    explicit Reader(std::string_view bytes) : rest_(bytes) {}
    template <class T>
    T get() {
        T v;
        take(&v, sizeof v);
        return v;
    }
    template <class T>
    void get_array(std::vector<T>& a) {
        take(a.data(), a.size() * sizeof(T));
    }
    std::string_view get_text() {
        const auto n = get<std::uint64_t>();
        if (n > max_text || n > rest_.size()) throw CheckpointError("it is truncated or damaged");
        const std::string_view s = rest_.substr(0, n);
        rest_.remove_prefix(n);
        return s;
    }
    std::size_t left() const { return rest_.size(); }

  private:
    void take(void* out, std::size_t n) {
        if (n > rest_.size()) throw CheckpointError("it is truncated");
        if (n == 0) return;  // an empty array's data() may be null, which memcpy may not take
        std::memcpy(out, rest_.data(), n);
        rest_.remove_prefix(n);
    }
    std::string_view rest_;
};

// An object's motion state, as a checkpoint holds it: pose, velocities, whether it moves.
template <int D>
void put_motion(Writer& w, const BoundaryObject<D>& o) {
    w.put(o.position);
    w.put(o.rotation);
    w.put(o.velocity);
    w.put(o.angular_velocity);
    w.put(std::uint8_t(o.moving));
}
template <int D>
void get_motion(Reader& r, BoundaryObject<D>& o) {
    const auto position = r.get<Vec<D>>();
    const auto rotation = r.get<Mat<D>>();
    o.set_pose(position, rotation);
    o.velocity = r.get<Vec<D>>();
    o.angular_velocity = r.get<Torque<D>>();
    o.moving = r.get<std::uint8_t>() != 0;
}

}  // namespace

template <int D>
void World<D>::save(std::ostream& out, std::string_view extra) const {
    // Split over processes: process 0 writes the particles gathered from all (creation order),
    // the checkpoint a single process would write of the same state.
    if (domain_ && (domain_->rank() != 0 || gathered_.size() == 0))
        throw std::logic_error("save: a split world is saved by process 0, after every process "
                               "called gather_particles()");
    const ParticleSet<D>& ps = domain_ ? gathered_ : p_;
    Writer w;
    w.bytes() = magic;
    w.put(byte_order);
    w.put(std::uint32_t(D));
    w.put_text(join_lines(definition_lines(def_)));
    w.put_text(extra);
    w.put(time_);
    w.put(steps_);
    w.put(step_scale_);
    w.put(std::int32_t(last_iterations_));
    w.put(std::uint64_t(total_contained_));
    w.put(std::uint64_t(total_emitted_));
    w.put(std::uint64_t(total_removed_));
    w.put(next_id_);
    for (double travel : emitter_travel_) w.put(travel);
    w.put(std::uint64_t(ps.size()));
    w.put_array(ps.x);
    w.put_array(ps.v);
    w.put_array(ps.x_prev);
    w.put_array(ps.rho);
    w.put_array(ps.id);
    w.put(std::uint8_t(ps.carrying));
    w.put_array(ps.carried);
    w.put(std::uint64_t(objects_.size()));
    for (const auto& o : objects_) put_motion(w, o);
    w.put(fnv1a(w.bytes()));
    out.write(w.bytes().data(), std::streamsize(w.bytes().size()));
    if (!out) throw CheckpointError("the checkpoint could not be written");
}

// A checkpoint whose checksum passes can still hold values no run writes (a forged or
// hand-edited file): each is refused by name before the world changes, since a NaN position
// sends the neighbour search out of its arrays and an impossible emitter state never ends.
template <int D>
void World<D>::check_restored_values(const ParticleSet<D>& p,
                                     const std::vector<BoundaryObject<D>>& objects,
                                     const std::vector<double>& travel, std::uint64_t emitted,
                                     std::uint64_t removed) const {
    auto finite = [](const auto& v) {
        for (int a = 0; a < v.length(); ++a)
            if (!std::isfinite(v[a])) return false;
        return true;
    };
    // Containment keeps every centre inside the container; a support radius of slack.
    const Vec<D> lo = container_.min - Vec<D>(fluid_.h), hi = container_.max + Vec<D>(fluid_.h);
    auto inside = [&](const Vec<D>& x) {
        for (int a = 0; a < D; ++a)
            if (!(x[a] >= lo[a] && x[a] <= hi[a])) return false;
        return true;
    };
    auto refuse = [](const std::string& what, std::size_t i) {
        throw CheckpointError("its " + what + " of particle " + std::to_string(i) +
                              " is impossible (the file was damaged or edited)");
    };
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (!finite(p.x[i]) || !inside(p.x[i])) refuse("position", p.id[i]);
        if (!finite(p.x_prev[i]) || !inside(p.x_prev[i])) refuse("previous position", p.id[i]);
        // The stability guard stops a run before a particle passes max_speed.
        if (!finite(p.v[i]) || !(glm::length(p.v[i]) <= max_speed_)) refuse("velocity", p.id[i]);
        if (!std::isfinite(p.rho[i]) || p.rho[i] < 0) refuse("density", p.id[i]);
    }
    // Every particle is a block's, an emitter's or a sink's account of them.
    const std::uint64_t seeded = count_fluid_particles(def_);
    if (seeded + emitted < removed || seeded + emitted - removed != p.size())
        throw CheckpointError("its particle counts disagree (" + std::to_string(p.size()) +
                              " particles, " + std::to_string(emitted) + " emitted, " +
                              std::to_string(removed) + " removed)");
    // After a step an emitter's last layer has moved less than one spacing.
    for (std::size_t k = 0; k < travel.size(); ++k)
        if (!(travel[k] >= 0 && travel[k] < 1.000001 * double(fluid_.spacing)))
            throw CheckpointError("its state of emitters[" + std::to_string(k) +
                                  "] is impossible (the file was damaged or edited)");
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const BoundaryObject<D>& o = objects[i];
        bool ok = finite(o.position) && finite(o.velocity) && inside(o.position);
        if constexpr (D == 3) ok = ok && finite(o.angular_velocity);
        else ok = ok && std::isfinite(o.angular_velocity);
        // A rotation: orthonormal columns.
        const Mat<D> rr = glm::transpose(o.rotation) * o.rotation;
        for (int a = 0; a < D; ++a)
            for (int b = 0; b < D; ++b)
                ok = ok && std::abs(rr[a][b] - (a == b ? 1.0f : 0.0f)) < 1e-3f;
        if (!ok)
            throw CheckpointError("its pose of " + o.name +
                                  " is impossible (the file was damaged or edited)");
    }
}

template <int D>
typename World<D>::Restored World<D>::read_checkpoint(std::istream& in) const {
    // Everything is read and checked before the world changes: a refused checkpoint leaves it.
    // With emitters or sinks the particle count changes: the checkpoint may hold another one,
    // up to what the definition can reach.
    const bool flows = !def_.emitters.empty() || !def_.sinks.empty();
    // Split over processes (no emitters, no sinks): every process reads the whole scene's
    // particles, seeded ids 0 … next_id − 1, and keeps its own below.
    const std::size_t here = domain_ ? std::size_t(next_id_) : p_.size();
    const std::size_t n_most =
        flows ? std::max<std::size_t>(here, std::size_t(estimated_bytes(def_) / 300.0) + 1)
              : here;
    const std::uint64_t expected =
        magic.size() + 4 + 4 + 8 + 8 + 8 + 8 + 8 + 8 + 8 + 8 + 8 + 4 + 4 +
        8 * emitter_travel_.size() +
        n_most * (3 * sizeof(Vec<D>) + sizeof(float) + 4 + sizeof(Float2)) + 1 + 8 +
        objects_.size() * (2 * sizeof(Vec<D>) + sizeof(Mat<D>) + sizeof(Torque<D>) + 1) + 8;
    std::string bytes;
    const std::uint64_t limit = expected + 2 * max_text;
    char buf[1 << 16];
    while (in && bytes.size() <= limit) {
        in.read(buf, sizeof buf);
        bytes.append(buf, std::size_t(in.gcount()));
    }
    if (bytes.size() > limit) throw CheckpointError("it is larger than a checkpoint of this scene");
    if (!std::string_view(bytes).starts_with(magic))
        throw CheckpointError(std::string_view(bytes).starts_with(magic_family)
                                  ? "it was written by another version of seiche"
                                  : "it is not a seiche checkpoint");
    if (bytes.size() < magic.size() + 16) throw CheckpointError("it is truncated");
    const std::string_view body(bytes.data(), bytes.size() - 8);
    std::uint64_t sum;
    std::memcpy(&sum, bytes.data() + body.size(), 8);
    if (sum != fnv1a(body))
        throw CheckpointError("its checksum does not match (the file is damaged or truncated)");

    Reader r(body.substr(magic.size()));
    if (r.get<std::uint32_t>() != byte_order)
        throw CheckpointError("it was written on a machine of another byte order");
    if (const auto d = r.get<std::uint32_t>(); d != D)
        throw CheckpointError("it is of a " + std::to_string(d) + "D world, this one is " +
                              std::to_string(D) + "D");
    // Keys that shape the particles or the boundary must match; live keys may differ (the
    // world's own values apply from here on) and are reported.
    RestoreResult result;
    const auto saved = split_lines(r.get_text());
    const auto now = definition_lines(def_);
    for (const auto& line : now) {
        const std::string& key = line.first;
        const std::string& value = line.second;
        const auto it = std::find_if(saved.begin(), saved.end(),
                                     [&](const auto& kv) { return kv.first == key; });
        const std::string was = it == saved.end() ? "(absent)" : it->second;
        if (was == value) continue;
        if (!is_live_key(key))
            throw CheckpointError("it was written for " + key + " = " + was + ", the scene has " +
                                  value + "; resume with the scene it was written for");
        if (key != "time.end_time") result.changed.push_back(key + ": " + was + " → " + value);
    }
    // Which solver wrote the carried values (they mean something to that solver alone: DFSPH's
    // κ̂Δt², PBF's Σλ' per Δt²).
    const auto solver_of = [](const auto& lines) {
        const auto it = std::find_if(lines.begin(), lines.end(),
                                     [](const auto& kv) { return kv.first == "solver.type"; });
        return it == lines.end() ? std::string() : std::string(it->second);
    };
    const bool same_solver = solver_of(saved) == solver_of(now);
    result.extra = std::string(r.get_text());
    const auto time = r.get<double>();
    const auto steps = r.get<std::int64_t>();
    const auto step_scale = r.get<double>();
    const auto last_iterations = r.get<std::int32_t>();
    const auto contained = r.get<std::uint64_t>();
    const auto emitted = r.get<std::uint64_t>();
    const auto removed = r.get<std::uint64_t>();
    const auto next_id = r.get<std::uint32_t>();
    std::vector<double> travel(emitter_travel_.size());
    for (double& t : travel) t = r.get<double>();
    const auto n = r.get<std::uint64_t>();
    if (n != here && (!flows || n > n_most)) throw CheckpointError("its particle count differs");
    ParticleSet<D> p = p_;
    p.resize(n);
    r.get_array(p.x);
    r.get_array(p.v);
    r.get_array(p.x_prev);
    r.get_array(p.rho);
    r.get_array(p.id);
    // The solver's carried values: kept when the same solver runs on (a checkpoint of another
    // solver leaves it to start from zero, as a live switch does).
    const auto had_carried = r.get<std::uint8_t>();
    if (had_carried > 1) throw CheckpointError("it is damaged");
    std::vector<Float2> carried(had_carried ? n : 0);
    r.get_array(carried);
    for (std::size_t i = 0; i < carried.size(); ++i)
        if (!std::isfinite(carried[i].a) || !std::isfinite(carried[i].b))
            throw CheckpointError("its solver values of particle " + std::to_string(p.id[i]) +
                                  " are not finite");
    if (p.carrying) {
        if (had_carried && same_solver)
            p.carried = std::move(carried);
        else
            p.carried.assign(n, Float2{});
    }
    if (next_id < n || next_id > n_most) throw CheckpointError("its particle ids are damaged");
    std::vector<std::uint8_t> seen(next_id, 0);
    for (const std::uint32_t id : p.id) {
        if (id >= next_id || seen[id]) throw CheckpointError("its particle ids are damaged");
        seen[id] = 1;
    }
    if (r.get<std::uint64_t>() != objects_.size())
        throw CheckpointError("its boundary object count differs");
    std::vector<BoundaryObject<D>> objects = objects_;
    for (auto& o : objects) get_motion(r, o);
    if (r.left() != 0 || !std::isfinite(time) || time < 0 || steps < 0)
        throw CheckpointError("it is damaged");
    // time.target_iterations scales the CFL step by a share in [0.05, 1].
    if (!(step_scale >= 0.05 && step_scale <= 1))
        throw CheckpointError("its step scale " + std::to_string(step_scale) +
                              " is impossible (the file was damaged or edited)");
    if (last_iterations < 0)
        throw CheckpointError("its last step's iteration count " +
                              std::to_string(last_iterations) +
                              " is impossible (the file was damaged or edited)");
    // 2^53 steps would take a billion years at a microsecond each; near 2^63 the counter of the
    // next steps overflowed (UBSan).
    if (steps > (std::int64_t(1) << 53))
        throw CheckpointError("its step count " + std::to_string(steps) + " is beyond any run's");
    // Every step advances the time: none taken means none passed, and the other way round.
    if ((steps == 0) != (time == 0))
        throw CheckpointError("its step count (" + std::to_string(steps) +
                              ") disagrees with its time (t = " + std::to_string(time) +
                              " s); the file was damaged or edited");
    check_restored_values(p, objects, travel, emitted, removed);
    return {std::move(p), time,    steps,   step_scale,        last_iterations,
            contained,    emitted, removed, next_id,           std::move(travel),
            std::move(objects),    std::move(result)};
}

// Split over processes: process 0 reads and checks the checkpoint, every process gets its
// verdict, the state, and its own particles (a sample of the positions plans the split, as at
// seeding), so that no other process ever holds the whole scene.
template <int D>
typename World<D>::Restored World<D>::read_checkpoint_split(std::istream& in) {
    Domain<D>& dom = *domain_;
    Restored r;
    std::string failure;
    if (dom.rank() == 0) {
        try {
            r = read_checkpoint(in);
        } catch (const std::exception& e) {
            failure = e.what();
        }
    }
    dom.share(failure);
    if (!failure.empty()) throw CheckpointError(failure);
    // The state: small, from process 0 to all.
    Writer w;
    std::vector<Vec<D>> sample;
    double weight = 1;
    if (dom.rank() == 0) {
        w.put(r.time);
        w.put(r.steps);
        w.put(r.step_scale);
        w.put(r.last_iterations);
        w.put(r.contained);
        w.put(r.emitted);
        w.put(r.removed);
        w.put(r.next_id);
        w.put(std::uint64_t(r.travel.size()));
        for (const double t : r.travel) w.put(t);
        for (const BoundaryObject<D>& o : r.objects) put_motion(w, o);
        w.put_text(r.result.extra);
        w.put(std::uint64_t(r.result.changed.size()));
        for (const std::string& c : r.result.changed) w.put_text(c);
        const std::size_t stride = std::max<std::size_t>(1, r.p.size() / (std::size_t(1) << 20));
        for (std::size_t i = 0; i < r.p.size(); i += stride) sample.push_back(r.p.x[i]);
        weight = double(stride);
        w.put(weight);
        w.put(std::uint64_t(sample.size()));
        for (const Vec<D>& x : sample) w.put(x);
    }
    std::string& state = w.bytes();
    dom.share(state);
    if (dom.rank() != 0) {
        Reader rd(state);
        r.time = rd.get<double>();
        r.steps = rd.get<std::int64_t>();
        r.step_scale = rd.get<double>();
        r.last_iterations = rd.get<std::int32_t>();
        r.contained = rd.get<std::uint64_t>();
        r.emitted = rd.get<std::uint64_t>();
        r.removed = rd.get<std::uint64_t>();
        r.next_id = rd.get<std::uint32_t>();
        r.travel.resize(rd.get<std::uint64_t>());
        for (double& t : r.travel) t = rd.get<double>();
        r.objects = objects_;
        for (BoundaryObject<D>& o : r.objects) get_motion(rd, o);
        r.result.extra = std::string(rd.get_text());
        r.result.changed.resize(rd.get<std::uint64_t>());
        for (std::string& c : r.result.changed) c = std::string(rd.get_text());
        weight = rd.get<double>();
        sample.resize(rd.get<std::uint64_t>());
        for (Vec<D>& x : sample) x = rd.get<Vec<D>>();
        r.p = p_;  // the set's constants (mass, radius, carrying); its particles come below
        r.p.resize(0);
    }
    dom.plan(sample, weight, fluid_.h);
    dom.scatter(r.p);  // any number of processes resumes
    return r;
}

template <int D>
RestoreResult World<D>::restore(std::istream& in) {
    Restored r = domain_ ? read_checkpoint_split(in) : read_checkpoint(in);
    p_ = std::move(r.p);
    time_ = r.time;
    steps_ = r.steps;
    step_scale_ = r.step_scale;
    last_iterations_ = r.last_iterations;
    total_contained_ = r.contained;
    total_emitted_ = r.emitted;
    total_removed_ = r.removed;
    next_id_ = r.next_id;
    emitter_travel_ = r.travel;
    particles_resized();
    const std::vector<BoundaryObject<D>>& objects = r.objects;
    for (std::size_t i = 0; i < objects.size(); ++i) {
        if (!objects[i].moving) continue;
        set_object_pose(i, objects[i].position, objects[i].rotation);
        objects_[i].velocity = objects[i].velocity;
        objects_[i].angular_velocity = objects[i].angular_velocity;
    }
    // Bullet restarts from the poses and velocities; its contact caches are not saved, so a body
    // resting on another continues from there rather than bit for bit (docs/bodies.md).
    if (dynamics_) dynamics_->reset(objects_);
    return std::move(r.result);
}

template void World<2>::save(std::ostream&, std::string_view) const;
template void World<3>::save(std::ostream&, std::string_view) const;
template void World<2>::check_restored_values(const ParticleSet<2>&,
                                              const std::vector<BoundaryObject<2>>&,
                                              const std::vector<double>&, std::uint64_t,
                                              std::uint64_t) const;
template void World<3>::check_restored_values(const ParticleSet<3>&,
                                              const std::vector<BoundaryObject<3>>&,
                                              const std::vector<double>&, std::uint64_t,
                                              std::uint64_t) const;
template World<2>::Restored World<2>::read_checkpoint(std::istream&) const;
template World<3>::Restored World<3>::read_checkpoint(std::istream&) const;
template World<2>::Restored World<2>::read_checkpoint_split(std::istream&);
template World<3>::Restored World<3>::read_checkpoint_split(std::istream&);
template RestoreResult World<2>::restore(std::istream&);
template RestoreResult World<3>::restore(std::istream&);

}  // namespace seiche
