// `seiche view`: a window (GLFW, OpenGL 3.3 core, Dear ImGui) that runs a scene live — orbit,
// pause, step, reset, switch the solver, change parameters, drag the interaction sphere — or
// plays a finished run directory back. Headless and scripted with --frames, --script,
// --screenshot (the tests run it under Xvfb); --benchmark says where each frame's time goes.
#include <GL/glew.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
// stb_truetype's reader, a private copy (static functions), to check a font before ImGui loads it.
#define STBTT_STATIC
#define STB_TRUETYPE_IMPLEMENTATION
#include <imstb_truetype.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <cstring>

#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>

#include "run/body_frames.hpp"
#include "run/external_tools.hpp"
#include "run/run_dir.hpp"
#include "gl_scene.hpp"
#include "seiche/bodies.hpp"
#include "seiche/io/mesh_reader.hpp"
#include "seiche/io/input_file.hpp"
#include "seiche/io/readers.hpp"
#include "seiche/io/scene_loader.hpp"
#include "seiche/parallel.hpp"
#include "seiche/render.hpp"
#include "simulation.hpp"
#include "view_command.hpp"

namespace seiche::viewer {

namespace fs = std::filesystem;
using clock = std::chrono::steady_clock;

namespace {

double ms_since(clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(clock::now() - t0).count();
}

// One scripted action at a frame (docs: README, `seiche view --help`).
struct ScriptEvent {
    int frame = 0;
    nlohmann::json action;
};

std::vector<ScriptEvent> read_script(const std::string& file) {
    std::vector<ScriptEvent> events;
    if (file.empty()) return events;
    std::ifstream in = io::open_input(file, "--script", 16 * io::MiB);
    if (!in) throw std::runtime_error("--script " + file + ": cannot read it");
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    const nlohmann::json doc = io::parse_json(text, "", "--script " + file);
    if (!doc.is_object() || !doc.contains("events") || !doc["events"].is_array())
        throw std::runtime_error("--script " + file + ": expected {\"events\": [...]}");
    static const char* known[] = {"camera", "drag", "release", "set", "solver", "color_by",
                                  "pause", "reset", "screenshot", "panel", "surface", "drop", "record"};
    for (std::size_t i = 0; i < doc["events"].size(); ++i) {
        const nlohmann::json& e = doc["events"][i];
        const std::string where = "--script " + file + ": events[" + std::to_string(i) + "]";
        if (!e.is_object() || !e.contains("frame") || !e["frame"].is_number_integer() ||
            e["frame"].get<int>() < 0)
            throw std::runtime_error(where + ": expected an object with \"frame\": an integer >= 0");
        for (const auto& [key, value] : e.items()) {
            if (key == "frame") continue;
            if (std::find(std::begin(known), std::end(known), key) == std::end(known))
                throw std::runtime_error(where + ": unknown action \"" + key + "\"");
        }
        // A script is a file like a scene: it may only name a picture under the current
        // directory (--screenshot on the command line may name any).
        if (e.contains("screenshot")) {
            if (!e["screenshot"].is_string() || e["screenshot"].get<std::string>().empty())
                throw std::runtime_error(where + ": screenshot expects a file name");
            const fs::path shot = e["screenshot"].get<std::string>();
            bool outside = shot.is_absolute();
            for (const auto& part : shot) outside = outside || part == "..";
            if (outside)
                throw std::runtime_error(where + ": screenshot \"" + shot.string() +
                                         "\" leaves the current directory; a script may only name "
                                         "a file under it (give --screenshot to write elsewhere)");
        }
        events.push_back({e["frame"].get<int>(), e});
    }
    return events;
}

std::array<float, 3> point_of(const nlohmann::json& j, const std::string& where) {
    if (!j.is_array() || j.size() < 2 || j.size() > 3)
        throw std::runtime_error(where + ": expected a point [x, y] or [x, y, z]");
    std::array<float, 3> p{0, 0, 0};
    for (std::size_t a = 0; a < j.size(); ++a) {
        if (!j[a].is_number()) throw std::runtime_error(where + ": expected numbers");
        p[a] = j[a].get<float>();
    }
    return p;
}

// The framebuffer as a picture (rows flipped: OpenGL's first row is the bottom one).
// The first of the pictures' font files that ImGui's font loader (stb_truetype) can read, or ""
// (ImGui's own font then): ImGui stops the program on a file it cannot read, so each one is
// checked first with the same two calls it makes.
std::string imgui_font_file() {
    for (const std::string& path : render::outline_font_files()) {
        std::ifstream in(path, std::ios::binary);
        const std::vector<unsigned char> data{std::istreambuf_iterator<char>(in), {}};
        if (data.empty()) continue;
        const int offset = stbtt_GetFontOffsetForIndex(data.data(), 0);
        stbtt_fontinfo info;
        if (offset >= 0 && stbtt_InitFont(&info, data.data(), offset)) return path;
    }
    return {};
}

render::Image read_framebuffer(int width, int height) {
    render::Image image(width, height);
    std::vector<std::uint8_t> rows(std::size_t(3) * width * height);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, rows.data());
    const std::size_t row = std::size_t(3) * width;
    for (int y = 0; y < height; ++y)
        std::copy_n(rows.data() + (height - 1 - y) * row, row, image.rgb.data() + y * row);
    return image;
}

// A finished run, frame by frame, as snapshots.
class Playback {
  public:
    Playback(const fs::path& dir, const Scene& scene) : dir_(dir), scene_(scene) {
        frames_ = run::run_frames(dir, scene.time.frame_rate);
        if (frames_.empty()) throw std::runtime_error(dir.string() + ": no frames to play");
        poses_ = run::read_body_poses(dir / "bodies.csv");
    }
    int count() const { return int(frames_.size()); }
    Snapshot load(int index) const {
        const io::PvdEntry& e = frames_.at(std::size_t(index));
        const io::FrameData f = io::read_frame(dir_ / e.file);
        Snapshot s;
        s.dimension = scene_.dimension;
        s.x = f.position;
        s.density = f.density;
        s.speed.resize(f.size());
        for (std::size_t i = 0; i < f.size(); ++i)
            s.speed[i] = std::hypot(f.velocity[3 * i], f.velocity[3 * i + 1], f.velocity[3 * i + 2]);
        s.radius = float(scene_.particle_radius);
        s.time = e.time;
        s.solver = std::string(solver_name(scene_.solver.type));
        for (int a = 0; a < 3; ++a) {
            s.box_min[a] = float(scene_.container_min[a]);
            s.box_max[a] = float(scene_.container_max[a]);
        }
        s.solids.dimension = scene_.dimension;
        // The run's surface mesh of this frame (`run --mesh`, `seiche mesh`), when there is one:
        // the binary PLY seiche writes by default, else the OBJ.
        const fs::path frame_file = dir_ / e.file;
        const std::string stem = frame_file.stem().string();
        if (scene_.dimension == 3 && stem.rfind("frame_", 0) == 0) {
            const fs::path base = frame_file.parent_path() / ("surface_" + stem.substr(6));
            try {
                if (fs::exists(base.string() + ".ply")) {
                    s.surface = io::read_mesh_ply(base.string() + ".ply");
                } else if (fs::exists(base.string() + ".obj")) {
                    const MeshData m = io::read_mesh(base.string() + ".obj");
                    s.surface.dimension = 3;
                    for (const auto& v : m.vertices) s.surface.position.insert(s.surface.position.end(), v.begin(), v.end());
                    for (const auto& t : m.triangles) s.surface.index.insert(s.surface.index.end(), t.begin(), t.end());
                }
            } catch (const std::exception&) {
                s.surface = {};  // a damaged mesh: the particles are shown alone
            }
        }
        auto pose = poses_.lower_bound(e.time - 1e-9);
        if (pose != poses_.end() && std::abs(pose->first - e.time) < 1e-6) {
            if (scene_.dimension == 2)
                add_bodies<2>(pose->second, s.solids);
            else
                add_bodies<3>(pose->second, s.solids);
        }
        return s;
    }

  private:
    template <int D>
    void add_bodies(const std::vector<run::BodyPose>& poses, SurfaceMesh& mesh) const {
        for (std::size_t i = 0; i < scene_.bodies.size(); ++i) {
            BoundaryObject<D> o = body_object<D>(scene_.bodies[i], i);
            for (const run::BodyPose& p : poses) {
                if (p.name != o.name) continue;
                Vec<D> x;
                for (int a = 0; a < D; ++a) x[a] = p.position[a];
                Mat<D> r(1.0f);
                if constexpr (D == 3) {
                    r = glm::mat3_cast(glm::quat(p.quaternion[0], p.quaternion[1], p.quaternion[2],
                                                 p.quaternion[3]));
                } else {
                    const float angle = 2.0f * std::atan2(p.quaternion[3], p.quaternion[0]);
                    r = Mat<2>(std::cos(angle), std::sin(angle), -std::sin(angle), std::cos(angle));
                }
                o.set_pose(x, r);
                append_surface<D>(o, mesh);
            }
        }
    }

    fs::path dir_;
    const Scene& scene_;
    std::vector<io::PvdEntry> frames_;
    std::map<double, std::vector<run::BodyPose>> poses_;
};

struct Benchmark {
    double simulation = 0, snapshot = 0, drawing = 0, ui = 0, swap = 0;
    int frames = 0;
};

struct Ui {
    int color_by = 0;  // 0 speed, 1 density, 2 pressure (WCSPH), 3 vorticity (with confinement)
    float vorticity_hi = 1;  //!< 1/s: the largest |ω| of the snapshot shown
    float pressure_hi = 1;  //!< Pa: hydrostatic at the container's full depth (impacts saturate)
    bool auto_range = true;
    std::array<float, 2> speed{0, 1}, density{0, 1};  //!< colour ranges, m/s and kg/m³
    int iterations = 3;
    float tolerance = 0.002f, xsph = 0, vorticity = 0, surface_tension = 0, adhesion = 0, cfl = 0.4f;
    float gravity_angle = 0;  // rad from −y, in the x–y plane
    bool recording = false;
    bool surface = false, particles_with_surface = false;
    int surface_every = 5;
    int recorded = 0;
    std::string note;  // the last screenshot or recording, shown in the overlay
};

// One window's session: the scene live or a run played back, frame by frame. run() is the loop;
// each frame takes the script's events, advances, draws, lays out the interface, reads the keys
// and the mouse, and records.
class Session {
  public:
    Session(const ViewOptions& o, const Scene& scene, std::vector<ScriptEvent> script,
            GLFWwindow* window, bool latin1)
        : o(o), scene(scene), script(std::move(script)), window(window), latin1(latin1),
          lockstep(o.frames > 0 && !o.free), screenshot_at_end(o.screenshot),
          record_dir(fs::path("out") / (scene.name + "_view")) {
        for (int a = 0; a < 3; ++a) {
            lo[a] = float(scene.container_min[a]);
            hi[a] = float(scene.container_max[a]);
        }
        camera.fit(lo, hi, scene.dimension == 2);
        const fs::path target(o.target);
        try {
            if (fs::is_directory(target))
                play.emplace(target, scene);
            else
                sim = std::make_unique<Simulation>(scene, lockstep);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "seiche view: %s\n", e.what());
            status = 2;
        }
        ui.color_by = scene.render.color_by == RenderParams::Color::density ? 1 : 0;
        ui.auto_range = scene.render.range_min == scene.render.range_max;
        for (int c = 0; c < 2; ++c) {
            // The pictures' range of each colouring (the scene's render.range for its own).
            Scene as = scene;
            as.render.color_by = c == 0 ? RenderParams::Color::speed : RenderParams::Color::density;
            if (as.render.color_by != scene.render.color_by) as.render.range_min = as.render.range_max = 0;
            const auto r = render::color_range(as);
            (c == 0 ? ui.speed : ui.density) = {float(r[0]), float(r[1])};
        }
        ui.pressure_hi = std::max(1.0f, float(scene.rest_density * std::hypot(scene.gravity[0], scene.gravity[1], scene.gravity[2]) *
                                              (scene.container_max[1] - scene.container_min[1])));
        ui.iterations = scene.solver.pbf.max_iterations;
        ui.tolerance = float(scene.solver.pbf.density_tolerance);
        ui.xsph = float(scene.solver.xsph < 0 ? default_xsph(scene.solver.type) : scene.solver.xsph);
        ui.vorticity = float(scene.solver.vorticity);
        ui.surface_tension = float(scene.solver.surface_tension);
        ui.cfl = float(scene.time.cfl);
        ui.adhesion = float(scene.container_adhesion);
        ui.gravity_angle = std::atan2(float(scene.gravity[0]), -float(scene.gravity[1]));
        gravity = float(std::hypot(scene.gravity[0], scene.gravity[1], scene.gravity[2]));
        if (status == 0 && play) {
            shown = play->load(0);
            upload(shown);
        }
    }

    // The frames until the window closes, --frames is reached or a script fails; then the
    // summary lines. The exit status.
    int run() {
        run_start_ = clock::now();
        while (status == 0 && !glfwWindowShouldClose(window)) {
            if (o.frames > 0 && frame >= o.frames) break;
            glfwPollEvents();
            int width = 0, height = 0;
            glfwGetFramebufferSize(window, &width, &height);
            if (width <= 0 || height <= 0) {
                glfwWaitEventsTimeout(0.05);
                continue;
            }
            apply_script();
            follow_path_drag();

            // ---- the simulation ----
            const auto t_sim = clock::now();
            if (sim && lockstep) sim->advance();
            bench.simulation += ms_since(t_sim);
            const auto t_snap = clock::now();
            if (sim) {
                sim->with_new_snapshot([&](const Snapshot& s) { upload(s); });
            } else if (play && play_running && play_frame + 1 < play->count()) {
                ++play_frame;
                shown = play->load(play_frame);
                upload(shown);
            }
            bench.snapshot += ms_since(t_snap);

            // ---- drawing ----
            const auto t_draw = clock::now();
            glViewport(0, 0, width, height);
            glClearColor(0.96f, 0.96f, 0.97f, 1.0f);
            glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
            gl.draw(camera, width, height);
            glFinish();
            bench.drawing += ms_since(t_draw);

            // ---- interface ----
            const auto t_ui = clock::now();
            ImGui_ImplOpenGL3_NewFrame();
            ImGui_ImplGlfw_NewFrame();
            ImGui::NewFrame();
            draw_overlay(ImGui::GetIO().Framerate);
            draw_panel(width);
            draw_colour_bar(width, height);
            ImGui::Render();
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            bench.ui += ms_since(t_ui);

            handle_input(width, height);
            record_and_capture(width, height);
            const auto t_swap = clock::now();
            glfwSwapBuffers(window);
            bench.swap += ms_since(t_swap);
            ++bench.frames;
            ++frame;
        }
        report();
        sim.reset();
        return status;
    }

  private:
    struct PathDrag {
        std::vector<std::array<float, 3>> path;
        int start = 0, frames = 1;
    };

    // The script's events of this frame.
    void apply_script() {
        for (const ScriptEvent& e : script) {
            if (e.frame != frame) continue;
            const std::string where = "--script: frame " + std::to_string(frame);
            try {
                const nlohmann::json& a = e.action;
                if (a.contains("camera")) {
                    const auto& c = a["camera"];
                    camera.yaw = c.value("yaw", camera.yaw);
                    camera.pitch = c.value("pitch", camera.pitch);
                    camera.distance = c.value("distance", camera.distance);
                    if (c.contains("target")) {
                        const auto t = point_of(c["target"], where + " camera.target");
                        camera.target = {t[0], t[1], t[2]};
                    }
                }
                if (a.contains("drag") && sim) {
                    const auto& d = a["drag"];
                    PathDrag p;
                    if (!d.contains("path") || !d["path"].is_array() || d["path"].empty())
                        throw std::runtime_error(where + ": drag expects \"path\": [[x, y, z], ...]");
                    for (const auto& q : d["path"]) p.path.push_back(point_of(q, where + " drag.path"));
                    p.start = frame;
                    p.frames = std::max(1, d.value("frames", 30));
                    path_drag = p;
                }
                if (a.contains("release") && sim) {
                    path_drag.reset();
                    sim->drag_to(std::nullopt);
                }
                if (a.contains("set") && sim)
                    for (const auto& [key, value] : a["set"].items()) sim->set(key, io::world_value(key, value, scene.dimension));
                if (a.contains("solver") && sim) sim->switch_solver(a["solver"].get<std::string>());
                if (a.contains("color_by")) {
                    const std::string c = a["color_by"].get<std::string>();
                    ui.color_by = c == "density" ? 1 : c == "pressure" ? 2 : c == "vorticity" ? 3 : 0;
                }
                if (a.contains("pause") && sim) sim->set_paused(a["pause"].get<bool>());
                if (a.contains("reset") && sim) sim->reset();
                if (a.contains("screenshot")) screenshot_at_end = a["screenshot"].get<std::string>();
                if (a.contains("record")) ui.recording = a["record"].get<bool>();
                if (a.contains("drop") && sim) sim->drop_block(point_of(a["drop"], where + " drop"));
                if (a.contains("panel")) open_panel = a["panel"].get<bool>() ? 1 : 0;
                if (a.contains("surface") && sim) {
                    ui.surface = a["surface"].get<bool>();
                    sim->set_surface(ui.surface ? ui.surface_every : 0, 2.0);
                }
            } catch (const std::exception& ex) {
                std::fprintf(stderr, "seiche view: %s: %s\n", where.c_str(), ex.what());
                status = 2;
            }
        }
    }
    // A scripted drag: the sphere along the path's corners, evenly in frames.
    void follow_path_drag() {
        if (path_drag && sim) {
            // Along the path's corners, evenly in frames.
            const PathDrag& p = *path_drag;
            const float u = std::clamp(float(frame - p.start) / float(p.frames), 0.0f, 1.0f) *
                            float(p.path.size() - 1);
            const std::size_t k = std::min(std::size_t(u), p.path.size() - 1);
            const float f = u - float(k);
            std::array<float, 3> t = p.path[k];
            if (k + 1 < p.path.size())
                for (int a = 0; a < 3; ++a) t[a] += f * (p.path[k + 1][a] - p.path[k][a]);
            sim->drag_to(t);
        }
    }

    // ---- the snapshot on screen ----
    const std::vector<float>& values_of(const Snapshot& s) const {
        if (ui.color_by == 2 && !s.pressure.empty()) return s.pressure;
        if (ui.color_by == 3 && !s.vorticity.empty()) return s.vorticity;
        return ui.color_by == 0 ? s.speed : s.density;
    }
    void upload(const Snapshot& s) {
        shown.time = s.time;
        shown.steps = s.steps;
        shown.last = s.last;
        shown.ms_per_step = s.ms_per_step;
        shown.solver = s.solver;
        shown.status = s.status;
        shown.drag = s.drag;
        shown.drag_radius = s.drag_radius;
        shown.has_vorticity = !s.vorticity.empty();
        // The sensors' recent readings, for the overlay's traces (a new scene starts them anew).
        if (shown.sensor_names != s.sensor_names) sensor_history.assign(s.sensors.size(), {});
        shown.sensor_names = s.sensor_names;
        shown.sensors = s.sensors;
        for (std::size_t k = 0; k < s.sensors.size(); ++k) {
            auto& h = sensor_history[k];
            h.push_back(s.sensors[k] / 1000.0f);
            if (h.size() > 300) h.erase(h.begin());
        }
        shown.x.resize(s.x.size());
        const std::vector<float>& v = values_of(s);
        if (ui.auto_range && !v.empty() && ui.color_by == 0) {
            // Speed: the range grows to the fastest particle seen, so colours stay comparable.
            ui.speed[1] = std::max(ui.speed[1], *std::max_element(v.begin(), v.end()));
        }
        if (ui.color_by == 2 && !s.pressure.empty()) {
            gl.upload(s, v, 0.0f, ui.pressure_hi);
            return;
        }
        if (ui.color_by == 3 && !s.vorticity.empty()) {
            // The 95th percentile: single particles' ω is noisy, the largest would grey the rest.
            std::vector<float> sorted = v;
            std::nth_element(sorted.begin(), sorted.begin() + sorted.size() * 95 / 100, sorted.end());
            ui.vorticity_hi = std::max(1e-3f, sorted[sorted.size() * 95 / 100]);
            gl.upload(s, v, 0.0f, ui.vorticity_hi);
            return;
        }
        const auto& range = ui.color_by == 0 ? ui.speed : ui.density;
        gl.upload(s, v, range[0], range[1]);
    }

    // ---- interface ----
    // Top left: scene, solver, time, speed, the run's state.
    void draw_overlay(float fps) {
        ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_Always);
        ImGui::SetNextWindowBgAlpha(0.75f);
        ImGui::Begin("overlay", nullptr,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                         ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoFocusOnAppearing);
        ImGui::Text("%s  %s  t = %.3f s", scene.name.c_str(), shown.solver.c_str(), shown.time);
        if (sim) {
            ImGui::Text("%.0f frames/s   %.2f ms/step   step %lld", fps, shown.ms_per_step, shown.steps);
            ImGui::Text("%zu particles   %d iterations%s   density error %.2f%% (max %.2f%%)",
                        shown.x.size() / 3, shown.last.iterations,
                        shown.last.diverged ? " (its error grew over them)"
                        : shown.last.capped ? " (the cap: above the tolerance)"
                                            : "",
                        100 * shown.last.density_error_mean, 100 * shown.last.density_error_max);
            // The scene's pressure sensors: the last step's reading and the recent ones.
            for (std::size_t k = 0; k < shown.sensors.size() && k < sensor_history.size(); ++k) {
                const auto& h = sensor_history[k];
                char label[128];
                std::snprintf(label, sizeof label, "%s %.2f kPa", shown.sensor_names[k].c_str(),
                              shown.sensors[k] / 1000.0f);
                ImGui::PlotLines(("##sensor" + std::to_string(k)).c_str(), h.data(), int(h.size()),
                                 0, label, FLT_MAX, FLT_MAX, ImVec2(300, 36));
            }
            if (!shown.status.empty()) ImGui::TextColored(ImVec4(0.8f, 0.1f, 0.1f, 1), "%s", shown.status.c_str());
            const std::string m = sim->message();
            if (!m.empty()) ImGui::TextColored(ImVec4(0.8f, 0.1f, 0.1f, 1), "%s", m.c_str());
        } else if (play) {
            ImGui::Text("playback: frame %d of %d   %.0f frames/s", play_frame + 1, play->count(), fps);
        }
        if (!ui.note.empty()) ImGui::Text("%s", ui.note.c_str());
        ImGui::End();
    }
    // The panel: pause, step, reset, the solver and its live keys, colours, surface, recording.
    void draw_panel(int width) {
        // Top right, narrower in small windows so that it leaves the overlay free.
        const float panel = std::min(390.0f, 0.45f * float(width));
        ImGui::SetNextWindowPos(ImVec2(float(width) - panel - 8, 8), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(panel, 0), ImGuiCond_FirstUseEver);
        // Headless pictures show the scene: the panel starts folded.
        ImGui::SetNextWindowCollapsed(o.frames > 0, ImGuiCond_FirstUseEver);
        if (open_panel >= 0) ImGui::SetNextWindowCollapsed(open_panel == 0, ImGuiCond_Always);
        open_panel = -1;
        ImGui::Begin("seiche");
        if (sim) {
            bool paused = sim->paused();
            if (ImGui::Checkbox("pause (space)", &paused)) sim->set_paused(paused);
            ImGui::SameLine();
            if (ImGui::Button("step (n)")) sim->step_once();
            ImGui::SameLine();
            if (ImGui::Button("reset (r)")) sim->reset();
            const auto shown_type = find_solver(shown.solver);
            int solver = shown_type ? int(*shown_type) : 0;
            static const std::string solver_items = [] {
                std::string items;  // ImGui's list: each name ended by a zero
                for (const std::string& n : solver_names()) items += n + '\0';
                return items;
            }();
            if (ImGui::Combo("solver", &solver, solver_items.c_str()))
                sim->switch_solver(std::string(solver_name(solver_types[solver])));
            // The running solver's bound on its iterations, when it iterates.
            const std::string_view iterations_key =
                shown_type ? solver_traits(*shown_type).iterations_key : std::string_view{};
            if (!iterations_key.empty() &&
                ImGui::SliderInt("iterations", &ui.iterations, 1, 50))
                sim->set(std::string(iterations_key), double(ui.iterations));
            if (ImGui::SliderFloat("PBF tolerance", &ui.tolerance, 1e-4f, 0.05f, "%.4f", ImGuiSliderFlags_Logarithmic))
                sim->set("solver.pbf.density_tolerance", double(ui.tolerance));
            if (ImGui::SliderFloat("XSPH", &ui.xsph, 0.0f, 0.5f)) sim->set("solver.xsph", double(ui.xsph));
            if (ImGui::SliderFloat("vorticity", &ui.vorticity, 0.0f, 1.0f))
                sim->set("solver.vorticity", double(ui.vorticity));
            if (ImGui::SliderFloat("surface tension", &ui.surface_tension, 0.0f, 10.0f))
                sim->set("solver.surface_tension", double(ui.surface_tension));
            if (ImGui::SliderFloat("wall adhesion", &ui.adhesion, 0.0f, 50.0f))
                sim->set("container.adhesion", double(ui.adhesion));
            if (ImGui::SliderFloat("CFL", &ui.cfl, 0.05f, 1.0f)) sim->set("time.cfl", double(ui.cfl));
            if (ImGui::SliderAngle("gravity direction", &ui.gravity_angle, -180.0f, 180.0f))
                sim->set("gravity", Vec3d{gravity * std::sin(ui.gravity_angle),
                                          -gravity * std::cos(ui.gravity_angle), 0.0});
            ImGui::TextWrapped(sim->drag_body() >= 0
                                   ? "Shift + left drag: move the sphere. Ctrl + click: drop a block of fluid."
                                   : "Ctrl + click: drop a block of fluid.");
        } else if (play) {
            ImGui::Checkbox("particles with the run's surface meshes", &ui.particles_with_surface);
            gl.particles_shown = ui.particles_with_surface;
            ImGui::Checkbox("play", &play_running);
            if (ImGui::SliderInt("frame", &play_frame, 0, play->count() - 1)) {
                shown = play->load(play_frame);
                upload(shown);
            }
        }
        ImGui::Combo("colour", &ui.color_by,
                     "speed\0density\0pressure (WCSPH)\0vorticity (with confinement)\0");
        if (sim) {
            bool changed = ImGui::Checkbox("surface", &ui.surface);
            ImGui::SameLine();
            changed |= ImGui::SliderInt("every k steps", &ui.surface_every, 1, 50);
            if (changed) sim->set_surface(ui.surface ? ui.surface_every : 0, 2.0);
            ImGui::Checkbox("particles with the surface", &ui.particles_with_surface);
            gl.particles_shown = ui.particles_with_surface;
        }
        ImGui::Checkbox("record (v)", &ui.recording);
        ImGui::End();
    }
    // The colour bar with the pictures' labels.
    void draw_colour_bar(int width, int height) {
            ImDrawList* d = ImGui::GetForegroundDrawList();
            const float x0 = float(width) - 46, y0 = float(height) - 240, x1 = x0 + 16, y1 = float(height) - 30;
            for (int i = 0; i < 64; ++i) {
                const auto c = render::colormap(1.0 - i / 63.0);
                const float ya = y0 + (y1 - y0) * i / 64.0f, yb = y0 + (y1 - y0) * (i + 1) / 64.0f;
                d->AddRectFilled(ImVec2(x0, ya), ImVec2(x1, yb),
                                 IM_COL32(int(c[0]), int(c[1]), int(c[2]), 255));
            }
            const auto shown_type = find_solver(shown.solver);
            const bool by_pressure =
                ui.color_by == 2 && shown_type && solver_traits(*shown_type).has_pressure;
            const bool by_vorticity = ui.color_by == 3 && shown.has_vorticity;
            const auto labels = by_pressure    ? render::bar_labels(0.0, ui.pressure_hi)
                                : by_vorticity ? render::bar_labels(0.0, ui.vorticity_hi)
                                : ui.color_by == 0 ? render::bar_labels(ui.speed[0], ui.speed[1])
                                                   : render::bar_labels(ui.density[0], ui.density[1]);
            const ImU32 ink = IM_COL32(40, 40, 48, 255);
            d->AddText(ImVec2(x0 - 40, y0 - 2.0f * ImGui::GetTextLineHeight() - 10.0f), ink,
                       by_pressure    ? "pressure\nPa"
                       : by_vorticity ? "vorticity\n1/s"
                       : ui.color_by == 0 ? "speed\nm/s"
                       : latin1           ? "density\nkg/m\u00b3"
                                          : "density\nkg/m3");
            d->AddText(ImVec2(x0 - 44, y0 - 6), ink, labels[2].c_str());
            d->AddText(ImVec2(x0 - 44, 0.5f * (y0 + y1) - 6), ink, labels[1].c_str());
            d->AddText(ImVec2(x0 - 44, y1 - 6), ink, labels[0].c_str());
    }

    // ---- keys and mouse (not when ImGui has them) ----
    void handle_input(int width, int height) {
        ImGuiIO& io = ImGui::GetIO();
        // Rising edges of the keys, read from GLFW (this ImGui's key enum lacks letters).
        auto pressed = [&](int key) {
            const bool down = glfwGetKey(window, key) == GLFW_PRESS;
            const bool was = keys_down[key];
            keys_down[key] = down;
            return down && !was && !io.WantCaptureKeyboard;
        };
        if (pressed(GLFW_KEY_ESCAPE)) glfwSetWindowShouldClose(window, 1);
        if (pressed(GLFW_KEY_SPACE) && sim) sim->set_paused(!sim->paused());
        if (pressed(GLFW_KEY_N) && sim) sim->step_once();
        if (pressed(GLFW_KEY_R) && sim) sim->reset();
        // Keys 1, 2, ... switch to the list's solvers in order.
        for (std::size_t k = 0; k < solver_count && k < 9; ++k)
            if (pressed(GLFW_KEY_1 + int(k)) && sim)
                sim->switch_solver(std::string(solver_name(solver_types[k])));
        if (pressed(GLFW_KEY_C)) ui.color_by = (ui.color_by + 1) % 4;
        if (pressed(GLFW_KEY_V)) ui.recording = !ui.recording;
        if (pressed(GLFW_KEY_P)) {
            const fs::path shot = fs::path("out") / (scene.name + "_view.png");
            save_picture(shot, width, height);
            ui.note = "saved " + shot.string();
        }
        double mx = 0, my = 0;
        glfwGetCursorPos(window, &mx, &my);
        if (!io.WantCaptureMouse) {
            const bool left = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
            const bool right = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
                               glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
            const bool shift = glfwGetKey(window, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
                               glfwGetKey(window, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
            int ww = 0, wh = 0;
            glfwGetWindowSize(window, &ww, &wh);
            const float dx = float(mx - last_x), dy = float(my - last_y);
            const bool ctrl = glfwGetKey(window, GLFW_KEY_LEFT_CONTROL) == GLFW_PRESS ||
                              glfwGetKey(window, GLFW_KEY_RIGHT_CONTROL) == GLFW_PRESS;
            const bool left_pressed = left && !left_was_down;
            left_was_down = left;
            if (left_pressed && ctrl && sim) {
                // A block of fluid where the cursor meets the plane through the tank's middle.
                const glm::vec3 mid = 0.5f * (glm::vec3(lo[0], lo[1], lo[2]) + glm::vec3(hi[0], hi[1], hi[2]));
                const glm::vec3 t = camera.unproject_on_plane(mx, my, ww, wh, mid);
                sim->drop_block({t.x, t.y, scene.dimension == 2 ? 0.0f : t.z});
            } else if (ctrl) {
                // holding Ctrl: no orbit
            } else if (left && shift && sim && shown.drag_radius > 0) {
                // The sphere follows the cursor in the plane through it facing the camera.
                const glm::vec3 c(shown.drag[0], shown.drag[1], shown.drag[2]);
                const glm::vec3 t = camera.unproject_on_plane(mx, my, ww, wh, c);
                sim->drag_to(std::array<float, 3>{t.x, t.y, scene.dimension == 2 ? 0.0f : t.z});
                dragging = true;
            } else {
                if (dragging && sim) sim->drag_to(std::nullopt);
                dragging = false;
                if (left && !camera.ortho) {
                    camera.yaw -= 0.008f * dx;
                    camera.pitch = std::clamp(camera.pitch + 0.008f * dy, -1.5f, 1.5f);
                } else if (right || (left && camera.ortho)) {
                    const glm::mat4 v = camera.view();
                    const glm::vec3 rightv(v[0][0], v[1][0], v[2][0]), up(v[0][1], v[1][1], v[2][1]);
                    const float scale = 2.0f * camera.distance * std::tan(0.5f * camera.fov) / float(std::max(wh, 1));
                    camera.target += scale * (-dx * rightv + dy * up);
                }
            }
            if (io.MouseWheel != 0) camera.distance *= std::pow(0.9f, io.MouseWheel);
        }
        last_x = mx;
        last_y = my;
    }

    // ---- pictures ----
    // The recording's next PNG; the --screenshot after the last frame.
    void record_and_capture(int width, int height) {
        if (ui.recording) {
            if (ui.recorded == 0) {
                run::clear_pictures(record_dir);  // only the PNGs and movie of an earlier recording
                fs::create_directories(record_dir / "render");
            }
            save_picture(run::picture_path(record_dir, ui.recorded), width, height);
            ++ui.recorded;
            ui.note = "recording " + std::to_string(ui.recorded) + " frames to " + record_dir.string();
        } else if (ui.recorded > 0) {
            finish_recording();
        }
        const bool last_frame = o.frames > 0 && frame + 1 >= o.frames;
        if (last_frame && !screenshot_at_end.empty()) {
            save_picture(screenshot_at_end, width, height);
        }
    }
    // The recorded PNGs into a movie when ffmpeg is there; says where they went.
    void finish_recording() {
        std::string why;
        const auto movie = run::make_movie(record_dir, 30.0, &why);
        ui.note = "recorded " + std::to_string(ui.recorded) + " frames to " +
                  (record_dir / "render").string() +
                  (movie ? ", movie " + movie->string() : " (no movie: " + why + ")");
        std::printf("%s\n", ui.note.c_str());
        ui.recorded = 0;
    }
    static void save_picture(const fs::path& path, int w, int h) {
        if (!path.parent_path().empty()) fs::create_directories(path.parent_path());
        render::write_png(path, read_framebuffer(w, h));
    }

    // The lines printed at the end: where the run or playback stopped, and with --benchmark
    // where each frame's time went.
    void report() {
        if (ui.recorded > 0) finish_recording();
        const double wall = ms_since(run_start_) / 1000.0;
        if (status == 0 && play)
            std::printf("playback: frame %d of %d, t = %.4f s\n", play_frame + 1, play->count(), shown.time);
        if (status == 0 && sim) {
            std::printf("view: %s, %s, t = %.4f s after %lld steps, %zu particles\n", scene.name.c_str(),
                        shown.solver.c_str(), shown.time, shown.steps, shown.x.size() / 3);
            if (!shown.sensors.empty()) {
                std::printf("sensors       ");
                for (std::size_t k = 0; k < shown.sensors.size(); ++k)
                    std::printf(" %s %.4g Pa%s", shown.sensor_names[k].c_str(), shown.sensors[k],
                                k + 1 < shown.sensors.size() ? "," : "\n");
                // A step's reading swings with the flow (a tank released from its lattice sloshes
                // by ±20% for seconds): the mean of the last readings the overlay keeps, too.
                const std::size_t last = std::min<std::size_t>(
                    100, sensor_history.empty() ? 0 : sensor_history[0].size());
                if (last > 0 && sensor_history.size() == shown.sensors.size()) {
                    std::printf("sensors, mean of the last %zu readings:", last);
                    for (std::size_t k = 0; k < shown.sensors.size(); ++k) {
                        const auto& h = sensor_history[k];
                        double sum = 0;
                        for (std::size_t i = h.size() - std::min(last, h.size()); i < h.size(); ++i)
                            sum += h[i];
                        std::printf(" %s %.4g Pa%s", shown.sensor_names[k].c_str(),
                                    1000.0 * sum / double(std::min(last, h.size())),
                                    k + 1 < shown.sensors.size() ? "," : "\n");
                    }
                }
            }
        }
        if (o.benchmark && bench.frames > 0) {
            const double n = bench.frames;
            std::printf("frames         %d in %.2f s: %.1f frames per second\n", bench.frames, wall, n / wall);
            // Every figure over the same span, the frames of this run.
            const double steps = double(std::max<long long>(shown.steps, 1));
            std::printf("simulation     %lld steps in %.2f s: %.1f steps per second, %s\n",
                        shown.steps, wall, shown.steps / wall,
                        lockstep ? "one per frame, waited for" : "free on its own thread");
            if (lockstep)
                std::printf("               %.2f ms per step on average\n", bench.simulation / steps);
            else  // the frames do not wait for it: its own time per step is only sampled
                std::printf("               %.2f ms per step on its own thread (the last one)\n",
                            shown.ms_per_step);
            std::printf("per frame, ms  simulation %.2f  snapshot upload %.2f  drawing %.2f  "
                        "interface %.2f  swap %.2f\n",
                        bench.simulation / n, bench.snapshot / n, bench.drawing / n, bench.ui / n,
                        bench.swap / n);
            std::printf("renderer       %s\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
        }
        if (!screenshot_at_end.empty() && status == 0 && o.frames > 0)
            std::printf("screenshot     %s\n", screenshot_at_end.c_str());
    }

    const ViewOptions& o;
    const Scene& scene;
    const std::vector<ScriptEvent> script;
    GLFWwindow* window;
    const bool latin1;    //!< the panel's font has ³ (else "kg/m3")
    const bool lockstep;  //!< one simulation step per frame, waited for (headless runs)
    int status = 0;
    GlScene gl;
    Camera camera;
    std::array<float, 3> lo{}, hi{};  //!< the container, m
    std::unique_ptr<Simulation> sim;
    std::optional<Playback> play;
    Ui ui;
    float gravity = 0;  //!< |g|, m/s² (the panel turns its direction)
    Snapshot shown;     //!< the snapshot on screen (its arrays: a copy for the overlay)
    std::vector<std::vector<float>> sensor_history;  //!< kPa, the last 300 snapshots' readings
    int frame = 0;
    int play_frame = 0;
    bool play_running = true;
    bool dragging = false;
    std::optional<PathDrag> path_drag;
    double last_x = 0, last_y = 0;
    std::map<int, bool> keys_down;
    bool left_was_down = false;
    int open_panel = -1;  //!< a script opens (1) or folds (0) the panel
    Benchmark bench;
    clock::time_point run_start_;  //!< when the frames began
    std::string screenshot_at_end;
    fs::path record_dir;
};

}  // namespace

int view_command(const ViewOptions& o) {
    const fs::path target(o.target);
    const bool playback = fs::is_directory(target);
    Scene scene;
    try {
        scene = io::load_scene(playback ? target / "scene.json" : target, o.overrides);
    } catch (const io::SceneError& e) {
        std::fprintf(stderr, "seiche view: %s: %s\n",
                     (playback ? target / "scene.json" : target).c_str(), e.what());
        return 2;
    }
    std::vector<ScriptEvent> script;
    try {
        script = read_script(o.script);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "seiche view: %s\n", e.what());
        return 2;
    }
    set_thread_count(o.threads);

    if (!glfwInit()) {
        std::fprintf(stderr,
                     "seiche view: no display (GLFW could not start); set DISPLAY, or run it "
                     "under Xvfb: xvfb-run -a seiche view ...\n");
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GL_TRUE);
    glfwWindowHint(GLFW_SAMPLES, 0);  // the sprites cut their own discs; 4x MSAA under llvmpipe costs more than it shows
    GLFWwindow* window = glfwCreateWindow(o.width, o.height,
                                          ("seiche view: " + scene.name).c_str(), nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "seiche view: no OpenGL 3.3 core context on this display\n");
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(o.frames > 0 || o.benchmark ? 0 : 1);
    glewExperimental = GL_TRUE;
    if (glewInit() != GLEW_OK) {
        std::fprintf(stderr, "seiche view: GLEW could not load OpenGL\n");
        glfwDestroyWindow(window);
        glfwTerminate();
        return 1;
    }
    glGetError();  // GLEW's harmless GL_INVALID_ENUM on core profiles

    int status = 0;
    {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini beside the user's files
        // The pictures' font (DejaVu Sans) when there is one: ImGui's own has no "³". Its
        // default glyph ranges hold Latin-1, where ³ and ° are.
        const std::string font_file = imgui_font_file();
        const bool latin1 = !font_file.empty() &&
                            ImGui::GetIO().Fonts->AddFontFromFileTTF(font_file.c_str(), 15.0f);
        ImGui::StyleColorsLight();
        ImGui_ImplGlfw_InitForOpenGL(window, true);
        ImGui_ImplOpenGL3_Init("#version 330 core");
        status = Session(o, scene, std::move(script), window, latin1).run();
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    glfwDestroyWindow(window);
    glfwTerminate();
    return status;
}

}  // namespace seiche::viewer
