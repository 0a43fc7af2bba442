// A scene: the physics of a world (WorldDef, which the core sees) and the settings of the front
// ends that are not physics — where and what to write, how meshes and pictures are made. Filled
// by io::load_scene, or by hand; keys, units, defaults and ranges are declared once in the
// parameter tables (seiche/parameters.hpp for the world, scene_params() for the rest).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "seiche/parameters.hpp"
#include "seiche/surface.hpp"
#include "seiche/world_def.hpp"

namespace seiche {

struct OutputParams {
    std::string directory;  // "" = out/<scene name>
    bool vtk = true;
    bool ply = true;
    bool stats = true;
    bool mesh = false;
    // One mesh format by default: binary PLY, a third of OBJ's size (Blender's add-on, Houdini,
    // MeshLab and ParaView read it); OBJ and VTP (with surface.pvd) when asked for.
    bool mesh_obj = false;
    bool mesh_ply = true;
    bool mesh_vtk = false;
    // OpenVDB: particles as a points grid, and with meshes the surface as a level set.
    bool vdb = false;
    bool render = false;
    bool preview = true;
    double checkpoint_every = 0;  // s of simulated time; 0: no checkpoints
    // Particle frames in pieces, one per process, joined by a .pvtp: no process gathers the
    // whole fluid (a split run too large for one process's memory).
    bool pieces = false;
    // sensors.csv: a row at the end of the first step at or after each multiple of
    // 1/sensor_rate, each sensor's Δt-weighted mean over the steps since the row before.
    double sensor_rate = 1000;  // Hz
};

// A pressure sensor on a flat face of the container or of an obstacle (docs/scene-format.md,
// "Pressure sensors"): the fluid's normal force on the face's boundary particles within the
// patch, over the patch's area, Pa (2D: N/m over m).
enum class SensorFace { minus_x, plus_x, minus_y, plus_y, minus_z, plus_z };
struct SensorDef {
    std::string name;                // "" = sensor_N (N its index)
    std::string object = "container";  // "container" or "obstacles[i]"
    SensorFace face = SensorFace::minus_x;  // which of the object's faces: at its min or max along x, y, z
    Vec3d centre{0, 0, 0};           // m: the patch's centre on the face
    double size = 0;                 // m: the patch's width along each of the face's directions
};

// The name a sensor goes by in sensors.csv: its own, or sensor_N.
inline std::string sensor_name(const SensorDef& s, std::size_t index) {
    return s.name.empty() ? "sensor_" + std::to_string(index) : s.name;
}

// Pictures of frames (seiche render, run --render, previews, compare).
struct RenderParams {
    enum class Color { speed, density };
    int width = 960, height = 540;
    Color color_by = Color::speed;
    double range_min = 0, range_max = 0;  // equal: automatic
    bool camera_auto = true;              // false: camera_position and camera_target (3D)
    Vec3d camera_position{0, 0, 0};
    Vec3d camera_target{0, 0, 0};
    double fov = 40.0;
    int supersample = 2;
};

struct Scene : WorldDef {
    std::string name = "scene";
    std::string description;
    std::string schema;  // "$schema": the JSON Schema an editor checks the file against
    OutputParams output;
    SurfaceParams surface;
    RenderParams render;
    std::vector<SensorDef> sensors;
};

// The front end's keys (name, output, surface, render), declared as the world's are.
std::span<const Param<Scene>> scene_params();
std::span<const Param<SensorDef>> sensor_params();
const ParamList<Scene, SensorDef>& sensor_list();

// Bytes one picture of these settings holds while it is drawn.
double picture_bytes(const RenderParams& render);

// Every problem of the scene: the world's (validate) and the front end's settings.
std::vector<Problem> validate_scene(const Scene& scene);

}  // namespace seiche
