// What a World is made from: the physics of a scene as plain data in SI units (Box2D's b2WorldDef
// is the model). A default-constructed WorldDef holds every default; the keys, units, ranges and
// meanings are declared once, in the parameter table (seiche/parameters.hpp), which drives the
// scene loader, the resolved scene.json, validate(), --set, the JSON Schema and the docs table.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "seiche/kernels.hpp"
#include "seiche/solver_list.hpp"

namespace seiche {

using Vec3d = std::array<double, 3>;  // 2D scenes use the first two components

// A solid box inside the container (a static obstacle: boundary particles on its faces).
struct Obstacle {
    Vec3d min{0, 0, 0};  // m
    Vec3d max{0, 0, 0};  // m
    double adhesion = 0;  // β of Akinci et al. 2013 (docs/solvers.md)
};

// A rigid body in the fluid (docs/bodies.md). Its frame's origin is `position`, the centre of the
// shape and of its mass; `rotation` turns the shape from its own axes into the world's.
enum class BodyShape { box, sphere, cylinder, circle, mesh, polygon };

// A closed triangle mesh in its own frame, m: a body's shape (read by io::read_mesh from OBJ or
// STL, or filled by the program). Triangles counter-clockwise seen from outside.
struct MeshData {
    std::vector<std::array<float, 3>> vertices;
    std::vector<std::array<std::uint32_t, 3>> triangles;
};
enum class BodyMotion { fixed, kinematic, dynamic };  // "static", "kinematic", "dynamic"

// A kinematic body's pose at a time: position (m) and rotation (rad, the `rotation` convention).
struct Keyframe {
    double time = 0;  // s
    Vec3d position{0, 0, 0};
    Vec3d rotation{0, 0, 0};
};

struct BodyDef {
    std::string name;                   // "" = body_N (N its index)
    BodyShape shape = BodyShape::box;   // 3D: box, sphere, cylinder; 2D: box, circle
    Vec3d size{0, 0, 0};                // box: the full extents along its own axes, m
    double radius = 0;                  // sphere, circle, cylinder, m
    double height = 0;                  // cylinder: along its own y axis, m
    std::vector<Vec3d> vertices;        // polygon (2D): corners in the body's frame, m (moved so
                                        // that their centroid is at `position`)
    std::string mesh_file;              // mesh: OBJ or STL, relative to the scene file
    bool inside = false;                // mesh: the fluid lives inside it (a closed tank)
    std::shared_ptr<const MeshData> mesh;  // mesh: its triangles (the loader reads mesh_file)
    Vec3d position{0, 0, 0};            // m
    Vec3d rotation{0, 0, 0};            // rad: about x, then y, then z (world axes); 2D: z only
    BodyMotion motion = BodyMotion::fixed;
    Vec3d velocity{0, 0, 0};            // m/s: kinematic, the prescribed one; dynamic, initial
    Vec3d angular_velocity{0, 0, 0};    // rad/s about the world axes through `position`; 2D: z
    double motion_start = 0;            // s: a kinematic body moves from then ...
    double motion_stop = -1;            // s: ... until then (−1: to the end)
    std::string keyframe_file;          // kinematic: CSV time,x,y,z,rx,ry,rz, relative to the scene
    std::shared_ptr<const std::vector<Keyframe>> keyframes;  // read from keyframe_file (or given)
    double density = 0;                 // kg/m³: dynamic bodies (their mass is density × volume)
    double friction = 0.5;              // Coulomb coefficient of its contacts with solids
    double adhesion = 0;                // β of Akinci et al. 2013: how the fluid clings to it
};

// The name the body goes by in bodies.csv: its own, or body_N for the N-th body.
inline std::string body_name(const BodyDef& b, std::size_t index) {
    return b.name.empty() ? "body_" + std::to_string(index) : b.name;
}

// A nozzle that adds fluid (docs/bodies.md): new particles on a lattice of spacing 2r across its
// opening, a layer each time the last one has moved one spacing out, at `speed` along
// `direction`, between `start` and `stop`. A site still occupied by fluid is skipped.
enum class EmitterShape { rectangle, circle };

struct Emitter {
    EmitterShape shape = EmitterShape::rectangle;
    Vec3d position{0, 0, 0};    // centre of the opening, m
    Vec3d direction{0, -1, 0};  // the way the fluid leaves (normalised when used)
    double width = 0;           // rectangle: across the opening (2D: its length), m
    double height = 0;          // rectangle, 3D: its other side (0: = width), m
    double radius = 0;          // circle (3D), m
    double speed = 1.0;         // m/s
    double start = 0;           // s
    double stop = -1;           // s (−1: to the end)
};

// A box where fluid leaves the simulation: particles whose centre is in it are removed.
struct Sink {
    Vec3d min{0, 0, 0};  // m
    Vec3d max{0, 0, 0};  // m
};

struct FluidBlock {
    Vec3d min{0, 0, 0};       // m
    Vec3d max{0, 0, 0};       // m
    Vec3d velocity{0, 0, 0};  // m/s, initial
    bool rest_gap = false;    // rows next to a wall where the walls read the bulk's density
};

// The solver and the parameter blocks of every solver of the list (solver_list.hpp), by name:
// `solver.pbf`, `solver.wcsph`, ...; then the settings shared by all of them.
struct SolverParams {
    SolverType type = solver_types[0];
#define SEICHE_SOLVER_BLOCK(id, Class, Params) Params id;
    SEICHE_SOLVERS(SEICHE_SOLVER_BLOCK)
#undef SEICHE_SOLVER_BLOCK
    double xsph = -1.0;  // −1 = the solver's default (default_xsph)
    double vorticity = 0.0;
    double surface_tension = 0.0;  // γ of Akinci et al. 2013 (cohesion and curvature); 0 = off
    double kinematic_viscosity = 0.0;  // ν, m²/s; 0 = inviscid, free-slip walls
    double smagorinsky = 0.0;  // C_s of the eddy viscosity (seiche/laminar_viscosity.hpp); 0 = off
    bool wall_function = false;  // the log law's shear on the walls' first layer (ditto)
    double max_speed = 0.0;  // 0 = automatic

    double xsph_or_default() const { return xsph >= 0.0 ? xsph : default_xsph(type); }
    // f(block) on the parameter block of the solver `type` names.
    template <class F>
    decltype(auto) visit_block(F&& f) const { return visit_block_of(*this, f); }
    template <class F>
    decltype(auto) visit_block(F&& f) { return visit_block_of(*this, f); }

private:
    template <class Self, class F>
    static decltype(auto) visit_block_of(Self& self, F& f) {
        switch (self.type) {
#define SEICHE_SOLVER_VISIT(id, Class, Params) \
    case SolverType::id:                       \
        return f(self.id);
            SEICHE_SOLVERS(SEICHE_SOLVER_VISIT)
#undef SEICHE_SOLVER_VISIT
        }
        throw std::invalid_argument("solver.type: not a solver of the list");
    }
};

struct TimeParams {
    enum class Mode { cfl, fixed };
    double end_time = 2.0;
    double frame_rate = 30.0;
    Mode mode = Mode::cfl;
    double dt = 0.001;
    double cfl = 0.4;
    double max_dt = 0.0;  // s; 0 = the solver's (SolverTraits::default_max_dt)
    double min_dt = 1.0e-6;
    // CFL mode: the step follows the solve's iterations too (World::step_scale); 0 = off.
    int target_iterations = 0;
};

struct WorldDef;
// The upper bound of a CFL step: time.max_dt, or the running solver's default when it is 0.
double max_dt(const WorldDef& def);
// The speed of sound of the solvers that resolve it (WCSPH, DDR): the solver's speed_of_sound
// key, or, when that is 0, ten times the largest speed expected (Monaghan's 1% rule), m/s.
double speed_of_sound(const WorldDef& def);
// The fluid particle mass that makes a full lattice of spacing 2r exactly ρ0 (seiche's default),
// kg (2D: kg/m).
double lattice_particle_mass(const WorldDef& def);
// The fluid particle mass of a definition: particle_mass, or lattice_particle_mass when it is 0.
double fluid_particle_mass(const WorldDef& def);

struct WorldDef {
    int dimension = 3;
    double particle_radius = 0.025;
    KernelType kernel = KernelType::cubic_spline;
    double support_factor = 4.0;
    double rest_density = 1000.0;
    double particle_mass = 0.0;  // kg (2D: kg per metre of depth); 0 = lattice_particle_mass
    Vec3d gravity{0.0, -9.81, 0.0};
    Vec3d container_min{0, 0, 0};
    Vec3d container_max{1, 1, 1};
    double container_adhesion = 0;  // β of the container's walls
    std::vector<FluidBlock> fluid;
    std::vector<Obstacle> obstacles;
    std::vector<BodyDef> bodies;
    std::vector<Emitter> emitters;
    std::vector<Sink> sinks;
    SolverParams solver;
    TimeParams time;
};

// One thing wrong with a definition: the key path ("solver.pbf.max_iterations", "fluid[1]") and
// what was expected.
struct Problem {
    std::string path;
    std::string message;
};

// Every problem of the definition, in the order of the parameter table, then the checks between
// keys (boxes, blocks inside the container, sizes that would not fit in memory). Empty: valid.
std::vector<Problem> validate(const WorldDef& def);

// Thrown by World's constructor (and the live setters) for an invalid definition.
class DefinitionError : public std::invalid_argument {
  public:
    explicit DefinitionError(std::vector<Problem> problems);
    const std::vector<Problem>& problems() const { return problems_; }

  private:
    std::vector<Problem> problems_;
};

// Particles along one axis of a block [lo, hi] on a lattice of this spacing: as many as fit.
int particles_along(double lo, double hi, double spacing);

// Number of fluid particles the blocks produce (for checks before building a world).
std::size_t count_fluid_particles(const WorldDef& def);

// Bytes a world of this definition holds at its peak (fluid and boundary particles, grids and
// neighbour lists, solver scratch), estimated before anything is allocated.
double estimated_bytes(const WorldDef& def);

}  // namespace seiche
