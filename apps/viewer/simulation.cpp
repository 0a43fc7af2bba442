#include "simulation.hpp"

#include <chrono>
#include <cmath>
#include <variant>

#include "run/sensors.hpp"
#include "seiche/bodies.hpp"
#include "seiche/surface.hpp"
#include "seiche/world.hpp"

namespace seiche::viewer {

namespace {

// The body the mouse drags: the first kinematic sphere (3D) or circle (2D).
int interaction_body(const Scene& s) {
    for (std::size_t i = 0; i < s.bodies.size(); ++i) {
        const BodyDef& b = s.bodies[i];
        if (b.motion == BodyMotion::kinematic &&
            (b.shape == BodyShape::sphere || b.shape == BodyShape::circle))
            return int(i);
    }
    return -1;
}

// The fastest the dragged sphere moves, m/s: a hand's speed, kept below what the step resolves.
constexpr float drag_speed = 2.0f;

}  // namespace

struct Simulation::State {
    Scene scene;
    std::variant<std::monostate, std::unique_ptr<World<2>>, std::unique_ptr<World<3>>> world;
    std::optional<std::array<float, 3>> drag;
    std::string status;
    double ms = 0;
    StepStats last;
    int surface_every = 0;
    double surface_cell = 2.0;
    SurfaceMesh surface;
    std::shared_ptr<void> sensors;  //!< run::PressureSensors<D> of the world's D

    template <int D>
    run::PressureSensors<D>& sensors_of(const World<D>&) {
        return *std::static_pointer_cast<run::PressureSensors<D>>(sensors);
    }
    template <int D>
    void make_sensors(World<D>& w) {
        sensors = std::make_shared<run::PressureSensors<D>>(scene, w);
    }

    template <class F>
    void visit(F&& f) {
        std::visit(
            [&](auto& w) {
                if constexpr (!std::is_same_v<std::decay_t<decltype(w)>, std::monostate>) f(*w);
            },
            world);
    }
    void build() {
        world = std::monostate{};  // the old world goes first: two at once may not fit
        status.clear();
        last = {};
        if (scene.dimension == 2)
            world = std::make_unique<World<2>>(scene);
        else
            world = std::make_unique<World<3>>(scene);
        // The scene's pressure sensors, read every step as `seiche run` reads them.
        visit([&](auto& w) { make_sensors(w); });
    }
};

Simulation::Simulation(Scene scene, bool lockstep)
    : scene_(std::move(scene)), lockstep_(lockstep), state_(std::make_unique<State>()) {
    drag_body_ = interaction_body(scene_);
    state_->scene = scene_;
    state_->build();  // on this thread: a bad scene throws here, to the caller
    publish(*state_);
    thread_ = std::thread([this] { run(); });
}

Simulation::~Simulation() {
    quit_.store(true);
    {
        std::lock_guard lock(wake_mutex_);
        wake_.notify_all();
    }
    thread_.join();
}

void Simulation::post(std::function<void(State&)> command) {
    {
        std::lock_guard lock(commands_mutex_);
        commands_.push_back(std::move(command));
    }
    std::lock_guard lock(wake_mutex_);
    wake_.notify_all();
}

void Simulation::set_paused(bool paused) {
    paused_.store(paused);
    std::lock_guard lock(wake_mutex_);
    wake_.notify_all();
}

void Simulation::step_once() {
    single_.store(true);
    std::lock_guard lock(wake_mutex_);
    wake_.notify_all();
}

void Simulation::reset() {
    post([](State& s) { s.build(); });
}

void Simulation::switch_solver(const std::string& name) {
    post([this, name](State& s) {
        if (const auto t = find_solver(name)) {
            s.scene.solver.type = *t;
            s.build();
            return;
        }
        std::lock_guard lock(commands_mutex_);
        message_ = "no solver \"" + name + "\" (" + solver_names_text() + ")";
    });
}

void Simulation::set(const std::string& key, const ParamValue& value) {
    post([this, key, value](State& s) {
        std::string error;
        s.visit([&](auto& w) {
            try {
                w.set(key, value);
                static_cast<WorldDef&>(s.scene) = w.definition();
            } catch (const std::exception& e) {
                error = e.what();
            }
        });
        std::lock_guard lock(commands_mutex_);
        message_ = error;
    });
}

void Simulation::set_surface(int every, double cell_size) {
    post([every, cell_size](State& s) {
        s.surface_every = std::max(every, 0);
        s.surface_cell = cell_size;
        s.surface = {};
    });
}

void Simulation::drop_block(std::array<float, 3> centre) {
    post([centre](State& s) {
        s.visit([&](auto& w) {
            constexpr int D = std::decay_t<decltype(w.particles().x[0])>::length();
            const auto& p = w.particles();
            const float d = 2.0f * p.radius;
            const int side = D == 3 ? 10 : 14;
            Vec<D> c;
            for (int a = 0; a < D; ++a) c[a] = centre[a];
            const Box<D>& box = w.container();
            std::vector<Vec<D>> x;
            const int total = D == 3 ? side * side * side : side * side;
            for (int k = 0; k < total; ++k) {
                Vec<D> q;
                int rest = k;
                for (int a = 0; a < D; ++a) {
                    q[a] = c[a] + d * (float(rest % side) - 0.5f * float(side - 1));
                    rest /= side;
                }
                bool inside = true;
                for (int a = 0; a < D; ++a)
                    inside = inside && q[a] > box.min[a] + p.radius && q[a] < box.max[a] - p.radius;
                if (inside) x.push_back(q);
            }
            // Sites the fluid holds stay as they are.
            std::vector<char> taken(x.size(), 0);
            const float r2 = 0.75f * d * 0.75f * d;
            for (const Vec<D>& y : p.x)
                for (std::size_t k = 0; k < x.size(); ++k) {
                    const Vec<D> e = y - x[k];
                    if (glm::dot(e, e) < r2) taken[k] = 1;
                }
            std::vector<Vec<D>> free;
            for (std::size_t k = 0; k < x.size(); ++k)
                if (!taken[k]) free.push_back(x[k]);
            const std::vector<Vec<D>> still(free.size(), Vec<D>(0.0f));
            w.add_particles(free, still);
        });
    });
}

void Simulation::drag_to(std::optional<std::array<float, 3>> target) {
    post([target](State& s) { s.drag = target; });
}

std::string Simulation::message() const {
    std::lock_guard lock(commands_mutex_);
    return message_;
}

void Simulation::advance() {
    std::unique_lock lock(wake_mutex_);
    const long long want = ++requested_;
    wake_.notify_all();
    stepped_.wait(lock, [&] { return done_ >= want || quit_.load(); });
}

bool Simulation::with_new_snapshot(const std::function<void(const Snapshot&)>& fn, bool always) {
    std::lock_guard lock(snapshot_mutex_);
    if (!fresh_ && !always) return false;
    fresh_ = false;
    fn(front_);
    return true;
}

void Simulation::publish(State& s) {
    Snapshot& b = back_;
    b.status = s.status;
    b.ms_per_step = s.ms;
    b.last = s.last;
    b.solver = std::string(solver_name(s.scene.solver.type));
    b.dimension = s.scene.dimension;
    s.visit([&](auto& w) {
        constexpr int D = std::decay_t<decltype(w.particles().x[0])>::length();
        const auto& p = w.particles();
        const std::size_t n = p.size();
        b.x.assign(3 * n, 0.0f);
        b.speed.resize(n);
        b.density.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            for (int a = 0; a < D; ++a) b.x[3 * i + a] = p.x[i][a];
            b.speed[i] = glm::length(p.v[i]);
            b.density[i] = p.rho[i];
        }
        const auto pressure = w.pressure();
        b.pressure.assign(pressure.begin(), pressure.end());
        const auto omega = w.vorticity();
        b.vorticity.resize(omega.size());
        for (std::size_t i = 0; i < omega.size(); ++i) {
            if constexpr (D == 3)
                b.vorticity[i] = glm::length(omega[i]);
            else
                b.vorticity[i] = std::abs(omega[i]);
        }
        b.radius = p.radius;
        b.time = w.time();
        b.steps = w.steps();
        const Box<D>& box = w.container();
        for (int a = 0; a < 3; ++a) {
            b.box_min[a] = a < D ? box.min[a] : 0.0f;
            b.box_max[a] = a < D ? box.max[a] : 0.0f;
        }
        if (s.surface_every > 0 && (s.surface.index.empty() || w.steps() % s.surface_every == 0)) {
            SurfaceParams params;
            params.cell_size = s.surface_cell;
            s.surface = reconstruct_surface<D>(p.x, p.radius, params);
        }
        if (s.surface_every == 0) s.surface = {};
        b.surface = s.surface;
        b.solids = {};
        b.solids.dimension = D;
        // Obstacles and bodies: every object after the container.
        for (std::size_t k = 1; k < w.boundary_objects().size(); ++k)
            append_surface<D>(w.boundary_objects()[k], b.solids);
        const auto& readings = s.sensors_of(w).last();
        b.sensors.assign(readings.begin(), readings.end());
        b.sensor_names.clear();
        for (std::size_t i = 0; i < s.scene.sensors.size(); ++i)
            b.sensor_names.push_back(sensor_name(s.scene.sensors[i], i));
        b.drag_radius = 0;
        if (drag_body_ >= 0) {
            const auto& o = w.boundary_objects()[w.body_object(std::size_t(drag_body_))];
            for (int a = 0; a < 3; ++a) b.drag[a] = a < D ? o.position[a] : 0.0f;
            b.drag_radius = o.radius;
        }
    });
    std::lock_guard lock(snapshot_mutex_);
    b.serial = front_.serial + 1;
    std::swap(front_, back_);
    fresh_ = true;
}

void Simulation::run() {
    State& s = *state_;
    while (!quit_.load()) {
        bool step_due = false;  // lockstep: a step requested and not yet taken
        {
            std::unique_lock lock(wake_mutex_);
            wake_.wait(lock, [&] {
                if (quit_.load()) return true;
                std::lock_guard c(commands_mutex_);
                if (!commands_.empty()) return true;
                if (lockstep_) return requested_ > done_;
                return !paused_.load() || single_.load();
            });
            // Read under the lock: advance() counts requests under it (a data race otherwise,
            // found by ThreadSanitizer).
            step_due = requested_ > done_;
        }
        if (quit_.load()) break;
        std::vector<std::function<void(State&)>> commands;
        {
            std::lock_guard lock(commands_mutex_);
            commands.swap(commands_);
        }
        for (auto& c : commands) c(s);
        const bool step = lockstep_ ? step_due : (!paused_.load() || single_.exchange(false));
        if (step && s.status.empty()) {
            s.visit([&](auto& w) {
                constexpr int D = std::decay_t<decltype(w.particles().x[0])>::length();
                const double dt = w.suggested_dt();
                if (drag_body_ >= 0 && s.drag) {
                    // Towards the target at most at drag_speed: the sphere is a kinematic body
                    // whose velocity the fluid sees through its boundary particles.
                    const std::size_t obj = w.body_object(std::size_t(drag_body_));
                    const auto& o = w.boundary_objects()[obj];
                    Vec<D> target;
                    for (int a = 0; a < D; ++a) target[a] = (*s.drag)[a];
                    Vec<D> move = target - o.position;
                    const float len = glm::length(move), reach = drag_speed * float(dt);
                    if (len > reach) move *= reach / len;
                    w.set_object_pose(obj, o.position + move, o.rotation);
                    w.set_object_velocity(obj, move / float(dt));
                }
                const auto t0 = std::chrono::steady_clock::now();
                s.last = w.step(dt);
                s.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                s.sensors_of(w).after_step(w, s.last.dt);
                if (s.last.instability)
                    s.status = "unstable at step " + std::to_string(s.last.step) + ": particle " +
                               std::to_string(s.last.instability->particle) + " " +
                               s.last.instability->reason;
            });
        }
        if (step || !commands.empty()) publish(s);
        if (lockstep_ && step) {
            std::lock_guard lock(wake_mutex_);
            ++done_;
            stepped_.notify_all();
        }
    }
    std::lock_guard lock(wake_mutex_);
    done_ = requested_;
    stepped_.notify_all();
}

}  // namespace seiche::viewer
