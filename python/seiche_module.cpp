// The Python module `seiche._seiche` (pybind11): scenes validated by the same parameter table as
// the files, worlds stepped with the GIL released, the particle arrays as read-only NumPy views
// without copies, and the run directory, meshes and pictures of the command line.
// docs/python.md is the user's side of this file.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "run/body_frames.hpp"
#include "run/run_dir.hpp"
#include "run/run_output.hpp"
#include "run/sensors.hpp"
#include "seiche/io/readers.hpp"
#include "seiche/io/scene_loader.hpp"
#include "seiche/io/writers.hpp"
#include "seiche/parallel.hpp"
#include "seiche/render.hpp"
#include "seiche/surface.hpp"
#include "seiche/measure.hpp"
#include "seiche/neighbor_grid.hpp"
#include "seiche/world.hpp"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace seiche::python {

// The D of a World<D>.
template <class W>
struct world_dimension;
template <int D>
struct world_dimension<World<D>> {
    static constexpr int value = D;
};

namespace {

// ---- Python values <-> JSON and parameter values ----

// As deep as a scene file may nest (the scene loader's bound): a dict or list that contains
// itself, or one nested 100,000 deep, is refused here instead of exhausting the C++ stack.
constexpr int max_depth = 64;

// A Python str as UTF-8; one that cannot be (a lone surrogate, as os.fsdecode makes of bad
// bytes) is refused by its key path instead of pybind11's bare cast error.
std::string utf8(py::handle o, const std::string& where) {
    Py_ssize_t n = 0;
    const char* text = PyUnicode_AsUTF8AndSize(o.ptr(), &n);
    if (!text) {
        PyErr_Clear();
        throw io::SceneError(where, "expected text that is valid Unicode, got a string with a lone "
                                    "surrogate (undecodable bytes?)");
    }
    return std::string(text, std::size_t(n));
}

nlohmann::json to_json(py::handle o, const std::string& where, int depth = 0) {
    if (depth > max_depth)
        throw io::SceneError(where, "expected a value nested at most " + std::to_string(max_depth) +
                                        " deep (does a list or dict contain itself?)");
    if (o.is_none()) return nullptr;
    if (py::isinstance<py::bool_>(o)) return o.cast<bool>();
    if (PyLong_Check(o.ptr())) {
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(o.ptr(), &overflow);
        if (!overflow) return v;
        // Beyond 64 bits: the number it is, as a scene file's 1e30 is (its key's range decides).
        const double d = PyLong_AsDouble(o.ptr());
        if (d == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            throw io::SceneError(where, "expected a finite number, got an integer beyond any "
                                        "floating-point number");
        }
        return d;
    }
    if (PyFloat_Check(o.ptr())) {
        const double v = o.cast<double>();
        if (!std::isfinite(v))
            throw io::SceneError(where, "expected a finite number, got " + std::string(py::str(o)));
        return v;
    }
    if (py::isinstance<py::str>(o)) return utf8(o, where);
    if (py::isinstance<py::dict>(o)) {
        nlohmann::json j = nlohmann::json::object();
        for (auto [k, v] : o.cast<py::dict>()) {
            const std::string key = utf8(py::str(k), where);
            j[key] = to_json(v, where.empty() ? key : where + "." + key, depth + 1);
        }
        return j;
    }
    // NumPy scalars and arrays: their Python equivalents (an np.int64 is not an int).
    if (py::hasattr(o, "tolist") && !py::isinstance<py::str>(o))
        return to_json(o.attr("tolist")(), where, depth + 1);
    if (py::isinstance<py::list>(o) || py::isinstance<py::tuple>(o)) {
        nlohmann::json j = nlohmann::json::array();
        std::size_t k = 0;
        for (auto v : o) j.push_back(to_json(v, where + "[" + std::to_string(k++) + "]", depth + 1));
        return j;
    }
    throw io::SceneError(where, "expected a number, string, boolean, list or dict, got a " +
                                    std::string(py::str(o.get_type().attr("__name__"))));
}

py::object to_python(const nlohmann::json& j) {
    switch (j.type()) {
        case nlohmann::json::value_t::null: return py::none();
        case nlohmann::json::value_t::boolean: return py::bool_(j.get<bool>());
        case nlohmann::json::value_t::number_integer: return py::int_(j.get<long long>());
        case nlohmann::json::value_t::number_unsigned: return py::int_(j.get<unsigned long long>());
        case nlohmann::json::value_t::number_float: return py::float_(j.get<double>());
        case nlohmann::json::value_t::string: return py::str(j.get<std::string>());
        case nlohmann::json::value_t::array: {
            py::list l;
            for (const auto& e : j) l.append(to_python(e));
            return l;
        }
        case nlohmann::json::value_t::object: {
            py::dict d;
            for (const auto& [k, v] : j.items()) d[py::str(k)] = to_python(v);
            return d;
        }
        default: return py::none();
    }
}

io::SceneError scene_error_of(const DefinitionError& e) {
    const auto& problems = e.problems();
    return io::SceneError(problems.empty() ? "" : problems.front().path,
                          problems.empty() ? e.what() : problems.front().message);
}

// ---- NumPy views ----

// A read-only (n, D) float32 view of an array of vectors; `owner` keeps the memory alive.
template <int D>
py::array view_of(const std::vector<Vec<D>>& a, py::handle owner) {
    static_assert(sizeof(Vec<D>) == D * sizeof(float));
    py::array view(py::dtype::of<float>(), {a.size(), std::size_t(D)},
                   {sizeof(Vec<D>), sizeof(float)},
                   a.empty() ? nullptr : reinterpret_cast<const float*>(a.data()), owner);
    view.attr("flags").attr("writeable") = false;
    return view;
}

template <class T>
py::array view_of(const std::vector<T>& a, py::handle owner) {
    py::array view(py::dtype::of<T>(), {a.size()}, {sizeof(T)}, a.empty() ? nullptr : a.data(),
                   owner);
    view.attr("flags").attr("writeable") = false;
    return view;
}

// Emitters and sinks resize the world's arrays during a step, freeing the memory a view would
// keep pointing at: their worlds hand out read-only copies instead (docs/python.md).
py::array guarded(py::array view, bool resizes) {
    if (!resizes) return view;
    py::array copy = view.attr("copy")();
    copy.attr("flags").attr("writeable") = false;
    return copy;
}

template <int D>
std::vector<Vec<D>> vectors_from(const py::array& a, std::size_t count, const char* what) {
    if (a.dtype().kind() != 'f')
        throw py::type_error(std::string(what) + ": expected a float array (float32 or float64), got dtype " +
                             std::string(py::str(a.dtype())));
    if (a.ndim() != 2 || std::size_t(a.shape(0)) != count || a.shape(1) != D)
        throw py::value_error(std::string(what) + ": expected shape (" + std::to_string(count) +
                              ", " + std::to_string(D) + "), got " +
                              std::string(py::str(py::tuple(a.attr("shape")))));
    const auto d = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
    std::vector<Vec<D>> out(count);
    const double* p = d.data();
    for (std::size_t i = 0; i < count; ++i)
        for (int k = 0; k < D; ++k) {
            const double v = p[i * D + k];
            if (!std::isfinite(v))
                throw py::value_error(std::string(what) + ": row " + std::to_string(i) +
                                      " is not finite (" + std::to_string(v) + ")");
            out[i][k] = float(v);
        }
    return out;
}

py::dict stats_dict(const StepStats& s) {
    py::dict d;
    d["step"] = s.step;
    d["time"] = s.time;
    d["dt"] = s.dt;
    d["iterations"] = s.iterations;
    d["capped"] = s.capped;
    d["capped_peak"] = s.capped_peak;
    d["diverged"] = s.diverged;
    d["density_error_mean"] = s.density_error_mean;
    d["density_error_max"] = s.density_error_max;
    d["kinetic_energy"] = s.kinetic_energy;
    d["potential_energy"] = s.potential_energy;
    d["contained"] = s.contained;
    d["particles"] = s.particles;
    return d;
}

[[noreturn]] void raise_unstable(const StepStats& s) {
    const Instability& b = *s.instability;
    py::object error_type = py::module_::import("seiche").attr("UnstableError");
    py::object e = error_type(
        "unstable at step " + std::to_string(s.step) + " (t = " + std::to_string(s.time) +
        " s): particle " + std::to_string(b.particle) + " " + b.reason);
    e.attr("step") = s.step;
    e.attr("time") = s.time;
    e.attr("particle") = b.particle;
    e.attr("reason") = b.reason;
    PyErr_SetObject(error_type.ptr(), e.ptr());
    throw py::error_already_set();
}

// ---- the world ----

class PyWorld {
  public:
    explicit PyWorld(const Scene& scene) : scene_(scene) {
        try {
            if (scene.dimension == 2)
                world_ = std::make_unique<World<2>>(scene);
            else
                world_ = std::make_unique<World<3>>(scene);
        } catch (const DefinitionError& e) {
            throw scene_error_of(e);
        }
        // As `seiche run`: the bodies' fluid forces (the densities at t = 0 the world has), the
        // scene's pressure sensors (a patch with no boundary particle: ValueError).
        std::visit(
            [&](auto& w) {
                if (!scene.bodies.empty()) w->track_boundary_forces(true);
                sensors_ = make_sensors(scene, *w);
            },
            world_);
    }

    template <class F>
    decltype(auto) visit(F&& f) {
        return std::visit([&](auto& w) -> decltype(auto) { return f(*w); }, world_);
    }
    template <class F>
    decltype(auto) visit(F&& f) const {
        return std::visit([&](const auto& w) -> decltype(auto) { return f(*w); }, world_);
    }
    int dimension() const { return scene_.dimension; }
    bool resizes() const { return !scene_.emitters.empty() || !scene_.sinks.empty(); }

    py::dict step(std::optional<double> dt) {
        StepStats s;
        visit([&](auto& w) {
            const double h = dt ? *dt : w.suggested_dt();
            if (!(h > 0) || !std::isfinite(h))
                throw py::value_error("step: dt must be a positive number of seconds, got " +
                                      std::to_string(h));
            py::gil_scoped_release unlocked;
            s = w.step(h);
        });
        record(s);
        if (s.instability) raise_unstable(s);
        return stats_dict(s);
    }

    py::dict advance_to(py::object self, double t_end, std::optional<double> every,
                        std::optional<py::function> callback, std::int64_t max_steps) {
        if (!std::isfinite(t_end)) throw py::value_error("advance_to: t must be finite");
        if (every && !(*every > 0 && std::isfinite(*every)))
            throw py::value_error("advance_to: every must be a positive number of seconds");
        if (callback && !every)
            throw py::value_error("advance_to: a callback needs every= (the sample interval, s)");
        std::optional<py::error_already_set> error;
        AdvanceOptions o;
        o.every = every.value_or(0.0);
        o.max_steps = max_steps;
        o.on_step = [&](const StepStats& s) {
            py::gil_scoped_acquire locked;
            record(s);
            if (PyErr_CheckSignals() != 0) {  // Ctrl-C: KeyboardInterrupt after this step
                error.emplace();
                return false;
            }
            return true;
        };
        if (callback)
            o.on_sample = [&](std::int64_t) {
                py::gil_scoped_acquire locked;
                try {
                    const py::object r = (*callback)(self);
                    return !(py::isinstance<py::bool_>(r) && !r.cast<bool>());
                } catch (py::error_already_set& e) {
                    error.emplace(std::move(e));
                    return false;
                }
            };
        AdvanceResult r;
        visit([&](auto& w) {
            py::gil_scoped_release unlocked;
            r = w.advance_to(t_end, o);
        });
        if (error) throw std::move(*error);
        if (r.status == AdvanceResult::Status::unstable) raise_unstable(r.last);
        py::dict d;
        d["status"] = r.status == AdvanceResult::Status::reached     ? "reached"
                      : r.status == AdvanceResult::Status::stopped   ? "stopped"
                      : r.status == AdvanceResult::Status::step_limit ? "step_limit"
                                                                      : "unstable";
        d["steps"] = r.steps;
        d["time"] = time();
        return d;
    }

    double time() const {
        return visit([](const auto& w) { return w.time(); });
    }
    const StepStats& last() const { return last_; }

    void set(const std::string& key, py::handle value) {
        const ParamValue v = io::world_value(key, to_json(value, key), scene_.dimension);
        try {
            visit([&](auto& w) { w.set(key, v); });
        } catch (const DefinitionError& e) {
            throw scene_error_of(e);
        }
        // The scene the run directory is written with follows (scene.json, pictures).
        static_cast<WorldDef&>(scene_) = visit([](const auto& w) { return w.definition(); });
    }

    // ---- output ----
    void write_frame(const std::string& dir) {
        if (!out_ || out_dir_ != fs::path(dir)) {
            if (out_) close_output();
            const fs::path d(dir);
            if (const std::string why = run::directory_refusal(d, false, {}, false); !why.empty())
                throw py::value_error(why);
            scene_.output.directory = d.string();
            out_ = std::make_unique<run::RunOutput>(scene_, d, nullptr);
            out_dir_ = d;
            next_frame_ = 0;
        }
        visit([&](const auto& w) { out_->frame(w, next_frame_); });
        ++next_frame_;
    }
    std::string close_output() {
        if (!out_) return "";
        std::string r = out_->close();
        out_.reset();
        return r;
    }
    ~PyWorld() {
        try {
            close_output();
        } catch (...) {
        }
    }

    Scene& scene() { return scene_; }
    const Scene& scene() const { return scene_; }

    // The scene's sensors' pressures in the last step, Pa, by name.
    py::dict sensor_pressures() const {
        py::dict d;
        visit([&](const auto& w) {
            const auto& p = sensors_of(w).last();
            for (std::size_t i = 0; i < p.size(); ++i)
                d[py::str(sensor_name(scene_.sensors[i], i))] = p[i];
        });
        return d;
    }

  private:
    template <int D>
    static std::shared_ptr<void> make_sensors(const Scene& scene, World<D>& w) {
        return std::make_shared<run::PressureSensors<D>>(scene, w);
    }
    template <int D>
    run::PressureSensors<D>& sensors_of(const World<D>&) const {
        return *std::static_pointer_cast<run::PressureSensors<D>>(sensors_);
    }
    void record(const StepStats& s) {
        last_ = s;
        if (out_) out_->stats(s);
        // Every step, as `seiche run` reads them: the rows of sensors.csv when frames are written.
        visit([&](const auto& w) {
            const std::string row = sensors_of(w).after_step(w, s.dt);
            if (out_) out_->sensors(row);
        });
    }

    Scene scene_;
    std::variant<std::unique_ptr<World<2>>, std::unique_ptr<World<3>>> world_;
    StepStats last_;
    std::shared_ptr<void> sensors_;  //!< run::PressureSensors<D> of the world's D
    std::unique_ptr<run::RunOutput> out_;
    fs::path out_dir_;
    int next_frame_ = 0;
};

// A property of the world: one particle array as a view (a copy in worlds that resize).
template <class Select>
auto particle_array(Select select) {
    return [select](py::object self) {
        PyWorld& w = self.cast<PyWorld&>();
        return w.visit(
            [&](const auto& x) { return guarded(view_of(select(x.particles()), self), w.resizes()); });
    };
}

// A property giving a view of one of the boundary particles' arrays (never resized by a step).
template <class Select>
auto boundary_array(Select select) {
    return [select](py::object self) {
        return self.cast<PyWorld&>().visit(
            [&](const auto& x) { return view_of(select(x.boundary()), self); });
    };
}

// set_positions, set_velocities: an (n, D) float array in creation order, checked, then applied.
template <class Apply>
auto creation_order_setter(const char* what, Apply apply) {
    return [what, apply](PyWorld& w, const py::array& a) {
        w.visit([&](auto& x) {
            constexpr int D = std::decay_t<decltype(x.particles().x[0])>::length();
            const auto v = vectors_from<D>(a, x.particles().size(), what);
            try {
                apply(x, v);
            } catch (const std::invalid_argument& e) {
                throw py::value_error(e.what());
            }
        });
    };
}

template <int D>
py::array in_creation_order(const ParticleSet<D>& p, const std::vector<Vec<D>>& a) {
    const std::vector<std::uint32_t> order = creation_order(p.id);
    py::array_t<float> out({p.size(), std::size_t(D)});
    auto m = out.mutable_unchecked<2>();
    for (std::size_t k = 0; k < p.size(); ++k)
        for (int c = 0; c < D; ++c) m(k, c) = a[order[k]][c];
    return out;
}

py::object param_to_python(const ParamValue& v) {
    return std::visit(
        [](const auto& x) -> py::object {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, Vec3d>)
                return py::make_tuple(x[0], x[1], x[2]);
            else if constexpr (std::is_same_v<T, std::vector<Vec3d>>) {
                py::list l;
                for (const auto& p : x) l.append(py::make_tuple(p[0], p[1], p[2]));
                return l;
            } else
                return py::cast(x);
        },
        v);
}

Scene scene_from_dict(py::handle d, const std::string& name, const std::string& base) {
    if (!py::isinstance<py::dict>(d)) throw io::SceneError("", "a scene is a dict");
    return io::parse_scene(to_json(d, ""), name, base.empty() ? fs::current_path() : fs::path(base));
}

template <int D>
std::vector<Vec<D>> positions_of(const py::array& a) {
    return vectors_from<D>(a, std::size_t(a.ndim() >= 1 ? a.shape(0) : 0), "positions");
}

// ---- the module, by what it offers ----

// seiche.SceneFileNotFoundError, made by bind_errors (it lives as long as the module).
py::object scene_file_missing;

// seiche.solvers: the solver list, one dict per solver in the list's order.
void bind_solver_list(py::module_& m) {
    py::list solvers;
    for (const SolverTraits& t : all_solver_traits) {
        py::dict d;
        d["name"] = std::string(t.name);
        d["title"] = std::string(t.title);
        d["paper"] = std::string(t.paper);
        d["resolves_sound"] = t.resolves_sound;
        d["has_pressure"] = t.has_pressure;
        solvers.append(d);
    }
    m.attr("solvers") = solvers;
}

// seiche.SceneError (a ValueError) with the key path; DefinitionError becomes one too.
void bind_errors(py::module_& m) {
    // SceneError(ValueError) carries the key path: "solver.pbf.max_iterations", "fluid[1].min".
    static py::exception<io::SceneError> scene_error(m, "SceneError", PyExc_ValueError);
    scene_error.attr("__module__") = "seiche";
    scene_error.attr("path") = "";
    // seiche.SceneFileNotFoundError: a scene file that is not there, both a FileNotFoundError
    // (errno, filename) and a SceneError.
    py::dict attrs;
    attrs["__module__"] = "seiche";
    attrs["__doc__"] = "A scene file that does not exist: a FileNotFoundError and a SceneError.";
    scene_file_missing = py::module_::import("builtins").attr("type")(
        "SceneFileNotFoundError", py::make_tuple(py::handle(PyExc_FileNotFoundError), scene_error),
        attrs);
    m.attr("SceneFileNotFoundError") = scene_file_missing;
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const io::SceneError& e) {
            py::object err = py::handle(scene_error.ptr())(e.what());
            err.attr("path") = e.path();
            PyErr_SetObject(scene_error.ptr(), err.ptr());
        } catch (const DefinitionError& e) {
            const io::SceneError s = scene_error_of(e);
            py::object err = py::handle(scene_error.ptr())(e.what());
            err.attr("path") = s.path();
            PyErr_SetObject(scene_error.ptr(), err.ptr());
        }
    });
}

// seiche.set_threads, seiche.threads.
void bind_threads(py::module_& m) {
    m.def(
        "set_threads",
        [](int threads) {
            if (threads < 0 || threads > 256)
                throw py::value_error("set_threads: expected 0 (all cores) to 256 threads, got " +
                                      std::to_string(threads));
            set_thread_count(threads);
        },
        py::arg("threads"),
          "Threads of the parallel loops (0: all cores). Results are bitwise the same for any count.");
    m.def("threads", &thread_count, "Threads the parallel loops use.");
}

// seiche.Scene and seiche.load_scene.
void bind_scene(py::module_& m) {
    py::class_<Scene>(m, "Scene", "A validated scene: the physics of a world and the output settings.")
        .def_static(
            "from_dict",
            [](py::handle d, const std::string& name, const std::string& base) {
                return scene_from_dict(d, name, base);
            },
            py::arg("scene"), py::arg("name") = "scene", py::arg("base") = "",
            "A scene from a dict with the keys of a scene file (docs/scene-format.md); mesh "
            "files are found relative to base (default: the current directory). Raises "
            "SceneError naming the key path.")
        .def("to_dict", [](const Scene& s) { return to_python(io::scene_to_json(s)); },
             "The resolved scene as a dict, every default filled in.")
        .def(
            "set",
            [](Scene& s, const std::string& key, py::handle value) {
                if (key.empty()) throw io::SceneError("", "set: the key is empty");
                nlohmann::json doc = io::scene_to_json(s);
                io::apply_override(doc, key + "=" + to_json(value, key).dump());
                s = io::parse_scene(doc, s.name);
            },
            py::arg("key"), py::arg("value"),
            "Sets one key (a dotted path as in --set: \"solver.pbf.max_iterations\", "
            "\"fluid[0].max\") and validates the scene; raises SceneError, the scene unchanged.")
        .def(
            "get",
            [](const Scene& s, const std::string& key) {
                nlohmann::json node = io::scene_to_json(s);
                for (const std::string& part : key_parts(key)) {
                    const auto open = part.find('[');
                    const std::string name = part.substr(0, open);
                    if (!node.is_object() || !node.contains(name))
                        throw io::SceneError(key, "no such key");
                    node = node[name];
                    if (open != std::string::npos) {
                        const std::string index = part.substr(open + 1, part.size() - open - 2);
                        if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos)
                            throw io::SceneError(key, "expected an index such as fluid[0]");
                        const std::size_t k = std::stoul(index);
                        if (!node.is_array() || k >= node.size())
                            throw io::SceneError(key, "no such element");
                        node = node[k];
                    }
                }
                return to_python(node);
            },
            py::arg("key"), "The value of one key (a dotted path).")
        .def("copy", [](const Scene& s) { return Scene(s); })
        .def_readwrite("name", &Scene::name)
        .def_property_readonly("dimension", [](const Scene& s) { return s.dimension; })
        .def_property_readonly("solver",
                               [](const Scene& s) { return std::string(solver_name(s.solver.type)); })
        .def("__repr__", [](const Scene& s) {
            return "<seiche.Scene " + s.name + ", " + std::to_string(s.dimension) + "D, " +
                   std::string(solver_name(s.solver.type)) + ">";
        });

    m.def(
        "load_scene",
        [](const std::string& path, const std::vector<std::string>& overrides) {
            // A missing file is what Python programs test for: a FileNotFoundError (that is a
            // SceneError too, as it was before).
            std::error_code ec;
            if (!fs::exists(path, ec)) {
                PyErr_SetObject(scene_file_missing.ptr(),
                                py::make_tuple(ENOENT, "No such scene file", path).ptr());
                throw py::error_already_set();
            }
            return io::load_scene(path, overrides);
        },
        py::arg("path"), py::arg("overrides") = std::vector<std::string>{},
        "Reads and validates a scene file; overrides are \"key=value\" as with --set. Raises "
        "FileNotFoundError for a missing file, SceneError naming the key path for a bad one.");
}

// seiche.World: stepping, views of the particles, live keys, objects, frames on disk.
void bind_world(py::module_& m) {
    static const std::string solver_doc = "The solver: " + solver_names_text() +
                                          " (seiche.solvers); setting it restarts the solver on "
                                          "the current particles.";
    py::class_<PyWorld>(m, "World", "A running simulation built from a Scene.")
        .def(py::init<const Scene&>(), py::arg("scene"))
        .def("step", &PyWorld::step, py::arg("dt") = py::none(),
             "One time step of dt seconds (default: the scene's next step, fixed or CFL); "
             "returns the step's stats. The GIL is released while it runs.")
        .def(
            "advance_to",
            [](py::object self, double t, std::optional<double> every,
               std::optional<py::function> callback, std::int64_t max_steps) {
                return self.cast<PyWorld&>().advance_to(self, t, every, callback, max_steps);
            },
            py::arg("t"), py::arg("every") = py::none(), py::arg("callback") = py::none(),
            py::arg("max_steps") = 0,
            "Steps until time t (s), as `seiche run` does: steps are fitted to land on every "
            "multiple of `every` where callback(world) is called (returning False stops). "
            "Ctrl-C raises KeyboardInterrupt after the current step; the world stays usable.")
        .def_property_readonly("time", &PyWorld::time, "Simulated time, s.")
        .def(
            "suggested_dt",
            [](const PyWorld& w) { return w.visit([](const auto& x) { return x.suggested_dt(); }); },
            "The next step's size, s: time.dt, or the CFL bound in [time.min_dt, time.max_dt].")
        .def_property_readonly("steps",
                               [](const PyWorld& w) { return w.visit([](const auto& x) { return x.steps(); }); })
        .def_property_readonly("dimension", &PyWorld::dimension)
        .def_property_readonly("stats", [](const PyWorld& w) { return stats_dict(w.last()); },
                               "The stats.csv columns of the last step.")
        .def_property_readonly(
            "stage_times",
            [](const PyWorld& w) {
                const StageTimes t = w.visit([](const auto& x) { return x.stage_times(); });
                py::dict d;
                d["neighbors"] = t.neighbors;
                d["solver"] = t.solver;
                d["velocity"] = t.velocity;
                d["total"] = t.total;
                return d;
            },
            "Wall time per stage summed over all steps, s.")
        .def_property(
            "solver",
            [](const PyWorld& w) {
                return std::string(
                    solver_name(w.visit([](const auto& x) { return x.definition().solver.type; })));
            },
            [](PyWorld& w, py::handle name) { w.set("solver.type", name); },
            solver_doc.c_str())
        .def("set", &PyWorld::set, py::arg("key"), py::arg("value"),
             "Sets a live key (gravity, solver.*, time.*), validated as in a scene file; raises "
             "SceneError naming the key, the world unchanged.")
        .def(
            "get",
            [](const PyWorld& w, const std::string& key) {
                for (const auto& p : world_params())
                    if (p.key == key) {
                        const ParamValue v = w.visit([&](const auto& x) { return p.get(x.definition()); });
                        if (p.kind == ParamKind::choice)
                            return py::object(py::str(std::string(p.choices.at(std::size_t(std::get<double>(v))))));
                        if (p.kind == ParamKind::integer)
                            return py::object(py::int_(static_cast<long long>(std::get<double>(v))));
                        return param_to_python(v);
                    }
                throw io::SceneError(key, "no such key (see docs/scene-format.md)");
            },
            py::arg("key"), "The running world's value of a key of the scene's top level or solver.")
        .def_property_readonly("live_keys", [](const PyWorld&) {
            std::vector<std::string> k;
            for (auto key : World<3>::live_keys()) k.emplace_back(key);
            return k;
        })
        .def_property_readonly("scene", [](PyWorld& w) { return Scene(w.scene()); },
                               "A copy of the scene, with the live changes made so far.")
        // Views: no copy. Valid until the next step or change of the world.
        .def_property_readonly(
            "positions", particle_array([](const auto& p) -> const auto& { return p.x; }),
            "Positions, m: a read-only (n, D) float32 view of the world's array, in storage "
            "order (see ids). Valid until the next step or change.")
        .def_property_readonly(
            "velocities", particle_array([](const auto& p) -> const auto& { return p.v; }),
            "Velocities, m/s: a read-only (n, D) float32 view, storage order.")
        .def_property_readonly(
            "densities", particle_array([](const auto& p) -> const auto& { return p.rho; }),
            "Densities of the last step, kg/m³: a read-only (n,) float32 view, storage order.")
        .def_property_readonly(
            "ids", particle_array([](const auto& p) -> const auto& { return p.id; }),
            "Creation ids: ids[i] is the creation index of the particle stored at row i.")
        .def_property_readonly(
            "boundary_positions", boundary_array([](const auto& b) -> const auto& { return b.x; }),
            "Boundary particles (container, obstacles, bodies), m: read-only view.")
        .def_property_readonly(
            "boundary_forces", boundary_array([](const auto& b) -> const auto& { return b.force; }),
            "The fluid's force on each boundary particle in the last step, N (N/m in 2D), rows "
            "as boundary_positions: a read-only view, empty until track_forces() (the objects' "
            "collision contacts are not in it).")
        .def_property_readonly(
            "sensor_pressures", &PyWorld::sensor_pressures,
            "The scene's pressure sensors (its \"sensors\") in the last step: {name: Pa}, empty "
            "without sensors. write_frame() writes their rows to sensors.csv, as seiche run does.")
        .def_property_readonly(
            "boundary_face_forces",
            boundary_array([](const auto& b) -> const auto& { return b.face_force; }),
            "boundary_forces seen from each particle's own faces (what wall_pressure reads): "
            "along each axis only the fluid on the open side of the nearest face of a fixed box; "
            "elsewhere the same as boundary_forces. N (N/m in 2D), read-only view.")
        .def_property_readonly(
            "pressures",
            [](const PyWorld& w) {
                // A copy: switching the solver frees the state it comes from.
                return w.visit([&](const auto& x) {
                    const auto p = x.pressure();
                    return py::array_t<float>(p.size(), p.data());
                });
            },
            "Pressure of the last step, Pa, storage order, for a solver with a pressure field "
            "(seiche.solvers' has_pressure; else empty): a copy.")
        .def(
            "positions_in_creation_order",
            [](const PyWorld& w) {
                return w.visit([](const auto& x) { return in_creation_order(x.particles(), x.particles().x); });
            },
            "A copy of the positions, row k the particle created k-th.")
        .def(
            "velocities_in_creation_order",
            [](const PyWorld& w) {
                return w.visit([](const auto& x) { return in_creation_order(x.particles(), x.particles().v); });
            },
            "A copy of the velocities, row k the particle created k-th.")
        .def("set_positions",
             creation_order_setter("set_positions",
                                   [](auto& x, const auto& v) { x.set_positions(v); }),
             py::arg("positions"),
             "Moves every particle: row k is the particle created k-th, m; an (n, D) float array.")
        .def("set_velocities",
             creation_order_setter("set_velocities",
                                   [](auto& x, const auto& v) { x.set_velocities(v); }),
             py::arg("velocities"),
             "Sets every velocity: row k is the particle created k-th, m/s; an (n, D) float array.")
        .def_property_readonly(
            "objects",
            [](const PyWorld& w) {
                return w.visit([](const auto& x) {
                    py::list l;
                    for (const auto& o : x.boundary_objects()) {
                        py::dict d;
                        d["name"] = o.name;
                        d["position"] = std::vector<float>(&o.position[0], &o.position[0] + o.position.length());
                        std::vector<std::vector<float>> r;
                        for (int i = 0; i < o.rotation.length(); ++i) {
                            r.emplace_back();
                            for (int j = 0; j < o.rotation.length(); ++j) r.back().push_back(o.rotation[j][i]);
                        }
                        d["rotation"] = r;
                        d["velocity"] = std::vector<float>(&o.velocity[0], &o.velocity[0] + o.velocity.length());
                        d["force"] = std::vector<float>(&o.force[0], &o.force[0] + o.force.length());
                        d["first"] = o.first;  // its rows of boundary_positions and the forces
                        d["count"] = o.count;
                        l.append(d);
                    }
                    return l;
                });
            },
            "The boundary objects (container, obstacles, bodies): name, position (m), rotation "
            "(rows of the matrix), velocity (m/s), the fluid's force in the last step (N, "
            "N/m in 2D; bodies only, or after track_forces()) and its boundary particles, rows "
            "first to first + count of boundary_positions.")
        .def(
            "track_forces", [](PyWorld& w, bool on) { w.visit([&](auto& x) { x.track_boundary_forces(on); }); },
            py::arg("on") = true, "Computes the fluid's force on every boundary object each step.")
        .def(
            "wall_pressure",
            [](const PyWorld& w, std::size_t object, int axis, int side,
               const std::vector<float>& centre, std::optional<float> half_size,
               bool from_field) {
                return w.visit([&](const auto& x) -> double {
                    constexpr int D = world_dimension<std::decay_t<decltype(x)>>::value;
                    if (centre.size() != std::size_t(D))
                        throw py::value_error("wall_pressure: centre needs " + std::to_string(D) +
                                              " coordinates, got " + std::to_string(centre.size()));
                    if (side != 1 && side != -1)
                        throw py::value_error("wall_pressure: side is +1 (the wall beyond the "
                                              "fluid along +axis) or -1, got " + std::to_string(side));
                    if (half_size && !(*half_size > 0 && std::isfinite(*half_size)))
                        throw py::value_error("wall_pressure: half_size must be a positive number of metres");
                    const float d = float(2 * x.definition().particle_radius);
                    Vec<D> c;
                    for (int a = 0; a < D; ++a) c[a] = centre[a];
                    const WallSensor<D> sensor =
                        wall_sensor<D>(x.boundary().x, x.boundary_objects(), object, axis,
                                       float(side), c, half_size.value_or(d), d);
                    const std::span<const Vec<D>> fx(x.particles().x.data(), x.particles().size());
                    if (from_field) {
                        if (x.pressure().empty())
                            throw py::value_error(
                                "wall_pressure: from_field needs a solver with a pressure field (" +
                                std::string(solver_traits(x.definition().solver.type).name) +
                                " has none)");
                        return sensor.field_pressure(fx, x.pressure(),
                                                     CubicSpline<D>(x.support_radius()));
                    }
                    if (!x.tracking_boundary_forces())
                        throw std::runtime_error("wall_pressure: call track_forces() first (the "
                                                 "wall's forces are computed from then on)");
                    return sensor.pressure(x.boundary().face_force, fx, x.contact_forces(),
                                           x.contact_objects());
                });
            },
            py::arg("object"), py::arg("axis"), py::arg("side"), py::arg("centre"),
            py::arg("half_size") = py::none(), py::arg("from_field") = false,
            "The pressure (Pa) a sensor on a flat face reads after the last step: the face of "
            "objects[object] (an unposed box: the container, an obstacle) across `axis` (0 x, 1 y, "
            "2 z) on the side `side` (+1: the wall lies beyond the fluid along +axis), a patch "
            "2·half_size across (default 2r) centred at `centre` on the face; the fluid's force on "
            "the wall's particles and its contacts over the patch's area (track_forces() first), "
            "or with from_field the Shepard mean of the particles' pressures half a spacing in "
            "front of it (WCSPH, DFSPH).")
        .def("write_frame", &PyWorld::write_frame, py::arg("run_dir"),
             "Writes the current state as the next frame of a run directory, the files of "
             "`seiche run` (frames, particles.pvd, stats.csv of the steps since the first frame, "
             "scene.json), so ParaView, `seiche mesh` and `seiche render` read it.")
        .def("close_output", &PyWorld::close_output,
             "Finishes the run directory (last picture, movie); also done when the world goes.");
}

// seiche.mesh: the surface of particle positions, as `seiche mesh` makes it.
void bind_mesh(py::module_& m) {
    m.def(
        "mesh",
        [](const py::array& positions, double radius, double cell_size, double iso,
           double smoothing_radius, int smoothing_iterations) {
            if (!(radius > 0)) throw py::value_error("mesh: radius must be > 0 (the particle radius, m)");
            SurfaceParams p;
            p.cell_size = cell_size;
            p.iso = iso;
            p.smoothing_radius = smoothing_radius;
            p.smoothing_iterations = smoothing_iterations;
            const int D = positions.ndim() == 2 ? int(positions.shape(1)) : 0;
            if (D != 2 && D != 3) throw py::value_error("mesh: positions must have shape (n, 2) or (n, 3)");
            SurfaceMesh mesh;
            try {
                if (D == 2) {
                    const auto x = positions_of<2>(positions);
                    py::gil_scoped_release unlocked;
                    mesh = reconstruct_surface<2>(x, float(radius), p);
                } else {
                    const auto x = positions_of<3>(positions);
                    py::gil_scoped_release unlocked;
                    mesh = reconstruct_surface<3>(x, float(radius), p);
                }
                if (smoothing_iterations > 0) smooth_mesh(mesh, smoothing_iterations);
            } catch (const std::invalid_argument& e) {
                throw py::value_error(std::string("mesh: ") + e.what());
            }
            const std::size_t per = D == 3 ? 3 : 2;
            py::array_t<float> v({mesh.vertex_count(), std::size_t(3)});
            std::copy(mesh.position.begin(), mesh.position.end(), v.mutable_data());
            py::array_t<std::uint32_t> f({mesh.index.size() / per, per});
            std::copy(mesh.index.begin(), mesh.index.end(), f.mutable_data());
            return py::make_tuple(v, f);
        },
        py::arg("positions"), py::arg("radius"), py::arg("cell_size") = 1.0, py::arg("iso") = 0.5,
        py::arg("smoothing_radius") = 4.0, py::arg("smoothing_iterations") = 0,
        "The fluid's surface by marching cubes (as `seiche mesh`): (vertices (m, 3) float32, "
        "faces (k, 3) uint32 triangles in 3D, (k, 2) segments in 2D). radius is the particle "
        "radius r, m; cell_size and smoothing_radius are in units of r.");
}

// seiche.render: a picture of a world, as `seiche render` draws it.
void bind_render(py::module_& m) {
    m.def(
        "render",
        [](const PyWorld& w, const std::string& path, py::object settings) {
            // The scene's render.* keys, with these changed ("width", "color_by", ...).
            Scene scene = w.scene();
            if (!settings.is_none()) {
                nlohmann::json doc = io::scene_to_json(scene);
                for (auto [k, v] : settings.cast<py::dict>()) {
                    const std::string key = "render." + std::string(py::str(k));
                    io::apply_override(doc, key + "=" + to_json(v, key).dump());
                }
                scene = io::parse_scene(doc, scene.name);
            }
            const render::Image image = w.visit([&](const auto& x) {
                constexpr int D = std::decay_t<decltype(x.particles().x[0])>::length();
                io::FrameData f = io::frame_data(x.particles(), x.time());
                std::vector<run::BodyPose> poses;
                for (std::size_t b = 0; b < scene.bodies.size(); ++b)
                    poses.push_back(run::body_pose(x.boundary_objects()[x.body_object(b)]));
                run::append_body_outlines<D>(scene, poses, f.solid_edges);
                py::gil_scoped_release unlocked;
                return render::render_frame(f, scene, run::frame_caption(scene, x.time()));
            });
            if (!path.empty()) render::write_png(path, image);  // atomic, as every output file
            py::array_t<std::uint8_t> out({std::size_t(image.height), std::size_t(image.width), std::size_t(3)});
            std::copy(image.rgb.begin(), image.rgb.end(), out.mutable_data());
            return out;
        },
        py::arg("world"), py::arg("path") = "", py::arg("settings") = py::none(),
        "A picture of the world as `seiche render` draws it: an (height, width, 3) uint8 array; "
        "written as PNG too when path is given. settings changes render.* keys, e.g. "
        "{\"width\": 640, \"color_by\": \"density\"}.");
}

[[noreturn]] void raise_file_not_found(const std::string& path) {
    PyErr_SetObject(PyExc_FileNotFoundError,
                    py::make_tuple(ENOENT, "No such file or directory", path).ptr());
    throw py::error_already_set();
}

// seiche.read_frame, seiche.read_pvd: what a finished run wrote, through the program's readers
// (seiche.read_run in __init__.py builds on them).
void bind_readers(py::module_& m) {
    m.def(
        "read_frame",
        [](const std::string& path) {
            if (!std::filesystem::exists(path)) raise_file_not_found(path);
            io::FrameData f;
            try {
                f = io::read_frame(path);
            } catch (const std::runtime_error& e) {
                throw py::value_error(e.what());
            }
            const std::size_t n = f.position.size() / 3;
            py::dict out;
            out["position"] = py::array_t<float>({n, std::size_t(3)}, f.position.data());
            if (f.velocity.size() == 3 * n)
                out["velocity"] = py::array_t<float>({n, std::size_t(3)}, f.velocity.data());
            out["density"] = py::array_t<float>(n, f.density.data());
            if (f.id.size() == n) {
                out["id"] = py::array_t<std::uint32_t>(n, f.id.data());
            } else {  // a frame without ids: rows are in creation order, as seiche writes them
                py::array_t<std::uint32_t> id(n);
                for (std::size_t i = 0; i < n; ++i) id.mutable_at(i) = std::uint32_t(i);
                out["id"] = id;
            }
            return out;
        },
        py::arg("path"),
        "One particle frame (.vtp, .pvtp, .ply or legacy .vtk) as a dict of NumPy arrays: position and "
        "velocity (n × 3, m and m/s; x y z even in 2D), density (kg/m³) and id (the creation "
        "id). Raises FileNotFoundError, or ValueError naming what is wrong with the file.");
    m.def(
        "read_pvd",
        [](const std::string& path) {
            if (!std::filesystem::exists(path)) raise_file_not_found(path);
            std::vector<io::PvdEntry> entries;
            try {
                entries = io::read_pvd(path);
            } catch (const std::runtime_error& e) {
                throw py::value_error(e.what());
            }
            py::list out;
            for (const io::PvdEntry& e : entries) out.append(py::make_tuple(e.time, e.file));
            return out;
        },
        py::arg("path"),
        "The (time in s, file) entries of a .pvd collection, in file order; the files relative to "
        "the .pvd's directory as written there.");
}

}  // namespace

PYBIND11_MODULE(_seiche, m) {
    m.doc() = "seiche: particle fluids (PBF, WCSPH, DDR) — the compiled part; see docs/python.md";
    m.attr("__version__") = SEICHE_VERSION;
    // The build's pair loops (`seiche --version` prints the same): runs give the bits of
    // another build's only where this reads the same.
    m.attr("pair_loops") = std::string(pair_loops_description());
    bind_solver_list(m);
    bind_errors(m);
    bind_threads(m);
    bind_scene(m);
    bind_world(m);
    bind_mesh(m);
    bind_render(m);
    bind_readers(m);
}

}  // namespace seiche::python
