// Drawing a snapshot with OpenGL 3.3 core: particles as shaded sphere impostors (point sprites
// writing their own depth), the container's edges as lines, bodies as shaded meshes.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "simulation.hpp"

namespace seiche::viewer {

// An orbiting camera round `target`; 2D scenes look along −z with an orthographic projection.
struct Camera {
    bool ortho = false;
    glm::vec3 target{0.0f};
    float yaw = -0.6f, pitch = 0.35f;  //!< rad
    float distance = 2.0f;             //!< m from the target
    float fov = 0.70f;                 //!< vertical field of view, rad (ortho: sets the height)

    glm::vec3 eye() const;
    glm::mat4 view() const;
    glm::mat4 projection(float aspect) const;
    // Frames the box [lo, hi] whole.
    void fit(const std::array<float, 3>& lo, const std::array<float, 3>& hi, bool two_d);
    // The point where the ray through pixel (px, py) meets the plane through `on` facing the
    // camera (window pixels, y down).
    glm::vec3 unproject_on_plane(double px, double py, int width, int height,
                                 const glm::vec3& on) const;
};

class GlScene {
  public:
    GlScene();  // needs a current OpenGL 3.3 context
    ~GlScene();
    GlScene(const GlScene&) = delete;
    GlScene& operator=(const GlScene&) = delete;

    // Copies the snapshot's particles (coloured by `values` over [lo, hi]) and solids to the GPU.
    void upload(const Snapshot& s, const std::vector<float>& values, float lo, float hi);
    // particles: draw them (else only the surface, when there is one).
    bool particles_shown = true;
    void draw(const Camera& camera, int width, int height) const;

  private:
    unsigned particle_program_ = 0, line_program_ = 0, mesh_program_ = 0;
    unsigned particle_vao_ = 0, particle_vbo_[2] = {0, 0};
    unsigned line_vao_ = 0, line_vbo_ = 0;
    unsigned mesh_vao_ = 0, mesh_vbo_ = 0;
    unsigned surface_vao_ = 0, surface_vbo_ = 0;
    int surface_vertices_ = 0;
    bool surface_lines_ = false;
    unsigned colormap_texture_ = 0;
    int particles_ = 0, line_vertices_ = 0, mesh_vertices_ = 0;
    float radius_ = 0, lo_ = 0, hi_ = 1;
};

}  // namespace seiche::viewer
