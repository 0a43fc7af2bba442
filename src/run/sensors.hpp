// A scene's pressure sensors (Scene::sensors) read every step into sensors.csv rows: each sensor
// a patch of boundary particles on a face of the container or an obstacle (wall_sensor, measure.hpp),
// its pressure the fluid's normal force on them (Boundary::face_force, with the collisions'
// contact forces) over the patch's area, Pa. The sums are exact (ExactSum), so a run split over
// processes reads the same bits as one process.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "seiche/measure.hpp"
#include "seiche/scene.hpp"
#include "seiche/world.hpp"

namespace seiche::run {

template <int D>
class PressureSensors {
  public:
    // The scene's sensors on w's boundary (w tracks its boundary forces from here on). Throws
    // std::invalid_argument naming sensors[i] when a patch holds no boundary particle.
    PressureSensors(const Scene& scene, World<D>& w);
    bool empty() const { return sensors_.empty(); }
    // sensors.csv's header: time and the sensors' names.
    const std::string& header() const { return header_; }
    // Every process, after every step of dt: each sensor's pressure now (collective when split),
    // added to the means of the row under way. Returns the row it completed ("" when none is due).
    std::string after_step(const World<D>& w, double dt);
    // A line per sensor saying where it reads: its face, its boundary particles, its patch.
    std::vector<std::string> describe(const Scene& scene) const;
    // The pressures of the last step, Pa, in the scene's order.
    const std::vector<double>& last() const { return last_; }
    // What a checkpoint keeps of the row under way, and taking it back on a resume (throws
    // CheckpointError when it does not fit these sensors).
    nlohmann::json state() const;
    void restore(const nlohmann::json& state);

  private:
    std::vector<WallSensor<D>> sensors_;
    std::string header_;
    double rate_ = 1000;
    std::vector<double> sum_, last_;  //!< Σ p·Δt of the row under way, per sensor; the last step's p
    double time_ = 0;                 //!< Σ Δt of the row under way
    std::int64_t next_ = 1;           //!< the next row is due at next_/rate
    std::vector<std::size_t> touching_;  //!< scratch: the fluid particles with a contact force
};

}  // namespace seiche::run
