// A scene as plain, validated data in SI units. Filled by io::load_scene (or by hand when the
// library is embedded); every field has its default here and its documentation in
// docs/scene-format.md.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "seiche/kernels.hpp"
#include "seiche/surface.hpp"

namespace seiche {

using Vec3d = std::array<double, 3>;  // 2D scenes use the first two components

// A solid box inside the container (a static obstacle: boundary particles on its faces).
struct Obstacle {
    Vec3d min{0, 0, 0};  // m
    Vec3d max{0, 0, 0};  // m
};

struct FluidBlock {
    Vec3d min{0, 0, 0};       // m
    Vec3d max{0, 0, 0};       // m
    Vec3d velocity{0, 0, 0};  // m/s, initial
};

// Macklin & Müller 2013 with the boundary terms and unilateral option of seed 000.
struct PbfParams {
    int min_iterations = 2;            //!< [1, max_iterations]
    int max_iterations = 20;           //!< [1, 1000]
    double density_tolerance = 0.002;  //!< mean density error to stop at, (0, 1)
    double relaxation = 0.01;          //!< ε as a fraction of S at rest (CFM), [0, 10]
    bool unilateral = true;            //!< clamp C to C ≥ 0 (seed 000 eq. 10)
    bool tensile_correction = false;   //!< s_corr of Macklin & Müller eq. (13)
    double s_corr_k = 0.1;             //!< strength, [0, 1]
    double s_corr_n = 4.0;             //!< exponent, [1, 8]
    double s_corr_dq = 0.2;            //!< |Δq| as a fraction of h, (0, 1)
};

// Weakly compressible SPH: Becker & Teschner 2007.
struct WcsphParams {
    enum class Eos { tait, linear };
    double speed_of_sound = 0.0;  //!< c, m/s; 0 = automatic, 10·sqrt(2|g|H) of the fluid height H
    Eos eos = Eos::tait;  //!< tait: p = B((ρ/ρ0)^γ − 1), B = ρ0c²/γ; linear: p = c²(ρ − ρ0)
    double gamma = 7.0;          //!< Tait exponent γ, [1, 10]
    bool clamp_pressure = true;  //!< p ≥ 0: no attraction from under-pressure (seed 000)
    double viscosity = 0.05;     //!< Monaghan 1992 artificial viscosity α, dimensionless, [0, 10]
};

// Double density relaxation: Clavet, Beaudoin & Poulin 2005.
struct DdrParams {
    double speed_of_sound = 0.0;       //!< sets the stiffness k = c²; m/s; 0 = automatic as WCSPH
    double near_stiffness = 0.5;       //!< k_near / k, [0, 10]
    double cohesion = 0.0;             //!< factor on the attraction of negative pressure, [0, 1]
    double linear_viscosity = 0.0;     //!< σ, 1/s, [0, inf)
    double quadratic_viscosity = 0.0;  //!< β, 1/m, [0, inf); 0 = automatic 0.1/(2r)
};

enum class SolverType { pbf, wcsph, ddr };

// XSPH is PBF's viscosity (M&M 2013); WCSPH and DDR have their own, so there it is an option.
inline double default_xsph(SolverType t) {
    return t == SolverType::pbf ? 0.01 : 0.0;
}

inline std::string_view solver_name(SolverType t) {
    return t == SolverType::wcsph ? "wcsph" : t == SolverType::ddr ? "ddr" : "pbf";
}

struct SolverParams {
    SolverType type = SolverType::pbf;
    PbfParams pbf;
    WcsphParams wcsph;
    DdrParams ddr;
    double xsph = -1.0;      //!< XSPH viscosity c, dimensionless, [0, 1]; −1 = the solver's
                             //!< default: 0.01 for PBF, 0 for WCSPH and DDR (own viscosity)
    double vorticity = 0.0;  //!< vorticity confinement ε, m/s, [0, inf)
    double max_speed = 0.0;  //!< runaway speed for the stability guard, m/s; 0 = automatic
};

struct TimeParams {
    enum class Mode { cfl, fixed };
    double end_time = 2.0;     //!< s, (0, 1e6]
    double frame_rate = 30.0;  //!< frames per simulated second, (0, 1e4]
    Mode mode = Mode::cfl;
    double dt = 0.001;       //!< s, the step in fixed mode
    double cfl = 0.4;        //!< Courant number on the particle diameter, (0, 1]
    double max_dt = 0.002;   //!< s, upper bound in CFL mode
    double min_dt = 1.0e-6;  //!< s, lower bound in CFL mode
};

struct OutputParams {
    std::string directory;  //!< default: out/<scene file name>
    bool vtk = true;        //!< .vtp per frame and a .pvd series
    bool ply = true;        //!< binary .ply per frame
    bool stats = true;      //!< stats.csv, one row per step
    bool mesh = false;      //!< a surface mesh per frame (`seiche run --mesh` sets it)
    bool mesh_obj = true;   //!< formats of the meshes: .obj, binary .ply, .vtp (+ surface.pvd)
    bool mesh_ply = true;
    bool mesh_vtk = true;
    bool render = false;  //!< a PNG per frame in render/ (`seiche run --render` sets it)
    bool preview = true;  //!< preview_first.png and preview_last.png in the run directory
};

// Pictures of frames (seiche render, run --render, previews, compare). See docs/scene-format.md.
struct RenderParams {
    enum class Color { speed, density };
    int width = 960, height = 540;  //!< pixels, [64, 8192]
    Color color_by = Color::speed;
    double range_min = 0, range_max = 0;  //!< colour range, m/s or kg/m³; equal: automatic
    bool camera_auto = true;              //!< false: camera_position and camera_target (3D)
    Vec3d camera_position{0, 0, 0};       //!< m
    Vec3d camera_target{0, 0, 0};         //!< m
    double fov = 40.0;                    //!< vertical field of view, degrees, (1, 170)
    int supersample = 2;                  //!< samples per pixel along each axis, [1, 4]
};

struct Scene {
    std::string name = "scene";
    int dimension = 3;
    double particle_radius = 0.025;  //!< m; rest spacing is 2r
    KernelType kernel = KernelType::cubic_spline;
    double support_factor = 4.0;     //!< support radius h = factor · r, [2.5, 8]
    double rest_density = 1000.0;    //!< kg/m³
    Vec3d gravity{0.0, -9.81, 0.0};  //!< m/s²
    Vec3d container_min{0, 0, 0};    //!< m, the inside of the closed container
    Vec3d container_max{1, 1, 1};
    std::vector<FluidBlock> fluid;
    std::vector<Obstacle> obstacles;
    SolverParams solver;
    TimeParams time;
    OutputParams output;
    SurfaceParams surface;  //!< how meshes are made (seiche mesh, run --mesh)
    RenderParams render;    //!< how pictures are made (seiche render, run --render)
};

}  // namespace seiche
