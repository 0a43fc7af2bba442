#include "run_output.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdio.h>

#include <fstream>
#include <algorithm>
#include <regex>
#include <set>
#include <sstream>


#include "body_frames.hpp"
#include "external_tools.hpp"
#include "vdb_output.hpp"
#include "seiche/bodies.hpp"
#include "seiche/io/scene_loader.hpp"
#include "seiche/io/input_file.hpp"
#include "seiche/surface.hpp"

namespace seiche::run {

namespace fs = std::filesystem;

namespace {

// What seiche writes into a run directory (run, mesh, render). A directory holding anything else
// was opened with --overwrite or has the user's files: it is cleared in place, never swapped.
bool only_seiche_files(const fs::path& dir) {
    static const std::regex top(
        R"((\.seiche-run|scene\.json|summary\.json|stats\.csv|particles\.pvd|surface\.pvd|)"
        R"(bodies\.csv|bodies\.pvd|sensors\.csv|sensors\.png|)"
        R"(checkpoint\.bin|preview_first\.png|preview_last\.png|frames|render|.*\.part))");
    static const std::regex frames(R"((frame|surface|bodies)_[0-9]+(_[0-9]+)?\.(vtp|pvtp|ply|obj|vdb)|.*\.part)");
    static const std::regex render(R"(frame_[0-9]+\.png|movie\.mp4|.*\.part)");
    auto all_match = [](const fs::path& d, const std::regex& names) {
        for (const auto& e : fs::directory_iterator(d))
            if (!std::regex_match(e.path().filename().string(), names)) return false;
        return true;
    };
    if (!all_match(dir, top)) return false;
    if (fs::is_directory(dir / "frames") && !all_match(dir / "frames", frames)) return false;
    if (fs::is_directory(dir / "render") && !all_match(dir / "render", render)) return false;
    return fs::is_regular_file(dir / run_marker) || !fs::exists(dir / run_marker);
}

// The temporaries of a killed seiche process (NAME.XXXXXX.part).
void remove_temporaries(const fs::path& dir) {
    static const std::regex temp(R"(.*\.[A-Za-z0-9]{6}\.part)");
    for (const fs::path& d : {dir, dir / "frames", dir / "render"}) {
        if (!fs::is_directory(d)) continue;
        for (const auto& e : fs::directory_iterator(d))
            if (e.is_regular_file() && std::regex_match(e.path().filename().string(), temp))
                fs::remove(e.path());
    }
}

// An earlier run's files, the ones that list frames first: a run killed half-way through this
// never claims a frame that is gone.
void clear_in_place(const fs::path& dir) {
    for (const char* index : {"summary.json", "particles.pvd", "surface.pvd", "stats.csv",
                              "bodies.csv", "bodies.pvd", "sensors.csv", "sensors.png",
                              checkpoint_file})
        fs::remove(dir / index);
    if (fs::is_directory(dir / "frames"))
        for (const auto& e : fs::directory_iterator(dir / "frames")) {
            const std::string name = e.path().filename().string();
            if (name.rfind("frame_", 0) == 0 || name.rfind("surface_", 0) == 0 ||
                name.rfind("bodies_", 0) == 0)
                fs::remove(e.path());
        }
    clear_pictures(dir);
    remove_temporaries(dir);
}

// Removes frame files numbered `first` or later: frames/frame_N.* (and its pieces frame_N_K.vtp),
// frames/surface_N.*,
// render/frame_N.png, and the movie made from them.
void remove_frames_from(const fs::path& dir, int first) {
    // At most nine digits, as seiche writes them (six): other files are not seiche's to remove.
    static const std::regex numbered(R"((frame|surface|bodies)_([0-9]{1,9})(_[0-9]{1,6})?\.[a-z]+)");
    for (const fs::path& d : {dir / "frames", dir / "render"}) {
        if (!fs::is_directory(d)) continue;
        for (const auto& e : fs::directory_iterator(d)) {
            std::smatch m;
            const std::string name = e.path().filename().string();
            if (std::regex_match(name, m, numbered) && std::stol(m[2].str()) >= first)
                fs::remove(e.path());
        }
    }
    fs::remove(dir / "render" / "movie.mp4");
}

// stats.csv's rows up to `steps` (a killed run published it at its last checkpoint).
std::string stats_rows_until(const fs::path& file, std::int64_t steps) {
    std::ifstream in = io::open_input(file, "the run's stats.csv", 1024 * io::MiB);
    std::string line, rows;
    if (!std::getline(in, line)) return rows;
    if (line != io::StatsWriter::header())
        throw CheckpointError(file.string() + " is not the stats.csv of this seiche");
    while (std::getline(in, line)) {
        const long long step = std::atoll(line.c_str());
        if (step > steps) break;
        rows += line + "\n";
    }
    return rows;
}

nlohmann::json entries_json(const std::vector<io::PvdEntry>& entries) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : entries) out.push_back({e.time, e.file});
    return out;
}

// A checkpoint's list of the run's frames of one kind (frames/STEM_NNNNNN.vtp), which the
// resume writes back as the .pvd: it must name this run's own files, in frame order at
// non-decreasing times, below the frame counter, and every such file the run has; a list that
// named other paths would send ParaView elsewhere, a shorter one would drop frames from it.
std::vector<io::PvdEntry> listed_frames(const fs::path& dir, const nlohmann::json& j,
                                        const std::string& stem, int next_frame, const char* key) {
    auto damaged = [&](const std::string& why) {
        return CheckpointError(fmt::format("its list of {} is damaged ({}); the file was damaged or "
                                           "edited", key, why));
    };
    if (!j.is_array()) throw damaged("not a list");
    const std::regex name("frames/" + stem + "_([0-9]{6,9})\\.p?vtp");  // .pvtp: in pieces
    std::vector<io::PvdEntry> out;
    std::set<long> listed;
    long last = -1;
    for (std::size_t k = 0; k < j.size(); ++k) {
        const auto& e = j[k];
        std::smatch m;
        std::string file;
        if (!e.is_array() || e.size() != 2 || !e[0].is_number() || !e[1].is_string() ||
            !std::regex_match(file = e[1].get<std::string>(), m, name))
            throw damaged(fmt::format("entry {} is not [time, \"frames/{}_NNNNNN.vtp\"]", k, stem));
        const long index = std::stol(m[1].str());
        const double t = e[0].get<double>();
        if (index <= last || index >= next_frame || !std::isfinite(t) || t < 0 ||
            (!out.empty() && t < out.back().time))
            throw damaged(fmt::format("entry {}: {} at t = {} s out of order or past frame {}", k,
                                      file, t, next_frame - 1));
        last = index;
        listed.insert(index);
        out.push_back({t, file});
    }
    const std::regex on_disk(stem + "_([0-9]{6,9})\\.p?vtp");
    if (fs::is_directory(dir / "frames"))
        for (const auto& f : fs::directory_iterator(dir / "frames")) {
            std::smatch m;
            const std::string file = f.path().filename().string();
            if (std::regex_match(file, m, on_disk) && std::stol(m[1].str()) < next_frame &&
                !listed.count(std::stol(m[1].str())))
                throw damaged("frames/" + file + " is on disk but not in it");
        }
    return out;
}

// The first `rows` rows of a run's CSV file after its header (which must be `header` unless that
// is ""), all of them there: a file cut shorter is refused, as resuming would lose the rest.
std::string kept_rows(const fs::path& file, const std::string& header, std::int64_t rows,
                      const char* written_by) {
    std::ifstream in = io::open_input(file, "the run's " + file.filename().string(), 4096 * io::MiB);
    std::string line, out;
    if (!std::getline(in, line) || (!header.empty() && line != header))
        throw CheckpointError(fmt::format("{} does not start with the scene's header \"{}\"",
                                          file.string(), header));
    std::int64_t k = 0;
    for (; k < rows && std::getline(in, line); ++k) out += line + "\n";
    if (k < rows)
        throw CheckpointError(fmt::format(
            "{} has {} of the {} rows the checkpoint's {} wrote: resuming would lose the rest",
            file.string(), k, rows, written_by));
    return out;
}

// sensors.csv's header: time and the scene's sensors' names ("" without sensors).
std::string sensors_header(const Scene& s) {
    if (s.sensors.empty()) return "";
    std::string h = "time";
    for (std::size_t i = 0; i < s.sensors.size(); ++i) h += "," + sensor_name(s.sensors[i], i);
    return h;
}

// Where a fresh run writes until it has frame 0, having made room there.
fs::path prepare_staging(const fs::path& dir, const RunResume* resume) {
    if (resume || !fs::exists(dir) || fs::is_empty(dir)) return dir;
    if (!only_seiche_files(dir)) {
        clear_in_place(dir);
        return dir;
    }
    const fs::path staging = dir.parent_path() / (dir.filename().string() + ".partial");
    if (fs::exists(staging)) {
        // A run killed before its first frame left it; anything else is not ours to remove.
        if (!fs::is_directory(staging) || !only_seiche_files(staging))
            throw std::runtime_error(staging.string() +
                                     " exists and is not seiche's; remove or rename it");
        fs::remove_all(staging);
    }
    return staging;
}

// The scene, once this build can write everything it asks for: checked before the directory is
// touched.
const Scene& writable(const Scene& s) {
    if (const std::string why = unsupported_output(s.output); !why.empty())
        throw std::runtime_error(why);
    return s;
}

}  // namespace

std::string unsupported_output(const OutputParams& o) {
    if (o.vdb)
        if (std::string why = vdb_unavailable(); !why.empty()) return why;
    if (o.pieces) {
        if (!o.vtk) return "output.pieces writes the particle frames as .vtp pieces: set output.vtk to true";
        for (const auto& [on, key] : {std::pair{o.ply, "output.ply"}, {o.vdb, "output.vdb"},
                                      {o.mesh, "output.mesh"}})
            if (on)
                return fmt::format("output.pieces leaves each process's particles where they are, "
                                   "and {} needs the whole fluid in one process: set {} to false "
                                   "(seiche mesh and the other commands read the pieces after the run)",
                                   key, key);
    }
    if (o.render && !o.ply && !o.vtk)
        return "output.render draws the pictures from the particle frames on disk at the end of "
               "the run: set output.ply or output.vtk to true";
    return "";
}

RunOutput::RunOutput(const Scene& s, fs::path dir, const RunResume* resume)
    : scene_(writable(s)),
      dir_(std::move(dir)),
      staging_(prepare_staging(dir_, resume)),
      pictures_(s, staging_, resume != nullptr) {
    fs::create_directories(staging_ / "frames");
    mark_seiche_dir(staging_);
    sensor_header_ = sensors_header(s);
    if (resume) {
        // Read before anything in the run is touched: a damaged stats.csv refuses the resume.
        stats_rows_ = stats_rows_until(dir_ / "stats.csv", resume->steps);
        // bodies.csv: the rows of the frames up to the checkpoint, all of them there.
        if (resume->body_rows > 0)
            body_rows_ = kept_rows(dir_ / "bodies.csv", "", resume->body_rows, "frames");
        body_row_count_ = resume->body_rows;
        if (!sensor_header_.empty()) {
            // sensors.csv: the rows up to the checkpoint, under the scene's sensors' header.
            sensor_rows_ = kept_rows(dir_ / "sensors.csv", sensor_header_, resume->sensor_rows, "steps");
            sensor_row_count_ = resume->sensor_rows;
        }
        remove_temporaries(dir_);
        fs::remove(dir_ / "summary.json");  // written again at the end: no summary = running
        remove_frames_from(dir_, resume->next_frame);
        pvd_ = resume->frames;
        if (s.output.vtk) io::write_pvd(dir_ / "particles.pvd", pvd_);
        if (s.output.mesh && s.output.mesh_vtk && !resume->surfaces.empty())
            io::write_pvd(dir_ / "surface.pvd", resume->surfaces);
        body_frames_ = resume->bodies;
        if (!body_frames_.empty()) io::write_pvd(dir_ / "bodies.pvd", body_frames_);
    }
    io::write_file_atomic(staging_ / "scene.json", [&](std::ostream& out) {
        out << io::scene_to_json(s).dump(2) << "\n";
    });
    if (s.output.mesh) surface_.emplace(s, staging_, resume ? &resume->surfaces : nullptr);
    if (resume) publish();
}

RunOutput::~RunOutput() {
    // A fresh run that failed before its first frame: the earlier run stays as it was.
    std::error_code ec;
    if (!published_ && staging_ != dir_) fs::remove_all(staging_, ec);
}

void RunOutput::publish() {
    if (staging_ != dir_) {
        // One atomic exchange where the file system has it; else two renames, the old run kept
        // until the new one is in place.
        if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) != 0) {
            const fs::path old = dir_.parent_path() / (dir_.filename().string() + ".old");
            fs::remove_all(old);
            fs::rename(dir_, old);
            fs::rename(staging_, dir_);
            fs::rename(old, staging_);
        }
        fs::remove_all(staging_);
        pictures_.moved_to(dir_);
        if (surface_) surface_->moved_to(dir_);
    }
    published_ = true;
    if (scene_.output.stats) stats_.open(dir_ / "stats.csv", stats_rows_);
}

// bodies.csv's columns: pose (position, the unit quaternion of the rotation), velocities and the
// fluid's force and torque, per body per frame.
constexpr const char* bodies_header =
    "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,fx,fy,fz,tx,ty,tz";

template <int D>
void RunOutput::bodies(const World<D>& w, int index, const fs::path& dir, io::FrameData& f) {
    const std::size_t n = w.definition().bodies.size();
    if (n == 0) return;
    SurfaceMesh mesh;
    std::vector<BodyPose> poses;
    for (std::size_t b = 0; b < n; ++b) {
        const BoundaryObject<D>& o = w.boundary_objects()[w.body_object(b)];
        append_surface<D>(o, mesh);
        // The outlines come from the pose as bodies.csv stores it, as `seiche render` reads it
        // back: the two make the same pictures.
        const BodyPose pose = body_pose(o);
        poses.push_back(pose);
        const auto& x = pose.position;
        const auto& q = pose.quaternion;
        std::array<float, 3> v{}, om{}, force{}, torque{};
        for (int a = 0; a < D; ++a) v[a] = o.velocity[a], force[a] = o.force[a];
        if constexpr (D == 3) {
            for (int a = 0; a < 3; ++a) om[a] = o.angular_velocity[a], torque[a] = o.torque[a];
        } else {
            om[2] = o.angular_velocity;
            torque[2] = o.torque;
        }
        body_rows_ += fmt::format(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", w.time(), o.name,
            x[0], x[1], x[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], om[0], om[1], om[2],
            force[0], force[1], force[2], torque[0], torque[1], torque[2]);
        ++body_row_count_;
    }
    // Each body's surface in its own frame, once (frames/bodies_local_NNN.ply, NNN its index in
    // the scene): with bodies.csv's poses, one object per body that a renderer moves (the
    // Blender add-on keyframes them) instead of a mesh rebuilt every frame.
    if (scene_.output.ply)
        for (std::size_t b = 0; b < n; ++b) {
            const fs::path local = dir / "frames" / fmt::format("bodies_local_{:03}.ply", b);
            if (fs::exists(local)) continue;
            BoundaryObject<D> o = w.boundary_objects()[w.body_object(b)];
            o.set_pose(Vec<D>(0.0f), Mat<D>(1.0f));
            SurfaceMesh own;
            append_surface<D>(o, own);
            io::write_mesh_ply(local, own);
        }
    append_body_outlines<D>(scene_, poses, f.solid_edges);
    io::write_file_atomic(dir / "bodies.csv",
                          [&](std::ostream& out) { out << bodies_header << "\n" << body_rows_; });
    const std::string stem = fmt::format("bodies_{:06}", index);
    io::write_obj(dir / "frames" / (stem + ".obj"), mesh);
    if (scene_.output.ply) io::write_mesh_ply(dir / "frames" / (stem + ".ply"), mesh);
    if (scene_.output.vtk) {
        io::write_mesh_vtp(dir / "frames" / (stem + ".vtp"), mesh);
        body_frames_.push_back({w.time(), "frames/" + stem + ".vtp"});
        io::write_pvd(dir / "bodies.pvd", body_frames_);
    }
}

template <int D>
void RunOutput::frame(const World<D>& w, const ParticleSet<D>& particles, int index) {
    const fs::path& dir = published_ ? dir_ : staging_;
    io::FrameData f = io::frame_data(particles, w.time());
    bodies(w, index, dir, f);
    const std::string stem = fmt::format("frame_{:06}", index);
    if (scene_.output.vtk) {
        io::write_vtp(dir / "frames" / (stem + ".vtp"), f);
        pvd_.push_back({w.time(), "frames/" + stem + ".vtp"});
        io::write_pvd(dir / "particles.pvd", pvd_);
    }
    if (scene_.output.ply) io::write_ply(dir / "frames" / (stem + ".ply"), f);
    // Eight particles per voxel in a resting fluid: Houdini's usual density for points grids.
    if (scene_.output.vdb)
        write_vdb_points(dir / "frames" / (stem + ".vdb"), f, 4.0 * scene_.particle_radius);
    write_sensors(dir);
    pictures_.frame(f, index, w.time());
    if (surface_) {
        // In creation order: the mesh then depends on the particles alone, not on how a process
        // stored them (a split run's, gathered, come in creation order; so do a run's frames).
        const std::vector<std::uint32_t> order = creation_order(particles.id);
        std::vector<Vec<D>> x(order.size()), v(order.size());
        for (std::size_t k = 0; k < order.size(); ++k) {
            x[k] = particles.x[order[k]];
            v[k] = particles.v[order[k]];
        }
        const std::span<const Vec<D>> xs(x.data(), x.size());
        SurfaceMesh mesh = reconstruct_surface<D>(xs, float(scene_.particle_radius), scene_.surface);
        interpolate_velocity<D>(mesh, xs, v, float(scene_.particle_radius),
                                scene_.surface);
        surface_->write(index, w.time(), mesh);
    }
    if (!published_) publish();
}

namespace {
std::string piece_name(int index, int piece) { return fmt::format("frame_{:06}_{}.vtp", index, piece); }
}  // namespace

template <int D>
void write_frame_piece(const World<D>& w, const fs::path& frames_dir, int index) {
    const Processes* pr = w.processes();
    const io::FrameData f = io::frame_data(w.particles(), w.time(),
                                           pr ? pr->halo() : std::span<const std::uint8_t>{});
    io::write_vtp(frames_dir / piece_name(index, pr ? pr->rank() : 0), f);
}

template <int D>
void RunOutput::frame_of_pieces(const World<D>& w, int index, int pieces) {
    const fs::path& dir = published_ ? dir_ : staging_;
    io::FrameData outlines;  // the bodies' outlines, for pictures (none are drawn from pieces)
    outlines.time = w.time();
    bodies(w, index, dir, outlines);
    write_sensors(dir);
    std::vector<std::string> files;
    for (int k = 0; k < pieces; ++k) files.push_back(piece_name(index, k));
    const std::string stem = fmt::format("frame_{:06}", index);
    io::write_pvtp(dir / "frames" / (stem + ".pvtp"), files);
    pvd_.push_back({w.time(), "frames/" + stem + ".pvtp"});
    io::write_pvd(dir / "particles.pvd", pvd_);
    if (!published_) publish();
}

template <int D>
void RunOutput::checkpoint(const World<D>& w, nlohmann::json state) {
    stats_.snapshot();
    state["frames"] = entries_json(pvd_);
    state["surfaces"] = entries_json(surface_ ? surface_->entries() : std::vector<io::PvdEntry>{});
    state["bodies"] = entries_json(body_frames_);
    state["body_rows"] = body_row_count_;
    state["sensor_rows"] = sensor_row_count_;
    const std::string extra = state.dump();
    io::write_file_atomic(dir_ / checkpoint_file,
                          [&](std::ostream& out) { w.save(out, extra); });
}

void RunOutput::write_sensors(const fs::path& dir) {
    if (sensor_header_.empty()) return;
    io::write_file_atomic(dir / "sensors.csv", [&](std::ostream& out) {
        out << sensor_header_ << "\n" << sensor_rows_;
    });
}

std::string RunOutput::plot_sensors() {
    if (sensor_header_.empty()) return "";
    const std::string rows = fmt::format("{} row{}", sensor_row_count_, sensor_row_count_ == 1 ? "" : "s");
    if (sensor_row_count_ == 0) return "sensors.csv (" + rows + ")";
    bool drawn = false;
    try {
        drawn = run_python_tool("plot_sensors.py", {dir_.string()});
    } catch (const std::exception&) {  // no data directory: no tools
    }
    return drawn ? "sensors.csv (" + rows + "), sensors.png"
                 : "sensors.csv (" + rows + "; sensors.png not drawn: python3-matplotlib?)";
}

std::string RunOutput::close(const PictureProgress& progress) {
    if (published_) write_sensors(dir_);
    stats_.close();
    return pictures_.finish(progress);
}

template <int D>
RunResume restore_run(World<D>& w, const fs::path& dir) {
    const fs::path file = dir / checkpoint_file;
    std::ifstream in;
    try {
        in = io::open_input(file, "the checkpoint", 4096 * io::MiB, std::ios::binary);
    } catch (const std::runtime_error& e) {
        throw CheckpointError(e.what());
    }
    if (!in)
        throw CheckpointError(file.string() +
                              " is missing: the run wrote no checkpoint (set "
                              "output.checkpoint_every, in simulated seconds)");
    RunResume r;
    try {
        const RestoreResult restored = w.restore(in);
        r.changed = restored.changed;
        r.state = nlohmann::json::parse(restored.extra);
        r.next_frame = r.state.at("next_frame").get<int>();
        if (r.next_frame < 1) throw CheckpointError("its frame counter is damaged");
        // The checkpoint was written with frame next_frame − 1, at its time (CFL steps land on
        // it; a fixed step reaches it within one step). A counter that disagrees would have the
        // resume remove frames it never writes again. (A changed frame rate renumbers frames.)
        const bool same_rate = std::none_of(r.changed.begin(), r.changed.end(), [](const auto& c) {
            return c.starts_with("time.frame_rate:");
        });
        const double rate = w.definition().time.frame_rate;
        const double last = (r.next_frame - 1) / rate;
        if (same_rate && !(w.time() >= last - 1e-9 * std::max(1.0, last) &&
                           w.time() < (r.next_frame + 1e-6) / rate))
            throw CheckpointError(fmt::format(
                "its frame counter ({} frames written) disagrees with its time (t = {} s, frame "
                "{} is at {} s); the file was damaged or edited",
                r.next_frame, w.time(), r.next_frame - 1, last));
        r.frames = listed_frames(dir, r.state.at("frames"), "frame", r.next_frame, "frames");
        r.surfaces = listed_frames(dir, r.state.at("surfaces"), "surface", r.next_frame, "surfaces");
        r.bodies = listed_frames(dir, r.state.value("bodies", nlohmann::json::array()), "bodies",
                                 r.next_frame, "bodies");
        // Each frame wrote one bodies.csv row per body.
        const std::size_t n_bodies = w.definition().bodies.size();
        const auto rows = r.state.value("body_rows", std::int64_t(0));
        if (rows < 0 || std::uint64_t(rows) != std::uint64_t(r.next_frame) * n_bodies)
            throw CheckpointError(fmt::format(
                "its bodies.csv row count ({}) is not one row per body ({}) for each of its {} "
                "frames; the file was damaged or edited", rows, n_bodies, r.next_frame));
        r.body_rows = int(rows);
        const auto sensor_rows = r.state.value("sensor_rows", std::int64_t(0));
        if (sensor_rows < 0)
            throw CheckpointError("its sensors.csv row count is damaged; the file was damaged or edited");
        r.sensor_rows = sensor_rows;
        // The run's totals for its summary.
        for (const char* key : {"iterations", "density_error_mean_sum", "density_error_max", "wall_time"})
            if (r.state.contains(key) &&
                !(r.state[key].is_number() && std::isfinite(r.state[key].get<double>()) &&
                  r.state[key].get<double>() >= 0))
                throw CheckpointError(std::string("its run total ") + key +
                                      " is damaged (expected a number >= 0)");
    } catch (const CheckpointError& e) {
        throw CheckpointError(file.string() + ": " + e.what());
    } catch (const nlohmann::json::exception& e) {
        throw CheckpointError(file.string() + ": the run's state in it is damaged (" +
                              e.what() + ")");
    }
    r.steps = w.steps();
    return r;
}

template void RunOutput::frame(const World<2>&, const ParticleSet<2>&, int);
template void RunOutput::frame(const World<3>&, const ParticleSet<3>&, int);
template void RunOutput::frame_of_pieces(const World<2>&, int, int);
template void RunOutput::frame_of_pieces(const World<3>&, int, int);
template void write_frame_piece(const World<2>&, const fs::path&, int);
template void write_frame_piece(const World<3>&, const fs::path&, int);
template void RunOutput::checkpoint(const World<2>&, nlohmann::json);
template void RunOutput::checkpoint(const World<3>&, nlohmann::json);
template RunResume restore_run(World<2>&, const fs::path&);
template RunResume restore_run(World<3>&, const fs::path&);

}  // namespace seiche::run
