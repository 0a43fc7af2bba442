// The viewer's simulation: a World on its own thread, steered by commands from the window and
// publishing double-buffered snapshots. The window never reads an array the simulation writes:
// the thread fills the back snapshot, then swaps it to the front under a lock; the window
// uploads the front under the same lock.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "seiche/scene.hpp"
#include "seiche/step_context.hpp"
#include "seiche/surface.hpp"

namespace seiche::viewer {

// What the window draws of one moment of the simulation, in 3D form (2D: z = 0).
struct Snapshot {
    int dimension = 3;
    std::vector<float> x;        //!< x y z per particle, m
    std::vector<float> speed;    //!< m/s
    std::vector<float> density;  //!< kg/m³
    std::vector<float> pressure; //!< Pa (WCSPH; empty for the other solvers)
    std::vector<float> vorticity;  //!< |ω|, 1/s (with vorticity confinement; else empty)
    SurfaceMesh solids;          //!< the bodies' surfaces (3D triangles, 2D segments)
    SurfaceMesh surface;         //!< the fluid's surface, when asked for (set_surface)
    std::array<float, 3> box_min{}, box_max{};  //!< the container, m
    float radius = 0;            //!< particle radius, m
    double time = 0;             //!< s
    long long steps = 0;
    StepStats last;
    double ms_per_step = 0;      //!< wall time of the last step
    std::string solver;
    std::string status;          //!< "" or why the simulation stopped (an instability)
    std::array<float, 3> drag{};  //!< the interaction sphere's centre, m (when there is one)
    float drag_radius = 0;        //!< its radius, m (0: the scene has none)
    bool has_vorticity = false;   //!< the window's copy: vorticity was there to colour by
    std::vector<std::string> sensor_names;  //!< the scene's pressure sensors (its "sensors")
    std::vector<float> sensors;   //!< their readings in the last step, Pa
    long long serial = 0;        //!< counts the snapshots published
};

// Commands the window sends; each runs on the simulation thread between two steps.
class Simulation {
  public:
    // lockstep: one step per advance() call (headless runs, tests: the same frames every time);
    // otherwise the thread steps freely while not paused.
    Simulation(Scene scene, bool lockstep);
    ~Simulation();
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    void set_paused(bool paused);
    bool paused() const { return paused_.load(); }
    void step_once();  //!< while paused: one step
    // Rebuilds the world from the scene (with the changes made so far): t = 0.
    void reset();
    // Switches the solver and restarts the scene with it.
    void switch_solver(const std::string& name);
    // A live key ("solver.xsph", "gravity", ...), as World::set; the error, if any, is shown.
    void set(const std::string& key, const ParamValue& value);
    // The interaction sphere follows `target` (m) at most at its speed limit; nullopt: it stays.
    void drag_to(std::optional<std::array<float, 3>> target);
    // The fluid's surface by marching cubes (cell_size in particle radii, coarser than `seiche
    // mesh` makes it) every `every` steps, on the simulation thread; every = 0: none.
    void set_surface(int every, double cell_size);
    // Drops a block of fluid at rest, centred at `centre` (m): up to 10 spacings a side (3D; 14
    // in 2D), on the rest lattice, inside the container, skipping sites the fluid occupies.
    void drop_block(std::array<float, 3> centre);
    // Index of the body the drag moves (the first kinematic sphere or circle), or -1.
    int drag_body() const { return drag_body_; }

    // Lockstep: runs one step (after the pending commands) and waits for its snapshot.
    void advance();

    // Calls fn with the newest snapshot under the lock, if one came since the last call (or
    // always, with `always`). Returns whether fn ran.
    bool with_new_snapshot(const std::function<void(const Snapshot&)>& fn, bool always = false);

    const Scene& scene() const { return scene_; }
    std::string message() const;  //!< the last command's error ("" when it worked)

  private:
    struct State;
    void run();
    void post(std::function<void(State&)> command);
    void publish(State& s);

    Scene scene_;  //!< the scene as started, with the live changes made since
    const bool lockstep_;
    std::unique_ptr<State> state_;  //!< touched by the simulation thread only
    int drag_body_ = -1;

    mutable std::mutex commands_mutex_;
    std::vector<std::function<void(State&)>> commands_;
    std::string message_;

    std::mutex snapshot_mutex_;
    Snapshot front_, back_;
    bool fresh_ = false;

    std::mutex wake_mutex_;
    std::condition_variable wake_, stepped_;
    long long requested_ = 0, done_ = 0;  //!< lockstep counters
    std::atomic<bool> paused_{false}, quit_{false}, single_{false};
    std::thread thread_;
};

}  // namespace seiche::viewer
