#include "sensors.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "seiche/domain.hpp"
#include "seiche/exact_sum.hpp"

namespace seiche::run {

template <int D>
PressureSensors<D>::PressureSensors(const Scene& scene, World<D>& w) : rate_(scene.output.sensor_rate) {
    header_ = "time";
    if (scene.sensors.empty()) return;
    w.track_boundary_forces(true);
    const auto objects = w.boundary_objects();
    for (std::size_t i = 0; i < scene.sensors.size(); ++i) {
        const SensorDef& d = scene.sensors[i];
        std::size_t index = objects.size();
        for (std::size_t k = 0; k < objects.size(); ++k)
            if (objects[k].name == d.object) index = k;
        const std::string path = "sensors[" + std::to_string(i) + "]";
        if (index == objects.size())
            throw std::invalid_argument(path + ".object: no object \"" + d.object + "\"");
        const int axis = int(d.face) / 2;
        const bool high = int(d.face) % 2 == 1;
        // wall_sensor's side: +1 where the solid lies beyond the fluid along +axis (the
        // container's high faces, a solid's low ones).
        const float outward = objects[index].fluid_inside == high ? 1.0f : -1.0f;
        Vec<D> centre;
        for (int a = 0; a < D; ++a) centre[a] = float(d.centre[a]);
        WallSensor<D> s = wall_sensor<D>(w.boundary().x, objects, index, axis, outward, centre,
                                         float(0.5 * d.size), float(2 * scene.particle_radius));
        if (s.particles.empty() || !(s.area > 0))
            throw std::invalid_argument(fmt::format(
                "{}: the patch {} m across at ({}) holds no boundary particle of {}'s face; make "
                "sensors[{}].size larger or move its centre onto the face", path, d.size,
                fmt::join(std::span<const double>(d.centre.data(), D), ", "), d.object, i));
        sensors_.push_back(std::move(s));
        header_ += "," + sensor_name(d, i);
    }
    sum_.assign(sensors_.size(), 0.0);
    last_.assign(sensors_.size(), 0.0);
}

template <int D>
std::vector<std::string> PressureSensors<D>::describe(const Scene& scene) const {
    // The faces' names as the scene declares them.
    std::span<const std::string_view> faces;
    for (const Param<SensorDef>& p : sensor_params())
        if (p.key == "face") faces = p.choices;
    std::vector<std::string> out;
    for (std::size_t i = 0; i < sensors_.size(); ++i) {
        const SensorDef& d = scene.sensors[i];
        const WallSensor<D>& q = sensors_[i];
        std::string extent;
        for (int a = 0; a < D; ++a)
            if (a != q.axis)
                extent += fmt::format("{}{} {:.4g} to {:.4g} m", extent.empty() ? "" : ", ",
                                      "xyz"[a], q.lo[a], q.hi[a]);
        out.push_back(fmt::format("sensor {}: {}'s {} face at {} = {:.4g} m, {} boundary "
                                  "particles over {}, {:.4g} {}",
                                  sensor_name(d, i), d.object, faces[std::size_t(d.face)], "xyz"[q.axis],
                                  q.face, q.particles.size(), extent, q.area,
                                  D == 2 ? "m (per metre of depth)" : "m²"));
    }
    return out;
}

template <int D>
std::string PressureSensors<D>::after_step(const World<D>& w, double dt) {
    if (sensors_.empty()) return "";
    // Split over processes: each boundary particle counts on the process that owns it, each
    // fluid particle's contact where it is not a halo copy (World::contact_forces is zero there).
    const auto* domain = dynamic_cast<const Domain<D>*>(w.processes());
    const auto force = w.boundary().face_force;
    const auto bx = w.boundary().x;
    const auto x = w.particles().x;
    const auto contact = w.contact_forces();
    const auto contact_object = w.contact_objects();
    // The fluid particles an object pushed this step (few: those at a wall).
    touching_.clear();
    for (std::size_t i = 0; i < contact.size() && i < x.size(); ++i)
        if (contact_object[i] != World<D>::no_object && contact[i] != Vec<D>(0.0f))
            touching_.push_back(i);
    std::vector<ExactSum> f(sensors_.size());
    const auto own = [&](std::size_t k) { return !domain || domain->owns(bx[k]); };
    for (std::size_t s = 0; s < sensors_.size(); ++s)
        f[s] = sensors_[s].force_along_axis(force, x, contact, contact_object, own, &touching_);
    if (Processes* pr = w.processes())
        for (ExactSum& e : f) pr->sum(e);
    for (std::size_t s = 0; s < sensors_.size(); ++s) {
        last_[s] = sensors_[s].outward * f[s].value() / sensors_[s].area;
        sum_[s] += last_[s] * dt;
    }
    time_ += dt;
    const double t = w.time();
    if (t < double(next_) / rate_ * (1 - 1e-9)) return "";
    std::string row = fmt::format("{:.9g}", t);
    for (std::size_t s = 0; s < sensors_.size(); ++s) {
        row += fmt::format(",{:.7g}", time_ > 0 ? sum_[s] / time_ : 0.0);
        sum_[s] = 0;
    }
    time_ = 0;
    next_ = std::int64_t(std::floor(t * rate_ + 1e-9)) + 1;
    return row + "\n";
}

template <int D>
nlohmann::json PressureSensors<D>::state() const {
    return {{"header", header_}, {"sum", sum_}, {"time", time_}, {"next", next_}};
}

template <int D>
void PressureSensors<D>::restore(const nlohmann::json& j) {
    const auto damaged = [](const std::string& why) {
        return CheckpointError("the checkpoint's sensor sums are damaged (" + why +
                               "); the file was damaged or edited");
    };
    try {
        const std::string header = j.value("header", std::string("time"));
        // The sensors' names, as the header lists them after "time".
        const auto names = [](const std::string& h) {
            return h.size() > 5 ? "\"" + h.substr(5) + "\"" : std::string("none");
        };
        if (header != header_)
            throw CheckpointError("the run's sensors were " + names(header) + ", the scene's are " +
                                  names(header_) + ": sensors.csv would mix them (give the run's "
                                  "sensors, or start a new run)");
        if (sensors_.empty()) return;
        const auto sum = j.at("sum").get<std::vector<double>>();
        const double time = j.at("time").get<double>();
        const auto next = j.at("next").get<std::int64_t>();
        if (sum.size() != sensors_.size())
            throw damaged(fmt::format("{} sums for {} sensors", sum.size(), sensors_.size()));
        for (double v : sum)
            if (!std::isfinite(v)) throw damaged("a sum is not a number");
        if (!(time >= 0 && std::isfinite(time)) || next < 1)
            throw damaged("its time or row counter is out of range");
        sum_ = sum;
        time_ = time;
        next_ = next;
    } catch (const nlohmann::json::exception& e) {
        throw damaged(e.what());
    }
}

template class PressureSensors<2>;
template class PressureSensors<3>;

}  // namespace seiche::run
